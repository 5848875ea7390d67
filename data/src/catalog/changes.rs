//! `store_feed_changes`: one re-read feed written as the rows that changed.
//!
//! A server re-reads every feed of its catalog on a schedule, and most answers say what
//! the catalog already holds. Writing the whole feed again (the podcast, every episode
//! with `INSERT OR REPLACE`, the persons) made an idle server spend seconds of DuckDB
//! work per cycle for nothing. Here the feed is compared with the stored rows first:
//! the same content writes nothing, and a changed feed writes its new and changed
//! episodes, marks the ones gone from it, and rewrites the podcast and its persons only
//! when they changed. The result is the catalog a full [`super::Catalog::upsert_feed`]
//! leaves.

use std::collections::{HashMap, HashSet};

use duckdb::params;
use podlens_model::catalog::{EpisodeRecord, FeedBatch, PersonRecord, PodcastRecord};
use uuid::Uuid;

use super::shared_guid::{FeedClaim, log_alternate};
use super::staging::{column_list, converted_columns};
use super::upsert::{
    insert_alternate_episodes_sql, insert_episodes_sql, insert_podcasts_counting, stage_episodes,
    stage_persons, stage_podcasts,
};
use crate::DataError;
use crate::records::uuid_at;

/// What [`super::Catalog::store_feed_changes`] wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FeedWrite {
    /// The podcast's row was written (it is new or changed).
    pub podcast: bool,
    /// Episodes written: new ones, changed ones, ones back in the feed.
    pub episodes: Vec<Uuid>,
    /// Episodes newly marked as no longer in the feed.
    pub removed: Vec<Uuid>,
    /// How many of the episodes written the catalog did not hold before.
    pub new_episodes: usize,
    /// The podcast's persons were written again.
    pub persons: bool,
    /// The feed is an alternate feed of its podcast (`shared_guid.rs`: another feed
    /// declaring its `podcast:guid` keeps the podcast's record): only the episodes that
    /// feed lacks were written, marked as not in the podcast's feed.
    pub alternate_feed: bool,
}

impl FeedWrite {
    /// Whether nothing was written: the catalog held this feed already.
    pub fn is_empty(&self) -> bool {
        !self.podcast && self.episodes.is_empty() && self.removed.is_empty() && !self.persons
    }
}

/// A podcast without what the catalog sets itself.
fn comparable_podcast(podcast: &PodcastRecord) -> PodcastRecord {
    PodcastRecord {
        updated_at: Default::default(),
        total_transcripts: 0,
        ..podcast.clone()
    }
}

/// An episode without what the catalog sets itself (when it was first seen and last
/// written, whether it holds its transcript).
fn comparable_episode(episode: &EpisodeRecord) -> EpisodeRecord {
    EpisodeRecord {
        episode_created_at: Default::default(),
        episode_updated_at: Default::default(),
        episode_has_transcript: false,
        transcript_id: None,
        ..episode.clone()
    }
}

/// Persons in an order that does not depend on how they were read.
fn sorted_persons(persons: &[PersonRecord]) -> Vec<PersonRecord> {
    let mut sorted = persons.to_vec();
    sorted.sort_by_cached_key(|person| format!("{person:?}"));
    sorted
}

/// What `batch` changes of what the catalog holds of its podcast.
fn plan(catalog: &super::Catalog, batch: &FeedBatch) -> Result<FeedWrite, DataError> {
    let id = batch.podcast.podcast_id;
    let held_podcast = catalog.podcast(id)?;
    let held: HashMap<Uuid, EpisodeRecord> = catalog
        .episodes_of_podcast(id)?
        .into_iter()
        .map(|episode| (episode.episode_id, comparable_episode(&episode)))
        .collect();
    let in_feed = episodes_in_feed(catalog, id)?;
    if let Some(held_podcast) = &held_podcast
        && FeedClaim::of(&batch.podcast).yields_to(&FeedClaim::of(held_podcast))
    {
        log_alternate(
            &id,
            &held_podcast.podcast_rss_feed_url,
            &batch.podcast.podcast_rss_feed_url,
        );
        return Ok(plan_alternate(batch, &held, &in_feed));
    }
    // The last copy of an episode the feed lists twice wins, as in the full write.
    let mut fetched: HashMap<Uuid, &EpisodeRecord> = HashMap::new();
    for episode in &batch.episodes {
        fetched.insert(episode.episode_id, episode);
    }
    let mut write = FeedWrite {
        podcast: held_podcast.as_ref().map(comparable_podcast)
            != Some(comparable_podcast(&batch.podcast)),
        ..FeedWrite::default()
    };
    (write.episodes, write.new_episodes) = episodes_to_write(batch, &held, |episode_id, same| {
        !(same && in_feed.contains(&episode_id))
    });
    write.removed = in_feed
        .iter()
        .filter(|episode_id| !fetched.contains_key(episode_id))
        .copied()
        .collect();
    write.removed.sort_unstable();
    write.persons =
        sorted_persons(&catalog.persons_of_podcast(id)?) != sorted_persons(&batch.persons);
    // The podcast's transcript count follows the episodes its feed lists.
    if !write.removed.is_empty() || write.episodes.iter().any(|id| !in_feed.contains(id)) {
        write.podcast = true;
    }
    Ok(write)
}

/// What an alternate feed of the podcast (`shared_guid.rs`) changes: its episodes the
/// podcast's feed does not list (the last copy of one listed twice), when new or
/// changed.
fn plan_alternate(
    batch: &FeedBatch,
    held: &HashMap<Uuid, EpisodeRecord>,
    in_feed: &HashSet<Uuid>,
) -> FeedWrite {
    let (episodes, new_episodes) = episodes_to_write(batch, held, |episode_id, same| {
        !same && !in_feed.contains(&episode_id)
    });
    FeedWrite {
        episodes,
        new_episodes,
        alternate_feed: true,
        ..FeedWrite::default()
    }
}

/// The episodes of `batch` that `write` says to write, given their id and whether the
/// catalog holds the same (the last copy of an episode the feed lists twice wins, as in
/// the full write), in the feed's order; and how many of them the catalog did not hold.
fn episodes_to_write(
    batch: &FeedBatch,
    held: &HashMap<Uuid, EpisodeRecord>,
    write: impl Fn(Uuid, bool) -> bool,
) -> (Vec<Uuid>, usize) {
    let mut seen = HashSet::new();
    let mut episodes = Vec::new();
    for episode in batch.episodes.iter().rev() {
        let episode_id = episode.episode_id;
        if !seen.insert(episode_id) {
            continue;
        }
        let same = held.get(&episode_id) == Some(&comparable_episode(episode));
        if write(episode_id, same) {
            episodes.push(episode_id);
        }
    }
    episodes.reverse();
    let new_episodes = episodes
        .iter()
        .filter(|episode_id| !held.contains_key(episode_id))
        .count();
    (episodes, new_episodes)
}

/// The podcast's stored episodes that its feed listed last time.
fn episodes_in_feed(
    catalog: &super::Catalog,
    podcast_id: Uuid,
) -> Result<HashSet<Uuid>, DataError> {
    let mut statement = catalog.connection.prepare(
        r#"SELECT "episodeId"::VARCHAR FROM episodes
           WHERE "podcastId" = CAST(? AS UUID) AND "episodeRemovedFromFeedAt" IS NULL"#,
    )?;
    let ids = statement
        .query_map([podcast_id.to_string()], |row| uuid_at(row, 0))?
        .collect::<Result<HashSet<_>, _>>()?;
    Ok(ids)
}

/// The podcast from `stage_podcasts`, its `totalTranscripts` counted over the episodes
/// its feed lists as now stored.
fn insert_podcast_sql() -> String {
    insert_podcasts_counting(
        r#"SELECT "podcastId", "episodeId" FROM episodes
           WHERE "podcastId" IN (SELECT CAST("podcastId" AS UUID) FROM stage_podcasts)
             AND "episodeRemovedFromFeedAt" IS NULL"#,
    )
}

impl super::Catalog {
    /// Stores a re-read feed as the rows that changed (see the module's comment): the
    /// same content writes nothing. What was written.
    pub fn store_feed_changes(&mut self, batch: &FeedBatch) -> Result<FeedWrite, DataError> {
        let write = plan(self, batch)?;
        if write.is_empty() {
            return Ok(write);
        }
        let podcast_id = batch.podcast.podcast_id.to_string();
        let changed: HashSet<Uuid> = write.episodes.iter().copied().collect();
        let transaction = self.connection.transaction()?;
        for table in ["stage_podcasts", "stage_episodes", "stage_persons"] {
            transaction.execute_batch(&format!("DELETE FROM {table}"))?;
        }
        if write.alternate_feed {
            stage_episodes(
                &transaction,
                batch
                    .episodes
                    .iter()
                    .filter(|episode| changed.contains(&episode.episode_id)),
                0,
            )?;
            transaction.execute(&insert_alternate_episodes_sql(), [])?;
            transaction.commit()?;
            return Ok(write);
        }
        // The podcast is staged whatever changed: the episodes' transcripts are looked up
        // by the staged podcast.
        let order = stage_podcasts(&transaction, std::slice::from_ref(batch), 0)?;
        let order = stage_episodes(
            &transaction,
            batch
                .episodes
                .iter()
                .filter(|episode| changed.contains(&episode.episode_id)),
            order,
        )?;
        if !write.episodes.is_empty() {
            transaction.execute(&insert_episodes_sql(), [])?;
        }
        {
            let mut mark = transaction.prepare(
                r#"UPDATE episodes SET "episodeRemovedFromFeedAt" = current_timestamp
                   WHERE "episodeId" = CAST(? AS UUID) AND "episodeRemovedFromFeedAt" IS NULL"#,
            )?;
            for episode_id in &write.removed {
                mark.execute(params![episode_id.to_string()])?;
            }
        }
        if write.persons {
            stage_persons(&transaction, &batch.persons, order)?;
            transaction.execute(
                r#"DELETE FROM persons WHERE "podcastId" = CAST(? AS UUID)"#,
                [&podcast_id],
            )?;
            transaction.execute(
                &format!(
                    "INSERT INTO persons ({}) SELECT {} FROM stage_persons s",
                    column_list(super::staging::PERSON_STAGE),
                    converted_columns(super::staging::PERSON_STAGE, "s", &[])
                ),
                [],
            )?;
        }
        if write.podcast {
            transaction.execute(&insert_podcast_sql(), [])?;
        }
        transaction.commit()?;
        Ok(write)
    }
}
