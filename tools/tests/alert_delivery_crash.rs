//! Alert delivery survives `kill -9`: `podlens serve` (a child process, with
//! `--allow-private` so it may post to a loopback receiver) is killed with SIGKILL while
//! it is posting an alert's matches to a team webhook — the receiver holds that request
//! open and the kill lands once the receiver has it — then started again over the same
//! data directory. Afterwards every match was delivered by webhook and by e-mail (the
//! outbox), the outbox holds the e-mail once, the webhook's repeat carries the same
//! delivery id and body, and nothing was matched or delivered anew.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const FEEDS: &[&str] = &[
    "gnome-podcasts_2018-01-20-LinuxUnplugged.xml",
    "gnome-podcasts_2020-12-19-LinuxUnplugged.xml",
    "feed-rs_rss_2.0_nightvale.xml",
];
const KEYWORD: &str = "Linux";
const EMAIL: &str = "crash-delivery@example.com";
/// How long any one wait may take before the test fails.
const PATIENCE: Duration = Duration::from_secs(120);

fn podlens(data_dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_podlens"));
    command.arg("--no-progress").arg("--data-dir").arg(data_dir);
    command
}

fn run(data_dir: &Path, args: &[&str]) -> String {
    let output = podlens(data_dir)
        .args(args)
        .stderr(Stdio::inherit())
        .output()
        .expect("podlens runs");
    assert!(output.status.success(), "podlens {args:?} failed");
    String::from_utf8(output.stdout).expect("utf-8")
}

/// A data directory with real corpus feeds ingested and indexed, and an API key.
fn fixture(dir: &Path) -> (PathBuf, String) {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/feeds");
    let data_dir = dir.join("data");
    let mut ingest = vec!["ingest".to_owned(), "--no-transcripts".to_owned()];
    ingest.extend(
        FEEDS
            .iter()
            .map(|name| corpus.join(name).display().to_string()),
    );
    let ingest: Vec<&str> = ingest.iter().map(String::as_str).collect();
    run(&data_dir, &ingest);
    run(&data_dir, &["index", "--no-vectors", "--shards", "1"]);
    let printed = run(
        &data_dir,
        &["keys", "create", "--email", EMAIL, "--plan", "business"],
    );
    let key = printed.lines().last().expect("a key").trim().to_owned();
    (data_dir, key)
}

/// `podlens serve` on a free port; its address once it listens.
fn serve(data_dir: &Path) -> (Child, SocketAddr) {
    let mut child = podlens(data_dir)
        .args(["serve", "--port", "0", "--allow-private"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("podlens serve starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let line = lines.next().expect("a line").expect("readable stdout");
    let address = line
        .strip_prefix("podlens listening on http://")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .parse()
        .expect("an address");
    // Keep draining stdout so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (child, address)
}

/// Reads one HTTP/1.1 message (head and a Content-Length or chunked body).
fn read_message(stream: &mut TcpStream) -> Option<(String, Vec<u8>)> {
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let header = |name: &str| {
        head.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.trim()
                .eq_ignore_ascii_case(name)
                .then(|| value.trim().to_owned())
        })
    };
    let mut body = Vec::new();
    if let Some(length) = header("content-length") {
        body.resize(length.parse().ok()?, 0);
        reader.read_exact(&mut body).ok()?;
    } else if header("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).ok()?;
            let size = usize::from_str_radix(size.trim(), 16).ok()?;
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk).ok()?;
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    }
    Some((head, body))
}

/// One JSON call to the server; the status and the envelope.
fn call(
    address: SocketAddr,
    method: &str,
    path: &str,
    key: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut stream = TcpStream::connect(address).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nAuthorization: {key}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("request written");
    let (head, body) = read_message(&mut stream).expect("an answer");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .expect("a status");
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

fn data(answer: (u16, Value)) -> Value {
    assert_eq!(answer.0, 200, "{}", answer.1);
    answer.1["data"].clone()
}

/// A webhook delivery as the receiver saw it.
#[derive(Debug, Clone)]
struct Delivery {
    id: String,
    body: Vec<u8>,
}

/// A webhook receiver on loopback. It holds the first request open without
/// answering (reporting it on the returned channel) and answers 200 to every later
/// one (also reported).
fn receiver() -> (SocketAddr, mpsc::Receiver<Delivery>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("address");
    let (report, reports) = mpsc::channel();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let Some((head, body)) = read_message(&mut stream) else {
                continue;
            };
            let id = head
                .lines()
                .find_map(|line| {
                    let (key, value) = line.split_once(':')?;
                    key.eq_ignore_ascii_case("x-podlens-delivery")
                        .then(|| value.trim().to_owned())
                })
                .unwrap_or_default();
            let first = held.is_empty();
            let _ = report.send(Delivery { id, body });
            if first {
                // Never answered: the server is killed while it waits.
                held.push(stream);
            } else {
                let _ = stream.write_all(
                    b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok",
                );
            }
        }
    });
    (address, reports)
}

fn kill_9(mut child: Child) {
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
}

/// Polls `check` until it gives a value.
fn wait_until<T>(what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let started = Instant::now();
    loop {
        if let Some(value) = check() {
            return value;
        }
        assert!(started.elapsed() < PATIENCE, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn kept_matches(address: SocketAddr, key: &str, alert_id: &str) -> (u64, BTreeSet<String>) {
    let mut kept = BTreeSet::new();
    let mut total = 0;
    for page in 1.. {
        let answer = data(call(
            address,
            "GET",
            &format!("/api/v1/alerts/matches?alertConfigId={alert_id}&page={page}&pageSize=100"),
            key,
            None,
        ));
        total = answer["total"].as_u64().expect("total");
        let items = answer["matches"].as_array().cloned().unwrap_or_default();
        if items.is_empty() {
            break;
        }
        kept.extend(
            items
                .iter()
                .filter(|m| m["status"] == "kept")
                .map(|m| m["id"].as_str().expect("id").to_owned()),
        );
    }
    (total, kept)
}

/// The outbox messages that report this alert, as (file name, text).
fn alert_mails(data_dir: &Path) -> Vec<(String, String)> {
    let Ok(entries) = std::fs::read_dir(data_dir.join("outbox")) else {
        return Vec::new();
    };
    let mut mails: Vec<(String, String)> = entries
        .filter_map(Result::ok)
        .map(|entry| {
            (
                entry.file_name().to_string_lossy().into_owned(),
                std::fs::read_to_string(entry.path()).unwrap_or_default(),
            )
        })
        .filter(|(_, text)| text.contains("Subject: Alert \"Crash watch\""))
        .collect();
    mails.sort();
    mails
}

#[test]
fn kill_9_during_delivery_then_restart_delivers_everything_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (data_dir, key) = fixture(dir.path());
    let (hook_address, deliveries) = receiver();

    let (server, address) = serve(&data_dir);
    let created = data(call(
        address,
        "POST",
        "/api/v1/teams/webhooks",
        &key,
        Some(json!({"url": format!("http://{hook_address}/hook"), "events": ["alert_match"]})),
    ));
    let webhook_id = created["webhook"]["webhookId"].as_str().unwrap().to_owned();
    // Creating the alert matches it at once and starts delivering.
    let alert = data(call(
        address,
        "POST",
        "/api/v1/alerts/alert-config",
        &key,
        Some(json!({"alertName": "Crash watch", "alertType": "custom-keyword", "value": KEYWORD})),
    ));
    let alert_id = alert["createdAlertConfig"]["id"]
        .as_str()
        .unwrap()
        .to_owned();

    // The kill lands while the server waits for the receiver's answer.
    let first = deliveries
        .recv_timeout(PATIENCE)
        .expect("the webhook delivery arrives");
    let (total_before, kept_before) = kept_matches(address, &key, &alert_id);
    kill_9(server);
    assert!(!first.id.is_empty(), "the delivery id header is sent");
    let first_body: Value = serde_json::from_slice(&first.body).expect("JSON body");
    assert_eq!(first_body["id"], first.id.as_str());
    assert!(!kept_before.is_empty(), "the alert matched episodes");

    // Restarted, the server sends the interrupted delivery again, unchanged.
    let (server, address) = serve(&data_dir);
    let repeat = deliveries
        .recv_timeout(PATIENCE)
        .expect("the interrupted delivery is sent again");
    assert_eq!(
        repeat.id, first.id,
        "the repeat carries the same delivery id"
    );
    assert_eq!(repeat.body, first.body, "the repeat carries the same body");
    let listed = wait_until("the delivery to be recorded as sent", || {
        let answer = data(call(
            address,
            "GET",
            &format!("/api/v1/teams/webhooks/{webhook_id}/deliveries"),
            &key,
            None,
        ));
        let list = answer["deliveries"].as_array().cloned().unwrap_or_default();
        list.iter().all(|d| d["status"] == "sent").then_some(list)
    });
    assert_eq!(listed.len(), 1, "one delivery for the run: {listed:?}");
    assert_eq!(listed[0]["deliveryId"], first.id.as_str());
    assert_eq!(
        listed[0]["attempts"], 2,
        "the interrupted attempt and the repeat"
    );

    // Every stored match was delivered, and none was matched again.
    let (total_after, kept_after) = kept_matches(address, &key, &alert_id);
    assert_eq!(total_after, total_before, "nothing was matched again");
    assert!(
        kept_after == kept_before,
        "the same matches before and after"
    );
    let delivered: BTreeSet<String> = first_body["data"]["matches"]
        .as_array()
        .expect("matches")
        .iter()
        .map(|m| m["id"].as_str().expect("id").to_owned())
        .collect();
    assert!(
        delivered == kept_after,
        "every match is in the delivery: {} delivered, {} stored, {} not delivered, {} not stored",
        delivered.len(),
        kept_after.len(),
        kept_after.difference(&delivered).count(),
        delivered.difference(&kept_after).count()
    );
    for m in first_body["data"]["matches"].as_array().unwrap() {
        let mentioned = m["mentions"].as_array().unwrap().iter().any(|mention| {
            mention["snippet"]
                .as_str()
                .unwrap()
                .to_lowercase()
                .contains("linux")
        });
        assert!(mentioned, "{m}");
    }

    // The e-mail is in the outbox once, named after its delivery, listing every match.
    let mails = alert_mails(&data_dir);
    assert_eq!(
        mails.len(),
        1,
        "{:?}",
        mails.iter().map(|m| &m.0).collect::<Vec<_>>()
    );
    let (name, text) = &mails[0];
    assert!(text.contains(&format!("To: {EMAIL}")), "{text}");
    let delivery_id = text
        .lines()
        .find_map(|line| line.strip_prefix("X-Podlens-Delivery: "))
        .expect("the delivery id header")
        .trim();
    assert!(name.ends_with(&format!("-{delivery_id}.eml")), "{name}");
    assert!(
        text.contains(&format!("matched {} new episode", kept_after.len())),
        "{text}"
    );

    // A third start delivers nothing more.
    kill_9(server);
    let (server, _) = serve(&data_dir);
    std::thread::sleep(Duration::from_secs(2));
    kill_9(server);
    assert!(
        deliveries.try_recv().is_err(),
        "no further webhook delivery after it was recorded"
    );
    assert_eq!(alert_mails(&data_dir).len(), 1, "no e-mail written twice");
}
