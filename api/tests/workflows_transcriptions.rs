//! Transcription requests, request history, strategies and transcript passages over
//! HTTP on a real socket, checked against the fixture feeds and transcript read
//! independently.

mod common;
mod workflows_http;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use workflows_http::{Http, start};

fn batch(title_part: &str) -> &'static podlens_model::catalog::FeedBatch {
    common::shared()
        .fixture
        .batches
        .iter()
        .find(|batch| batch.podcast.podcast_rss_title.contains(title_part))
        .unwrap()
}

/// Episode ids of a feed, newest first (as a second computation of the order).
fn newest_first(title_part: &str) -> Vec<(String, Option<DateTime<Utc>>)> {
    let mut episodes: Vec<(String, Option<DateTime<Utc>>)> = batch(title_part)
        .episodes
        .iter()
        .map(|e| (e.episode_id.to_string(), e.episode_rss_published_at))
        .collect();
    episodes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    episodes
}

async fn requests(http: &Http, key: &str) -> Value {
    http.get("/api/v1/teams/transcriptions?limit=100", key)
        .await
        .data()
        .clone()
}

#[tokio::test]
async fn an_episode_request_completes_from_the_publisher_transcript_or_fails_with_the_reason() {
    let http = start().await;
    let key = http.key("tx-episode@example.com", "business");
    let with_transcript = common::shared().fixture.transcript_episode_id.to_string();
    let answer = http
        .get(
            &format!("/api/v1/episodes/{with_transcript}/transcription-request"),
            &key,
        )
        .await;
    assert!(
        answer.data()["message"]
            .as_str()
            .unwrap()
            .starts_with("Transcription requested for")
    );
    let without = newest_first("Intercepted")[0].0.clone();
    http.get(
        &format!("/api/v1/episodes/{without}/transcription-request"),
        &key,
    )
    .await
    .data();

    let data = http
        .wait_for("/api/v1/teams/transcriptions?limit=100", &key, |data| {
            data["requests"].as_array().is_some_and(|list| {
                list.len() == 2 && list.iter().all(|r| r["completedAt"].is_string())
            })
        })
        .await;
    let find = |id: &str| {
        data["requests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["episodeId"] == id)
            .unwrap()
            .clone()
    };
    let done = find(&with_transcript);
    assert_eq!(done["failureReason"], Value::Null);
    assert_eq!(done["requestType"], "transcription");
    assert_eq!(
        done["podcastId"],
        common::shared()
            .fixture
            .transcript_podcast_id
            .to_string()
            .as_str()
    );
    let failed = find(&without);
    assert!(
        failed["failureReason"]
            .as_str()
            .unwrap()
            .contains("no publisher transcript")
    );
    assert_eq!(data["totalRequests"], 2);

    // A second request for a completed episode is not made (nor charged).
    let again = http
        .get(
            &format!("/api/v1/episodes/{with_transcript}/transcription-request"),
            &key,
        )
        .await;
    assert!(
        again.data()["message"]
            .as_str()
            .unwrap()
            .contains("already requested")
    );
    let completed_only = http
        .get(
            "/api/v1/teams/transcriptions?limit=100&filterCompleted=true",
            &key,
        )
        .await;
    assert_eq!(completed_only.data()["totalRequests"], 1);

    // The history by type is the same list; other types are empty; bad types refused.
    let history = http
        .get(
            "/api/v1/teams/request-history?limit=100&requestType=transcription",
            &key,
        )
        .await;
    assert_eq!(history.data(), &requests(&http, &key).await);
    let prep = http
        .get(
            "/api/v1/teams/request-history?limit=10&requestType=guestPrep",
            &key,
        )
        .await;
    assert_eq!(prep.data()["totalRequests"], 0);
    let bad = http
        .get(
            "/api/v1/teams/request-history?limit=10&requestType=podcast",
            &key,
        )
        .await;
    assert_eq!(bad.status, 400);
    let no_limit = http.get("/api/v1/teams/transcriptions", &key).await;
    assert_eq!(no_limit.message(), "limit is required");

    // Completed requests are polling events.
    let events = http
        .get("/api/v1/polling/updates?eventTypes=request_completed", &key)
        .await;
    let events = events.data()["events"].as_array().unwrap().clone();
    assert_eq!(events.len(), 2);
    assert!(events.iter().any(
        |e| e["data"]["episodeId"] == with_transcript.as_str() && e["data"]["error"].is_null()
    ));

    let unknown = http
        .get(
            &format!(
                "/api/v1/episodes/{}/transcription-request",
                uuid::Uuid::nil()
            ),
            &key,
        )
        .await;
    assert_eq!(unknown.status, 404);
}

/// Waits until every request of the team has been processed.
async fn settle(http: &Http, key: &str) {
    http.wait_for("/api/v1/teams/transcriptions?limit=100", key, |data| {
        data["requests"]
            .as_array()
            .is_some_and(|list| list.iter().all(|r| r["completedAt"].is_string()))
    })
    .await;
}

#[tokio::test]
async fn podcast_requests_cover_latest_recent_and_since() {
    let http = start().await;
    let key = http.key("tx-podcast@example.com", "agency");
    let podcast = batch("LINUX Unplugged").podcast.podcast_id.to_string();
    let episodes = newest_first("LINUX Unplugged");
    let ids = |range: &[(String, Option<DateTime<Utc>>)]| -> Vec<String> {
        range.iter().map(|(id, _)| id.clone()).collect()
    };
    let path = |query: &str| format!("/api/v1/podcasts/{podcast}/transcription-request?{query}");

    let latest = http
        .get(&path("type=latest&requestFutureEpisodes=false"), &key)
        .await;
    assert_eq!(latest.data()["episodeIds"], json!(ids(&episodes[..1])));
    settle(&http, &key).await;
    // The feed has no transcripts, so the first request failed and may be made again.
    let recent = http
        .get(&path("type=recent&requestFutureEpisodes=false"), &key)
        .await;
    assert_eq!(recent.data()["episodeIds"], json!(ids(&episodes[..5])));
    settle(&http, &key).await;

    let since: DateTime<Utc> = "2017-12-01T00:00:00Z".parse().unwrap();
    let answer = http
        .get(
            &path("type=since&sinceDate=2017-12-01&requestFutureEpisodes=true"),
            &key,
        )
        .await;
    let covered: Vec<String> = episodes
        .iter()
        .filter(|(_, published)| published.is_some_and(|at| at >= since))
        .map(|(id, _)| id.clone())
        .collect();
    assert!(covered.len() > 5, "{covered:?}");
    assert_eq!(answer.data()["episodeIds"], json!(covered));
    assert!(
        answer.data()["message"]
            .as_str()
            .unwrap()
            .contains("future episodes")
    );
    settle(&http, &key).await;

    // By default `since` starts on 1 January 2024, after every episode of this feed.
    let start_2024: DateTime<Utc> = "2024-01-01T00:00:00Z".parse().unwrap();
    let after_2024 = episodes
        .iter()
        .filter(|(_, at)| at.is_some_and(|at| at >= start_2024))
        .count();
    let later = http
        .get(&path("type=since&requestFutureEpisodes=false"), &key)
        .await;
    assert_eq!(
        later.data()["episodeIds"].as_array().unwrap().len(),
        after_2024
    );

    let bad = http
        .get(&path("type=all&requestFutureEpisodes=false"), &key)
        .await;
    assert_eq!(
        bad.message(),
        "Invalid type \"all\"; expected one of since, latest, recent"
    );
    let total = http.get("/api/v1/teams/transcriptions?limit=1", &key).await;
    assert_eq!(
        total.data()["totalRequests"].as_u64().unwrap() as usize,
        1 + 5 + covered.len() + after_2024
    );
    // Every request failed with the reason: this feed publishes no transcripts.
    let all = http
        .get(
            "/api/v1/teams/transcriptions?limit=100&filterCompleted=true",
            &key,
        )
        .await;
    assert_eq!(all.data()["totalRequests"], 0);
}

#[tokio::test]
async fn strategies_are_generated_within_the_plan_and_the_text_limits() {
    let http = start().await;
    let key = http.key("tx-strategies@example.com", "business");
    let project = http
        .call(
            "PUT",
            "/api/v1/projects",
            &key,
            Some(json!({"name": "Compost book tour", "projectKeywords": ["composting", "soil"]})),
        )
        .await;
    let slug = project.data()["project"]["slug"]
        .as_str()
        .unwrap()
        .to_owned();
    let generated = http
        .post(
            &format!("/api/v1/projects/{slug}/strategies/generate"),
            &key,
            json!({}),
        )
        .await;
    let strategies = generated.data()["strategies"].as_array().unwrap().clone();
    // The business plan allows one strategy per list (SPEC.md §9).
    assert_eq!(strategies.len(), 1);
    assert_eq!(generated.usage_count(), Some(1));
    let strategy = &strategies[0];
    assert!(
        strategy["keywordInspiration"]
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k == "composting")
    );
    let refused = http
        .post(
            &format!("/api/v1/projects/{slug}/strategies/generate"),
            &key,
            json!({}),
        )
        .await;
    assert_eq!(refused.status, 403);
    assert_eq!(
        refused.message(),
        "Strategy limit reached: the business plan allows 1 strategies per list. Delete a strategy to generate another."
    );

    let id = strategy["id"].as_str().unwrap();
    let long = http
        .call(
            "PUT",
            &format!("/api/v1/projects/{slug}/strategies/{id}"),
            &key,
            Some(json!({"title": "t".repeat(101)})),
        )
        .await;
    assert_eq!(long.message(), "Short title must be at most 100 characters");
    let blurb = http
        .call(
            "PUT",
            &format!("/api/v1/projects/{slug}/strategies/{id}"),
            &key,
            Some(json!({"strategyBlurb": "b".repeat(1001)})),
        )
        .await;
    assert_eq!(
        blurb.message(),
        "Description must be at most 1000 characters"
    );
    let updated = http
        .call(
            "PUT",
            &format!("/api/v1/projects/{slug}/strategies/{id}"),
            &key,
            Some(json!({"title": "t".repeat(100), "priority": "high", "strategyApproach": "longshot"})),
        )
        .await;
    assert_eq!(updated.data()["strategy"]["priority"], "high");
    let listed = http
        .get(&format!("/api/v1/projects/{slug}/strategies"), &key)
        .await;
    assert_eq!(listed.data()["strategies"][0]["title"], "t".repeat(100));
    assert_eq!(
        listed.data()["strategies"][0]["strategyApproach"],
        "longshot"
    );
    let deleted = http
        .call(
            "DELETE",
            &format!("/api/v1/projects/{slug}/strategies/{id}"),
            &key,
            None,
        )
        .await;
    assert_eq!(deleted.data()["message"], "Strategy deleted");
    let listed = http
        .get(&format!("/api/v1/projects/{slug}/strategies"), &key)
        .await;
    assert_eq!(listed.data()["strategies"], json!([]));
}

fn cues_containing(needle: &str) -> Vec<String> {
    let text = std::fs::read_to_string(
        common::fixture::corpus_dir()
            .join("transcripts")
            .join(common::fixture::FIXTURE_TRANSCRIPT),
    )
    .unwrap();
    let tag = regex::Regex::new(r"<[^>]*>").unwrap();
    text.split("\n\n")
        .filter(|block| block.contains(" --> "))
        .map(|block| {
            block
                .lines()
                .skip_while(|line| !line.contains(" --> "))
                .skip(1)
                .map(|line| tag.replace_all(line, "").trim().to_owned())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|cue| cue.to_lowercase().contains(&needle.to_lowercase()))
        .collect()
}

#[tokio::test]
async fn transcript_passages_match_the_cues_that_hold_the_terms() {
    let http = start().await;
    let key = http.key("tx-passages@example.com", "business");
    let episode = common::shared().fixture.transcript_episode_id;
    let expected = cues_containing("text line");
    assert_eq!(expected.len(), 5);
    let body = |cursor: Option<&str>| {
        json!({
            "searchOptions": {"searchTerms": [{"searchTerm": "text line", "searchType": "text",
                "searchTargets": ["transcript"], "searchTermOptions": {"matchMode": "must"}}]},
            "pageSize": 2,
            "cursor": cursor,
        })
    };
    let path = format!("/api/v1/search/episodes/{episode}/transcript");
    let first = http.post(&path, &key, body(None)).await;
    let data = first.data().clone();
    assert_eq!(data["total"], json!({"value": 5, "relation": "eq"}));
    assert!(
        data["bestPassage"]["text"]
            .as_str()
            .unwrap()
            .starts_with(expected[0].as_str())
    );
    assert_eq!(data["additionalCount"], 4);
    assert_eq!(data["passageLimit"], 100);
    let mut texts: Vec<String> = vec![data["bestPassage"]["text"].as_str().unwrap().to_owned()];
    let mut page = data;
    loop {
        texts.extend(
            page["passages"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["text"].as_str().unwrap().to_owned()),
        );
        if !page["hasMore"].as_bool().unwrap() {
            break;
        }
        let cursor = page["nextCursor"].as_str().unwrap().to_owned();
        page = http
            .post(&path, &key, body(Some(&cursor)))
            .await
            .data()
            .clone();
    }
    // The ingest VTT parser keeps a NOTE block's text in the cue before it, so each
    // passage starts with (rather than equals) its cue.
    assert_eq!(texts.len(), expected.len());
    for (text, cue) in texts.iter().zip(&expected) {
        assert!(text.starts_with(cue.as_str()), "{text:?} vs {cue:?}");
    }

    let none = http
        .post(
            &path,
            &key,
            json!({"searchOptions": {"searchTerms": []}, "pageSize": 5}),
        )
        .await;
    assert_eq!(
        none.message(),
        "At least one search term or filter is required."
    );
    let other = newest_first("Intercepted")[0].0.clone();
    let missing = http
        .post(
            &format!("/api/v1/search/episodes/{other}/transcript"),
            &key,
            body(None),
        )
        .await;
    assert_eq!(missing.status, 404);
}
