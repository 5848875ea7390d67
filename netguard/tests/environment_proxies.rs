//! A proxy named by the environment (`HTTP_PROXY`, `ALL_PROXY`, …) resolves the target
//! itself, where the guard cannot see it: a [`GuardedClient`] never uses one, while a
//! plain reqwest client (as team webhooks used to be built) sends its request to it.
//!
//! The environment is set on a child process (this test binary again, running the
//! ignored `child_*` test), since a test cannot change its own environment safely.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use podlens_netguard::{AddressPolicy, GuardedClient, Redirects};

/// A server on loopback that records the request line of everything it receives and
/// answers 200.
fn recorder() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            if reader.read_line(&mut line).is_err() {
                continue;
            }
            record.lock().unwrap().push(line.trim().to_owned());
            loop {
                let mut header = String::new();
                if reader.read_line(&mut header).unwrap_or(0) == 0 || header == "\r\n" {
                    break;
                }
            }
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
        }
    });
    (address, seen)
}

#[test]
fn environment_proxies_are_never_used() {
    let (proxy, through_proxy) = recorder();
    let (target, direct) = recorder();
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "child_requests_with_proxies_in_the_environment",
            "--exact",
            "--ignored",
            "--nocapture",
        ])
        .env("NETGUARD_TEST_TARGET", format!("http://{target}"))
        .env("HTTP_PROXY", format!("http://{proxy}"))
        .env("http_proxy", format!("http://{proxy}"))
        .env("HTTPS_PROXY", format!("http://{proxy}"))
        .env("ALL_PROXY", format!("http://{proxy}"))
        .env_remove("NO_PROXY")
        .env_remove("no_proxy")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let through_proxy = through_proxy.lock().unwrap().clone();
    let direct = direct.lock().unwrap().clone();
    assert_eq!(
        direct,
        ["GET /guarded HTTP/1.1"],
        "proxy saw {through_proxy:?}"
    );
    // The control: the environment's proxy is really there for a client that uses it.
    assert_eq!(through_proxy.len(), 1, "{through_proxy:?}");
    assert!(through_proxy[0].contains("/plain"), "{through_proxy:?}");
}

#[test]
#[ignore = "run by environment_proxies_are_never_used with proxies in its environment"]
fn child_requests_with_proxies_in_the_environment() {
    let target = std::env::var("NETGUARD_TEST_TARGET").expect("run by the parent test");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let policy = AddressPolicy {
            allow_private: false,
            allowed_addresses: vec!["127.0.0.1".parse().unwrap()],
        };
        let guarded = GuardedClient::build(policy, Redirects::Never, |builder| builder).unwrap();
        let url = url::Url::parse(&format!("{target}/guarded")).unwrap();
        let answer = guarded.get(&url).unwrap().send().await.unwrap();
        assert_eq!(answer.status(), 200);

        let plain = reqwest::Client::new();
        let answer = plain.get(format!("{target}/plain")).send().await.unwrap();
        assert_eq!(answer.status(), 200);
    });
}
