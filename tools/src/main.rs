//! `podlens`: the batch jobs and the server of Podlens, in one binary.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use clap::{Parser, Subcommand};
use podlens_tools::config::Config;
use podlens_tools::progress;

#[derive(Debug, Parser)]
#[command(
    name = "podlens",
    version,
    about = "Podlens: podcast search and intelligence"
)]
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
    /// Write a deterministic synthetic corpus: RSS feeds, transcripts, websites,
    /// chart snapshots, an OPML file and a manifest of ground truth.
    Generate(GenerateArgs),
    /// Serve the HTTP API (and the web app's bundle) over the data directory.
    Serve(podlens_tools::serve_cmd::ServeArgs),
    /// Serve some shards of the published index to a cluster's API nodes.
    SearchNode(podlens_tools::search_node_cmd::SearchNodeArgs),
    /// Upload the published index generation to a cluster's object store and record
    /// it in the metastore, for the search nodes to pull.
    Publish(podlens_tools::publish_cmd::PublishArgs),
    /// A cluster's batch: push a partition's catalog snapshot to the object store
    /// (`catalog push`), or merge a build's partitions into one catalog (`catalog merge`).
    Catalog(podlens_tools::catalog_cmd::CatalogArgs),
    /// Manage API keys (`keys create --email E --plan P`).
    Keys(podlens_tools::keys_cmd::KeysArgs),
    /// Print the mail written to the data directory's outbox (sign-in links) when no
    /// SMTP server is configured.
    Outbox(podlens_tools::outbox_cmd::OutboxArgs),
    /// Fetch and parse feeds (files, folders, OPML files, URLs) into the catalog;
    /// with no argument, re-poll every feed of the catalog.
    Ingest(podlens_tools::ingest_cmd::IngestArgs),
    /// The whole pipeline on a generated corpus, then the app at http://127.0.0.1:8080.
    Demo(podlens_tools::demo_cmd::DemoArgs),
    /// Build the search indexes from the catalog snapshot (atomic publish).
    Index(podlens_tools::index_cmd::IndexArgs),
    /// Build (`model build`) or evaluate (`model eval`) the static embedding model.
    Model(podlens_tools::model_cmd::ModelArgs),
    /// Crawl every podcast's website into the catalog, or one site with `--url URL --json`.
    Crawl(podlens_tools::crawl_cmd::CrawlArgs),
    /// Chart movements, rating and follower lookups and authority scores into the catalog.
    Score(podlens_tools::score_cmd::ScoreArgs),
    /// Copy the data directory into a new directory with a manifest of checksums,
    /// consistent while `podlens serve` runs over it.
    Backup(podlens_tools::backup_cmd::BackupArgs),
    /// Restore a backup into the data directory after checking every file's checksum
    /// (refused while a server uses it, or when it is not empty unless --force).
    Restore(podlens_tools::backup_cmd::RestoreArgs),
    /// What a data directory is serving and doing: the index generation and its age, the
    /// catalog snapshot, the background jobs' last pass and recent failures (works while
    /// `podlens serve` runs).
    Status(podlens_tools::status_cmd::StatusArgs),
    /// Create or update the application store (app.sqlite3, or the PostgreSQL database
    /// of --database-url) and import a legacy app.duckdb of the data directory.
    Migrate,
    /// Print the server's OpenAPI document (what `GET /api/v1/openapi.json` answers).
    Openapi,
}

#[derive(Debug, clap::Args)]
struct GenerateArgs {
    /// Number of podcasts.
    #[arg(long, default_value_t = 2000)]
    podcasts: usize,
    /// Random seed; the same seed and options give byte-identical output.
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// Output directory (created; an earlier corpus in it is replaced).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// URL the corpus will be served from (feed self links, transcript and site URLs).
    #[arg(long, default_value = "http://127.0.0.1:8900")]
    base_url: String,
    /// Share of episodes with a transcript (0 to 1).
    #[arg(long, default_value_t = 0.1)]
    transcript_share: f64,
    /// Days of Apple and Spotify chart snapshots.
    #[arg(long, default_value_t = 30)]
    chart_days: u32,
    /// The day the corpus is "as of" (YYYY-MM-DD): its newest episodes and charts end
    /// there. Default: a day derived from the seed, the same on any day.
    #[arg(long, value_name = "DATE")]
    as_of: Option<chrono::NaiveDate>,
}

/// mimalloc: the ingest and index paths allocate many small strings; it spends about
/// half of the system allocator's time on them (benches/ingest/RESULTS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A failed command prints one line, `error: ` and its causes joined by ": ", and exits
/// with 1. The error's backtrace follows only when `RUST_BACKTRACE` asks for it.
fn main() -> std::process::ExitCode {
    // Before any thread starts: the encoder's OpenMP settings are environment variables.
    podlens_indexer::embedding::Encoder::prepare_environment();
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{}", error_line(&error));
            if std::env::var_os("RUST_BACKTRACE").is_some_and(|value| value != "0") {
                eprintln!("{}", error.backtrace());
            }
            std::process::ExitCode::FAILURE
        }
    }
}

/// `error: outer: cause: root cause`, on one line.
fn error_line(error: &anyhow::Error) -> String {
    let mut causes: Vec<String> = Vec::new();
    for cause in error.chain() {
        let text = cause
            .to_string()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        // A wrapped error often repeats its cause's text: say it once.
        if !text.is_empty() && !causes.iter().any(|seen| seen.contains(&text)) {
            causes.push(text);
        }
    }
    format!("error: {}", causes.join(": "))
}

fn run() -> anyhow::Result<()> {
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
        Command::Generate(args) => run_generate(args, &config),
        Command::Serve(args) => podlens_tools::serve_cmd::run(&config, args),
        Command::SearchNode(args) => podlens_tools::search_node_cmd::run(&config, args),
        Command::Publish(args) => podlens_tools::publish_cmd::run(&config, args),
        Command::Catalog(args) => podlens_tools::catalog_cmd::run(&config, args),
        Command::Keys(args) => podlens_tools::keys_cmd::run(&config, args),
        Command::Outbox(args) => podlens_tools::outbox_cmd::run(&config, args),
        Command::Ingest(args) => podlens_tools::ingest_cmd::run(&config, args),
        Command::Demo(args) => podlens_tools::demo_cmd::run(&config, args),
        Command::Index(args) => podlens_tools::index_cmd::run(&config, args),
        Command::Model(args) => podlens_tools::model_cmd::run(&config, args),
        Command::Crawl(args) => podlens_tools::crawl_cmd::run(&config, args),
        Command::Score(args) => podlens_tools::score_cmd::run(&config, args),
        Command::Backup(args) => podlens_tools::backup_cmd::run_backup(&config, args),
        Command::Restore(args) => podlens_tools::backup_cmd::run_restore(&config, args),
        Command::Status(args) => podlens_tools::status_cmd::run(&config, args),
        Command::Migrate => podlens_tools::migrate_cmd::run(&config),
        Command::Openapi => {
            let document = serde_json::to_string_pretty(podlens_api::openapi::document())?;
            println!("{document}");
            Ok(())
        }
    }
}

fn run_generate(args: GenerateArgs, config: &Config) -> anyhow::Result<()> {
    use podlens_tools::generate::{GenerateOptions, generate};
    let started = Instant::now();
    let options = GenerateOptions {
        podcasts: args.podcasts,
        seed: args.seed,
        out: args.out,
        base_url: args.base_url,
        transcript_share: args.transcript_share,
        chart_days: args.chart_days,
        as_of: args.as_of,
    };
    let bar = progress::bar(options.podcasts as u64, "podcasts", config.no_progress);
    bar.set_message("generating");
    let summary = generate(&options, &|| bar.inc(1))
        .with_context(|| format!("cannot generate a corpus in {}", options.out.display()))?;
    bar.finish_and_clear();
    tracing::debug!(
        seconds = started.elapsed().as_secs_f64(),
        "generate finished"
    );
    println!("{summary}");
    Ok(())
}

fn init_tracing(config: &Config) {
    let filter = tracing_subscriber::EnvFilter::try_new(config.log_filter())
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match config.log_format.unwrap_or_default() {
        podlens_tools::config::LogFormat::Text => builder.init(),
        podlens_tools::config::LogFormat::Json => builder.json().flatten_event(true).init(),
    }
}
