//! Episode transcripts: a conversation between the hosts and the guest about the
//! episode's topics, with sponsor reads, as WebVTT cues with `<v Speaker>` voices or
//! as plain text with one paragraph per turn.
//!
//! Length: speech runs at 150 words a minute, and a transcript covers at most the
//! first 20 minutes of an episode (3,000 words), which keeps a 10,000-podcast corpus
//! with a 10% transcript share near one gigabyte.

use std::fmt::Write;

use super::episode::Episode;
use super::rng::Rng;
use super::show::{Show, TranscriptFormat};
use super::text::capitalize;
use super::vocab::FILLER_SENTENCES;
use super::{Context, STREAM_TRANSCRIPT};

pub const WORDS_PER_MINUTE: u32 = 150;
pub const MAX_TRANSCRIPT_MINUTES: u32 = 20;
const SECONDS_PER_WORD: f64 = 60.0 / WORDS_PER_MINUTE as f64;
const WORDS_PER_CUE: usize = 12;

/// A speaker's turn: who speaks and their sentences.
#[derive(Debug)]
struct Turn {
    speaker: String,
    sentences: Vec<String>,
}

/// The conversation so far and its word count.
#[derive(Debug, Default)]
struct Script {
    turns: Vec<Turn>,
    words: usize,
}

impl Script {
    fn say(&mut self, speaker: &str, sentence: String) {
        self.words += sentence.split_whitespace().count();
        match self.turns.last_mut() {
            Some(turn) if turn.speaker == speaker => turn.sentences.push(sentence),
            _ => self.turns.push(Turn {
                speaker: speaker.to_string(),
                sentences: vec![sentence],
            }),
        }
    }
}

/// The transcript file's text.
pub fn render(context: &Context, show: &Show, episode: &Episode) -> String {
    let turns = conversation(context, show, episode);
    match show.transcript_format {
        TranscriptFormat::Vtt => render_vtt(&turns),
        TranscriptFormat::Txt => render_txt(&turns),
    }
}

/// Words the transcript of an episode of `duration_seconds` holds.
pub fn target_words(duration_seconds: u32) -> usize {
    let minutes = (duration_seconds / 60).clamp(1, MAX_TRANSCRIPT_MINUTES);
    (minutes * WORDS_PER_MINUTE) as usize
}

fn conversation(context: &Context, show: &Show, episode: &Episode) -> Vec<Turn> {
    let mut rng = Rng::for_stream(&[
        context.seed,
        STREAM_TRANSCRIPT,
        show.index as u64,
        u64::from(episode.number),
    ]);
    let target = target_words(episode.duration_seconds);
    let lead = show
        .hosts
        .first()
        .cloned()
        .unwrap_or_else(|| "Host".to_string());
    let mut speakers: Vec<String> = show.hosts.clone();
    if let Some(guest) = &episode.guest {
        speakers.push(guest.clone());
    }
    let mut script = Script::default();
    let co_hosts = if show.hosts.len() > 1 {
        format!(", here with {}", show.hosts[1..].join(" and "))
    } else {
        String::new()
    };
    script.say(
        &lead,
        format!("Welcome to {}. I'm {lead}{co_hosts}.", show.title),
    );
    if let Some(sponsor) = episode.sponsor {
        script.say(
            &lead,
            sponsor_read(
                &mut rng,
                sponsor.name,
                sponsor.domain,
                sponsor.pitch,
                &show.handle,
            ),
        );
    }
    if let Some(guest) = &episode.guest {
        script.say(
            &lead,
            format!(
                "Today my guest is {guest}, and we're talking about {} and {}.",
                episode.topics[0], episode.topics[1]
            ),
        );
        script.say(
            guest,
            format!(
                "Thanks for having me. I've been thinking about {} for years.",
                episode.topics[0]
            ),
        );
    } else {
        script.say(
            &lead,
            format!(
                "Today we're talking about {} and {}.",
                episode.topics[0], episode.topics[1]
            ),
        );
    }

    let mut midroll_done = false;
    let mut speaker_index = speakers.len() - 1;
    while script.words < target {
        if speakers.len() > 1 && rng.chance(0.35) {
            speaker_index = (speaker_index + 1 + rng.below(speakers.len() as u64 - 1) as usize)
                % speakers.len();
        }
        let speaker = speakers[speaker_index].clone();
        let sentence = body_sentence(&mut rng, show, episode, &speakers, &speaker);
        script.say(&speaker, sentence);
        if !midroll_done && script.words >= target / 2 {
            midroll_done = true;
            if let Some(sponsor) = show.sponsors.last() {
                script.say(
                    &lead,
                    sponsor_read(
                        &mut rng,
                        sponsor.name,
                        sponsor.domain,
                        sponsor.pitch,
                        &show.handle,
                    ),
                );
            }
        }
    }
    let thanks = episode
        .guest
        .as_ref()
        .map(|guest| format!(" Thanks to {guest} for joining us."))
        .unwrap_or_default();
    script.say(
        &lead,
        format!(
            "That's all for today.{thanks} You can find {} wherever you get your podcasts.",
            show.title
        ),
    );
    script.turns
}

fn sponsor_read(rng: &mut Rng, name: &str, domain: &str, pitch: &str, handle: &str) -> String {
    let percent = *rng.pick(&["ten", "fifteen", "twenty", "twenty five"]);
    format!(
        "This episode is brought to you by {name}, {pitch}. Go to {domain} slash {handle} and use code {} for {percent} percent off.",
        handle
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .to_uppercase()
    )
}

fn body_sentence(
    rng: &mut Rng,
    show: &Show,
    episode: &Episode,
    speakers: &[String],
    speaker: &str,
) -> String {
    let topic = |rng: &mut Rng| {
        if rng.chance(0.7) {
            *rng.pick(&episode.topics)
        } else {
            show.topic(rng, 0.15)
        }
    };
    if speakers.len() > 1 && rng.chance(0.04) {
        let other = speakers
            .iter()
            .find(|name| name.as_str() != speaker)
            .map_or("you", String::as_str);
        let first_name = other.split_whitespace().next().unwrap_or(other);
        return format!("{first_name}, what do you make of {}?", topic(rng));
    }
    let template = *rng.pick(FILLER_SENTENCES);
    let a = topic(rng);
    let b = topic(rng);
    let sentence = template.replace("{a}", a).replace("{b}", b);
    capitalize(&sentence)
}

fn render_vtt(turns: &[Turn]) -> String {
    let mut out = String::from("WEBVTT\n\n");
    let mut clock = 0.0f64;
    for turn in turns {
        let speaker = vtt_escape(&turn.speaker);
        let words: Vec<&str> = turn
            .sentences
            .iter()
            .flat_map(|s| s.split_whitespace())
            .collect();
        for cue in words.chunks(WORDS_PER_CUE) {
            let start = clock;
            let end = start + cue.len() as f64 * SECONDS_PER_WORD;
            let _ = write!(
                out,
                "{} --> {}\n<v {speaker}>{}\n\n",
                timestamp(start),
                timestamp(end),
                vtt_escape(&cue.join(" "))
            );
            clock = end;
        }
        clock += 0.3;
    }
    out
}

fn render_txt(turns: &[Turn]) -> String {
    let mut out = String::new();
    for turn in turns {
        let _ = write!(out, "{}: {}\n\n", turn.speaker, turn.sentences.join(" "));
    }
    out
}

fn vtt_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `HH:MM:SS.mmm`.
fn timestamp(seconds: f64) -> String {
    let millis = (seconds * 1000.0).round() as u64;
    format!(
        "{:02}:{:02}:{:02}.{:03}",
        millis / 3_600_000,
        millis / 60_000 % 60,
        millis / 1000 % 60,
        millis % 1000
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_webvtt() {
        assert_eq!(timestamp(3725.4567), "01:02:05.457");
        assert_eq!(timestamp(0.0), "00:00:00.000");
    }

    #[test]
    fn length_follows_duration_up_to_the_cap() {
        assert_eq!(target_words(10 * 60), 1_500);
        assert_eq!(target_words(90 * 60), 3_000);
    }

    #[test]
    fn transcript_mentions_hosts_guest_and_topics() {
        let context = Context::new(8, "http://127.0.0.1:8900", 1.0);
        for index in 0..30 {
            let show = Show::generate(&context, index);
            let episode = Episode::generate(&context, &show, 1);
            let text = render(&context, &show, &episode);
            let words = text.split_whitespace().count();
            assert!(words >= target_words(episode.duration_seconds), "{words}");
            assert!(text.contains(&show.hosts[0]));
            assert!(text.contains(episode.topics[0]));
            if let Some(guest) = &episode.guest {
                assert!(text.contains(guest.as_str()));
            }
            if show.transcript_format == TranscriptFormat::Vtt {
                assert!(text.starts_with("WEBVTT\n\n00:00:00.000 --> "));
                assert!(text.contains("<v "));
            }
        }
    }
}
