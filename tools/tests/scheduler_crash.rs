//! `podlens serve`'s feed scheduler killed for real: the server runs as a child process
//! over feeds served on loopback and is SIGKILLed while a poll is in flight and at
//! several moments after a feed with a new episode was read (storing it in the catalog,
//! exporting the snapshot, publishing the index generation, writing the schedule).
//! Restarted on the same data directory, it must find every new episode by search
//! without losing one found before.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Path as UrlPath, State};
use axum::http::StatusCode;
use chrono::Utc;
use serde_json::{Value, json};

/// How long a restarted server may take to find an episode (a cycle runs every 5 s).
const CONVERGE: Duration = Duration::from_secs(90);
/// When, after the server asked the feed server for the changed feed, each kill lands.
const KILL_AFTER_MS: [u64; 7] = [0, 50, 100, 150, 250, 400, 900];
/// A word of each round's new episode title, found in no other title.
const ROUND_WORDS: [&str; 7] = [
    "Amber", "Basalt", "Cedar", "Dunes", "Estuary", "Fjord", "Granite",
];

/// The feed server's state: which feeds to hold (answer only when released) and how
/// many times each was asked for.
#[derive(Default)]
struct Feeds {
    dir: PathBuf,
    held: Mutex<Vec<String>>,
    asked: Mutex<HashMap<String, usize>>,
}

impl Feeds {
    fn asked(&self, name: &str) -> usize {
        self.asked.lock().unwrap().get(name).copied().unwrap_or(0)
    }
}

async fn feed(
    State(feeds): State<Arc<Feeds>>,
    UrlPath(name): UrlPath<String>,
) -> (StatusCode, String) {
    *feeds.asked.lock().unwrap().entry(name.clone()).or_default() += 1;
    let started = Instant::now();
    while feeds.held.lock().unwrap().contains(&name) && started.elapsed() < Duration::from_secs(60)
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    match std::fs::read_to_string(feeds.dir.join(&name)) {
        Ok(text) => (StatusCode::OK, text),
        Err(_) => (StatusCode::NOT_FOUND, String::new()),
    }
}

/// A weekly show's feed with `titles` as its episodes, newest first.
fn feed_xml(show: &str, titles: &[String]) -> String {
    let items: String = titles
        .iter()
        .enumerate()
        .map(|(n, title)| {
            let day = chrono::DateTime::parse_from_rfc3339("2026-11-20T09:00:00Z").unwrap()
                - chrono::Duration::days(7 * n as i64);
            let guid = title.to_lowercase().replace(' ', "-");
            format!(
                "<item><guid>{guid}</guid><title>{title}</title><description>{title}, an episode of {show}</description>\
                 <pubDate>{}</pubDate><enclosure url=\"https://media.example.test/{guid}.mp3\" type=\"audio/mpeg\" length=\"1000\"/></item>",
                day.to_rfc2822()
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>{show}</title>\
         <link>https://shows.example.test/</link><description>{show}, every week</description>\
         <language>en</language>{items}</channel></rss>"
    )
}

fn podlens(data_dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_podlens"));
    command
        .arg("--no-progress")
        .args(args)
        .arg("--data-dir")
        .arg(data_dir)
        .env_remove("PODLENS_DATABASE_URL")
        .env("RUST_LOG", "info");
    command
}

fn run(data_dir: &Path, args: &[&str]) -> String {
    let output = podlens(data_dir, args).output().expect("podlens runs");
    assert!(
        output.status.success(),
        "podlens {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A running `podlens serve` and its base URL.
struct Server {
    child: Child,
    base: String,
}

impl Server {
    fn start(data_dir: &Path, round: usize) -> Server {
        let log = std::fs::File::create(data_dir.join(format!("serve-{round}.log"))).unwrap();
        let mut child = podlens(data_dir, &["serve", "--port", "0", "--allow-private"])
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .expect("podlens serve starts");
        let stdout = child.stdout.take().unwrap();
        let mut lines = BufReader::new(stdout).lines();
        let base = loop {
            let line = lines
                .next()
                .expect("podlens serve stopped before listening")
                .unwrap();
            if let Some(address) = line.strip_prefix("podlens listening on ") {
                break address.trim().to_owned();
            }
        };
        // Keep reading, so the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        Server { child, base }
    }

    /// SIGKILL, then reaped.
    fn kill(self) {
        drop(self);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Makes the feed of `podcast_id` due now, as a hub's push does; false until the
/// server has followed it.
fn push(data_dir: &Path, podcast_id: &str) -> bool {
    let location = podlens_store::Location::for_data_dir(data_dir, None);
    let database = podlens_store::Database::open(&location).unwrap();
    database
        .wait(database.push_feed(podcast_id, Utc::now()))
        .unwrap()
}

fn push_until_followed(data_dir: &Path, podcast_id: &str) {
    let started = Instant::now();
    while !push(data_dir, podcast_id) {
        assert!(
            started.elapsed() < CONVERGE,
            "the server never followed {podcast_id}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Pushes the coast feed and returns as soon as the server asks the feed server for it.
fn push_and_wait_for_the_poll(feeds: &Feeds, data_dir: &Path, podcast_id: &str) {
    let asked = feeds.asked("coast.xml");
    push_until_followed(data_dir, podcast_id);
    let started = Instant::now();
    while feeds.asked("coast.xml") == asked {
        assert!(
            started.elapsed() < CONVERGE,
            "the server never polled the pushed feed"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The episode titles search finds for `words` (episode titles, every word).
fn found(runtime: &tokio::runtime::Runtime, base: &str, key: &str, words: &str) -> Vec<String> {
    runtime.block_on(async {
        let response = reqwest::Client::new()
            .post(format!("{base}/api/v1/search/episodes"))
            .header("authorization", key)
            .header("content-type", "application/json")
            .body(
                json!({"searchTerms": [{"searchTerm": words, "searchType": "text",
                    "searchTargets": ["episode-title"], "searchTermOptions": {"matchMode": "must"}}]})
                .to_string(),
            )
            .send()
            .await;
        let Ok(response) = response else {
            return Vec::new();
        };
        let bytes = response.bytes().await.unwrap_or_default();
        let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        body["data"]["result"]["hits"]
            .as_array()
            .map(|hits| {
                hits.iter()
                    .filter_map(|hit| hit["episodeRssTitle"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    })
}

/// The end of the newest `serve-N.log`, for a failure's message (the data directory
/// is removed as the test unwinds).
fn last_log(data_dir: &Path) -> String {
    let newest = (0..=KILL_AFTER_MS.len() + 1)
        .rev()
        .map(|round| data_dir.join(format!("serve-{round}.log")))
        .find(|path| path.exists());
    let text = newest
        .and_then(|path| std::fs::read_to_string(path).ok())
        .unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(60)..].join("\n")
}

fn wait_until_found(
    runtime: &tokio::runtime::Runtime,
    server: &Server,
    key: &str,
    title: &str,
    data_dir: &Path,
) {
    let started = Instant::now();
    while !found(runtime, &server.base, key, title)
        .iter()
        .any(|t| t == title)
    {
        assert!(
            started.elapsed() < CONVERGE,
            "search never found {title:?} after the restart; the restarted server's log:\n{}",
            last_log(data_dir)
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

#[test]
fn a_server_killed_during_a_poll_or_a_publish_loses_no_episode() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let feeds_dir = tempfile::tempdir().unwrap();
    let feeds = Arc::new(Feeds {
        dir: feeds_dir.path().to_path_buf(),
        ..Feeds::default()
    });
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let address: SocketAddr = listener.local_addr().unwrap();
    let app = axum::Router::new()
        .route("/{name}", axum::routing::get(feed))
        .with_state(feeds.clone());
    runtime.spawn(async move { axum::serve(listener, app).await });

    let mut episodes: Vec<String> = vec![
        "The harbour at night".into(),
        "Tides and their tables".into(),
    ];
    std::fs::write(
        feeds.dir.join("coast.xml"),
        feed_xml("Coast Notes", &episodes),
    )
    .unwrap();
    std::fs::write(
        feeds.dir.join("inland.xml"),
        feed_xml("Inland Notes", &["Rivers we crossed".to_owned()]),
    )
    .unwrap();

    let data = tempfile::tempdir().unwrap();
    let data_dir = data.path();
    let url = |name: &str| format!("http://{address}/{name}");
    run(
        data_dir,
        &[
            "ingest",
            &url("coast.xml"),
            &url("inland.xml"),
            "--allow-private",
        ],
    );
    run(data_dir, &["index", "--no-vectors"]);
    let key = run(
        data_dir,
        &[
            "keys",
            "create",
            "--email",
            "crash@example.com",
            "--plan",
            "business",
        ],
    )
    .lines()
    .last()
    .unwrap()
    .trim()
    .to_owned();
    let podcasts = podlens_data::snapshot::read_podcasts(&data_dir.join("parquet")).unwrap();
    let coast = podcasts
        .iter()
        .find(|podcast| podcast.podcast_rss_title == "Coast Notes")
        .unwrap()
        .podcast_id
        .to_string();

    // Killed while the coast feed's answer is on its way: the poll never ends.
    let server = Server::start(data_dir, 0);
    push_until_followed(data_dir, &coast);
    episodes.insert(0, "Lanterns of the north".into());
    std::fs::write(
        feeds.dir.join("coast.xml"),
        feed_xml("Coast Notes", &episodes),
    )
    .unwrap();
    feeds.held.lock().unwrap().push("coast.xml".into());
    push_and_wait_for_the_poll(&feeds, data_dir, &coast);
    server.kill();
    feeds.held.lock().unwrap().clear();
    let server = Server::start(data_dir, 1);
    push_until_followed(data_dir, &coast);
    wait_until_found(&runtime, &server, &key, "Lanterns of the north", data_dir);

    // Killed at moments after the changed feed was read: storing, publishing, scheduling.
    let mut server = server;
    for (round, after) in KILL_AFTER_MS.iter().enumerate() {
        let title = format!("Crossing the {} sound", ROUND_WORDS[round]);
        episodes.insert(0, title.clone());
        std::fs::write(
            feeds.dir.join("coast.xml"),
            feed_xml("Coast Notes", &episodes),
        )
        .unwrap();
        push_and_wait_for_the_poll(&feeds, data_dir, &coast);
        std::thread::sleep(Duration::from_millis(*after));
        server.kill();
        // Where the kill landed: between storing and publishing, the podcast is listed
        // as unindexed; the restarted server must publish it.
        let unindexed =
            std::fs::read_to_string(data_dir.join("feeds/unindexed.json")).unwrap_or_default();
        eprintln!(
            "kill {after} ms after the read: {}",
            if unindexed.contains(&coast) {
                "stored, not yet published"
            } else {
                "before storing or after publishing"
            }
        );
        server = Server::start(data_dir, round + 2);
        // The feed stays due when its poll was not recorded; pushed again either way,
        // as the next push from the hub would.
        push_until_followed(data_dir, &coast);
        wait_until_found(&runtime, &server, &key, &title, data_dir);
    }

    // Nothing found before was lost, the other show included.
    for title in episodes
        .iter()
        .chain(std::iter::once(&"Rivers we crossed".to_owned()))
    {
        assert_eq!(
            found(&runtime, &server.base, &key, title),
            std::slice::from_ref(title),
            "{title}"
        );
    }
    server.kill();
}
