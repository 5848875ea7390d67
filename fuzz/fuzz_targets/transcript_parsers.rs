//! Any text in every transcript format (VTT, SRT, JSON, HTML, plain, markdown):
//! parsing never panics, and the format sniffed from the text parses too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use podlens_ingest::transcript::{TranscriptFormat, parse_transcript, sniff_format};

fuzz_target!(|text: &str| {
    for format in TranscriptFormat::ALL {
        let _ = parse_transcript(text, format);
    }
    let _ = parse_transcript(text, sniff_format(text));
});
