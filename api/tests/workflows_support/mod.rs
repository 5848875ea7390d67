//! A server over a temporary data directory with hand-built podcasts, for the
//! workflow tests: requests through `tower::ServiceExt::oneshot` or a real socket.
#![allow(dead_code)]

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, Method, Request, StatusCode};
use chrono::{DateTime, Duration, Utc};
use podlens_api::AppState;
use podlens_model::catalog::{EpisodeRecord, FeedBatch, PodcastRecord, episode_id, podcast_id};
use serde_json::Value;
use tempfile::TempDir;
use tower::ServiceExt;

/// Ages in days of every test podcast's episodes, newest first.
pub const EPISODE_AGES_DAYS: [i64; 4] = [1, 3, 10, 40];

pub struct TestServer {
    pub app: Router,
    pub state: AppState,
    pub podcasts: Vec<PodcastRecord>,
    pub episodes: Vec<EpisodeRecord>,
    pub now: DateTime<Utc>,
    _dir: TempDir,
}

pub fn podcast(index: usize) -> PodcastRecord {
    let feed_url = format!("https://feeds.example.com/show-{index}.xml");
    PodcastRecord {
        podcast_id: podcast_id(None, &feed_url),
        podcast_slug: format!("show-{index}"),
        podcast_rss_feed_url: feed_url,
        podcast_rss_title: format!("Garden Talk {index}"),
        podcast_rss_author: Some(format!("Author {index}")),
        podcast_rss_description_no_html: Some(format!("Plants, soil and show {index}")),
        podcast_website_url: Some(format!("https://show{index}.example.org/")),
        podcast_image_url: Some(format!("https://img.example.com/{index}.jpg")),
        rss_language: Some("en".into()),
        podcast_podlens_genres: vec!["science".into(), "nature".into()],
        podcast_owner_name: Some("Green Media".into()),
        podcast_owner_email: Some(format!("owner{index}@example.com")),
        podcast_host_names: vec![format!("Maria{} Lopez", letters(index))],
        podcast_location: Some("Lisbon".into()),
        apple_id: Some(format!("{}", 1_000_000 + index)),
        total_episodes: EPISODE_AGES_DAYS.len() as i64,
        updated_at: Utc::now(),
        ..PodcastRecord::default()
    }
}

/// A letters-only suffix, so every host first name is a plain word.
fn letters(index: usize) -> String {
    let mut text = String::new();
    let mut value = index;
    loop {
        text.push((b'a' + (value % 26) as u8) as char);
        value /= 26;
        if value == 0 {
            break;
        }
    }
    text
}

pub fn episode_title(podcast_index: usize, age_days: i64) -> String {
    format!("Episode of show {podcast_index}, {age_days} days old")
}

fn episodes_of(index: usize, record: &PodcastRecord, now: DateTime<Utc>) -> Vec<EpisodeRecord> {
    EPISODE_AGES_DAYS
        .iter()
        .map(|&age| {
            let published = now - Duration::days(age) + Duration::minutes(5);
            EpisodeRecord {
                episode_id: episode_id(record.podcast_id, &format!("guid-{age}")),
                podcast_id: record.podcast_id,
                episode_slug: format!("show-{index}-ep-{age}"),
                episode_guid: Some(format!("guid-{age}")),
                episode_rss_title: episode_title(index, age),
                episode_enclosure_url: Some(format!("https://cdn.example.com/{index}/{age}.mp3")),
                episode_rss_published_at: Some(published),
                episode_podcast_title_denormalized: record.podcast_rss_title.clone(),
                episode_created_at: published,
                episode_updated_at: published,
                ..EpisodeRecord::default()
            }
        })
        .collect()
}

/// A server whose catalog holds `count` podcasts, each with episodes
/// `EPISODE_AGES_DAYS` old.
pub fn server(count: usize) -> TestServer {
    let dir = tempfile::tempdir().expect("temp dir");
    let now = Utc::now();
    let podcasts: Vec<PodcastRecord> = (0..count).map(podcast).collect();
    let batches: Vec<FeedBatch> = podcasts
        .iter()
        .enumerate()
        .map(|(index, record)| FeedBatch {
            podcast: record.clone(),
            episodes: episodes_of(index, record, now),
            persons: Vec::new(),
            ..FeedBatch::default()
        })
        .collect();
    let episodes = batches
        .iter()
        .flat_map(|batch| batch.episodes.clone())
        .collect();
    {
        let mut catalog = podlens_data::Catalog::open(dir.path()).expect("catalog");
        catalog.upsert_feeds(&batches).expect("upsert");
        catalog.export_parquet().expect("parquet");
    }
    let state = podlens_api::server::open_state(dir.path().to_path_buf(), None).expect("state");
    TestServer {
        app: podlens_api::app(state.clone()),
        state,
        podcasts,
        episodes,
        now,
        _dir: dir,
    }
}

impl TestServer {
    /// A new API key for `email` on `plan` (a new team per new email).
    pub fn key(&self, email: &str, plan: &str) -> String {
        podlens_app::runtime::block_on_own_thread(self.state.accounts.create_api_key(email, plan))
            .expect("key")
            .api_key
    }

    pub fn data_dir(&self) -> &std::path::Path {
        self._dir.path()
    }

    pub async fn raw(
        &self,
        method: Method,
        uri: &str,
        key: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, HeaderMap, Bytes) {
        let mut request = Request::builder().method(method).uri(uri);
        if let Some(key) = key {
            request = request.header("authorization", key);
        }
        let body = match body {
            Some(body) => {
                request = request.header("content-type", "application/json");
                Body::from(body.to_string())
            }
            None => Body::empty(),
        };
        let response = self
            .app
            .clone()
            .oneshot(request.body(body).expect("request"))
            .await
            .expect("response");
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = axum::body::to_bytes(response.into_body(), 64 << 20)
            .await
            .expect("body");
        (status, headers, bytes)
    }

    /// A JSON call: the status and the parsed body.
    pub async fn call(
        &self,
        method: Method,
        uri: &str,
        key: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let (status, _, bytes) = self.raw(method, uri, Some(key), body).await;
        let value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| panic!("not json: {}", String::from_utf8_lossy(&bytes)));
        (status, value)
    }
}

/// The message of an error answer.
pub fn message(body: &Value) -> &str {
    body["data"]["message"].as_str().unwrap_or_default()
}
