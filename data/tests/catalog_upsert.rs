//! Upserts into a real catalog file: idempotency, updates in place, kept-and-marked
//! removed episodes, persons replaced, transcripts.

mod common;

use chrono::Duration;
use podlens_data::{Catalog, CatalogCounts};

use common::{base_time, episode, feed, person, transcript};

#[test]
fn the_same_feeds_twice_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    let feeds: Vec<_> = (0..4).map(|i| feed(i, 5 + i)).collect();
    for batch in &feeds {
        catalog.upsert_feed(batch).unwrap();
    }
    let first_counts = catalog.counts().unwrap();
    let first_episodes = catalog
        .episodes_of_podcast(feeds[2].podcast.podcast_id)
        .unwrap();
    for batch in &feeds {
        catalog.upsert_feed(batch).unwrap();
    }
    let expected_episodes: u64 = feeds.iter().map(|f| f.episodes.len() as u64).sum();
    assert_eq!(
        catalog.counts().unwrap(),
        CatalogCounts {
            podcasts: 4,
            episodes: expected_episodes,
            persons: 4,
            ..CatalogCounts::default()
        }
    );
    assert_eq!(catalog.counts().unwrap(), first_counts);
    assert_eq!(
        catalog
            .episodes_of_podcast(feeds[2].podcast.podcast_id)
            .unwrap(),
        first_episodes
    );
    assert!(
        catalog
            .removed_episode_ids(feeds[2].podcast.podcast_id)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn stored_records_read_back_equal_to_what_was_written() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    let batch = feed(7, 9);
    catalog.upsert_feed(&batch).unwrap();
    assert_eq!(
        catalog.podcast(batch.podcast.podcast_id).unwrap(),
        Some(batch.podcast.clone())
    );
    let mut expected = batch.episodes.clone();
    expected.sort_by_key(|e| std::cmp::Reverse(e.episode_rss_published_at));
    assert_eq!(
        catalog
            .episodes_of_podcast(batch.podcast.podcast_id)
            .unwrap(),
        expected
    );
    assert_eq!(
        catalog
            .persons_of_podcast(batch.podcast.podcast_id)
            .unwrap(),
        batch.persons
    );
    assert_eq!(
        catalog.podcast_ids().unwrap(),
        vec![batch.podcast.podcast_id]
    );
}

#[test]
fn a_changed_feed_updates_in_place_and_keeps_removed_items_marked() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    let original = feed(1, 6);
    catalog.upsert_feed(&original).unwrap();

    let mut changed = original.clone();
    changed.podcast.podcast_rss_title = "Renamed show".to_owned();
    changed.episodes[0].episode_rss_title = "A corrected title".to_owned();
    changed.episodes[0].episode_created_at = base_time() + Duration::days(30);
    let dropped = changed.episodes.pop().unwrap();
    let added = episode(&changed.podcast, 99);
    changed.episodes.push(added.clone());
    changed.persons = vec![person(&changed.podcast, Some(&added), "Grace", "guest")];
    catalog.upsert_feed(&changed).unwrap();

    let id = original.podcast.podcast_id;
    assert_eq!(
        catalog.podcast(id).unwrap().unwrap().podcast_rss_title,
        "Renamed show"
    );
    let stored = catalog.episodes_of_podcast(id).unwrap();
    assert_eq!(
        stored.len(),
        7,
        "six original episodes (one dropped but kept) plus one new"
    );
    let first = stored
        .iter()
        .find(|e| e.episode_id == original.episodes[0].episode_id)
        .unwrap();
    assert_eq!(first.episode_rss_title, "A corrected title");
    assert_eq!(
        first.episode_created_at,
        base_time(),
        "first-seen time is kept"
    );
    assert!(stored.iter().any(|e| e.episode_id == dropped.episode_id));
    assert_eq!(
        catalog.removed_episode_ids(id).unwrap(),
        vec![dropped.episode_id]
    );
    assert_eq!(catalog.persons_of_podcast(id).unwrap(), changed.persons);

    // Back in the feed: no longer marked.
    catalog.upsert_feed(&original).unwrap();
    assert_eq!(
        catalog.removed_episode_ids(id).unwrap(),
        vec![added.episode_id]
    );
}

#[test]
fn duplicated_items_in_one_feed_keep_the_last() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    let mut batch = feed(2, 3);
    let mut duplicate = batch.episodes[1].clone();
    duplicate.episode_rss_title = "second copy".to_owned();
    batch.episodes.push(duplicate.clone());
    catalog.upsert_feed(&batch).unwrap();
    let stored = catalog
        .episodes_of_podcast(batch.podcast.podcast_id)
        .unwrap();
    assert_eq!(stored.len(), 3);
    assert!(stored.contains(&duplicate));
}

#[test]
fn many_feeds_in_one_call_match_one_call_per_feed() {
    let one_by_one = tempfile::tempdir().unwrap();
    let together = tempfile::tempdir().unwrap();
    let feeds: Vec<_> = (0..6).map(|i| feed(i, 3 * i + 1)).collect();
    let mut single = Catalog::open(one_by_one.path()).unwrap();
    for batch in &feeds {
        single.upsert_feed(batch).unwrap();
    }
    let mut bulk = Catalog::open(together.path()).unwrap();
    let summary = bulk.upsert_feeds(&feeds).unwrap();
    assert_eq!(summary.podcasts, feeds.len());
    assert_eq!(
        summary.episodes,
        feeds.iter().map(|f| f.episodes.len()).sum::<usize>()
    );
    assert_eq!(bulk.counts().unwrap(), single.counts().unwrap());
    for batch in &feeds {
        let id = batch.podcast.podcast_id;
        assert_eq!(bulk.podcast(id).unwrap(), single.podcast(id).unwrap());
        assert_eq!(
            bulk.episodes_of_podcast(id).unwrap(),
            single.episodes_of_podcast(id).unwrap()
        );
    }
}

#[test]
fn a_feed_with_three_thousand_items_is_stored_whole() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    let batch = feed(3, 3_000);
    catalog.upsert_feed(&batch).unwrap();
    catalog.upsert_feed(&batch).unwrap();
    assert_eq!(catalog.counts().unwrap().episodes, 3_000);
    let stored = catalog
        .episodes_of_podcast(batch.podcast.podcast_id)
        .unwrap();
    assert_eq!(stored.len(), 3_000);
    assert_eq!(stored[0], batch.episodes[0], "newest first");
}

#[test]
fn a_transcript_marks_its_episode_and_survives_a_feed_update() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    let batch = feed(4, 5);
    catalog.upsert_feed(&batch).unwrap();
    let target = &batch.episodes[2];
    let record = transcript(target, 12);
    catalog.upsert_transcript(&record).unwrap();
    catalog.upsert_transcript(&record).unwrap();

    let counts = catalog.counts().unwrap();
    assert_eq!((counts.transcripts, counts.transcript_segments), (1, 12));
    let id = batch.podcast.podcast_id;
    let marked = |catalog: &Catalog| {
        catalog
            .episodes_of_podcast(id)
            .unwrap()
            .into_iter()
            .filter(|e| e.episode_has_transcript)
            .map(|e| (e.episode_id, e.transcript_id))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        marked(&catalog),
        vec![(target.episode_id, Some(record.transcript_id))]
    );
    assert_eq!(catalog.podcast(id).unwrap().unwrap().total_transcripts, 1);

    // The feed does not know about the stored transcript; re-ingesting keeps it.
    catalog.upsert_feed(&batch).unwrap();
    assert_eq!(
        marked(&catalog),
        vec![(target.episode_id, Some(record.transcript_id))]
    );
    assert_eq!(catalog.podcast(id).unwrap().unwrap().total_transcripts, 1);

    // A shorter new version replaces the segments.
    catalog.upsert_transcript(&transcript(target, 4)).unwrap();
    assert_eq!(catalog.counts().unwrap().transcript_segments, 4);
}

#[test]
fn reopening_a_catalog_keeps_its_data_and_schema_version() {
    let dir = tempfile::tempdir().unwrap();
    let batch = feed(5, 2);
    {
        let mut catalog = Catalog::open(dir.path()).unwrap();
        catalog.upsert_feed(&batch).unwrap();
    }
    let catalog = Catalog::open(dir.path()).unwrap();
    assert_eq!(catalog.counts().unwrap().episodes, 2);
    assert!(dir.path().join(podlens_data::CATALOG_FILE).is_file());
    drop(catalog);
    let connection = duckdb::Connection::open(dir.path().join(podlens_data::CATALOG_FILE)).unwrap();
    let version: i64 = connection
        .query_row("SELECT max(version) FROM schema_migrations", [], |row| {
            row.get(0)
        })
        .unwrap();
    assert_eq!(version, podlens_data::SCHEMA_VERSION);
}

#[test]
fn every_podcast_with_its_episodes_in_two_queries_matches_the_per_podcast_reads() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    // Shows with 0 to 6 episodes, the empty one included.
    let feeds: Vec<_> = (0..7).map(|i| feed(i, i)).collect();
    catalog.upsert_feeds(&feeds).unwrap();

    let mut visited = Vec::new();
    catalog
        .for_each_podcast_with_episodes(
            |podcast, episodes| -> Result<(), podlens_data::DataError> {
                visited.push((podcast, episodes));
                Ok(())
            },
        )
        .unwrap();

    assert_eq!(visited.len(), feeds.len());
    visited.sort_by_key(|(podcast, _)| podcast.podcast_id);
    let mut ids: Vec<_> = feeds.iter().map(|f| f.podcast.podcast_id).collect();
    ids.sort();
    for ((podcast, episodes), id) in visited.iter().zip(&ids) {
        assert_eq!(podcast.podcast_id, *id);
        assert_eq!(Some(podcast), catalog.podcast(*id).unwrap().as_ref());
        assert_eq!(episodes, &catalog.episodes_of_podcast(*id).unwrap());
    }
}

/// Regression: an ingest of real feeds stored no transcript (the publishers' transcript
/// URLs did not answer), yet every episode whose feed declared one said
/// `episodeHasTranscript` and its podcast counted it. Only a held transcript counts.
#[test]
fn has_transcript_is_claimed_only_for_transcripts_the_catalog_holds() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    let batch = feed(6, 9);
    let declared = batch
        .episodes
        .iter()
        .filter(|e| !e.episode_transcript_urls.is_empty())
        .count();
    assert!(declared >= 3, "the fixture feed declares transcripts");
    catalog.upsert_feed(&batch).unwrap();
    let id = batch.podcast.podcast_id;
    let held = |catalog: &Catalog| {
        catalog
            .episodes_of_podcast(id)
            .unwrap()
            .into_iter()
            .filter(|e| e.episode_has_transcript || e.transcript_id.is_some())
            .map(|e| e.episode_id)
            .collect::<Vec<_>>()
    };
    assert!(held(&catalog).is_empty(), "declared is not held");
    assert_eq!(catalog.podcast(id).unwrap().unwrap().total_transcripts, 0);

    let target = batch
        .episodes
        .iter()
        .find(|e| !e.episode_transcript_urls.is_empty())
        .unwrap();
    catalog.upsert_transcript(&transcript(target, 3)).unwrap();
    catalog.upsert_feed(&batch).unwrap();
    assert_eq!(held(&catalog), vec![target.episode_id]);
    assert_eq!(catalog.podcast(id).unwrap().unwrap().total_transcripts, 1);
}

#[test]
fn the_newest_publication_leaves_out_dates_after_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    assert_eq!(catalog.newest_publication(base_time()).unwrap(), None);
    let mut batch = feed(3, 3);
    let dates = [
        base_time() - Duration::days(10),
        base_time() - Duration::days(2),
        base_time() + Duration::days(4000),
    ];
    for (episode, date) in batch.episodes.iter_mut().zip(dates) {
        episode.episode_rss_published_at = Some(date);
    }
    catalog.upsert_feed(&batch).unwrap();
    assert_eq!(
        catalog.newest_publication(base_time()).unwrap(),
        Some(dates[1])
    );
    assert_eq!(
        catalog
            .newest_publication(base_time() - Duration::days(5))
            .unwrap(),
        Some(dates[0])
    );
}
