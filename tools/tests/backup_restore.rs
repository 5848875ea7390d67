//! `podlens backup` while `podlens serve` runs and takes writes, then `podlens restore`
//! into a new directory and a second server over it: everything committed before the
//! backup started is there and answers the same over HTTP, nothing begun after it
//! finished is, searches answer identically and the catalog holds the same rows. A
//! corrupted backup file is refused by name, and so is restoring over a directory a
//! running server uses.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use podlens_tools::generate::{GenerateOptions, generate};
use serde_json::{Value, json};

fn podlens(args: &[&str], data_dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_podlens"))
        .arg("--no-progress")
        .args(args)
        .arg("--data-dir")
        .arg(data_dir)
        .output()
        .expect("podlens runs")
}

fn succeed(args: &[&str], data_dir: &Path) -> String {
    let output = podlens(args, data_dir);
    assert!(
        output.status.success(),
        "podlens {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8")
}

/// A data directory with a catalog, a snapshot, a published index and an admin key.
fn data_dir(root: &Path) -> (PathBuf, String) {
    let corpus = root.join("corpus");
    generate(
        &GenerateOptions {
            podcasts: 40,
            seed: 7,
            out: corpus.clone(),
            base_url: "http://127.0.0.1:9".into(),
            transcript_share: 0.0,
            chart_days: 1,
            as_of: None,
        },
        &|| {},
    )
    .expect("corpus generates");
    let data = root.join("data");
    let feeds = corpus.join("feeds");
    succeed(
        &["ingest", feeds.to_str().unwrap(), "--no-transcripts"],
        &data,
    );
    succeed(&["index"], &data);
    let created = succeed(
        &[
            "keys",
            "create",
            "--email",
            "owner@example.com",
            "--plan",
            "admin",
        ],
        &data,
    );
    let key = created.lines().last().expect("key line").trim().to_owned();
    (data, key)
}

struct Server {
    child: Child,
    base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(data_dir: &Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_podlens"))
        .args(["--no-progress", "serve", "--port", "0", "--data-dir"])
        .arg(data_dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("listening line");
    let base = line
        .trim()
        .strip_prefix("podlens listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    Server { child, base }
}

#[derive(Clone)]
struct Client {
    base: String,
    http: reqwest::Client,
}

impl Client {
    fn new(server: &Server) -> Client {
        Client {
            base: server.base.clone(),
            http: reqwest::Client::builder().no_proxy().build().unwrap(),
        }
    }

    async fn call(&self, method: &str, path: &str, key: &str, body: Option<Value>) -> (u16, Value) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.base))
            .header("authorization", key);
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        let response = request.send().await.expect("answer");
        let status = response.status().as_u16();
        let bytes = response.bytes().await.expect("body");
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    /// Signs `email` in as a browser does: asks for a link, follows the one mailed to the
    /// data directory's outbox, and keeps the session cookie it answers with.
    async fn sign_in(&self, data_dir: &Path, email: &str) -> String {
        let outbox = podlens_app::mail::Outbox::in_data_dir(data_dir);
        let before = outbox.messages().map(|m| m.len()).unwrap_or(0);
        let response = self
            .http
            .post(format!("{}/api/v1/auth/sign-in", self.base))
            .header("content-type", "application/json")
            .body(json!({ "email": email }).to_string())
            .send()
            .await
            .expect("sign-in answers");
        assert_eq!(response.status().as_u16(), 200, "sign-in");
        let messages = outbox.messages().expect("outbox readable");
        assert_eq!(messages.len(), before + 1, "one link is mailed");
        let text = std::fs::read_to_string(messages.last().unwrap()).expect("message");
        let start = text.find("?key=").expect("a link with a key") + "?key=".len();
        let link_key: String = text[start..]
            .chars()
            .take_while(char::is_ascii_hexdigit)
            .collect();
        let response = self
            .http
            .post(format!("{}/api/v1/auth/email-link", self.base))
            .header("content-type", "application/json")
            .body(json!({ "key": link_key }).to_string())
            .send()
            .await
            .expect("email-link answers");
        assert_eq!(response.status().as_u16(), 200, "email-link");
        let cookie = response
            .headers()
            .get("set-cookie")
            .and_then(|value| value.to_str().ok())
            .expect("a session cookie");
        cookie.split(';').next().unwrap().to_owned()
    }

    /// A new API key, created as the web app's developer settings do: by session.
    async fn create_key(&self, session: &str) -> Value {
        let response = self
            .http
            .post(format!("{}/api/v1/teams/api-keys", self.base))
            .header("cookie", session)
            .header("x-podlens-client", "web")
            .send()
            .await
            .expect("answer");
        let status = response.status().as_u16();
        let bytes = response.bytes().await.expect("body");
        let answer: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        assert_eq!(status, 200, "POST /api/v1/teams/api-keys: {answer}");
        answer["data"].clone()
    }

    async fn data(&self, method: &str, path: &str, key: &str, body: Option<Value>) -> Value {
        let (status, answer) = self.call(method, path, key, body).await;
        assert_eq!(status, 200, "{method} {path}: {answer}");
        answer["data"].clone()
    }
}

/// One write through the API, with when it was sent and when its answer came.
#[derive(Debug, Clone)]
struct Written {
    kind: &'static str,
    /// Project slug, alert id, or the new API key.
    id: String,
    sent: Instant,
    answered: Instant,
}

/// Alerts the writer creates at most: under the admin plan's 500 (SPEC §9), which an
/// idle machine reaches within the test's few seconds of writing.
const MAX_ALERTS: usize = 400;

/// Creates projects, alerts (up to [`MAX_ALERTS`]) and API keys in turn until `stop`.
async fn keep_writing(
    client: Client,
    key: String,
    session: String,
    stop: Arc<AtomicBool>,
) -> Vec<Written> {
    let mut written = Vec::new();
    let mut round = 0;
    while !stop.load(Ordering::Relaxed) {
        round += 1;
        let sent = Instant::now();
        let project = client
            .data(
                "PUT",
                "/api/v1/projects",
                &key,
                Some(json!({"name": format!("Tour {round}"), "projectTypes": ["guest-booking"]})),
            )
            .await;
        written.push(Written {
            kind: "project",
            id: project["project"]["slug"].as_str().unwrap().to_owned(),
            sent,
            answered: Instant::now(),
        });
        if round <= MAX_ALERTS {
            let sent = Instant::now();
            let alert = client
                .data(
                    "POST",
                    "/api/v1/alerts/alert-config",
                    &key,
                    Some(json!({"alertName": format!("Watch {round}"), "alertType": "custom-keyword", "value": format!("garden{round}")})),
                )
                .await;
            written.push(Written {
                kind: "alert",
                id: alert["createdAlertConfig"]["id"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
                sent,
                answered: Instant::now(),
            });
        }
        if round % 3 == 0 {
            let sent = Instant::now();
            let created = client.create_key(&session).await;
            written.push(Written {
                kind: "key",
                id: created["apiKey"].as_str().unwrap().to_owned(),
                sent,
                answered: Instant::now(),
            });
        }
    }
    written
}

/// What the alert's owner configured (the run dates move on with the alerts job).
fn alert_settings(data: &Value) -> Value {
    let alert = &data["alertConfig"];
    json!([
        alert["id"],
        alert["alertName"],
        alert["alertType"],
        alert["value"],
        alert["enabled"]
    ])
}

/// A search answer without its timings.
fn without_timings(mut value: Value) -> Value {
    if let Some(object) = value.as_object_mut() {
        object.retain(|name, _| {
            !name.to_lowercase().contains("took") && !name.to_lowercase().contains("time")
        });
        for (_, inner) in object.iter_mut() {
            *inner = without_timings(inner.take());
        }
    } else if let Some(array) = value.as_array_mut() {
        for inner in array.iter_mut() {
            *inner = without_timings(inner.take());
        }
    }
    value
}

/// Words of the catalog's podcast titles (the longest of each of the first few).
fn title_words(data_dir: &Path) -> Vec<String> {
    let podcasts = podlens_data::snapshot::read_podcasts(&data_dir.join(podlens_data::PARQUET_DIR))
        .expect("snapshot reads");
    podcasts
        .iter()
        .take(4)
        .filter_map(|podcast| {
            podcast
                .podcast_rss_title
                .split_whitespace()
                .max_by_key(|word| word.len())
                .map(|word| {
                    word.trim_matches(|c: char| !c.is_alphanumeric())
                        .to_lowercase()
                })
        })
        .collect()
}

/// Search answers for `words`, without their search ids; and how many hits in all.
async fn searches(client: &Client, key: &str, words: &[String]) -> (Vec<Value>, u64) {
    let mut answers = Vec::new();
    let mut hits = 0;
    for query in words {
        for path in ["/api/v1/search/podcasts", "/api/v1/search/episodes"] {
            let mut data = client
                .data(
                    "POST",
                    path,
                    key,
                    Some(
                        json!({"searchTerms": [{"searchTerm": query, "searchType": "text",
                        "searchTargets": ["podcast-title", "podcast-description"],
                        "searchTermOptions": {"matchMode": "optional"}}]}),
                    ),
                )
                .await;
            hits += data["result"]["hitsReturned"].as_u64().unwrap_or(0);
            if let Some(object) = data.as_object_mut() {
                object.remove("searchId");
            }
            answers.push(without_timings(data));
        }
    }
    (answers, hits)
}

fn catalog_counts(data_dir: &Path) -> String {
    let catalog = podlens_data::Catalog::open(data_dir).expect("catalog opens");
    format!("{:?}", catalog.counts().expect("counts"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_backup_taken_while_serving_restores_everything_committed_before_it() {
    let root = tempfile::tempdir().expect("tempdir");
    let (data, key) = data_dir(root.path());
    let server = serve(&data);
    let client = Client::new(&server);
    assert!(
        data.join("serve.json").exists(),
        "the control file is written"
    );

    // Writes go on before, during and after the backup.
    let stop = Arc::new(AtomicBool::new(false));
    let session = client.sign_in(&data, "owner@example.com").await;
    let writer = tokio::spawn(keep_writing(
        client.clone(),
        key.clone(),
        session,
        stop.clone(),
    ));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let backup_dir = root.path().join("backup");
    let started = Instant::now();
    let (backup_data, backup_out) = (data.clone(), backup_dir.clone());
    let stdout = tokio::task::spawn_blocking(move || {
        succeed(
            &["backup", "--out", backup_out.to_str().unwrap()],
            &backup_data,
        )
    })
    .await
    .unwrap();
    let finished = Instant::now();
    assert!(stdout.contains("made by server"), "{stdout}");
    tokio::time::sleep(Duration::from_millis(800)).await;
    stop.store(true, Ordering::Relaxed);
    let written = writer.await.unwrap();
    let before: Vec<&Written> = written.iter().filter(|w| w.answered < started).collect();
    let after: Vec<&Written> = written.iter().filter(|w| w.sent > finished).collect();
    let during = written.len() - before.len() - after.len();
    assert!(
        before.len() >= 6,
        "writes before the backup: {}",
        before.len()
    );
    assert!(!after.is_empty(), "writes after the backup");
    eprintln!(
        "writes: {} before, {during} during, {} after the backup",
        before.len(),
        after.len()
    );
    assert!(
        !data
            .join("backup-staging")
            .read_dir()
            .is_ok_and(|mut entries| entries.next().is_some()),
        "the staged copy was moved out"
    );

    // Restoring over the directory the server uses is refused.
    let refused = podlens(
        &["restore", "--from", backup_dir.to_str().unwrap(), "--force"],
        &data,
    );
    assert!(!refused.status.success());
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(
        message.contains("in use by the podlens server"),
        "{message}"
    );

    let restored = root.path().join("restored");
    let stdout = succeed(
        &["restore", "--from", backup_dir.to_str().unwrap()],
        &restored,
    );
    assert!(stdout.contains("restored"), "{stdout}");
    let second = serve(&restored);
    let restored_client = Client::new(&second);

    for write in &before {
        match write.kind {
            "project" => {
                let path = format!("/api/v1/projects/{}/details", write.id);
                let original = client.data("GET", &path, &key, None).await;
                let copy = restored_client.data("GET", &path, &key, None).await;
                assert_eq!(original, copy, "project {}", write.id);
            }
            "alert" => {
                let path = format!("/api/v1/alerts/alert-config/{}", write.id);
                let original = client.data("GET", &path, &key, None).await;
                let copy = restored_client.data("GET", &path, &key, None).await;
                assert_eq!(alert_settings(&original), alert_settings(&copy));
            }
            _ => {
                let (status, _) = restored_client
                    .call("GET", "/api/v1/teams/api-keys", &write.id, None)
                    .await;
                assert_eq!(status, 200, "a key created before the backup works");
            }
        }
    }
    for write in &after {
        match write.kind {
            "project" => {
                let path = format!("/api/v1/projects/{}/details", write.id);
                let (status, _) = restored_client.call("GET", &path, &key, None).await;
                assert_eq!(
                    status, 404,
                    "project {} was created after the backup",
                    write.id
                );
            }
            "alert" => {
                let path = format!("/api/v1/alerts/alert-config/{}", write.id);
                let (status, _) = restored_client.call("GET", &path, &key, None).await;
                assert_eq!(
                    status, 404,
                    "alert {} was created after the backup",
                    write.id
                );
            }
            _ => {
                let (status, _) = restored_client
                    .call("GET", "/api/v1/teams/api-keys", &write.id, None)
                    .await;
                assert_eq!(status, 401, "a key created after the backup is unknown");
            }
        }
    }
    // The lists hold exactly the projects of the backup: all of before, some of during.
    let listed = restored_client
        .data("GET", "/api/v1/projects", &key, None)
        .await;
    let listed = serde_json::to_string(&listed).unwrap();
    let projects_before = before.iter().filter(|w| w.kind == "project").count();
    let projects_possible = written
        .iter()
        .filter(|w| w.kind == "project" && w.sent <= finished)
        .count();
    let slugs_listed = written
        .iter()
        .filter(|w| w.kind == "project" && listed.contains(&format!("\"{}\"", w.id)))
        .count();
    assert!(
        (projects_before..=projects_possible).contains(&slugs_listed),
        "{slugs_listed} projects restored, expected {projects_before}..={projects_possible}"
    );

    let words = title_words(&data);
    let (original_answers, hits) = searches(&client, &key, &words).await;
    assert!(hits > 0, "the searches for {words:?} find something");
    assert_eq!(
        original_answers,
        searches(&restored_client, &key, &words).await.0
    );
    drop(second);
    drop(server);
    assert_eq!(catalog_counts(&data), catalog_counts(&restored));
}

#[test]
fn a_corrupted_backup_file_is_refused_by_name_and_nothing_is_restored() {
    let root = tempfile::tempdir().expect("tempdir");
    let (data, _key) = data_dir(root.path());
    let backup_dir = root.path().join("backup");
    let stdout = succeed(&["backup", "--out", backup_dir.to_str().unwrap()], &data);
    assert!(
        stdout.contains("made by direct"),
        "no server runs: {stdout}"
    );

    let parquet = backup_dir.join("parquet").join("episodes.parquet");
    let mut bytes = std::fs::read(&parquet).expect("backed-up snapshot");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x5a;
    std::fs::write(&parquet, bytes).unwrap();

    let restored = root.path().join("restored");
    let refused = podlens(
        &["restore", "--from", backup_dir.to_str().unwrap()],
        &restored,
    );
    assert!(!refused.status.success());
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(
        message.contains("backup file parquet/episodes.parquet is corrupt"),
        "{message}"
    );
    assert!(!restored.exists(), "nothing was restored");

    // A non-empty directory is refused without --force, and replaced with it.
    let fresh = root.path().join("fresh-backup");
    succeed(&["backup", "--out", fresh.to_str().unwrap()], &data);
    std::fs::create_dir_all(&restored).unwrap();
    std::fs::write(restored.join("stray.txt"), b"x").unwrap();
    let refused = podlens(&["restore", "--from", fresh.to_str().unwrap()], &restored);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("is not empty"));
    succeed(
        &["restore", "--from", fresh.to_str().unwrap(), "--force"],
        &restored,
    );
    assert!(!restored.join("stray.txt").exists());
    assert_eq!(catalog_counts(&data), catalog_counts(&restored));
}
