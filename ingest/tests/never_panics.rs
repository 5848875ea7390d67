//! A stable-toolchain stand-in for the fuzz targets in `fuzz/`: thousands of mutated
//! real feeds and transcripts (truncated, bytes flipped, markup fragments spliced in)
//! go through decoding, parsing and normalisation; any panic fails the test.

use std::path::Path;

use chrono::{TimeZone, Utc};
use podlens_ingest::transcript::{TranscriptFormat, parse_transcript};
use podlens_ingest::{normalize, parse_feed};

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound.max(1) as u64) as usize
    }
}

const FRAGMENTS: [&[u8]; 14] = [
    b"<",
    b">",
    b"&",
    b"&#x",
    b"&nbsp",
    b"]]>",
    b"<![CDATA[",
    b"</item>",
    b"<item>",
    b"\"",
    b"<?xml version='1.0' encoding='utf-16'?>",
    b"\xff\xfe",
    b"\xc3",
    b"<!--",
];

fn mutate(rng: &mut Rng, original: &[u8]) -> Vec<u8> {
    let mut bytes = original.to_vec();
    for _ in 0..1 + rng.below(8) {
        if bytes.is_empty() {
            break;
        }
        let at = rng.below(bytes.len());
        match rng.below(4) {
            0 => bytes.truncate(at),
            1 => bytes[at] = rng.next() as u8,
            2 => {
                let fragment = FRAGMENTS[rng.below(FRAGMENTS.len())];
                bytes.splice(at..at, fragment.iter().copied());
            }
            _ => {
                let end = (at + rng.below(64)).min(bytes.len());
                bytes.drain(at..end);
            }
        }
    }
    bytes
}

fn small_feeds() -> Vec<Vec<u8>> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/feeds");
    let mut feeds = Vec::new();
    for dir in ["edge-cases", "malformed"] {
        for entry in std::fs::read_dir(corpus.join(dir))
            .expect("corpus dir")
            .flatten()
        {
            let bytes = std::fs::read(entry.path()).expect("feed");
            if bytes.len() < 64 * 1024 {
                feeds.push(bytes);
            }
        }
    }
    feeds
}

#[test]
fn mutated_feeds_never_panic() {
    let now = Utc.with_ymd_and_hms(2025, 6, 1, 0, 0, 0).unwrap();
    let feeds = small_feeds();
    assert!(feeds.len() > 100);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut parsed = 0;
    for round in 0..20 {
        for feed in &feeds {
            let bytes = mutate(&mut rng, feed);
            let charset = (round % 3 == 0).then_some("windows-1252");
            if let Ok(feed) = parse_feed(&bytes, charset) {
                normalize(&feed, "https://fuzz.example/feed", now);
                parsed += 1;
            }
        }
    }
    // Most mutations leave a recoverable feed.
    assert!(parsed > feeds.len() * 10, "{parsed}");
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(42);
    for _ in 0..3000 {
        let length = rng.below(512);
        let bytes: Vec<u8> = (0..length).map(|_| rng.next() as u8).collect();
        let _ = parse_feed(&bytes, None);
        let text = String::from_utf8_lossy(&bytes);
        for format in [
            TranscriptFormat::Vtt,
            TranscriptFormat::Json,
            TranscriptFormat::Html,
        ] {
            let _ = parse_transcript(&text, format);
        }
    }
}

#[test]
fn mutated_transcripts_never_panic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/transcripts");
    let mut rng = Rng(7);
    for entry in std::fs::read_dir(dir).expect("transcripts").flatten() {
        let Ok(bytes) = std::fs::read(entry.path()) else {
            continue;
        };
        for _ in 0..30 {
            let mutated = mutate(&mut rng, &bytes[..bytes.len().min(8192)]);
            let text = String::from_utf8_lossy(&mutated);
            for format in TranscriptFormat::ALL {
                let _ = parse_transcript(&text, format);
            }
        }
    }
}
