//! Outreach emails over HTTP: generation with the offline writer, the five
//! templates, options, stored history and details, AI assist usage, team isolation.

mod workflows_support;

use axum::http::{Method, StatusCode};
use chrono::Utc;
use podlens_app::accounts::{UsageCounter, UsageSubject, UsageWindow};
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
                      "topicsToDiscuss": ["urban moths", "light pollution"]},
            "senderName": "Ada Quinn"
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
    assert!(text.ends_with("Ada Quinn"), "signed by the sender: {text}");
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
        // Without a guest or a sender name the caller pitches themself, and the email
        // says where their name goes: no template placeholder is left.
        let text = body["data"]["outreach"]["body"].as_str().unwrap();
        assert!(
            !text.replace("[Your name]", "").contains('['),
            "{template}: {text}"
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
    let account =
        podlens_app::runtime::block_on_own_thread(server.state.accounts.account_for_key(&key))
            .unwrap()
            .unwrap();
    let subject = UsageSubject::User {
        user_id: account.user_id,
        team_id: account.team_id,
    };
    // Capped calls are written in batches: write this node's now.
    podlens_app::runtime::block_on_own_thread(server.state.quotas.flush()).unwrap();
    let used = podlens_app::runtime::block_on_own_thread(server.state.accounts.used(
        &subject,
        UsageCounter::AiAssist,
        UsageWindow::Month,
        Utc::now().date_naive(),
    ))
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

#[tokio::test]
async fn a_team_template_is_kept_validated_and_used_to_write_an_email() {
    let server = server(1);
    let key = server.key("ada@example.com", "business");
    let other_team = server.key("bob@example.com", "business");
    let podcast = &server.podcasts[0];
    let host_first_name = podcast.podcast_host_names[0]
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned();

    // SPEC.md §5: template name 3-100 characters; an empty description becomes null.
    let refused: [(Value, &str); 5] = [
        (
            json!({"name": "ab", "template": "Hi"}),
            "Template name must be between 3 and 100 characters",
        ),
        (
            json!({"name": "x".repeat(101), "template": "Hi"}),
            "Template name must be between 3 and 100 characters",
        ),
        (json!({"name": "Short pitch"}), "template is required"),
        (
            json!({"name": "Short pitch", "template": "Hi", "context": "sales"}),
            "Invalid context \"sales\"; expected one of guest-booking",
        ),
        (
            json!({"name": "Short pitch", "template": "Hi", "tone": "warm"}),
            "Unknown template field \"tone\"; expected name, description, context or template",
        ),
    ];
    for (body, expected) in refused {
        let (status, answer) = server
            .call(Method::POST, "/api/v1/outreach/templates", &key, Some(body))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
        assert_eq!(message(&answer), expected);
    }

    let text =
        "Hello [Host First Name], [Guest Name] here about [Podcast Name].\n\n[Call To Action]";
    let (status, created) = server
        .call(
            Method::POST,
            "/api/v1/outreach/templates",
            &key,
            Some(json!({"name": "  Warm intro pitch ", "description": "", "template": text})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{created}");
    let template = &created["data"]["template"];
    let id = template["id"].as_str().unwrap().to_owned();
    assert_eq!(template["name"], "Warm intro pitch");
    assert_eq!(template["slug"], "warm-intro-pitch");
    assert_eq!(template["description"], Value::Null);
    assert_eq!(template["context"], "guest-booking");
    assert_eq!(template["builtIn"], false);
    assert!(
        template["ownerUserId"]
            .as_str()
            .is_some_and(|id| !id.is_empty())
    );

    let (_, listed) = server
        .call(Method::GET, "/api/v1/outreach/templates", &key, None)
        .await;
    let ids: Vec<&str> = listed["data"]["templates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 6, "five built-in and the team's: {ids:?}");
    assert_eq!(ids[5], id);
    let (_, elsewhere) = server
        .call(Method::GET, "/api/v1/outreach/templates", &other_team, None)
        .await;
    assert_eq!(elsewhere["data"]["templates"].as_array().unwrap().len(), 5);

    let (status, written) = server
        .call(
            Method::POST,
            "/api/v1/outreach/generate",
            &key,
            Some(json!({
                "podcastId": podcast.podcast_slug,
                "outreachTemplateId": id,
                "callToActionStyle": "light",
                "guest": {"name": "Sam Reed", "topicsToDiscuss": ["moths"]}
            })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{written}");
    let body = written["data"]["outreach"]["body"].as_str().unwrap();
    assert!(
        body.starts_with(&format!(
            "Hello {host_first_name}, Sam Reed here about {}.",
            podcast.podcast_rss_title
        )),
        "{body}"
    );
    assert!(!body.contains('['), "every placeholder is filled: {body}");
    assert_eq!(
        written["data"]["outreach"]["outreachTemplateId"],
        id.as_str()
    );

    // Another team can neither read nor use it.
    let (status, _) = server
        .call(
            Method::GET,
            &format!("/api/v1/outreach/templates/{id}"),
            &other_team,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, answer) = server
        .call(
            Method::POST,
            "/api/v1/outreach/generate",
            &other_team,
            Some(json!({
                "podcastId": podcast.podcast_slug, "outreachTemplateId": id
            })),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
    assert_eq!(
        message(&answer),
        format!("Outreach template not found: {id}")
    );

    // Updates: at least one field; built-in templates stay as they are.
    let path = format!("/api/v1/outreach/templates/{id}");
    let (status, answer) = server
        .call(Method::PATCH, &path, &key, Some(json!({})))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        message(&answer),
        "At least one field must be provided to update a template"
    );
    let (status, _) = server
        .call(
            Method::PATCH,
            "/api/v1/outreach/templates/default",
            &key,
            Some(json!({"name": "Mine now"})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, updated) = server
        .call(
            Method::PATCH,
            &path,
            &key,
            Some(json!({"name": "Cold pitch", "description": "For shows we never wrote to"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{updated}");
    assert_eq!(updated["data"]["template"]["slug"], "cold-pitch");
    assert_eq!(
        updated["data"]["template"]["description"],
        "For shows we never wrote to"
    );
    assert_eq!(updated["data"]["template"]["template"], text);
    let (_, cleared) = server
        .call(
            Method::PATCH,
            &path,
            &key,
            Some(json!({"description": "  "})),
        )
        .await;
    assert_eq!(cleared["data"]["template"]["description"], Value::Null);
    let (status, _) = server.call(Method::DELETE, &path, &other_team, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (status, _) = server.call(Method::DELETE, &path, &key, None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = server.call(Method::GET, &path, &key, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // The email already written keeps its text.
    let outreach_id = written["data"]["outreach"]["id"].as_str().unwrap();
    let (_, details) = server
        .call(
            Method::GET,
            &format!("/api/v1/outreach/{outreach_id}/details"),
            &key,
            None,
        )
        .await;
    assert_eq!(details["data"]["outreach"]["body"].as_str(), Some(body));
}

/// Generates an email with `body`; the answer's `data.outreach`, after checking it is OK.
async fn generated(server: &workflows_support::TestServer, key: &str, body: Value) -> Value {
    let (status, answer) = server
        .call(Method::POST, "/api/v1/outreach/generate", key, Some(body))
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    answer["data"]["outreach"].clone()
}

/// Generated outreach signed with the account's internal name (the email's local part,
/// "agent") and, written from a project, did not pitch the project's guest.
#[tokio::test]
async fn an_email_for_a_project_pitches_its_guest_and_is_not_signed_with_the_email_name() {
    let server = server(2);
    let key = server.key("agent@example.com", "business");
    let (status, created) = server
        .call(
            Method::POST,
            "/api/v1/guest-profiles",
            &key,
            Some(json!({
                "firstName": "Maya",
                "lastName": "Chen",
                "companyName": "Rootwise",
                "shortBio": "Maya Chen grows food on city rooftops and teaches others to.",
                "topicsToDiscuss": ["rooftop farming", "soil health"]
            })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{created}");
    let project_id = created["data"]["projectId"].as_str().unwrap().to_owned();
    let profile_id = created["data"]["guestProfileId"]
        .as_str()
        .unwrap()
        .to_owned();
    let podcast = &server.podcasts[0];

    // From the project alone: its guest is pitched, in the guest's own words.
    let outreach = generated(
        &server,
        &key,
        json!({
            "podcastId": podcast.podcast_id, "projectId": project_id, "perspective": "first"
        }),
    )
    .await;
    let text = outreach["body"].as_str().unwrap();
    assert!(text.contains("Maya Chen"), "the project's guest: {text}");
    assert!(
        text.contains("rooftop farming"),
        "the guest's topics: {text}"
    );
    assert!(
        text.trim_end().ends_with("Maya Chen"),
        "the guest signs: {text}"
    );
    assert!(!text.contains("agent"), "{text}");
    assert_eq!(outreach["project"]["projectId"], project_id.as_str());
    assert_eq!(outreach["project"]["guest"]["id"], profile_id.as_str());

    // On the guest's behalf without a sender name: a place for it, never "agent".
    let outreach = generated(
        &server,
        &key,
        json!({
            "podcastId": podcast.podcast_id, "projectId": project_id, "perspective": "third"
        }),
    )
    .await;
    let text = outreach["body"].as_str().unwrap();
    assert!(text.contains("on behalf of Maya Chen"), "{text}");
    assert!(text.trim_end().ends_with("[Your name]"), "{text}");
    assert!(!text.contains("agent"), "{text}");

    // Another guest named in the body gets none of the profile's bio, company or topics.
    let outreach = generated(
        &server,
        &key,
        json!({
            "podcastId": podcast.podcast_id, "projectId": project_id,
            "guest": {"name": "John Smith"}
        }),
    )
    .await;
    let text = outreach["body"].as_str().unwrap();
    assert!(text.contains("John Smith"), "{text}");
    for hers in ["Rootwise", "rooftop", "Maya"] {
        assert!(!text.contains(hers), "{hers}: {text}");
    }

    // Pitching oneself without a name: the same place for it.
    let outreach = generated(&server, &key, json!({"podcastId": podcast.podcast_id})).await;
    let text = outreach["body"].as_str().unwrap();
    assert!(!text.contains("agent"), "{text}");
    assert!(text.contains("[Your name]"), "{text}");
}

/// Users could not say what they are called: outreach on a guest's behalf was signed
/// "[Your name]" every time. The name chosen with `PATCH /auth/session` signs it now.
#[tokio::test]
async fn a_name_the_user_chose_signs_their_outreach() {
    let server = server(1);
    let key = server.key("jdoe42@example.com", "business");
    let (status, session) = server
        .call(Method::GET, "/api/v1/auth/session", &key, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{session}");
    assert_eq!(session["data"]["displayName"], Value::Null, "{session}");

    for (body, message) in [
        (
            json!({"displayName": "x".repeat(81)}),
            "displayName must be at most 80 characters",
        ),
        (
            json!({"displayName": "Ada\u{7}Quinn"}),
            "displayName must not contain control characters",
        ),
        (json!({}), "displayName is required"),
    ] {
        let (status, answer) = server
            .call(Method::PATCH, "/api/v1/auth/session", &key, Some(body))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
        assert_eq!(workflows_support::message(&answer), message, "{answer}");
    }

    let (status, answer) = server
        .call(
            Method::PATCH,
            "/api/v1/auth/session",
            &key,
            Some(json!({"displayName": "  Ada Quinn "})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["data"]["displayName"], "Ada Quinn");
    let (_, session) = server
        .call(Method::GET, "/api/v1/auth/session", &key, None)
        .await;
    assert_eq!(session["data"]["displayName"], "Ada Quinn");

    let podcast = &server.podcasts[0];
    let outreach = generated(
        &server,
        &key,
        json!({"podcastId": podcast.podcast_id, "perspective": "third", "guest": {"name": "Sam Reed"}}),
    )
    .await;
    let text = outreach["body"].as_str().unwrap();
    assert!(text.contains("on behalf of Sam Reed"), "{text}");
    assert!(text.trim_end().ends_with("Ada Quinn"), "{text}");
    // A name in the request still wins.
    let outreach = generated(
        &server,
        &key,
        json!({"podcastId": podcast.podcast_id, "perspective": "third", "guest": {"name": "Sam Reed"}, "senderName": "Bo Li"}),
    )
    .await;
    assert!(
        outreach["body"]
            .as_str()
            .unwrap()
            .trim_end()
            .ends_with("Bo Li")
    );

    // Blank or null clears it.
    for cleared in [json!(" "), Value::Null] {
        let (status, answer) = server
            .call(
                Method::PATCH,
                "/api/v1/auth/session",
                &key,
                Some(json!({"displayName": cleared})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["data"]["displayName"], Value::Null);
    }
}
