//! The server's incremental index update for a stored transcript, over a generation
//! built with vectors: the fixture catalog (real corpus feeds) indexed with a static
//! table distilled by real MPNet, then one episode's new transcript applied by
//! `index_updates::update_index`. The update keeps the generation's vectors and embeds
//! the new chunks (semantic search finds the passage with its timestamps over HTTP);
//! when the index's model is gone, the update is refused and the published generation,
//! vectors included, stays as it was.

mod common;

use common::*;
use podlens_app::index_updates::{UpdateOutcome, update_index};
use podlens_data::snapshot::{read_episodes, read_podcasts, read_transcripts};
use podlens_indexer::chunking::chunk_transcript;
use podlens_indexer::read_manifest;
use podlens_model::catalog::{TranscriptRecord, TranscriptSegment, transcript_id};
use serde_json::json;

const SAID: [(f64, f64, &str); 3] = [
    (
        0.0,
        7.5,
        "Glaciers calve icebergs into the fjord every summer afternoon.",
    ),
    (
        7.5,
        15.0,
        "A narwhal surfaced beside our research vessel near the ice shelf.",
    ),
    (
        15.0,
        21.0,
        "We measured the meltwater salinity with a borrowed probe.",
    ),
];

#[tokio::test]
async fn an_update_keeps_the_vectors_and_embeds_the_new_transcript() {
    if !fixture::mpnet_installed() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fixture = fixture::build_fixture(dir.path());
    let parquet = dir.path().join(podlens_data::PARQUET_DIR);
    let podcasts = read_podcasts(&parquet).unwrap();
    let episodes = read_episodes(&parquet).unwrap();
    let transcripts = read_transcripts(&parquet).unwrap();
    let episode = episodes
        .iter()
        .find(|e| e.episode_id != fixture.transcript_episode_id)
        .unwrap()
        .clone();
    let source = "speech-to-text:whisper-base:https://media.example.test/e.mp3".to_owned();
    let record = TranscriptRecord {
        transcript_id: transcript_id(episode.episode_id, &source),
        episode_id: episode.episode_id,
        podcast_id: episode.podcast_id,
        source,
        format: "json".into(),
        language: Some("en".into()),
        transcript_text: SAID.map(|(_, _, text)| text).join(" "),
        segments: SAID
            .iter()
            .map(|(start, end, text)| TranscriptSegment {
                start_second: Some(*start),
                end_second: Some(*end),
                speaker: None,
                text: (*text).to_owned(),
            })
            .collect(),
    };

    // The table covers the fixture's transcript, the podcast titles and the new words.
    let mut texts: Vec<String> = chunk_transcript(&transcripts[0])
        .iter()
        .map(|c| c.text.clone())
        .collect();
    texts.extend(podcasts.iter().map(|p| p.podcast_rss_title.clone()));
    texts.extend(SAID.iter().map(|(_, _, text)| (*text).to_owned()));
    let options = fixture::vector_build_options(&texts);
    let before = fixture::index_snapshot(dir.path(), &options);
    let before_vectors = before.vectors.clone().expect("built with vectors");
    let index_dir = dir.path().join("index");

    // The server loads no model of its own: the update embeds with the index's copy.
    let started = std::time::Instant::now();
    let outcome = tokio::task::spawn_blocking({
        let index_dir = index_dir.clone();
        let (episode, record) = (episode.clone(), record.clone());
        move || update_index(&index_dir, &[episode], &[record])
    })
    .await
    .unwrap()
    .unwrap();
    eprintln!(
        "incremental update with vectors: {:.2}s",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(
        outcome,
        UpdateOutcome::Published {
            generation: before.generation + 1,
            episodes: 1
        }
    );
    let after = read_manifest(&index_dir).unwrap().unwrap();
    let after_vectors = after.vectors.clone().expect("vectors kept");
    assert_eq!(after_vectors.model_sha256, before_vectors.model_sha256);
    let new_chunks = chunk_transcript(&record);
    assert!(!new_chunks.is_empty());
    assert_eq!(after.episodes, before.episodes);
    assert_eq!(after.chunks, before.chunks + new_chunks.len() as u64);
    assert_eq!(
        after_vectors.count,
        before_vectors.count + new_chunks.len() as u64,
        "{before:?} {after:?}"
    );

    // Over HTTP: the words find the episode, and semantic search the passage.
    let state = podlens_api::server::open_state(dir.path().to_path_buf(), None).unwrap();
    let key = key(&state, "updates@example.com", "business");
    let app = podlens_api::app(state);
    let reply = post(
        &app,
        "/api/v1/search/episodes",
        Some(&key),
        json!({"searchTerms": [{"searchTerm": "narwhal", "searchType": "text",
            "searchTargets": ["transcript"], "searchTermOptions": {"matchMode": "must"}}]}),
    )
    .await;
    let hits = search_hits(&reply);
    assert_eq!(hits.len(), 1, "{}", reply.text);
    assert_eq!(hits[0]["episodeId"], episode.episode_id.to_string());
    let chunk = &new_chunks[0];
    let reply = post(
        &app,
        "/api/v1/search/semantic",
        Some(&key),
        json!({"query": chunk.text, "limit": 5}),
    )
    .await;
    let top = &ok_data(&reply)["hits"][0];
    assert_eq!(
        top["episodeId"],
        episode.episode_id.to_string(),
        "{}",
        reply.text
    );
    assert_eq!(
        top["passage"]["chunkId"],
        format!("{}:{}", record.transcript_id, chunk.ordinal)
    );
    assert_eq!(top["passage"]["startSecond"], json!(chunk.start_second));

    // Without the index's model, the update is refused and nothing changes.
    std::fs::remove_dir_all(podlens_indexer::vectors::model_dir(
        &index_dir,
        &after_vectors.model_sha256,
    ))
    .unwrap();
    let refused = update_index(&index_dir, &[episode], &[record]);
    assert!(refused.is_err(), "{refused:?}");
    assert!(
        refused
            .unwrap_err()
            .to_string()
            .contains("its vectors are kept")
    );
    assert_eq!(read_manifest(&index_dir).unwrap().unwrap(), after);
}
