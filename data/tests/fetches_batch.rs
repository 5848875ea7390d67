//! Many fetches in one `record_fetches` call log and track what one call per fetch
//! does, including a feed fetched several times within the batch.

mod common;

use chrono::Duration;
use podlens_data::{Catalog, FeedState};
use podlens_model::catalog::FeedFetchRecord;

use common::{base_time, feed};

fn fetch(url: &str, minutes: i64, outcome: &str, etag: Option<&str>) -> FeedFetchRecord {
    FeedFetchRecord {
        feed_url: url.to_owned(),
        podcast_id: None,
        fetched_at: base_time() + Duration::minutes(minutes),
        outcome: outcome.to_owned(),
        http_status: Some(if outcome == "not-modified" { 304 } else { 200 }),
        error: (outcome != "ok" && outcome != "not-modified").then(|| format!("{outcome} failure")),
        etag: etag.map(str::to_owned),
        last_modified: etag.map(|_| format!("validator of {url}")),
        bytes: Some(100 + minutes),
        episodes: Some(minutes),
        ..FeedFetchRecord::default()
    }
}

#[test]
fn a_batch_records_what_single_fetches_record() {
    let stored = feed(3, 2);
    let known = stored.podcast.podcast_rss_feed_url.clone();
    let a = "https://a.example.com/feed.xml";
    let b = "https://b.example.com/feed.xml";
    let mut first = fetch(&known, 0, "ok", Some("\"k1\""));
    first.podcast_id = Some(stored.podcast.podcast_id);
    // Before the batch: `known` has validators and `b` has failed once.
    let before = vec![first, fetch(b, 1, "network", None)];
    let batch = vec![
        fetch(a, 10, "ok", Some("\"a1\"")),
        fetch(&known, 11, "not-modified", None),
        fetch(a, 12, "not-modified", None),
        fetch(b, 13, "http-status", None),
        fetch(a, 14, "network", None),
        fetch(b, 15, "ok", Some("\"b1\"")),
        fetch(&known, 16, "ok", Some("\"k2\"")),
    ];

    let one_by_one = tempfile::tempdir().unwrap();
    let mut single = Catalog::open(one_by_one.path()).unwrap();
    let batched = tempfile::tempdir().unwrap();
    let mut grouped = Catalog::open(batched.path()).unwrap();
    for catalog in [&mut single, &mut grouped] {
        catalog.upsert_feed(&stored).unwrap();
        catalog.record_fetches(&before).unwrap();
    }
    for record in &batch {
        single.record_fetch(record).unwrap();
    }
    grouped.record_fetches(&batch).unwrap();

    for url in [a, b, known.as_str()] {
        let logged = grouped.fetches_of_feed(url).unwrap();
        assert_eq!(logged, single.fetches_of_feed(url).unwrap(), "{url}");
        let expected: Vec<FeedFetchRecord> = before
            .iter()
            .chain(&batch)
            .filter(|record| record.feed_url == url)
            .cloned()
            .collect();
        assert_eq!(logged, expected, "{url}");
    }
    let to_poll = grouped.feeds_to_poll().unwrap();
    assert_eq!(to_poll, single.feeds_to_poll().unwrap());
    // Written out: `a` keeps the validators of its ok fetch across the 304 and the
    // failure after it; `known` takes those of its last ok fetch.
    let state = |url: &str| to_poll.iter().find(|state| state.feed_url == url).cloned();
    assert_eq!(
        state(a),
        Some(FeedState {
            podcast_id: None,
            feed_url: a.to_owned(),
            etag: Some("\"a1\"".to_owned()),
            last_modified: Some(format!("validator of {a}")),
            content_hash: None,
        })
    );
    assert_eq!(
        state(&known),
        Some(FeedState {
            podcast_id: Some(stored.podcast.podcast_id),
            feed_url: known.clone(),
            etag: Some("\"k2\"".to_owned()),
            last_modified: Some(format!("validator of {known}")),
            content_hash: None,
        })
    );
    assert_eq!(
        state(b).and_then(|state| state.etag),
        Some("\"b1\"".to_owned())
    );
    let counts = grouped.counts().unwrap();
    assert_eq!((counts.feed_fetches, counts.feed_states), (9, 3));
}
