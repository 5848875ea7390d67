//! Outreach emails over HTTP: generation with the offline writer, the five
//! templates, options, stored history and details, AI assist usage, team isolation.

mod workflows_support;

use axum::http::{Method, StatusCode};
use chrono::Utc;
use podlens_api::accounts::{UsageCounter, UsageSubject, UsageWindow};
use serde_json::{Value, json};
use workflows_support::{EPISODE_AGES_DAYS, episode_title, message, server};

#[tokio::test]
async fn an_email_is_written_from_the_podcast_and_the_guest_and_kept_in_history() {
    let server = server(2);
    let key = server.key("ada@example.com", "business");
    let podcast = &server.podcasts[1];
    let host_first_name = podcast.podcast_host_names[0]
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned();
    let newest = episode_title(1, *EPISODE_AGES_DAYS.iter().min().unwrap());
    let (status, body) = server
        .call(Method::POST, "/api/v1/outreach/generate", &key, Some(json!({
            "podcastId": podcast.podcast_slug,
            "outreachTemplateId": "topicsIdeas",
            "perspective": "third",
            "emailLength": "long",
            "callToActionStyle": "heavy",
            "personalizationLevel": "medium",
            "guest": {"name": "Sam Reed", "companyName": "Pollinate", "shortBio": "Sam studies moths.",
                      "topicsToDiscuss": ["urban moths", "light pollution"]}
        })))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let outreach = &body["data"]["outreach"];
    let text = outreach["body"].as_str().unwrap();
    assert!(
        text.starts_with(&format!("Hi {host_first_name},")),
        "{text}"
    );
    assert!(
        text.contains(&format!("\"{newest}\"")),
        "the newest episode is named: {text}"
    );
    assert!(
        text.contains("on behalf of Sam Reed of Pollinate"),
        "{text}"
    );
    assert!(text.contains("- urban moths\n- light pollution"), "{text}");
    assert!(text.ends_with("ada"), "signed by the caller: {text}");
    assert!(!text.contains('['), "no placeholder is left: {text}");
    assert!(
        outreach["subject"]
            .as_str()
            .unwrap()
            .contains(&podcast.podcast_rss_title)
    );
    assert_eq!(outreach["perspective"], "third");
    assert_eq!(outreach["generationMode"], "basic");
    assert_eq!(
        outreach["podcast"]["podcastId"],
        podcast.podcast_id.to_string()
    );
    let id = outreach["id"].as_str().unwrap().to_owned();

    // Every built-in template works, with the defaults for unset options.
    for template in ["default", "concise", "discussion", "ultraConcise"] {
        let (status, body) = server
            .call(Method::POST, "/api/v1/outreach/generate", &key,
                  Some(json!({"podcastId": server.podcasts[0].podcast_id, "outreachTemplateId": template})))
            .await;
        assert_eq!(status, StatusCode::OK, "{template}: {body}");
        assert!(
            !body["data"]["outreach"]["body"]
                .as_str()
                .unwrap()
                .contains('[')
        );
    }

    let (_, history) = server
        .call(Method::GET, "/api/v1/outreach/history", &key, None)
        .await;
    assert_eq!(history["data"]["total"], 5);
    let (_, history) = server
        .call(
            Method::GET,
            &format!("/api/v1/outreach/history?podcastId={}", podcast.podcast_id),
            &key,
            None,
        )
        .await;
    assert_eq!(history["data"]["total"], 1);
    assert_eq!(history["data"]["outreachHistory"][0]["id"], id);
    assert!(history["data"]["outreachHistory"][0].get("body").is_none());
    let (status, details) = server
        .call(
            Method::GET,
            &format!("/api/v1/outreach/{id}/details"),
            &key,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(details["data"]["outreach"]["body"], outreach["body"]);

    // Each generation is one AI assist.
    let account = server
        .state
        .accounts
        .account_for_key(&key)
        .unwrap()
        .unwrap();
    let subject = UsageSubject::User {
        user_id: account.user_id,
        team_id: account.team_id,
    };
    let used = server
        .state
        .accounts
        .used(
            &subject,
            UsageCounter::AiAssist,
            UsageWindow::Month,
            Utc::now().date_naive(),
        )
        .unwrap();
    assert_eq!(used, 5);

    // Another team sees none of it.
    let stranger = server.key("stranger@example.com", "business");
    let (_, history) = server
        .call(Method::GET, "/api/v1/outreach/history", &stranger, None)
        .await;
    assert_eq!(history["data"]["total"], 0);
    let (status, _) = server
        .call(
            Method::GET,
            &format!("/api/v1/outreach/{id}/details"),
            &stranger,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn bad_options_templates_and_podcasts_are_refused_clearly() {
    let server = server(1);
    let key = server.key("ada@example.com", "business");
    let podcast_id = server.podcasts[0].podcast_id.to_string();
    let cases: [(Value, StatusCode, &str); 4] = [
        (json!({}), StatusCode::BAD_REQUEST, "podcastId is required"),
        (
            json!({"podcastId": podcast_id, "perspective": "second"}),
            StatusCode::BAD_REQUEST,
            "Invalid perspective \"second\"; expected one of first, third",
        ),
        (
            json!({"podcastId": podcast_id, "outreachTemplateId": "haiku"}),
            StatusCode::NOT_FOUND,
            "Outreach template not found: haiku",
        ),
        (
            json!({"podcastId": "missing-show"}),
            StatusCode::NOT_FOUND,
            "Podcast not found: missing-show",
        ),
    ];
    for (body, expected_status, expected) in cases {
        let (status, answer) = server
            .call(Method::POST, "/api/v1/outreach/generate", &key, Some(body))
            .await;
        assert_eq!(status, expected_status, "{answer}");
        assert_eq!(message(&answer), expected);
    }
    let (_, templates) = server
        .call(Method::GET, "/api/v1/outreach/templates", &key, None)
        .await;
    let ids: Vec<&str> = templates["data"]["templates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "default",
            "concise",
            "topicsIdeas",
            "discussion",
            "ultraConcise"
        ]
    );
}
