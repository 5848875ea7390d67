//! Transcripts in every format feeds link to: WebVTT (with `<v Speaker>` voices and
//! `- ` speaker changes), SRT, the Podcast Index JSON format, HTML (`<cite>`,
//! `<time>`, `<p>`), plain text (optionally with `HH:MM:SS` line stamps) and Markdown
//! with `**Speaker:**` turns.

mod cues;
mod html;
mod json;
mod plain;

use podlens_model::catalog::{TranscriptRecord, TranscriptSegment};
use uuid::Uuid;

use crate::error::IngestError;

/// A transcript file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TranscriptFormat {
    Vtt,
    Srt,
    Json,
    Html,
    Text,
    Markdown,
}

impl TranscriptFormat {
    /// Every format, in declaration order.
    pub const ALL: [TranscriptFormat; 6] = [
        TranscriptFormat::Vtt,
        TranscriptFormat::Srt,
        TranscriptFormat::Json,
        TranscriptFormat::Html,
        TranscriptFormat::Text,
        TranscriptFormat::Markdown,
    ];

    /// The short name stored in `TranscriptRecord::format`.
    pub fn name(self) -> &'static str {
        match self {
            TranscriptFormat::Vtt => "vtt",
            TranscriptFormat::Srt => "srt",
            TranscriptFormat::Json => "json",
            TranscriptFormat::Html => "html",
            TranscriptFormat::Text => "txt",
            TranscriptFormat::Markdown => "md",
        }
    }
}

/// The format named by a MIME type, else by the URL's or path's extension.
pub fn format_for(mime_type: &str, url: &str) -> Option<TranscriptFormat> {
    let mime = mime_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let by_mime = match mime.as_str() {
        "text/vtt" => Some(TranscriptFormat::Vtt),
        "application/x-subrip" | "application/srt" | "text/srt" | "text/x-srt" => {
            Some(TranscriptFormat::Srt)
        }
        "application/json" | "text/json" => Some(TranscriptFormat::Json),
        "text/html" => Some(TranscriptFormat::Html),
        "text/plain" => Some(TranscriptFormat::Text),
        "text/markdown" => Some(TranscriptFormat::Markdown),
        _ => None,
    };
    by_mime.or_else(|| {
        let path = url
            .split(['?', '#'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        let extension = path.rsplit_once('.').map(|(_, extension)| extension)?;
        match extension {
            "vtt" => Some(TranscriptFormat::Vtt),
            "srt" => Some(TranscriptFormat::Srt),
            "json" => Some(TranscriptFormat::Json),
            "html" | "htm" => Some(TranscriptFormat::Html),
            "txt" => Some(TranscriptFormat::Text),
            "md" | "markdown" => Some(TranscriptFormat::Markdown),
            _ => None,
        }
    })
}

/// The MIME type for a transcript URL by its extension (`text/plain` when unknown).
pub fn mime_type_for_url(url: &str) -> &'static str {
    match format_for("", url) {
        Some(TranscriptFormat::Vtt) => "text/vtt",
        Some(TranscriptFormat::Srt) => "application/x-subrip",
        Some(TranscriptFormat::Json) => "application/json",
        Some(TranscriptFormat::Html) => "text/html",
        Some(TranscriptFormat::Markdown) => "text/markdown",
        Some(TranscriptFormat::Text) | None => "text/plain",
    }
}

/// Sniffs the format of a transcript whose type is unknown.
pub fn sniff_format(text: &str) -> TranscriptFormat {
    let head = text.trim_start_matches('\u{feff}').trim_start();
    if head.starts_with("WEBVTT") {
        TranscriptFormat::Vtt
    } else if head.starts_with('{') || head.starts_with('[') {
        TranscriptFormat::Json
    } else if head.starts_with('<') {
        TranscriptFormat::Html
    } else if cues::looks_like_srt(head) {
        TranscriptFormat::Srt
    } else if head.starts_with("**") || head.contains("\n**") {
        TranscriptFormat::Markdown
    } else {
        TranscriptFormat::Text
    }
}

/// A transcript's text and segments.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParsedTranscript {
    pub text: String,
    pub segments: Vec<TranscriptSegment>,
}

/// Parses a transcript in `format`.
pub fn parse_transcript(
    text: &str,
    format: TranscriptFormat,
) -> Result<ParsedTranscript, IngestError> {
    let text = text.trim_start_matches('\u{feff}');
    let segments = match format {
        TranscriptFormat::Vtt | TranscriptFormat::Srt => cues::parse_cues(text),
        TranscriptFormat::Json => json::parse_json(text)?,
        TranscriptFormat::Html => html::parse_html(text),
        TranscriptFormat::Text => plain::parse_plain(text),
        TranscriptFormat::Markdown => plain::parse_markdown(text),
    };
    if segments.is_empty() {
        return Err(IngestError::Transcript(format!(
            "no text found in the {} transcript",
            format.name()
        )));
    }
    Ok(ParsedTranscript {
        text: join_segments(&segments),
        segments,
    })
}

/// The transcript's running text: a speaker's consecutive segments joined by spaces,
/// a new paragraph at every change of speaker.
fn join_segments(segments: &[TranscriptSegment]) -> String {
    let mut text = String::new();
    let mut last_speaker: Option<&str> = None;
    for segment in segments {
        let speaker = segment.speaker.as_deref();
        if !text.is_empty() {
            text.push_str(if speaker.is_some() && speaker != last_speaker {
                "\n\n"
            } else {
                " "
            });
        }
        text.push_str(&segment.text);
        last_speaker = speaker.or(last_speaker);
    }
    text
}

/// Builds the catalog record of a transcript of `episode_id` read from `source`.
pub fn transcript_record(
    podcast_id: Uuid,
    episode_id: Uuid,
    source: &str,
    format: TranscriptFormat,
    language: Option<String>,
    parsed: ParsedTranscript,
) -> TranscriptRecord {
    TranscriptRecord {
        transcript_id: podlens_model::catalog::transcript_id(episode_id, source),
        episode_id,
        podcast_id,
        source: source.to_owned(),
        format: format.name().to_owned(),
        language,
        transcript_text: parsed.text,
        segments: parsed.segments,
    }
}

/// `HH:MM:SS.mmm`, `MM:SS.mmm`, `HH:MM:SS,mmm` (SRT) or `H:MM` to seconds.
pub(crate) fn timestamp_seconds(value: &str) -> Option<f64> {
    let value = value.trim().replace(',', ".");
    let mut total = 0.0;
    let parts: Vec<&str> = value.split(':').collect();
    if parts.len() < 2 || parts.len() > 3 {
        return None;
    }
    for (index, part) in parts.iter().enumerate() {
        let is_last = index + 1 == parts.len();
        if part.is_empty() || (!is_last && !part.chars().all(|c| c.is_ascii_digit())) {
            return None;
        }
        let number: f64 = part.parse().ok()?;
        total = total * 60.0 + number;
    }
    total.is_finite().then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_type_and_extension() {
        assert_eq!(format_for("text/vtt", "x"), Some(TranscriptFormat::Vtt));
        assert_eq!(
            format_for("", "https://a/b.SRT?x=1"),
            Some(TranscriptFormat::Srt)
        );
        assert_eq!(
            format_for("application/json; charset=utf-8", ""),
            Some(TranscriptFormat::Json)
        );
        assert_eq!(format_for("", "https://a/b"), None);
        assert_eq!(timestamp_seconds("01:02:03.500"), Some(3723.5));
        assert_eq!(timestamp_seconds("00:00:02,399"), Some(2.399));
        assert_eq!(timestamp_seconds("1:05"), Some(65.0));
        assert_eq!(timestamp_seconds("x:05"), None);
    }

    #[test]
    fn empty_transcripts_are_errors() {
        assert!(parse_transcript("WEBVTT\n\n", TranscriptFormat::Vtt).is_err());
        assert!(parse_transcript("{}", TranscriptFormat::Json).is_err());
    }
}
