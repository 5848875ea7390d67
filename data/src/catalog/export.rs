//! Parquet snapshots of the catalog: one file per table under `<data-dir>/parquet/`,
//! ids as UUID text, written to a temporary name, synced, then renamed into place so a
//! reader sees either the old file or the new one.

use std::fs::File;
use std::path::{Path, PathBuf};

use duckdb::Connection;

use crate::DataError;

/// One Parquet snapshot file: its table, the id columns written as UUID text, and the
/// order of its rows (episodes are grouped by podcast so readers can prune row groups).
#[derive(Debug, Clone, Copy)]
pub(crate) struct SnapshotTable {
    pub(crate) name: &'static str,
    pub(crate) uuid_columns: &'static [&'static str],
    pub(crate) order_by: &'static str,
    pub(crate) row_group_size: u32,
}

impl SnapshotTable {
    /// The rows of the snapshot as read from `source` (a table with the catalog's types).
    pub(crate) fn select_from(&self, source: &str) -> String {
        let replacements: Vec<String> = self
            .uuid_columns
            .iter()
            .map(|column| format!("\"{column}\"::VARCHAR AS \"{column}\""))
            .collect();
        format!(
            "SELECT * REPLACE ({}) FROM {source} ORDER BY {}",
            replacements.join(", "),
            self.order_by
        )
    }

    pub(crate) fn file_name(&self) -> String {
        format!("{}.parquet", self.name)
    }
}

/// Every snapshot file, in the order they are written.
pub(crate) const SNAPSHOT_TABLES: &[SnapshotTable] = &[
    SnapshotTable {
        name: "podcasts",
        uuid_columns: &["podcastId"],
        order_by: r#""podcastId""#,
        row_group_size: 20_000,
    },
    SnapshotTable {
        name: "episodes",
        uuid_columns: &["episodeId", "podcastId", "transcriptId"],
        order_by: r#""podcastId", "episodeRssPublishedAt" DESC NULLS LAST, "episodeId""#,
        row_group_size: 20_000,
    },
    SnapshotTable {
        name: "persons",
        uuid_columns: &["podcastId", "episodeId"],
        order_by: r#""podcastId", "episodeId" NULLS FIRST, "name", "personType""#,
        row_group_size: 100_000,
    },
    SnapshotTable {
        name: "transcripts",
        uuid_columns: &["transcriptId", "episodeId", "podcastId"],
        order_by: r#""transcriptId""#,
        row_group_size: 10_000,
    },
    SnapshotTable {
        name: "transcript_segments",
        uuid_columns: &["transcriptId", "episodeId", "podcastId"],
        order_by: r#""transcriptId", "segmentIndex""#,
        row_group_size: 100_000,
    },
    SnapshotTable {
        name: "feed_fetches",
        uuid_columns: &["podcastId"],
        order_by: r#""fetchedAt", "feedUrl""#,
        row_group_size: 100_000,
    },
    SnapshotTable {
        name: "website_crawls",
        uuid_columns: &["podcastId"],
        order_by: r#""podcastId""#,
        row_group_size: 20_000,
    },
    SnapshotTable {
        name: "podcast_contacts",
        uuid_columns: &["podcastId"],
        order_by: r#""podcastId", "contactType", "value", "source""#,
        row_group_size: 100_000,
    },
    SnapshotTable {
        name: "podcast_social_links",
        uuid_columns: &["podcastId"],
        order_by: r#""podcastId", "socialMediaType", "url", "source""#,
        row_group_size: 100_000,
    },
    SnapshotTable {
        name: "authority_scores",
        uuid_columns: &["podcastId"],
        order_by: r#""podcastId""#,
        row_group_size: 100_000,
    },
    SnapshotTable {
        name: "platform_lookups",
        uuid_columns: &["podcastId"],
        order_by: r#""podcastId", "platform", "lookupKey""#,
        row_group_size: 100_000,
    },
    SnapshotTable {
        name: "episode_sponsors",
        uuid_columns: &["podcastId", "episodeId"],
        order_by: r#""podcastId", "episodeId", "name""#,
        row_group_size: 100_000,
    },
    SnapshotTable {
        name: "chart_positions",
        uuid_columns: &["podcastId"],
        order_by: r#""chartType", "country", "category", "frequency", "capturedAt", "position""#,
        row_group_size: 100_000,
    },
];

/// What `export_parquet` wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportSummary {
    pub parquet_dir: PathBuf,
    pub podcasts: u64,
    pub episodes: u64,
    pub persons: u64,
    pub transcripts: u64,
    pub transcript_segments: u64,
    pub feed_fetches: u64,
}

/// A path as a single-quoted SQL string literal.
pub(crate) fn sql_path(path: &Path) -> Result<String, DataError> {
    let text = path
        .to_str()
        .ok_or_else(|| DataError::NonUtf8Path(path.to_path_buf()))?;
    Ok(format!("'{}'", text.replace('\'', "''")))
}

fn sync_file(path: &Path) -> Result<(), DataError> {
    File::open(path)
        .and_then(|file| file.sync_all())
        .map_err(|error| DataError::io(path, error))
}

pub(crate) fn export_parquet(
    connection: &Connection,
    parquet_dir: &Path,
) -> Result<ExportSummary, DataError> {
    std::fs::create_dir_all(parquet_dir).map_err(|error| DataError::io(parquet_dir, error))?;
    // The enrichment tables exist once `crawl` or `score` ran; export them empty before.
    super::enrichment::ensure_tables(connection)?;
    // One read transaction, so every file shows the same catalog state.
    let transaction = connection.unchecked_transaction()?;
    let mut written = Vec::with_capacity(SNAPSHOT_TABLES.len());
    let mut counts = Vec::with_capacity(SNAPSHOT_TABLES.len());
    for table in SNAPSHOT_TABLES {
        let final_path = parquet_dir.join(table.file_name());
        let temporary_path = parquet_dir.join(format!(".{}.tmp", table.file_name()));
        if temporary_path.exists() {
            std::fs::remove_file(&temporary_path)
                .map_err(|error| DataError::io(&temporary_path, error))?;
        }
        let rows = transaction.execute(
            &format!(
                "COPY ({}) TO {} (FORMAT PARQUET, COMPRESSION ZSTD, ROW_GROUP_SIZE {})",
                table.select_from(table.name),
                sql_path(&temporary_path)?,
                table.row_group_size
            ),
            [],
        )?;
        sync_file(&temporary_path)?;
        written.push((temporary_path, final_path));
        counts.push(u64::try_from(rows).unwrap_or(u64::MAX));
    }
    transaction.commit()?;
    for (temporary_path, final_path) in &written {
        std::fs::rename(temporary_path, final_path)
            .map_err(|error| DataError::io(final_path, error))?;
    }
    sync_file(parquet_dir)?;
    tracing::info!(dir = %parquet_dir.display(), podcasts = counts[0], episodes = counts[1], "parquet snapshot published");
    Ok(ExportSummary {
        parquet_dir: parquet_dir.to_path_buf(),
        podcasts: counts[0],
        episodes: counts[1],
        persons: counts[2],
        transcripts: counts[3],
        transcript_segments: counts[4],
        feed_fetches: counts[5],
    })
}
