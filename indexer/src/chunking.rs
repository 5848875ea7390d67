//! Transcript chunking: consecutive segments grouped into passages of about 30–60
//! seconds or 100–200 words, each with its start and end second, so a transcript hit
//! points into the audio and a snippet re-tokenizes only one short passage.

use podlens_model::catalog::TranscriptRecord;

/// Close a chunk once it holds this many words and …
const TARGET_WORDS: usize = 120;
/// … or spans this many seconds (with at least `MIN_WORDS` words).
const TARGET_SECONDS: f64 = 45.0;
const MIN_WORDS: usize = 40;
/// Never exceed this many words (long untimed segments are split).
const MAX_WORDS: usize = 200;

/// One timed passage of a transcript.
#[derive(Debug, Clone, PartialEq)]
pub struct TranscriptChunk {
    /// Position of the chunk in its transcript, from 0.
    pub ordinal: u64,
    pub text: String,
    pub start_second: Option<f64>,
    pub end_second: Option<f64>,
}

#[derive(Default)]
struct Pending {
    words: Vec<String>,
    start: Option<f64>,
    end: Option<f64>,
}

impl Pending {
    fn seconds(&self) -> f64 {
        match (self.start, self.end) {
            (Some(start), Some(end)) if end > start => end - start,
            _ => 0.0,
        }
    }
}

/// Splits a transcript into chunks. Uses the segments when there are any, else the
/// plain text (untimed).
pub fn chunk_transcript(transcript: &TranscriptRecord) -> Vec<TranscriptChunk> {
    let mut chunks = Vec::new();
    let mut pending = Pending::default();
    let segments: Vec<(Option<f64>, Option<f64>, &str)> = if transcript.segments.is_empty() {
        vec![(None, None, transcript.transcript_text.as_str())]
    } else {
        transcript
            .segments
            .iter()
            .map(|segment| {
                (
                    segment.start_second,
                    segment.end_second,
                    segment.text.as_str(),
                )
            })
            .collect()
    };
    for (start, end, text) in segments {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        // A segment longer than a chunk is split; its time span is shared out evenly.
        let pieces = words.len().div_ceil(MAX_WORDS);
        for (piece_index, piece) in words.chunks(MAX_WORDS).enumerate() {
            let (piece_start, piece_end) = split_span(start, end, piece_index, pieces);
            if pending.words.len() + piece.len() > MAX_WORDS {
                flush(&mut pending, &mut chunks);
            }
            if pending.words.is_empty() {
                pending.start = piece_start;
            }
            pending
                .words
                .extend(piece.iter().map(|word| (*word).to_owned()));
            if piece_end.is_some() {
                pending.end = piece_end;
            }
            let long_enough = pending.words.len() >= TARGET_WORDS
                || (pending.seconds() >= TARGET_SECONDS && pending.words.len() >= MIN_WORDS);
            if long_enough {
                flush(&mut pending, &mut chunks);
            }
        }
    }
    flush(&mut pending, &mut chunks);
    chunks
}

fn split_span(
    start: Option<f64>,
    end: Option<f64>,
    index: usize,
    pieces: usize,
) -> (Option<f64>, Option<f64>) {
    match (start, end) {
        (Some(start), Some(end)) if pieces > 1 && end > start => {
            let step = (end - start) / pieces as f64;
            (
                Some(start + step * index as f64),
                Some(start + step * (index + 1) as f64),
            )
        }
        _ => (start, end),
    }
}

fn flush(pending: &mut Pending, chunks: &mut Vec<TranscriptChunk>) {
    if pending.words.is_empty() {
        return;
    }
    let taken = std::mem::take(pending);
    chunks.push(TranscriptChunk {
        ordinal: chunks.len() as u64,
        text: taken.words.join(" "),
        start_second: taken.start,
        end_second: taken.end,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use podlens_model::catalog::TranscriptSegment;

    fn segment(start: f64, end: f64, text: &str) -> TranscriptSegment {
        TranscriptSegment {
            start_second: Some(start),
            end_second: Some(end),
            speaker: None,
            text: text.to_owned(),
        }
    }

    #[test]
    fn chunks_keep_every_word_in_order_with_times() {
        let segments: Vec<TranscriptSegment> = (0..100)
            .map(|i| {
                let text = format!("word{i} alpha beta gamma delta epsilon");
                segment(i as f64 * 3.0, i as f64 * 3.0 + 3.0, &text)
            })
            .collect();
        let all_words: Vec<String> = segments
            .iter()
            .flat_map(|s| s.text.split_whitespace().map(str::to_owned))
            .collect();
        let transcript = TranscriptRecord {
            segments,
            ..TranscriptRecord::default()
        };
        let chunks = chunk_transcript(&transcript);
        assert!(chunks.len() > 3);
        let rejoined: Vec<String> = chunks
            .iter()
            .flat_map(|c| c.text.split_whitespace().map(str::to_owned))
            .collect();
        assert_eq!(rejoined, all_words);
        for pair in chunks.windows(2) {
            assert!(pair[0].end_second <= pair[1].start_second);
        }
        for chunk in &chunks {
            let words = chunk.text.split_whitespace().count();
            assert!(words <= MAX_WORDS);
            let span = chunk.end_second.unwrap() - chunk.start_second.unwrap();
            assert!(span <= 60.0, "span {span}");
        }
        assert_eq!(chunks[0].start_second, Some(0.0));
        assert_eq!(chunks.last().unwrap().end_second, Some(300.0));
    }

    #[test]
    fn untimed_text_is_split_by_words() {
        let text = vec!["lorem"; 450].join(" ");
        let transcript = TranscriptRecord {
            transcript_text: text,
            ..TranscriptRecord::default()
        };
        let chunks = chunk_transcript(&transcript);
        let counts: Vec<usize> = chunks
            .iter()
            .map(|c| c.text.split_whitespace().count())
            .collect();
        assert_eq!(counts.iter().sum::<usize>(), 450);
        assert!(counts.iter().all(|count| *count <= MAX_WORDS));
        assert!(chunks.iter().all(|c| c.start_second.is_none()));
    }
}
