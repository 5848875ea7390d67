//! The catalog: a DuckDB file (`<data-dir>/catalog.duckdb`) with podcasts, episodes,
//! persons, transcripts and the feed fetch log, idempotent upserts, and Parquet snapshots
//! (`<data-dir>/parquet/*.parquet`) whose columns are the API field names. Batch jobs
//! write through [`Catalog`]; the indexer reads the snapshots with the functions of
//! [`snapshot`], and the server queries them through [`Snapshot`], so only one process
//! ever writes the DuckDB file.

pub mod backup;
mod catalog;
mod error;
pub mod generations;
mod records;
mod rss_stats;
mod schema;
pub mod snapshot;

pub use catalog::{
    CATALOG_FILE, Catalog, CatalogCounts, ExportSummary, FETCH_LOG_PER_FEED, FeedState, FeedWrite,
    MergeSummary, PARQUET_DIR, PollingState, UpsertSummary,
};
pub use catalog::{ChartPositionRow, PlatformLookupRow, PodcastLinks};
pub use error::DataError;
pub use rss_stats::{
    FieldFrequency, LevelStats, Podcast2Stats, RssPublicStats, TopHost, TopHostWithPodcast2Stats,
    TopHostWithTranscripts, TopPodcast2Podcast,
};
pub use schema::SCHEMA_VERSION;
pub use snapshot::Snapshot;
