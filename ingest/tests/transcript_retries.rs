//! Transcripts a feed links to but that cannot be fetched: a re-poll leaves held ones
//! alone, retries failing ones only once their backoff has passed (also when the feed
//! answers 304), gives up after the cap, and starts again when the feed names another
//! URL. The expected times follow the documented default policy (again after 1, 4, 16
//! and 64 hours; five attempts).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use chrono::{DateTime, TimeZone, Utc};
use podlens_ingest::fetch::{
    FeedSource, FeedState, HttpConfig, IngestConfig, KnownTranscripts, ingest,
};
use podlens_model::catalog::{TranscriptAttempt, TranscriptStatus};

mod common;
use common::MemoryStore;

const ETAG: &str = "\"feed-v1\"";

#[derive(Clone, Default)]
struct Hits(Arc<Mutex<HashMap<String, usize>>>);

impl Hits {
    fn of(&self, path: &str) -> usize {
        self.0.lock().unwrap().get(path).copied().unwrap_or(0)
    }
    fn count(&self, path: &str) {
        *self.0.lock().unwrap().entry(path.to_owned()).or_default() += 1;
    }
}

#[derive(Clone)]
struct Server {
    base: String,
    hits: Hits,
}

async fn feed(State(server): State<Server>, headers: HeaderMap) -> Response {
    server.hits.count("feed.xml");
    if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        == Some(ETAG)
    {
        return StatusCode::NOT_MODIFIED.into_response();
    }
    let base = &server.base;
    let body = format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\" xmlns:podcast=\"https://podcastindex.org/namespace/1.0\">\
         <channel><title>Retries</title>\
         <item><title>Held</title><guid>held</guid><pubDate>Mon, 01 Jan 2024 10:00:00 GMT</pubDate>\
         <podcast:transcript url=\"{base}/t/good.vtt\" type=\"text/vtt\"/></item>\
         <item><title>Gone</title><guid>gone</guid><pubDate>Tue, 02 Jan 2024 10:00:00 GMT</pubDate>\
         <podcast:transcript url=\"{base}/t/gone.vtt\" type=\"text/vtt\"/></item>\
         </channel></rss>"
    );
    (
        [
            (header::CONTENT_TYPE, "application/rss+xml"),
            (header::ETAG, ETAG),
        ],
        body,
    )
        .into_response()
}

async fn transcript(State(server): State<Server>, Path(name): Path<String>) -> Response {
    server.hits.count(&name);
    if name == "good.vtt" {
        (
            [(header::CONTENT_TYPE, "text/vtt")],
            "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nHello\n",
        )
            .into_response()
    } else {
        StatusCode::NOT_FOUND.into_response()
    }
}

async fn start() -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = Server {
        base: format!("http://{}", listener.local_addr().unwrap()),
        hits: Hits::default(),
    };
    let app = Router::new()
        .route("/feed.xml", get(feed))
        .route("/t/{name}", get(transcript))
        .with_state(server.clone());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    server
}

fn start_time() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap()
}

fn config(now: DateTime<Utc>, known: Vec<(uuid::Uuid, TranscriptStatus)>) -> IngestConfig {
    IngestConfig {
        http: HttpConfig {
            timeout: Duration::from_secs(10),
            retries: 0,
            allow_private: true,
            ..HttpConfig::default()
        },
        known_transcripts: Arc::new(KnownTranscripts::new(known)),
        now: Some(now),
        ..IngestConfig::default()
    }
}

/// What the catalog would know after `store`: held transcripts and the latest
/// failure of each episode.
fn known_after(store: &MemoryStore) -> Vec<(uuid::Uuid, TranscriptStatus)> {
    let mut known: Vec<(uuid::Uuid, TranscriptStatus)> = store
        .transcripts
        .iter()
        .map(|t| {
            (
                t.episode_id,
                TranscriptStatus::Held {
                    url: t.source.clone(),
                },
            )
        })
        .collect();
    known.extend(
        store
            .transcript_failures
            .iter()
            .map(|a| (a.episode_id, TranscriptStatus::Failing(a.clone()))),
    );
    known
}

async fn poll(
    server: &Server,
    now: DateTime<Utc>,
    known: Vec<(uuid::Uuid, TranscriptStatus)>,
    etag: Option<&str>,
) -> (podlens_ingest::fetch::IngestSummary, MemoryStore) {
    let source = FeedSource::Url(FeedState {
        podcast_id: known.iter().find_map(|(_, status)| match status {
            TranscriptStatus::Failing(attempt) => Some(attempt.podcast_id),
            TranscriptStatus::Held { .. } => None,
        }),
        feed_url: format!("{}/feed.xml", server.base),
        etag: etag.map(str::to_owned),
        last_modified: None,
        content_hash: None,
    });
    ingest(
        vec![source],
        config(now, known),
        MemoryStore::default(),
        None,
    )
    .await
    .unwrap()
}

fn only_failure(store: &MemoryStore) -> &TranscriptAttempt {
    assert_eq!(
        store.transcript_failures.len(),
        1,
        "{:#?}",
        store.transcript_failures
    );
    &store.transcript_failures[0]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn declared_transcripts_that_fail_wait_for_their_retry_time_and_are_given_up_after_the_cap() {
    let server = start().await;
    let t0 = start_time();

    // First poll: the good transcript is stored, the missing one fails (attempt 1).
    let (summary, first) = poll(&server, t0, Vec::new(), None).await;
    assert_eq!(
        (summary.transcripts, summary.transcript_failures),
        (1, 1),
        "{summary}"
    );
    assert_eq!(summary.transcripts_waiting, 1, "{summary}");
    let failed = only_failure(&first).clone();
    assert!(failed.url.ends_with("/t/gone.vtt"));
    assert_eq!(failed.attempts, 1);
    assert_eq!(
        failed.next_attempt_at,
        Some(t0 + chrono::Duration::hours(1))
    );
    assert!(failed.last_error.contains("404"), "{}", failed.last_error);
    assert!(
        summary.to_string().contains("1 to retry later"),
        "{summary}"
    );
    let known = known_after(&first);
    assert_eq!(
        (server.hits.of("good.vtt"), server.hits.of("gone.vtt")),
        (1, 1)
    );

    // Half an hour later: the held transcript is not fetched again, the failing one
    // waits for its time.
    let (summary, store) = poll(
        &server,
        t0 + chrono::Duration::minutes(30),
        known.clone(),
        None,
    )
    .await;
    assert_eq!(
        (summary.transcripts, summary.transcript_failures),
        (0, 0),
        "{summary}"
    );
    assert_eq!(summary.transcripts_waiting, 1, "{summary}");
    assert!(store.transcript_failures.is_empty());
    assert_eq!(
        (server.hits.of("good.vtt"), server.hits.of("gone.vtt")),
        (1, 1)
    );

    // After the first delay it is tried again: attempt 2, next in four hours.
    let second_time = t0 + chrono::Duration::minutes(61);
    let (summary, store) = poll(&server, second_time, known, None).await;
    assert_eq!(summary.transcript_failures, 1, "{summary}");
    let second = only_failure(&store).clone();
    assert_eq!(second.attempts, 2);
    assert_eq!(
        second.next_attempt_at,
        Some(second_time + chrono::Duration::hours(4))
    );
    assert_eq!(
        (server.hits.of("good.vtt"), server.hits.of("gone.vtt")),
        (1, 2)
    );

    // An unchanged feed (304) still retries its podcast's due transcripts.
    let held = known_after(&first).remove(0);
    let due = TranscriptAttempt {
        attempts: 4,
        next_attempt_at: Some(t0),
        ..second.clone()
    };
    let feed_hits = server.hits.of("feed.xml");
    let (summary, store) = poll(
        &server,
        t0 + chrono::Duration::days(3),
        vec![
            held.clone(),
            (due.episode_id, TranscriptStatus::Failing(due.clone())),
        ],
        Some(ETAG),
    )
    .await;
    assert_eq!(summary.not_modified, 1, "{summary}");
    assert_eq!(server.hits.of("feed.xml"), feed_hits + 1);
    assert_eq!(server.hits.of("gone.vtt"), 3);
    // That was the fifth attempt: given up.
    let last = only_failure(&store);
    assert_eq!(last.attempts, 5);
    assert_eq!(last.next_attempt_at, None);
    assert_eq!(summary.transcripts_given_up, 1, "{summary}");
    assert!(summary.to_string().contains("1 given up"), "{summary}");

    // Given up: never fetched again, however late, 304 or not.
    let given_up = last.clone();
    for etag in [None, Some(ETAG)] {
        let (summary, store) = poll(
            &server,
            t0 + chrono::Duration::days(365),
            vec![
                held.clone(),
                (
                    given_up.episode_id,
                    TranscriptStatus::Failing(given_up.clone()),
                ),
            ],
            etag,
        )
        .await;
        assert_eq!(summary.transcripts_given_up, 1, "{summary}");
        assert!(store.transcript_failures.is_empty());
        assert_eq!(server.hits.of("gone.vtt"), 3);
        assert_eq!(server.hits.of("good.vtt"), 1);
    }

    // A feed that names another URL starts the count again.
    let elsewhere = TranscriptAttempt {
        url: format!("{}/t/old-location.vtt", server.base),
        ..given_up
    };
    let (summary, store) = poll(
        &server,
        t0 + chrono::Duration::days(400),
        vec![
            held,
            (elsewhere.episode_id, TranscriptStatus::Failing(elsewhere)),
        ],
        None,
    )
    .await;
    assert_eq!(summary.transcript_failures, 1, "{summary}");
    assert_eq!(only_failure(&store).attempts, 1);
    assert_eq!(server.hits.of("gone.vtt"), 4);
    assert_eq!(server.hits.of("old-location.vtt"), 0);
}
