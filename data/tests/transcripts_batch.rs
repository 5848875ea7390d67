//! Many transcripts in one `upsert_transcripts` call store what one call per
//! transcript stores: rows, segments, marked episodes and podcast counts.

mod common;

use podlens_data::Catalog;

use common::{feed, transcript};

type Marked = Vec<(uuid::Uuid, Option<uuid::Uuid>)>;

fn marked(catalog: &Catalog, podcast_id: uuid::Uuid) -> Marked {
    catalog
        .episodes_of_podcast(podcast_id)
        .unwrap()
        .into_iter()
        .filter(|e| e.episode_has_transcript)
        .map(|e| (e.episode_id, e.transcript_id))
        .collect()
}

#[test]
fn a_batch_stores_what_single_upserts_store() {
    let feeds = [feed(11, 6), feed(12, 4)];
    let records = vec![
        transcript(&feeds[0].episodes[0], 3),
        transcript(&feeds[0].episodes[4], 5),
        transcript(&feeds[1].episodes[1], 2),
        // A repeated id: the last version wins (7 segments, not 3).
        transcript(&feeds[0].episodes[0], 7),
    ];

    let one_by_one = tempfile::tempdir().unwrap();
    let mut single = Catalog::open(one_by_one.path()).unwrap();
    let batched = tempfile::tempdir().unwrap();
    let mut batch = Catalog::open(batched.path()).unwrap();
    for catalog in [&mut single, &mut batch] {
        for feed in &feeds {
            catalog.upsert_feed(feed).unwrap();
        }
    }
    for record in &records {
        single.upsert_transcript(record).unwrap();
    }
    batch.upsert_transcripts(&records).unwrap();

    let counts = batch.counts().unwrap();
    assert_eq!(
        (counts.transcripts, counts.transcript_segments),
        (3, 7 + 5 + 2)
    );
    assert_eq!(counts, single.counts().unwrap());
    for feed in &feeds {
        let id = feed.podcast.podcast_id;
        assert_eq!(marked(&batch, id), marked(&single, id));
        assert_eq!(
            batch.podcast(id).unwrap().unwrap().total_transcripts,
            single.podcast(id).unwrap().unwrap().total_transcripts
        );
    }
    assert_eq!(marked(&batch, feeds[0].podcast.podcast_id).len(), 2);
    assert_eq!(
        batch
            .podcast(feeds[1].podcast.podcast_id)
            .unwrap()
            .unwrap()
            .total_transcripts,
        1
    );
    // An empty batch changes nothing.
    batch.upsert_transcripts(&[]).unwrap();
    assert_eq!(batch.counts().unwrap(), counts);
}

#[test]
fn transcripts_stored_before_their_feed_mark_it_once_it_arrives() {
    let feed = feed(13, 3);
    let records = [transcript(&feed.episodes[1], 4)];
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    catalog.upsert_transcripts(&records).unwrap();
    catalog.upsert_feed(&feed).unwrap();
    let id = feed.podcast.podcast_id;
    assert_eq!(
        marked(&catalog, id),
        vec![(feed.episodes[1].episode_id, Some(records[0].transcript_id))]
    );
    assert_eq!(catalog.podcast(id).unwrap().unwrap().total_transcripts, 1);
}

#[test]
fn failed_transcript_fetches_are_kept_until_the_transcript_is_held() {
    use podlens_model::catalog::{TranscriptAttempt, TranscriptStatus};

    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    let feed = feed(21, 3);
    catalog.upsert_feed(&feed).unwrap();
    let held = transcript(&feed.episodes[0], 2);
    catalog
        .upsert_transcripts(std::slice::from_ref(&held))
        .unwrap();
    let at = common::base_time();
    let failing = |episode: usize, attempts: u32| TranscriptAttempt {
        episode_id: feed.episodes[episode].episode_id,
        podcast_id: feed.podcast.podcast_id,
        url: format!("https://example.com/{episode}.vtt"),
        mime_type: "text/vtt".to_owned(),
        language: Some("en".to_owned()),
        attempts,
        last_attempt_at: at,
        next_attempt_at: (attempts < 5).then(|| at + chrono::Duration::hours(1)),
        last_error: "HTTP status 404".to_owned(),
    };
    // The second attempt of episode 1 replaces its first; episode 2 is given up.
    catalog
        .record_transcript_failures(&[failing(1, 1), failing(2, 5)])
        .unwrap();
    catalog
        .record_transcript_failures(&[failing(1, 2)])
        .unwrap();

    let mut statuses = catalog.transcript_statuses().unwrap();
    statuses.sort_by_key(|(episode_id, _)| *episode_id);
    let mut expected = vec![
        (
            feed.episodes[0].episode_id,
            TranscriptStatus::Held {
                url: held.source.clone(),
            },
        ),
        (
            feed.episodes[1].episode_id,
            TranscriptStatus::Failing(failing(1, 2)),
        ),
        (
            feed.episodes[2].episode_id,
            TranscriptStatus::Failing(failing(2, 5)),
        ),
    ];
    expected.sort_by_key(|(episode_id, _)| *episode_id);
    assert_eq!(statuses, expected);

    // Once held, a transcript leaves the retry ledger.
    catalog
        .upsert_transcripts(&[transcript(&feed.episodes[1], 1)])
        .unwrap();
    let statuses = catalog.transcript_statuses().unwrap();
    let failing_left: Vec<_> = statuses
        .iter()
        .filter(|(_, status)| matches!(status, TranscriptStatus::Failing(_)))
        .map(|(episode_id, _)| *episode_id)
        .collect();
    assert_eq!(failing_left, vec![feed.episodes[2].episode_id]);

    // The ledger survives reopening the catalog.
    drop(catalog);
    let reopened = Catalog::open(dir.path()).unwrap();
    assert_eq!(reopened.transcript_statuses().unwrap().len(), 3);
}
