//! Feeds re-read while serving — by the feed scheduler, a refresh request, or another
//! node's change applied here — stored in the catalog and made searchable at once.
//!
//! [`store_feed`] writes one feed as the rows that changed and tells what the search
//! index must change for it: the catalog compares the feed with what it holds before
//! writing (`Catalog::store_feed_changes`), so a feed that answers the same content again
//! writes and changes nothing, whatever its server says about caching. [`publish`] then writes a new snapshot and applies
//! the changes of many feeds as one incremental index generation, and switches the
//! server's readers to both.
//!
//! A crash between the catalog write and the index publish must not leave episodes
//! stored but never searchable (the next poll would see no change). So the podcasts
//! being written are first listed in `<data-dir>/feeds/unindexed.json`; the list is
//! removed once their generation is published, and a list found later (after a crash
//! or a failed publish) has its podcasts indexed again in full by the next publish.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use podlens_data::Catalog;
use podlens_indexer::IndexChanges;
use podlens_ingest::fetch::CollectedFeeds;
use podlens_ingest::sponsors::episode_sponsor_mentions;
use podlens_model::catalog::{
    EpisodeRecord, FeedBatch, FeedFetchRecord, PersonRecord, PodcastRecord, TranscriptRecord,
};
use uuid::Uuid;

use crate::catalog::CatalogReader;
use crate::cluster::CatalogChange;
use crate::error::{AppError, AppResult};
use crate::index_updates::{UpdateOutcome, apply_to_index};

/// The file listing podcasts stored in the catalog but not yet in a published index
/// generation, under `<data-dir>/feeds/`.
pub const UNINDEXED_FILE: &str = "unindexed.json";

/// What the search index must change for stored feeds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct IndexDelta {
    pub podcasts: Vec<PodcastRecord>,
    /// New and changed episodes (with transcript, when they have one, in `transcripts`).
    pub episodes: Vec<EpisodeRecord>,
    pub transcripts: Vec<TranscriptRecord>,
    pub persons: Vec<PersonRecord>,
    /// Podcasts to take out of search (blocked, gone).
    pub deleted_podcasts: Vec<Uuid>,
    /// Episodes the catalog did not hold before.
    pub new_episodes: usize,
}

impl IndexDelta {
    pub fn is_empty(&self) -> bool {
        self.podcasts.is_empty() && self.episodes.is_empty() && self.deleted_podcasts.is_empty()
    }

    pub fn extend(&mut self, other: IndexDelta) {
        self.podcasts.extend(other.podcasts);
        self.episodes.extend(other.episodes);
        self.transcripts.extend(other.transcripts);
        self.persons.extend(other.persons);
        self.deleted_podcasts.extend(other.deleted_podcasts);
        self.new_episodes += other.new_episodes;
    }

    /// Replaces everything this delta holds of `podcast_id` with `full`, the podcast
    /// indexed again in full ([`full_delta`]).
    fn put_in_full(&mut self, podcast_id: Uuid, full: IndexDelta) {
        self.podcasts.retain(|p| p.podcast_id != podcast_id);
        self.episodes.retain(|e| e.podcast_id != podcast_id);
        self.transcripts.retain(|t| t.podcast_id != podcast_id);
        self.persons.retain(|p| p.podcast_id != podcast_id);
        self.deleted_podcasts.retain(|id| *id != podcast_id);
        self.extend(full);
    }

    /// The podcasts this delta touches.
    pub fn podcast_ids(&self) -> Vec<Uuid> {
        let mut ids: Vec<Uuid> = self
            .podcasts
            .iter()
            .map(|p| p.podcast_id)
            .chain(self.episodes.iter().map(|e| e.podcast_id))
            .chain(self.deleted_podcasts.iter().copied())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }
}

/// Whether two transcripts of an episode say the same, from the same source.
fn same_transcript(held: &TranscriptRecord, fetched: &TranscriptRecord) -> bool {
    held.source == fetched.source
        && held.format == fetched.format
        && held.language == fetched.language
        && held.transcript_text == fetched.transcript_text
        && held.segments == fetched.segments
}

/// Stores `batch` (with the `transcripts` its feed linked to) in `catalog` as the rows
/// that changed ([`Catalog::store_feed_changes`]: a feed that answers the same content
/// again writes nothing); what the index must change for it. A podcast that was
/// blocked is indexed again with every episode.
pub fn store_feed(
    catalog: &mut Catalog,
    batch: &FeedBatch,
    transcripts: &[TranscriptRecord],
) -> Result<IndexDelta, podlens_data::DataError> {
    let id = batch.podcast.podcast_id;
    let in_full = catalog
        .podcast(id)?
        .is_some_and(|podcast| podcast.podcast_blocked);
    let written = catalog.store_feed_changes(batch)?;
    // A transcript fetched again with the same content changes nothing (a feed answering
    // in full, as on its first poll by the server, brings every linked transcript).
    let mut transcribed: HashSet<Uuid> = HashSet::new();
    for transcript in transcripts {
        let held = catalog.transcript_of_episode(transcript.episode_id)?;
        if held.is_some_and(|held| same_transcript(&held, transcript)) {
            continue;
        }
        transcribed.insert(transcript.episode_id);
        catalog.upsert_transcript(transcript)?;
    }
    let episodes_written: HashSet<Uuid> = written.episodes.iter().copied().collect();
    let podcast_changed = written.podcast || written.persons || !transcribed.is_empty();
    if episodes_written.is_empty() && !podcast_changed && !in_full {
        return Ok(IndexDelta::default());
    }
    let changed: Vec<EpisodeRecord> = catalog
        .episodes_of_podcast(id)?
        .into_iter()
        .filter(|episode| {
            in_full
                || transcribed.contains(&episode.episode_id)
                || episodes_written.contains(&episode.episode_id)
        })
        .collect();
    delta_for(catalog, catalog.podcast(id)?, changed, written.new_episodes)
}

/// The delta indexing `episodes` of the podcast `podcast` (with their transcripts and
/// the podcast's people).
fn delta_for(
    catalog: &Catalog,
    podcast: Option<PodcastRecord>,
    episodes: Vec<EpisodeRecord>,
    new_episodes: usize,
) -> Result<IndexDelta, podlens_data::DataError> {
    let Some(podcast) = podcast else {
        return Ok(IndexDelta::default());
    };
    let mut transcripts = Vec::new();
    for episode in episodes.iter().filter(|e| e.episode_has_transcript) {
        if let Some(transcript) = catalog.transcript_of_episode(episode.episode_id)? {
            transcripts.push(transcript);
        }
    }
    Ok(IndexDelta {
        persons: catalog.persons_of_podcast(podcast.podcast_id)?,
        podcasts: vec![podcast],
        episodes,
        transcripts,
        deleted_podcasts: Vec::new(),
        new_episodes,
    })
}

/// The delta indexing a podcast again in full, as the catalog holds it (a blocked
/// podcast is taken out of search instead).
pub fn full_delta(
    catalog: &Catalog,
    podcast_id: Uuid,
) -> Result<IndexDelta, podlens_data::DataError> {
    match catalog.podcast(podcast_id)? {
        Some(podcast) if podcast.podcast_blocked => Ok(IndexDelta {
            deleted_podcasts: vec![podcast_id],
            ..IndexDelta::default()
        }),
        Some(podcast) => {
            let episodes = catalog.episodes_of_podcast(podcast_id)?;
            delta_for(catalog, Some(podcast), episodes, 0)
        }
        None => Ok(IndexDelta {
            deleted_podcasts: vec![podcast_id],
            ..IndexDelta::default()
        }),
    }
}

/// Takes a podcast whose feed now blocks it (or is gone) out of search: marked blocked
/// in the catalog, deleted from the index.
pub fn block_podcast(
    catalog: &mut Catalog,
    podcast_id: Uuid,
) -> Result<IndexDelta, podlens_data::DataError> {
    let known = catalog.set_podcast_blocked(podcast_id)?;
    Ok(IndexDelta {
        deleted_podcasts: if known { vec![podcast_id] } else { Vec::new() },
        ..IndexDelta::default()
    })
}

fn unindexed_path(data_dir: &Path) -> PathBuf {
    data_dir.join("feeds").join(UNINDEXED_FILE)
}

/// The podcasts a crash or a failed publish left stored but not indexed.
pub fn unindexed(data_dir: &Path) -> Vec<Uuid> {
    std::fs::read(unindexed_path(data_dir))
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

/// Lists `podcasts` as stored but not yet indexed (with those listed already), before
/// they are written to the catalog.
pub fn mark_unindexed(data_dir: &Path, podcasts: &[Uuid]) -> AppResult<()> {
    let mut all = unindexed(data_dir);
    all.extend_from_slice(podcasts);
    set_unindexed(data_dir, all)
}

/// Lists exactly `podcasts` as stored but not yet indexed (none: no list).
pub fn set_unindexed(data_dir: &Path, mut all: Vec<Uuid>) -> AppResult<()> {
    all.sort_unstable();
    all.dedup();
    if all.is_empty() {
        clear_unindexed(data_dir);
        return Ok(());
    }
    let path = unindexed_path(data_dir);
    let staged = path.with_extension("json.tmp");
    std::fs::create_dir_all(path.parent().unwrap_or(data_dir))
        .and_then(|()| std::fs::write(&staged, serde_json::to_vec(&all).unwrap_or_default()))
        .and_then(|()| std::fs::rename(&staged, &path))
        .map_err(|error| AppError::Internal(format!("cannot write {}: {error}", path.display())))
}

fn clear_unindexed(data_dir: &Path) {
    let path = unindexed_path(data_dir);
    if let Err(error) = std::fs::remove_file(&path)
        && error.kind() != std::io::ErrorKind::NotFound
    {
        tracing::warn!(%error, path = %path.display(), "cannot clear the list of unindexed podcasts");
    }
}

/// What [`publish`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Published {
    /// The index generation published, if one was.
    pub generation: Option<u64>,
}

/// Finds the sponsor mentions of `podcasts` again, writes a new snapshot, applies
/// `delta` (and any podcasts left unindexed before, in full) as one index generation,
/// and switches `reader` to both. The caller holds the catalog turn.
pub fn publish(
    catalog: &mut Catalog,
    reader: &CatalogReader,
    mut delta: IndexDelta,
) -> AppResult<Published> {
    let data_dir = catalog.data_dir().to_owned();
    let in_delta: HashSet<Uuid> = delta.podcast_ids().into_iter().collect();
    for podcast_id in unindexed(&data_dir) {
        if !in_delta.contains(&podcast_id) {
            delta.extend(full_delta(catalog, podcast_id)?);
        }
    }
    let touched = delta.podcast_ids();
    for podcast_id in &touched {
        let episodes = catalog.episodes_of_podcast(*podcast_id)?;
        let mentions: Vec<_> = episodes.iter().flat_map(episode_sponsor_mentions).collect();
        catalog.store_sponsor_mentions(&[*podcast_id], &mentions)?;
    }
    catalog.export_parquet()?;
    let mut published = Published::default();
    if !delta.is_empty() {
        let changes = IndexChanges {
            podcasts: &delta.podcasts,
            episodes: &delta.episodes,
            transcripts: &delta.transcripts,
            signals: None,
            persons: &delta.persons,
            deleted_podcasts: &delta.deleted_podcasts,
            deleted_episodes: &[],
        };
        match apply_to_index(&data_dir.join("index"), changes) {
            Ok(UpdateOutcome::Published { generation, .. }) => {
                published.generation = Some(generation);
                match reader.index() {
                    Ok(handle) => {
                        handle.reload().map_err(|error| {
                            AppError::Internal(format!(
                                "cannot switch to the new index generation: {error}"
                            ))
                        })?;
                    }
                    Err(error) => tracing::debug!(%error, "no index open to switch"),
                }
            }
            Ok(UpdateOutcome::NoIndex) => {}
            Err(error) => {
                // The podcasts stay listed: the next publish indexes them again.
                return Err(AppError::Internal(format!(
                    "the feeds were stored but the index was not updated: {error}"
                )));
            }
        }
    }
    clear_unindexed(&data_dir);
    reader.snapshot()?.refresh()?;
    Ok(published)
}

/// What [`store_marked`] wrote.
#[derive(Debug, Default)]
pub struct Stored {
    pub delta: IndexDelta,
    /// The changes for the other nodes sharing the store.
    pub changes: Vec<CatalogChange>,
    /// Whether a snapshot and an index generation must be published ([`publish`]):
    /// something changed, or podcasts were left unindexed before.
    pub to_publish: bool,
    /// The feeds a stop left unstored (nothing of them was written).
    pub unstored: Vec<Uuid>,
}

/// [`store_collected`], with the podcasts it writes listed as unindexed first (so a
/// crash before [`publish`] loses nothing), and the list left holding only what
/// changed (feeds that came back the same need no index work). Podcasts listed before
/// are in the delta in full. When `stopping` says so, the feeds not yet stored are left
/// unstored ([`store_collected`]).
pub fn store_marked(
    catalog: &mut Catalog,
    collected: &CollectedFeeds,
    stopping: &dyn Fn() -> bool,
) -> AppResult<Stored> {
    let data_dir = catalog.data_dir().to_owned();
    let listed_before = unindexed(&data_dir);
    let written: Vec<Uuid> = collected
        .batches
        .iter()
        .map(|batch| batch.podcast.podcast_id)
        .chain(
            collected
                .fetches
                .iter()
                .filter(|fetch| is_gone(fetch))
                .filter_map(|fetch| fetch.podcast_id),
        )
        .collect();
    mark_unindexed(&data_dir, &written)?;
    let (mut delta, changes, unstored) = store_collected(catalog, collected, stopping)?;
    // A podcast listed before this write may hold stored episodes no generation has:
    // what this write changed of it is not enough (an older copy of its feed, applied
    // from the change log after a crash, changes the podcast and none of them).
    for podcast_id in &listed_before {
        delta.put_in_full(*podcast_id, full_delta(catalog, *podcast_id)?);
    }
    let mut still = listed_before;
    still.extend(delta.podcast_ids());
    let to_publish = !still.is_empty() || !collected.moved.is_empty();
    set_unindexed(&data_dir, still)?;
    Ok(Stored {
        delta,
        changes,
        to_publish,
        unstored,
    })
}

/// Whether a fetch says the feed left for good: it blocks itself, or is gone (410).
pub fn is_gone(fetch: &FeedFetchRecord) -> bool {
    fetch.outcome == "blocked" || (fetch.outcome == "http-status" && fetch.http_status == Some(410))
}

/// Writes what a run collected to `catalog`: every feed with its transcripts, the
/// fetch log, moved addresses, and blocked or gone podcasts. Returns what the index
/// must change, and the changes for the other nodes sharing the store (a feed whose
/// content did not change is stored but makes no change). Once `stopping` says so (the
/// server stops), the feeds not yet stored are skipped, with their transcripts and
/// fetches: returned third, they are polled again.
#[allow(clippy::type_complexity)]
pub fn store_collected(
    catalog: &mut Catalog,
    collected: &CollectedFeeds,
    stopping: &dyn Fn() -> bool,
) -> Result<(IndexDelta, Vec<CatalogChange>, Vec<Uuid>), podlens_data::DataError> {
    let mut delta = IndexDelta::default();
    let mut changes = Vec::new();
    let mut transcripts: HashMap<Uuid, Vec<TranscriptRecord>> = HashMap::new();
    for transcript in &collected.transcripts {
        transcripts
            .entry(transcript.podcast_id)
            .or_default()
            .push(transcript.clone());
    }
    let moved: HashMap<Uuid, &String> =
        collected.moved.iter().map(|(id, url)| (*id, url)).collect();
    let mut unstored: HashSet<Uuid> = HashSet::new();
    for batch in &collected.batches {
        let id = batch.podcast.podcast_id;
        let own = transcripts.remove(&id).unwrap_or_default();
        if !unstored.is_empty() || stopping() {
            unstored.insert(id);
            continue;
        }
        let stored = store_feed(catalog, batch, &own)?;
        if stored.is_empty() && !moved.contains_key(&id) {
            // The same content at the same address: nothing for the index or the
            // other nodes.
            continue;
        }
        delta.extend(stored);
        changes.push(CatalogChange::Feed {
            batch: Box::new(batch.clone()),
            transcripts: own,
            moved_to: moved.get(&id).map(|url| (*url).clone()),
        });
    }
    // Transcripts of feeds that did not change (links retried after a failure).
    for (podcast_id, rest) in transcripts {
        if !unstored.is_empty() {
            break;
        }
        for transcript in &rest {
            catalog.upsert_transcript(transcript)?;
        }
        let episodes = catalog.episodes_of_podcast(podcast_id)?;
        for transcript in rest {
            if let Some(episode) = episodes
                .iter()
                .find(|e| e.episode_id == transcript.episode_id)
            {
                delta.episodes.push(episode.clone());
                changes.push(CatalogChange::Transcript {
                    episode: Box::new(episode.clone()),
                    transcript: Box::new(transcript.clone()),
                });
                delta.transcripts.push(transcript);
            }
        }
    }
    if !collected.transcript_failures.is_empty() {
        catalog.record_transcript_failures(&collected.transcript_failures)?;
    }
    let is_stored = |id: Option<Uuid>| id.is_none_or(|id| !unstored.contains(&id));
    let fetches: Vec<FeedFetchRecord> = collected
        .fetches
        .iter()
        .filter(|fetch| is_stored(fetch.podcast_id))
        .cloned()
        .collect();
    catalog.record_fetches(&fetches)?;
    for (podcast_id, url) in &collected.moved {
        if is_stored(Some(*podcast_id)) {
            catalog.update_feed_url(*podcast_id, url)?;
        }
    }
    for fetch in fetches.iter().filter(|fetch| is_gone(fetch)) {
        if let Some(podcast_id) = fetch.podcast_id {
            let gone = block_podcast(catalog, podcast_id)?;
            if !gone.is_empty() {
                changes.push(CatalogChange::Blocked { podcast_id });
            }
            delta.extend(gone);
        }
    }
    Ok((delta, changes, unstored.into_iter().collect()))
}
