//! Untimed or line-stamped text: plain text (optionally `HH:MM:SS text` lines) and
//! Markdown with `**Speaker:** text` turns.

use podlens_model::catalog::TranscriptSegment;

use super::timestamp_seconds;

/// Plain text: one segment per paragraph, or per line when lines carry a leading
/// timestamp (`00:01:02 text`).
pub(super) fn parse_plain(text: &str) -> Vec<TranscriptSegment> {
    let normalized = text.replace("\r\n", "\n");
    let mut segments = Vec::new();
    for paragraph in normalized.split("\n\n") {
        let paragraph = paragraph.trim();
        if paragraph.is_empty() {
            continue;
        }
        let (start, body) = split_stamp(paragraph);
        let body = body.split_whitespace().collect::<Vec<_>>().join(" ");
        if body.is_empty() {
            continue;
        }
        segments.push(TranscriptSegment {
            start_second: start,
            end_second: None,
            speaker: None,
            text: body,
        });
    }
    segments
}

fn split_stamp(line: &str) -> (Option<f64>, &str) {
    let Some((head, rest)) = line.split_once(char::is_whitespace) else {
        return (None, line);
    };
    match timestamp_seconds(head.trim_matches(['[', ']', '(', ')'])) {
        Some(seconds) => (Some(seconds), rest.trim()),
        None => (None, line),
    }
}

/// Markdown transcripts: a paragraph starting `**Name:**` opens a turn of Name;
/// following paragraphs without a name continue it. Markdown escapes (`\[`) and
/// emphasis markers are removed.
pub(super) fn parse_markdown(text: &str) -> Vec<TranscriptSegment> {
    let normalized = text.replace("\r\n", "\n");
    let mut segments: Vec<TranscriptSegment> = Vec::new();
    let mut speaker: Option<String> = None;
    // A name on a line of its own opens a turn that its next paragraph fills.
    let mut turn_open = false;
    for paragraph in normalized.split("\n\n") {
        let paragraph = paragraph.trim();
        if paragraph.is_empty() || paragraph.starts_with('#') {
            continue;
        }
        let named = paragraph
            .strip_prefix("**")
            .and_then(|rest| rest.split_once("**"))
            .filter(|(name, _)| name.trim_end().ends_with(':'));
        let body = match named {
            Some((name, body)) => {
                speaker = Some(name.trim_end().trim_end_matches(':').trim().to_owned());
                turn_open = true;
                body
            }
            None => paragraph,
        };
        let body = clean_markdown(body);
        if body.is_empty() {
            continue;
        }
        match segments.last_mut() {
            Some(last) if !turn_open => {
                last.text.push(' ');
                last.text.push_str(&body);
            }
            _ => segments.push(TranscriptSegment {
                start_second: None,
                end_second: None,
                speaker: speaker.clone(),
                text: body,
            }),
        }
        turn_open = false;
    }
    segments
}

fn clean_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            }
            '*' | '_' if chars.peek() == Some(&c) => {
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_turns() {
        let md = "**Mat Ryer:** Hello \\[laughter\\]\n\n**Kris:** Hi!\n\nMore from Kris.\n\n**Mat Ryer:**\n\nBye";
        let segments = parse_markdown(md);
        let turns: Vec<(&str, &str)> = segments
            .iter()
            .map(|s| (s.speaker.as_deref().unwrap_or(""), s.text.as_str()))
            .collect();
        assert_eq!(
            turns,
            [
                ("Mat Ryer", "Hello [laughter]"),
                ("Kris", "Hi! More from Kris."),
                ("Mat Ryer", "Bye")
            ]
        );
    }

    #[test]
    fn stamped_plain_text() {
        let segments =
            parse_plain("00:00:04 algorithm or\n\n00:01:08 what Davis\nsays\n\nfree text");
        assert_eq!(segments.len(), 3);
        assert_eq!(segments[1].start_second, Some(68.0));
        assert_eq!(segments[1].text, "what Davis says");
        assert_eq!(segments[2].start_second, None);
    }
}
