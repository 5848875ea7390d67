//! Partitions of a catalog built apart (a cluster's batch runs ingest and crawl per
//! partition of the feeds) merged into one: each partition's Parquet snapshot is read
//! into the catalog's tables, in the order given. The partitions hold different feeds;
//! two feeds naming one `podcast:guid` land in one podcast id, and then the later
//! partition's podcast replaces the earlier one's whole (its episodes, persons,
//! transcripts and the rest), as a single catalog's later feed would.

use std::path::Path;

use duckdb::Connection;

use super::export::{SNAPSHOT_TABLES, sql_path};
use crate::DataError;

/// What [`merge_snapshot`] read from one partition.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MergeSummary {
    /// Podcasts read from the partition.
    pub podcasts: u64,
    /// Podcasts that were already in the catalog and were replaced.
    pub replaced: u64,
    /// Rows read, over every table.
    pub rows: u64,
}

/// Reads the snapshot files under `parquet_dir` into the catalog, in one transaction.
/// A table whose file is missing from the partition is skipped (a partition built
/// before that table existed); a column missing from a file is left to its default.
pub(crate) fn merge_snapshot(
    connection: &mut Connection,
    parquet_dir: &Path,
) -> Result<MergeSummary, DataError> {
    let podcasts_file = parquet_dir.join("podcasts.parquet");
    if !podcasts_file.is_file() {
        return Err(DataError::InvalidArgument(format!(
            "{} holds no podcasts.parquet: not a catalog snapshot",
            parquet_dir.display()
        )));
    }
    super::enrichment::ensure_tables(connection)?;
    let transaction = connection.transaction()?;
    let podcasts = sql_path(&podcasts_file)?;
    let incoming = format!(r#"SELECT "podcastId"::UUID FROM read_parquet({podcasts})"#);
    let mut summary = MergeSummary {
        podcasts: transaction.query_row(
            &format!("SELECT count(*) FROM read_parquet({podcasts})"),
            [],
            |row| row.get(0),
        )?,
        replaced: transaction.query_row(
            &format!(r#"SELECT count(*) FROM podcasts WHERE "podcastId" IN ({incoming})"#),
            [],
            |row| row.get(0),
        )?,
        rows: 0,
    };
    for table in SNAPSHOT_TABLES {
        let file = parquet_dir.join(table.file_name());
        // Every snapshot table is keyed by podcast: what the partition brings of a
        // podcast replaces what the catalog held of it.
        transaction.execute(
            &format!(
                r#"DELETE FROM {} WHERE "podcastId" IN ({incoming})"#,
                table.name
            ),
            [],
        )?;
        if !file.is_file() {
            continue;
        }
        let rows = transaction.execute(
            &format!(
                "INSERT INTO {} BY NAME SELECT * FROM read_parquet({})",
                table.name,
                sql_path(&file)?
            ),
            [],
        )?;
        summary.rows += u64::try_from(rows).unwrap_or(u64::MAX);
    }
    transaction.commit()?;
    Ok(summary)
}
