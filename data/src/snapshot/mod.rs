//! The read side: the Parquet snapshots written by [`crate::Catalog::export_parquet`].
//!
//! [`Snapshot`] is what the server holds: an in-memory DuckDB database with the small
//! snapshot files loaded as tables and views over the large ones, so the server never
//! opens the catalog file that the batch jobs write. An export publishes a whole new
//! generation directory by one rename of the `parquet` link (`crate::generations`); the
//! tables and views are made from the generation the link named when they were made, so
//! they never mix two exports. [`Snapshot::refresh`] re-creates them (the server does
//! when the link or a file changed), and with them
//! the point lookups (`points.rs`) podcast pages and search hits are read from. The free functions ([`read_podcasts`],
//! [`for_each_episode_batch`], …) are the indexer's bulk readers.

mod enrichment;
mod lookups;
mod persons;
mod points;
mod readers;
mod sponsors;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::SystemTime;

use duckdb::{Connection, OptionalExt};

pub use enrichment::{AuthorityScoreRow, ChartKey, ContactRow, EnrichmentSignals, SocialLinkRow};
pub use lookups::{
    DirectoryPage, DirectoryQuery, EpisodePage, EpisodesQuery, LatestEpisodesQuery, PodcastEpisodes,
};
pub use persons::{PersonAppearance, PersonsQuery, PersonsSummary};
pub use points::{FacetCount, PodcastsView, SearchFacets};
pub use readers::{
    for_each_episode_batch, for_each_transcript, read_episodes, read_persons, read_podcasts,
    read_transcripts,
};
pub use sponsors::{EpisodePersonRow, SponsorAppearance, SponsorWindow, SponsorsSummary};

use crate::DataError;
use crate::catalog::{SNAPSHOT_TABLES, sql_path};
use crate::generations::published_dir;
use points::PointLookups;

/// The published generation's directory and the modification times of its files, to
/// notice a new export.
type FileStamps = (PathBuf, Vec<Option<SystemTime>>);

/// Queries over the Parquet snapshots of a data directory. Safe to share between
/// threads; each query takes a connection of its own from a small pool. Queries block:
/// call them from `spawn_blocking` in async code.
pub struct Snapshot {
    parquet_dir: PathBuf,
    materialize_max_bytes: u64,
    base: Mutex<Connection>,
    idle: Mutex<Vec<Connection>>,
    stamps: Mutex<FileStamps>,
    /// The point lookups of the relations now in `base`, replaced after them.
    points: RwLock<Arc<PointLookups>>,
}

impl std::fmt::Debug for Snapshot {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Snapshot")
            .field("parquet_dir", &self.parquet_dir)
            .finish_non_exhaustive()
    }
}

fn file_stamps(parquet_dir: &Path) -> FileStamps {
    let published = published_dir(parquet_dir);
    let times = SNAPSHOT_TABLES
        .iter()
        .map(|table| {
            std::fs::metadata(published.join(table.file_name()))
                .and_then(|metadata| metadata.modified())
                .ok()
        })
        .collect();
    (published, times)
}

/// Snapshot files up to this size are loaded into memory when the snapshot is opened or
/// refreshed: every query on them would otherwise decompress their row groups again (a
/// podcast page reads a dozen of them). Larger files, and the transcripts, stay views
/// over the Parquet files.
pub const MATERIALIZE_MAX_BYTES: u64 = 32 * 1024 * 1024;

/// Tables never loaded into memory, whatever their size: read one transcript at a time.
const NEVER_MATERIALIZED: &[&str] = &["transcripts", "transcript_segments"];

/// Whether `name` exists in `main` as a base table (rather than a view, or not at all).
fn is_base_table(connection: &Connection, name: &str) -> Result<bool, DataError> {
    let kind: Option<String> = connection
        .query_row(
            "SELECT table_type FROM information_schema.tables \
             WHERE table_schema = 'main' AND table_name = ?",
            [name],
            |row| row.get(0),
        )
        .optional()?;
    Ok(kind.as_deref() == Some("BASE TABLE"))
}

/// Creates (or re-creates) one relation per snapshot file: a table in memory for small
/// files (see [`MATERIALIZE_MAX_BYTES`]), else a view. A missing file reads as an empty
/// relation with the snapshot's columns, so a server can start before the first export.
/// Every relation reads the generation `stamps` names (resolved once), and all are
/// replaced in one transaction, so a query sees the previous relations or the new ones,
/// never some of each (a stopped refresh changes nothing).
fn create_relations(
    connection: &Connection,
    stamps: &FileStamps,
    materialize_max_bytes: u64,
) -> Result<(), DataError> {
    let parquet_dir = stamps.0.as_path();
    connection.execute_batch(
        "CREATE SCHEMA IF NOT EXISTS empty_catalog; SET schema = 'empty_catalog';",
    )?;
    connection.execute_batch(crate::schema::TABLES_V1)?;
    connection.execute_batch(crate::catalog::ENRICHMENT_TABLES)?;
    connection.execute_batch("SET schema = 'main';")?;
    let mut statements = Vec::with_capacity(SNAPSHOT_TABLES.len() * 2);
    for table in SNAPSHOT_TABLES {
        let path = parquet_dir.join(table.file_name());
        let size = std::fs::metadata(&path).ok().map(|metadata| metadata.len());
        let source = match size {
            Some(_) => format!("SELECT * FROM read_parquet({})", sql_path(&path)?),
            None => table.select_from(&format!("empty_catalog.{}", table.name)),
        };
        let in_memory = size.is_some_and(|size| size <= materialize_max_bytes)
            && !NEVER_MATERIALIZED.contains(&table.name);
        let drop = if is_base_table(connection, table.name)? {
            format!("DROP TABLE IF EXISTS main.{}", table.name)
        } else {
            format!("DROP VIEW IF EXISTS main.{}", table.name)
        };
        let create = if in_memory {
            format!("CREATE TABLE main.{} AS {source}", table.name)
        } else {
            format!("CREATE VIEW main.{} AS {source}", table.name)
        };
        statements.push(drop);
        statements.push(create);
    }
    let transaction = connection.unchecked_transaction()?;
    for statement in &statements {
        transaction.execute_batch(statement)?;
    }
    transaction.commit()?;
    Ok(())
}

impl Snapshot {
    /// Opens the snapshots in `parquet_dir` (usually `<data-dir>/parquet`).
    pub fn open(parquet_dir: &Path) -> Result<Snapshot, DataError> {
        Snapshot::open_materializing(parquet_dir, MATERIALIZE_MAX_BYTES)
    }

    /// Opens the snapshots, loading files of at most `max_bytes` into memory (0: none).
    pub fn open_materializing(parquet_dir: &Path, max_bytes: u64) -> Result<Snapshot, DataError> {
        let connection = Connection::open_in_memory()?;
        connection.execute_batch("SET TimeZone = 'UTC'")?;
        let stamps = file_stamps(parquet_dir);
        create_relations(&connection, &stamps, max_bytes)?;
        let points = PointLookups::load(&connection)?;
        Ok(Snapshot {
            parquet_dir: parquet_dir.to_path_buf(),
            materialize_max_bytes: max_bytes,
            base: Mutex::new(connection),
            idle: Mutex::new(Vec::new()),
            stamps: Mutex::new(stamps),
            points: RwLock::new(Arc::new(points)),
        })
    }

    /// The directory of the Parquet files.
    pub fn parquet_dir(&self) -> &Path {
        &self.parquet_dir
    }

    /// Re-creates the tables and views over the current files.
    pub fn refresh(&self) -> Result<(), DataError> {
        let base = self
            .base
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let stamps = file_stamps(&self.parquet_dir);
        create_relations(&base, &stamps, self.materialize_max_bytes)?;
        let points = Arc::new(PointLookups::load(&base)?);
        *self
            .points
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = points;
        *self
            .stamps
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = stamps;
        Ok(())
    }

    /// Re-creates the tables and views when the published generation or one of its files
    /// changed since the last refresh; returns whether it did.
    pub fn refresh_if_changed(&self) -> Result<bool, DataError> {
        let current = file_stamps(&self.parquet_dir);
        let changed = *self
            .stamps
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            != current;
        if changed {
            self.refresh()?;
        }
        Ok(changed)
    }

    /// The point lookups of the current relations.
    pub(crate) fn points(&self) -> Arc<PointLookups> {
        self.points
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// Runs `query` on a pooled connection.
    pub(crate) fn with_connection<T>(
        &self,
        query: impl FnOnce(&Connection) -> Result<T, DataError>,
    ) -> Result<T, DataError> {
        let pooled = self
            .idle
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .pop();
        let connection = match pooled {
            Some(connection) => connection,
            None => {
                let connection = self
                    .base
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .try_clone()?;
                connection.execute_batch("SET TimeZone = 'UTC'")?;
                connection
            }
        };
        let result = query(&connection);
        self.idle
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(connection);
        result
    }
}

impl Snapshot {
    /// The RSS public stats over the snapshot; each top list holds at most `top` entries.
    pub fn rss_public_stats(&self, top: u64) -> Result<crate::RssPublicStats, DataError> {
        self.with_connection(|connection| {
            // One read transaction: its statements read the same relations even while a
            // refresh replaces them (statement by statement, they could read two exports).
            let transaction = connection.unchecked_transaction()?;
            let stats = crate::rss_stats::compute(&transaction, top)?;
            transaction.commit()?;
            Ok(stats)
        })
    }
}
