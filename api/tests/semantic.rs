//! `POST /api/v1/search/semantic` and related podcasts over an index with vectors: the
//! fixture catalog (real corpus feeds and a real transcript) re-indexed with a static
//! table distilled by real MPNet over the fixture's vocabulary; and the clear 503 of an
//! index built without the model; a team's blacklist holds there too. Expectations come from the transcript itself (its
//! chunks, recomputed here) and the wire rules.

mod common;

use axum::http::StatusCode;
use common::*;
use podlens_data::snapshot::{read_podcasts, read_transcripts};
use podlens_indexer::chunking::chunk_transcript;
use serde_json::json;

#[tokio::test]
async fn without_vectors_semantic_search_is_unavailable_and_bad_bodies_are_refused() {
    let (state, _dir) = state();
    let key = key(&state, "semantic@example.com", "business");
    let app = podlens_api::app(state);
    let reply = semantic(&app, &key, json!({"query": "python profiling"})).await;
    assert_eq!(
        reply.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        reply.text
    );
    let message = reply.body["data"]["message"].as_str().unwrap();
    assert!(
        message.contains("semantic features are unavailable"),
        "{message}"
    );
    // The search form is told searches are keyword-only (public, signed out).
    let facets = get(&app, "/api/v1/search/facets", None).await;
    assert_eq!(ok_data(&facets)["semanticSearch"], json!(false));
    for (body, fragment) in [
        (json!({"query": "x"}), "at least 2 characters"),
        (json!({"query": "radio", "mode": "shows"}), "mode must be"),
        (
            json!({"query": "radio", "limit": 0}),
            "limit must be between",
        ),
        (
            json!({"query": "radio", "limit": 101}),
            "limit must be between",
        ),
    ] {
        let reply = post(&app, "/api/v1/search/semantic", Some(&key), body).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text);
        assert!(reply.text.contains(fragment), "{}", reply.text);
    }
    let unknown = semantic(&app, &key, json!({"query": "radio", "searchTerms": []})).await;
    assert_eq!(unknown.status, StatusCode::BAD_REQUEST, "{}", unknown.text);
    let document = ok_or_raw(&get(&app, "/api/v1/openapi.json", None).await);
    assert!(document["paths"]["/api/v1/search/semantic"]["post"].is_object());
}

/// A semantic search with `body` as the holder of `key`.
async fn semantic(app: &axum::Router, key: &str, body: serde_json::Value) -> Reply {
    post(app, "/api/v1/search/semantic", Some(key), body).await
}

fn ok_or_raw(reply: &Reply) -> serde_json::Value {
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body.clone()
}

#[tokio::test]
async fn semantic_search_finds_a_transcript_passage_with_its_timestamps() {
    if !fixture::mpnet_installed() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fixture = fixture::build_fixture(dir.path());
    // re-index the same snapshot with vectors
    let parquet = dir.path().join(podlens_data::PARQUET_DIR);
    let podcasts = read_podcasts(&parquet).unwrap();
    let transcripts = read_transcripts(&parquet).unwrap();
    let chunks = chunk_transcript(&transcripts[0]);
    let mut texts: Vec<String> = chunks.iter().map(|c| c.text.clone()).collect();
    texts.extend(podcasts.iter().map(|p| p.podcast_rss_title.clone()));
    let options = fixture::vector_build_options(&texts);
    let manifest = fixture::index_snapshot(dir.path(), &options);
    assert!(manifest.vectors.is_some());

    let state = podlens_api::server::open_state(dir.path().to_path_buf(), None).unwrap();
    let key = key(&state, "semantic@example.com", "business");
    let app = podlens_api::app(state);
    let chunk = &chunks[chunks.len() / 2];
    let facets = get(&app, "/api/v1/search/facets", None).await;
    assert_eq!(
        ok_data(&facets)["semanticSearch"],
        json!(true),
        "the index has vectors"
    );
    let reply = semantic(&app, &key, json!({"query": chunk.text, "limit": 5})).await;
    let data = ok_data(&reply);
    assert_eq!(data["searchMode"], "episodes");
    let top = &data["hits"][0];
    assert_eq!(top["episodeId"], fixture.transcript_episode_id.to_string());
    assert_eq!(top["podcastId"], fixture.transcript_podcast_id.to_string());
    assert_eq!(
        top["passage"]["chunkId"],
        format!("{}:{}", transcripts[0].transcript_id, chunk.ordinal)
    );
    assert_eq!(top["passage"]["text"], chunk.text);
    assert_eq!(top["passage"]["startSecond"], json!(chunk.start_second));
    assert!(top["score"].as_f64().unwrap() > 0.99);

    let podcasts_reply = semantic(
        &app,
        &key,
        json!({"query": chunk.text, "mode": "podcasts", "limit": 3}),
    )
    .await;
    let hits = ok_data(&podcasts_reply)["hits"].as_array().unwrap().clone();
    assert!(!hits.is_empty() && hits.len() <= 3);
    assert!(hits.iter().all(|hit| hit["podcastId"].is_string()));

    // The team's blacklist holds for semantic searches too.
    let blacklisted = fixture.transcript_podcast_id.to_string();
    let reply = call(
        &app,
        "PUT",
        &format!("/api/v1/teams/podcasts/{blacklisted}"),
        Some(&key),
        Some(json!({"blacklist": true})),
    )
    .await;
    ok_data(&reply);
    let hidden = semantic(&app, &key, json!({"query": chunk.text, "limit": 5})).await;
    let hidden = ok_data(&hidden)["hits"].as_array().unwrap().clone();
    assert!(
        hidden
            .iter()
            .all(|hit| hit["podcastId"] != blacklisted.as_str()),
        "{hidden:?}"
    );

    let related = get(
        &app,
        &format!(
            "/api/v1/podcasts/{}/related-podcasts",
            fixture.transcript_podcast_id
        ),
        None,
    )
    .await;
    let similar = ok_data(&related)["relatedPodcasts"]["similarPodcasts"]
        .as_array()
        .unwrap()
        .clone();
    assert!(!similar.is_empty());
    assert!(
        similar
            .iter()
            .all(|p| p["id"] != fixture.transcript_podcast_id.to_string())
    );
}
