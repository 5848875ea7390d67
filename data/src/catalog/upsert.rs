//! `upsert_feeds`: podcasts, their episodes and persons in one transaction.

use std::collections::{BTreeSet, HashMap, HashSet};

use duckdb::{Connection, params};
use podlens_model::catalog::{EpisodeRecord, FeedBatch, PersonRecord};
use uuid::Uuid;

use super::shared_guid::{FeedClaim, log_alternate};
use super::staging::{
    EPISODE_STAGE, PERSON_STAGE, PODCAST_STAGE, column_list, converted_columns, json_list, micros,
    optional_micros,
};
use crate::DataError;
use crate::records::uuid_at;

/// What one call to `upsert_feeds` changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UpsertSummary {
    pub podcasts: usize,
    pub episodes: usize,
    pub persons: usize,
    /// Stored episodes no longer in their feed, newly marked as removed.
    pub episodes_marked_removed: usize,
    /// Feeds that declare the `podcast:guid` of a podcast whose record another feed of
    /// it keeps (`shared_guid.rs`): only their episodes that feed lacks were written.
    pub alternate_feeds: usize,
}

pub(crate) fn upsert_feeds(
    connection: &mut Connection,
    batches: &[FeedBatch],
) -> Result<UpsertSummary, DataError> {
    let transaction = connection.transaction()?;
    for table in ["stage_podcasts", "stage_episodes", "stage_persons"] {
        transaction.execute_batch(&format!("DELETE FROM {table}"))?;
    }
    let order = stage_podcasts(&transaction, batches, 0)?;
    let alternates = alternate_feeds(&transaction, batches)?;
    for index in &alternates {
        // The staged podcasts are numbered from 1 in the batches' order.
        transaction.execute(
            r#"DELETE FROM stage_podcasts WHERE "stageOrder" = ?"#,
            [*index as i64 + 1],
        )?;
    }
    let feeds: Vec<&FeedBatch> = batches
        .iter()
        .enumerate()
        .filter(|(index, _)| !alternates.contains(index))
        .map(|(_, batch)| batch)
        .collect();
    let order = stage_episodes(
        &transaction,
        feeds.iter().flat_map(|batch| &batch.episodes),
        order,
    )?;
    let order = stage_persons(
        &transaction,
        feeds.iter().flat_map(|batch| &batch.persons),
        order,
    )?;

    let existing_podcasts: i64 = transaction.query_row(
        r#"SELECT count(*) FROM podcasts
           WHERE "podcastId" IN (SELECT CAST("podcastId" AS UUID) FROM stage_podcasts)"#,
        [],
        |row| row.get(0),
    )?;
    let episodes = transaction.execute(&insert_episodes_sql(), [])?;
    let podcasts = transaction.execute(&insert_podcasts_sql(), [])?;
    let episodes_marked_removed = if existing_podcasts > 0 {
        transaction.execute(
            r#"UPDATE episodes SET "episodeRemovedFromFeedAt" = current_timestamp
               WHERE "podcastId" IN (SELECT CAST("podcastId" AS UUID) FROM stage_podcasts)
                 AND "episodeRemovedFromFeedAt" IS NULL
                 AND "episodeId" NOT IN (SELECT CAST("episodeId" AS UUID) FROM stage_episodes)"#,
            [],
        )?
    } else {
        0
    };
    if existing_podcasts > 0 {
        transaction.execute(
            r#"DELETE FROM persons
               WHERE "podcastId" IN (SELECT CAST("podcastId" AS UUID) FROM stage_podcasts)"#,
            [],
        )?;
    }
    let persons = transaction.execute(
        &format!(
            "INSERT INTO persons ({}) SELECT {} FROM stage_persons s",
            column_list(PERSON_STAGE),
            converted_columns(PERSON_STAGE, "s", &[])
        ),
        [],
    )?;
    // The alternate feeds after their podcast's feed: they add the episodes it lacks.
    let mut alternate_episodes = 0;
    if !alternates.is_empty() {
        transaction.execute_batch("DELETE FROM stage_episodes")?;
        stage_episodes(
            &transaction,
            alternates
                .iter()
                .flat_map(|index| &batches[*index].episodes),
            order,
        )?;
        alternate_episodes = transaction.execute(&insert_alternate_episodes_sql(), [])?;
    }
    transaction.commit()?;
    Ok(UpsertSummary {
        podcasts,
        episodes: episodes + alternate_episodes,
        persons,
        episodes_marked_removed,
        alternate_feeds: alternates.len(),
    })
}

/// The indexes of the batches that are alternate feeds of their podcast
/// (`shared_guid.rs`): among the batches of one podcast id, and the catalog's record of
/// it when it comes from a feed none of them is, the feed of highest precedence keeps
/// the record; every read of the other feeds is an alternate. A feed read twice in
/// `batches` claims what its last read says. In the batches' order, so that of two
/// reads of an alternate feed the last wins.
fn alternate_feeds(
    connection: &Connection,
    batches: &[FeedBatch],
) -> Result<BTreeSet<usize>, DataError> {
    let mut feeds_of: HashMap<Uuid, Vec<usize>> = HashMap::new();
    for (index, batch) in batches.iter().enumerate() {
        feeds_of
            .entry(batch.podcast.podcast_id)
            .or_default()
            .push(index);
    }
    // The stored records that come from a feed other than the ones staged for them.
    let mut statement = connection.prepare(
        r#"SELECT p."podcastId"::VARCHAR, p."podcastRssFeedUrl", epoch_us(p."lastEpisodeDate"),
                  p."totalEpisodes"
           FROM podcasts p
           WHERE p."podcastId" IN (SELECT CAST("podcastId" AS UUID) FROM stage_podcasts)
             AND NOT EXISTS (SELECT 1 FROM stage_podcasts s
                             WHERE CAST(s."podcastId" AS UUID) = p."podcastId"
                               AND s."podcastRssFeedUrl" = p."podcastRssFeedUrl")"#,
    )?;
    let held: HashMap<Uuid, FeedClaim> = statement
        .query_map([], |row| {
            Ok((
                uuid_at(row, 0)?,
                FeedClaim {
                    feed_url: row.get(1)?,
                    newest_episode: row.get(2)?,
                    episodes: row.get(3)?,
                },
            ))
        })?
        .collect::<Result<_, _>>()?;
    let mut alternates = BTreeSet::new();
    for (podcast_id, indexes) in &feeds_of {
        let first_url = &batches[indexes[0]].podcast.podcast_rss_feed_url;
        let one_feed = indexes
            .iter()
            .all(|index| &batches[*index].podcast.podcast_rss_feed_url == first_url);
        if one_feed && !held.contains_key(podcast_id) {
            continue;
        }
        // Each feed's last read, then the stored record's feed.
        let mut claims: Vec<FeedClaim> = Vec::new();
        for index in indexes.iter().rev() {
            let claim = FeedClaim::of(&batches[*index].podcast);
            if !claims.iter().any(|other| other.feed_url == claim.feed_url) {
                claims.push(claim);
            }
        }
        claims.extend(held.get(podcast_id).cloned());
        let Some(kept) = claims.iter().max_by(|a, b| a.precedence(b)) else {
            continue;
        };
        let mut logged = HashSet::new();
        for index in indexes {
            let feed_url = &batches[*index].podcast.podcast_rss_feed_url;
            if *feed_url != kept.feed_url {
                alternates.insert(*index);
                if logged.insert(feed_url) {
                    log_alternate(podcast_id, &kept.feed_url, feed_url);
                }
            }
        }
    }
    Ok(alternates)
}

/// Episodes replace their stored version, except that the first time an episode was
/// seen is kept, and an episode is marked transcribed exactly when the catalog holds a
/// transcript of it: a transcript URL in the feed is a promise, not a transcript (the
/// publisher's server may never answer). An episode back in its feed is no longer
/// marked removed.
pub(super) fn insert_episodes_sql() -> String {
    format!(
        r#"INSERT OR REPLACE INTO episodes ({columns}, "episodeRemovedFromFeedAt")
        SELECT {values}, NULL
        FROM (FROM stage_episodes
              QUALIFY row_number() OVER (PARTITION BY "episodeId" ORDER BY "stageOrder" DESC) = 1) s
        LEFT JOIN episodes old ON old."episodeId" = CAST(s."episodeId" AS UUID)
        LEFT JOIN (SELECT "episodeId", min("transcriptId") AS "transcriptId" FROM transcripts
                   WHERE "podcastId" IN (SELECT CAST("podcastId" AS UUID) FROM stage_podcasts)
                   GROUP BY "episodeId") t ON t."episodeId" = CAST(s."episodeId" AS UUID)"#,
        columns = column_list(EPISODE_STAGE),
        values = converted_columns(EPISODE_STAGE, "s", &EPISODE_OVERRIDES),
    )
}

/// What the catalog sets of a staged episode itself (see [`insert_episodes_sql`]).
const EPISODE_OVERRIDES: [(&str, &str); 3] = [
    ("episodeHasTranscript", r#"(t."transcriptId" IS NOT NULL)"#),
    ("transcriptId", r#"t."transcriptId""#),
    (
        "episodeCreatedAt",
        r#"coalesce(old."episodeCreatedAt", make_timestamptz(s."episodeCreatedAt"))"#,
    ),
];

/// The staged episodes of alternate feeds (`shared_guid.rs`), written as
/// [`insert_episodes_sql`] writes a feed's, except those the podcast's feed lists (the
/// stored episodes not marked removed), and marked as not in the podcast's feed.
pub(super) fn insert_alternate_episodes_sql() -> String {
    format!(
        r#"INSERT OR REPLACE INTO episodes ({columns}, "episodeRemovedFromFeedAt")
        SELECT {values}, coalesce(old."episodeRemovedFromFeedAt", current_timestamp)
        FROM (FROM stage_episodes
              QUALIFY row_number() OVER (PARTITION BY "episodeId" ORDER BY "stageOrder" DESC) = 1) s
        LEFT JOIN episodes old ON old."episodeId" = CAST(s."episodeId" AS UUID)
        LEFT JOIN (SELECT "episodeId", min("transcriptId") AS "transcriptId" FROM transcripts
                   WHERE "episodeId" IN (SELECT CAST("episodeId" AS UUID) FROM stage_episodes)
                   GROUP BY "episodeId") t ON t."episodeId" = CAST(s."episodeId" AS UUID)
        WHERE old."episodeId" IS NULL OR old."episodeRemovedFromFeedAt" IS NOT NULL"#,
        columns = column_list(EPISODE_STAGE),
        values = converted_columns(EPISODE_STAGE, "s", &EPISODE_OVERRIDES),
    )
}

/// Podcasts replace their stored version; `totalTranscripts` counts the feed's episodes
/// (the staged ones) whose transcript the catalog holds.
fn insert_podcasts_sql() -> String {
    insert_podcasts_counting(
        r#"SELECT CAST(e."podcastId" AS UUID) AS "podcastId", e."episodeId" FROM stage_episodes e"#,
    )
}

/// The staged podcasts replace their stored version, with `totalTranscripts` counting
/// the episodes `episodes` lists (a query of `"podcastId"` and `"episodeId"`, as UUIDs
/// or text) whose transcript the catalog holds.
pub(super) fn insert_podcasts_counting(episodes: &str) -> String {
    let overrides = [("totalTranscripts", r#"coalesce(c.transcribed, 0)"#)];
    format!(
        r#"INSERT OR REPLACE INTO podcasts ({columns})
        SELECT {values}
        FROM (FROM stage_podcasts
              QUALIFY row_number() OVER (PARTITION BY "podcastId" ORDER BY "stageOrder" DESC) = 1) s
        LEFT JOIN (SELECT e."podcastId",
                          count(DISTINCT e."episodeId")
                              FILTER (WHERE t."episodeId" IS NOT NULL)
                              AS transcribed
                   FROM ({episodes}) e
                   LEFT JOIN (SELECT DISTINCT "episodeId" FROM transcripts
                              WHERE "podcastId" IN (SELECT CAST("podcastId" AS UUID) FROM stage_podcasts)) t
                          ON t."episodeId" = CAST(e."episodeId" AS UUID)
                   GROUP BY 1) c ON c."podcastId" = CAST(s."podcastId" AS UUID)"#,
        columns = column_list(PODCAST_STAGE),
        values = converted_columns(PODCAST_STAGE, "s", &overrides),
    )
}

/// Appends the batches' podcasts to `stage_podcasts`, numbered after `order`; the last
/// number used.
pub(super) fn stage_podcasts(
    connection: &Connection,
    batches: &[FeedBatch],
    mut order: i64,
) -> Result<i64, DataError> {
    let mut podcasts = connection.appender_to_catalog_and_db("stage_podcasts", "temp", "main")?;
    for batch in batches {
        let p = &batch.podcast;
        order += 1;
        podcasts.append_row(params![
            p.podcast_id.to_string(),
            p.podcast_slug,
            p.podcast_guid,
            p.podcast_rss_feed_url,
            p.podcast_rss_title,
            p.podcast_rss_author,
            p.podcast_rss_description,
            p.podcast_rss_description_no_html,
            p.podcast_website_url,
            p.podcast_image_url,
            p.rss_language,
            json_list(&p.rss_categories)?,
            json_list(&p.podcast_podlens_genres)?,
            json_list(&p.podcast_keywords)?,
            p.explicit_rss,
            p.podcast_owner_name,
            p.podcast_owner_email,
            json_list(&p.podcast_host_names)?,
            p.podcast_has_guests,
            p.podcast_type,
            p.podcast_medium,
            p.podcast_locked,
            p.podcast_blocked,
            p.podcast_complete,
            p.podcast_location,
            json_list(&p.podcast_funding_urls)?,
            p.podcast_has_value,
            p.apple_id,
            p.spotify_id,
            optional_micros(&p.founded_date),
            optional_micros(&p.last_episode_date),
            p.total_episodes,
            p.total_transcripts,
            p.update_frequency,
            p.rss_generator,
            json_list(&p.rss_tags)?,
            micros(&p.updated_at),
            order,
        ])?;
    }
    podcasts.flush()?;
    Ok(order)
}

/// Appends `episodes` to `stage_episodes`, numbered after `order`; the last number used.
pub(super) fn stage_episodes<'a>(
    connection: &Connection,
    episodes: impl IntoIterator<Item = &'a EpisodeRecord>,
    mut order: i64,
) -> Result<i64, DataError> {
    let mut appender = connection.appender_to_catalog_and_db("stage_episodes", "temp", "main")?;
    for episode in episodes {
        let e = episode;
        order += 1;
        appender.append_row(params![
            e.episode_id.to_string(),
            e.podcast_id.to_string(),
            e.episode_slug,
            e.episode_guid,
            e.episode_rss_title,
            e.episode_rss_description,
            e.episode_rss_description_no_html,
            e.episode_enclosure_url,
            e.episode_enclosure_type,
            e.episode_enclosure_length,
            e.episode_image_url,
            e.episode_web_url,
            optional_micros(&e.episode_rss_published_at),
            e.episode_duration_seconds,
            e.episode_season,
            e.episode_number,
            e.episode_type,
            e.episode_explicit,
            json_list(&e.episode_keywords)?,
            json_list(&e.episode_transcript_urls)?,
            e.episode_chapters_url,
            json_list(&e.episode_rss_tags)?,
            e.episode_has_transcript,
            e.transcript_id.map(|id| id.to_string()),
            e.episode_podcast_title_denormalized,
            micros(&e.episode_created_at),
            micros(&e.episode_updated_at),
            order,
        ])?;
    }
    appender.flush()?;
    Ok(order)
}

/// Appends `persons` to `stage_persons`, numbered after `order`; the last number used.
pub(super) fn stage_persons<'a>(
    connection: &Connection,
    persons: impl IntoIterator<Item = &'a PersonRecord>,
    mut order: i64,
) -> Result<i64, DataError> {
    let mut appender = connection.appender_to_catalog_and_db("stage_persons", "temp", "main")?;
    for person in persons {
        order += 1;
        appender.append_row(params![
            person.podcast_id.to_string(),
            person.episode_id.map(|id| id.to_string()),
            person.name,
            person.person_type,
            person.role,
            person.group,
            person.image_url,
            person.href,
            order,
        ])?;
    }
    appender.flush()?;
    Ok(order)
}

impl super::Catalog {
    /// Bounds DuckDB's memory and threads for a long write such as a bulk ingest: at
    /// most `memory_limit_mb` megabytes of buffers (beyond that DuckDB spills to a
    /// temporary directory beside the catalog file; its default is 80% of the
    /// machine's memory) and `threads` worker threads.
    pub fn set_resource_limits(
        &self,
        memory_limit_mb: u64,
        threads: usize,
    ) -> Result<(), DataError> {
        self.connection.execute_batch(&format!(
            "SET memory_limit = '{}MB'; SET threads = {}",
            memory_limit_mb.max(64),
            threads.max(1)
        ))?;
        Ok(())
    }

    /// Lets the write-ahead log grow to `megabytes` before DuckDB checkpoints it into
    /// the catalog file (DuckDB's default is 16 MB). A checkpoint compresses and
    /// rewrites every row group that changed and writes the indexes out whole, so a
    /// bulk ingest that checkpoints after every group of feeds recompresses the same
    /// growing row groups again and again; with a large threshold it happens about
    /// once. Call [`super::Catalog::checkpoint`] at the end of the write.
    pub fn set_checkpoint_threshold(&self, megabytes: u64) -> Result<(), DataError> {
        self.connection.execute_batch(&format!(
            "SET checkpoint_threshold = '{}MB'",
            megabytes.max(1)
        ))?;
        Ok(())
    }

    /// Writes the write-ahead log into the catalog file now.
    pub fn checkpoint(&self) -> Result<(), DataError> {
        self.connection.execute_batch("CHECKPOINT")?;
        Ok(())
    }
}
