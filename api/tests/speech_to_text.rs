//! Transcription requests answered by speech to text with the real Whisper base model
//! (faster-whisper in a child process): espeak-ng says a known sentence into a WAV file,
//! served on loopback as the enclosure of an episode of a feed ingested into a fixture
//! data directory, and the request goes through the real routes on a real socket. The
//! word error rate against the sentence is bounded, the timings checked against the
//! WAV's own length, and the transcript is served and, through the server's own index
//! update (no `podlens index`), searchable with its timestamps.
//! Failures: an enclosure that is 404, an HTML page instead of audio, a missing model.
//!
//! Without the model, faster-whisper or espeak-ng, the tests that need them print why
//! and return; with `PODLENS_REQUIRE_WHISPER` set (scripts/test.sh sets it) they fail.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use podlens_api::AppState;
use podlens_app::speech::FasterWhisper;
use podlens_app::workflows::speech_worker::SpeechWorker;
use podlens_data::Catalog;
use serde_json::{Value, json};

/// What espeak-ng says: 18 words, no numbers (Whisper writes those as digits).
const SENTENCE: &str = "The quick brown fox jumps over the lazy dog while podcasters record a long interview about distant mountains";
/// The bound on the word error rate.
const MAX_WER: f64 = 0.25;

fn whisper_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("PODLENS_WHISPER_DIR") {
        return PathBuf::from(dir);
    }
    FasterWhisper::default_model_dir().unwrap_or_default()
}

/// Whether the model, faster-whisper and espeak-ng are installed.
fn whisper_installed() -> bool {
    let dir = whisper_dir();
    let missing = if !dir.join("model.bin").is_file() {
        Some(format!(
            "Whisper base is not installed in {}",
            dir.display()
        ))
    } else if !succeeds(Command::new("python3").args(["-c", "import faster_whisper"])) {
        Some("faster-whisper is not installed for python3".to_owned())
    } else if !succeeds(Command::new("espeak-ng").arg("--version")) {
        Some("espeak-ng is not installed".to_owned())
    } else {
        None
    };
    if let Some(why) = missing {
        let why = format!("{why} (run scripts/install-whisper.sh)");
        assert!(
            std::env::var_os("PODLENS_REQUIRE_WHISPER").is_none(),
            "PODLENS_REQUIRE_WHISPER is set: {why}"
        );
        eprintln!("skipping: {why}");
        return false;
    }
    true
}

fn succeeds(command: &mut Command) -> bool {
    command
        .output()
        .map(|output| output.status.success())
        .unwrap_or(false)
}

/// Lowercased words without punctuation.
fn words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|word| {
            word.chars()
                .filter(|c| c.is_alphanumeric() || *c == '\'')
                .collect::<String>()
                .to_lowercase()
        })
        .filter(|word| !word.is_empty())
        .collect()
}

/// Word error rate: the word-level Levenshtein distance over the reference's length.
fn word_error_rate(reference: &str, hypothesis: &str) -> f64 {
    let (reference, hypothesis) = (words(reference), words(hypothesis));
    let mut previous: Vec<usize> = (0..=hypothesis.len()).collect();
    for (i, expected) in reference.iter().enumerate() {
        let mut current = vec![i + 1; hypothesis.len() + 1];
        for (j, heard) in hypothesis.iter().enumerate() {
            let substitution = previous[j] + usize::from(expected != heard);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[hypothesis.len()] as f64 / reference.len().max(1) as f64
}

#[test]
fn the_word_error_rate_counts_substitutions_insertions_and_deletions() {
    assert_eq!(word_error_rate("a b c d", "a b c d"), 0.0);
    assert_eq!(word_error_rate("a b c d", "A, b. c d!"), 0.0);
    assert_eq!(word_error_rate("a b c d", "a x c d"), 0.25);
    assert_eq!(word_error_rate("a b c d", "a b c"), 0.25);
    assert_eq!(word_error_rate("a b c d", "a b y c d"), 0.25);
    assert_eq!(word_error_rate("a b c d", ""), 1.0);
}

/// The length in seconds of a PCM WAV file, from its own header.
fn wav_seconds(bytes: &[u8]) -> f64 {
    assert_eq!(&bytes[0..4], b"RIFF");
    assert_eq!(&bytes[8..12], b"WAVE");
    let mut at = 12;
    let mut byte_rate = 0u32;
    while at + 8 <= bytes.len() {
        let id = &bytes[at..at + 4];
        let size = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        if id == b"fmt " {
            byte_rate = u32::from_le_bytes(bytes[at + 16..at + 20].try_into().unwrap());
        }
        if id == b"data" {
            let data = size.min(bytes.len() - at - 8);
            return data as f64 / f64::from(byte_rate);
        }
        at += 8 + size + size % 2;
    }
    panic!("no data chunk");
}

/// A one-second 440 Hz tone as a 16 kHz mono PCM WAV.
fn tone_wav() -> Vec<u8> {
    let rate = 16_000u32;
    let samples: Vec<i16> = (0..rate)
        .map(|n| {
            ((n as f64 * 440.0 * std::f64::consts::TAU / f64::from(rate)).sin() * 8000.0) as i16
        })
        .collect();
    let data_len = (samples.len() * 2) as u32;
    let mut wav = Vec::new();
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + data_len).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes());
    wav.extend_from_slice(&1u16.to_le_bytes());
    wav.extend_from_slice(&1u16.to_le_bytes());
    wav.extend_from_slice(&rate.to_le_bytes());
    wav.extend_from_slice(&(rate * 2).to_le_bytes());
    wav.extend_from_slice(&2u16.to_le_bytes());
    wav.extend_from_slice(&16u16.to_le_bytes());
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&data_len.to_le_bytes());
    for sample in samples {
        wav.extend_from_slice(&sample.to_le_bytes());
    }
    wav
}

fn feed_xml(base: &str, items: &[(&str, &str, &str)]) -> String {
    let items: String = items
        .iter()
        .enumerate()
        .map(|(n, (guid, title, file))| {
            format!(
                "<item><guid>{guid}</guid><title>{title}</title>\
                 <pubDate>Mon, 0{} Jan 2024 10:00:00 GMT</pubDate>\
                 <enclosure url=\"{base}/{file}\" type=\"audio/wav\" length=\"1000\"/></item>",
                n + 1
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Speech Test Radio</title>\
         <link>https://speech.example</link><description>Episodes said by espeak-ng</description>\
         <language>en</language>{items}</channel></rss>"
    )
}

struct Setup {
    base: String,
    state: AppState,
    key: String,
    /// Episode ids by guid.
    episodes: Vec<(String, String)>,
    _dirs: (tempfile::TempDir, tempfile::TempDir),
}

impl Setup {
    fn episode(&self, guid: &str) -> &str {
        &self
            .episodes
            .iter()
            .find(|(g, _)| g == guid)
            .expect("episode")
            .1
    }

    async fn get(&self, path: &str) -> (u16, Value, String) {
        let response = reqwest::Client::new()
            .get(format!("{}{path}", self.base))
            .header("authorization", &self.key)
            .send()
            .await
            .expect("response");
        let status = response.status().as_u16();
        let text = response.text().await.expect("body");
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        (status, body, text)
    }

    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let response = reqwest::Client::new()
            .post(format!("{}{path}", self.base))
            .header("authorization", &self.key)
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .expect("response");
        let status = response.status().as_u16();
        let bytes = response.bytes().await.expect("body");
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    /// The team's requests once every one has a `completedAt` (at most `limit`).
    async fn settled_requests(&self, count: usize, limit: Duration) -> Vec<Value> {
        let started = std::time::Instant::now();
        loop {
            let (_, body, _) = self.get("/api/v1/teams/transcriptions?limit=100").await;
            let list = body["data"]["requests"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            if list.len() == count && list.iter().all(|r| r["completedAt"].is_string()) {
                return list;
            }
            assert!(
                started.elapsed() < limit,
                "requests not settled in {limit:?}: {body}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

/// A media server on loopback holding `files`, a feed of `items` ingested into a
/// fresh data directory, and the server over it with `engine` as its speech to text.
async fn setup(files: &[(&str, Vec<u8>)], items: &[(&str, &str, &str)], model: &Path) -> Setup {
    setup_with_limit(files, items, model, Duration::from_secs(300)).await
}

async fn setup_with_limit(
    files: &[(&str, Vec<u8>)],
    items: &[(&str, &str, &str)],
    model: &Path,
    time_limit: Duration,
) -> Setup {
    let media = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        std::fs::write(media.path().join(name), bytes).unwrap();
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let media_base = format!("http://{}", listener.local_addr().unwrap());
    let serve_dir = tower_http::services::ServeDir::new(media.path());
    let media_app = axum::Router::new().fallback_service(serve_dir);
    tokio::spawn(async move { axum::serve(listener, media_app).await });

    let feed_url = format!("{media_base}/feed.xml");
    let feed = feed_xml(&media_base, items);
    std::fs::write(media.path().join("feed.xml"), &feed).unwrap();
    let fetched = reqwest::get(&feed_url)
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(data_dir.path()).unwrap();
    let parsed = podlens_ingest::parse_feed(&fetched, None).unwrap();
    let batch = podlens_ingest::normalize(&parsed, &feed_url, Utc::now());
    catalog.upsert_feed(&batch).unwrap();
    catalog.export_parquet().unwrap();
    drop(catalog);
    let episodes = batch
        .episodes
        .iter()
        .map(|e| {
            let guid = e.episode_guid.clone().unwrap_or_default();
            (guid, e.episode_id.to_string())
        })
        .collect();

    let mut state = podlens_api::server::open_state(data_dir.path().to_path_buf(), None).unwrap();
    // The media server is on loopback: allowed by address, as `podlens serve
    // --allow-private` would allow it; every other private address stays refused.
    let engine = FasterWhisper::new(model.to_path_buf()).with_timeout(time_limit);
    state.speech = Arc::new(
        SpeechWorker::new(Arc::new(engine))
            .allowing_addresses(vec![std::net::Ipv4Addr::LOCALHOST.into()]),
    );
    // As a served node does (`App::spawn_background`), usage counts are written and the
    // capped counters' reserved blocks renewed every second: a block left unrenewed for
    // its lease time goes back with its calls unwritten, and transcribing takes longer.
    podlens_app::accounts::meter::spawn_flusher(state.usage.clone());
    podlens_app::accounts::quota::spawn_flusher(state.quotas.clone());
    let key = state
        .accounts
        .create_api_key("speech@example.com", "business")
        .await
        .unwrap()
        .api_key;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = podlens_api::app(state.clone()).into_make_service_with_connect_info::<SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, app).await });
    Setup {
        base: format!("http://{address}"),
        state,
        key,
        episodes,
        _dirs: (media, data_dir),
    }
}

fn request_of<'a>(requests: &'a [Value], episode_id: &str) -> &'a Value {
    requests
        .iter()
        .find(|r| r["episodeId"] == episode_id)
        .expect("request of the episode")
}

/// Builds the search index from the published snapshot, as `podlens index` does.
fn index(data_dir: &Path) {
    let parquet = data_dir.join("parquet");
    let podcasts = podlens_data::snapshot::read_podcasts(&parquet).unwrap();
    let episodes = podlens_data::snapshot::read_episodes(&parquet).unwrap();
    let transcripts = podlens_data::snapshot::read_transcripts(&parquet).unwrap();
    let source = podlens_indexer::IndexSource {
        podcasts: &podcasts,
        episodes: &episodes,
        transcripts: &transcripts,
        persons: &[],
        signals: None,
    };
    podlens_indexer::build_generation(
        &data_dir.join("index"),
        source,
        &podlens_indexer::BuildOptions::default(),
    )
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn speech_is_transcribed_with_whisper_served_with_timings_and_searchable() {
    if !whisper_installed() {
        return;
    }
    let media = tempfile::tempdir().unwrap();
    let wav_path = media.path().join("said.wav");
    let status = Command::new("espeak-ng")
        .arg("-w")
        .arg(&wav_path)
        .arg(SENTENCE)
        .status()
        .unwrap();
    assert!(status.success());
    let wav = std::fs::read(&wav_path).unwrap();
    let duration = wav_seconds(&wav);
    assert!(duration > 3.0, "{duration}");
    let setup = setup(
        &[
            ("said.wav", wav),
            (
                "page.html",
                b"<!DOCTYPE html><html><body>Sign in to listen</body></html>".to_vec(),
            ),
        ],
        &[
            ("speech", "Said by espeak", "said.wav"),
            ("gone", "Gone episode", "missing.wav"),
            ("page", "Login wall", "page.html"),
        ],
        &whisper_dir(),
    )
    .await;

    // A published index from the feed alone, as `podlens index` made it before the
    // transcription: the spoken words are in no episode yet.
    let data_dir = setup.state.data_dir.clone();
    tokio::task::spawn_blocking(move || index(&data_dir))
        .await
        .unwrap();
    let search = json!({"searchTerms": [{"searchTerm": "mountains", "searchType": "text",
        "searchTargets": ["transcript"], "searchTermOptions": {"matchMode": "must"}}]});
    let (status, found) = setup.post("/api/v1/search/episodes", search.clone()).await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["data"]["result"]["hits"], json!([]), "{found}");

    for guid in ["speech", "gone", "page"] {
        let (status, body, _) = setup
            .get(&format!(
                "/api/v1/episodes/{}/transcription-request",
                setup.episode(guid)
            ))
            .await;
        assert_eq!(status, 200, "{body}");
    }
    let requests = setup.settled_requests(3, Duration::from_secs(240)).await;

    let spoken = request_of(&requests, setup.episode("speech"));
    assert_eq!(spoken["status"], "completed", "{spoken}");
    assert_eq!(spoken["failureReason"], Value::Null);
    let gone = request_of(&requests, setup.episode("gone"));
    assert_eq!(gone["status"], "failed");
    let reason = gone["failureReason"].as_str().unwrap();
    assert!(
        reason.starts_with("the episode's audio could not be downloaded") && reason.contains("404"),
        "{reason}"
    );
    let page = request_of(&requests, setup.episode("page"));
    assert_eq!(page["status"], "failed");
    assert_eq!(
        page["failureReason"],
        "the episode's enclosure is not audio: the server sent an HTML page"
    );

    // Three requests, each charged once at request time (the worker charges nothing).
    // Charges reach the usage report with the meter's next batch (once a second; later
    // on a loaded machine), so the report is read until it counts them, then once more
    // after two batches to see that nothing else was charged.
    let used = |usage: &Value| {
        usage["data"]["aliases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|alias| alias["alias"] == "transcriptionRequests")
            .map(|alias| alias["used"].clone())
    };
    let mut usage = Value::Null;
    for _ in 0..60 {
        usage = setup.get("/api/v1/teams/usage/current").await.1;
        if used(&usage) == Some(json!(3)) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    assert_eq!(used(&usage), Some(json!(3)), "{usage}");
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let usage = setup.get("/api/v1/teams/usage/current").await.1;
    assert_eq!(used(&usage), Some(json!(3)), "{usage}");

    // The transcript is served once the new snapshot is picked up.
    let speech_id = setup.episode("speech").to_owned();
    let text_path = format!("/api/v1/episodes/{speech_id}/transcript-text");
    let mut text = String::new();
    for _ in 0..100 {
        let (status, body, _) = setup.get(&text_path).await;
        if status == 200 {
            assert_eq!(
                body["data"]["episodeTranscriptText"]["episodeId"],
                speech_id.as_str()
            );
            text = body["data"]["episodeTranscriptText"]["text"]
                .as_str()
                .unwrap_or_else(|| panic!("{body}"))
                .to_owned();
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let wer = word_error_rate(SENTENCE, &text);
    eprintln!(
        "whisper base heard {text:?}: word error rate {wer:.3} over {duration:.2}s of speech"
    );
    assert!(wer <= MAX_WER, "word error rate {wer} for {text:?}");

    let (status, body, raw) = setup
        .get(&format!(
            "/api/v1/episodes/{speech_id}/transcript-timestamps"
        ))
        .await;
    assert_eq!(status, 200, "{raw}");
    let sentences: Vec<Value> = body["data"]["sentences"]
        .as_array()
        .unwrap_or_else(|| panic!("{raw}"))
        .clone();
    assert!(!sentences.is_empty());
    let mut last_end = 0.0;
    for sentence in &sentences {
        let start = sentence["startSecond"].as_f64().unwrap();
        let end = sentence["endSecond"].as_f64().unwrap();
        assert!(start >= last_end - 1e-6 && end > start, "{raw}");
        assert!(end <= duration + 0.05, "{end} past the audio's {duration}s");
        last_end = end;
    }
    let (status, _, vtt) = setup
        .get(&format!(
            "/api/v1/episodes/{speech_id}/download/transcript?format=vtt"
        ))
        .await;
    assert_eq!(status, 200);
    assert!(vtt.starts_with("WEBVTT") && vtt.contains(" --> "), "{vtt}");

    // Without a `podlens index`, the server's own index update makes a word of the
    // sentence find the episode by its transcript, with the passage's place in the audio.
    let completed = std::time::Instant::now();
    let found = loop {
        let (status, found) = setup.post("/api/v1/search/episodes", search.clone()).await;
        assert_eq!(status, 200, "{found}");
        if found["data"]["result"]["hits"]
            .as_array()
            .is_some_and(|hits| !hits.is_empty())
        {
            break found;
        }
        assert!(
            completed.elapsed() < Duration::from_secs(60),
            "the transcript is not searchable a minute after its request completed: {found}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    eprintln!(
        "the transcript was searchable {:.2}s after the requests settled",
        completed.elapsed().as_secs_f64()
    );
    let hits = found["data"]["result"]["hits"].as_array().unwrap();
    assert_eq!(hits.len(), 1, "{found}");
    assert_eq!(hits[0]["episodeId"], speech_id.as_str());
    assert!(
        hits[0]["transcriptTextSnippet"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("mountains"),
        "{found}"
    );
    let engine_state = setup.state.clone();
    let response = tokio::task::spawn_blocking(move || {
        let request = podlens_indexer::SearchRequest {
            terms: vec![podlens_indexer::SearchTerm {
                text: "mountains".into(),
                targets: vec![podlens_indexer::Target::Transcript],
                match_mode: podlens_indexer::MatchMode::Must,
                ..Default::default()
            }],
            ..Default::default()
        };
        engine_state
            .catalog
            .index()
            .unwrap()
            .search(&request)
            .unwrap()
    })
    .await
    .unwrap();
    let podlens_indexer::Hits::Episodes(episodes) = &response.hits else {
        panic!("episode hits expected");
    };
    let snippet = &episodes[0].snippets[0];
    let (start, end) = (snippet.start_second.unwrap(), snippet.end_second.unwrap());
    assert!(
        0.0 <= start && start < end && end <= duration + 0.05,
        "{snippet:?}"
    );
    // The update published one generation over the full build's; older ones than the
    // previous are removed, and nothing was recorded as failed.
    let index_dir = setup.state.data_dir.join("index");
    let manifest = podlens_indexer::read_manifest(&index_dir).unwrap().unwrap();
    assert_eq!(manifest.generation, 2);
    assert_eq!(manifest.episodes, 3);
    let on_disk = podlens_indexer::generation::generations_on_disk(&index_dir).unwrap();
    assert_eq!(on_disk, vec![1, 2]);
    assert!(
        !setup
            .state
            .data_dir
            .join("transcriptions")
            .join(podlens_app::index_updates::FAILURES_FILE)
            .exists()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_model_fails_the_request_with_the_reason() {
    if !succeeds(Command::new("python3").arg("--version")) {
        assert!(
            std::env::var_os("PODLENS_REQUIRE_WHISPER").is_none(),
            "PODLENS_REQUIRE_WHISPER is set: python3 is missing"
        );
        eprintln!("skipping: python3 is missing");
        return;
    }
    let missing = tempfile::tempdir().unwrap();
    let setup = setup(
        &[("tone.wav", tone_wav())],
        &[("tone", "A tone", "tone.wav")],
        missing.path(),
    )
    .await;
    let episode = setup.episode("tone").to_owned();
    let (status, body, _) = setup
        .get(&format!("/api/v1/episodes/{episode}/transcription-request"))
        .await;
    assert_eq!(status, 200, "{body}");
    let requests = setup.settled_requests(1, Duration::from_secs(60)).await;
    let request = request_of(&requests, &episode);
    assert_eq!(request["status"], "failed");
    let reason = request["failureReason"].as_str().unwrap();
    assert_eq!(
        reason,
        format!(
            "speech model error: no Whisper model in {} (model.bin is missing)",
            missing.path().display()
        )
    );
    // The failed request can be made again.
    let (_, again, _) = setup
        .get(&format!("/api/v1/episodes/{episode}/transcription-request"))
        .await;
    assert!(
        again["data"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Transcription requested"),
        "{again}"
    );
    let (_, usage, _) = setup.get("/api/v1/teams/usage/current").await;
    let used = usage["data"]["aliases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|alias| alias["alias"] == "transcriptionRequests")
        .map(|alias| alias["used"].clone());
    assert_eq!(used, Some(json!(2)), "{usage}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_transcription_past_its_time_limit_fails_with_the_reason() {
    if !whisper_installed() {
        return;
    }
    let setup = setup_with_limit(
        &[("tone.wav", tone_wav())],
        &[("tone", "A tone", "tone.wav")],
        &whisper_dir(),
        Duration::from_millis(200),
    )
    .await;
    let episode = setup.episode("tone").to_owned();
    let (status, body, _) = setup
        .get(&format!("/api/v1/episodes/{episode}/transcription-request"))
        .await;
    assert_eq!(status, 200, "{body}");
    let requests = setup.settled_requests(1, Duration::from_secs(60)).await;
    let request = request_of(&requests, &episode);
    assert_eq!(request["status"], "failed");
    assert_eq!(
        request["failureReason"],
        "speech to text did not finish within 200 milliseconds"
    );
    // Nothing was stored: the episode still has no transcript.
    let (status, _, _) = setup
        .get(&format!("/api/v1/episodes/{episode}/transcript-text"))
        .await;
    assert_eq!(status, 404);
}
