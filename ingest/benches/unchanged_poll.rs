//! What a poll of an unchanged feed costs the server, for one feed file (the demo's
//! median feed, chosen by `benches/freshness/unchanged.sh`, which commits the output as
//! `benches/freshness/unchanged.txt`). Run with
//! `UNCHANGED_FEED=PATH cargo bench -p podlens-ingest --bench unchanged_poll`.
//!
//! Three figures, one thread where it matters:
//! - the comparison an unchanged answer costs: the SHA-256 of the bytes and one string
//!   comparison with the hash kept from the last read (what runs after the transfer);
//! - what the same answer cost before the hash: parsing and normalising the feed (the
//!   catalog write that followed is not counted here);
//! - a whole poll through the fetcher against a loopback server that ignores
//!   conditional GET (no validators), the server's CPU included: the process's CPU
//!   time over many polls, an upper bound that includes the transfer.

use std::time::{Duration, Instant};

use axum::Router;
use axum::routing::get;
use chrono::Utc;
use podlens_ingest::fetch::{
    CollectedFeeds, FeedSource, FeedState, HttpConfig, IngestConfig, content_hash, ingest,
};
use uuid::Uuid;

/// The process's user + system CPU time so far (from /proc/self/stat, clock ticks of
/// 10 ms: read over many polls).
fn process_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |index: usize| {
        fields
            .get(index)
            .and_then(|value| value.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    Duration::from_millis((ticks(11) + ticks(12)) * 10)
}

/// Mean time of `work` over `runs` calls, best of three passes.
fn mean_of(runs: u32, mut work: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..runs {
                work();
            }
            started.elapsed() / runs
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let Ok(path) = std::env::var("UNCHANGED_FEED") else {
        println!(
            "UNCHANGED_FEED is not set: benches/freshness/unchanged.sh generates the demo corpus and names its median feed"
        );
        return;
    };
    let bytes = std::fs::read(&path).expect("the feed file");
    let known = content_hash(&bytes);

    let compared = mean_of(2_000, || {
        let same = content_hash(std::hint::black_box(&bytes)) == known;
        assert!(same);
    });
    let parsed = mean_of(200, || {
        let feed = podlens_ingest::parse_feed(std::hint::black_box(&bytes), None).expect("parses");
        let batch = podlens_ingest::normalize_with_id(
            &feed,
            "http://127.0.0.1/feed.xml",
            Uuid::from_u128(1),
            Utc::now(),
        );
        std::hint::black_box(batch);
    });

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let polls = 500u32;
    let (outcomes, cpu, wall) = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let address = listener.local_addr().expect("address");
        let served = bytes.clone();
        let app = Router::new().route(
            "/feed.xml",
            get(move || {
                let served = served.clone();
                async move { ([("content-type", "application/rss+xml")], served) }
            }),
        );
        tokio::spawn(async move { axum::serve(listener, app).await });
        let config = IngestConfig {
            http: HttpConfig {
                allow_private: true,
                ..HttpConfig::default()
            },
            concurrency: 1,
            per_host_concurrency: 1,
            fetch_transcripts: false,
            ..IngestConfig::default()
        };
        let state = FeedState {
            podcast_id: Some(Uuid::from_u128(1)),
            content_hash: Some(known.clone()),
            ..FeedState::new(format!("http://{address}/feed.xml"))
        };
        let mut outcomes = Vec::new();
        let cpu_before = process_cpu();
        let started = Instant::now();
        for _ in 0..polls {
            let (_, collected) = ingest(
                vec![FeedSource::Url(state.clone())],
                config.clone(),
                CollectedFeeds::default(),
                None,
            )
            .await
            .expect("the poll runs");
            outcomes.push(collected.fetches[0].outcome.clone());
        }
        (outcomes, process_cpu() - cpu_before, started.elapsed())
    });
    let unchanged = outcomes
        .iter()
        .filter(|outcome| *outcome == "not-modified")
        .count();

    println!("feed: {} ({} bytes)", path, bytes.len());
    println!(
        "unchanged answer, hash + comparison (one thread, best of 3 x 2,000): {:.3} ms",
        compared.as_secs_f64() * 1e3
    );
    println!(
        "the same answer parsed and normalised, as before the hash (best of 3 x 200): {:.3} ms ({:.0}x)",
        parsed.as_secs_f64() * 1e3,
        parsed.as_secs_f64() / compared.as_secs_f64().max(1e-9)
    );
    println!(
        "whole poll over loopback, client and server, transfer included ({polls} polls, {unchanged} not modified): {:.3} ms CPU, {:.3} ms wall per poll",
        cpu.as_secs_f64() * 1e3 / f64::from(polls),
        wall.as_secs_f64() * 1e3 / f64::from(polls)
    );
}
