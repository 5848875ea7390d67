//! Refreshing a podcast from its feed while the server runs: feeds served over HTTP
//! on loopback, a catalog ingested from them, the real server on a socket. The feed
//! gains an episode, the refresh stores it and every route answers with it at once.

mod common;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use chrono::Utc;
use podlens_data::Catalog;
use serde_json::Value;

const FEED: &str = "gnome-podcasts_2018-01-20-StealTheStars.xml";

fn corpus_feed() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/feeds")
        .join(FEED);
    std::fs::read_to_string(path).expect("corpus feed")
}

fn item_count(feed: &str) -> u64 {
    feed.matches("<item>").count() as u64
}

struct Setup {
    base: String,
    feeds: PathBuf,
    key: String,
    ids: Vec<String>,
    _dirs: (tempfile::TempDir, tempfile::TempDir),
}

/// A catalog of four podcasts read from `feeds_base`: `shrunk.xml` (the corpus feed
/// less its newest item, its image replaced in the catalog), `moved.xml` (404 by the
/// time of the refresh), `page.html` (not a feed by then) and `whole.xml`.
/// The catalog and server; refreshes may fetch from the loopback feed server when
/// `allow_loopback`.
async fn setup_with(allow_loopback: bool) -> Setup {
    let feeds_dir = tempfile::tempdir().unwrap();
    let feeds = feeds_dir.path().to_path_buf();
    let full = corpus_feed();
    for name in ["shrunk.xml", "moved.xml", "page.html", "whole.xml"] {
        std::fs::write(feeds.join(name), common::without_first_item(&full)).unwrap();
    }
    let feeds_base = common::serve_files(feeds.clone()).await;
    let data_dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(data_dir.path()).unwrap();
    let mut ids = Vec::new();
    for name in ["shrunk.xml", "moved.xml", "page.html", "whole.xml"] {
        let bytes = std::fs::read(feeds.join(name)).unwrap();
        let parsed = podlens_ingest::parse_feed(&bytes, None).unwrap();
        let mut batch =
            podlens_ingest::normalize(&parsed, &format!("{feeds_base}/{name}"), Utc::now());
        batch.podcast.podcast_image_url = Some("https://images.example/old.jpg".into());
        catalog.upsert_feed(&batch).unwrap();
        ids.push(batch.podcast.podcast_id.to_string());
    }
    catalog.export_parquet().unwrap();
    drop(catalog);

    let mut state = podlens_api::server::open_state(data_dir.path().to_path_buf(), None).unwrap();
    // The feed server is on loopback: allowed by address, as `podlens serve
    // --allow-private` would allow it; every other private address stays refused.
    if allow_loopback {
        state.refresher = std::sync::Arc::new(
            podlens_app::refresh::FeedRefresher::new(data_dir.path().to_path_buf())
                .allowing_addresses(vec![std::net::Ipv4Addr::LOCALHOST.into()]),
        );
    }
    let key = state
        .accounts
        .create_api_key("refresh@example.com", "business")
        .await
        .unwrap()
        .api_key;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = podlens_api::app(state).into_make_service_with_connect_info::<SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, app).await });
    Setup {
        base: format!("http://{address}"),
        feeds,
        key,
        ids,
        _dirs: (feeds_dir, data_dir),
    }
}

async fn setup() -> Setup {
    setup_with(true).await
}

async fn get(setup: &Setup, path: &str, key: Option<&str>) -> (u16, Value) {
    let mut request = reqwest::Client::new().get(format!("{}{path}", setup.base));
    if let Some(key) = key {
        request = request.header("authorization", key);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let bytes = response.bytes().await.unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn a_refresh_reads_the_feed_again_and_every_route_sees_it() {
    let setup = setup().await;
    let full = corpus_feed();
    let key = Some(setup.key.as_str());
    let shrunk = &setup.ids[0];
    let (_, before) = get(&setup, &format!("/api/v1/podcasts/{shrunk}"), key).await;
    assert_eq!(
        before["data"]["podcast"]["stats"]["episodeCount"],
        item_count(&full) - 1
    );

    // The feed gains its newest item back.
    std::fs::write(setup.feeds.join("shrunk.xml"), &full).unwrap();
    let (status, refreshed) = get(&setup, &format!("/api/v1/podcasts/{shrunk}/refresh"), key).await;
    assert_eq!(status, 200, "{refreshed}");
    let data = &refreshed["data"];
    assert_eq!(data["success"], true, "{data}");
    assert_eq!(data["podcast"]["stats"]["episodeCount"], item_count(&full));
    // The stored image is kept unless asked otherwise.
    assert_eq!(
        data["podcast"]["imageUrl"],
        "https://images.example/old.jpg"
    );

    let (_, episodes) = get(&setup, &format!("/api/v1/podcasts/{shrunk}/episodes"), key).await;
    assert_eq!(episodes["data"]["totalEpisodes"], item_count(&full));
    let newest_title = regex::Regex::new(r"(?s)<item>.*?<title>(.*?)</title>")
        .unwrap()
        .captures(&full)
        .unwrap()[1]
        .to_owned();
    assert_eq!(
        episodes["data"]["podcastWithEpisodes"]["episodes"][0]["title"],
        newest_title.as_str()
    );
    // The new episode's sponsors were found too: "… brought to you by Squarespace
    // (Squarespace.com offer code STARS)." is the newest item's read.
    let (_, sponsors) = get(&setup, &format!("/api/v1/podcasts/{shrunk}/sponsors"), key).await;
    let newest_sponsor = sponsors["data"]["sponsors"]["sponsors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "Squarespace")
        .cloned()
        .unwrap();
    let (_, catalogue) = get(
        &setup,
        &format!("/api/v1/podcasts/{shrunk}/episode-catalogue?view=summary"),
        key,
    )
    .await;
    assert_eq!(
        newest_sponsor["mostRecentAppearanceDate"],
        catalogue["data"]["catalogue"]["episodes"][0]["publishedAt"]
    );

    // Once a minute per podcast.
    let (status, again) = get(&setup, &format!("/api/v1/podcasts/{shrunk}/refresh"), key).await;
    assert_eq!(status, 429);
    let message = again["data"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("This podcast was refreshed less than a minute ago; try again in "),
        "{message}"
    );
}

#[tokio::test]
async fn failed_refreshes_say_why_and_keep_the_podcast() {
    let setup = setup().await;
    let key = Some(setup.key.as_str());
    std::fs::remove_file(setup.feeds.join("moved.xml")).unwrap();
    std::fs::write(
        setup.feeds.join("page.html"),
        "<html><body>Moved</body></html>",
    )
    .unwrap();

    let (status, gone) = get(
        &setup,
        &format!("/api/v1/podcasts/{}/refresh", setup.ids[1]),
        key,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(gone["data"]["success"], false);
    assert_eq!(gone["data"]["errorCode"], "rss_not_found");
    assert!(
        gone["data"]["errorDetails"]["rssUrl"]
            .as_str()
            .unwrap()
            .ends_with("/moved.xml")
    );

    let (_, page) = get(
        &setup,
        &format!("/api/v1/podcasts/{}/refresh", setup.ids[2]),
        key,
    )
    .await;
    assert_eq!(page["data"]["success"], false);
    assert_eq!(page["data"]["errorCode"], "rss_parse_error");
    let (_, kept) = get(&setup, &format!("/api/v1/podcasts/{}", setup.ids[2]), key).await;
    assert_eq!(
        kept["data"]["podcast"]["stats"]["episodeCount"],
        item_count(&corpus_feed()) - 1
    );

    // Asked to, the refresh takes the feed's image.
    let (_, whole) = get(
        &setup,
        &format!(
            "/api/v1/podcasts/{}/refresh?updatePodcastThumbnail=true",
            setup.ids[3]
        ),
        key,
    )
    .await;
    assert_eq!(whole["data"]["success"], true, "{whole}");
    let feed_image = regex::Regex::new(r#"<itunes:image href="([^"]+)""#)
        .unwrap()
        .captures(&corpus_feed())
        .unwrap()[1]
        .to_owned();
    assert_eq!(whole["data"]["podcast"]["imageUrl"], feed_image.as_str());

    let (status, anonymous) = get(
        &setup,
        &format!("/api/v1/podcasts/{}/refresh", setup.ids[3]),
        None,
    )
    .await;
    assert_eq!(status, 401);
    assert_eq!(
        anonymous["data"]["message"],
        "This endpoint requires an API key in the Authorization header"
    );
}

#[tokio::test]
async fn by_default_a_refresh_refuses_private_addresses() {
    // The stored feed URL is on loopback; a server that was not told to allow it
    // refuses the fetch (a feed URL must not reach into the server's own network).
    let setup = setup_with(false).await;
    let (status, refused) = get(
        &setup,
        &format!("/api/v1/podcasts/{}/refresh", setup.ids[0]),
        Some(setup.key.as_str()),
    )
    .await;
    assert_eq!(status, 200);
    let data = &refused["data"];
    assert_eq!(data["success"], false, "{data}");
    assert_eq!(data["errorCode"], "rss_fetch_failed", "{data}");
    let message = data["errorMessage"].as_str().unwrap_or_default();
    assert!(message.contains("loopback"), "{message}");
}

#[tokio::test]
async fn refreshing_a_feed_that_has_not_changed_succeeds() {
    let setup = setup().await;
    let key = Some(setup.key.as_str());
    let whole = &setup.ids[3];
    let (status, refreshed) = get(&setup, &format!("/api/v1/podcasts/{whole}/refresh"), key).await;
    assert_eq!(status, 200, "{refreshed}");
    let data = &refreshed["data"];
    assert_eq!(data["success"], true, "{data}");
    assert_eq!(
        data["podcast"]["stats"]["episodeCount"],
        item_count(&corpus_feed()) - 1
    );
    assert_eq!(
        data["podcast"]["imageUrl"],
        "https://images.example/old.jpg"
    );
}
