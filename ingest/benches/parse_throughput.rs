//! Podlens's parser against feed-rs on the real feeds of the shared corpus, in one run:
//! how many feeds each reads with the item count Python's expat found (INDEX.tsv),
//! and parse throughput (MB/s, items/s, one thread). Run with
//! `cargo bench -p podlens-ingest --bench parse_throughput`; the output is committed
//! beside this file as `parse_throughput.txt`.

use std::path::Path;
use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};

struct Feed {
    name: String,
    bytes: Vec<u8>,
    expected_items: usize,
}

fn load_corpus() -> Vec<Feed> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let index = std::fs::read_to_string(corpus.join("feeds/INDEX.tsv")).expect("INDEX.tsv");
    index
        .lines()
        .skip(1)
        .filter_map(|line| {
            let columns: Vec<&str> = line.split('\t').collect();
            let path = columns[0];
            if path.contains("/malformed/") || path.contains("/edge-cases/") {
                return None;
            }
            let bytes = std::fs::read(corpus.join(path)).ok()?;
            // INDEX.tsv counts elements by local name; Acast's <podaccess:item> is
            // not an episode.
            let foreign = String::from_utf8_lossy(&bytes)
                .matches("<podaccess:item")
                .count();
            Some(Feed {
                name: path.to_owned(),
                bytes,
                expected_items: columns[4].parse::<usize>().ok()? - foreign,
            })
        })
        .collect()
}

/// A parser under test: bytes to its item count.
type ParseFn = dyn Fn(&[u8]) -> Result<usize, String>;

struct Score {
    parsed: usize,
    exact: usize,
    items: usize,
    failures: Vec<String>,
}

fn score(feeds: &[Feed], parse: &ParseFn) -> Score {
    let mut score = Score {
        parsed: 0,
        exact: 0,
        items: 0,
        failures: Vec::new(),
    };
    for feed in feeds {
        match parse(&feed.bytes) {
            Ok(items) => {
                score.parsed += 1;
                score.items += items;
                if items == feed.expected_items {
                    score.exact += 1;
                } else {
                    score.failures.push(format!(
                        "{}: {items} items, expected {}",
                        feed.name, feed.expected_items
                    ));
                }
            }
            Err(error) => score.failures.push(format!("{}: {error}", feed.name)),
        }
    }
    score
}

/// Best of `rounds` passes over the corpus.
fn time(feeds: &[Feed], rounds: usize, parse: &ParseFn) -> Duration {
    (0..rounds)
        .map(|_| {
            let started = Instant::now();
            for feed in feeds {
                std::hint::black_box(parse(&feed.bytes).ok());
            }
            started.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn podlens_parse(bytes: &[u8]) -> Result<usize, String> {
    podlens_ingest::parse_feed(bytes, None)
        .map(|feed| feed.items.len())
        .map_err(|error| error.to_string())
}

fn podlens_parse_and_normalize(bytes: &[u8]) -> Result<usize, String> {
    let now = Utc.with_ymd_and_hms(2025, 6, 1, 0, 0, 0).unwrap();
    let feed = podlens_ingest::parse_feed(bytes, None).map_err(|error| error.to_string())?;
    Ok(
        podlens_ingest::normalize(&feed, "https://feeds.example/feed", now)
            .episodes
            .len(),
    )
}

fn feed_rs_parse(bytes: &[u8]) -> Result<usize, String> {
    feed_rs::parser::parse(bytes)
        .map(|feed| feed.entries.len())
        .map_err(|error| error.to_string())
}

fn main() {
    let feeds = load_corpus();
    let total_bytes: usize = feeds.iter().map(|feed| feed.bytes.len()).sum();
    let megabytes = total_bytes as f64 / 1e6;
    println!("corpus: {} real feeds, {megabytes:.1} MB", feeds.len());
    println!();
    let parsers: [(&str, &ParseFn); 3] = [
        ("podlens parse", &podlens_parse),
        ("podlens parse+normalize", &podlens_parse_and_normalize),
        ("feed-rs 2.4", &feed_rs_parse),
    ];
    let mut baseline = None;
    println!(
        "{:<26} {:>9} {:>12} {:>10} {:>12} {:>8}",
        "parser", "parsed", "items exact", "MB/s", "items/s", "ratio"
    );
    for (name, parse) in parsers {
        let score = score(&feeds, parse);
        let elapsed = time(&feeds, 3, parse);
        let seconds = elapsed.as_secs_f64();
        let throughput = megabytes / seconds;
        let baseline_seconds = *baseline.get_or_insert(seconds);
        println!(
            "{name:<26} {:>4}/{:<4} {:>7}/{:<4} {throughput:>10.1} {:>12.0} {:>7.2}x",
            score.parsed,
            feeds.len(),
            score.exact,
            feeds.len(),
            score.items as f64 / seconds,
            seconds / baseline_seconds,
        );
        for failure in score.failures.iter().take(12) {
            println!("    {failure}");
        }
        if score.failures.len() > 12 {
            println!("    … {} more", score.failures.len() - 12);
        }
    }
    println!();
    println!(
        "ratio: time relative to `podlens parse` (higher is slower); one thread, best of 3 passes"
    );
}
