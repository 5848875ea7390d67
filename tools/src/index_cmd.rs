//! `podlens index --data-dir DIR`: reads the catalog's Parquet snapshot and builds a new
//! search index generation under `<data-dir>/index`, published atomically. Vectors are
//! built when the static embedding model (`podlens model build`) is found; otherwise the
//! output says so and the generation has none (semantic features report unavailable).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use podlens_indexer::{BuildOptions, IndexSource, PodcastSignals, VectorModel, build_generation};
use uuid::Uuid;

use crate::config::Config;

/// Arguments of `podlens index`.
#[derive(Debug, Clone, clap::Args)]
pub struct IndexArgs {
    /// Number of shards per index (default: one per worker thread).
    #[arg(long)]
    pub shards: Option<u32>,
    /// Indexing memory per index writer, in megabytes.
    #[arg(long, default_value_t = 64)]
    pub writer_memory_mb: usize,
    /// The static embedding model folder (default: the cache dir's
    /// podlens-models/static-mpnet-768, written by `podlens model build`).
    #[arg(long, env = "PODLENS_STATIC_MODEL_DIR", value_name = "DIR")]
    pub static_model: Option<PathBuf>,
    /// Build without vectors even when the static model is available.
    #[arg(long)]
    pub no_vectors: bool,
    /// Build without the show vectors of the multilingual encoder even when it is
    /// installed (scripts/install-encoder.sh); `--no-vectors` leaves them out too.
    #[arg(long)]
    pub no_encoder: bool,
    /// Also write the generation's global statistics, so that search nodes holding
    /// some of its shards each (`podlens search-node`) score as one node holding all.
    #[arg(long)]
    pub statistics: bool,
}

/// The static model to embed with (`None` with `--no-vectors`), or why there is none.
fn vector_model(args: &IndexArgs) -> Result<Option<VectorModel>, String> {
    if args.no_vectors {
        return Ok(None);
    }
    let dir = args
        .static_model
        .clone()
        .unwrap_or_else(crate::model_cmd::default_static_model_dir);
    VectorModel::load(&dir).map(Some).map_err(|error| {
        format!(
            "no usable static embedding model in {} ({error}); run `podlens model build`",
            dir.display()
        )
    })
}

/// Runs `podlens index`.
pub fn run(config: &Config, args: IndexArgs) -> anyhow::Result<()> {
    let data_dir = config.data_dir();
    // Resolved once: every file read comes from the same published snapshot.
    let parquet_dir = podlens_data::generations::published_dir(&data_dir.join("parquet"));
    let started = Instant::now();
    let podcasts = podlens_data::snapshot::read_podcasts(&parquet_dir)
        .with_context(|| format!("cannot read podcasts from {}", parquet_dir.display()))?;
    let episodes = podlens_data::snapshot::read_episodes(&parquet_dir)
        .with_context(|| format!("cannot read episodes from {}", parquet_dir.display()))?;
    let transcripts = podlens_data::snapshot::read_transcripts(&parquet_dir)
        .with_context(|| format!("cannot read transcripts from {}", parquet_dir.display()))?;
    let persons = podlens_data::snapshot::read_persons(&parquet_dir)
        .with_context(|| format!("cannot read persons from {}", parquet_dir.display()))?;
    let signals = podcast_signals(&parquet_dir)?;
    let read_seconds = started.elapsed().as_secs_f64();
    let source = IndexSource {
        podcasts: &podcasts,
        episodes: &episodes,
        transcripts: &transcripts,
        persons: &persons,
        signals: Some(&signals),
    };
    // Asked for without vectors (`--no-vectors`, and the demo's first generation, whose
    // vectors follow in the background), nothing is said about them.
    let vectors = match vector_model(&args) {
        Ok(model) => model,
        Err(reason) => {
            println!(
                "vectors: not built: {reason}; semantic search, related podcasts by vector and re-ranking will report unavailable"
            );
            None
        }
    };
    let encoder = if args.no_vectors || args.no_encoder {
        None
    } else {
        let encoder = podlens_indexer::embedding::Encoder::shared();
        if encoder.is_none() {
            println!(
                "show vectors: not built: the multilingual encoder is not installed in {} (scripts/install-encoder.sh); podcast search fuses with the static vectors",
                podlens_indexer::embedding::Encoder::default_dir().display()
            );
        }
        encoder
    };
    let options = BuildOptions {
        shards: args.shards,
        writer_memory_bytes: args.writer_memory_mb.max(15) << 20,
        vectors,
        encoder,
        statistics: args.statistics,
        ..BuildOptions::default()
    };
    let index_dir = data_dir.join("index");
    let manifest = build_generation(&index_dir, source, &options)
        .with_context(|| format!("cannot build the index in {}", index_dir.display()))?;
    println!(
        "indexed {} podcasts, {} episodes, {} transcript chunks into generation {} ({} shards) in {:.1}s (snapshot read {:.1}s)",
        manifest.podcasts,
        manifest.episodes,
        manifest.chunks,
        manifest.generation,
        manifest.shards,
        started.elapsed().as_secs_f64(),
        read_seconds,
    );
    if let Some(vectors) = &manifest.vectors {
        println!(
            "vectors: {} of {} dimensions (int8), static model sha256 {}",
            vectors.count, vectors.dim, vectors.model_sha256
        );
    }
    if let Some(shows) = &manifest.encoder {
        println!(
            "show vectors: {} of {} dimensions (int8) from the multilingual encoder, model sha256 {}",
            shows.count, shows.dim, shows.model_sha256
        );
    }
    Ok(())
}

/// Authority scores, ratings and chart countries from the snapshot's enrichment
/// (written by `podlens crawl` and `podlens score`), as the index's podcast signals.
fn podcast_signals(parquet_dir: &Path) -> anyhow::Result<HashMap<Uuid, PodcastSignals>> {
    let snapshot = podlens_data::Snapshot::open(parquet_dir)
        .with_context(|| format!("cannot open the snapshot in {}", parquet_dir.display()))?;
    let enrichment = snapshot
        .enrichment_signals()
        .context("cannot read the enrichment signals")?;
    Ok(enrichment
        .into_iter()
        .map(|(id, found)| {
            let signals = PodcastSignals {
                apple_rating: found.apple_rating,
                apple_ratings_count: found.apple_ratings_count,
                spotify_rating: found.spotify_rating,
                spotify_ratings_count: found.spotify_ratings_count,
                authority_score: found.authority_score,
                countries: found.chart_countries,
            };
            (id, signals)
        })
        .collect())
}
