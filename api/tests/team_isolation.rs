//! Team isolation over real HTTP: team A owns one of every team-scoped resource; team B,
//! on its own key, calls every operation of the OpenAPI document with A's ids in the
//! path. Each operation must be listed here, either as not team-scoped (catalog reads,
//! sign-in, …) or with what B must get: 404 for A's ids, B's own (empty) data
//! otherwise. Whatever B gets never holds A's ids or names, and A's resources read the
//! same afterwards. A new team-scoped route without a case fails the test.

mod common;
mod workflows_http;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use serde_json::{Value, json};
use workflows_http::{Http, start};

/// Operations that read the shared catalog or act on the caller alone: no team data.
const NOT_TEAM_SCOPED: &[&str] = &[
    "GET /api/v1/public/health",
    "GET /api/v1/openapi.json",
    "POST /api/v1/auth/sign-up",
    "POST /api/v1/auth/sign-in",
    "POST /api/v1/auth/validate",
    "POST /api/v1/auth/email-link",
    "GET /api/v1/auth/session",
    // The caller's own name: no id of anyone else in it.
    "PATCH /api/v1/auth/session",
    "POST /api/v1/auth/sign-out",
    // Taken by the operator token of the data directory, not by a key.
    "POST /api/v1/operator/backup",
];

/// Path prefixes of catalog reads (search, podcasts, episodes, charts, statistics).
const CATALOG_PREFIXES: &[&str] = &[
    "/api/v1/search/",
    "/api/v1/autocomplete",
    "/api/v1/charts",
    "/api/v1/stats/",
    "/api/v1/passages",
    "/api/v1/rss/",
];

/// What team B must get from an operation called with team A's ids.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Expect {
    /// 404: the resource named in the path is A's.
    NotFound,
    /// An answer about B's own team (its empty lists, its own usage, a refusal): it
    /// must hold nothing of A's.
    OwnOnly,
}

/// Every team-scoped operation, with B's expectation and the body B sends (a valid
/// one, so that a missing ownership check would show as a success).
fn cases() -> BTreeMap<&'static str, (Expect, Option<Value>)> {
    use Expect::*;
    let mut cases = BTreeMap::new();
    let mut add = |route: &'static str, expect: Expect, body: Option<Value>| {
        cases.insert(route, (expect, body));
    };
    // Projects and their listed podcasts.
    add("GET /api/v1/projects", OwnOnly, None);
    add(
        "PUT /api/v1/projects",
        OwnOnly,
        Some(json!({"name": "Beta own project", "projectTypes": ["guest-booking"]})),
    );
    add(
        "PATCH /api/v1/projects/{projectSlug}",
        NotFound,
        Some(json!({"name": "Taken over"})),
    );
    add("DELETE /api/v1/projects/{projectSlug}", NotFound, None);
    add("GET /api/v1/projects/{projectSlug}/details", NotFound, None);
    add(
        "POST /api/v1/projects/{projectSlug}/podcasts",
        NotFound,
        Some(json!({"podcastId": "{podcastId}"})),
    );
    add(
        "GET /api/v1/projects/{projectSlug}/podcasts/details",
        NotFound,
        None,
    );
    add(
        "GET /api/v1/projects/{projectSlug}/podcasts/recent-episodes",
        NotFound,
        None,
    );
    add(
        "PATCH /api/v1/projects/{projectSlug}/podcasts/{listedPodcastId}",
        NotFound,
        Some(json!({"priority": "high"})),
    );
    add(
        "DELETE /api/v1/projects/{projectSlug}/podcasts/{listedPodcastId}",
        NotFound,
        None,
    );
    add(
        "GET /api/v1/projects/{projectSlug}/podcasts/{listedPodcastId}/relevancy",
        NotFound,
        None,
    );
    add(
        "POST /api/v1/export/project/{projectId}/listed-podcasts",
        NotFound,
        Some(json!({"columns": ["basicInfo", "contactDetails"], "format": "csv"})),
    );
    add(
        "POST /api/v1/export/podcasts",
        OwnOnly,
        Some(json!({"query": "garden"})),
    );
    // Strategies.
    add(
        "GET /api/v1/projects/{projectSlug}/strategies",
        NotFound,
        None,
    );
    add(
        "POST /api/v1/projects/{projectSlug}/strategies/generate",
        NotFound,
        Some(json!({})),
    );
    add(
        "PUT /api/v1/projects/{projectSlug}/strategies/{strategyId}",
        NotFound,
        Some(json!({"title": "Taken over"})),
    );
    add(
        "DELETE /api/v1/projects/{projectSlug}/strategies/{strategyId}",
        NotFound,
        None,
    );
    // Alerts, their matches and history.
    add(
        "POST /api/v1/alerts/alert-config",
        OwnOnly,
        Some(json!({"alertName": "Beta watch", "alertType": "custom-keyword", "value": "soil"})),
    );
    add(
        "GET /api/v1/alerts/alert-config/{alertConfigId}",
        NotFound,
        None,
    );
    add(
        "PATCH /api/v1/alerts/alert-config/{alertConfigId}",
        NotFound,
        Some(json!({"alertName": "Taken over"})),
    );
    add(
        "DELETE /api/v1/alerts/alert-config/{alertConfigId}",
        NotFound,
        None,
    );
    add("GET /api/v1/alerts/alert-configs", OwnOnly, None);
    add(
        "GET /api/v1/alerts/matches?alertConfigId={alertConfigId}",
        NotFound,
        None,
    );
    add("GET /api/v1/alerts/history", OwnOnly, None);
    add("GET /api/v1/polling/updates", OwnOnly, None);
    // Guest profiles, their documents and downloads.
    add(
        "POST /api/v1/guest-profiles",
        OwnOnly,
        Some(
            json!({"firstName": "Bea", "lastName": "Own", "shortBio": "Bea grows beans. She writes about soil."}),
        ),
    );
    add(
        "POST /api/v1/guest-profiles/onboarding-form",
        OwnOnly,
        Some(json!({})),
    );
    add(
        "GET /api/v1/guest-profiles/{guestProfileIdOrProjectId}",
        NotFound,
        None,
    );
    add(
        "POST /api/v1/guest-profiles/{guestProfileId}/archive",
        NotFound,
        Some(json!({})),
    );
    add(
        "PUT /api/v1/guest-profiles/{guestProfileId}/bio",
        NotFound,
        Some(json!({"shortBio": "Taken over. Entirely."})),
    );
    add(
        "PUT /api/v1/guest-profiles/{guestProfileId}/contact-details",
        NotFound,
        Some(json!({"phone": "+44 20 7946 0001"})),
    );
    add(
        "PUT /api/v1/guest-profiles/{guestProfileId}/social-media-links",
        NotFound,
        Some(json!([{"socialMediaType": "twitter", "url": "https://twitter.com/takeover"}])),
    );
    add(
        "POST /api/v1/guest-profiles/{guestProfileId}/documents",
        NotFound,
        None,
    );
    add(
        "POST /api/v1/guest-profiles/{guestProfileId}/regenerate-bio",
        NotFound,
        Some(json!({})),
    );
    add(
        "GET /api/v1/guest-profiles/{guestProfileId}/download",
        NotFound,
        None,
    );
    // Outreach.
    add(
        "POST /api/v1/outreach/generate",
        OwnOnly,
        Some(json!({"podcastId": "{podcastId}", "outreachTemplateId": "topicsIdeas"})),
    );
    add("GET /api/v1/outreach/templates", OwnOnly, None);
    add(
        "POST /api/v1/outreach/templates",
        OwnOnly,
        Some(json!({"name": "Beta own template", "template": "Hi [Host First Name]"})),
    );
    add(
        "GET /api/v1/outreach/templates/{templateId}",
        NotFound,
        None,
    );
    add(
        "PATCH /api/v1/outreach/templates/{templateId}",
        NotFound,
        Some(json!({"name": "Taken over"})),
    );
    add(
        "DELETE /api/v1/outreach/templates/{templateId}",
        NotFound,
        None,
    );
    add("GET /api/v1/outreach/history", OwnOnly, None);
    add("GET /api/v1/outreach/{id}/details", NotFound, None);
    // AI assist over a project.
    add(
        "POST /api/v1/agent/project/relevancy",
        NotFound,
        Some(json!({"projectId": "{projectId}", "podcastId": "{podcastId}"})),
    );
    add(
        "POST /api/v1/agent/alternative-spellings",
        OwnOnly,
        Some(json!({"name": "Garden"})),
    );
    // Team podcasts, users, keys, usage, transcription requests and request history.
    add("GET /api/v1/teams/podcasts", OwnOnly, None);
    add(
        "PUT /api/v1/teams/podcasts/{podcastId}",
        OwnOnly,
        Some(json!({"blacklist": true})),
    );
    add("DELETE /api/v1/teams/podcasts/{podcastId}", OwnOnly, None);
    add(
        "DELETE /api/v1/teams/podcasts/multiple",
        OwnOnly,
        Some(json!({"podcastIds": ["{podcastId}"]})),
    );
    add("GET /api/v1/teams/users", OwnOnly, None);
    add(
        "PATCH /api/v1/teams/users/{userId}",
        NotFound,
        Some(json!({"role": "admin"})),
    );
    add("DELETE /api/v1/teams/users/{userId}", NotFound, None);
    add("GET /api/v1/teams/invitations", OwnOnly, None);
    add(
        "POST /api/v1/teams/invitations",
        OwnOnly,
        Some(json!({"email": "beta-invitee@example.com"})),
    );
    add(
        "DELETE /api/v1/teams/invitations/{invitationId}",
        NotFound,
        None,
    );
    // A key B does not hold cannot be guessed; B's own attempt joins nothing of A's.
    add(
        "POST /api/v1/teams/invitations/accept",
        OwnOnly,
        Some(json!({"key": "0000000000000000000000000000000000000000000000000000000000000000"})),
    );
    add("GET /api/v1/teams/api-keys", OwnOnly, None);
    add("POST /api/v1/teams/api-keys", OwnOnly, Some(json!({})));
    add("DELETE /api/v1/teams/api-keys/{keyId}", NotFound, None);
    add("GET /api/v1/teams/usage/current", OwnOnly, None);
    add("GET /api/v1/teams/usage/daily", OwnOnly, None);
    add("GET /api/v1/teams/usage/monthly", OwnOnly, None);
    add("GET /api/v1/teams/usage/members", OwnOnly, None);
    add("GET /api/v1/teams/transcriptions?limit=100", OwnOnly, None);
    add("GET /api/v1/teams/request-history?limit=100", OwnOnly, None);
    add(
        "GET /api/v1/episodes/{episodeId}/transcription-request",
        OwnOnly,
        None,
    );
    add(
        "GET /api/v1/podcasts/{podcastId}/transcription-request",
        OwnOnly,
        None,
    );
    // Custom prompts, webhooks, settings and preferences.
    add("GET /api/v1/teams/custom-prompts", OwnOnly, None);
    add(
        "POST /api/v1/teams/custom-prompts",
        OwnOnly,
        Some(
            json!({"name": "Beta prompt", "description": "", "contextType": "episode", "prompt": "List the guests."}),
        ),
    );
    add(
        "GET /api/v1/teams/custom-prompts/{customPromptId}",
        NotFound,
        None,
    );
    add(
        "PATCH /api/v1/teams/custom-prompts/{customPromptId}",
        NotFound,
        Some(json!({"name": "Taken over", "contextType": "episode", "prompt": "Taken over."})),
    );
    add(
        "DELETE /api/v1/teams/custom-prompts/{customPromptId}",
        NotFound,
        None,
    );
    add("GET /api/v1/teams/webhooks", OwnOnly, None);
    add(
        "POST /api/v1/teams/webhooks",
        OwnOnly,
        Some(json!({"url": "https://hooks.example.com/beta", "events": ["alert_match"]})),
    );
    add("DELETE /api/v1/teams/webhooks/{webhookId}", NotFound, None);
    add(
        "GET /api/v1/teams/webhooks/{webhookId}/deliveries",
        NotFound,
        None,
    );
    add("GET /api/v1/teams/settings", OwnOnly, None);
    add("PATCH /api/v1/teams/settings", OwnOnly, Some(json!({})));
    add("GET /api/v1/users/preferences", OwnOnly, None);
    add("PUT /api/v1/users/preferences", OwnOnly, Some(json!({})));
    // AI assists that read team data (custom prompts, analyses).
    add(
        "POST /api/v1/agent/",
        OwnOnly,
        Some(
            json!({"kind": "podcast", "podcastId": "{podcastId}", "customPromptId": "{customPromptId}"}),
        ),
    );
    add(
        "POST /api/v1/guest-prep/generate",
        OwnOnly,
        Some(json!({"podcastSlug": "{podcastId}"})),
    );
    add(
        "GET /api/v1/agent/episode/{episodeId}/deep-analysis",
        OwnOnly,
        None,
    );
    add(
        "POST /api/v1/podcasts/deep-analysis",
        OwnOnly,
        Some(json!({"podcastId": "{podcastId}"})),
    );
    add(
        "GET /api/v1/podcasts/{podcastIdOrSlug}/episodes/deep-analysis",
        OwnOnly,
        None,
    );
    cases
}

/// Team A's resources: the values of the path parameters, and what must never reach B.
struct TeamA {
    params: BTreeMap<&'static str, String>,
    secrets: Vec<String>,
    /// GETs whose answers must read the same after B's calls.
    reads: Vec<String>,
}

async fn build_team_a(http: &Http, key: &str) -> TeamA {
    let fixture = &common::shared().fixture;
    let podcast_id = fixture.transcript_podcast_id.to_string();
    let episode_id = fixture.transcript_episode_id.to_string();
    let project = http
        .call(
            "PUT",
            "/api/v1/projects",
            key,
            Some(json!({"name": "Alpha hidden tour", "projectTypes": ["guest-booking"]})),
        )
        .await;
    let project = project.data()["project"].clone();
    let slug = project["slug"].as_str().unwrap().to_owned();
    let project_id = find_string(&project, &["projectId", "id"])
        .unwrap_or_else(|| panic!("project id in {project}"));
    let listed = http
        .post(
            &format!("/api/v1/projects/{slug}/podcasts"),
            key,
            json!({"podcastId": podcast_id}),
        )
        .await;
    let listed_id = find_string(listed.data(), &["listedPodcastId", "id"])
        .unwrap_or_else(|| panic!("listed podcast id in {}", listed.body));
    let strategies = http
        .post(
            &format!("/api/v1/projects/{slug}/strategies/generate"),
            key,
            json!({}),
        )
        .await;
    let strategy_id = strategies.data()["strategies"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let alert = http
        .post(
            "/api/v1/alerts/alert-config",
            key,
            json!({"alertName": "Alpha hidden watch", "alertType": "custom-keyword", "value": "Linux"}),
        )
        .await;
    let alert_id = alert.data()["createdAlertConfig"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    http.wait_for(
        &format!("/api/v1/alerts/alert-config/{alert_id}"),
        key,
        |data| data["alertConfig"]["lastRunDate"].is_string(),
    )
    .await;
    let guest = http
        .post(
            "/api/v1/guest-profiles",
            key,
            json!({"firstName": "Alphonse", "lastName": "Hiddenfield", "shortBio": "Alphonse builds engines. He explains them on podcasts. He lives in Lyon.", "topicsToDiscuss": ["engines"]}),
        )
        .await;
    let guest_id = find_string(guest.data(), &["guestProfileId", "id"])
        .unwrap_or_else(|| panic!("guest profile id in {}", guest.body));
    http.wait_for(&format!("/api/v1/guest-profiles/{guest_id}"), key, |data| {
        !matches!(
            data["processingStatus"].as_str(),
            Some("pending" | "processing")
        )
    })
    .await;
    let outreach = http
        .post(
            "/api/v1/outreach/generate",
            key,
            json!({"podcastId": podcast_id, "outreachTemplateId": "topicsIdeas",
                   "guest": {"name": "Alphonse Hiddenfield", "shortBio": "Alphonse builds engines."}}),
        )
        .await;
    let outreach_id = outreach.data()["outreach"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let template = http
        .post(
            "/api/v1/outreach/templates",
            key,
            json!({"name": "Alpha hidden template", "template": "Hi [Host First Name], alpha-hidden here."}),
        )
        .await;
    let template_id = template.data()["template"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    http.get(
        &format!("/api/v1/episodes/{episode_id}/transcription-request"),
        key,
    )
    .await
    .data();
    http.call(
        "PUT",
        &format!("/api/v1/teams/podcasts/{podcast_id}"),
        key,
        Some(json!({"sync": true})),
    )
    .await
    .data();
    let prompt = http
        .post(
            "/api/v1/teams/custom-prompts",
            key,
            json!({"name": "Alpha hidden prompt", "description": "", "contextType": "episode", "prompt": "Name the sponsors."}),
        )
        .await;
    let prompt_id = find_string(prompt.data(), &["customPromptId", "id"])
        .unwrap_or_else(|| panic!("custom prompt id in {}", prompt.body));
    let webhook = http
        .post(
            "/api/v1/teams/webhooks",
            key,
            json!({"url": "https://hooks.example.com/alpha-hidden", "events": ["alert_match"]}),
        )
        .await;
    let webhook_id = find_string(webhook.data(), &["webhookId", "id"])
        .unwrap_or_else(|| panic!("webhook id in {}", webhook.body));
    // A member who joined by invitation, and an invitation still pending.
    http.post(
        "/api/v1/teams/invitations",
        key,
        json!({"email": "alpha-hidden-member@example.com"}),
    )
    .await
    .data();
    let member_key = newest_invite_key(http, "alpha-hidden-member@example.com");
    let joined = http
        .send(
            reqwest::Client::new()
                .post(format!("{}/api/v1/teams/invitations/accept", http.base))
                .header("content-type", "application/json")
                .body(json!({"key": member_key}).to_string()),
        )
        .await;
    let user_id = joined.data()["userId"].as_str().unwrap().to_owned();
    let invitation = http
        .post(
            "/api/v1/teams/invitations",
            key,
            json!({"email": "alpha-hidden-invitee@example.com", "role": "admin"}),
        )
        .await;
    let invitation_id = invitation.data()["invitation"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    // Keys are made from a signed-in session.
    let session = http.session_cookie(key);
    let created_key = http
        .as_browser(
            "POST",
            "/api/v1/teams/api-keys",
            Some(&session),
            Some(json!({})),
        )
        .await;
    let key_id = created_key.data()["keyId"].as_str().unwrap().to_owned();
    let new_key = created_key.data()["apiKey"].as_str().unwrap().to_owned();

    let params = BTreeMap::from([
        ("projectSlug", slug.clone()),
        ("projectId", project_id.clone()),
        ("listedPodcastId", listed_id.clone()),
        ("strategyId", strategy_id.clone()),
        ("alertConfigId", alert_id.clone()),
        ("guestProfileId", guest_id.clone()),
        ("guestProfileIdOrProjectId", guest_id.clone()),
        ("id", outreach_id.clone()),
        ("keyId", key_id.clone()),
        ("podcastId", podcast_id.clone()),
        ("episodeId", episode_id.clone()),
        ("podcastIdOrSlug", podcast_id.clone()),
        ("customPromptId", prompt_id.clone()),
        ("webhookId", webhook_id.clone()),
        ("templateId", template_id.clone()),
        ("userId", user_id.clone()),
        ("invitationId", invitation_id.clone()),
    ]);
    let secrets = vec![
        slug.clone(),
        project_id,
        listed_id,
        strategy_id,
        alert_id.clone(),
        guest_id.clone(),
        outreach_id.clone(),
        key_id,
        new_key,
        prompt_id.clone(),
        webhook_id.clone(),
        template_id.clone(),
        user_id,
        invitation_id,
        "alpha-hidden".to_owned(),
        key.to_owned(),
        "Alpha hidden".to_owned(),
        "Hiddenfield".to_owned(),
        "team-a@example.com".to_owned(),
    ];
    let reads = vec![
        format!("/api/v1/projects/{slug}/details"),
        format!("/api/v1/projects/{slug}/strategies"),
        format!("/api/v1/alerts/alert-config/{alert_id}"),
        format!("/api/v1/guest-profiles/{guest_id}"),
        format!("/api/v1/outreach/{outreach_id}/details"),
        "/api/v1/teams/podcasts".to_owned(),
        "/api/v1/teams/api-keys".to_owned(),
        "/api/v1/teams/transcriptions?limit=100".to_owned(),
        "/api/v1/projects".to_owned(),
        "/api/v1/alerts/alert-configs".to_owned(),
        format!("/api/v1/teams/custom-prompts/{prompt_id}"),
        "/api/v1/teams/webhooks".to_owned(),
        "/api/v1/teams/settings".to_owned(),
        format!("/api/v1/outreach/templates/{template_id}"),
        "/api/v1/teams/users".to_owned(),
        "/api/v1/teams/invitations".to_owned(),
    ];
    TeamA {
        params,
        secrets,
        reads,
    }
}

/// The key of the `/team-invite` link in the newest outbox message, mailed to `to`.
fn newest_invite_key(http: &Http, to: &str) -> String {
    let outbox = podlens_app::mail::Outbox::in_data_dir(&http.state.data_dir);
    let messages = outbox.messages().expect("outbox readable");
    let text = std::fs::read_to_string(messages.last().expect("a mail")).expect("readable");
    assert!(text.contains(&format!("To: {to}\r\n")), "{text}");
    let at = text.find("/team-invite?key=").expect("an invitation link") + 17;
    text[at..at + 64].to_owned()
}

/// The first string found under one of `names`, searching the whole value.
fn find_string(value: &Value, names: &[&str]) -> Option<String> {
    for name in names {
        if let Some(found) = find_named(value, name) {
            return Some(found);
        }
    }
    None
}

fn find_named(value: &Value, name: &str) -> Option<String> {
    match value {
        Value::Object(object) => {
            if let Some(Value::String(found)) = object.get(name) {
                return Some(found.clone());
            }
            object.values().find_map(|inner| find_named(inner, name))
        }
        Value::Array(items) => items.iter().find_map(|inner| find_named(inner, name)),
        _ => None,
    }
}

/// `{name}` placeholders of `text` replaced by A's values; `None` names one unknown.
fn substitute(text: &str, params: &BTreeMap<&'static str, String>) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let close = rest[open..]
            .find('}')
            .map(|at| open + at)
            .ok_or("unclosed {")?;
        let name = &rest[open + 1..close];
        let value = params.get(name).ok_or_else(|| name.to_owned())?;
        out.push_str(&rest[..open]);
        out.push_str(value);
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// `body` with its `"{name}"` strings replaced by A's values.
fn fill(body: &Value, params: &BTreeMap<&'static str, String>, route: &str) -> Value {
    match body {
        Value::String(text) if text.starts_with('{') && text.ends_with('}') => {
            let name = &text[1..text.len() - 1];
            let value = params
                .get(name)
                .unwrap_or_else(|| panic!("{route}: no value for {text} in the body"));
            Value::String(value.clone())
        }
        Value::Object(object) => Value::Object(
            object
                .iter()
                .map(|(key, inner)| (key.clone(), fill(inner, params, route)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|inner| fill(inner, params, route))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Every operation of the served OpenAPI document, as `METHOD /path`.
async fn documented_operations(http: &Http) -> BTreeSet<String> {
    let document = http.get("/api/v1/openapi.json", "").await.body;
    let mut operations = BTreeSet::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for method in item.as_object().expect("path item").keys() {
            operations.insert(format!("{} {path}", method.to_uppercase()));
        }
    }
    operations
}

fn is_catalog_read(
    operation: &str,
    expect_listed: &BTreeMap<&str, (Expect, Option<Value>)>,
) -> bool {
    let Some((method, path)) = operation.split_once(' ') else {
        return false;
    };
    if expect_listed
        .keys()
        .any(|case| case.split('?').next() == Some(operation))
    {
        return false;
    }
    let podcast_or_episode_read = method == "GET"
        && (path.starts_with("/api/v1/podcasts") || path.starts_with("/api/v1/episodes"));
    podcast_or_episode_read
        || CATALOG_PREFIXES
            .iter()
            .any(|prefix| path.starts_with(prefix))
        || (method == "POST" && path == "/api/v1/podcasts/multiple")
        || (method == "POST" && path.starts_with("/api/v1/podcasts/") && path.ends_with("/refresh"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn team_b_reads_and_changes_nothing_of_team_a() {
    let http = start().await;
    let key_a = http.key("team-a@example.com", "admin");
    let key_b = http.key("team-b@example.com", "admin");
    let team_a = build_team_a(&http, &key_a).await;
    let cases = cases();

    // Every documented operation is either not team-scoped or has a case.
    let operations = documented_operations(&http).await;
    assert!(operations.len() > 80, "{} operations", operations.len());
    let covered: BTreeSet<&str> = cases
        .keys()
        .map(|case| case.split('?').next().unwrap())
        .collect();
    let missing: Vec<&String> = operations
        .iter()
        .filter(|operation| {
            !NOT_TEAM_SCOPED.contains(&operation.as_str())
                && !covered.contains(operation.as_str())
                && !is_catalog_read(operation, &cases)
        })
        .collect();
    assert!(
        missing.is_empty(),
        "team-scoped operations without an isolation case: {missing:#?}"
    );
    let stale: Vec<&&str> = covered
        .iter()
        .filter(|case| !operations.contains(**case))
        .collect();
    assert!(
        stale.is_empty(),
        "cases of undocumented operations: {stale:?}"
    );

    let mut before = Vec::new();
    for path in &team_a.reads {
        before.push(http.get(path, &key_a).await.data().clone());
    }

    // Reads and lists first, changes and deletions last, so a leak in one cannot hide
    // behind a deletion made by another.
    let mut ordered: Vec<_> = cases.iter().collect();
    ordered.sort_by_key(|(route, _)| (route.starts_with("DELETE"), !route.starts_with("GET")));
    let mut failures = Vec::new();
    for (route, (expect, body)) in ordered {
        let (method, template) = route.split_once(' ').unwrap();
        let path = substitute(template, &team_a.params)
            .unwrap_or_else(|name| panic!("{route}: no value for {{{name}}}"));
        let body = body.as_ref().map(|body| fill(body, &team_a.params, route));
        let answer = if template.ends_with("/documents") {
            http.upload(
                &path,
                &key_b,
                &[("user_file:1", "takeover.txt", b"taken over".to_vec())],
            )
            .await
        } else {
            http.call(method, &path, &key_b, body.clone()).await
        };
        // What B sent may be echoed back ("not found: <id>"); anything else of A's not.
        let sent = format!(
            "{path} {}",
            body.map(|body| body.to_string()).unwrap_or_default()
        );
        if *expect == Expect::NotFound && answer.status != 404 {
            failures.push(format!(
                "{route} as team B: {} {}",
                answer.status, answer.body
            ));
        }
        if answer.status >= 500 {
            failures.push(format!(
                "{route} as team B: {} {}",
                answer.status, answer.body
            ));
        }
        let text = String::from_utf8_lossy(&answer.bytes);
        for secret in team_a
            .secrets
            .iter()
            .filter(|secret| !sent.contains(secret.as_str()))
        {
            if text.contains(secret.as_str()) {
                failures.push(format!(
                    "{route} as team B shows team A's {secret:?}: {text}"
                ));
            }
        }
    }

    assert!(failures.is_empty(), "{failures:#?}");

    // A's resources read the same (the alert's job may have run again meanwhile).
    tokio::time::sleep(Duration::from_millis(200)).await;
    for (path, earlier) in team_a.reads.iter().zip(before) {
        let now = http.get(path, &key_a).await.data().clone();
        assert_eq!(
            without_volatile(now),
            without_volatile(earlier),
            "{path} changed after team B's calls"
        );
    }
}

/// An answer without the fields that move on their own (job run times, usage).
fn without_volatile(mut value: Value) -> Value {
    match &mut value {
        Value::Object(object) => {
            object.retain(|name, _| {
                !matches!(
                    name.as_str(),
                    "lastRunDate" | "nextRunDate" | "lastUsedAt" | "updatedAt"
                )
            });
            for inner in object.values_mut() {
                *inner = without_volatile(inner.take());
            }
        }
        Value::Array(items) => {
            for inner in items.iter_mut() {
                *inner = without_volatile(inner.take());
            }
        }
        _ => {}
    }
    value
}
