//! The feed scheduler of `podlens serve`: feeds served over HTTP on loopback, a
//! catalog and index built from them, the real server on a socket. Feeds gain
//! episodes, answer 304, break, block themselves and push through a WebSub hub; each
//! cycle must publish exactly what changed, so search finds new episodes at once and
//! blocked shows leave it.

mod common;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use chrono::Utc;
use podlens_api::AppState;
use podlens_app::workflows::feeds::{FeedScheduler, run_cycle};
use podlens_data::Catalog;
use serde_json::{Value, json};

/// A weekly show's feed: `items` are (guid, title), newest first, a week apart.
fn feed_xml(title: &str, items: &[(&str, &str)], extra: &str) -> String {
    let items: String = items
        .iter()
        .enumerate()
        .map(|(n, (guid, episode))| {
            let day = Utc::now() - chrono::Duration::days(7 * n as i64 + 1);
            format!(
                "<item><guid>{guid}</guid><title>{episode}</title>\
                 <description>{episode}, an episode of {title}</description>\
                 <pubDate>{}</pubDate>\
                 <enclosure url=\"https://media.example.test/{guid}.mp3\" type=\"audio/mpeg\" length=\"1000\"/></item>",
                day.to_rfc2822()
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\" xmlns:atom=\"http://www.w3.org/2005/Atom\" \
         xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel><title>{title}</title>\
         <link>https://shows.example.test/</link><description>{title}, every week</description>\
         <language>en</language>{extra}{items}</channel></rss>"
    )
}

/// A show whose one episode links a transcript (`talk-1.vtt` beside the feed).
fn talk_xml(base: &str) -> String {
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\" \
         xmlns:podcast=\"https://podcastindex.org/namespace/1.0\"><channel><title>Talk Shop</title>\
         <link>https://shows.example.test/talk</link><description>Conversations, transcribed</description>\
         <language>en</language><item><guid>t1</guid><title>Lighthouse keepers remember</title>\
         <description>Keepers of the coast</description><pubDate>{}</pubDate>\
         <enclosure url=\"https://media.example.test/t1.mp3\" type=\"audio/mpeg\" length=\"1000\"/>\
         <podcast:transcript url=\"{base}/talk-1.vtt\" type=\"text/vtt\"/></item></channel></rss>",
        "Mon, 16 Nov 2026 09:00:00 GMT"
    )
}

const TALK_TRANSCRIPT: &str =
    "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nThe foghorn sounded every thirty seconds.\n";

/// The forms of the subscription requests a hub received.
type HubRequests = Arc<Mutex<Vec<Vec<(String, String)>>>>;

const WEEKLY: &[(&str, &str)] = &[
    ("w4", "Tidal pools at dawn"),
    ("w3", "Kelp forests explained"),
    ("w2", "Why crabs walk sideways"),
    ("w1", "The first dive"),
];

struct Setup {
    base: String,
    feeds_base: String,
    state: AppState,
    feeds: PathBuf,
    key: String,
    /// Podcast ids by feed file name.
    ids: Vec<(String, String)>,
    hub: HubRequests,
    _dirs: (tempfile::TempDir, tempfile::TempDir),
}

impl Setup {
    fn id(&self, name: &str) -> &str {
        &self.ids.iter().find(|(n, _)| n == name).unwrap().1
    }

    /// The feed address the snapshot holds for `podcast_id`.
    fn feed_url(&self, podcast_id: uuid::Uuid) -> String {
        podlens_data::snapshot::read_podcasts(&self.state.data_dir.join("parquet"))
            .unwrap()
            .iter()
            .find(|p| p.podcast_id == podcast_id)
            .unwrap()
            .podcast_rss_feed_url
            .clone()
    }

    async fn push(&self, name: &str) {
        // What a hub's delivery does, without the hub: the feed is due now.
        assert!(
            self.state
                .feeds
                .database()
                .push_feed(self.id(name), Utc::now())
                .await
                .unwrap()
        );
    }

    /// Pushes the feeds `names` and runs one cycle that polls exactly them: the other
    /// feeds' first polls (somewhere in their first ten minutes) are put off by an hour,
    /// so one falling due during the test cannot join the cycle.
    async fn poll(&self, names: &[&str]) -> podlens_app::workflows::feeds::CycleReport {
        let database = self.state.feeds.database();
        let later = podlens_store::time_text(Utc::now() + chrono::Duration::hours(1));
        database
            .wait(
                sqlx::query("UPDATE feed_schedule SET next_poll_at = $1 WHERE next_poll_at < $1")
                    .bind(later)
                    .execute(database.writer()),
            )
            .unwrap();
        for name in names {
            self.push(name).await;
        }
        run_cycle(&self.state.feed_cycles()).await.unwrap()
    }

    fn write(&self, name: &str, text: &str) {
        // Servers' Last-Modified has one-second resolution: make the change visible.
        std::thread::sleep(std::time::Duration::from_millis(1100));
        std::fs::write(self.feeds.join(name), text).unwrap();
    }

    /// The hits of an episode search for `words` (every one) in `target`.
    async fn episode_hits(&self, words: &str, target: &str) -> Vec<Value> {
        let response = reqwest::Client::new()
            .post(format!("{}/api/v1/search/episodes", self.base))
            .header("authorization", &self.key)
            .header("content-type", "application/json")
            .body(
                json!({"searchTerms": [{"searchTerm": words, "searchType": "text",
                    "searchTargets": [target], "searchTermOptions": {"matchMode": "must"}}]})
                .to_string(),
            )
            .send()
            .await
            .unwrap();
        let body: Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
        body["data"]["result"]["hits"]
            .as_array()
            .unwrap_or_else(|| panic!("{body}"))
            .clone()
    }

    async fn episode_titles(&self, words: &str) -> Vec<String> {
        self.episode_hits(words, "episode-title")
            .await
            .iter()
            .map(|hit| {
                hit["episodeRssTitle"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{hit}"))
                    .to_owned()
            })
            .collect()
    }
}

/// A WebSub hub on loopback: it records subscription requests and verifies the
/// subscriber's intent as a hub does (a GET with a challenge that must come back).
async fn serve_hub(requests: HubRequests) -> String {
    use axum::routing::post;
    let app = axum::Router::new().route(
        "/hub",
        post(move |body: String| {
            let requests = requests.clone();
            async move {
                let form: Vec<(String, String)> = url::form_urlencoded::parse(body.as_bytes())
                    .into_owned()
                    .collect();
                requests.lock().unwrap().push(form);
                axum::http::StatusCode::ACCEPTED
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{address}")
}

async fn setup() -> Setup {
    setup_with(false, &[]).await
}

/// The setup; with `ingest_validators`, the catalog also holds each feed's fetch with the
/// validators the feed server answers with, as `podlens ingest` leaves them. The
/// catalog also holds a weekly show for each of `elsewhere`'s (name, feed address), as
/// an earlier ingest left it.
async fn setup_with(ingest_validators: bool, elsewhere: &[(&str, String)]) -> Setup {
    let feeds_dir = tempfile::tempdir().unwrap();
    let feeds = feeds_dir.path().to_path_buf();
    let feeds_base = common::serve_files(feeds.clone()).await;
    let hub = Arc::new(Mutex::new(Vec::new()));
    let hub_base = serve_hub(hub.clone()).await;
    let files = [
        // The reef show's newest episode is not out yet.
        ("reef.xml", feed_xml("Reef Radio", &WEEKLY[1..], "")),
        ("steady.xml", feed_xml("Steady Show", &WEEKLY[1..], "")),
        ("fragile.xml", feed_xml("Fragile Hour", &WEEKLY[1..], "")),
        (
            "leaving.xml",
            feed_xml("Leaving Soon Podcast", &WEEKLY[1..], ""),
        ),
        ("talk.xml", talk_xml(&feeds_base)),
        (
            "pushed.xml",
            feed_xml(
                "Pushed Tales",
                &WEEKLY[1..],
                &format!(
                    "<atom:link rel=\"hub\" href=\"{hub_base}/hub\"/>\
                     <atom:link rel=\"self\" href=\"{feeds_base}/pushed.xml\"/>"
                ),
            ),
        ),
    ];
    std::fs::write(feeds.join("talk-1.vtt"), TALK_TRANSCRIPT).unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(data_dir.path()).unwrap();
    let mut ids = Vec::new();
    for (name, text) in &files {
        std::fs::write(feeds.join(name), text).unwrap();
        let parsed = podlens_ingest::parse_feed(text.as_bytes(), None).unwrap();
        let batch = podlens_ingest::normalize(&parsed, &format!("{feeds_base}/{name}"), Utc::now());
        catalog.upsert_feed(&batch).unwrap();
        if ingest_validators {
            let url = format!("{feeds_base}/{name}");
            let response = reqwest::get(&url).await.unwrap();
            let header = |name: &str| {
                response
                    .headers()
                    .get(name)
                    .map(|value| value.to_str().unwrap().to_owned())
            };
            catalog
                .record_fetch(&podlens_model::catalog::FeedFetchRecord {
                    feed_url: url.clone(),
                    podcast_id: Some(batch.podcast.podcast_id),
                    fetched_at: Utc::now(),
                    outcome: "ok".into(),
                    http_status: Some(200),
                    etag: header("etag"),
                    last_modified: header("last-modified"),
                    // What an ingest's read keeps besides the validators.
                    content_hash: Some(podlens_ingest::fetch::content_hash(text.as_bytes())),
                    websub_hub: batch.polling.hub.clone(),
                    websub_topic: batch.polling.topic.clone(),
                    ..Default::default()
                })
                .unwrap();
        }
        ids.push((name.to_string(), batch.podcast.podcast_id.to_string()));
    }
    for (name, url) in elsewhere {
        let text = feed_xml(&format!("The {name} show"), &WEEKLY[1..], "");
        let parsed = podlens_ingest::parse_feed(text.as_bytes(), None).unwrap();
        let batch = podlens_ingest::normalize(&parsed, url, Utc::now());
        catalog.upsert_feed(&batch).unwrap();
        ids.push((name.to_string(), batch.podcast.podcast_id.to_string()));
    }
    catalog.export_parquet().unwrap();
    drop(catalog);
    common::fixture::index_snapshot(data_dir.path(), &podlens_indexer::BuildOptions::default());

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let base = format!("http://{address}");
    let mut state = podlens_api::server::open_state(data_dir.path().to_path_buf(), None).unwrap();
    state.feeds = Arc::new(
        FeedScheduler::new(state.feeds.database().clone(), true)
            .with_http(podlens_ingest::fetch::HttpConfig {
                allowed_addresses: vec![std::net::Ipv4Addr::LOCALHOST.into()],
                retries: 0,
                ..podlens_ingest::fetch::HttpConfig::default()
            })
            .with_public_url(Some(base.clone())),
    );
    let key = state
        .accounts
        .create_api_key("scheduler@example.com", "business")
        .await
        .unwrap()
        .api_key;
    let app = podlens_api::app(state.clone()).into_make_service_with_connect_info::<SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, app).await });
    Setup {
        base,
        feeds_base,
        state,
        feeds,
        key,
        ids,
        hub,
        _dirs: (feeds_dir, data_dir),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn polls_publish_new_episodes_skip_unchanged_feeds_back_off_and_drop_blocked_shows() {
    let setup = setup().await;
    let database = setup.state.feeds.database().clone();

    // The first cycle follows every feed, each due within its first ten minutes, not
    // all at once, with an hour's interval for a weekly show.
    let report = run_cycle(&setup.state.feed_cycles()).await.unwrap();
    assert_eq!(report.seeded, 6);
    assert_eq!(report.polled, 0, "{report:?}");
    for (_, id) in &setup.ids {
        let feed = database.scheduled_feed(id).await.unwrap().unwrap();
        let wait = feed.next_poll_at - Utc::now();
        assert!(wait <= chrono::Duration::minutes(10), "{feed:?}");
        assert_eq!(feed.interval_seconds, 3600, "{feed:?}");
    }
    assert!(setup.episode_titles("tidal pools").await.is_empty());

    // The reef feed gains an episode; the steady feed is read again unchanged.
    setup.write("reef.xml", &feed_xml("Reef Radio", WEEKLY, ""));
    let report = setup.poll(&["reef.xml", "steady.xml"]).await;
    assert_eq!(
        (report.polled, report.changed, report.failed),
        (2, 1, 0),
        "{report:?}"
    );
    assert_eq!(report.new_episodes, 1);
    assert!(report.generation.is_some());
    assert_eq!(
        setup.episode_titles("tidal pools").await,
        ["Tidal pools at dawn"]
    );
    let reef = database
        .scheduled_feed(setup.id("reef.xml"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(reef.last_outcome.as_deref(), Some("ok"));
    assert!(reef.last_changed_at.is_some());
    let wait = reef.next_poll_at - Utc::now();
    // About hourly (±10%), a little more between its release windows: its four episodes
    // came out at one time of the week, which it is polled around.
    assert!(
        wait > chrono::Duration::minutes(50) && wait <= chrono::Duration::minutes(68),
        "a weekly show is polled about hourly: {reef:?}"
    );
    let window = podlens_ingest::schedule::ReleaseWindow::from_text(
        reef.release_window.as_deref().expect("a release window"),
    )
    .unwrap();
    let newest = Utc::now() - chrono::Duration::days(1);
    assert_eq!(window.cycle_seconds, 7 * 24 * 3600);
    assert!(
        (window.start_seconds - newest.timestamp().rem_euclid(window.cycle_seconds)).abs() < 120,
        "{window:?}"
    );
    let steady = database
        .scheduled_feed(setup.id("steady.xml"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        steady.last_changed_at, None,
        "the same content is no change"
    );
    assert!(
        steady.last_modified.is_some(),
        "validators are kept: {steady:?}"
    );

    // Read again with its validators, the steady feed answers 304; nothing is published.
    let report = setup.poll(&["steady.xml"]).await;
    assert_eq!(
        (report.polled, report.not_modified, report.generation),
        (1, 1, None)
    );

    // A feed that turns to garbage is recorded and backed off; the others go on.
    setup.write("fragile.xml", "<html>maintenance</html>");
    setup.write(
        "steady.xml",
        &feed_xml("Steady Show", &[("s9", "Barnacles and their secrets")], ""),
    );
    let report = setup.poll(&["fragile.xml", "steady.xml"]).await;
    assert_eq!(
        (report.polled, report.failed, report.changed),
        (2, 1, 1),
        "{report:?}"
    );
    let fragile = database
        .scheduled_feed(setup.id("fragile.xml"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(fragile.failures, 1);
    assert_eq!(fragile.last_outcome.as_deref(), Some("not-a-feed"));
    assert!(fragile.next_poll_at - Utc::now() > chrono::Duration::minutes(25));
    assert_eq!(
        setup.episode_titles("barnacles").await,
        ["Barnacles and their secrets"]
    );

    // A feed that blocks itself leaves search, episodes and all.
    assert_eq!(setup.episode_titles("kelp forests").await.len(), 5);
    setup.write(
        "leaving.xml",
        &feed_xml(
            "Leaving Soon Podcast",
            &WEEKLY[1..],
            "<itunes:block>Yes</itunes:block>",
        ),
    );
    let report = setup.poll(&["leaving.xml"]).await;
    assert_eq!(
        (report.failed, report.removed_podcasts),
        (1, 1),
        "{report:?}"
    );
    assert!(report.generation.is_some());
    assert_eq!(setup.episode_titles("kelp forests").await.len(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hub_confirms_the_subscription_and_its_signed_push_makes_the_feed_due_at_once() {
    let setup = setup().await;
    let database = setup.state.feeds.database().clone();
    run_cycle(&setup.state.feed_cycles()).await.unwrap();
    let pushed_id = setup.id("pushed.xml").to_owned();
    setup.poll(&["pushed.xml"]).await;

    // After the poll read the feed's hub, the server asked the hub to subscribe.
    let form = setup
        .hub
        .lock()
        .unwrap()
        .last()
        .cloned()
        .expect("a subscription request");
    let field = |name: &str| {
        form.iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
            .unwrap_or_else(|| panic!("{name} in {form:?}"))
    };
    assert_eq!(field("hub.mode"), "subscribe");
    assert!(field("hub.topic").ends_with("/pushed.xml"));
    let callback = field("hub.callback");
    assert!(
        callback.starts_with(&format!("{}/websub/", setup.base)),
        "{callback}"
    );
    let secret = field("hub.secret");
    assert!(secret.len() >= 32);

    // The hub verifies the intent: the challenge comes back only for the right topic.
    let client = reqwest::Client::new();
    let verify = |topic: String| {
        let client = client.clone();
        let callback = callback.clone();
        async move {
            let response = client
                .get(&callback)
                .query(&[
                    ("hub.mode", "subscribe"),
                    ("hub.topic", topic.as_str()),
                    ("hub.challenge", "c-12345"),
                    ("hub.lease_seconds", "86400"),
                ])
                .send()
                .await
                .unwrap();
            (response.status().as_u16(), response.text().await.unwrap())
        }
    };
    assert_eq!(verify("https://elsewhere.example/feed".into()).await.0, 404);
    assert_eq!(
        verify(field("hub.topic")).await,
        (200, "c-12345".to_owned())
    );
    assert_eq!(
        database
            .schedule_summary(Utc::now())
            .await
            .unwrap()
            .active_subscriptions,
        1
    );
    // A confirmed feed is polled only as a safety net.
    setup.poll(&["pushed.xml"]).await;
    let feed = database.scheduled_feed(&pushed_id).await.unwrap().unwrap();
    assert!(
        feed.next_poll_at - Utc::now() > chrono::Duration::hours(5),
        "{feed:?}"
    );

    // A delivery signed with another secret is acknowledged and ignored; a signed
    // one makes the feed due now.
    let body = b"<rss>updated</rss>".to_vec();
    let sign = |secret: &str| {
        use hmac::Mac;
        let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes()).unwrap();
        mac.update(&body);
        let hex: String = mac
            .finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        format!("sha256={hex}")
    };
    let deliver = |signature: String| {
        let client = client.clone();
        let callback = callback.clone();
        let body = body.clone();
        async move {
            client
                .post(&callback)
                .header("x-hub-signature", signature)
                .body(body)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    let due_now = || {
        database
            .wait(database.scheduled_feed(&pushed_id))
            .unwrap()
            .unwrap()
            .next_poll_at
            <= Utc::now()
    };
    assert_eq!(deliver(sign("not-the-secret")).await, 202);
    assert!(!due_now(), "a wrongly signed delivery is ignored");
    assert_eq!(deliver(sign(&secret)).await, 202);
    assert!(due_now(), "a signed delivery makes the feed due");
    // An unknown callback is 404, so a hub drops it.
    let unknown = client
        .post(format!("{}/websub/not-a-token", setup.base))
        .body("x")
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status().as_u16(), 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn episodes_stored_before_a_crash_are_indexed_by_the_next_cycle() {
    let setup = setup().await;
    let data_dir = setup.state.data_dir.clone();
    // A cycle stored the reef show's new episode, listed it as unindexed, and died
    // before publishing the index generation.
    let reef_id = uuid::Uuid::parse_str(setup.id("reef.xml")).unwrap();
    podlens_app::feed_changes::mark_unindexed(&data_dir, &[reef_id]).unwrap();
    {
        let text = feed_xml("Reef Radio", WEEKLY, "");
        let parsed = podlens_ingest::parse_feed(text.as_bytes(), None).unwrap();
        let batch = podlens_ingest::normalize(&parsed, &setup.feed_url(reef_id), Utc::now());
        let mut catalog = Catalog::open(&data_dir).unwrap();
        catalog.upsert_feed(&batch).unwrap();
    }
    assert!(setup.episode_titles("tidal pools").await.is_empty());
    // The next cycle polls nothing (nothing is due) and still publishes it.
    let report = run_cycle(&setup.state.feed_cycles()).await.unwrap();
    assert_eq!(report.polled, 0);
    assert!(report.generation.is_some(), "{report:?}");
    assert_eq!(
        setup.episode_titles("tidal pools").await,
        ["Tidal pools at dawn"]
    );
    assert!(podlens_app::feed_changes::unindexed(&data_dir).is_empty());
}

/// A server killed after storing a new episode and before publishing it was restarted
/// with a new node id, so its last recorded change — the same feed one poll earlier,
/// without the new episode — was applied as another node's. Storing that older feed
/// changed the podcast, the podcast's partial delta stood in for the full one owed to
/// the podcast left unindexed, and the new episode was never indexed (found by the
/// `scheduler_crash` test).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_change_applied_after_a_crash_still_indexes_the_episodes_left_unindexed() {
    let setup = setup().await;
    let data_dir = setup.state.data_dir.clone();
    let reef_id = uuid::Uuid::parse_str(setup.id("reef.xml")).unwrap();
    let feed_url = setup.feed_url(reef_id);
    let batch = |items: &[(&str, &str)]| {
        let text = feed_xml("Reef Radio", items, "");
        let parsed = podlens_ingest::parse_feed(text.as_bytes(), None).unwrap();
        podlens_ingest::normalize(&parsed, &feed_url, Utc::now())
    };
    podlens_app::feed_changes::mark_unindexed(&data_dir, &[reef_id]).unwrap();
    Catalog::open(&data_dir)
        .unwrap()
        .upsert_feed(&batch(WEEKLY))
        .unwrap();
    let older = podlens_app::cluster::CatalogChange::Feed {
        batch: Box::new(batch(&WEEKLY[1..])),
        transcripts: Vec::new(),
        moved_to: None,
    };
    let state = setup.state.clone();
    tokio::task::spawn_blocking(move || {
        podlens_app::refresh::apply_feed_change(&state.refresher, &state.catalog, &older)
    })
    .await
    .unwrap()
    .unwrap();
    assert_eq!(
        setup.episode_titles("tidal pools").await,
        ["Tidal pools at dawn"]
    );
    assert!(podlens_app::feed_changes::unindexed(&data_dir).is_empty());
}

/// Every first poll by the server published an index generation: a feed answering in
/// full brings its linked transcripts again, and each was taken for a change. Fetched
/// again unchanged, a transcript changes nothing; changed, it is published.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_transcript_fetched_again_unchanged_publishes_nothing() {
    let setup = setup().await;
    run_cycle(&setup.state.feed_cycles()).await.unwrap();
    let report = setup.poll(&["talk.xml"]).await;
    assert_eq!((report.polled, report.changed), (1, 1), "{report:?}");
    assert!(
        report.generation.is_some(),
        "the new transcript: {report:?}"
    );

    // The same bytes served as new (a later Last-Modified): not modified, by their hash.
    setup.write("talk.xml", &talk_xml(&setup.feeds_base));
    let report = setup.poll(&["talk.xml"]).await;
    assert_eq!(
        (
            report.polled,
            report.not_modified,
            report.changed,
            report.generation
        ),
        (1, 1, 0, None),
        "{report:?}"
    );

    // The same feed and transcript in other bytes (a comment added): a full read, which
    // changes nothing.
    setup.write(
        "talk.xml",
        &format!("{}<!-- served again -->\n", talk_xml(&setup.feeds_base)),
    );
    let report = setup.poll(&["talk.xml"]).await;
    assert_eq!(
        (
            report.polled,
            report.not_modified,
            report.changed,
            report.generation
        ),
        (1, 0, 0, None),
        "{report:?}"
    );

    // A corrected transcript is a change.
    setup.write(
        "talk-1.vtt",
        &TALK_TRANSCRIPT.replace("thirty seconds", "twenty seconds"),
    );
    setup.write("talk.xml", &talk_xml(&setup.feeds_base));
    let report = setup.poll(&["talk.xml"]).await;
    assert_eq!(report.changed, 1, "{report:?}");
    assert!(report.generation.is_some(), "{report:?}");
}

/// Following feeds with the validators `podlens ingest` kept made their first poll a
/// 304, and a 304 says nothing of the feed's WebSub hub: no hub was ever subscribed to.
/// The catalog keeps the hub each feed declared when it was read, so a feed unchanged
/// since the ingest has its hub subscribed to as soon as it is followed, and its first
/// poll is a conditional GET that costs nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hub_of_a_feed_unchanged_since_the_ingest_is_subscribed_to_when_followed() {
    let setup = setup_with(true, &[]).await;
    let report = run_cycle(&setup.state.feed_cycles()).await.unwrap();
    assert_eq!(report.seeded, 6);
    // Just read by the ingest: due one interval (an hour for a weekly show, ±10%) after
    // that read, not again at once.
    let database = setup.state.feeds.database().clone();
    for (_, id) in &setup.ids {
        let feed = database.scheduled_feed(id).await.unwrap().unwrap();
        let wait = feed.next_poll_at - Utc::now();
        assert!(wait >= chrono::Duration::minutes(50), "{feed:?}");
        assert!(feed.content_hash.is_some(), "{feed:?}");
    }
    let started = std::time::Instant::now();
    while setup.hub.lock().unwrap().is_empty() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "the hub was never asked for a subscription"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let request = setup.hub.lock().unwrap()[0].clone();
    assert!(
        request
            .iter()
            .any(|(name, value)| name == "hub.mode" && value == "subscribe"),
        "{request:?}"
    );
    let report = setup.poll(&["pushed.xml"]).await;
    assert_eq!(
        (report.polled, report.not_modified, report.changed),
        (1, 1, 0),
        "{report:?}"
    );
}

/// A feed server gone bad in four ways: one never answers, one redirects to itself,
/// one streams without end, one answers binary garbage.
async fn serve_hostile_feeds() -> String {
    use axum::body::{Body, Bytes};
    use axum::response::IntoResponse;
    use axum::routing::get;
    let app = axum::Router::new()
        .route(
            "/hang.xml",
            get(|| async {
                tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
                "too late"
            }),
        )
        .route(
            "/loop.xml",
            get(|| async { axum::response::Redirect::to("/loop.xml") }),
        )
        .route(
            "/endless.xml",
            get(|| async {
                let chunk = Bytes::from(b"<item><title>more</title></item>".repeat(2048));
                let chunks = futures_util::stream::repeat_with(move || {
                    Ok::<_, std::io::Error>(chunk.clone())
                });
                (
                    [("content-type", "application/rss+xml")],
                    Body::from_stream(chunks),
                )
                    .into_response()
            }),
        )
        .route(
            "/garbage.xml",
            get(|| async {
                let bytes: Vec<u8> = (0..4096u32).map(|n| (n * 7919 % 251) as u8).collect();
                ([("content-type", "application/rss+xml")], bytes).into_response()
            }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{address}")
}

/// Feeds that hang, redirect in a loop, stream without end or answer garbage are
/// recorded with what went wrong and backed off; once failing, they are polled in the
/// retry lane, so a healthy feed's new episode is published without waiting for them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hanging_looping_endless_and_garbage_feeds_back_off_without_holding_up_the_others() {
    const TIMEOUT: std::time::Duration = std::time::Duration::from_secs(8);
    let hostile = serve_hostile_feeds().await;
    let bad = ["hang.xml", "loop.xml", "endless.xml", "garbage.xml"];
    let elsewhere: Vec<(&str, String)> = bad
        .iter()
        .map(|name| (*name, format!("{hostile}/{name}")))
        .collect();
    let mut setup = setup_with(false, &elsewhere).await;
    let database = setup.state.feeds.database().clone();
    setup.state.feeds = Arc::new(FeedScheduler::new(database.clone(), true).with_http(
        podlens_ingest::fetch::HttpConfig {
            allowed_addresses: vec![std::net::Ipv4Addr::LOCALHOST.into()],
            retries: 0,
            timeout: TIMEOUT,
            ..podlens_ingest::fetch::HttpConfig::default()
        },
    ));
    run_cycle(&setup.state.feed_cycles()).await.unwrap();

    // Never failed yet: polled with the reef show, whose new episode is published.
    setup.write("reef.xml", &feed_xml("Reef Radio", WEEKLY, ""));
    let started = std::time::Instant::now();
    let mut names = vec!["reef.xml"];
    names.extend(bad);
    let report = setup.poll(&names).await;
    assert!(
        started.elapsed() < TIMEOUT * 3,
        "a cycle is bounded by the timeout: {:?}",
        started.elapsed()
    );
    assert_eq!((report.polled, report.failed, report.changed), (5, 4, 1));
    assert!(
        setup
            .episode_titles("tidal pools dawn")
            .await
            .contains(&"Tidal pools at dawn".to_owned())
    );
    let expected = [
        ("hang.xml", "network", "timed out"),
        ("loop.xml", "network", "redirects"),
        ("endless.xml", "too-large", ""),
        ("garbage.xml", "not-a-feed", "not a feed"),
    ];
    for (name, outcome, error) in expected {
        let feed = database
            .scheduled_feed(setup.id(name))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (feed.failures, feed.last_outcome.as_deref()),
            (1, Some(outcome)),
            "{name}: {feed:?}"
        );
        assert!(
            feed.last_error
                .as_deref()
                .unwrap_or_default()
                .contains(error),
            "{name}: {feed:?}"
        );
        assert!(
            feed.next_poll_at - Utc::now() > chrono::Duration::minutes(25),
            "{name} is backed off: {feed:?}"
        );
    }

    // Due again with the steady show's new episode: the failing feeds go to the retry
    // lane, and the steady show is published without waiting for the hanging feed.
    let mut steady = vec![("s5", "Lanterns over the bay")];
    steady.extend_from_slice(&WEEKLY[1..]);
    setup.write("steady.xml", &feed_xml("Steady Show", &steady, ""));
    let started = std::time::Instant::now();
    let mut names = vec!["steady.xml"];
    names.extend(bad);
    let report = setup.poll(&names).await;
    assert!(
        setup
            .episode_titles("lanterns over the bay")
            .await
            .contains(&"Lanterns over the bay".to_owned())
    );
    assert!(
        started.elapsed() < TIMEOUT,
        "the healthy feed waited for the hanging one: {:?}",
        started.elapsed()
    );
    assert_eq!((report.polled, report.failed, report.changed), (1, 0, 1));
    let retried = setup
        .state
        .feeds
        .retry_lane_finished()
        .await
        .expect("the failing feeds were polled in the retry lane")
        .unwrap();
    assert_eq!((retried.polled, retried.failed), (4, 4));
    for (name, outcome, _) in expected {
        let feed = database
            .scheduled_feed(setup.id(name))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (feed.failures, feed.last_outcome.as_deref()),
            (2, Some(outcome)),
            "{name}: {feed:?}"
        );
        assert!(
            feed.next_poll_at - Utc::now() > chrono::Duration::minutes(50),
            "{name}'s backoff doubles: {feed:?}"
        );
    }
}

/// Regression for the kept JSON of search hits' podcast fields: after a feed's change
/// is published, hits show the podcast as the refreshed catalog has it, not as the
/// first search wrote it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_hits_show_a_podcast_as_its_refreshed_feed_says() {
    let setup = setup().await;
    run_cycle(&setup.state.feed_cycles()).await.unwrap();
    let reef_totals = || async {
        let hits = setup
            .episode_hits("Reef Radio", "episode-description")
            .await;
        hits.iter()
            .map(|hit| (hit["podcastRssTitle"].clone(), hit["totalEpisodes"].clone()))
            .collect::<Vec<_>>()
    };
    let before = reef_totals().await;
    assert_eq!(before, vec![(json!("Reef Radio"), json!(3)); 3]);

    setup.write("reef.xml", &feed_xml("Reef Radio", WEEKLY, ""));
    let report = setup.poll(&["reef.xml"]).await;
    assert_eq!(report.new_episodes, 1, "{report:?}");
    assert_eq!(
        reef_totals().await,
        vec![(json!("Reef Radio"), json!(4)); 4]
    );
}
