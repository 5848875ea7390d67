//! `podlens catalog push|merge`: a cluster's batch builds the catalog in partitions
//! (ingest and crawl over a share of the feeds each, `cluster/batch/build.py`), pushes
//! each partition's Parquet snapshot to the object store, then merges them all into one
//! catalog, where what needs the whole catalog runs once (scores, the index).

use std::path::Path;

use anyhow::Context;
use podlens_cluster::artifacts::Artifacts;
use podlens_data::Catalog;

use crate::config::Config;

/// Flags of `podlens catalog`.
#[derive(Debug, clap::Args)]
pub struct CatalogArgs {
    #[command(subcommand)]
    pub command: CatalogCommand,
}

/// The `podlens catalog` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum CatalogCommand {
    /// Upload the data directory's Parquet snapshot as one partition of a build.
    Push {
        /// The object store: `s3://bucket/prefix` (with the AWS_* variables) or `file:///dir`.
        #[arg(long, env = "PODLENS_OBJECT_STORE", value_name = "URL")]
        object_store: String,
        /// The build the partition belongs to.
        #[arg(long)]
        build: String,
        /// The partition's name (unique per attempt: a retried task pushes anew).
        #[arg(long)]
        partition: String,
    },
    /// Read the named partitions of a build into the data directory's catalog, in the
    /// order given (a podcast two partitions hold from two feeds declaring one
    /// `podcast:guid` is one podcast, as in one catalog), then write its Parquet snapshot.
    Merge {
        /// The object store: `s3://bucket/prefix` (with the AWS_* variables) or `file:///dir`.
        #[arg(long, env = "PODLENS_OBJECT_STORE", value_name = "URL")]
        object_store: String,
        /// The build the partitions belong to.
        #[arg(long)]
        build: String,
        /// The partitions, in order.
        #[arg(required = true, value_name = "PARTITION")]
        partitions: Vec<String>,
    },
}

/// Runs `podlens catalog …`.
pub fn run(config: &Config, args: CatalogArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let data_dir = config.data_dir();
    match args.command {
        CatalogCommand::Push {
            object_store,
            build,
            partition,
        } => {
            let parquet = data_dir.join(podlens_data::PARQUET_DIR);
            let artifacts = Artifacts::open(&object_store)?;
            let started = std::time::Instant::now();
            let bytes = runtime.block_on(artifacts.push_partition(&build, &partition, &parquet))?;
            println!(
                "pushed partition {partition} of build {build} ({:.1} MB in {:.1} s) to {}",
                bytes as f64 / 1e6,
                started.elapsed().as_secs_f64(),
                artifacts.url()
            );
            Ok(())
        }
        CatalogCommand::Merge {
            object_store,
            build,
            partitions,
        } => merge(&runtime, &data_dir, &object_store, &build, &partitions),
    }
}

fn merge(
    runtime: &tokio::runtime::Runtime,
    data_dir: &Path,
    object_store: &str,
    build: &str,
    partitions: &[String],
) -> anyhow::Result<()> {
    let artifacts = Artifacts::open(object_store)?;
    let mut catalog = Catalog::open(data_dir)
        .with_context(|| format!("cannot open the catalog in {}", data_dir.display()))?;
    let started = std::time::Instant::now();
    let (mut replaced, mut bytes) = (0u64, 0u64);
    for partition in partitions {
        let folder = tempfile::Builder::new()
            .prefix(".partition-")
            .tempdir_in(data_dir)
            .with_context(|| format!("cannot make a folder in {}", data_dir.display()))?;
        bytes += runtime.block_on(artifacts.pull_partition(build, partition, folder.path()))?;
        let summary = catalog
            .merge_snapshot(folder.path())
            .with_context(|| format!("cannot merge partition {partition}"))?;
        replaced += summary.replaced;
    }
    let exported = catalog
        .export_parquet()
        .context("cannot write the catalog's Parquet snapshot")?;
    println!(
        "merged {} partitions of build {build} ({:.1} MB in {:.1} s): {} podcasts, {} episodes ({} podcasts held by two partitions: one record, the episodes of both)",
        partitions.len(),
        bytes as f64 / 1e6,
        started.elapsed().as_secs_f64(),
        exported.podcasts,
        exported.episodes,
        replaced
    );
    Ok(())
}
