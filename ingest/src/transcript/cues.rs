//! Timed cues: WebVTT and SRT.

use podlens_model::catalog::TranscriptSegment;

use super::timestamp_seconds;
use crate::entities;

/// True when the text starts like an SRT file (a cue number, then a time range).
pub(super) fn looks_like_srt(head: &str) -> bool {
    let mut lines = head.lines().map(str::trim).filter(|line| !line.is_empty());
    let first = lines.next().unwrap_or_default();
    let second = lines.next().unwrap_or_default();
    first.chars().all(|c| c.is_ascii_digit()) && second.contains("-->")
}

/// Parses WebVTT or SRT cues. A `<v Speaker>` voice or a `Speaker: ` prefix names the
/// speaker; `- ` at the start of a line marks a change of speaker within a cue; a cue
/// without a speaker keeps the previous one. Blank lines inside and around cues are
/// tolerated; NOTE, STYLE and REGION blocks are skipped.
/// A WebVTT comment, style or region block: the keyword alone or followed by a space or
/// tab (so a caption line such as "NOTED." is text).
fn is_vtt_block_keyword(line: &str) -> bool {
    ["NOTE", "STYLE", "REGION"].iter().any(|word| {
        line.strip_prefix(word)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
    })
}

pub(super) fn parse_cues(text: &str) -> Vec<TranscriptSegment> {
    let normalized = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut segments: Vec<TranscriptSegment> = Vec::new();
    let mut current: Option<TranscriptSegment> = None;
    let mut last_speaker: Option<String> = None;
    let mut skipping_block = false;
    // A blank line ends a block; NOTE, STYLE and REGION blocks may follow any cue.
    let mut at_block_start = true;
    let lines: Vec<&str> = normalized.lines().collect();
    for (index, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        let next_is_timing = lines
            .get(index + 1)
            .is_some_and(|next| next.contains("-->"));
        if trimmed.is_empty() {
            skipping_block = false;
            at_block_start = true;
            continue;
        }
        if next_is_timing && !trimmed.contains("-->") {
            // A cue identifier (SRT number, VTT id) before its timing line.
            continue;
        }
        if skipping_block {
            continue;
        }
        let starts_block = std::mem::replace(&mut at_block_start, false);
        if (current.is_none() || starts_block) && is_vtt_block_keyword(trimmed) {
            skipping_block = true;
            continue;
        }
        if trimmed.starts_with("WEBVTT") && segments.is_empty() && current.is_none() {
            continue;
        }
        if let Some((start, end)) = trimmed.split_once("-->")
            && let Some(start) = timestamp_seconds(start)
        {
            flush(&mut current, &mut segments);
            let end = end.split_whitespace().next().and_then(timestamp_seconds);
            current = Some(TranscriptSegment {
                start_second: Some(start),
                end_second: end,
                speaker: None,
                text: String::new(),
            });
            continue;
        }
        let Some(cue) = current.as_mut() else {
            // Cue identifiers (SRT numbers, VTT ids) come before the timing line.
            continue;
        };
        let (speaker, body) = split_speaker(trimmed);
        if let Some(speaker) = speaker {
            if !cue.text.is_empty() && cue.speaker.as_deref() != Some(speaker.as_str()) {
                // A change of speaker inside a cue: split it, sharing the cue's times.
                let next = TranscriptSegment {
                    start_second: cue.start_second,
                    end_second: cue.end_second,
                    speaker: Some(speaker.clone()),
                    text: String::new(),
                };
                let finished = std::mem::replace(cue, next);
                segments.push(finished);
            } else {
                cue.speaker = Some(speaker.clone());
            }
            last_speaker = Some(speaker);
        } else if cue.speaker.is_none() {
            cue.speaker = last_speaker.clone();
        }
        let body = strip_cue_tags(&body);
        if body.is_empty() {
            continue;
        }
        if !cue.text.is_empty() {
            cue.text.push(' ');
        }
        cue.text.push_str(&body);
    }
    flush(&mut current, &mut segments);
    segments
}

fn flush(current: &mut Option<TranscriptSegment>, segments: &mut Vec<TranscriptSegment>) {
    if let Some(segment) = current.take().filter(|segment| !segment.text.is_empty()) {
        segments.push(segment);
    }
}

/// The speaker of a cue line: `<v Name>`, `<v.loud Name>`, or a short `Name:` prefix.
fn split_speaker(line: &str) -> (Option<String>, String) {
    let line = line.strip_prefix("- ").unwrap_or(line);
    if let Some(rest) = line.strip_prefix("<v")
        && let Some((voice, body)) = rest.split_once('>')
    {
        let name = voice
            .trim_start_matches(|c: char| c != ' ' && c != '\t')
            .trim();
        let body = body.strip_suffix("</v>").unwrap_or(body);
        return ((!name.is_empty()).then(|| name.to_owned()), body.to_owned());
    }
    if let Some((name, body)) = line.split_once(": ") {
        let is_name = name.len() <= 40
            && !name.is_empty()
            && name.split_whitespace().count() <= 4
            && name.chars().next().is_some_and(char::is_uppercase)
            && !name.contains(['.', ',', '?', '!', '"']);
        if is_name {
            return (Some(name.to_owned()), body.to_owned());
        }
    }
    (None, line.to_owned())
}

/// Removes `<b>`, `<i>`, `<c.class>`, timestamps tags and the like; resolves entities.
fn strip_cue_tags(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        match rest[open..].find('>') {
            Some(close) => rest = &rest[open + close + 1..],
            None => {
                rest = &rest[open..];
                break;
            }
        }
    }
    out.push_str(rest);
    entities::unescape(out.trim()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vtt_voices_and_dash_speaker_changes() {
        let vtt = "WEBVTT\n\nNOTE a comment\nstill comment\n\n1\n00:00:00.000 --> 00:00:02.000 align:start\n<v Sarah>Hello &amp; welcome</v>\n\n\n00:00:02.000 --> 00:00:04.000\n- <v Bob>Hi.\n- <v Sarah>Hey!\n\n00:00:04.000 --> 00:00:05.500\nstill Sarah\n";
        let segments = parse_cues(vtt);
        let summary: Vec<(Option<&str>, &str)> = segments
            .iter()
            .map(|segment| (segment.speaker.as_deref(), segment.text.as_str()))
            .collect();
        assert_eq!(
            summary,
            [
                (Some("Sarah"), "Hello & welcome"),
                (Some("Bob"), "Hi."),
                (Some("Sarah"), "Hey!"),
                (Some("Sarah"), "still Sarah"),
            ]
        );
        assert_eq!(segments[3].start_second, Some(4.0));
        assert_eq!(segments[3].end_second, Some(5.5));
    }

    #[test]
    fn block_keywords_stand_alone_and_may_follow_any_cue() {
        let vtt = "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nNOTED, thanks.\n\nNOTE\ncomment\n\nSTYLE\n::cue { color: red }\n\n00:00:01.000 --> 00:00:02.000\nREGIONAL news\n";
        let texts: Vec<String> = parse_cues(vtt).into_iter().map(|s| s.text).collect();
        assert_eq!(texts, ["NOTED, thanks.", "REGIONAL news"]);
    }

    #[test]
    fn srt_with_speaker_prefix() {
        let srt = "1\r\n00:00:00,179 --> 00:00:02,399\r\nTravis: When you first get\r\nstarted\r\n\r\n2\r\n00:00:02,400 --> 00:00:04,799\r\nalmost there\r\n";
        let segments = parse_cues(srt);
        assert_eq!(segments.len(), 2);
        assert_eq!(segments[0].speaker.as_deref(), Some("Travis"));
        assert_eq!(segments[0].text, "When you first get started");
        assert_eq!(segments[1].speaker.as_deref(), Some("Travis"));
        assert!((segments[1].start_second.unwrap() - 2.4).abs() < 1e-9);
    }
}
