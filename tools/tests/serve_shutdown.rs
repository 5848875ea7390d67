//! `podlens serve` stops cleanly on SIGTERM (what service managers send), and
//! `--log-format json` writes every log line as one JSON object.

#![cfg(unix)]

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn sigterm_stops_the_server_cleanly_and_json_logs_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_podlens"))
        .args(["--no-progress", "--log-format", "json", "--log", "info"])
        .args(["serve", "--port", "0", "--data-dir"])
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("listening line");
    assert!(line.starts_with("podlens listening on "), "{line:?}");
    let address = line
        .trim()
        .trim_start_matches("podlens listening on ")
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    // A request is answered before the signal.
    let mut stream = std::net::TcpStream::connect(&address).expect("connects");
    std::io::Write::write_all(
        &mut stream,
        b"GET /api/v1/public/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");

    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "still running 30 s after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");

    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let events: Vec<serde_json::Value> = stderr
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            serde_json::from_str(line).unwrap_or_else(|error| panic!("not JSON ({error}): {line}"))
        })
        .collect();
    let shutdown = events
        .iter()
        .find(|event| {
            event["message"]
                .as_str()
                .is_some_and(|message| message.starts_with("shutting down"))
        })
        .unwrap_or_else(|| panic!("no shutdown event in {stderr}"));
    assert_eq!(shutdown["signal"], "SIGTERM");
    assert_eq!(shutdown["level"], "INFO");
}
