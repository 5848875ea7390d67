//! Partitions of a catalog built apart (a cluster's batch runs ingest and crawl per
//! partition of the feeds) merged into one: each partition's Parquet snapshot is read
//! into the catalog's tables, in the order given. The partitions hold different feeds,
//! and what a partition holds of a podcast from the same feed as the catalog's record
//! replaces what the catalog held of it, whole (a partition merged again). Two feeds
//! declaring one `podcast:guid` land in one podcast id; then the rule of
//! `shared_guid.rs` applies as it does to two feeds of one catalog, whatever the order
//! of the partitions: the record (the rows of the tables of [`RowsOf::Podcast`]: the
//! podcast, its persons, website, scores, …) is the one of the feed of higher
//! precedence, the episodes (with their transcripts and sponsors) are the union, an
//! episode both hold as the record's feed has it and one only the other feed holds
//! marked as not in the podcast's feed, and the fetch log keeps both feeds' fetches.

use std::path::Path;

use duckdb::{Connection, params};

use super::export::{RowsOf, SNAPSHOT_TABLES, sql_path};
use super::shared_guid::{FeedClaim, log_alternate};
use crate::DataError;
use crate::records::uuid_at;

/// What [`merge_snapshot`] read from one partition.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MergeSummary {
    /// Podcasts read from the partition.
    pub podcasts: u64,
    /// Podcasts that were already in the catalog, from this partition's feed or another
    /// declaring the same `podcast:guid`.
    pub replaced: u64,
    /// Podcasts the catalog held from another feed declaring the same `podcast:guid`
    /// that kept the record: the partition brought only the episodes that feed lacks.
    pub alternate_feeds: u64,
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
        ..MergeSummary::default()
    };
    summary.alternate_feeds = shared_podcasts(&transaction, &podcasts)?;
    let episodes_file = parquet_dir.join("episodes.parquet");
    let incoming_episodes = if episodes_file.is_file() {
        format!("read_parquet({})", sql_path(&episodes_file)?)
    } else {
        r#"(SELECT NULL::VARCHAR AS "episodeId", NULL::VARCHAR AS "podcastId" WHERE false)"#
            .to_owned()
    };
    // The partition's episodes of shared podcasts that the catalog takes: all of them
    // when the partition's feed keeps the record, else those the record's feed does not
    // list (the stored episodes not marked removed).
    transaction.execute_batch(&format!(
        r#"CREATE OR REPLACE TEMP TABLE merge_taken AS
           SELECT DISTINCT CAST(e."episodeId" AS UUID) AS "episodeId"
           FROM {incoming_episodes} e
           JOIN merge_shared m ON m."podcastId" = CAST(e."podcastId" AS UUID)
           WHERE m."partitionKeeps"
              OR NOT EXISTS (SELECT 1 FROM episodes held
                             WHERE held."episodeId" = CAST(e."episodeId" AS UUID)
                               AND held."episodeRemovedFromFeedAt" IS NULL)"#
    ))?;
    let shared = r#"SELECT "podcastId" FROM merge_shared"#;
    let catalog_keeps = r#"SELECT "podcastId" FROM merge_shared WHERE NOT "partitionKeeps""#;
    for table in SNAPSHOT_TABLES {
        let file = parquet_dir.join(table.file_name());
        let name = table.name;
        // What the partition brings of a podcast replaces what the catalog held of it,
        // but for a podcast two feeds share (see the module's comment): its record is
        // the one of the feed that keeps it, its episodes those taken and the
        // catalog's others, its fetch log both feeds'.
        let (kept, filter) = match table.rows_of {
            RowsOf::Podcast => (
                catalog_keeps,
                format!(r#"NOT coalesce(CAST("podcastId" AS UUID) IN ({catalog_keeps}), false)"#),
            ),
            RowsOf::Episode => (
                shared,
                format!(
                    r#"NOT coalesce(CAST("podcastId" AS UUID) IN ({shared}), false)
                       OR CAST("episodeId" AS UUID) IN (SELECT "episodeId" FROM merge_taken)"#
                ),
            ),
            RowsOf::Feed => (shared, "true".to_owned()),
        };
        transaction.execute(
            &format!(
                r#"DELETE FROM {name} WHERE "podcastId" IN ({incoming})
                     AND "podcastId" NOT IN ({kept})"#
            ),
            [],
        )?;
        if table.rows_of == RowsOf::Episode {
            transaction.execute(
                &format!(
                    r#"DELETE FROM {name}
                       WHERE "episodeId" IN (SELECT "episodeId" FROM merge_taken)"#
                ),
                [],
            )?;
        }
        if !file.is_file() {
            continue;
        }
        let rows = transaction.execute(
            &format!(
                "INSERT INTO {name} BY NAME SELECT * FROM read_parquet({}) WHERE {filter}",
                sql_path(&file)?
            ),
            [],
        )?;
        summary.rows += u64::try_from(rows).unwrap_or(u64::MAX);
    }
    // Episodes not in the podcast's feed: the catalog's that the partition's feed, now
    // keeping the record, does not list, and those taken from a partition whose feed did
    // not keep it. The podcast's transcripts are then counted over both feeds' episodes,
    // as a transcript stored in one catalog counts them (`transcripts.rs`).
    transaction.execute_batch(
        r#"UPDATE episodes SET "episodeRemovedFromFeedAt" = coalesce("episodeRemovedFromFeedAt", current_timestamp)
           WHERE ("podcastId" IN (SELECT "podcastId" FROM merge_shared WHERE "partitionKeeps")
                  AND "episodeId" NOT IN (SELECT "episodeId" FROM merge_taken))
              OR ("podcastId" IN (SELECT "podcastId" FROM merge_shared WHERE NOT "partitionKeeps")
                  AND "episodeId" IN (SELECT "episodeId" FROM merge_taken));
           UPDATE podcasts SET "totalTranscripts" = c.transcribed
           FROM (SELECT m."podcastId", count(e."episodeId") AS transcribed
                 FROM merge_shared m
                 LEFT JOIN episodes e ON e."podcastId" = m."podcastId" AND e."episodeHasTranscript"
                 GROUP BY 1) c
           WHERE podcasts."podcastId" = c."podcastId";
           DROP TABLE merge_taken;
           DROP TABLE merge_shared"#,
    )?;
    transaction.commit()?;
    Ok(summary)
}

/// Fills the temporary table `merge_shared` with the podcasts that the partition (its
/// podcasts' file is `podcasts`, a SQL literal) holds from another feed than the one the
/// catalog's record comes from, each with whether the partition's feed keeps the record
/// (`shared_guid.rs`); how many the catalog's feed keeps.
fn shared_podcasts(connection: &Connection, podcasts: &str) -> Result<u64, DataError> {
    connection.execute_batch(
        r#"CREATE OR REPLACE TEMP TABLE merge_shared ("podcastId" UUID PRIMARY KEY, "partitionKeeps" BOOLEAN NOT NULL)"#,
    )?;
    let mut statement = connection.prepare(&format!(
        r#"SELECT p."podcastId"::VARCHAR,
                  p."podcastRssFeedUrl", epoch_us(p."lastEpisodeDate"), p."totalEpisodes",
                  i."podcastRssFeedUrl", epoch_us(i."lastEpisodeDate"), i."totalEpisodes"
           FROM podcasts p JOIN read_parquet({podcasts}) i ON p."podcastId" = CAST(i."podcastId" AS UUID)
           WHERE p."podcastRssFeedUrl" <> i."podcastRssFeedUrl""#
    ))?;
    let claims = statement
        .query_map([], |row| {
            let claim = |first: usize| -> duckdb::Result<FeedClaim> {
                Ok(FeedClaim {
                    feed_url: row.get(first)?,
                    newest_episode: row.get(first + 1)?,
                    episodes: row.get(first + 2)?,
                })
            };
            Ok((uuid_at(row, 0)?, claim(1)?, claim(4)?))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut insert = connection.prepare("INSERT INTO merge_shared VALUES (CAST(? AS UUID), ?)")?;
    let mut kept_by_catalog = 0;
    for (podcast_id, held, partition) in claims {
        let partition_keeps = !partition.yields_to(&held);
        if !partition_keeps {
            kept_by_catalog += 1;
            log_alternate(&podcast_id, &held.feed_url, &partition.feed_url);
        }
        insert.execute(params![podcast_id.to_string(), partition_keeps])?;
    }
    Ok(kept_by_catalog)
}
