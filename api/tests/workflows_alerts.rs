//! Alerts over HTTP on a real socket: configuration CRUD with its validation and the
//! plan cap, the alerts job matching the fixture catalog (checked against the feeds
//! and the transcript read independently), matches, history and polling events.

mod common;
mod workflows_http;

use std::collections::BTreeSet;

use podlens_app::services::jobs::run_alerts;
use serde_json::{Value, json};
use workflows_http::{Http, start};

fn alert(name: &str, kind: &str, value: &str) -> Value {
    json!({"alertName": name, "alertType": kind, "value": value})
}

async fn create(http: &Http, key: &str, body: Value) -> Value {
    let answer = http.post("/api/v1/alerts/alert-config", key, body).await;
    answer.data()["createdAlertConfig"].clone()
}

/// Episode ids of the fixture whose title or description mentions `needle`, and the
/// ids of every episode mentioning it anywhere (title, description, transcript).
fn fixture_mentions(needle: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let needle = needle.to_lowercase();
    let fixture = &common::shared().fixture;
    let word = regex::Regex::new(&format!(r"\b{}\b", regex::escape(&needle))).unwrap();
    let mut in_title = BTreeSet::new();
    let mut anywhere = BTreeSet::new();
    for batch in &fixture.batches {
        for episode in &batch.episodes {
            let title = episode.episode_rss_title.to_lowercase();
            let description = format!(
                "{} {}",
                episode
                    .episode_rss_description
                    .as_deref()
                    .unwrap_or_default(),
                episode
                    .episode_rss_description_no_html
                    .as_deref()
                    .unwrap_or_default()
            )
            .to_lowercase();
            // A whole-word mention in the title (the index matches words, so
            // "LinuxFest" is not a mention of "Linux").
            if word.is_match(&title) {
                in_title.insert(episode.episode_id.to_string());
            }
            if title.contains(&needle) || description.contains(&needle) {
                anywhere.insert(episode.episode_id.to_string());
            }
        }
    }
    let transcript = std::fs::read_to_string(
        common::fixture::corpus_dir()
            .join("transcripts")
            .join(common::fixture::FIXTURE_TRANSCRIPT),
    )
    .unwrap();
    if transcript.to_lowercase().contains(&needle) {
        anywhere.insert(fixture.transcript_episode_id.to_string());
    }
    (in_title, anywhere)
}

async fn all_matches(http: &Http, key: &str, alert_id: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for page in 1.. {
        let answer = http
            .get(
                &format!(
                    "/api/v1/alerts/matches?alertConfigId={alert_id}&page={page}&pageSize=100"
                ),
                key,
            )
            .await;
        let items = answer.data()["matches"].as_array().unwrap().clone();
        if items.is_empty() {
            break;
        }
        out.extend(items);
    }
    out
}

#[tokio::test]
async fn the_job_matches_every_episode_that_mentions_the_value_and_nothing_else() {
    let http = start().await;
    let key = http.key("alerts-match@example.com", "business");
    let config = create(&http, &key, alert("Linux watch", "custom-keyword", "Linux")).await;
    let id = config["id"].as_str().unwrap().to_owned();
    assert!(config["lastRunDate"].is_null());
    // A new alert is matched against the catalog at once, in the background.
    http.wait_for(&format!("/api/v1/alerts/alert-config/{id}"), &key, |data| {
        data["alertConfig"]["lastRunDate"].is_string()
    })
    .await;

    let matches = all_matches(&http, &key, &id).await;
    let (in_title, anywhere) = fixture_mentions("linux");
    assert!(in_title.len() > 20, "the fixture has many Linux titles");
    let matched: BTreeSet<String> = matches
        .iter()
        .map(|m| m["episode"]["id"].as_str().unwrap().to_owned())
        .collect();
    for episode in &in_title {
        assert!(
            matched.contains(episode),
            "episode {episode} mentions Linux in its title"
        );
    }
    for episode in &matched {
        assert!(
            anywhere.contains(episode),
            "episode {episode} never mentions Linux"
        );
    }
    for m in &matches {
        assert_eq!(m["alertConfig"]["id"], id.as_str());
        assert_eq!(m["status"], "kept");
        let mentions = m["mentions"].as_array().unwrap();
        assert_eq!(m["mentionCount"].as_u64().unwrap() as usize, mentions.len());
        assert!(mentions.iter().all(|mention| {
            mention["snippet"]
                .as_str()
                .unwrap()
                .to_lowercase()
                .contains("linux")
        }));
    }
    let total = http
        .get(
            &format!("/api/v1/alerts/matches?alertConfigId={id}&pageSize=1"),
            &key,
        )
        .await;
    assert_eq!(
        total.data()["total"].as_u64().unwrap() as usize,
        matched.len()
    );
    assert_eq!(total.data()["matches"].as_array().unwrap().len(), 1);

    // The job finds nothing new.
    let state = http.state.clone();
    let again = run_alerts(&state).await.map(|(alerts, _)| alerts).unwrap();
    assert_eq!(again.alerts_run, 1);
    assert_eq!(again.new_matches, 0);

    // History: one item per mention, 50 per page.
    let history = http
        .get(&format!("/api/v1/alerts/history?alertConfigId={id}"), &key)
        .await;
    let mentions: usize = matches
        .iter()
        .map(|m| m["mentions"].as_array().unwrap().len())
        .sum();
    assert_eq!(
        history.data()["totalAlertMatches"].as_u64().unwrap() as usize,
        mentions
    );
    assert_eq!(
        history.data()["alertMatches"].as_array().unwrap().len(),
        mentions.min(50)
    );
    assert!(
        history.data()["alertMatches"]
            .as_array()
            .unwrap()
            .iter()
            .all(|item| item["type"] == "EPISODE" || item["type"] == "TRANSCRIPT")
    );

    // Another team sees none of it.
    let other = http.key("alerts-other@example.com", "business");
    let answer = http
        .get(&format!("/api/v1/alerts/alert-config/{id}"), &other)
        .await;
    assert_eq!(answer.status, 404);
    assert_eq!(answer.message(), format!("Alert config not found: {id}"));
    let none = http
        .get(
            &format!("/api/v1/alerts/matches?alertConfigId={id}"),
            &other,
        )
        .await;
    assert_eq!(none.status, 404);
}

/// The start of the first VTT cue whose text contains `needle`.
fn cue_start(needle: &str) -> f64 {
    let text = std::fs::read_to_string(
        common::fixture::corpus_dir()
            .join("transcripts")
            .join(common::fixture::FIXTURE_TRANSCRIPT),
    )
    .unwrap();
    let mut start = None;
    for line in text.lines() {
        if let Some((from, _)) = line.split_once(" --> ") {
            let parts: Vec<f64> = from.split(':').map(|p| p.trim().parse().unwrap()).collect();
            start = Some(parts.iter().fold(0.0, |total, part| total * 60.0 + part));
        } else if line.to_lowercase().contains(&needle.to_lowercase()) {
            return start.unwrap();
        }
    }
    panic!("{needle} not in the transcript");
}

#[tokio::test]
async fn transcript_mentions_carry_their_time_and_a_playable_link() {
    let http = start().await;
    let key = http.key("alerts-transcript@example.com", "business");
    let config = create(
        &http,
        &key,
        alert("Multi line", "custom-keyword", "Multi Line"),
    )
    .await;
    let id = config["id"].as_str().unwrap().to_owned();
    let state = http.state.clone();
    run_alerts(&state).await.map(|(alerts, _)| alerts).unwrap();
    let matches = all_matches(&http, &key, &id).await;
    let transcript_episode = common::shared().fixture.transcript_episode_id.to_string();
    let (_, anywhere) = fixture_mentions("multi line");
    assert_eq!(anywhere, BTreeSet::from([transcript_episode.clone()]));
    assert_eq!(matches.len(), 1, "{matches:?}");
    assert_eq!(matches[0]["episode"]["id"], transcript_episode.as_str());
    let mention = &matches[0]["mentions"][0];
    assert_eq!(
        mention["startSecond"].as_f64().unwrap(),
        cue_start("Multi Line")
    );
    assert!(mention["playUrl"].as_str().unwrap().contains("#t=3729"));

    let history = http.get("/api/v1/alerts/history", &key).await;
    let item = &history.data()["alertMatches"][0];
    assert_eq!(item["type"], "TRANSCRIPT");
    assert_eq!(
        item["startSecond"].as_f64().unwrap(),
        cue_start("Multi Line")
    );

    // The new match was mailed once to the alert's creator, with the snippet.
    let outbox = podlens_app::mail::Outbox::in_data_dir(&http.state.data_dir);
    let mails: Vec<String> = outbox
        .messages()
        .unwrap()
        .iter()
        .map(|path| std::fs::read_to_string(path).unwrap())
        .filter(|mail| mail.contains("Multi line"))
        .collect();
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert!(mails[0].contains("alerts-transcript@example.com"));
    assert!(mails[0].contains("Multi Line 1"), "{}", mails[0]);

    // The match is an alert_match polling event of type TRANSCRIPT.
    let events = http
        .get(
            &format!("/api/v1/polling/updates?eventTypes=alert_match&alertConfigId={id}"),
            &key,
        )
        .await;
    let events = events.data()["events"].as_array().unwrap().clone();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["eventType"], "alert_match");
    assert_eq!(events[0]["data"]["alertType"], "TRANSCRIPT");
    assert_eq!(events[0]["data"]["alertConfigName"], "Multi line");
}

#[tokio::test]
async fn configs_are_validated_updated_listed_and_soft_deleted() {
    let http = start().await;
    let key = http.key("alerts-crud@example.com", "agency");
    let cases = [
        (
            json!({"alertType": "person", "value": "Ada"}),
            "Alert name is required",
        ),
        (
            json!({"alertName": "x", "alertType": "brand", "value": "Ada"}),
            "Invalid alert type \"brand\"; expected one of person, company, custom-keyword",
        ),
        (
            json!({"alertName": "x", "alertType": "person", "value": "A"}),
            "Alert value must be at least 2 characters",
        ),
        (
            json!({"alertName": "x", "alertType": "person", "value": "Ada", "emailSettings": {"frequency": "monthly"}}),
            "Invalid email frequency \"monthly\"; expected one of hourly, daily, weekly",
        ),
        (
            json!({"alertName": "x", "alertType": "person", "value": "Ada", "additionalAlertSettings": {"otherEmails": ["nope"]}}),
            "Invalid email address \"nope\"",
        ),
    ];
    for (body, message) in cases {
        let answer = http.post("/api/v1/alerts/alert-config", &key, body).await;
        assert_eq!(answer.status, 400, "{}", answer.body);
        assert_eq!(answer.message(), message);
    }

    let zed = create(&http, &key, alert("Zed brand", "company", "Zed Corp")).await;
    assert_eq!(zed["alertSettings"]["type"], "company");
    assert_eq!(zed["emailSettings"]["frequency"], "daily");
    assert_eq!(zed["enabled"], true);
    let spelled = create(
        &http,
        &key,
        json!({"alertName": "Ada", "alertType": "person", "value": "Stephen Jackson",
               "generateAlternativeSpellings": true,
               "additionalAlertSettings": {"otherSpellings": ["Steve Jackson"]}}),
    )
    .await;
    let spellings: Vec<&str> = spelled["alertSettings"]["otherSpellings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(spellings[0], "Steve Jackson");
    assert!(spellings.len() > 3, "{spellings:?}");
    assert!(
        spellings
            .iter()
            .all(|s| !s.eq_ignore_ascii_case("Stephen Jackson"))
    );

    let list = http
        .get(
            "/api/v1/alerts/alert-configs?sortBy=alertName&sortDirection=asc",
            &key,
        )
        .await;
    let names: Vec<&str> = list.data()["alertConfigs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["alertName"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["Ada", "Zed brand"]);
    assert_eq!(list.data()["options"]["sortBy"], "alertName");

    let zed_id = zed["id"].as_str().unwrap();
    let empty = http
        .call(
            "PATCH",
            &format!("/api/v1/alerts/alert-config/{zed_id}"),
            &key,
            Some(json!({"updates": {}})),
        )
        .await;
    assert_eq!(empty.status, 400);
    assert_eq!(
        empty.message(),
        "At least one field must be provided to update an alert config"
    );
    let changed = http
        .call(
            "PATCH",
            &format!("/api/v1/alerts/alert-config/{zed_id}"),
            &key,
            Some(
                json!({"updates": {"enabled": false, "alertName": "Zed renamed",
                                    "emailSettings": {"frequency": "weekly"}}}),
            ),
        )
        .await;
    let updated = &changed.data()["updatedAlertConfig"];
    assert_eq!(updated["enabled"], false);
    assert_eq!(updated["alertName"], "Zed renamed");
    assert_eq!(updated["emailSettings"]["frequency"], "weekly");
    let enabled_only = http
        .get("/api/v1/alerts/alert-configs?enabled=true", &key)
        .await;
    assert_eq!(
        enabled_only.data()["alertConfigs"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    let deleted = http
        .call(
            "DELETE",
            &format!("/api/v1/alerts/alert-config/{zed_id}"),
            &key,
            None,
        )
        .await;
    assert_eq!(deleted.data()["deletedAlertConfigId"], zed_id);
    let gone = http
        .get(&format!("/api/v1/alerts/alert-config/{zed_id}"), &key)
        .await;
    assert_eq!(gone.status, 404);
    let list = http.get("/api/v1/alerts/alert-configs", &key).await;
    assert_eq!(list.data()["alertConfigs"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn the_business_plan_holds_thirty_alerts() {
    let http = start().await;
    let key = http.key("alerts-cap@example.com", "business");
    let limit = podlens_model::Plan::Business.limits().alerts.unwrap();
    assert_eq!(limit, 30, "SPEC.md §9");
    let mut last = Value::Null;
    for index in 0..limit {
        last = create(
            &http,
            &key,
            alert(&format!("Alert {index}"), "custom-keyword", "garden"),
        )
        .await;
    }
    let refused = http
        .post(
            "/api/v1/alerts/alert-config",
            &key,
            alert("One more", "custom-keyword", "soil"),
        )
        .await;
    assert_eq!(refused.status, 403);
    assert_eq!(
        refused.message(),
        "Alert limit reached: the business plan allows 30 alerts. Delete an alert or upgrade your plan to create more."
    );
    // A deleted alert frees its place.
    let id = last["id"].as_str().unwrap();
    http.call(
        "DELETE",
        &format!("/api/v1/alerts/alert-config/{id}"),
        &key,
        None,
    )
    .await
    .data();
    create(&http, &key, alert("One more", "custom-keyword", "soil")).await;
}

#[tokio::test]
async fn polling_pages_by_cursor_without_losing_or_repeating_events() {
    let http = start().await;
    let key = http.key("alerts-poll@example.com", "business");
    let config = create(&http, &key, alert("Scahill", "person", "Jeremy Scahill")).await;
    let id = config["id"].as_str().unwrap().to_owned();
    let state = http.state.clone();
    run_alerts(&state).await.map(|(alerts, _)| alerts).unwrap();
    let all = http
        .get(
            &format!("/api/v1/polling/updates?alertConfigId={id}&limit=100"),
            &key,
        )
        .await;
    let all_ids: Vec<String> = all.data()["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        all_ids.len() >= 3,
        "Jeremy Scahill hosts Intercepted: {all_ids:?}"
    );
    let mut paged = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            Some(cursor) => {
                format!("/api/v1/polling/updates?alertConfigId={id}&limit=2&cursor={cursor}")
            }
            None => format!("/api/v1/polling/updates?alertConfigId={id}&limit=2"),
        };
        let answer = http.get(&path, &key).await;
        let data = answer.data();
        paged.extend(
            data["events"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["id"].as_str().unwrap().to_owned()),
        );
        cursor = data["cursor"].as_str().map(str::to_owned);
        if !data["hasMore"].as_bool().unwrap() {
            break;
        }
    }
    assert_eq!(paged, all_ids);
    let bad = http
        .get("/api/v1/polling/updates?eventTypes=nope", &key)
        .await;
    assert_eq!(bad.status, 400);
    assert_eq!(
        bad.message(),
        "Invalid event type \"nope\"; expected one of request_completed, guest_appearance, listed_podcast_added, alert_match"
    );
}
