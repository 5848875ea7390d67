//! Any text as a feed description: wherever the direct sanitizer answers (plain text
//! and the simple show-note subset), its bytes are exactly ammonia's. The direct path is
//! a security boundary (it decides what markup reaches a browser), so any difference
//! from the ammonia-only path is a failure, not only a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use podlens_ingest::text::{sanitize_html_fast, sanitize_html_full};

fuzz_target!(|data: &[u8]| {
    let html = String::from_utf8_lossy(data);
    if let Some(direct) = sanitize_html_fast(&html) {
        let ammonia = sanitize_html_full(&html);
        assert_eq!(direct, ammonia, "direct sanitizer differs from ammonia on {html:?}");
    }
});
