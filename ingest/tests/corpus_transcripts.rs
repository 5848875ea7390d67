//! Every transcript of the shared corpus parses into segments whose text covers the
//! file's words; expectations come from independent scans of each file.

use std::path::{Path, PathBuf};

use podlens_ingest::transcript::{TranscriptFormat, format_for, parse_transcript, sniff_format};

fn transcripts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/transcripts")
}

fn all_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![transcripts_dir()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("transcripts dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Timing lines (`-->`) in a cue file.
fn count_cues(text: &str) -> usize {
    text.lines().filter(|line| line.contains("-->")).count()
}

/// Paragraphs opening with `**Name:**` in a Markdown transcript.
fn count_markdown_turns(text: &str) -> usize {
    text.split("\n\n")
        .filter(|paragraph| {
            let paragraph = paragraph.trim_start();
            paragraph.starts_with("**")
                && paragraph[2..]
                    .split_once("**")
                    .is_some_and(|(name, _)| name.ends_with(':'))
        })
        .count()
}

/// `HH:MM:SS.mmm` or `HH:MM:SS,mmm`, computed apart from the library.
fn cue_seconds(stamp: &str) -> f64 {
    stamp
        .trim()
        .replace(',', ".")
        .split(':')
        .fold(0.0, |total, part| {
            total * 60.0 + part.parse::<f64>().unwrap_or(0.0)
        })
}

#[test]
fn every_corpus_transcript_parses() {
    let files = all_files();
    assert!(files.len() >= 120, "only {} transcript files", files.len());
    let mut checked = 0;
    for path in files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).expect("utf-8 transcript");
        let format = format_for("", &name).unwrap_or_else(|| sniff_format(&text));
        let parsed =
            parse_transcript(&text, format).unwrap_or_else(|error| panic!("{name}: {error}"));
        assert!(!parsed.text.trim().is_empty(), "{name}");
        match format {
            TranscriptFormat::Vtt | TranscriptFormat::Srt => {
                // A cue may split at a change of speaker, never merge with another.
                assert!(
                    parsed.segments.len() >= count_cues(&text) * 9 / 10,
                    "{name}"
                );
                assert!(
                    parsed.segments.iter().all(|s| s.start_second.is_some()),
                    "{name}"
                );
                // Every segment starts at one of the file's cue times, in file order.
                let starts: Vec<f64> = text
                    .lines()
                    .filter_map(|line| line.split_once("-->"))
                    .map(|(start, _)| cue_seconds(start))
                    .collect();
                let mut cursor = 0;
                for segment in &parsed.segments {
                    let start = segment.start_second.unwrap_or(-1.0);
                    let found = starts[cursor..]
                        .iter()
                        .position(|s| (s - start).abs() < 1e-6);
                    let offset =
                        found.unwrap_or_else(|| panic!("{name}: start {start} not in file order"));
                    cursor += offset;
                }
            }
            TranscriptFormat::Markdown => {
                assert!(
                    parsed.segments.len() <= count_markdown_turns(&text),
                    "{name}"
                );
                assert!(
                    parsed.segments.len() * 2 >= count_markdown_turns(&text),
                    "{name}"
                );
                assert!(
                    parsed.segments.iter().all(|s| s.speaker.is_some()),
                    "{name}"
                );
                let clean = parsed.segments.iter().all(|s| {
                    !s.text.starts_with("**")
                        && !s.speaker.as_deref().unwrap_or_default().contains('*')
                });
                assert!(clean, "{name}: markup left in a turn");
            }
            _ => {}
        }
        // Every word of the file's first line of speech appears in the text.
        let probe = text
            .lines()
            .find(|line| {
                line.split_whitespace().count() >= 6
                    && !line.contains("-->")
                    // A WebVTT comment block is not speech.
                    && !line.starts_with("NOTE ")
                    && !line.contains('<')
                    && !line.contains('"')
            })
            .map(|line| {
                line.split_whitespace()
                    .nth(3)
                    .unwrap_or_default()
                    .trim_matches(|c: char| !c.is_alphanumeric())
                    .to_owned()
            });
        if let Some(word) = probe.filter(|word| word.len() > 2) {
            assert!(parsed.text.contains(&word), "{name}: {word:?} missing");
        }
        checked += 1;
    }
    assert!(checked >= 120);
}

#[test]
fn spec_examples_agree_across_formats() {
    let dir = transcripts_dir();
    let vtt = std::fs::read_to_string(dir.join("pc-namespace_example.vtt")).unwrap();
    let srt = std::fs::read_to_string(dir.join("pc-namespace_example.srt")).unwrap();
    let html = std::fs::read_to_string(dir.join("pc-namespace_example.html")).unwrap();
    let vtt = parse_transcript(&vtt, TranscriptFormat::Vtt).unwrap();
    let srt = parse_transcript(&srt, TranscriptFormat::Srt).unwrap();
    let html = parse_transcript(&html, TranscriptFormat::Html).unwrap();
    assert_eq!(vtt.segments[0].speaker.as_deref(), Some("Sarah"));
    assert_eq!(srt.segments[0].speaker.as_deref(), Some("Travis"));
    assert_eq!(html.segments[0].speaker.as_deref(), Some("Travis"));
    let words = |text: &str| {
        text.split_whitespace()
            .take(6)
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(words(&srt.text), words(&html.text));

    let json =
        std::fs::read_to_string(dir.join("podcast_search_test_transcript_speaker_no_end.json"))
            .unwrap();
    let json = parse_transcript(&json, TranscriptFormat::Json).unwrap();
    assert_eq!(json.segments[0].speaker.as_deref(), Some("Speaker 1"));
    assert_eq!(json.segments[1].start_second, Some(5.5));
}

/// The W3C test file's cues, as read from the file: a NOTE block between two cues is a
/// comment, not caption text of the cue before it.
#[test]
fn a_note_block_between_cues_is_not_caption_text() {
    let dir = transcripts_dir();
    let vtt = std::fs::read_to_string(dir.join("podcast_search_test_transcript.vtt")).unwrap();
    let parsed = parse_transcript(&vtt, TranscriptFormat::Vtt).unwrap();
    assert!(
        !parsed.text.contains("ignored") && !parsed.text.contains("NOTE"),
        "{:?}",
        parsed.text
    );
    let texts: Vec<&str> = parsed.segments.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        &texts[..5],
        [
            "Text line 1",
            "Text line 2",
            "Text line 3",
            "Text line 4",
            "Text line 5"
        ]
    );
    let starts: Vec<Option<f64>> = parsed.segments.iter().map(|s| s.start_second).collect();
    assert_eq!(
        starts,
        [
            Some(0.0),
            Some(2.0),
            Some(3.0),
            Some(65.0),
            Some(67.0),
            Some(3729.001)
        ]
    );
    assert!(texts[5].contains("Multi Line 1") && texts[5].contains("Multi Line 2"));
}
