//! Hand-built catalogs for the engine tests: deterministic records drawn from a small
//! vocabulary whose words stem to distinct forms, so expectations can be computed by
//! plain word scans.

#![allow(dead_code)]

use chrono::{DateTime, TimeZone, Utc};
use podlens_model::catalog::{
    EpisodeRecord, PodcastRecord, TranscriptRecord, TranscriptSegment, episode_id, podcast_id,
    transcript_id,
};

pub const VOCABULARY: [&str; 16] = [
    "garden", "rocket", "history", "music", "coffee", "planet", "travel", "money", "football",
    "science", "cooking", "robot", "ocean", "mountain", "jazz", "poetry",
];
pub const GENRES: [&str; 4] = ["arts", "business", "comedy", "science"];
pub const LANGUAGES: [&str; 3] = ["en", "en-us", "de"];

/// The benchmarks' deterministic generator (splitmix64).
#[path = "../../../benches/search/random.rs"]
mod random;
pub use random::Random;

/// `count` words of [`VOCABULARY`], drawn by `random`.
pub fn words(random: &mut Random, count: usize) -> String {
    (0..count)
        .map(|_| VOCABULARY[random.below(VOCABULARY.len() as u64) as usize])
        .collect::<Vec<_>>()
        .join(" ")
}

pub struct Catalog {
    pub podcasts: Vec<PodcastRecord>,
    pub episodes: Vec<EpisodeRecord>,
    pub transcripts: Vec<TranscriptRecord>,
}

pub fn day(n: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(1_600_000_000 + n * 86_400, 0).unwrap()
}

/// `podcasts` podcasts with 1–6 episodes each; every third episode has a transcript.
pub fn catalog(podcasts: usize, seed: u64) -> Catalog {
    let mut random = Random::new(seed);
    let mut catalog = Catalog {
        podcasts: Vec::new(),
        episodes: Vec::new(),
        transcripts: Vec::new(),
    };
    for p in 0..podcasts {
        let feed = format!("https://feeds.example.com/{p}.xml");
        let pid = podcast_id(None, &feed);
        let language = LANGUAGES[random.below(3) as usize];
        let title = format!("{} show {p}", words(&mut random, 2));
        let count = 1 + random.below(6) as usize;
        let mut last = None;
        for e in 0..count {
            let eid = episode_id(pid, &format!("item-{e}"));
            let published = (random.below(20) > 0).then(|| day(random.below(1000) as i64));
            last = last.max(published);
            let has_transcript = (p + e) % 3 == 0;
            let tid = has_transcript.then(|| transcript_id(eid, "t.vtt"));
            catalog.episodes.push(EpisodeRecord {
                episode_id: eid,
                podcast_id: pid,
                episode_slug: format!("episode-{p}-{e}"),
                episode_rss_title: words(&mut random, 3),
                episode_rss_description_no_html: Some(words(&mut random, 12)),
                episode_enclosure_url: Some(format!("https://cdn.example.com/{p}/{e}.mp3")),
                episode_rss_published_at: published,
                episode_duration_seconds: Some(600 + random.below(3000) as i64),
                episode_has_transcript: has_transcript,
                transcript_id: tid,
                episode_podcast_title_denormalized: title.clone(),
                ..EpisodeRecord::default()
            });
            if let Some(tid) = tid {
                let segments = (0..40)
                    .map(|s| TranscriptSegment {
                        start_second: Some(s as f64 * 5.0),
                        end_second: Some(s as f64 * 5.0 + 5.0),
                        speaker: None,
                        text: words(&mut random, 8),
                    })
                    .collect::<Vec<_>>();
                catalog.transcripts.push(TranscriptRecord {
                    transcript_id: tid,
                    episode_id: eid,
                    podcast_id: pid,
                    source: "t.vtt".into(),
                    format: "vtt".into(),
                    language: None,
                    transcript_text: segments
                        .iter()
                        .map(|s| s.text.as_str())
                        .collect::<Vec<_>>()
                        .join(" "),
                    segments,
                });
            }
        }
        catalog.podcasts.push(PodcastRecord {
            podcast_id: pid,
            podcast_slug: format!("podcast-{p}"),
            podcast_rss_feed_url: feed,
            podcast_rss_title: title,
            podcast_rss_description_no_html: Some(words(&mut random, 20)),
            rss_language: Some(language.to_owned()),
            podcast_podlens_genres: vec![GENRES[random.below(4) as usize].to_owned()],
            explicit_rss: random.below(4) == 0,
            founded_date: Some(day(-(random.below(2000) as i64))),
            last_episode_date: last,
            total_episodes: count as i64,
            ..PodcastRecord::default()
        });
    }
    catalog
}

/// Whether `word` occurs as a whole word in `text` (plain lowercase scan).
pub fn has_word(text: &str, word: &str) -> bool {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w == word)
}

/// Whether the words of `phrase` occur adjacent and in order in `text`.
pub fn has_phrase(text: &str, phrase: &str) -> bool {
    let words: Vec<String> = text
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect();
    let wanted: Vec<&str> = phrase.split_whitespace().collect();
    words
        .windows(wanted.len())
        .any(|window| window.iter().zip(&wanted).all(|(a, b)| a == b))
}

/// A search term over `targets` with `mode` and the other options at their defaults.
pub fn term(
    text: &str,
    targets: &[podlens_indexer::Target],
    mode: podlens_indexer::MatchMode,
) -> podlens_indexer::SearchTerm {
    podlens_indexer::SearchTerm {
        text: text.into(),
        targets: targets.to_vec(),
        match_mode: mode,
        ..podlens_indexer::SearchTerm::default()
    }
}
