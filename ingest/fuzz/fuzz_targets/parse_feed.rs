//! Any byte sequence: decoding, parsing and normalising never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(feed) = podlens_ingest::parse_feed(data, None) {
        let _ = podlens_ingest::normalize(&feed, "https://fuzz.example/feed", chrono::Utc::now());
    }
    let _ = podlens_ingest::parse_feed(data, Some("iso-8859-1"));
});
