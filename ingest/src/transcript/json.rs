//! The Podcast Index JSON transcript format:
//! `{"version": "1.0.0", "segments": [{"speaker", "startTime", "endTime", "body"}]}`.
//! Word-level segments of one speaker are merged into phrases.

use podlens_model::catalog::TranscriptSegment;
use serde::Deserialize;

use crate::error::IngestError;

#[derive(Debug, Deserialize)]
struct JsonTranscript {
    #[serde(default)]
    segments: Vec<JsonSegment>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsonSegment {
    #[serde(default)]
    speaker: Option<String>,
    #[serde(default)]
    start_time: Option<f64>,
    #[serde(default)]
    end_time: Option<f64>,
    #[serde(default)]
    body: Option<String>,
}

/// Gap (seconds) between words of one speaker that starts a new phrase.
const PHRASE_GAP_SECONDS: f64 = 1.5;

pub(super) fn parse_json(text: &str) -> Result<Vec<TranscriptSegment>, IngestError> {
    let parsed: JsonTranscript = serde_json::from_str(text)
        .map_err(|error| IngestError::Transcript(format!("json: {error}")))?;
    let mut segments: Vec<TranscriptSegment> = Vec::new();
    for segment in parsed.segments {
        let body = segment.body.unwrap_or_default();
        let body = body.trim();
        if body.is_empty() {
            continue;
        }
        let speaker = segment
            .speaker
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty());
        let single_word = !body.contains(' ');
        if let Some(last) = segments.last_mut() {
            let same_speaker = last.speaker == speaker;
            let close = match (last.end_second, segment.start_time) {
                (Some(end), Some(start)) => start - end <= PHRASE_GAP_SECONDS,
                _ => false,
            };
            if single_word && same_speaker && close && !last.text.ends_with(['.', '?', '!']) {
                last.text.push(' ');
                last.text.push_str(body);
                last.end_second = segment.end_time.or(segment.start_time).or(last.end_second);
                continue;
            }
        }
        segments.push(TranscriptSegment {
            start_second: segment.start_time,
            end_second: segment.end_time,
            speaker,
            text: body.to_owned(),
        });
    }
    Ok(segments)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_merge_into_phrases() {
        let json = r#"{"version":"1.0.0","segments":[
            {"speaker":"A","startTime":0.5,"endTime":0.75,"body":"I"},
            {"speaker":"A","startTime":1,"endTime":1.25,"body":"am."},
            {"speaker":"B","startTime":1.5,"body":"No"}]}"#;
        let segments = parse_json(json).unwrap();
        assert_eq!(segments.len(), 2);
        assert_eq!(segments[0].text, "I am.");
        assert_eq!(segments[0].end_second, Some(1.25));
        assert_eq!(segments[1].end_second, None);
        assert!(parse_json("[1,2").is_err());
    }
}
