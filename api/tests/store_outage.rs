//! PostgreSQL stopped under load and started again (CI's PostgreSQL pass, where
//! `scripts/with-postgres.sh` names the cluster's control script in
//! `PODLENS_TEST_POSTGRES_CONTROL`): requests that need the store meanwhile get 503
//! with the spec'd message — never another 5xx — the server recovers by itself once the
//! database is back, and every project is either wholly there or not at all.

mod common;
mod workflows_http;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::json;

const UNAVAILABLE: &str = "The application database is unavailable; try again shortly.";

fn control(action: &str) {
    let script = std::env::var("PODLENS_TEST_POSTGRES_CONTROL").unwrap();
    let status = std::process::Command::new(script)
        .arg(action)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "postgres {action}: {status:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_stopped_under_load_gives_503_and_the_server_recovers_by_itself() {
    if std::env::var("PODLENS_TEST_POSTGRES_CONTROL").is_err() {
        eprintln!(
            "skipped: run under scripts/with-postgres.sh, which can stop and start its cluster"
        );
        return;
    }
    let http = Arc::new(workflows_http::start().await);
    let key = http.key("outage@example.com", "admin");
    let stop = Arc::new(AtomicBool::new(false));
    // Four clients create projects one after another until told to stop; each keeps
    // the names it was told were created and counts the 503s.
    let workers: Vec<_> = (0..4)
        .map(|worker| {
            let http = http.clone();
            let key = key.clone();
            let stop = stop.clone();
            tokio::spawn(async move {
                let mut created = Vec::new();
                let mut unavailable = 0;
                let mut last_status = 0;
                let mut n = 0;
                while !stop.load(Ordering::Acquire) {
                    let name = format!("Outage {worker}-{n:04}");
                    n += 1;
                    let answer = http
                        .call("PUT", "/api/v1/projects", &key, Some(json!({"name": name})))
                        .await;
                    last_status = answer.status;
                    match answer.status {
                        200 => created.push(name),
                        503 => {
                            assert_eq!(answer.message(), UNAVAILABLE, "{}", answer.body);
                            unavailable += 1;
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                        other => panic!("{other} during the outage: {}", answer.body),
                    }
                }
                (created, unavailable, last_status)
            })
        })
        .collect();

    tokio::time::sleep(Duration::from_secs(1)).await;
    tokio::task::spawn_blocking(|| control("stop"))
        .await
        .unwrap();
    // Longer than a call waits for a connection, so the calls that arrive meanwhile
    // are answered 503 too, not only those whose sessions the stop cut.
    tokio::time::sleep(podlens_store::ACQUIRE_TIMEOUT + Duration::from_secs(1)).await;
    tokio::task::spawn_blocking(|| control("start"))
        .await
        .unwrap();
    // The pool reconnects by itself: give the clients a few seconds of service.
    tokio::time::sleep(Duration::from_secs(4)).await;
    stop.store(true, Ordering::Release);

    let mut created = BTreeSet::new();
    let mut unavailable = 0;
    for worker in workers {
        let (names, refused, last_status) = worker.await.unwrap();
        assert_eq!(
            last_status, 200,
            "a client was still refused after the restart"
        );
        created.extend(names);
        unavailable += refused;
    }
    assert!(unavailable > 0, "no request met the outage");
    let listed = http.get("/api/v1/projects", &key).await;
    let listed: BTreeSet<String> = listed.data()["projects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|project| project["name"].as_str().unwrap().to_owned())
        .collect();
    let unanswered: Vec<_> = listed.difference(&created).collect();
    let lost: Vec<_> = created.difference(&listed).collect();
    assert!(
        unanswered.is_empty() && lost.is_empty(),
        "stored without a 200: {unanswered:?}; answered 200 but not stored: {lost:?}"
    );
}
