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
enum Command {}

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
    match cli.command {}
}

fn init_tracing(config: &Config) {
    let filter = tracing_subscriber::EnvFilter::try_new(config.log_filter())
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
}
