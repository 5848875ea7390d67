//! The speech-to-text worker of transcription requests: for an episode without a
//! publisher transcript, its enclosure is downloaded through the ingest fetcher (the
//! netguard address guard, a size cap), transcribed by the configured
//! [`SpeechToText`] engine on a thread of its own (one request at a time: the model
//! takes every core), and stored in the catalog with its timed segments. A new Parquet
//! snapshot is published at once, so the transcript routes serve it, and the episode is
//! queued for an incremental update of the search index ([`crate::index_updates`]),
//! which makes the transcript searchable with its timestamps a moment later.
//!
//! A request is completed or failed with the reason. When the catalog is busy (a batch
//! job holds it), the request stays queued, the recognised text is kept in
//! `<data-dir>/transcriptions/`, and the next pass of the jobs stores it.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::Utc;
use podlens_data::Catalog;
use podlens_ingest::fetch::{HttpConfig, HttpOutcome, build_client, get};
use podlens_model::catalog::{EpisodeRecord, TranscriptRecord, TranscriptSegment, transcript_id};
use uuid::Uuid;

use super::super::WorkflowStore;
use super::super::documents::DocKind;
use super::TranscriptionRequest;
use crate::index_updates::IndexUpdater;
use crate::refresh::CatalogWrites;
use crate::speech::{SpeechError, SpeechToText, SpeechTranscript};

/// The largest enclosure downloaded for transcription.
pub const MAX_AUDIO_BYTES: u64 = 300 * 1024 * 1024;
/// How long an enclosure download may take.
pub const DOWNLOAD_TIMEOUT: Duration = Duration::from_secs(10 * 60);
/// The folder of `<data-dir>` holding downloads in progress and recognised text not
/// stored yet.
pub use crate::index_updates::WORK_DIR;

/// The speech engine (if any) and the worker thread that runs it.
pub struct SpeechWorker {
    engine: Option<Arc<dyn SpeechToText>>,
    http: HttpConfig,
    /// Requests queued or running on the worker thread (by request id).
    claimed: Arc<Mutex<HashSet<String>>>,
    queue: Mutex<Option<Sender<Job>>>,
    /// Publishes stored transcripts to the search index.
    pub index_updates: IndexUpdater,
}

impl std::fmt::Debug for SpeechWorker {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("SpeechWorker")
            .field("engine", &self.engine)
            .finish_non_exhaustive()
    }
}

struct Job {
    store: Arc<WorkflowStore>,
    writes: CatalogWrites,
    team_id: String,
    request_id: String,
}

impl SpeechWorker {
    /// No speech to text: requests without a publisher transcript fail with the reason.
    pub fn disabled() -> SpeechWorker {
        SpeechWorker {
            engine: None,
            http: HttpConfig {
                timeout: DOWNLOAD_TIMEOUT,
                max_body_bytes: MAX_AUDIO_BYTES,
                retries: 1,
                ..HttpConfig::default()
            },
            claimed: Arc::new(Mutex::new(HashSet::new())),
            queue: Mutex::new(None),
            index_updates: IndexUpdater::default(),
        }
    }

    /// Speech to text with `engine`.
    pub fn new(engine: Arc<dyn SpeechToText>) -> SpeechWorker {
        SpeechWorker {
            engine: Some(engine),
            ..SpeechWorker::disabled()
        }
    }

    /// Lets enclosure downloads reach private, loopback and link-local addresses
    /// (`podlens serve --allow-private`).
    pub fn allowing_private(mut self) -> SpeechWorker {
        self.http.allow_private = true;
        self
    }

    /// Lets enclosure downloads reach these non-public addresses only (a test server).
    pub fn allowing_addresses(mut self, addresses: Vec<std::net::IpAddr>) -> SpeechWorker {
        self.http.allowed_addresses = addresses;
        self
    }

    pub fn has_engine(&self) -> bool {
        self.engine.is_some()
    }

    /// Queues a request for the worker thread (started on first use); false when it is
    /// queued or running already. The request is read from and saved to `store`; its
    /// transcript is written through `writes`.
    pub(crate) fn enqueue(
        &self,
        store: &Arc<WorkflowStore>,
        writes: &CatalogWrites,
        team_id: &str,
        request_id: &str,
    ) -> bool {
        let Some(engine) = self.engine.clone() else {
            return false;
        };
        if !lock(&self.claimed).insert(request_id.to_owned()) {
            return false;
        }
        let job = Job {
            store: store.clone(),
            writes: writes.clone(),
            team_id: team_id.to_owned(),
            request_id: request_id.to_owned(),
        };
        let mut queue = lock(&self.queue);
        let sender = queue.get_or_insert_with(|| {
            let (sender, receiver) = channel::<Job>();
            let claimed = self.claimed.clone();
            let http = self.http.clone();
            let index_updates = self.index_updates.clone();
            let spawned = std::thread::Builder::new()
                .name("podlens-speech".into())
                .spawn(move || {
                    for job in receiver {
                        run_job(&job, engine.as_ref(), &http, &index_updates);
                        lock(&claimed).remove(&job.request_id);
                    }
                });
            if let Err(error) = spawned {
                tracing::warn!(%error, "cannot start the speech-to-text worker");
            }
            sender
        });
        if sender.send(job).is_err() {
            lock(&self.claimed).remove(request_id);
            *queue = None;
            return false;
        }
        true
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What became of one request.
#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    Completed,
    Failed(String),
    /// The catalog is busy: the request stays queued.
    Retry,
}

fn run_job(job: &Job, engine: &dyn SpeechToText, http: &HttpConfig, index_updates: &IndexUpdater) {
    let store = &job.store;
    let doc = match store.wait(store.get_doc::<TranscriptionRequest>(
        DocKind::TranscriptionRequest,
        Some(&job.team_id),
        &job.request_id,
    )) {
        Ok(Some(doc)) if doc.value.status == "not_started" => doc,
        Ok(_) => return,
        Err(error) => {
            tracing::warn!(%error, "cannot read a transcription request");
            return;
        }
    };
    let started = Instant::now();
    let outcome = transcribe_episode(
        &job.writes,
        index_updates,
        &doc.value.episode_id,
        engine,
        http,
    );
    tracing::info!(
        request_id = %job.request_id,
        episode_id = %doc.value.episode_id,
        seconds = started.elapsed().as_secs_f64(),
        ?outcome,
        "speech-to-text transcription request processed"
    );
    let (status, reason) = match outcome {
        Outcome::Retry => return,
        Outcome::Completed => ("completed", None),
        Outcome::Failed(reason) => ("failed", Some(reason)),
    };
    let mut doc = doc;
    let now = Utc::now();
    doc.value.status = status.into();
    doc.value.failure_reason = reason;
    doc.value.completed_at = Some(now);
    doc.updated_at = now;
    if let Err(error) = store.wait(store.put_doc(DocKind::TranscriptionRequest, &doc)) {
        tracing::warn!(%error, "cannot save a transcription request");
    }
}

fn transcribe_episode(
    writes: &CatalogWrites,
    index_updates: &IndexUpdater,
    episode_id: &str,
    engine: &dyn SpeechToText,
    http: &HttpConfig,
) -> Outcome {
    let Ok(id) = Uuid::parse_str(episode_id) else {
        return Outcome::Failed(format!("invalid episode id {episode_id:?}"));
    };
    let found = writes
        .catalog
        .snapshot()
        .and_then(|snapshot| Ok(snapshot.episode_by_id(id)?));
    let episode = match found {
        Ok(Some(episode)) => episode,
        Ok(None) => return Outcome::Failed("the episode is no longer in the catalog".into()),
        Err(error) => {
            tracing::warn!(%error, "cannot read the episode of a transcription request");
            return Outcome::Retry;
        }
    };
    let Some(url) = episode
        .episode_enclosure_url
        .clone()
        .filter(|url| !url.trim().is_empty())
    else {
        return Outcome::Failed("the episode has no audio enclosure to transcribe".into());
    };
    let work_dir = writes.data_dir.join(WORK_DIR);
    if let Err(error) = std::fs::create_dir_all(&work_dir) {
        tracing::warn!(%error, dir = %work_dir.display(), "cannot create the transcription folder");
        return Outcome::Retry;
    }
    let kept = work_dir.join(format!("{id}.json"));
    let speech = match read_kept(&kept) {
        Some(speech) => speech,
        None => match recognise(&url, &work_dir, engine, http) {
            Ok(speech) => speech,
            Err(reason) => return Outcome::Failed(reason),
        },
    };
    if speech.segments.is_empty() {
        let _ = std::fs::remove_file(&kept);
        return Outcome::Failed("no speech was recognised in the episode's audio".into());
    }
    let record = transcript_of(&episode, &url, engine.model_name(), &speech);
    match store(writes, &record) {
        Ok(()) => {
            let _ = std::fs::remove_file(&kept);
            let change = crate::cluster::CatalogChange::Transcript {
                episode: Box::new(episode.clone()),
                transcript: Box::new(record.clone()),
            };
            // The speech worker's own thread waits for the store here, at its edge.
            if let Err(error) = writes
                .cluster
                .database()
                .wait(writes.cluster.record(&change))
            {
                tracing::warn!(%error, "the transcript is not in the change log: other nodes index it at their next full build");
            }
            index_updates.submit(&writes.data_dir, &writes.catalog, episode, record);
            Outcome::Completed
        }
        Err(error) => {
            tracing::warn!(%error, "cannot store a speech-to-text transcript; kept for the next pass");
            if let Ok(json) = serde_json::to_vec(&speech) {
                let _ = std::fs::write(&kept, json);
            }
            Outcome::Retry
        }
    }
}

fn read_kept(path: &Path) -> Option<SpeechTranscript> {
    let bytes = std::fs::read(path).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Downloads `url` and transcribes it; `Err` is the request's failure reason.
fn recognise(
    url: &str,
    work_dir: &Path,
    engine: &dyn SpeechToText,
    http: &HttpConfig,
) -> Result<SpeechTranscript, String> {
    let bytes = download(url, http)
        .map_err(|error| format!("the episode's audio could not be downloaded: {error}"))?;
    if looks_like_html(&bytes) {
        return Err(
            "the episode's enclosure is not audio: the server sent an HTML page".to_owned(),
        );
    }
    let audio = TempFile(work_dir.join(format!("download-{}", Uuid::new_v4())));
    std::fs::write(&audio.0, &bytes)
        .map_err(|error| format!("the downloaded audio could not be saved: {error}"))?;
    drop(bytes);
    engine.transcribe(&audio.0).map_err(|error| match error {
        SpeechError::NotAudio(detail) => {
            format!("the episode's enclosure is not audio: {detail}")
        }
        other => other.to_string(),
    })
}

/// A file removed when dropped.
struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// GETs `url` through the ingest fetcher, on a small runtime of this thread.
fn download(url: &str, http: &HttpConfig) -> Result<Vec<u8>, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| format!("cannot start a download runtime: {error}"))?;
    runtime.block_on(async {
        let client = build_client(http).map_err(|error| error.to_string())?;
        match get(&client, http, url, None, None).await {
            Ok(HttpOutcome::Body(body)) => Ok(body.bytes),
            Ok(HttpOutcome::NotModified { .. }) => Err("unexpected 304 not modified".into()),
            Err(error) => Err(error.to_string()),
        }
    })
}

/// Whether a body is an HTML page (what a server sends for a missing file or a login
/// wall) rather than audio.
fn looks_like_html(bytes: &[u8]) -> bool {
    let start: Vec<u8> = bytes
        .iter()
        .skip_while(|byte| byte.is_ascii_whitespace() || matches!(byte, 0xEF | 0xBB | 0xBF))
        .take(512)
        .map(u8::to_ascii_lowercase)
        .collect();
    let text = String::from_utf8_lossy(&start);
    text.starts_with("<!doctype html") || text.starts_with("<html") || {
        text.starts_with('<')
            && (text.contains("<html") || text.contains("<head") || text.contains("<body"))
    }
}

/// The catalog record of recognised speech: one timed segment per recognised piece.
fn transcript_of(
    episode: &EpisodeRecord,
    url: &str,
    model: &str,
    speech: &SpeechTranscript,
) -> TranscriptRecord {
    let segments: Vec<TranscriptSegment> = speech
        .segments
        .iter()
        .map(|segment| TranscriptSegment {
            start_second: Some(segment.start_second),
            end_second: Some(segment.end_second.max(segment.start_second)),
            speaker: None,
            text: segment.text.trim().to_owned(),
        })
        .filter(|segment| !segment.text.is_empty())
        .collect();
    let text = segments
        .iter()
        .map(|segment| segment.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let source = format!("speech-to-text:{model}:{url}");
    TranscriptRecord {
        transcript_id: transcript_id(episode.episode_id, &source),
        episode_id: episode.episode_id,
        podcast_id: episode.podcast_id,
        source,
        format: "json".into(),
        language: speech.language.clone(),
        transcript_text: text,
        segments,
    }
}

/// Writes the transcript into the catalog and publishes a new snapshot, taking the
/// catalog turn feed refreshes take.
pub(crate) fn store(
    writes: &CatalogWrites,
    record: &TranscriptRecord,
) -> Result<(), podlens_data::DataError> {
    let _turn = writes.refresher.catalog_turn();
    let mut catalog = Catalog::open(&writes.data_dir)?;
    catalog.upsert_transcript(record)?;
    catalog.export_parquet()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_pages_are_told_from_audio() {
        assert!(looks_like_html(
            b"<!DOCTYPE html><html><body>404</body></html>"
        ));
        assert!(looks_like_html(b"\xEF\xBB\xBF\n  <html lang=en>"));
        assert!(looks_like_html(
            b"<?xml version=\"1.0\"?><html xmlns=\"x\"><body/>"
        ));
        assert!(!looks_like_html(b"RIFF\x24\x08\x00\x00WAVEfmt "));
        assert!(!looks_like_html(b"ID3\x04\x00\x00\x00\x00\x00\x00<html"));
        assert!(!looks_like_html(b""));
    }

    #[test]
    fn recognised_speech_becomes_a_timed_transcript() {
        let episode = EpisodeRecord {
            episode_id: Uuid::from_u128(7),
            podcast_id: Uuid::from_u128(3),
            ..EpisodeRecord::default()
        };
        let speech = SpeechTranscript {
            language: Some("en".into()),
            duration_seconds: Some(9.0),
            segments: vec![
                crate::speech::SpeechSegment {
                    start_second: 0.0,
                    end_second: 4.0,
                    text: " Hello there. ".into(),
                },
                crate::speech::SpeechSegment {
                    start_second: 4.0,
                    end_second: 3.5,
                    text: "General Kenobi.".into(),
                },
                crate::speech::SpeechSegment {
                    start_second: 5.0,
                    end_second: 6.0,
                    text: "  ".into(),
                },
            ],
        };
        let record = transcript_of(&episode, "https://a.example/e.mp3", "whisper-base", &speech);
        assert_eq!(record.transcript_text, "Hello there. General Kenobi.");
        assert_eq!(record.segments.len(), 2);
        assert_eq!(record.segments[1].end_second, Some(4.0));
        assert_eq!(record.podcast_id, Uuid::from_u128(3));
        assert_eq!(
            record.source,
            "speech-to-text:whisper-base:https://a.example/e.mp3"
        );
        assert_eq!(
            record.transcript_id,
            transcript_id(episode.episode_id, &record.source)
        );
    }
}
