//! Guest prep, custom prompts and the agent kinds, episode deep analyses, user
//! preferences and team settings over HTTP on a real socket, with the offline
//! provider over the fixture catalog (real corpus feeds and transcript), and the
//! OpenAI-compatible provider against a local fake chat-completions endpoint.
//! Expectations come from the corpus as ingested and from the Parquet snapshot read
//! with DuckDB, not from the code under test.

mod common;
mod workflows_http;

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::routing::post;
use podlens_app::accounts::{UsageCounter, UsageSubject, UsageWindow};
use podlens_app::mail::Outbox;
use podlens_app::workflows::agent::{AssistTask, OpenAiConfig, OpenAiProvider, ShowMaterial};
use podlens_model::catalog::{EpisodeRecord, FeedBatch};
use serde_json::{Value, json};
use workflows_http::{Http, start, start_with};

fn batch(title_part: &str) -> &'static FeedBatch {
    common::shared()
        .fixture
        .batches
        .iter()
        .find(|batch| batch.podcast.podcast_rss_title.contains(title_part))
        .unwrap_or_else(|| panic!("no fixture podcast titled {title_part}"))
}

/// The newest `count` episode slugs of a podcast, read from the Parquet snapshot.
fn newest_slugs(podcast_id: &str, count: usize) -> Vec<String> {
    let parquet = common::shared().dir.join("parquet/episodes.parquet");
    let connection = duckdb::Connection::open_in_memory().unwrap();
    let sql = format!(
        r#"SELECT "episodeSlug" FROM read_parquet('{}') WHERE "podcastId" = ?
           ORDER BY "episodeRssPublishedAt" DESC NULLS LAST, "episodeId" LIMIT {count}"#,
        parquet.display()
    );
    let mut statement = connection.prepare(&sql).unwrap();
    statement
        .query_map([podcast_id], |row| row.get::<_, String>(0))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
}

/// Everything said in these episodes: titles, show notes and (for the transcribed
/// one) the transcript text as the corpus file holds it.
fn said_in(episodes: &[&EpisodeRecord]) -> String {
    let fixture = &common::shared().fixture;
    let mut text = String::new();
    for episode in episodes {
        text.push_str(&episode.episode_rss_title);
        text.push('\n');
        text.push_str(
            episode
                .episode_rss_description_no_html
                .as_deref()
                .unwrap_or_default(),
        );
        text.push('\n');
        if episode.episode_id == fixture.transcript_episode_id {
            let path = common::fixture::corpus_dir()
                .join("transcripts")
                .join(common::fixture::FIXTURE_TRANSCRIPT);
            text.push_str(&std::fs::read_to_string(path).unwrap());
        }
    }
    text
}

fn episodes_by_slug<'a>(batch: &'a FeedBatch, slugs: &[String]) -> Vec<&'a EpisodeRecord> {
    slugs
        .iter()
        .map(|slug| {
            batch
                .episodes
                .iter()
                .find(|episode| &episode.episode_slug == slug)
                .unwrap()
        })
        .collect()
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not a list: {value}"))
        .iter()
        .map(|item| item.as_str().unwrap().to_owned())
        .collect()
}

/// A browser session of a new free-plan user (the free plan has no API keys).
fn free_session(http: &Http, email: &str) -> String {
    let account =
        podlens_app::runtime::block_on_own_thread(http.state.accounts.sign_up(email)).unwrap();
    let token = podlens_app::runtime::block_on_own_thread(
        http.state
            .sessions
            .open_session(&account.user_id, chrono::Utc::now()),
    )
    .unwrap();
    format!(
        "{}={token}",
        podlens_app::accounts::sessions::SESSION_COOKIE
    )
}

/// A call as the web app makes it: the session cookie and the client header.
async fn browser_call(
    http: &Http,
    method: &str,
    path: &str,
    cookie: &str,
    body: Option<Value>,
) -> workflows_http::Answer {
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let mut request = reqwest::Client::new()
        .request(method, format!("{}{path}", http.base))
        .header("cookie", cookie)
        .header("x-podlens-client", "web");
    if let Some(body) = body {
        request = request
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    http.send(request).await
}

fn all_questions(prep: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for group in prep["groupedLikelyQuestions"].as_array().unwrap() {
        out.extend(strings(&group["veryLikely"]));
        out.extend(strings(&group["curveballs"]));
    }
    out
}

#[tokio::test]
async fn guest_prep_asks_what_the_host_really_asks_and_can_be_mailed() {
    let http = start().await;
    let key = http.key("prep@example.com", "business");
    let show = batch("LINUX Unplugged");
    let slug = show.podcast.podcast_slug.clone();
    let expected_slugs = newest_slugs(&show.podcast.podcast_id.to_string(), 5);
    assert_eq!(expected_slugs.len(), 5);
    let material = said_in(&episodes_by_slug(show, &expected_slugs));

    let answer = http
        .post(
            "/api/v1/guest-prep/generate",
            &key,
            json!({"podcastSlug": slug}),
        )
        .await;
    assert_eq!(answer.usage_count(), Some(1));
    let data = answer.data();
    assert_eq!(data["emailedTo"], Value::Null);
    let prep = &data["guestPrep"];
    assert_eq!(prep["podcastSlug"], slug.as_str());
    assert_eq!(strings(&prep["episodeSlugs"]), expected_slugs);
    let questions = all_questions(prep);
    assert!(!questions.is_empty(), "{prep}");
    for question in &questions {
        assert!(question.ends_with('?'), "{question}");
        assert!(
            material.contains(question.as_str()),
            "not said on the show: {question}"
        );
    }
    for group in prep["groupedLikelyQuestions"].as_array().unwrap() {
        assert!(!group["description"].as_str().unwrap().is_empty());
    }
    let actions = strings(&prep["criticalActions"]);
    let newest = episodes_by_slug(show, &expected_slugs[..1])[0];
    assert!(
        actions[0].contains(&newest.episode_rss_title),
        "{actions:?}"
    );
    let summary = prep["summary"].as_str().unwrap();
    assert!(summary.starts_with(&format!(
        "## Preparing for {}",
        show.podcast.podcast_rss_title
    )));
    for episode in episodes_by_slug(show, &expected_slugs) {
        assert!(summary.contains(&episode.episode_rss_title), "{summary}");
    }

    // With an email the prep is mailed through the outbox.
    let outbox = Outbox::in_data_dir(&http.state.data_dir);
    let before = outbox.messages().unwrap().len();
    let mailed = http
        .post(
            "/api/v1/guest-prep/generate",
            &key,
            json!({"podcastSlug": slug, "email": "guest@example.com"}),
        )
        .await;
    assert_eq!(mailed.data()["emailedTo"], "guest@example.com");
    assert_eq!(mailed.usage_count(), Some(2));
    let messages = outbox.messages().unwrap();
    assert_eq!(messages.len(), before + 1);
    let mail = std::fs::read_to_string(messages.last().unwrap()).unwrap();
    assert!(mail.contains("To: guest@example.com"), "{mail}");
    assert!(
        mail.contains(&format!("Subject: Guest prep for {slug}")),
        "{mail}"
    );
    assert!(mail.contains(&questions[0]), "{mail}");

    for (body, status, message) in [
        (json!({}), 400, "podcastSlug is required"),
        (
            json!({"podcastSlug": "Not A Slug"}),
            400,
            "Podcast slug must contain only lowercase letters, digits and hyphens",
        ),
        (
            json!({"podcastSlug": slug, "email": "not-an-email"}),
            400,
            "Invalid email address",
        ),
        (
            json!({"podcastSlug": "no-such-show"}),
            404,
            "Podcast not found: no-such-show",
        ),
        (json!([1]), 400, "The request body must be a JSON object"),
    ] {
        let refused = http
            .post("/api/v1/guest-prep/generate", &key, body.clone())
            .await;
        assert_eq!(refused.status, status, "{body}: {}", refused.body);
        assert_eq!(refused.message(), message, "{body}");
        assert_eq!(
            refused.usage_count(),
            None,
            "{body}: refused calls are not charged"
        );
    }
    let signed_out = http
        .send(
            reqwest::Client::new()
                .post(format!("{}/api/v1/guest-prep/generate", http.base))
                .header("content-type", "application/json")
                .body(json!({"podcastSlug": slug}).to_string()),
        )
        .await;
    assert_eq!(signed_out.status, 401);
}

#[tokio::test]
async fn every_new_kind_is_charged_to_the_ai_assist_quota() {
    let http = start().await;
    // The free plan allows 3 AI assists a day.
    let cookie = free_session(&http, "prep-free@example.com");
    let fixture = &common::shared().fixture;
    let slug = batch("LINUX Unplugged").podcast.podcast_slug.clone();
    let episode = fixture.transcript_episode_id;
    let first = browser_call(
        &http,
        "POST",
        "/api/v1/guest-prep/generate",
        &cookie,
        Some(json!({"podcastSlug": slug})),
    )
    .await;
    assert_eq!(first.usage_count(), Some(1), "{}", first.body);
    assert_eq!(first.headers["x-ratelimit-limit"], "3");
    let second = browser_call(
        &http,
        "POST",
        "/api/v1/agent/",
        &cookie,
        Some(json!({"kind": "podcast", "podcastId": slug})),
    )
    .await;
    assert_eq!(second.usage_count(), Some(2));
    let analysis_path = format!("/api/v1/agent/episode/{episode}/deep-analysis");
    let third = browser_call(&http, "GET", &analysis_path, &cookie, None).await;
    assert_eq!(third.usage_count(), Some(3));
    third.data();
    let expected = "Usage limit reached: the free plan allows 3 ai assists per day. It resets tomorrow (00:00 UTC).";
    for (method, path, body) in [
        (
            "POST",
            "/api/v1/guest-prep/generate".to_owned(),
            Some(json!({"podcastSlug": slug})),
        ),
        (
            "POST",
            "/api/v1/agent/".to_owned(),
            Some(
                json!({"kind": "custom", "prompt": "What is said?", "contextType": "transcript", "episodeId": episode.to_string()}),
            ),
        ),
        (
            "POST",
            "/api/v1/podcasts/deep-analysis".to_owned(),
            Some(json!({"podcastId": slug, "limit": 1})),
        ),
        ("GET", format!("{analysis_path}?forceRegenerate=true"), None),
    ] {
        let refused = browser_call(&http, method, &path, &cookie, body).await;
        assert_eq!(refused.status, 429, "{path}: {}", refused.body);
        assert_eq!(refused.message(), expected, "{path}");
    }
    // The stored analysis is still served without a charge.
    let cached = browser_call(&http, "GET", &analysis_path, &cookie, None).await;
    assert_eq!(cached.usage_count(), None);
    cached.data();
    // The day's usage record holds the three charges.
    let account = podlens_app::runtime::block_on_own_thread(
        http.state.accounts.sign_up("prep-free@example.com"),
    )
    .unwrap();
    // Capped calls are written in batches: write this node's now.
    podlens_app::runtime::block_on_own_thread(http.state.quotas.flush()).unwrap();
    let used = podlens_app::runtime::block_on_own_thread(http.state.accounts.used(
        &UsageSubject::User {
            user_id: account.user_id,
            team_id: account.team_id,
        },
        UsageCounter::AiAssist,
        UsageWindow::Day,
        chrono::Utc::now().date_naive(),
    ))
    .unwrap();
    assert_eq!(used, 3);

    // Signed-out callers have no AI assists at all.
    let anonymous = http
        .send(
            reqwest::Client::new()
                .post(format!("{}/api/v1/agent/", http.base))
                .header("content-type", "application/json")
                .body(json!({"kind": "podcast", "podcastId": slug}).to_string()),
        )
        .await;
    assert_eq!(anonymous.status, 401);
}

async fn create_prompt(http: &Http, key: &str, body: Value) -> Value {
    http.post("/api/v1/teams/custom-prompts", key, body)
        .await
        .data()["customPrompt"]
        .clone()
}

#[tokio::test]
async fn custom_prompts_are_a_team_resource_with_the_spec_rules() {
    let http = start().await;
    let key = http.key("prompts@example.com", "business");
    let other = http.key("prompts-other@example.com", "business");
    let created = create_prompt(
        &http,
        &key,
        json!({"name": "  Sponsor check  ", "description": "", "contextType": "episode",
               "prompt": "Which sponsors are read?"}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_owned();
    assert_eq!(created["name"], "Sponsor check");
    assert_eq!(created["description"], Value::Null);
    assert_eq!(created["contextType"], "episode");
    assert_eq!(created["prompt"], "Which sponsors are read?");

    let list = http.get("/api/v1/teams/custom-prompts", &key).await;
    assert_eq!(list.data()["customPrompts"].as_array().unwrap().len(), 1);
    let patched = http
        .call(
            "PATCH",
            &format!("/api/v1/teams/custom-prompts/{id}"),
            &key,
            Some(json!({"description": "Ads in the notes", "contextType": "transcript"})),
        )
        .await;
    let patched = patched.data()["customPrompt"].clone();
    assert_eq!(patched["description"], "Ads in the notes");
    assert_eq!(patched["contextType"], "transcript");
    assert_eq!(patched["name"], "Sponsor check");
    let read = http
        .get(&format!("/api/v1/teams/custom-prompts/{id}"), &key)
        .await;
    assert_eq!(read.data()["customPrompt"], patched);

    // Another team sees none of it and cannot touch or run it.
    let foreign = http.get("/api/v1/teams/custom-prompts", &other).await;
    assert_eq!(foreign.data()["customPrompts"], json!([]));
    let not_found = format!("Custom prompt not found: {id}");
    for (method, body) in [
        ("GET", None),
        ("PATCH", Some(json!({"name": "Stolen"}))),
        ("DELETE", None),
    ] {
        let answer = http
            .call(
                method,
                &format!("/api/v1/teams/custom-prompts/{id}"),
                &other,
                body,
            )
            .await;
        assert_eq!(answer.status, 404, "{method}");
        assert_eq!(answer.message(), not_found, "{method}");
    }
    let run = http
        .post(
            "/api/v1/agent/",
            &other,
            json!({"kind": "custom", "customPromptId": id,
                   "episodeId": common::shared().fixture.transcript_episode_id.to_string()}),
        )
        .await;
    assert_eq!(run.status, 404);
    assert_eq!(run.message(), not_found);
    assert_eq!(run.usage_count(), None);

    let long_name = "n".repeat(101);
    let name_rule = "Custom prompt name must be between 3 and 100 characters";
    for (body, message) in [
        (
            json!({"name": "ab", "contextType": "podcast", "prompt": "p"}),
            name_rule,
        ),
        (
            json!({"name": long_name, "contextType": "podcast", "prompt": "p"}),
            name_rule,
        ),
        (
            json!({"contextType": "podcast", "prompt": "p"}),
            "name is required",
        ),
        (
            json!({"name": "Valid", "contextType": "video", "prompt": "p"}),
            "Invalid contextType \"video\"; expected one of podcast, episode, transcript",
        ),
        (
            json!({"name": "Valid", "prompt": "p"}),
            "contextType is required",
        ),
        (
            json!({"name": "Valid", "contextType": "podcast", "prompt": "p".repeat(10_001)}),
            "prompt must be at most 10000 characters",
        ),
        (
            json!({"name": "Valid", "contextType": "podcast", "prompt": "p", "description": "d".repeat(501)}),
            "description must be at most 500 characters",
        ),
        (
            json!({"name": "Valid", "contextType": "podcast", "prompt": "   "}),
            "prompt is required",
        ),
        (
            json!({"name": 5, "contextType": "podcast", "prompt": "p"}),
            "name must be a string",
        ),
        (
            json!({"name": "Valid", "contextType": "podcast", "prompt": "p", "model": "x"}),
            "Unknown custom prompt field \"model\"; expected name, description, contextType or prompt",
        ),
    ] {
        let refused = http
            .post("/api/v1/teams/custom-prompts", &key, body.clone())
            .await;
        assert_eq!(refused.status, 400, "{body}");
        assert_eq!(refused.message(), message, "{body}");
    }
    let path = format!("/api/v1/teams/custom-prompts/{id}");
    for (body, message) in [
        (
            json!({}),
            "At least one field must be provided to update a custom prompt",
        ),
        (json!({"name": "no"}), name_rule),
        (json!({"prompt": null}), "prompt cannot be null"),
    ] {
        let refused = http.call("PATCH", &path, &key, Some(body.clone())).await;
        assert_eq!(refused.status, 400, "{body}");
        assert_eq!(refused.message(), message, "{body}");
    }
    let deleted = http.call("DELETE", &path, &key, None).await;
    assert_eq!(deleted.data()["message"], "Custom prompt deleted");
    assert_eq!(http.get(&path, &key).await.status, 404);
    let list = http.get("/api/v1/teams/custom-prompts", &key).await;
    assert_eq!(list.data()["customPrompts"], json!([]));
}

/// The timed cues of the fixture transcript as the ingest parser reads the corpus file.
fn fixture_cues() -> Vec<(String, f64)> {
    let path = common::fixture::corpus_dir()
        .join("transcripts")
        .join(common::fixture::FIXTURE_TRANSCRIPT);
    let text = std::fs::read_to_string(path).unwrap();
    let format = podlens_ingest::transcript::sniff_format(&text);
    podlens_ingest::transcript::parse_transcript(&text, format)
        .unwrap()
        .segments
        .into_iter()
        .filter_map(|segment| Some((segment.text, segment.start_second?)))
        .collect()
}

#[tokio::test]
async fn the_agent_runs_prompts_and_summaries_over_real_context() {
    let http = start().await;
    let key = http.key("agent-kinds@example.com", "business");
    let fixture = &common::shared().fixture;
    let episode = fixture.transcript_episode_id.to_string();
    let cues = fixture_cues();
    assert!(cues.len() >= 5);

    // A stored transcript prompt quotes the cues nearest its words, with their times.
    let prompt = create_prompt(
        &http,
        &key,
        json!({"name": "Multi lines", "contextType": "transcript", "prompt": "Where is the multi part?"}),
    )
    .await;
    let run = http
        .post(
            "/api/v1/agent/",
            &key,
            json!({"kind": "custom", "customPromptId": prompt["id"], "episodeId": episode}),
        )
        .await;
    assert_eq!(run.usage_count(), Some(1));
    let data = run.data();
    assert_eq!(data["kind"], "custom");
    let sources = data["result"]["sources"].as_array().unwrap();
    assert!(!sources.is_empty(), "{data}");
    for source in sources {
        let text = source["text"].as_str().unwrap();
        assert!(text.to_lowercase().contains("multi"), "{source}");
        let at = source["startSecond"].as_f64().unwrap();
        assert!(
            cues.iter()
                .any(|(cue, start)| cue.contains(text) && (start - at).abs() < 1e-6),
            "{source} is not a cue of the transcript"
        );
    }
    // 01:02:09.001 in the VTT file.
    assert!(
        data["result"]["answer"]
            .as_str()
            .unwrap()
            .contains("1:02:09"),
        "{data}"
    );

    // A prompt text over a podcast answers from its notes and titles.
    let intercepted = batch("Intercepted");
    let run = http
        .post(
            "/api/v1/agent/",
            &key,
            json!({"kind": "custom", "prompt": "List the questions asked", "podcastId": intercepted.podcast.podcast_id.to_string()}),
        )
        .await;
    let newest = newest_slugs(&intercepted.podcast.podcast_id.to_string(), 5);
    let material = said_in(&episodes_by_slug(intercepted, &newest));
    for source in run.data()["result"]["sources"].as_array().unwrap() {
        let text = source["text"].as_str().unwrap();
        assert!(text.ends_with('?'), "{source}");
        assert!(material.contains(text), "{source}");
    }

    // Summaries of an episode, a transcript and a podcast.
    let lup = batch("LINUX Unplugged");
    let lup_episode = &lup.episodes[0];
    let summary = http
        .post(
            "/api/v1/agent/",
            &key,
            json!({"kind": "episode", "episodeId": lup_episode.episode_id.to_string()}),
        )
        .await;
    let result = &summary.data()["result"];
    let notes = said_in(&[lup_episode]);
    assert!(!result["summary"].as_str().unwrap().is_empty());
    for question in strings(&result["questions"]) {
        assert!(
            question.ends_with('?') && notes.contains(&question),
            "{question}"
        );
    }
    for key_point in strings(&result["keyPoints"]) {
        assert!(notes.to_lowercase().contains(&key_point), "{key_point}");
    }
    let transcript = http
        .post(
            "/api/v1/agent/",
            &key,
            json!({"kind": "transcript", "episodeId": episode}),
        )
        .await;
    let text = transcript.data()["result"]["summary"]
        .as_str()
        .unwrap()
        .to_owned();
    let file = std::fs::read_to_string(
        common::fixture::corpus_dir()
            .join("transcripts")
            .join(common::fixture::FIXTURE_TRANSCRIPT),
    )
    .unwrap();
    assert!(!text.is_empty());
    for word in text.split_whitespace() {
        assert!(
            file.contains(word),
            "{word} is not in the transcript: {text}"
        );
    }
    let podcast = http
        .post(
            "/api/v1/agent/",
            &key,
            json!({"kind": "podcast", "podcastId": lup.podcast.podcast_slug}),
        )
        .await;
    assert_eq!(podcast.data()["kind"], "podcast");
    assert_eq!(podcast.usage_count(), Some(5));

    let guest = http
        .post(
            "/api/v1/agent/",
            &key,
            json!({"kind": "guest", "podcastSlug": lup.podcast.podcast_slug}),
        )
        .await;
    assert_eq!(
        guest.data()["result"]["podcastSlug"],
        lup.podcast.podcast_slug.as_str()
    );

    let untranscribed = lup_episode.episode_id.to_string();
    for (body, status, message) in [
        (
            json!({"kind": "video"}),
            400,
            "Invalid kind \"video\"; expected one of custom, episode, guest, podcast, project, project/relevancy, strategy, transcript".to_owned(),
        ),
        (json!({}), 400, "kind is required".to_owned()),
        (
            json!({"kind": "transcript", "episodeId": untranscribed}),
            404,
            format!("Episode {untranscribed} has no transcript"),
        ),
        (
            json!({"kind": "episode"}),
            400,
            "episodeId is required for an episode context".to_owned(),
        ),
        (
            json!({"kind": "podcast"}),
            400,
            "podcastId is required for a podcast context".to_owned(),
        ),
        (
            json!({"kind": "episode", "episodeId": "nope"}),
            400,
            "episodeId must be a UUID, got \"nope\"".to_owned(),
        ),
        (
            json!({"kind": "custom", "episodeId": episode}),
            400,
            "Either customPromptId or prompt is required".to_owned(),
        ),
        (
            json!({"kind": "custom", "prompt": "x", "customPromptId": "y", "episodeId": episode}),
            400,
            "Only one of customPromptId or prompt can be given".to_owned(),
        ),
        (
            json!({"kind": "custom", "prompt": "x", "contextType": "video", "episodeId": episode}),
            400,
            "Invalid contextType \"video\"; expected one of podcast, episode, transcript".to_owned(),
        ),
        (
            json!({"kind": "podcast", "podcastId": "no-such-show"}),
            404,
            "Podcast not found: no-such-show".to_owned(),
        ),
    ] {
        let refused = http.post("/api/v1/agent/", &key, body.clone()).await;
        assert_eq!(refused.status, status, "{body}: {}", refused.body);
        assert_eq!(refused.message(), message, "{body}");
        assert_eq!(refused.usage_count(), None, "{body}");
    }
}

#[tokio::test]
async fn deep_analyses_time_what_was_said_and_are_kept_per_team() {
    let http = start().await;
    let key = http.key("deep@example.com", "business");
    let other = http.key("deep-other@example.com", "business");
    let fixture = &common::shared().fixture;
    let episode = fixture.transcript_episode_id;
    let cues = fixture_cues();

    let path = format!("/api/v1/agent/episode/{episode}/deep-analysis");
    let details = format!("/api/v1/episodes/{episode}/details");
    let requested_at = |answer: &workflows_http::Answer| {
        answer.data()["episode"]["deepAnalysisRequestedAt"].clone()
    };
    assert_eq!(requested_at(&http.get(&details, &key).await), Value::Null);
    let first = http.get(&path, &key).await;
    assert_eq!(first.usage_count(), Some(1));
    let analysis = first.data()["deepAnalysis"].clone();
    assert_eq!(analysis["episodeId"], episode.to_string());
    assert_eq!(analysis["hasTranscript"], true);
    assert!(analysis["deepAnalysisRequestedAt"].is_string());
    // The episode answers carry when this team asked; another team's show none.
    assert_eq!(
        requested_at(&http.get(&details, &key).await),
        analysis["deepAnalysisRequestedAt"]
    );
    assert_eq!(requested_at(&http.get(&details, &other).await), Value::Null);
    let podcast_of_episode = analysis["podcastId"].as_str().unwrap().to_owned();
    let listing = http
        .get(
            &format!("/api/v1/podcasts/{podcast_of_episode}/episodes?limit=100"),
            &key,
        )
        .await;
    let listed: Vec<&Value> = listing.data()["podcastWithEpisodes"]["episodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|item| !item["deepAnalysisRequestedAt"].is_null())
        .collect();
    assert_eq!(listed.len(), 1, "only the analysed episode carries a time");
    assert_eq!(listed[0]["episodeId"], episode.to_string());
    assert!(!analysis["analysis"]["summary"].as_str().unwrap().is_empty());
    for quote in analysis["analysis"]["quotes"].as_array().unwrap() {
        let at = quote["startSecond"].as_f64().unwrap();
        let text = quote["text"].as_str().unwrap();
        assert!(
            cues.iter()
                .any(|(cue, start)| cue.contains(text) && (start - at).abs() < 1e-6)
        );
    }
    let again = http.get(&path, &key).await;
    assert_eq!(again.usage_count(), None);
    assert_eq!(again.data()["deepAnalysis"], analysis);
    let forced = http
        .get(&format!("{path}?forceRegenerate=true"), &key)
        .await;
    assert_eq!(forced.usage_count(), Some(2));
    let refused = http
        .get(&format!("{path}?forceRegenerate=maybe"), &key)
        .await;
    assert_eq!(refused.status, 400);
    assert_eq!(
        refused.message(),
        "forceRegenerate must be true or false, got \"maybe\""
    );

    // Episodes with ad reads in their notes: the sponsors the catalog found there are
    // named in the analysis.
    let stars = batch("Steal the Stars");
    let podcast_id = stars.podcast.podcast_id.to_string();
    let with_ads: Vec<&EpisodeRecord> = stars
        .episodes
        .iter()
        .filter(|record| !podlens_ingest::sponsors::episode_sponsor_mentions(record).is_empty())
        .take(2)
        .collect();
    assert_eq!(with_ads.len(), 2, "the fixture feed has ad reads");
    let ids: Vec<String> = with_ads
        .iter()
        .map(|record| record.episode_id.to_string())
        .collect();
    let requested = http
        .post(
            "/api/v1/podcasts/deep-analysis",
            &key,
            json!({"podcastId": podcast_id, "episodeIds": ids}),
        )
        .await;
    assert_eq!(requested.usage_count(), Some(4));
    let data = requested.data().clone();
    assert_eq!(data["generated"], 2);
    assert_eq!(data["podcastSlug"], stars.podcast.podcast_slug.as_str());
    for (item, record) in data["deepAnalyses"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&with_ads)
    {
        assert_eq!(item["episodeSlug"], record.episode_slug.as_str());
        assert_eq!(item["hasTranscript"], false);
        let names: HashSet<String> = item["analysis"]["sponsors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|sponsor| sponsor["name"].as_str().unwrap().to_owned())
            .collect();
        for mention in podlens_ingest::sponsors::episode_sponsor_mentions(record) {
            assert!(
                names.contains(&mention.name),
                "{} missing from {names:?}",
                mention.name
            );
        }
    }

    // Asking again reuses both; the list holds them newest first; other teams see none.
    let reused = http
        .post(
            "/api/v1/podcasts/deep-analysis",
            &key,
            json!({"podcastId": stars.podcast.podcast_slug, "episodeIds": ids}),
        )
        .await;
    assert_eq!(reused.usage_count(), None);
    assert_eq!(reused.data()["generated"], 0);
    let mut newest_first = with_ads.clone();
    newest_first.sort_by_key(|record| std::cmp::Reverse(record.episode_rss_published_at));
    let expected: Vec<&str> = newest_first
        .iter()
        .map(|record| record.episode_slug.as_str())
        .collect();
    let listed = http
        .get(
            &format!(
                "/api/v1/podcasts/{}/episodes/deep-analysis",
                stars.podcast.podcast_slug
            ),
            &key,
        )
        .await;
    let listed_slugs: Vec<String> = listed.data()["deepAnalyses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["episodeSlug"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(listed_slugs, expected);
    let foreign = http
        .get(
            &format!("/api/v1/podcasts/{podcast_id}/episodes/deep-analysis"),
            &other,
        )
        .await;
    assert_eq!(foreign.data()["deepAnalyses"], json!([]));

    let lup_episode = batch("LINUX Unplugged").episodes[0].episode_id.to_string();
    for (body, status, message) in [
        (json!({}), 400, "podcastId is required".to_owned()),
        (
            json!({"podcastId": podcast_id, "limit": 0}),
            400,
            "limit must be a whole number between 1 and 10".to_owned(),
        ),
        (
            json!({"podcastId": podcast_id, "episodeIds": []}),
            400,
            "episodeIds must hold 1 to 10 episode ids".to_owned(),
        ),
        (
            json!({"podcastId": podcast_id, "episodeIds": [lup_episode]}),
            400,
            format!(
                "Episode {lup_episode} is not an episode of {}",
                stars.podcast.podcast_slug
            ),
        ),
        (
            json!({"podcastId": "no-such-show"}),
            404,
            "Podcast not found: no-such-show".to_owned(),
        ),
        (
            json!({"podcastId": podcast_id, "forceRegenerate": "yes"}),
            400,
            "forceRegenerate must be a boolean".to_owned(),
        ),
        (
            json!({"podcastId": podcast_id, "episodeIds": [1]}),
            400,
            "episodeIds must be a list of strings".to_owned(),
        ),
        (
            json!({"podcastId": podcast_id, "episodeIds": ["nope"]}),
            400,
            "episodeId must be a UUID, got \"nope\"".to_owned(),
        ),
    ] {
        let refused = http
            .post("/api/v1/podcasts/deep-analysis", &key, body.clone())
            .await;
        assert_eq!(refused.status, status, "{body}: {}", refused.body);
        assert_eq!(refused.message(), message, "{body}");
    }
    let unknown = http
        .get(
            "/api/v1/agent/episode/00000000-0000-0000-0000-000000000000/deep-analysis",
            &key,
        )
        .await;
    assert_eq!(unknown.status, 404);
    assert_eq!(
        unknown.message(),
        "Episode not found: 00000000-0000-0000-0000-000000000000"
    );
}

#[tokio::test]
async fn preferences_are_strict_and_per_user_and_settings_per_team() {
    let http = start().await;
    let key = http.key("prefs@example.com", "business");
    let other = free_session(&http, "prefs-other@example.com");
    let empty = http.get("/api/v1/users/preferences", &key).await;
    assert_eq!(empty.data()["preferences"], json!({}));
    let wanted = json!({
        "projects": {"favoriteProjectIds": ["p1", "p2"], "lastSelectedProjectSlug": "launch"},
        "showAdditionalPodcastDirectories": true,
        "search": {"defaultSearchFilters": {"language": "en"}, "defaultResultsView": "table",
                   "export": {"columnsToNotExport": ["socials", "appleReviews"]}}
    });
    let saved = http
        .call(
            "PUT",
            "/api/v1/users/preferences",
            &key,
            Some(wanted.clone()),
        )
        .await;
    assert_eq!(saved.data()["preferences"], wanted);
    let read = http.get("/api/v1/users/preferences", &key).await;
    assert_eq!(read.data()["preferences"], wanted);
    let theirs = browser_call(&http, "GET", "/api/v1/users/preferences", &other, None).await;
    assert_eq!(theirs.data()["preferences"], json!({}));

    for (body, message) in [
        (
            json!({"theme": "dark"}),
            "Invalid preferences: unknown field `theme`, expected one of `projects`, `showAdditionalPodcastDirectories`, `search`",
        ),
        (
            json!({"search": {"defaultResultsView": "grid"}}),
            "Invalid preferences: unknown variant `grid`, expected `list` or `table`",
        ),
        (
            json!({"projects": {"favourites": []}}),
            "Invalid preferences: unknown field `favourites`, expected `favoriteProjectIds` or `lastSelectedProjectSlug`",
        ),
        (json!("dark"), "The request body must be a JSON object"),
        (
            json!({"projects": {"favoriteProjectIds": vec!["p"; 101]}}),
            "Invalid preferences: favoriteProjectIds may hold at most 100 projects",
        ),
    ] {
        let refused = http
            .call("PUT", "/api/v1/users/preferences", &key, Some(body.clone()))
            .await;
        assert_eq!(refused.status, 400, "{body}");
        assert_eq!(refused.message(), message, "{body}");
    }
    // A refused update leaves the stored preferences alone.
    let read = http.get("/api/v1/users/preferences", &key).await;
    assert_eq!(read.data()["preferences"], wanted);

    let off = json!({"automatedSearchEnabled": false, "autoQuickDecisionEnabled": false,
                     "podcastListValidationPageEnabled": false});
    assert_eq!(
        http.get("/api/v1/teams/settings", &key).await.data()["settings"],
        off
    );
    let first = http
        .call(
            "PATCH",
            "/api/v1/teams/settings",
            &key,
            Some(json!({"autoQuickDecisionEnabled": true})),
        )
        .await;
    assert_eq!(first.data()["settings"]["autoQuickDecisionEnabled"], true);
    let second = http
        .call(
            "PATCH",
            "/api/v1/teams/settings",
            &key,
            Some(json!({"automatedSearchEnabled": true})),
        )
        .await;
    assert_eq!(
        second.data()["settings"],
        json!({"automatedSearchEnabled": true, "autoQuickDecisionEnabled": true,
               "podcastListValidationPageEnabled": false})
    );
    assert_eq!(
        browser_call(&http, "GET", "/api/v1/teams/settings", &other, None)
            .await
            .data()["settings"],
        off
    );
    for (body, status, message) in [
        (json!({}), 400, "At least one setting must be provided"),
        (
            json!({"darkMode": true}),
            400,
            "Unknown team setting \"darkMode\"; expected one of automatedSearchEnabled, autoQuickDecisionEnabled, podcastListValidationPageEnabled",
        ),
        (
            json!({"autoQuickDecisionEnabled": "yes"}),
            400,
            "autoQuickDecisionEnabled must be a boolean",
        ),
        (
            json!({"automatedSearchEnabled": true}),
            403,
            "Automated search is not available on the free plan",
        ),
    ] {
        let refused = browser_call(
            &http,
            "PATCH",
            "/api/v1/teams/settings",
            &other,
            Some(body.clone()),
        )
        .await;
        assert_eq!(refused.status, status, "{body}: {}", refused.body);
        assert_eq!(refused.message(), message, "{body}");
    }
}

/// What the fake endpoint received: each request body.
#[derive(Clone, Default)]
struct Fake {
    requests: Arc<Mutex<Vec<Value>>>,
}

/// Answers by the task its system message names, built from the user message, so the
/// test can see that the inputs reached the endpoint and the answers the API.
async fn fake_completions(State(fake): State<Fake>, Json(body): Json<Value>) -> Json<Value> {
    fake.requests.lock().unwrap().push(body.clone());
    let system = body["messages"][0]["content"].as_str().unwrap_or_default();
    let user: Value =
        serde_json::from_str(body["messages"][1]["content"].as_str().unwrap()).unwrap();
    let content = if system.starts_with("You prepare a guest") {
        let title = user["podcast"]["episodes"][0]["title"]
            .as_str()
            .unwrap_or_default();
        json!({
            "groupedLikelyQuestions": [{
                "description": "The latest episode",
                "veryLikely": [format!("What did you make of \"{title}\"?"), "Not a question."],
                "curveballs": []
            }],
            "criticalActions": ["Listen first", "Listen first"],
            "summary": format!("## {}", user["podcast"]["title"].as_str().unwrap_or_default()),
        })
    } else {
        json!({
            "answer": format!("You asked: {}", user["prompt"].as_str().unwrap_or_default()),
            "sources": [{"text": user["context"]["episodes"][0]["transcript"][0]["text"], "startSecond": 0.0}],
        })
    };
    Json(json!({
        "id": "chatcmpl-2",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content.to_string()}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
    }))
}

#[tokio::test]
async fn the_openai_compatible_provider_serves_guest_prep_and_custom_prompts() {
    let fake = Fake::default();
    let app = axum::Router::new()
        .route("/v1/chat/completions", post(fake_completions))
        .with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let provider = OpenAiProvider::new(OpenAiConfig {
        base_url: format!("http://{address}/v1"),
        model: "test-model".into(),
        api_key: Some("sk-test".into()),
        timeout: Duration::from_secs(5),
        retries: 0,
        backoff: Duration::from_millis(10),
    })
    .unwrap();
    let http = start_with(|state| state.assist = Arc::new(provider)).await;
    let key = http.key("prep-openai@example.com", "business");
    let show = batch("LINUX Unplugged");
    let newest = newest_slugs(&show.podcast.podcast_id.to_string(), 5);
    let newest_title = &episodes_by_slug(show, &newest[..1])[0].episode_rss_title;

    let answer = http
        .post(
            "/api/v1/guest-prep/generate",
            &key,
            json!({"podcastSlug": show.podcast.podcast_slug}),
        )
        .await;
    assert_eq!(answer.usage_count(), Some(1));
    let prep = &answer.data()["guestPrep"];
    assert_eq!(strings(&prep["episodeSlugs"]), newest);
    // The provider's non-question and repeated action are dropped.
    assert_eq!(
        prep["groupedLikelyQuestions"][0]["veryLikely"],
        json!([format!("What did you make of \"{newest_title}\"?")])
    );
    assert_eq!(prep["criticalActions"], json!(["Listen first"]));
    assert_eq!(
        prep["summary"],
        format!("## {}", show.podcast.podcast_rss_title)
    );
    {
        let requests = fake.requests.lock().unwrap();
        let body = &requests[0];
        assert_eq!(body["model"], "test-model");
        assert_eq!(
            body["messages"][0]["content"],
            AssistTask::GuestPrep(ShowMaterial::default()).instructions()
        );
        let user: Value =
            serde_json::from_str(body["messages"][1]["content"].as_str().unwrap()).unwrap();
        let sent: Vec<String> = user["podcast"]["episodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|episode| episode["episodeSlug"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(sent, newest);
    }

    let prompt = create_prompt(
        &http,
        &key,
        json!({"name": "Opening", "contextType": "transcript", "prompt": "How does it open?"}),
    )
    .await;
    let episode = common::shared().fixture.transcript_episode_id.to_string();
    let run = http
        .post(
            "/api/v1/agent/",
            &key,
            json!({"kind": "custom", "customPromptId": prompt["id"], "episodeId": episode}),
        )
        .await;
    assert_eq!(run.usage_count(), Some(2));
    let result = &run.data()["result"];
    assert_eq!(result["answer"], "You asked: How does it open?");
    let first_cue = &fixture_cues()[0].0;
    assert_eq!(result["sources"][0]["text"], first_cue.as_str());
    let requests = fake.requests.lock().unwrap();
    let user: Value =
        serde_json::from_str(requests[1]["messages"][1]["content"].as_str().unwrap()).unwrap();
    assert_eq!(user["contextType"], "transcript");
    assert_eq!(
        user["context"]["episodes"][0]["episodeId"],
        episode.as_str()
    );
}

/// The fixture podcasts whose title or description holds a word starting with `stem`.
fn podcasts_saying(stem: &str) -> Vec<String> {
    common::shared()
        .fixture
        .batches
        .iter()
        .filter(|batch| {
            let text = format!(
                "{} {}",
                batch.podcast.podcast_rss_title,
                batch
                    .podcast
                    .podcast_rss_description_no_html
                    .as_deref()
                    .unwrap_or_default()
            )
            .to_lowercase();
            text.split(|c: char| !c.is_alphanumeric())
                .any(|word| word.starts_with(stem))
        })
        .map(|batch| batch.podcast.podcast_id.to_string())
        .collect()
}

/// Suggestions searched the words of the project's name ("pitch", "maya", "chen")
/// instead of what its listed shows are about: a project with no keywords now gets
/// the shows related to the ones it lists, each naming the listed show it is like (id and title) apart from the matched terms.
#[tokio::test]
async fn a_project_without_keywords_is_suggested_shows_like_the_ones_it_lists() {
    let http = start().await;
    let key = http.key("like-listed@example.com", "agency");
    let show = batch("LINUX Unplugged");
    let show_id = show.podcast.podcast_id.to_string();
    let created = http
        .call(
            "PUT",
            "/api/v1/projects",
            &key,
            Some(json!({"name": "Pitch Maya Chen", "projectTypes": ["guest-booking"]})),
        )
        .await;
    let slug = created.data()["project"]["slug"]
        .as_str()
        .unwrap()
        .to_owned();
    http.post(
        &format!("/api/v1/projects/{slug}/podcasts"),
        &key,
        json!({"podcastId": show_id}),
    )
    .await
    .data();
    let related = http
        .get(
            &format!("/api/v1/podcasts/{show_id}/related-podcasts"),
            &key,
        )
        .await;
    let related: Vec<String> = related.data()["relatedPodcasts"]["similarPodcasts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|podcast| podcast["id"].as_str().unwrap().to_owned())
        .collect();
    assert!(!related.is_empty());

    let answer = http
        .post(
            "/api/v1/agent/",
            &key,
            json!({"kind": "project", "projectId": slug, "limit": 25}),
        )
        .await;
    let result = &answer.data()["result"];
    // The reason names the listed show by id and title, apart from the matched terms.
    let reason = json!({"podcastId": show_id, "title": show.podcast.podcast_rss_title});
    let liked: Vec<&str> = result["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["likeListed"].as_array().unwrap().contains(&reason))
        .map(|s| s["podcastId"].as_str().unwrap())
        .collect();
    assert!(!liked.is_empty(), "{}", answer.body);
    for id in &liked {
        assert!(
            related.iter().any(|r| r == id),
            "{id} is not related to the listed show"
        );
        assert_ne!(*id, show_id, "the listed show is suggested");
    }
    // The name's words are searched only for a project that has nothing else.
    assert!(
        result["searchTerms"].as_array().unwrap().is_empty(),
        "{}",
        result["searchTerms"]
    );
}

#[tokio::test]
async fn the_project_kind_suggests_podcasts_not_listed_or_blacklisted_and_strategy_stores_strategies()
 {
    let http = start().await;
    let key = http.key("suggest@example.com", "agency");
    let show = batch("LINUX Unplugged");
    let show_id = show.podcast.podcast_id.to_string();
    let saying = podcasts_saying("unplug");
    assert!(saying.contains(&show_id));
    let created = http
        .call(
            "PUT",
            "/api/v1/projects",
            &key,
            Some(
                json!({"name": "Unplugged tour", "projectTypes": ["guest-booking"],
                        "projectKeywords": ["unplugged"]}),
            ),
        )
        .await;
    let slug = created.data()["project"]["slug"]
        .as_str()
        .unwrap()
        .to_owned();
    let run = |body: Value| {
        let (http, key) = (&http, key.clone());
        async move { http.post("/api/v1/agent/", &key, body).await }
    };

    let first = run(json!({"kind": "project", "projectId": slug})).await;
    assert_eq!(first.usage_count(), Some(1), "{}", first.body);
    let result = &first.data()["result"];
    assert_eq!(result["searchTerms"][0], "unplugged");
    let suggestions = result["suggestions"].as_array().unwrap();
    let ids: Vec<&str> = suggestions
        .iter()
        .map(|s| s["podcastId"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&show_id.as_str()), "{}", first.body);
    let top = &suggestions[0];
    assert!(
        top["matchedTerms"]
            .as_array()
            .unwrap()
            .contains(&json!("unplugged")),
        "{top}"
    );
    // Only the keyword can bring a podcast in with it as a matched term.
    for suggestion in suggestions {
        if suggestion["matchedTerms"] == json!(["unplugged"]) {
            assert!(
                saying.contains(&suggestion["podcastId"].as_str().unwrap().to_owned()),
                "{suggestion} does not say unplugged"
            );
        }
    }
    let pipeline = &result["pipeline"];
    for status in [
        "prospect",
        "qualified",
        "pitched",
        "lost",
        "booked",
        "ignored",
    ] {
        assert_eq!(pipeline[status], 0, "{pipeline}");
    }

    // Listed and blacklisted podcasts are left out.
    let added = http
        .post(
            &format!("/api/v1/projects/{slug}/podcasts"),
            &key,
            json!({"podcastId": show_id}),
        )
        .await;
    added.data();
    let other = ids
        .iter()
        .find(|id| **id != show_id)
        .map(|id| (*id).to_owned());
    if let Some(other) = &other {
        http.call(
            "PUT",
            &format!("/api/v1/teams/podcasts/{other}"),
            &key,
            Some(json!({"blacklist": true})),
        )
        .await
        .data();
    }
    let second = run(json!({"kind": "project", "projectId": slug, "limit": 25})).await;
    let result = &second.data()["result"];
    let ids: Vec<&str> = result["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["podcastId"].as_str().unwrap())
        .collect();
    assert!(
        !ids.contains(&show_id.as_str()),
        "a listed podcast is suggested again"
    );
    if let Some(other) = &other {
        assert!(
            !ids.contains(&other.as_str()),
            "a blacklisted podcast is suggested"
        );
    }
    assert_eq!(result["pipeline"]["prospect"], 1);
    assert!(
        result["nextSteps"]
            .as_array()
            .unwrap()
            .iter()
            .any(|step| step
                .as_str()
                .unwrap()
                .starts_with("1 prospect(s) have no priority")),
        "{}",
        result["nextSteps"]
    );

    // Refusals cost nothing.
    let missing = run(json!({"kind": "project", "projectId": "no-such-project"})).await;
    assert_eq!(missing.status, 404);
    assert_eq!(missing.message(), "Project not found: no-such-project");
    let bad = run(json!({"kind": "project", "projectId": slug, "limit": 0})).await;
    assert_eq!(bad.status, 400);
    assert_eq!(
        bad.message(),
        "limit must be a whole number between 1 and 25"
    );

    // `strategy` generates and stores the project's search strategies.
    let strategies = run(json!({"kind": "strategy", "projectId": slug, "count": 2})).await;
    assert_eq!(strategies.usage_count(), Some(3), "{}", strategies.body);
    let made = strategies.data()["result"]["strategies"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(made.len(), 2);
    let stored = http
        .get(&format!("/api/v1/projects/{slug}/strategies"), &key)
        .await;
    let stored_ids: Vec<&Value> = stored.data()["strategies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["id"])
        .collect();
    for strategy in &made {
        assert!(stored_ids.contains(&&strategy["id"]));
    }
    let free = free_session(&http, "suggest-free@example.com");
    let refused = browser_call(
        &http,
        "POST",
        "/api/v1/agent/",
        &free,
        Some(json!({"kind": "strategy", "projectId": slug})),
    )
    .await;
    assert_eq!(refused.status, 403);
    assert_eq!(
        refused.message(),
        "Automated search is not available on the free plan"
    );
}

/// A GET that spends the plan's allowances rode a session cookie from any site:
/// SameSite=Lax cookies go with a top-level link, so a page elsewhere could make a
/// signed-in user regenerate deep analyses (AI assists) or request transcriptions. By
/// session cookie, such a GET now needs the app's client header (or the browser's
/// `Sec-Fetch-Site: same-origin`); API keys are not affected.
#[tokio::test]
async fn a_cross_site_get_cannot_spend_ai_assists_by_session_cookie() {
    let http = start().await;
    let key = http.key("cross-site@example.com", "business");
    let cookie = http.session_cookie(&key);
    let episode = common::shared().fixture.transcript_episode_id;
    let regenerate = format!("/api/v1/agent/episode/{episode}/deep-analysis?forceRegenerate=true");
    let transcription = format!("/api/v1/episodes/{episode}/transcription-request");
    let by_cookie = |path: &str, headers: &[(&str, &str)]| {
        let mut request = reqwest::Client::new()
            .get(format!("{}{path}", http.base))
            .header("cookie", &cookie);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        http.send(request)
    };
    for path in [&regenerate, &transcription] {
        // What a link on another site sends.
        for headers in [&[][..], &[("sec-fetch-site", "cross-site")][..]] {
            let refused = by_cookie(path, headers).await;
            assert_eq!(refused.status, 403, "{path}: {}", refused.body);
            assert!(
                refused.message().contains("x-podlens-client"),
                "{}",
                refused.body
            );
        }
    }
    let used = || {
        podlens_app::runtime::block_on_own_thread(
            http.state.accounts.team_usage(
                &podlens_app::runtime::block_on_own_thread(
                    http.state.accounts.account_for_key(&key),
                )
                .unwrap()
                .unwrap()
                .team_id,
                chrono::Utc::now().date_naive(),
                chrono::Utc::now().date_naive(),
            ),
        )
        .unwrap()
        .iter()
        .filter(|row| row.counter == UsageCounter::AiAssist.alias())
        .map(|row| row.count)
        .sum::<u64>()
    };
    podlens_app::runtime::block_on_own_thread(http.state.quotas.flush()).unwrap();
    assert_eq!(used(), 0, "nothing was spent");
    // The app itself, a same-origin fetch, and an API key.
    by_cookie(&regenerate, &[("x-podlens-client", "web")])
        .await
        .data();
    by_cookie(&regenerate, &[("sec-fetch-site", "same-origin")])
        .await
        .data();
    http.get(&regenerate, &key).await.data();
    podlens_app::runtime::block_on_own_thread(http.state.quotas.flush()).unwrap();
    assert_eq!(used(), 3);
}
