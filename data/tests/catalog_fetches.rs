//! The feed fetch log, polling state and feed URL moves.

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
        last_modified: etag.map(|_| "Fri, 01 Mar 2024 12:00:00 GMT".to_owned()),
        bytes: Some(1234),
        episodes: Some(3),
        ..FeedFetchRecord::default()
    }
}

#[test]
fn every_fetch_is_logged_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    let url = "https://feeds.example.com/a.xml";
    let fetches = vec![
        fetch(url, 0, "ok", Some("\"v1\"")),
        fetch(url, 10, "not-modified", None),
        fetch(url, 20, "network", None),
    ];
    for record in &fetches {
        catalog.record_fetch(record).unwrap();
    }
    catalog
        .record_fetch(&fetch(
            "https://other.example.com/b.xml",
            5,
            "not-xml",
            None,
        ))
        .unwrap();
    assert_eq!(catalog.fetches_of_feed(url).unwrap(), fetches);
    let counts = catalog.counts().unwrap();
    assert_eq!((counts.feed_fetches, counts.feed_states), (4, 2));
}

#[test]
fn feeds_to_poll_carry_the_last_validators() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    let batch = feed(0, 2);
    let url = batch.podcast.podcast_rss_feed_url.clone();
    catalog.upsert_feed(&batch).unwrap();
    let never_fetched = feed(1, 1);
    catalog.upsert_feed(&never_fetched).unwrap();

    let mut ok = fetch(&url, 0, "ok", Some("\"v1\""));
    ok.podcast_id = Some(batch.podcast.podcast_id);
    catalog.record_fetch(&ok).unwrap();
    catalog
        .record_fetch(&fetch(&url, 10, "not-modified", None))
        .unwrap();
    catalog
        .record_fetch(&fetch(&url, 20, "http-status", None))
        .unwrap();
    let broken = "https://broken.example.com/feed";
    catalog
        .record_fetch(&fetch(broken, 30, "not-a-feed", None))
        .unwrap();

    let states = catalog.feeds_to_poll().unwrap();
    assert_eq!(
        states,
        vec![
            FeedState {
                podcast_id: Some(never_fetched.podcast.podcast_id),
                feed_url: never_fetched.podcast.podcast_rss_feed_url.clone(),
                etag: None,
                last_modified: None,
                content_hash: None,
            },
            FeedState {
                podcast_id: Some(batch.podcast.podcast_id),
                feed_url: url.clone(),
                etag: Some("\"v1\"".to_owned()),
                last_modified: Some("Fri, 01 Mar 2024 12:00:00 GMT".to_owned()),
                content_hash: None,
            },
            FeedState {
                podcast_id: None,
                feed_url: broken.to_owned(),
                etag: None,
                last_modified: None,
                content_hash: None,
            },
        ]
    );
}

#[test]
fn a_moved_feed_is_polled_at_its_new_url_with_its_validators() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    let batch = feed(2, 1);
    let id = batch.podcast.podcast_id;
    catalog.upsert_feed(&batch).unwrap();
    catalog
        .record_fetch(&fetch(
            &batch.podcast.podcast_rss_feed_url,
            0,
            "ok",
            Some("\"e\""),
        ))
        .unwrap();
    let new_url = "https://new-home.example.net/feed.rss";
    catalog.update_feed_url(id, new_url).unwrap();

    assert_eq!(
        catalog.podcast(id).unwrap().unwrap().podcast_rss_feed_url,
        new_url
    );
    assert_eq!(
        catalog.feeds_to_poll().unwrap(),
        vec![FeedState {
            podcast_id: Some(id),
            feed_url: new_url.to_owned(),
            etag: Some("\"e\"".to_owned()),
            last_modified: Some("Fri, 01 Mar 2024 12:00:00 GMT".to_owned()),
            content_hash: None,
        }]
    );
    // The log keeps the history under the old URL.
    assert_eq!(
        catalog
            .fetches_of_feed(&batch.podcast.podcast_rss_feed_url)
            .unwrap()
            .len(),
        1
    );
}

/// The fetch log grew by a row per poll forever (and every snapshot with it): a feed
/// keeps its newest fetches, the states and the other feeds' logs untouched.
#[test]
fn the_fetch_log_keeps_the_newest_fetches_of_each_feed() {
    let keep = podlens_data::FETCH_LOG_PER_FEED;
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    let busy = "https://feeds.example.com/busy.xml";
    let quiet = "https://feeds.example.com/quiet.xml";
    catalog
        .record_fetches(&[fetch(quiet, 0, "ok", Some("\"q\""))])
        .unwrap();
    let polls: Vec<FeedFetchRecord> = (1..=keep as i64 + 30)
        .map(|minute| fetch(busy, minute, "not-modified", None))
        .collect();
    // In two batches, so a later batch prunes what an earlier one wrote.
    let (first, second) = polls.split_at(keep - 10);
    catalog.record_fetches(first).unwrap();
    catalog.record_fetches(second).unwrap();
    let kept = catalog.fetches_of_feed(busy).unwrap();
    assert_eq!(kept.len(), keep);
    assert_eq!(kept, polls[polls.len() - keep..].to_vec());
    assert_eq!(catalog.fetches_of_feed(quiet).unwrap().len(), 1);
}

/// What the scheduler learns a show's release habit from: each feed's newest
/// publication dates, newest first, at most as many as asked.
#[test]
fn recent_publication_dates_are_each_feeds_newest() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    let long = feed(1, 15);
    let short = feed(2, 3);
    catalog.upsert_feed(&long).unwrap();
    catalog.upsert_feed(&short).unwrap();
    let dates = catalog.recent_publication_dates(12).unwrap();
    let expected = |batch: &podlens_model::catalog::FeedBatch, take: usize| {
        let mut dates: Vec<_> = batch
            .episodes
            .iter()
            .filter_map(|episode| episode.episode_rss_published_at)
            .collect();
        dates.sort_unstable_by(|a, b| b.cmp(a));
        dates.truncate(take);
        dates
    };
    assert_eq!(
        dates[&long.podcast.podcast_rss_feed_url],
        expected(&long, 12)
    );
    assert_eq!(
        dates[&short.podcast.podcast_rss_feed_url],
        expected(&short, 12)
    );
    assert_eq!(dates.len(), 2);
}

/// A server that starts following the catalog takes over from the last read of each
/// podcast's feed: when it answered, its validators and hash, its WebSub hub.
#[test]
fn polling_states_say_what_the_last_read_of_each_podcasts_feed_found() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    let batch = feed(3, 1);
    let url = batch.podcast.podcast_rss_feed_url.clone();
    catalog.upsert_feed(&batch).unwrap();
    let read = FeedFetchRecord {
        podcast_id: Some(batch.podcast.podcast_id),
        content_hash: Some("abc".to_owned()),
        websub_hub: Some("https://hub.example.com/".to_owned()),
        websub_topic: Some(url.clone()),
        ..fetch(&url, 0, "ok", Some("\"v1\""))
    };
    catalog.record_fetch(&read).unwrap();
    catalog
        .record_fetch(&fetch(&url, 10, "not-modified", None))
        .unwrap();
    // A feed fetched that is no podcast's is not followed.
    catalog
        .record_fetch(&fetch("https://elsewhere.example.com/x.xml", 0, "ok", None))
        .unwrap();

    let states = catalog.polling_states().unwrap();
    assert_eq!(states.len(), 1);
    let state = &states[&url];
    assert_eq!(state.podcast_id, Some(batch.podcast.podcast_id));
    assert_eq!(state.etag.as_deref(), Some("\"v1\""));
    assert_eq!(state.content_hash.as_deref(), Some("abc"));
    assert_eq!(
        state.websub_hub.as_deref(),
        Some("https://hub.example.com/")
    );
    assert_eq!(state.websub_topic.as_deref(), Some(url.as_str()));
    assert_eq!(
        state.last_success_at,
        Some(base_time() + Duration::minutes(10))
    );
    // The fetch log keeps what each fetch said.
    assert_eq!(catalog.fetches_of_feed(&url).unwrap()[0], read);
}
