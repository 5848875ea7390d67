//! A re-read feed written as the rows that changed (`Catalog::store_feed_changes`).

mod common;

use chrono::Duration;
use podlens_data::Catalog;
use podlens_model::catalog::{EpisodeRecord, FeedBatch};

use common::{base_time, episode, feed, person, transcript};

/// The feed read again a day later: the same content, stamped with the new read's time.
fn read_again(batch: &FeedBatch) -> FeedBatch {
    let later = base_time() + Duration::days(1);
    let mut again = batch.clone();
    again.podcast.updated_at = later;
    for episode in &mut again.episodes {
        episode.episode_created_at = later;
        episode.episode_updated_at = later;
    }
    again
}

fn catalog_with(batch: &FeedBatch) -> (tempfile::TempDir, Catalog) {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    catalog.upsert_feed(batch).unwrap();
    for episode in &batch.episodes[..2] {
        catalog.upsert_transcript(&transcript(episode, 3)).unwrap();
    }
    (dir, catalog)
}

fn without_write_times(mut episodes: Vec<EpisodeRecord>) -> Vec<EpisodeRecord> {
    for episode in &mut episodes {
        episode.episode_updated_at = Default::default();
    }
    episodes
}

#[test]
fn a_feed_answering_the_same_content_writes_nothing() {
    let first = feed(0, 5);
    let id = first.podcast.podcast_id;
    let (_dir, mut catalog) = catalog_with(&first);
    let podcast_before = catalog.podcast(id).unwrap();
    let episodes_before = catalog.episodes_of_podcast(id).unwrap();

    let written = catalog.store_feed_changes(&read_again(&first)).unwrap();

    assert!(written.is_empty(), "{written:?}");
    // Not even the podcast's write time moved.
    assert_eq!(catalog.podcast(id).unwrap(), podcast_before);
    assert_eq!(catalog.episodes_of_podcast(id).unwrap(), episodes_before);
}

#[test]
fn a_changed_feed_writes_what_changed_and_leaves_what_a_full_write_leaves() {
    let first = feed(1, 5);
    let id = first.podcast.podcast_id;
    let (_dir_a, mut changes_only) = catalog_with(&first);
    let (_dir_b, mut full) = catalog_with(&first);

    // Episode 1 left the feed, episode 3 was retitled, episode 6 is new, a guest joined.
    let mut second = read_again(&first);
    second.episodes.remove(0);
    second.episodes[1].episode_rss_title = "A better title".to_owned();
    let mut new_episode = episode(&second.podcast, 6);
    new_episode.episode_created_at = base_time() + Duration::days(1);
    new_episode.episode_updated_at = base_time() + Duration::days(1);
    let new_id = new_episode.episode_id;
    second.episodes.push(new_episode);
    second.podcast.total_episodes = 5;
    second
        .persons
        .push(person(&second.podcast, None, "Grace", "guest"));

    let written = changes_only.store_feed_changes(&second).unwrap();
    full.upsert_feed(&second).unwrap();

    assert_eq!(
        written.episodes,
        vec![first.episodes[2].episode_id, new_id],
        "only the retitled and the new episode are written"
    );
    assert_eq!(written.removed, vec![first.episodes[0].episode_id]);
    assert_eq!(written.new_episodes, 1);
    assert!(written.podcast && written.persons);

    assert_eq!(changes_only.podcast(id).unwrap(), full.podcast(id).unwrap());
    assert_eq!(
        changes_only.podcast(id).unwrap().unwrap().total_transcripts,
        1,
        "the removed episode's transcript no longer counts"
    );
    assert_eq!(
        without_write_times(changes_only.episodes_of_podcast(id).unwrap()),
        without_write_times(full.episodes_of_podcast(id).unwrap())
    );
    assert_eq!(
        changes_only.persons_of_podcast(id).unwrap(),
        full.persons_of_podcast(id).unwrap()
    );
    // Both catalogs now hold the second version as it is, removals included.
    assert!(
        changes_only
            .store_feed_changes(&read_again(&second))
            .unwrap()
            .is_empty()
    );
    assert!(
        full.store_feed_changes(&read_again(&second))
            .unwrap()
            .is_empty()
    );
}

#[test]
fn an_episode_back_in_its_feed_is_written_again() {
    let first = feed(2, 3);
    let id = first.podcast.podcast_id;
    let (_dir, mut catalog) = catalog_with(&first);
    let mut without_first = read_again(&first);
    without_first.episodes.remove(0);
    catalog.store_feed_changes(&without_first).unwrap();

    let written = catalog.store_feed_changes(&read_again(&first)).unwrap();

    assert_eq!(written.episodes, vec![first.episodes[0].episode_id]);
    assert_eq!(written.new_episodes, 0);
    assert!(
        catalog
            .store_feed_changes(&read_again(&first))
            .unwrap()
            .is_empty()
    );
    assert_eq!(catalog.episodes_of_podcast(id).unwrap().len(), 3);
}
