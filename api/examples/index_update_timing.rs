//! Times the server's incremental index update for stored transcripts
//! (`podlens_app::index_updates::update_index`) on a data directory with a
//! published index (the demo's): `index_update_timing <data-dir> [runs]`.
//!
//! Each run gives one episode without a transcript a transcript of realistic length
//! (another episode's, attributed to it with fresh ids), as speech to text would, and
//! publishes the update; a last run applies ten episodes at once, as coalesced
//! transcripts are. The data directory's index gains generations (older ones are
//! removed as usual): use a copy you can throw away.

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Instant;

use podlens_app::index_updates::update_index;
use podlens_indexer::generation::generations_on_disk;
use podlens_model::catalog::{EpisodeRecord, TranscriptRecord, transcript_id};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let data_dir = PathBuf::from(
        args.next()
            .ok_or("usage: index_update_timing <data-dir> [runs]")?,
    );
    let runs: usize = args.next().map(|n| n.parse()).transpose()?.unwrap_or(5);
    let parquet = data_dir.join(podlens_data::PARQUET_DIR);
    let index_dir = data_dir.join("index");
    let episodes = podlens_data::snapshot::read_episodes(&parquet)?;
    let transcripts = podlens_data::snapshot::read_transcripts(&parquet)?;
    let with_transcript: HashSet<_> = transcripts.iter().map(|t| t.episode_id).collect();
    let template = transcripts
        .iter()
        .max_by_key(|t| t.segments.len())
        .ok_or("the catalog has no transcript to copy")?;
    let manifest = podlens_indexer::read_manifest(&index_dir)?.ok_or("no published index")?;
    println!(
        "index: generation {}, {} podcasts, {} episodes, {} chunks, {} shards, vectors: {}",
        manifest.generation,
        manifest.podcasts,
        manifest.episodes,
        manifest.chunks,
        manifest.shards,
        manifest
            .vectors
            .as_ref()
            .map_or("none".to_owned(), |v| format!(
                "{} of {} dims",
                v.count, v.dim
            )),
    );
    println!(
        "transcript per episode: {} segments, {} characters",
        template.segments.len(),
        template.transcript_text.len()
    );
    let mut candidates = episodes
        .iter()
        .filter(|e| !with_transcript.contains(&e.episode_id))
        .step_by(997);
    let mut take = |count: usize| -> Vec<(EpisodeRecord, TranscriptRecord)> {
        candidates
            .by_ref()
            .take(count)
            .map(|episode| {
                let source = format!("speech-to-text:timing:{}", episode.episode_id);
                let record = TranscriptRecord {
                    transcript_id: transcript_id(episode.episode_id, &source),
                    episode_id: episode.episode_id,
                    podcast_id: episode.podcast_id,
                    source,
                    ..template.clone()
                };
                (episode.clone(), record)
            })
            .collect()
    };
    let mut batches: Vec<Vec<(EpisodeRecord, TranscriptRecord)>> =
        (0..runs).map(|_| take(1)).collect();
    batches.push(take(10));
    let mut seconds = Vec::new();
    for batch in batches {
        let episodes: Vec<EpisodeRecord> = batch.iter().map(|(e, _)| e.clone()).collect();
        let transcripts: Vec<TranscriptRecord> = batch.into_iter().map(|(_, t)| t).collect();
        let started = Instant::now();
        let outcome = update_index(&index_dir, &episodes, &transcripts)?;
        let elapsed = started.elapsed().as_secs_f64();
        println!(
            "{} episode(s): {elapsed:.2} s ({outcome:?}); generations on disk {:?}",
            episodes.len(),
            generations_on_disk(&index_dir)?
        );
        if episodes.len() == 1 {
            seconds.push(elapsed);
        }
    }
    seconds.sort_by(f64::total_cmp);
    if let Some(median) = seconds.get(seconds.len() / 2) {
        println!(
            "one episode: median {median:.2} s over {} runs (min {:.2}, max {:.2})",
            seconds.len(),
            seconds[0],
            seconds[seconds.len() - 1]
        );
    }
    Ok(())
}
