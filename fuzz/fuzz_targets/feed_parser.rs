//! Any byte sequence as a feed: decoding (declared, sniffed and overridden
//! encodings), parsing and normalising never panic.
#![no_main]

use chrono::{TimeZone, Utc};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    if let Ok(feed) = podlens_ingest::parse_feed(data, None) {
        let _ = podlens_ingest::normalize(&feed, "https://fuzz.example/feed", now);
    }
    let _ = podlens_ingest::parse_feed(data, Some("windows-1252"));
});
