//! `podlens ingest --data-dir DIR [PATH|URL|OPML]...`: reads feed files, folders, OPML
//! lists and URLs (or, with no argument, re-polls every feed of the catalog) into the
//! catalog, with a progress bar and a summary, then writes the Parquet snapshot.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use podlens_data::Catalog;
use podlens_ingest::IngestError;
use podlens_ingest::fetch::{
    FeedObserver, FeedSource, FeedState, FeedStore, HttpConfig, IngestConfig, KnownTranscripts,
    expand_sources, ingest,
};
use podlens_model::catalog::{FeedBatch, FeedFetchRecord, TranscriptAttempt, TranscriptRecord};
use uuid::Uuid;

use crate::config::Config;
use crate::progress;

/// Arguments of `podlens ingest`.
#[derive(Debug, Clone, clap::Args)]
pub struct IngestArgs {
    /// Feed files, folders of feed files, OPML files, or http(s) URLs. None: re-poll
    /// every feed already in the catalog.
    #[arg(value_name = "PATH|URL|OPML")]
    pub sources: Vec<String>,
    /// Feeds fetched at once.
    #[arg(long, default_value_t = 64)]
    pub concurrency: usize,
    /// Requests to one host at once.
    #[arg(long, default_value_t = 4)]
    pub per_host: usize,
    /// Per-request timeout in seconds.
    #[arg(long, default_value_t = 30)]
    pub timeout_secs: u64,
    /// Largest feed accepted, in megabytes.
    #[arg(long, default_value_t = 50)]
    pub max_feed_mb: u64,
    /// Do not download the transcripts that feeds link to.
    #[arg(long)]
    pub no_transcripts: bool,
    /// Skip writing the Parquet snapshot at the end.
    #[arg(long)]
    pub no_export: bool,
    /// Allow feeds and transcripts on private, loopback and link-local addresses
    /// (local test servers, intranets); refused by default.
    #[arg(long)]
    pub allow_private: bool,
    /// Memory the catalog database may use, in megabytes (beyond it, it spills to a
    /// temporary directory beside the catalog).
    #[arg(long, default_value_t = DEFAULT_MEMORY_LIMIT_MB)]
    pub memory_limit_mb: u64,
    /// Write-ahead log, in megabytes, that the catalog accumulates before folding it
    /// into the database file (once more at the end of the run).
    #[arg(long, default_value_t = DEFAULT_CHECKPOINT_MB)]
    pub checkpoint_mb: u64,
}

/// Default of `--memory-limit-mb`.
pub const DEFAULT_MEMORY_LIMIT_MB: u64 = 1024;

/// Default of `--checkpoint-mb`.
pub const DEFAULT_CHECKPOINT_MB: u64 = 256;

/// Feed batches written to DuckDB in groups (one transaction per group).
const WRITE_BATCH: usize = 256;

/// Transcripts written to DuckDB in groups (one transaction per group).
const TRANSCRIPT_BATCH: usize = 256;

/// The catalog as the ingest run's store; feed batches, transcripts and the fetch log
/// are buffered and written in groups (a DuckDB commit syncs its log to disk, so one
/// per feed would dominate the run).
struct CatalogStore {
    catalog: Catalog,
    pending: Vec<FeedBatch>,
    transcripts: Vec<TranscriptRecord>,
    failed_transcripts: Vec<TranscriptAttempt>,
    fetches: Vec<FeedFetchRecord>,
}

impl CatalogStore {
    /// Writes the buffered feeds, then the buffered transcripts (which mark the
    /// episodes just written) and failed transcript fetches, then the fetch log.
    fn flush(&mut self) -> Result<(), IngestError> {
        if !self.pending.is_empty() {
            let batches = std::mem::take(&mut self.pending);
            self.catalog.upsert_feeds(&batches).map_err(store_error)?;
        }
        if !self.transcripts.is_empty() {
            let transcripts = std::mem::take(&mut self.transcripts);
            self.catalog
                .upsert_transcripts(&transcripts)
                .map_err(store_error)?;
        }
        if !self.failed_transcripts.is_empty() {
            let failed = std::mem::take(&mut self.failed_transcripts);
            self.catalog
                .record_transcript_failures(&failed)
                .map_err(store_error)?;
        }
        if !self.fetches.is_empty() {
            let fetches = std::mem::take(&mut self.fetches);
            self.catalog.record_fetches(&fetches).map_err(store_error)?;
        }
        Ok(())
    }
}

fn store_error(error: podlens_data::DataError) -> IngestError {
    IngestError::Store(error.to_string())
}

impl FeedStore for CatalogStore {
    fn upsert_feed(&mut self, batch: &FeedBatch) -> Result<(), IngestError> {
        self.upsert_feed_owned(batch.clone())
    }

    fn upsert_feed_owned(&mut self, batch: FeedBatch) -> Result<(), IngestError> {
        self.pending.push(batch);
        if self.pending.len() >= WRITE_BATCH {
            self.flush()?;
        }
        Ok(())
    }

    fn upsert_transcript(&mut self, transcript: &TranscriptRecord) -> Result<(), IngestError> {
        self.upsert_transcript_owned(transcript.clone())
    }

    fn upsert_transcript_owned(&mut self, transcript: TranscriptRecord) -> Result<(), IngestError> {
        self.transcripts.push(transcript);
        if self.transcripts.len() >= TRANSCRIPT_BATCH {
            self.flush()?;
        }
        Ok(())
    }

    fn record_transcript_failure(
        &mut self,
        attempt: &TranscriptAttempt,
    ) -> Result<(), IngestError> {
        self.failed_transcripts.push(attempt.clone());
        if self.failed_transcripts.len() >= TRANSCRIPT_BATCH {
            self.flush()?;
        }
        Ok(())
    }

    fn record_fetch(&mut self, fetch: &FeedFetchRecord) -> Result<(), IngestError> {
        self.fetches.push(fetch.clone());
        if self.fetches.len() >= WRITE_BATCH {
            self.flush()?;
        }
        Ok(())
    }

    fn update_feed_url(&mut self, podcast_id: Uuid, new_url: &str) -> Result<(), IngestError> {
        self.flush()?;
        self.catalog
            .update_feed_url(podcast_id, new_url)
            .map_err(store_error)
    }
}

/// Runs the command.
pub fn run(config: &Config, args: IngestArgs) -> anyhow::Result<()> {
    let data_dir = config.data_dir();
    let catalog = Catalog::open(&data_dir)
        .with_context(|| format!("cannot open the catalog in {}", data_dir.display()))?;
    let threads = std::thread::available_parallelism().map_or(2, usize::from);
    catalog
        .set_resource_limits(args.memory_limit_mb, threads)
        .and_then(|()| catalog.set_checkpoint_threshold(args.checkpoint_mb))
        .context("cannot configure the catalog")?;
    let sources = if args.sources.is_empty() {
        catalog_sources(&catalog)?
    } else {
        expand_sources(&args.sources).context("cannot read the sources")?
    };
    if sources.is_empty() {
        println!("nothing to ingest: no sources given and no feeds in the catalog");
        return Ok(());
    }
    let bar = progress::bar(sources.len() as u64, "feeds", config.no_progress);
    bar.set_message("ingesting");
    let observer: FeedObserver = {
        let bar = bar.clone();
        Arc::new(move |_: &FeedFetchRecord| bar.inc(1))
    };
    let known_transcripts = if args.no_transcripts {
        KnownTranscripts::default()
    } else {
        KnownTranscripts::new(
            catalog
                .transcript_statuses()
                .context("cannot read the catalog's transcripts")?,
        )
    };
    let ingest_config = IngestConfig {
        http: HttpConfig {
            timeout: Duration::from_secs(args.timeout_secs.max(1)),
            max_body_bytes: args.max_feed_mb.max(1) * 1024 * 1024,
            allow_private: args.allow_private,
            ..HttpConfig::default()
        },
        concurrency: args.concurrency.max(1),
        per_host_concurrency: args.per_host.max(1),
        fetch_transcripts: !args.no_transcripts,
        known_transcripts: Arc::new(known_transcripts),
        ..IngestConfig::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let store = CatalogStore {
        catalog,
        pending: Vec::new(),
        transcripts: Vec::new(),
        failed_transcripts: Vec::new(),
        fetches: Vec::new(),
    };
    let (summary, mut store) = runtime
        .block_on(ingest(sources, ingest_config, store, Some(observer)))
        .context("ingest failed")?;
    store
        .flush()
        .context("cannot write the last feeds to the catalog")?;
    store
        .catalog
        .checkpoint()
        .context("cannot checkpoint the catalog")?;
    bar.finish_and_clear();
    println!("{summary}");
    if !args.no_export {
        export(&store.catalog, &data_dir)?;
    }
    Ok(())
}

fn catalog_sources(catalog: &Catalog) -> anyhow::Result<Vec<FeedSource>> {
    let feeds = catalog
        .feeds_to_poll()
        .context("cannot list the catalog's feeds")?;
    Ok(feeds
        .into_iter()
        .map(|feed| {
            FeedSource::Url(FeedState {
                podcast_id: feed.podcast_id,
                feed_url: feed.feed_url,
                etag: feed.etag,
                last_modified: feed.last_modified,
                content_hash: feed.content_hash,
            })
        })
        .collect())
}

fn export(catalog: &Catalog, data_dir: &Path) -> anyhow::Result<()> {
    let summary = catalog.export_parquet().with_context(|| {
        format!(
            "cannot write the parquet snapshot in {}",
            data_dir.display()
        )
    })?;
    println!(
        "parquet snapshot in {}: {} podcasts, {} episodes, {} transcripts",
        summary.parquet_dir.display(),
        summary.podcasts,
        summary.episodes,
        summary.transcripts
    );
    Ok(())
}
