//! Parse + normalise throughput of Podlens's feed reader on one thread, for the speed
//! benchmark in `benches/ingest/` (which runs Python's feedparser and podcastparser on
//! the same files in the same run).
//!
//! `parse_corpus [--rounds N] FILE...` reads every file into memory, then times N
//! passes of decode + parse + normalise over all of them and prints one JSON line:
//! files, bytes, episodes, the best pass in wall seconds and in CPU seconds of this
//! thread (robust to a busy machine), and the failures.

use std::path::PathBuf;
use std::time::Instant;

use chrono::{TimeZone, Utc};

/// The allocator the `podlens` binary ships with, so the benchmark measures it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut rounds = 5usize;
    let mut paths = Vec::new();
    let mut arguments = std::env::args().skip(1);
    while let Some(argument) = arguments.next() {
        if argument == "--rounds" {
            rounds = arguments
                .next()
                .and_then(|value| value.parse().ok())
                .unwrap_or(rounds)
                .max(1);
        } else {
            paths.push(PathBuf::from(argument));
        }
    }
    let mut feeds = Vec::with_capacity(paths.len());
    for path in &paths {
        match std::fs::read(path) {
            Ok(bytes) => feeds.push((path.display().to_string(), bytes)),
            Err(error) => {
                eprintln!("cannot read {}: {error}", path.display());
                std::process::exit(2);
            }
        }
    }
    let now = Utc.with_ymd_and_hms(2025, 6, 1, 0, 0, 0).single();
    let Some(now) = now else {
        std::process::exit(2);
    };
    let bytes: usize = feeds.iter().map(|(_, bytes)| bytes.len()).sum();
    let mut best = f64::INFINITY;
    let mut best_cpu = f64::INFINITY;
    let mut episodes = 0usize;
    let mut failures = Vec::new();
    for round in 0..rounds {
        let started = Instant::now();
        let cpu_started = thread_cpu_seconds();
        let mut count = 0usize;
        for (name, data) in &feeds {
            match podlens_ingest::parse_feed(data, None) {
                Ok(feed) => {
                    let batch = podlens_ingest::normalize(&feed, "https://feeds.example/", now);
                    count += batch.episodes.len();
                    std::hint::black_box(batch);
                }
                Err(error) if round == 0 => failures.push(format!("{name}: {error}")),
                Err(_) => {}
            }
        }
        best = best.min(started.elapsed().as_secs_f64());
        if let (Some(before), Some(after)) = (cpu_started, thread_cpu_seconds()) {
            best_cpu = best_cpu.min(after - before);
        }
        episodes = count;
    }
    let failures: Vec<String> = failures
        .iter()
        .map(|failure| serde_json::Value::String(failure.clone()).to_string())
        .collect();
    println!(
        "{{\"files\": {}, \"bytes\": {bytes}, \"episodes\": {episodes}, \"seconds\": {best:.6}, \"cpu_seconds\": {best_cpu:.3}, \"rounds\": {rounds}, \"failures\": [{}]}}",
        feeds.len(),
        failures.join(", ")
    );
}

/// CPU time (user + system) of the calling thread, from /proc (Linux); clock ticks
/// are 1/100 s.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14, 15.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let user: f64 = fields.get(11)?.parse().ok()?;
    let system: f64 = fields.get(12)?.parse().ok()?;
    Some((user + system) / 100.0)
}
