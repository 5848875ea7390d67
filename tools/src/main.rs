//! `podlens`: the batch jobs and the server of Podlens, in one binary.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use clap::{Parser, Subcommand};
use podlens_tools::config::Config;
use podlens_tools::generate::{GenerateOptions, generate};
use podlens_tools::progress;

#[derive(Debug, Parser)]
#[command(name = "podlens", version, about = "Podlens: podcast search and intelligence")]
struct Cli {
    /// TOML config file (default: ./podlens.toml when present).
    #[arg(long, global = true, env = "PODLENS_CONFIG", value_name = "FILE")]
    config: Option<PathBuf>,

    #[command(flatten)]
    settings: Config,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Write a deterministic synthetic corpus: RSS feeds, transcripts, websites, charts, OPML.
    Generate(GenerateArgs),
}

#[derive(Debug, clap::Args)]
struct GenerateArgs {
    /// Number of podcasts (feeds) to write.
    #[arg(long, default_value_t = 2000)]
    podcasts: u64,
    /// Random seed: the same seed and options give byte-identical output.
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// Output directory.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Base URL the corpus will be served from (used in feed, transcript and site links).
    #[arg(long, default_value = "http://127.0.0.1:8900")]
    base_url: String,
    /// Share of episodes that get a transcript (0.0–1.0).
    #[arg(long, default_value_t = 0.1)]
    transcript_share: f64,
    /// Days of chart snapshots.
    #[arg(long, default_value_t = 30)]
    chart_days: u32,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let file = Config::load_file(cli.config.as_deref())?;
    let config = cli.settings.or_file(file);
    init_tracing(&config);
    if let Some(threads) = config.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .context("cannot configure worker threads")?;
    }
    match cli.command {
        Command::Generate(args) => run_generate(&config, args),
    }
}

fn init_tracing(config: &Config) {
    let filter = tracing_subscriber::EnvFilter::try_new(config.log_filter())
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).init();
}

fn run_generate(config: &Config, args: GenerateArgs) -> anyhow::Result<()> {
    let options = GenerateOptions {
        podcasts: args.podcasts,
        seed: args.seed,
        out: args.out,
        base_url: args.base_url,
        transcript_share: args.transcript_share,
        chart_days: args.chart_days,
    };
    let started = Instant::now();
    let bar = progress::bar(options.podcasts, "podcasts", config.no_progress);
    bar.set_message("generating");
    let summary = generate(&options, &|done| bar.set_position(done))
        .with_context(|| format!("cannot generate a corpus in {}", options.out.display()))?;
    bar.finish_and_clear();
    println!(
        "generated {} podcasts, {} episodes, {} transcripts, {} sites, {} chart snapshots \
         ({:.1} MB) in {} in {:.1}s",
        summary.podcasts,
        summary.episodes,
        summary.transcripts,
        summary.sites,
        summary.chart_snapshots,
        summary.bytes_written as f64 / 1e6,
        options.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
