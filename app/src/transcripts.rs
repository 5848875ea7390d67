//! Transcript renderings: plain text, WebVTT, timed sentences and previews.

use podlens_model::catalog::TranscriptRecord;
use podlens_model::entities::TranscriptSentence;

/// Characters in a transcript text preview.
pub const PREVIEW_CHARACTERS: usize = 1000;
/// Sentences in a timestamps preview.
pub const PREVIEW_SENTENCES: usize = 10;

/// The timed segments as sentences (untimed segments are left out).
pub fn sentences(transcript: &TranscriptRecord) -> Vec<TranscriptSentence> {
    transcript
        .segments
        .iter()
        .filter_map(|segment| {
            let start = segment.start_second?;
            let end = segment.end_second.unwrap_or(start).max(start);
            let text = segment.text.trim();
            (!text.is_empty()).then(|| TranscriptSentence {
                text: text.to_owned(),
                start_second: start,
                end_second: end,
            })
        })
        .collect()
}

/// The first `limit` characters of `text` (on a character boundary) and whether it
/// was cut.
pub fn preview(text: &str, limit: usize) -> (String, bool) {
    match text.char_indices().nth(limit) {
        Some((cut, _)) => (text[..cut].to_owned(), true),
        None => (text.to_owned(), false),
    }
}

/// WebVTT of the timed segments, with speakers as voice tags; `None` when the
/// transcript has no timing.
pub fn to_vtt(transcript: &TranscriptRecord) -> Option<String> {
    let mut out = String::from("WEBVTT\n\n");
    let mut cues = 0usize;
    for segment in &transcript.segments {
        let Some(start) = segment.start_second else {
            continue;
        };
        let end = segment.end_second.unwrap_or(start).max(start);
        let text = segment.text.trim();
        if text.is_empty() {
            continue;
        }
        cues += 1;
        out.push_str(&format!(
            "{cues}\n{} --> {}\n",
            timestamp(start),
            timestamp(end)
        ));
        match segment
            .speaker
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            Some(speaker) => out.push_str(&format!("<v {speaker}>{text}\n\n")),
            None => out.push_str(&format!("{text}\n\n")),
        }
    }
    (cues > 0).then_some(out)
}

/// `HH:MM:SS.mmm`.
fn timestamp(seconds: f64) -> String {
    let total_millis = (seconds.max(0.0) * 1000.0).round() as u64;
    let (hours, rest) = (total_millis / 3_600_000, total_millis % 3_600_000);
    let (minutes, rest) = (rest / 60_000, rest % 60_000);
    let (secs, millis) = (rest / 1000, rest % 1000);
    format!("{hours:02}:{minutes:02}:{secs:02}.{millis:03}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use podlens_model::catalog::TranscriptSegment;

    fn segment(
        start: Option<f64>,
        end: Option<f64>,
        speaker: Option<&str>,
        text: &str,
    ) -> TranscriptSegment {
        TranscriptSegment {
            start_second: start,
            end_second: end,
            speaker: speaker.map(str::to_owned),
            text: text.to_owned(),
        }
    }

    #[test]
    fn vtt_has_cues_with_millisecond_timestamps_and_voices() {
        let transcript = TranscriptRecord {
            segments: vec![
                segment(Some(0.0), Some(2.5), Some("Ada"), "Hello there."),
                segment(None, None, None, "untimed"),
                segment(Some(3661.25), Some(3662.0), None, "Later."),
            ],
            ..TranscriptRecord::default()
        };
        let vtt = to_vtt(&transcript).unwrap();
        assert_eq!(
            vtt,
            "WEBVTT\n\n1\n00:00:00.000 --> 00:00:02.500\n<v Ada>Hello there.\n\n2\n01:01:01.250 --> 01:01:02.000\nLater.\n\n"
        );
        assert_eq!(sentences(&transcript).len(), 2);
    }

    #[test]
    fn untimed_transcripts_have_no_vtt() {
        let transcript = TranscriptRecord {
            segments: vec![segment(None, None, None, "words")],
            ..TranscriptRecord::default()
        };
        assert!(to_vtt(&transcript).is_none());
    }

    #[test]
    fn preview_cuts_on_character_boundaries() {
        assert_eq!(preview("héllo", 2), ("hé".to_owned(), true));
        assert_eq!(preview("hé", 2), ("hé".to_owned(), false));
    }
}
