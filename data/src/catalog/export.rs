//! Parquet snapshots of the catalog: one file per table under `<data-dir>/parquet/`,
//! ids as UUID text. Every file of an export is written and synced in a new generation
//! directory, published whole by one rename of the `parquet` link (`generations.rs`),
//! so a reader sees the old snapshot or the new one, never a mix.

use std::path::{Path, PathBuf};

use duckdb::Connection;

use crate::DataError;
use crate::generations;

/// One Parquet snapshot file: its table, the id columns written as UUID text, and the
/// order of its rows (episodes are grouped by podcast so readers can prune row groups).
#[derive(Debug, Clone, Copy)]
pub(crate) struct SnapshotTable {
    pub(crate) name: &'static str,
    pub(crate) uuid_columns: &'static [&'static str],
    pub(crate) order_by: &'static str,
    pub(crate) row_group_size: u32,
    /// The first column of `order_by` when it holds no NULL, and the rows sorted at
    /// once: a larger table is sorted in parts by ranges of that column (see
    /// [`export_table`]). The parts are a few hundred megabytes, within the bulk
    /// ingest's 1 GB memory limit (a transcript's row holds its whole text).
    pub(crate) split_by: Option<(&'static str, u64)>,
    /// What its rows belong to, which decides how a partition's rows are merged
    /// (`merge.rs`).
    pub(crate) rows_of: RowsOf,
}

/// What the rows of a snapshot table belong to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RowsOf {
    /// The podcast's record, from the feed it comes from (its row, persons, website,
    /// scores, …).
    Podcast,
    /// An episode (the episode, its transcript, its sponsors): two feeds of one podcast
    /// contribute theirs.
    Episode,
    /// A feed, by its URL (the fetch log).
    Feed,
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
        rows_of: RowsOf::Podcast,
        uuid_columns: &["podcastId"],
        order_by: r#""podcastId""#,
        row_group_size: 20_000,
        split_by: Some(("podcastId", 200_000)),
    },
    SnapshotTable {
        name: "episodes",
        rows_of: RowsOf::Episode,
        uuid_columns: &["episodeId", "podcastId", "transcriptId"],
        order_by: r#""podcastId", "episodeRssPublishedAt" DESC NULLS LAST, "episodeId""#,
        row_group_size: 20_000,
        split_by: Some(("podcastId", 200_000)),
    },
    SnapshotTable {
        name: "persons",
        rows_of: RowsOf::Podcast,
        uuid_columns: &["podcastId", "episodeId"],
        order_by: r#""podcastId", "episodeId" NULLS FIRST, "name", "personType""#,
        row_group_size: 100_000,
        split_by: Some(("podcastId", 1_000_000)),
    },
    SnapshotTable {
        name: "transcripts",
        rows_of: RowsOf::Episode,
        uuid_columns: &["transcriptId", "episodeId", "podcastId"],
        order_by: r#""transcriptId""#,
        // a transcript holds its whole text (20 KB for 20 minutes of speech)
        row_group_size: 2_000,
        split_by: Some(("transcriptId", 5_000)),
    },
    SnapshotTable {
        name: "transcript_segments",
        rows_of: RowsOf::Episode,
        uuid_columns: &["transcriptId", "episodeId", "podcastId"],
        order_by: r#""transcriptId", "segmentIndex""#,
        row_group_size: 100_000,
        split_by: Some(("transcriptId", 2_000_000)),
    },
    SnapshotTable {
        name: "feed_fetches",
        rows_of: RowsOf::Feed,
        uuid_columns: &["podcastId"],
        order_by: r#""fetchedAt", "feedUrl""#,
        row_group_size: 100_000,
        split_by: None,
    },
    SnapshotTable {
        name: "website_crawls",
        rows_of: RowsOf::Podcast,
        uuid_columns: &["podcastId"],
        order_by: r#""podcastId""#,
        row_group_size: 20_000,
        split_by: None,
    },
    SnapshotTable {
        name: "podcast_contacts",
        rows_of: RowsOf::Podcast,
        uuid_columns: &["podcastId"],
        order_by: r#""podcastId", "contactType", "value", "source""#,
        row_group_size: 100_000,
        split_by: None,
    },
    SnapshotTable {
        name: "podcast_social_links",
        rows_of: RowsOf::Podcast,
        uuid_columns: &["podcastId"],
        order_by: r#""podcastId", "socialMediaType", "url", "source""#,
        row_group_size: 100_000,
        split_by: None,
    },
    SnapshotTable {
        name: "authority_scores",
        rows_of: RowsOf::Podcast,
        uuid_columns: &["podcastId"],
        order_by: r#""podcastId""#,
        row_group_size: 100_000,
        split_by: None,
    },
    SnapshotTable {
        name: "platform_lookups",
        rows_of: RowsOf::Podcast,
        uuid_columns: &["podcastId"],
        order_by: r#""podcastId", "platform", "lookupKey""#,
        row_group_size: 100_000,
        split_by: None,
    },
    SnapshotTable {
        name: "episode_sponsors",
        rows_of: RowsOf::Episode,
        uuid_columns: &["podcastId", "episodeId"],
        order_by: r#""podcastId", "episodeId", "name""#,
        row_group_size: 100_000,
        split_by: None,
    },
    SnapshotTable {
        name: "chart_positions",
        rows_of: RowsOf::Podcast,
        uuid_columns: &["podcastId"],
        order_by: r#""chartType", "country", "category", "frequency", "capturedAt", "position""#,
        row_group_size: 100_000,
        split_by: None,
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
    Ok(sql_text(text))
}

/// Text as a single-quoted SQL string literal.
fn sql_text(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// Writes `table`'s snapshot to `path`; returns its rows. A table with a `split_by`
/// column and more rows than a part (`rows_per_part` when given) is sorted in parts: the
/// rows of each range of that column (ranges of about equal row counts, in order) are
/// sorted and written to a file of their own, and the parts are then copied, in order
/// and unsorted, into one file; the part files are removed, whatever happened. DuckDB's sort before a Parquet write does not always spill to disk: sorting the
/// 140,000 transcripts (2.8 GB of text) of a 1M-episode catalog at once failed under the
/// bulk ingest's 1 GB memory limit, and its 31M transcript segments under 3 GB.
fn export_table(
    connection: &Connection,
    table: &SnapshotTable,
    path: &Path,
    rows_per_part: Option<u64>,
) -> Result<u64, DataError> {
    let copy = |query: &str, to: &Path| -> Result<u64, DataError> {
        let rows = connection.execute(
            &format!(
                "COPY ({query}) TO {} (FORMAT PARQUET, COMPRESSION ZSTD, ROW_GROUP_SIZE {})",
                sql_path(to)?,
                table.row_group_size
            ),
            [],
        )?;
        Ok(u64::try_from(rows).unwrap_or(u64::MAX))
    };
    let Some((key, table_rows_per_part)) = table.split_by else {
        return copy(&table.select_from(table.name), path);
    };
    let total: u64 =
        connection.query_row(&format!("SELECT count(*) FROM {}", table.name), [], |row| {
            row.get(0)
        })?;
    let parts = total.div_ceil(rows_per_part.unwrap_or(table_rows_per_part).max(1));
    if parts <= 1 {
        return copy(&table.select_from(table.name), path);
    }
    // The first key of each part: keys by their rows' running count, cut every `parts`th.
    let key_text = format!(r#""{key}"::VARCHAR"#);
    let starts: Vec<String> = {
        let mut statement = connection.prepare(&format!(
            "SELECT min(k) FROM (
                 SELECT k, floor((running - rows) * {parts} / {total}) AS part
                 FROM (SELECT k, rows, sum(rows) OVER (ORDER BY k) AS running
                       FROM (SELECT {key_text} AS k, count(*) AS rows FROM {} GROUP BY 1)))
             GROUP BY part ORDER BY 1",
            table.name
        ))?;
        statement
            .query_map([], |row| row.get(0))?
            .collect::<Result<_, _>>()?
    };
    let parent = path.parent().unwrap_or(Path::new("."));
    let part_paths: Vec<PathBuf> = (0..starts.len())
        .map(|index| parent.join(format!(".{}.part-{index}.tmp", table.name)))
        .collect();
    let written_in_parts = || -> Result<(u64, u64), DataError> {
        let mut written = 0;
        for (index, (start, part_path)) in starts.iter().zip(&part_paths).enumerate() {
            let mut range = format!("{key_text} >= {}", sql_text(start));
            if let Some(next) = starts.get(index + 1) {
                range.push_str(&format!(" AND {key_text} < {}", sql_text(next)));
            }
            let source = format!(
                "(SELECT * FROM {} WHERE {range}) AS {}",
                table.name, table.name
            );
            written += copy(&table.select_from(&source), part_path)?;
        }
        let files: Vec<String> = part_paths
            .iter()
            .map(|path| sql_path(path))
            .collect::<Result<_, _>>()?;
        // In order: DuckDB keeps the files' order and each file's row order.
        let rows = copy(
            &format!("SELECT * FROM read_parquet([{}])", files.join(", ")),
            path,
        )?;
        Ok((rows, written))
    };
    let outcome = written_in_parts();
    for part_path in part_paths.iter().filter(|path| path.exists()) {
        std::fs::remove_file(part_path).map_err(|error| DataError::io(part_path, error))?;
    }
    let (rows, written) = outcome?;
    if rows != written || rows != total {
        return Err(DataError::InvalidValue {
            column: key.to_owned(),
            message: format!(
                "the {} snapshot in parts holds {rows} rows of {total}",
                table.name
            ),
        });
    }
    Ok(rows)
}

pub(crate) fn export_parquet(
    connection: &Connection,
    parquet_dir: &Path,
    rows_per_part: Option<u64>,
) -> Result<ExportSummary, DataError> {
    // The enrichment tables exist once `crawl` or `score` ran; export them empty before.
    super::enrichment::ensure_tables(connection)?;
    let generation = generations::begin(parquet_dir)?;
    // One read transaction, so every file shows the same catalog state.
    let transaction = connection.unchecked_transaction()?;
    let mut counts = Vec::with_capacity(SNAPSHOT_TABLES.len());
    for table in SNAPSHOT_TABLES {
        let path = generation.dir.join(table.file_name());
        tracing::debug!(table = table.name, "writing the snapshot of a table");
        let rows = export_table(&transaction, table, &path, rows_per_part)?;
        generations::sync_path(&path)?;
        counts.push(rows);
    }
    transaction.commit()?;
    generations::publish(parquet_dir, generation)?;
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
