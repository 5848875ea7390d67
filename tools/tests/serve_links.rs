//! The links `podlens serve` mails (sign-up, sign-in) point at the origin its
//! configuration gives, `--public-url` or the address it is bound to, whatever `Host`
//! header a client sends; bound to `0.0.0.0` without `--public-url`, it refuses to mail
//! them and says what to set. The session cookie is `Secure` when the public URL is
//! https.

#![cfg(unix)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use podlens_app::mail::Outbox;

/// A running `podlens serve` (killed when dropped).
struct Server {
    child: Child,
    /// Where to connect (loopback, even when bound to every address).
    connect: String,
    /// The address printed at start.
    listening: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(data_dir: &Path, flags: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_podlens"))
        .args(["--no-progress", "--log", "warn"])
        .args(["serve", "--port", "0", "--no-poll", "--data-dir"])
        .arg(data_dir)
        .args(flags)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("listening line");
    let listening = line
        .trim()
        .strip_prefix("podlens listening on http://")
        .unwrap_or_else(|| panic!("{line:?}"))
        .to_owned();
    let port = listening.rsplit(':').next().unwrap();
    Server {
        child,
        connect: format!("127.0.0.1:{port}"),
        listening,
    }
}

/// One HTTP/1.1 exchange with the raw `host` header given: the status, the headers
/// (lowercased names) and the body.
fn exchange(
    server: &Server,
    method: &str,
    path: &str,
    host: &str,
    body: &str,
) -> (u16, Vec<(String, String)>, String) {
    let mut stream = TcpStream::connect(&server.connect).expect("connects");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head");
    let mut lines = head.lines();
    let status = lines.next().unwrap()[9..12].parse().unwrap();
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    (status, headers, body.to_owned())
}

/// Asks `path` (sign-in or sign-up) for a link to `email`, sending `host` as the Host
/// header: the status and the body.
fn ask_for_link(server: &Server, path: &str, host: &str, email: &str) -> (u16, String) {
    let (status, _, body) = exchange(
        server,
        "POST",
        path,
        host,
        &format!(r#"{{"email":"{email}"}}"#),
    );
    (status, body)
}

/// The link (up to `?key=`) and the key of the newest message of the outbox.
fn newest_link(data_dir: &Path) -> (String, String) {
    let messages = Outbox::in_data_dir(data_dir).messages().expect("outbox");
    let newest = messages.last().expect("a message was mailed");
    let text = std::fs::read_to_string(newest).unwrap();
    let start = text.find("http").expect("a link");
    let link = text[start..].split_whitespace().next().unwrap();
    let (page, key) = link.split_once("?key=").expect("a key");
    (page.to_owned(), key.chars().take(64).collect())
}

#[test]
fn sign_in_links_ignore_the_request_host() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve(dir.path(), &[]);
    for host in ["evil.example", "evil.example:8080", "127.0.0.1:1"] {
        let (status, body) =
            ask_for_link(&server, "/api/v1/auth/sign-in", host, "victim@example.com");
        assert_eq!(status, 200, "{body}");
        let (page, _) = newest_link(dir.path());
        assert_eq!(
            page,
            format!("http://{}/sign-up/validate", server.listening),
            "Host {host}"
        );
    }
    drop(server);

    // With --public-url, links point there, and the session cookie is Secure.
    let dir = tempfile::tempdir().unwrap();
    let server = serve(
        dir.path(),
        &["--public-url", "https://podlens.example.com/"],
    );
    let (status, body) = ask_for_link(
        &server,
        "/api/v1/auth/sign-up",
        "evil.example",
        "new@example.com",
    );
    assert_eq!(status, 200, "{body}");
    let (page, key) = newest_link(dir.path());
    assert_eq!(page, "https://podlens.example.com/sign-up/validate");
    let (status, headers, body) = exchange(
        &server,
        "POST",
        "/api/v1/auth/validate",
        "podlens.example.com",
        &format!(r#"{{"key":"{key}"}}"#),
    );
    assert_eq!(status, 200, "{body}");
    let cookie = headers
        .iter()
        .find(|(name, _)| name == "set-cookie")
        .map(|(_, value)| value.clone())
        .expect("a session cookie");
    assert!(
        cookie.split(';').any(|part| part.trim() == "Secure"),
        "{cookie}"
    );
}

#[test]
fn links_are_refused_on_an_unspecified_bind_address_without_a_public_url() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = serve(dir.path(), &["--bind", "0.0.0.0"]);
    assert!(
        server.listening.starts_with("0.0.0.0:"),
        "{}",
        server.listening
    );
    let (status, body) = ask_for_link(
        &server,
        "/api/v1/auth/sign-in",
        &server.connect.clone(),
        "someone@example.com",
    );
    assert_eq!(status, 503, "{body}");
    let body: serde_json::Value = serde_json::from_str(&body).unwrap();
    let message = body["data"]["message"].as_str().unwrap();
    assert!(message.contains("--public-url"), "{message}");
    assert!(!message.contains('\n'), "one line: {message}");
    assert!(
        Outbox::in_data_dir(dir.path())
            .messages()
            .unwrap_or_default()
            .is_empty(),
        "nothing mailed"
    );
    // The operator is told at start too.
    let _ = server.child.kill();
    let _ = server.child.wait();
    let mut log = String::new();
    server
        .child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    assert!(log.contains("--public-url"), "{log}");

    // The same bind address with --public-url mails links to the public URL.
    let dir = tempfile::tempdir().unwrap();
    let server = serve(
        dir.path(),
        &[
            "--bind",
            "0.0.0.0",
            "--public-url",
            "http://podlens.lan:8080",
        ],
    );
    let (status, body) = ask_for_link(
        &server,
        "/api/v1/auth/sign-in",
        "evil.example",
        "someone@example.com",
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        newest_link(dir.path()).0,
        "http://podlens.lan:8080/sign-up/validate"
    );
}
