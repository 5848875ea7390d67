//! Incremental search index updates for transcripts the server stores itself (speech to
//! text): each stored transcript is queued here with its episode, and a thread of its own
//! applies the queue to the published generation with
//! [`podlens_indexer::update_generation`] (episode and transcript, chunked with their
//! timestamps as a full build chunks them), then makes the server's reader switch to it.
//!
//! One update runs at a time; transcripts stored while it runs are applied together by
//! the next one. No catalog or store lock is held while an update builds. When the
//! published generation has vectors, the update embeds with the model stored in the
//! index directory (`index/models/<sha>`), so vectors are kept; if that model cannot be
//! loaded, the update is skipped rather than publishing a generation without vectors.
//! Publishing removes generations older than the previous one, as `podlens index` does;
//! [`PUBLISH_LOCK`] keeps a backup of the index from seeing a generation removed while it
//! links it.
//!
//! A failed update leaves the transcript stored and its request completed: the error is
//! logged and appended to `<data-dir>/transcriptions/index-updates.log`, and the next
//! `podlens index` covers the transcript.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use podlens_indexer::vectors::model_dir;
use podlens_indexer::{BuildOptions, IndexChanges, IndexError, VectorModel, read_manifest};
use podlens_model::catalog::{EpisodeRecord, TranscriptRecord};
use uuid::Uuid;

use crate::catalog::CatalogReader;

/// Held while an index generation is published by the server or linked by a backup.
pub static PUBLISH_LOCK: Mutex<()> = Mutex::new(());

/// The file failed updates are recorded in, under `<data-dir>/transcriptions/`.
pub const FAILURES_FILE: &str = "index-updates.log";

/// The folder of `<data-dir>` for transcription work: downloads in progress, recognised
/// text not stored yet, and [`FAILURES_FILE`].
pub const WORK_DIR: &str = "transcriptions";

/// Episodes waiting for an index update, and whether the update thread runs.
#[derive(Debug, Default)]
struct Queue {
    pending: HashMap<Uuid, (EpisodeRecord, TranscriptRecord)>,
    running: bool,
}

/// Queues stored transcripts for the search index (clones share the queue).
#[derive(Debug, Default, Clone)]
pub struct IndexUpdater {
    queue: Arc<Mutex<Queue>>,
}

/// What one update did.
#[derive(Debug, Clone, PartialEq)]
pub enum UpdateOutcome {
    /// A new generation was published.
    Published { generation: u64, episodes: usize },
    /// Nothing is published yet: the first `podlens index` covers the transcripts.
    NoIndex,
}

impl IndexUpdater {
    /// Queues `episode` with its new `transcript`; the update thread starts unless it is
    /// running (it then picks the episode up when its current update ends).
    pub fn submit(
        &self,
        data_dir: &Path,
        catalog: &Arc<CatalogReader>,
        episode: EpisodeRecord,
        transcript: TranscriptRecord,
    ) {
        let mut queue = lock(&self.queue);
        queue
            .pending
            .insert(episode.episode_id, (episode, transcript));
        if queue.running {
            return;
        }
        queue.running = true;
        let shared = self.queue.clone();
        let data_dir = data_dir.to_owned();
        let catalog = catalog.clone();
        let spawned = std::thread::Builder::new()
            .name("podlens-index-update".into())
            .spawn(move || drain(&shared, &data_dir, &catalog));
        if let Err(error) = spawned {
            queue.running = false;
            tracing::warn!(%error, "cannot start the index update thread");
        }
    }

    /// Whether an update is queued or running.
    pub fn busy(&self) -> bool {
        let queue = lock(&self.queue);
        queue.running || !queue.pending.is_empty()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Runs updates until the queue is empty.
fn drain(queue: &Mutex<Queue>, data_dir: &Path, catalog: &CatalogReader) {
    loop {
        let batch: Vec<(EpisodeRecord, TranscriptRecord)> = {
            let mut queue = lock(queue);
            if queue.pending.is_empty() {
                queue.running = false;
                return;
            }
            std::mem::take(&mut queue.pending).into_values().collect()
        };
        let episodes: Vec<EpisodeRecord> = batch.iter().map(|(e, _)| e.clone()).collect();
        let transcripts: Vec<TranscriptRecord> = batch.into_iter().map(|(_, t)| t).collect();
        let index_dir = data_dir.join("index");
        let started = Instant::now();
        // A panic must not leave the queue marked running for good.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            update_index(&index_dir, &episodes, &transcripts).map_err(|error| error.to_string())
        }))
        .unwrap_or_else(|_| Err("the index update panicked".to_owned()));
        match result {
            Ok(UpdateOutcome::Published {
                generation,
                episodes,
            }) => {
                tracing::info!(
                    generation,
                    episodes,
                    seconds = started.elapsed().as_secs_f64(),
                    "transcripts indexed"
                );
                match catalog.index() {
                    Ok(handle) => {
                        if let Err(error) = handle.reload() {
                            tracing::warn!(%error, "cannot switch to the updated index generation");
                        }
                    }
                    Err(error) => tracing::warn!(%error, "cannot open the updated index"),
                }
            }
            Ok(UpdateOutcome::NoIndex) => tracing::info!(
                episodes = episodes.len(),
                "no search index is published yet: the next `podlens index` indexes the transcripts"
            ),
            Err(error) => {
                tracing::warn!(%error, episodes = episodes.len(), "the index update failed: the next `podlens index` indexes the transcripts");
                record_failure(data_dir, &episodes, &error);
            }
        }
    }
}

/// Applies new transcripts of `episodes` to the generation published in `index_dir`.
pub fn update_index(
    index_dir: &Path,
    episodes: &[EpisodeRecord],
    transcripts: &[TranscriptRecord],
) -> Result<UpdateOutcome, IndexError> {
    let changes = IndexChanges {
        episodes,
        transcripts,
        ..IndexChanges::default()
    };
    apply_to_index(index_dir, changes)
}

/// Applies `changes` to the generation published in `index_dir` as a new generation,
/// with vectors from the generation's own model when it has them.
pub fn apply_to_index(
    index_dir: &Path,
    changes: IndexChanges<'_>,
) -> Result<UpdateOutcome, IndexError> {
    let Some(current) = read_manifest(index_dir)? else {
        return Ok(UpdateOutcome::NoIndex);
    };
    let vectors = match &current.vectors {
        None => None,
        Some(info) => {
            let dir = model_dir(index_dir, &info.model_sha256);
            let model = VectorModel::load(&dir).map_err(|error| IndexError::BadManifest {
                path: dir.clone(),
                reason: format!(
                    "the generation has vectors but their model cannot be loaded ({error}); not updated, so its vectors are kept"
                ),
            })?;
            Some(model)
        }
    };
    // Show vectors of changed shows come from the same encoder; without it (no longer
    // installed, or another model) the update is published without show vectors, and
    // podcast search fuses with the static ones until a full build.
    let encoder = current.encoder.as_ref().and_then(|info| {
        podlens_indexer::embedding::Encoder::shared()
            .filter(|encoder| encoder.model_sha256() == info.model_sha256)
    });
    let options = BuildOptions {
        shards: Some(current.shards),
        writer_memory_bytes: 15 << 20,
        vectors,
        encoder,
        statistics: false,
        ..BuildOptions::default()
    };
    let episodes = changes.episodes.len();
    let _publishing = lock(&PUBLISH_LOCK);
    let manifest = podlens_indexer::update_generation(index_dir, changes, &options)?;
    Ok(UpdateOutcome::Published {
        generation: manifest.generation,
        episodes,
    })
}

fn record_failure(data_dir: &Path, episodes: &[EpisodeRecord], error: &str) {
    let dir: PathBuf = data_dir.join(WORK_DIR);
    let path = dir.join(FAILURES_FILE);
    let line = serde_json::json!({
        "at": chrono::Utc::now(),
        "episodeIds": episodes.iter().map(|e| e.episode_id.to_string()).collect::<Vec<_>>(),
        "error": error,
    });
    let written = std::fs::create_dir_all(&dir).and_then(|()| {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)?;
        writeln!(file, "{line}")
    });
    if let Err(error) = written {
        tracing::warn!(%error, path = %path.display(), "cannot record a failed index update");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn episode(n: u128) -> (EpisodeRecord, TranscriptRecord) {
        let episode = EpisodeRecord {
            episode_id: Uuid::from_u128(n),
            podcast_id: Uuid::from_u128(1),
            ..EpisodeRecord::default()
        };
        let transcript = TranscriptRecord {
            episode_id: episode.episode_id,
            podcast_id: episode.podcast_id,
            transcript_text: "hello".into(),
            ..TranscriptRecord::default()
        };
        (episode, transcript)
    }

    #[test]
    fn without_a_published_index_nothing_is_built() {
        let dir = tempfile::tempdir().unwrap();
        let (episode, transcript) = episode(7);
        let outcome = update_index(&dir.path().join("index"), &[episode], &[transcript]);
        assert_eq!(outcome.unwrap(), UpdateOutcome::NoIndex);
        assert!(!dir.path().join("index").exists());
    }

    #[test]
    fn a_failed_update_is_an_error_and_is_recorded_line_by_line() {
        let dir = tempfile::tempdir().unwrap();
        let index_dir = dir.path().join("index");
        std::fs::create_dir_all(&index_dir).unwrap();
        std::fs::write(index_dir.join("manifest.json"), b"{not json").unwrap();
        let (first, first_transcript) = episode(7);
        let (second, _) = episode(8);
        let error = update_index(
            &index_dir,
            std::slice::from_ref(&first),
            &[first_transcript],
        )
        .unwrap_err();
        record_failure(
            dir.path(),
            &[first.clone(), second.clone()],
            &error.to_string(),
        );
        record_failure(dir.path(), std::slice::from_ref(&second), "disk full");
        let log = std::fs::read_to_string(dir.path().join(WORK_DIR).join(FAILURES_FILE)).unwrap();
        let lines: Vec<serde_json::Value> = log
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            lines[0]["episodeIds"],
            serde_json::json!([first.episode_id.to_string(), second.episode_id.to_string()])
        );
        assert!(
            lines[0]["error"]
                .as_str()
                .unwrap()
                .contains("manifest.json"),
            "{log}"
        );
        assert_eq!(lines[1]["error"], "disk full");
        assert!(lines[1]["at"].is_string());
    }
}
