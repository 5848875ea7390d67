//! The read-write catalog, owned by the batch jobs (DuckDB allows one writing process
//! per file; the server reads the Parquet snapshots instead).

mod changes;
mod enrichment;
mod export;
mod fetches;
mod merge;
mod shared_guid;
mod sponsors;
mod staging;
mod transcripts;
mod upsert;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use duckdb::Connection;
use podlens_model::catalog::{
    EpisodeRecord, FeedBatch, FeedFetchRecord, PersonRecord, PodcastRecord, TranscriptRecord,
};
use uuid::Uuid;

pub use changes::FeedWrite;
pub(crate) use enrichment::ENRICHMENT_TABLES;
pub use enrichment::{ChartPositionRow, PlatformLookupRow, PodcastLinks};
pub use export::ExportSummary;
pub(crate) use export::{SNAPSHOT_TABLES, sql_path};
pub use fetches::{FETCH_LOG_PER_FEED, FeedState, PollingState};
pub use merge::MergeSummary;
pub use upsert::UpsertSummary;

use crate::DataError;
use crate::records::{
    EPISODE_COLUMNS, FETCH_COLUMNS, PERSON_COLUMNS, PODCAST_COLUMNS, episode_from_row,
    fetch_from_row, person_from_row, podcast_from_row, time_at, time_from_micros, uuid_at,
};

/// File name of the catalog database inside the data directory.
pub const CATALOG_FILE: &str = "catalog.duckdb";
/// Directory of the Parquet snapshots inside the data directory.
pub const PARQUET_DIR: &str = "parquet";

/// Row counts of the catalog's tables.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CatalogCounts {
    pub podcasts: u64,
    pub episodes: u64,
    pub persons: u64,
    pub transcripts: u64,
    pub transcript_segments: u64,
    pub feed_fetches: u64,
    pub feed_states: u64,
}

/// The catalog database of a data directory, open for writing.
pub struct Catalog {
    connection: Connection,
    data_dir: PathBuf,
}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Catalog")
            .field("data_dir", &self.data_dir)
            .finish_non_exhaustive()
    }
}

impl Catalog {
    /// Opens (creating when needed) `<data_dir>/catalog.duckdb` and brings its schema up
    /// to date.
    pub fn open(data_dir: &Path) -> Result<Catalog, DataError> {
        std::fs::create_dir_all(data_dir).map_err(|error| DataError::io(data_dir, error))?;
        let path = data_dir.join(CATALOG_FILE);
        let mut connection = Connection::open(&path)?;
        connection.execute_batch("SET TimeZone = 'UTC'")?;
        let version = crate::schema::migrate(&mut connection)?;
        staging::create_staging_tables(&connection)?;
        tracing::debug!(path = %path.display(), version, "catalog open");
        Ok(Catalog {
            connection,
            data_dir: data_dir.to_path_buf(),
        })
    }

    /// The data directory this catalog lives in.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// Where [`Catalog::export_parquet`] writes: `<data_dir>/parquet`.
    pub fn parquet_dir(&self) -> PathBuf {
        self.data_dir.join(PARQUET_DIR)
    }

    /// Stores one feed in one transaction: the podcast replaces its stored version, its
    /// episodes are inserted or replaced by id (stored episodes missing from the batch
    /// are kept and marked removed), its persons are replaced. A feed declaring the
    /// `podcast:guid` of a podcast whose record comes from another feed of higher
    /// precedence adds only the episodes that feed lacks (`shared_guid.rs`).
    pub fn upsert_feed(&mut self, batch: &FeedBatch) -> Result<(), DataError> {
        upsert::upsert_feeds(&mut self.connection, std::slice::from_ref(batch)).map(|_| ())
    }

    /// [`Catalog::upsert_feed`] for many feeds in one transaction (much faster than one
    /// transaction per feed when ingesting thousands of feeds).
    pub fn upsert_feeds(&mut self, batches: &[FeedBatch]) -> Result<UpsertSummary, DataError> {
        if batches.is_empty() {
            return Ok(UpsertSummary::default());
        }
        upsert::upsert_feeds(&mut self.connection, batches)
    }

    /// Stores a transcript with its segments (replacing a previous version), and marks
    /// its episode as transcribed and recounts its podcast's `totalTranscripts`.
    pub fn upsert_transcript(&mut self, transcript: &TranscriptRecord) -> Result<(), DataError> {
        transcripts::upsert_transcript(&mut self.connection, transcript)
    }

    /// Appends a fetch to the feed fetch log and updates the feed's polling state.
    pub fn record_fetch(&mut self, fetch: &FeedFetchRecord) -> Result<(), DataError> {
        fetches::record_fetch(&mut self.connection, fetch)
    }

    /// Every known feed with its conditional-GET validators, least recently fetched first:
    /// the podcasts' feeds, their alternate feeds (`shared_guid.rs`) and feeds that never
    /// yielded a podcast.
    pub fn feeds_to_poll(&self) -> Result<Vec<FeedState>, DataError> {
        fetches::feeds_to_poll(&self.connection)
    }

    /// What the catalog knows of the last reads of its podcasts' feeds (when each last
    /// answered, its validators and hash, its WebSub hub), by feed URL: where a server
    /// that starts following the catalog takes over from the ingest.
    pub fn polling_states(&self) -> Result<HashMap<String, PollingState>, DataError> {
        fetches::polling_states(&self.connection)
    }

    /// Moves a podcast to a new feed URL (after a permanent redirect).
    pub fn update_feed_url(&mut self, podcast_id: Uuid, new_url: &str) -> Result<(), DataError> {
        fetches::update_feed_url(&mut self.connection, podcast_id, new_url)
    }

    /// Marks a podcast as blocked (its feed now says `itunes:block`, or is gone for
    /// good): it leaves search. A later read of its feed stores it unblocked again.
    pub fn set_podcast_blocked(&mut self, podcast_id: Uuid) -> Result<bool, DataError> {
        let updated = self.connection.execute(
            r#"UPDATE podcasts SET "podcastBlocked" = true WHERE "podcastId" = CAST(? AS UUID)"#,
            [podcast_id.to_string()],
        )?;
        Ok(updated > 0)
    }

    /// Reads a partition's Parquet snapshot (a folder of `podcasts.parquet`,
    /// `episodes.parquet`, …) into the catalog; a podcast it holds from the feed the
    /// catalog's record comes from replaces the stored one whole, one it holds from
    /// another feed declaring the same `podcast:guid` is merged as two feeds of one
    /// catalog are (`merge.rs`, `shared_guid.rs`). The snapshot is not rewritten: export
    /// once every partition is in.
    pub fn merge_snapshot(&mut self, parquet_dir: &Path) -> Result<MergeSummary, DataError> {
        merge::merge_snapshot(&mut self.connection, parquet_dir)
    }

    /// Writes the Parquet snapshots under `<data_dir>/parquet/` atomically.
    pub fn export_parquet(&self) -> Result<ExportSummary, DataError> {
        export::export_parquet(&self.connection, &self.parquet_dir(), None)
    }

    /// [`Catalog::export_parquet`] sorting large tables in parts of `rows_per_part` rows
    /// (tests: the parts of a small catalog).
    pub fn export_parquet_in_parts(&self, rows_per_part: u64) -> Result<ExportSummary, DataError> {
        export::export_parquet(&self.connection, &self.parquet_dir(), Some(rows_per_part))
    }

    /// The RSS public stats over the catalog; each top list holds at most `top` entries.
    pub fn rss_public_stats(&self, top: u64) -> Result<crate::RssPublicStats, DataError> {
        crate::rss_stats::compute(&self.connection, top)
    }

    /// Row counts of every table.
    pub fn counts(&self) -> Result<CatalogCounts, DataError> {
        let counts = self.connection.query_row(
            "SELECT (SELECT count(*) FROM podcasts), (SELECT count(*) FROM episodes),
                    (SELECT count(*) FROM persons), (SELECT count(*) FROM transcripts),
                    (SELECT count(*) FROM transcript_segments), (SELECT count(*) FROM feed_fetches),
                    (SELECT count(*) FROM feed_states)",
            [],
            |row| {
                Ok(CatalogCounts {
                    podcasts: row.get(0)?,
                    episodes: row.get(1)?,
                    persons: row.get(2)?,
                    transcripts: row.get(3)?,
                    transcript_segments: row.get(4)?,
                    feed_fetches: row.get(5)?,
                    feed_states: row.get(6)?,
                })
            },
        )?;
        Ok(counts)
    }

    /// The newest episode publication date no later than `before` (dates in the future,
    /// as some feeds give, are left out): the instant the catalog's own data speaks of.
    pub fn newest_publication(
        &self,
        before: DateTime<Utc>,
    ) -> Result<Option<DateTime<Utc>>, DataError> {
        let micros: Option<i64> = self.connection.query_row(
            r#"SELECT epoch_us(max("episodeRssPublishedAt")) FROM episodes
               WHERE epoch_us("episodeRssPublishedAt") <= ?"#,
            [before.timestamp_micros()],
            |row| row.get(0),
        )?;
        Ok(micros.and_then(time_from_micros))
    }

    /// Ids of every podcast, sorted.
    pub fn podcast_ids(&self) -> Result<Vec<Uuid>, DataError> {
        let mut statement = self
            .connection
            .prepare(r#"SELECT "podcastId"::VARCHAR FROM podcasts ORDER BY "podcastId""#)?;
        let ids = statement
            .query_map([], |row| uuid_at(row, 0))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ids)
    }

    /// One stored podcast.
    pub fn podcast(&self, podcast_id: Uuid) -> Result<Option<PodcastRecord>, DataError> {
        let mut statement = self.connection.prepare(&format!(
            r#"SELECT {PODCAST_COLUMNS} FROM podcasts WHERE "podcastId" = CAST(? AS UUID)"#
        ))?;
        let mut rows = statement.query_map([podcast_id.to_string()], podcast_from_row)?;
        Ok(rows.next().transpose()?)
    }

    /// The stored episodes of a podcast (including those no longer in its feed), newest
    /// first.
    pub fn episodes_of_podcast(&self, podcast_id: Uuid) -> Result<Vec<EpisodeRecord>, DataError> {
        let mut statement = self.connection.prepare(&format!(
            r#"SELECT {EPISODE_COLUMNS} FROM episodes WHERE "podcastId" = CAST(? AS UUID)
               ORDER BY "episodeRssPublishedAt" DESC NULLS LAST, "episodeId""#
        ))?;
        let episodes = statement
            .query_map([podcast_id.to_string()], episode_from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(episodes)
    }

    /// The publication dates of each podcast's newest `per_podcast` episodes (newest
    /// first), by feed URL, in one query: what the feed scheduler learns a show's
    /// release habit from when it starts following a catalog.
    pub fn recent_publication_dates(
        &self,
        per_podcast: usize,
    ) -> Result<HashMap<String, Vec<DateTime<Utc>>>, DataError> {
        let mut statement = self.connection.prepare(
            r#"SELECT p."podcastRssFeedUrl", epoch_us(e."episodeRssPublishedAt")
               FROM (SELECT "podcastId", "episodeRssPublishedAt", row_number() OVER (
                       PARTITION BY "podcastId" ORDER BY "episodeRssPublishedAt" DESC) AS newest
                     FROM episodes WHERE "episodeRssPublishedAt" IS NOT NULL) e
               JOIN podcasts p ON p."podcastId" = e."podcastId"
               WHERE e.newest <= ?
               ORDER BY p."podcastRssFeedUrl", e."episodeRssPublishedAt" DESC"#,
        )?;
        let mut dates: HashMap<String, Vec<DateTime<Utc>>> = HashMap::new();
        let rows = statement
            .query_map([i64::try_from(per_podcast).unwrap_or(i64::MAX)], |row| {
                Ok((row.get::<_, String>(0)?, time_at(row, 1)?))
            })?;
        for row in rows {
            let (feed_url, published) = row?;
            dates.entry(feed_url).or_default().push(published);
        }
        Ok(dates)
    }

    /// Calls `visit` once for every stored podcast with its stored episodes (newest
    /// first, as [`Catalog::episodes_of_podcast`] orders them), reading the catalog in
    /// two queries instead of two per podcast: the batch jobs that look at every podcast
    /// (scoring) stay linear at a million episodes. The podcasts are visited in no
    /// particular order.
    pub fn for_each_podcast_with_episodes<E: From<DataError>>(
        &self,
        mut visit: impl FnMut(PodcastRecord, Vec<EpisodeRecord>) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut podcasts = self.all_podcasts()?;
        let mut statement = self
            .connection
            .prepare(&format!(
                r#"SELECT {EPISODE_COLUMNS} FROM episodes
               ORDER BY "podcastId", "episodeRssPublishedAt" DESC NULLS LAST, "episodeId""#
            ))
            .map_err(DataError::from)?;
        let mut rows = statement.query([]).map_err(DataError::from)?;
        let mut group: Vec<EpisodeRecord> = Vec::new();
        while let Some(row) = rows.next().map_err(DataError::from)? {
            let episode = episode_from_row(row).map_err(DataError::from)?;
            if group
                .last()
                .is_some_and(|last| last.podcast_id != episode.podcast_id)
            {
                let episodes = std::mem::take(&mut group);
                if let Some(podcast) = podcasts.remove(&episodes[0].podcast_id) {
                    visit(podcast, episodes)?;
                }
            }
            group.push(episode);
        }
        if let Some(first) = group.first()
            && let Some(podcast) = podcasts.remove(&first.podcast_id)
        {
            visit(podcast, group)?;
        }
        for (_, podcast) in podcasts {
            visit(podcast, Vec::new())?;
        }
        Ok(())
    }

    /// Every stored podcast by id.
    fn all_podcasts(&self) -> Result<std::collections::HashMap<Uuid, PodcastRecord>, DataError> {
        let mut statement = self
            .connection
            .prepare(&format!(r#"SELECT {PODCAST_COLUMNS} FROM podcasts"#))?;
        let podcasts = statement
            .query_map([], podcast_from_row)?
            .map(|podcast| podcast.map(|podcast| (podcast.podcast_id, podcast)))
            .collect::<Result<_, _>>()?;
        Ok(podcasts)
    }

    /// Ids of a podcast's stored episodes that are no longer in its feed.
    pub fn removed_episode_ids(&self, podcast_id: Uuid) -> Result<Vec<Uuid>, DataError> {
        let mut statement = self.connection.prepare(
            r#"SELECT "episodeId"::VARCHAR FROM episodes
               WHERE "podcastId" = CAST(? AS UUID) AND "episodeRemovedFromFeedAt" IS NOT NULL
               ORDER BY 1"#,
        )?;
        let ids = statement
            .query_map([podcast_id.to_string()], |row| uuid_at(row, 0))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ids)
    }

    /// The persons of a podcast (channel and episode level).
    pub fn persons_of_podcast(&self, podcast_id: Uuid) -> Result<Vec<PersonRecord>, DataError> {
        let mut statement = self.connection.prepare(&format!(
            r#"SELECT {PERSON_COLUMNS} FROM persons WHERE "podcastId" = CAST(? AS UUID)
               ORDER BY "episodeId" NULLS FIRST, "name", "personType""#
        ))?;
        let persons = statement
            .query_map([podcast_id.to_string()], person_from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(persons)
    }

    /// The fetch log of one feed URL, oldest first.
    pub fn fetches_of_feed(&self, feed_url: &str) -> Result<Vec<FeedFetchRecord>, DataError> {
        let mut statement = self.connection.prepare(&format!(
            r#"SELECT {FETCH_COLUMNS} FROM feed_fetches WHERE "feedUrl" = ? ORDER BY "fetchedAt""#
        ))?;
        let fetches = statement
            .query_map([feed_url], fetch_from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(fetches)
    }
}
