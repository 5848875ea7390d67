//! `podlens publish --object-store URL`: uploads the index generation published in the
//! data directory to a cluster's object store (its files, its model, then its manifest),
//! then records it in the metastore (the application database; PostgreSQL with
//! `--database-url` in a cluster). Search nodes started with the same object store and
//! database follow the newest recorded generation (docs/cluster.md).

use anyhow::Context;
use podlens_cluster::artifacts::Artifacts;
use podlens_indexer::generation::generation_dir;
use podlens_indexer::statistics::STATISTICS_DIR;
use podlens_store::{Database, PublishedGeneration};

use crate::config::Config;

/// Flags of `podlens publish`.
#[derive(Debug, clap::Args)]
pub struct PublishArgs {
    /// The object store: `s3://bucket/prefix` (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID,
    /// AWS_SECRET_ACCESS_KEY, AWS_REGION and AWS_ALLOW_HTTP=true for a store other than
    /// AWS's) or `file:///dir`.
    #[arg(long, env = "PODLENS_OBJECT_STORE", value_name = "URL")]
    pub object_store: String,

    /// On how many search nodes each shard is served.
    #[arg(long, default_value_t = 2)]
    pub replicas: u32,
}

pub fn run(config: &Config, args: PublishArgs) -> anyhow::Result<()> {
    let index_dir = config.data_dir().join("index");
    let manifest = podlens_indexer::read_manifest(&index_dir)
        .context("cannot read the published index generation")?
        .with_context(|| {
            format!(
                "no index generation is published in {}: run `podlens index --statistics` first",
                index_dir.display()
            )
        })?;
    let statistics = generation_dir(&index_dir, manifest.generation)
        .join(STATISTICS_DIR)
        .is_dir();
    if !statistics && manifest.shards > 1 {
        anyhow::bail!(
            "index generation {} has no global statistics, so its shards would score apart on search nodes: index with `podlens index --statistics`",
            manifest.generation
        );
    }
    let artifacts = Artifacts::open(&args.object_store)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let started = std::time::Instant::now();
    let (manifest, bytes) = runtime.block_on(artifacts.publish_generation(&index_dir))?;
    let database = Database::open(&config.store_location())
        .context("cannot open the application store (the metastore)")?;
    let published = PublishedGeneration {
        generation: manifest.generation,
        shards: manifest.shards,
        replicas: args.replicas,
        location: artifacts.url().to_owned(),
        manifest: serde_json::to_string(&manifest)?,
        statistics,
        created_at: chrono::Utc::now(),
    };
    database.wait(database.record_generation(&published))?;
    println!(
        "published index generation {} ({} shards, {:.1} MB in {:.1} s) to {}; recorded in {}",
        manifest.generation,
        manifest.shards,
        bytes as f64 / 1e6,
        started.elapsed().as_secs_f64(),
        artifacts.url(),
        database.describe()
    );
    Ok(())
}
