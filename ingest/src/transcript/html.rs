//! HTML transcripts as the Podcasting 2.0 spec shows them: `<cite>Speaker:</cite>`,
//! `<time>0:00</time>`, then `<p>` text. Pages without that structure become one
//! segment per paragraph.

use podlens_model::catalog::TranscriptSegment;

use super::timestamp_seconds;
use crate::text::html_to_text;

pub(super) fn parse_html(html: &str) -> Vec<TranscriptSegment> {
    let mut segments = Vec::new();
    let mut speaker: Option<String> = None;
    let mut start: Option<f64> = None;
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        let tag_text = &rest[open + 1..];
        let name: String = tag_text
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        let Some(body_start) = tag_text.find('>') else {
            break;
        };
        let body = &tag_text[body_start + 1..];
        let closing = format!("</{name}");
        let (inner, after) = match (name.as_str(), body.find(&closing)) {
            ("cite" | "time" | "p", Some(end)) => (&body[..end], &body[end..]),
            _ => {
                rest = body;
                continue;
            }
        };
        let text = html_to_text(inner);
        match name.as_str() {
            "cite" => {
                speaker =
                    Some(text.trim_end_matches(':').trim().to_owned()).filter(|s| !s.is_empty())
            }
            "time" => start = timestamp_seconds(&text).or_else(|| text.trim().parse().ok()),
            _ if !text.is_empty() => segments.push(TranscriptSegment {
                start_second: start.take(),
                end_second: None,
                speaker: speaker.clone(),
                text,
            }),
            _ => {}
        }
        rest = after;
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cite_time_paragraph() {
        let html = "<html><body><cite>Travis:</cite>\n<time>0:05</time>\n<p>It&#39;s <b>here</b>.</p><p>More.</p></body></html>";
        let segments = parse_html(html);
        assert_eq!(segments.len(), 2);
        assert_eq!(segments[0].speaker.as_deref(), Some("Travis"));
        assert_eq!(segments[0].start_second, Some(5.0));
        assert_eq!(segments[0].text, "It's here .");
        assert_eq!(segments[1].start_second, None);
    }
}
