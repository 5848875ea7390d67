//! Two API nodes over one application store (PostgreSQL when
//! `PODLENS_TEST_DATABASE_URL` names a server, as CI's PostgreSQL pass does; else one
//! SQLite database both open), each over its own copy of the data directory and on a
//! socket of its own: what one node writes the other sees, plan caps hold across both
//! under parallel requests, one node leads the background jobs, and a feed refreshed
//! through one node reaches the other's catalog.

mod common;
mod workflows_http;

use std::path::Path;
use std::sync::Arc;

use chrono::Utc;
use podlens_api::AppState;
use podlens_api::server::open_state_with;
use podlens_data::Catalog;
use podlens_store::{Backend, Database};
use serde_json::{Value, json};
use workflows_http::{Http, serve};

/// Copies the directory tree at `from` to `to`, following links (the snapshot's
/// `parquet` is a link to its current generation).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if std::fs::metadata(entry.path()).unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A node over its own copy of the fixture's snapshot and index.
fn node(database: Arc<Database>) -> (AppState, tempfile::TempDir) {
    let shared = common::shared();
    let own = tempfile::tempdir().unwrap();
    for entry in ["parquet", "index"] {
        copy_tree(&shared.dir.join(entry), &own.path().join(entry));
    }
    let state = open_state_with(own.path().to_path_buf(), None, database).unwrap();
    (state, own)
}

async fn two_nodes() -> (Http, Http, Backend) {
    let first = Arc::new(Database::for_tests().unwrap());
    let second = Arc::new(first.reopen().unwrap());
    let backend = first.backend();
    let (a, a_dir) = node(first);
    let (b, b_dir) = node(second);
    for state in [&a, &b] {
        // As `podlens serve` does: capped calls are written and the blocks a node does
        // not use are given back every second, for the other node's callers.
        podlens_app::accounts::quota::spawn_flusher(state.quotas.clone());
    }
    (serve(a, a_dir).await, serve(b, b_dir).await, backend)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn what_one_node_writes_the_other_sees_and_caps_hold_across_both() {
    let (a, b, _) = two_nodes().await;

    // A key made on one node works on the other; a project made on one is listed on
    // the other.
    let key = a.key("two-nodes@example.com", "business");
    let made = a
        .call(
            "PUT",
            "/api/v1/projects",
            &key,
            Some(json!({"name": "Made on A"})),
        )
        .await;
    made.data();
    let listed = b.get("/api/v1/projects", &key).await;
    let names: Vec<&str> = listed.data()["projects"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|project| project["name"].as_str())
        .collect();
    assert_eq!(names, ["Made on A"]);

    // Parallel project creations sent to both nodes stop at the business plan's 5 in
    // all (one exists already).
    let calls = (0..16).map(|n| {
        let node = if n % 2 == 0 { &a } else { &b };
        node.call(
            "PUT",
            "/api/v1/projects",
            &key,
            Some(json!({"name": format!("Race {n:02}")})),
        )
    });
    let answers = futures_util::future::join_all(calls).await;
    let created = answers.iter().filter(|answer| answer.status == 200).count();
    assert_eq!(created, 4, "projects created beside the first");
    for refused in answers.iter().filter(|answer| answer.status != 200) {
        assert_eq!(refused.status, 403, "{}", refused.body);
        assert!(
            refused.message().starts_with("Project limit reached"),
            "{}",
            refused.body
        );
    }
    for node in [&a, &b] {
        let listed = node.get("/api/v1/projects", &key).await;
        assert_eq!(listed.data()["projects"].as_array().unwrap().len(), 5);
    }

    // The public tier's 20 searches a day per address, asked 30 times at once through
    // both nodes by one signed-out visitor: exactly 20 answered, the others refused
    // with 429.
    let client = reqwest::Client::new();
    let body = json!({"searchTerms": [{"searchTerm": "history", "searchType": "text",
        "searchTargets": ["podcast-title", "podcast-description"]}]})
    .to_string();
    let searches = (0..30).map(|n| {
        let node = if n % 2 == 0 { &a } else { &b };
        node.send(
            client
                .post(format!("{}/api/v1/search/podcasts", node.base))
                .header("content-type", "application/json")
                .body(body.clone()),
        )
    });
    let answers = futures_util::future::join_all(searches).await;
    let answered: Vec<_> = answers.iter().filter(|a| a.status == 200).collect();
    assert_eq!(answered.len(), 20, "{}", answers[0].body);
    assert!(
        answers
            .iter()
            .filter(|a| a.status != 200)
            .all(|a| a.status == 429),
        "{:?}",
        answers.iter().map(|a| a.status).collect::<Vec<_>>()
    );
    // Each answer reports its place in the day's 20 (two nodes' places can repeat
    // once one gave unused places back, but none is past the cap).
    assert!(
        answered
            .iter()
            .all(|answer| (1..=20).contains(&answer.usage_count().expect("x-usage-count"))),
        "{:?}",
        answered.iter().map(|a| a.usage_count()).collect::<Vec<_>>()
    );
}

/// One signed-out search through node A, then the rest of the public tier's 20 a day
/// through node B one at a time: B's caller gets all 19, the last three from the block
/// A reserved and left unused (A gives it back with a batch while B's caller is asked
/// again), and the 21st search is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn places_a_node_reserved_and_left_unused_go_to_the_other_nodes_callers() {
    let (a, b, _) = two_nodes().await;
    let client = reqwest::Client::new();
    async fn search(client: &reqwest::Client, node: &Http) -> u16 {
        let body = json!({"searchTerms": [{"searchTerm": "linux", "searchType": "text",
            "searchTargets": ["podcast-title", "podcast-description"]}]})
        .to_string();
        let request = client
            .post(format!("{}/api/v1/search/podcasts", node.base))
            .header("content-type", "application/json")
            .body(body);
        node.send(request).await.status
    }
    assert_eq!(search(&client, &a).await, 200);
    let mut statuses = Vec::new();
    for _ in 0..20 {
        statuses.push(search(&client, &b).await);
    }
    let mut expected = vec![200; 19];
    expected.push(429);
    assert_eq!(statuses, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_node_leads_the_jobs_and_another_takes_over_when_it_stops() {
    let (a, b, backend) = two_nodes().await;
    let mut leaders = 0;
    for node in [&a, &b] {
        if node.state.cluster.check_leadership().await.0 {
            leaders += 1;
        }
    }
    if backend == Backend::Sqlite {
        // One node per SQLite store: it always leads.
        assert_eq!(leaders, 2);
        return;
    }
    assert_eq!(leaders, 1);
    let (leader, follower) = if a.state.cluster.is_leader() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    // An alert made through the follower: its first run there stores the matches and
    // their pending deliveries; the follower sends none of them, the leader sends them.
    let key = follower.key("leader@example.com", "business");
    let made = follower
        .post(
            "/api/v1/alerts/alert-config",
            &key,
            json!({"alertName": "Linux watch", "alertType": "custom-keyword", "value": "Linux"}),
        )
        .await;
    let alert_id = made.data()["createdAlertConfig"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let deliveries = |node: &Http| {
        let state = node.state.clone();
        let alert_id = alert_id.clone();
        async move { state.workflows.alert_deliveries(&alert_id).await.unwrap() }
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while deliveries(follower).await.is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "no deliveries from the alert's first run"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let report =
        podlens_app::workflows::delivery::deliver_pending(&follower.state.delivery_passes())
            .await
            .unwrap();
    assert_eq!(report, Default::default());
    let pending = deliveries(follower).await;
    let statuses: Vec<&str> = pending.iter().map(|d| d.status.as_str()).collect();
    assert!(
        statuses.iter().all(|status| *status == "pending"),
        "{statuses:?}"
    );
    let report = podlens_app::workflows::delivery::deliver_pending(&leader.state.delivery_passes())
        .await
        .unwrap();
    assert_eq!(report.sent as usize, pending.len(), "{report:?}");
    assert!(
        deliveries(follower)
            .await
            .iter()
            .all(|delivery| delivery.status == "sent")
    );
    leader.state.cluster.resign().await;
    assert_eq!(
        follower.state.cluster.check_leadership().await,
        (true, true)
    );
    assert!(!leader.state.cluster.check_leadership().await.0);
}

const FEED: &str = "gnome-podcasts_2018-01-20-StealTheStars.xml";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_feed_refreshed_through_one_node_reaches_the_other() {
    // A catalog of one podcast read from a feed served on loopback, less its newest
    // item; each node gets a copy.
    let full = std::fs::read_to_string(common::fixture::corpus_dir().join("feeds").join(FEED))
        .expect("corpus feed");
    let newest_title = regex::Regex::new(r"(?s)<item>.*?<title>(.*?)</title>")
        .unwrap()
        .captures(&full)
        .unwrap()[1]
        .to_owned();
    let feeds = tempfile::tempdir().unwrap();
    std::fs::write(
        feeds.path().join("show.xml"),
        common::without_first_item(&full),
    )
    .unwrap();
    let feeds_base = common::serve_files(feeds.path().to_path_buf()).await;
    let first_dir = tempfile::tempdir().unwrap();
    let podcast_id = {
        let mut catalog = Catalog::open(first_dir.path()).unwrap();
        let bytes = std::fs::read(feeds.path().join("show.xml")).unwrap();
        let parsed = podlens_ingest::parse_feed(&bytes, None).unwrap();
        let batch =
            podlens_ingest::normalize(&parsed, &format!("{feeds_base}/show.xml"), Utc::now());
        catalog.upsert_feed(&batch).unwrap();
        catalog.export_parquet().unwrap();
        batch.podcast.podcast_id
    };
    let second_dir = tempfile::tempdir().unwrap();
    copy_tree(first_dir.path(), second_dir.path());

    let first = Arc::new(Database::for_tests().unwrap());
    let second = Arc::new(first.reopen().unwrap());
    let mut a = open_state_with(first_dir.path().to_path_buf(), None, first).unwrap();
    a.refresher = Arc::new(
        podlens_app::refresh::FeedRefresher::new(first_dir.path().to_path_buf())
            .allowing_addresses(vec![std::net::Ipv4Addr::LOCALHOST.into()]),
    );
    let b = open_state_with(second_dir.path().to_path_buf(), None, second).unwrap();
    let a = serve(a, first_dir).await;
    let b = serve(b, second_dir).await;
    let key = a.key("refresh-two@example.com", "business");
    async fn newest(node: &Http, podcast_id: uuid::Uuid, key: &str) -> Value {
        let answer = node
            .get(&format!("/api/v1/podcasts/{podcast_id}/episodes"), key)
            .await;
        answer.data()["podcastWithEpisodes"]["episodes"][0]["title"].clone()
    }
    let episodes = |node| newest(node, podcast_id, &key);
    assert_ne!(episodes(&b).await, Value::from(newest_title.as_str()));

    // The feed gains its newest item; a refresh through A stores it there …
    std::fs::write(feeds.path().join("show.xml"), &full).unwrap();
    let refreshed = a
        .get(&format!("/api/v1/podcasts/{podcast_id}/refresh"), &key)
        .await;
    assert_eq!(refreshed.data()["success"], true, "{}", refreshed.body);
    assert_eq!(episodes(&a).await, Value::from(newest_title.as_str()));

    // … and B applies it from the change log; A applies its own change again in log
    // order, which changes nothing it serves.
    let state = b.state.clone();
    let applied = podlens_app::services::jobs::apply_changes(&state)
        .await
        .unwrap();
    assert_eq!(applied, 1);
    let state = a.state.clone();
    let own = podlens_app::services::jobs::apply_changes(&state)
        .await
        .unwrap();
    assert_eq!(own, 0, "changes from other nodes applied on A");
    assert_eq!(episodes(&a).await, Value::from(newest_title.as_str()));
    assert_eq!(episodes(&b).await, Value::from(newest_title.as_str()));
    assert_eq!(
        podlens_app::cluster::applied_position(&b.state.data_dir).unwrap(),
        1,
        "B's position in the change log"
    );
}
