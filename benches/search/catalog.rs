//! The generated catalog: podcasts, episodes and transcripts in English-like text drawn
//! from a Zipf-distributed vocabulary, deterministic for a given size.
//!
//! The vocabulary holds common English words first, then pronounceable made-up words.
//! A word is kept only when every stemmer the catalog's languages use maps it to a stem
//! no earlier word has: then Podlens's stemmed fields match a query word in exactly the
//! documents that contain it, as the unstemmed SQL engines and plain tantivy do, and
//! result counts can be compared query by query.

use std::collections::HashSet;

use chrono::{DateTime, TimeZone, Utc};
use podlens_indexer::analysis::{LanguageFamily, analyze};
use podlens_model::catalog::{
    EpisodeRecord, PodcastRecord, TranscriptRecord, TranscriptSegment, episode_id, podcast_id,
    transcript_id,
};

/// Words in the vocabulary.
const VOCABULARY_SIZE: usize = 50_000;
/// Average episodes per podcast (1 to 39, uniformly).
const MAX_EPISODES_PER_PODCAST: u64 = 39;
/// One episode in five has a transcript.
const TRANSCRIPT_PERCENT: u64 = 20;
/// Podcast languages, in percent.
pub const LANGUAGES: [(&str, u64); 4] = [("en", 80), ("de", 8), ("es", 6), ("fr", 6)];
/// Episodes are published over this many days from `EPOCH_SECONDS`.
pub const PUBLISHED_DAYS: i64 = 4_000;
/// 2015-01-01.
pub const EPOCH_SECONDS: i64 = 1_420_070_400;

const COMMON_WORDS: &str = "the and to of a in that is for it you on with this was be as are \
    have we but not they at so what all about just like from or one there he if my by out your \
    can more people do when know think time how up would our get will them which their some \
    really an going been year because new get well now who work way first make good very over \
    even back world story life then also much need into show want show week today money \
    family music health history science business news sports game film book love city home \
    water food team school country police market power energy climate space history war \
    church culture season coach player data computer software startup design market doctor \
    patient garden travel coffee ocean mountain river island forest winter summer morning";

pub use crate::random::Random;

/// The vocabulary in rank order and its Zipf sampler.
pub struct Vocabulary {
    pub words: Vec<String>,
    cumulative: Vec<f64>,
}

fn invented_word(random: &mut Random) -> String {
    const ONSETS: [&str; 26] = [
        "b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z",
        "br", "cr", "dr", "fl", "gr", "pl", "st", "tr",
    ];
    const VOWELS: [&str; 8] = ["a", "e", "i", "o", "u", "ai", "ea", "ou"];
    const CODAS: [&str; 8] = ["", "", "n", "r", "l", "m", "nd", "rk"];
    let syllables = random.between(2, 3);
    let mut word = String::new();
    for _ in 0..syllables {
        word.push_str(ONSETS[random.below(ONSETS.len() as u64) as usize]);
        word.push_str(VOWELS[random.below(VOWELS.len() as u64) as usize]);
        word.push_str(CODAS[random.below(CODAS.len() as u64) as usize]);
    }
    word
}

impl Vocabulary {
    /// The common words, then invented ones, each with a stem of its own in every
    /// language family the catalog uses.
    pub fn new(random: &mut Random) -> Vocabulary {
        let families = [
            LanguageFamily::English,
            LanguageFamily::German,
            LanguageFamily::Spanish,
            LanguageFamily::French,
        ];
        let mut analyzers: Vec<_> = families.iter().map(|family| family.analyzer()).collect();
        let mut stems: Vec<HashSet<String>> = vec![HashSet::new(); families.len()];
        let mut seen = HashSet::new();
        let mut words = Vec::with_capacity(VOCABULARY_SIZE);
        let mut candidates = COMMON_WORDS.split_whitespace().map(str::to_owned);
        while words.len() < VOCABULARY_SIZE {
            let word = candidates.next().unwrap_or_else(|| invented_word(random));
            if word == crate::GAP_WORD || !seen.insert(word.clone()) {
                continue;
            }
            let word_stems: Vec<Vec<String>> = analyzers
                .iter_mut()
                .map(|analyzer| analyze(analyzer, &word))
                .collect();
            let distinct = word_stems
                .iter()
                .zip(&stems)
                .all(|(tokens, taken)| tokens.len() == 1 && !taken.contains(&tokens[0]));
            if !distinct {
                continue;
            }
            for (mut tokens, taken) in word_stems.into_iter().zip(stems.iter_mut()) {
                taken.insert(tokens.remove(0));
            }
            words.push(word);
        }
        // Zipf with exponent 1 and a small offset, so the head is not a single word.
        let mut cumulative = Vec::with_capacity(words.len());
        let mut sum = 0.0;
        for rank in 0..words.len() {
            sum += 1.0 / (rank as f64 + 2.7);
            cumulative.push(sum);
        }
        Vocabulary { words, cumulative }
    }

    /// A word drawn by frequency.
    pub fn sample(&self, random: &mut Random) -> &str {
        let total = self.cumulative.last().copied().unwrap_or(1.0);
        let target = random.unit() * total;
        let rank = self.cumulative.partition_point(|value| *value < target);
        &self.words[rank.min(self.words.len() - 1)]
    }

    /// Between `low` and `high` words in sentences.
    pub fn text(&self, random: &mut Random, low: u64, high: u64) -> String {
        let count = random.between(low, high) as usize;
        self.sentences(random, count)
    }

    /// `count` words in sentences: capitalized starts, commas, full stops.
    pub fn sentences(&self, random: &mut Random, count: usize) -> String {
        let mut text = String::with_capacity(count * 8);
        let mut sentence_left = 0;
        for index in 0..count {
            let word = self.sample(random);
            if sentence_left == 0 {
                if index > 0 {
                    text.push_str(". ");
                }
                sentence_left = random.between(5, 16);
                let mut letters = word.chars();
                if let Some(first) = letters.next() {
                    text.extend(first.to_uppercase());
                    text.push_str(letters.as_str());
                }
            } else {
                text.push_str(if random.below(12) == 0 { ", " } else { " " });
                text.push_str(word);
            }
            sentence_left -= 1;
        }
        text.push('.');
        text
    }
}

/// The catalog, as the indexer reads it.
pub struct Catalog {
    pub vocabulary: Vocabulary,
    pub podcasts: Vec<PodcastRecord>,
    pub episodes: Vec<EpisodeRecord>,
    pub transcripts: Vec<TranscriptRecord>,
    /// The language of each episode's podcast, by episode index.
    pub episode_languages: Vec<&'static str>,
    /// The transcript of each episode, as an index into `transcripts`.
    pub episode_transcripts: Vec<Option<usize>>,
}

pub fn timestamp(seconds: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(seconds, 0).unwrap()
}

fn language(random: &mut Random) -> &'static str {
    let mut roll = random.below(100);
    for (language, percent) in LANGUAGES {
        if roll < percent {
            return language;
        }
        roll -= percent;
    }
    LANGUAGES[0].0
}

fn transcript(
    vocabulary: &Vocabulary,
    random: &mut Random,
    episode: &EpisodeRecord,
) -> TranscriptRecord {
    let source = "transcript.vtt";
    let mut second = 0.0;
    let segments: Vec<TranscriptSegment> = (0..random.between(15, 45))
        .map(|_| {
            let words = random.between(6, 14) as usize;
            let start = second;
            second += words as f64 * 0.4;
            TranscriptSegment {
                start_second: Some(start),
                end_second: Some(second),
                speaker: None,
                text: vocabulary.sentences(random, words),
            }
        })
        .collect();
    TranscriptRecord {
        transcript_id: transcript_id(episode.episode_id, source),
        episode_id: episode.episode_id,
        podcast_id: episode.podcast_id,
        source: source.into(),
        format: "vtt".into(),
        language: None,
        transcript_text: segments
            .iter()
            .map(|segment| segment.text.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        segments,
    }
}

/// `episodes` episodes over about `episodes / 20` podcasts.
pub fn generate(episodes: usize, seed: u64) -> Catalog {
    let mut random = Random::new(seed);
    let vocabulary = Vocabulary::new(&mut random);
    let mut catalog = Catalog {
        vocabulary,
        podcasts: Vec::new(),
        episodes: Vec::with_capacity(episodes),
        transcripts: Vec::new(),
        episode_languages: Vec::with_capacity(episodes),
        episode_transcripts: Vec::with_capacity(episodes),
    };
    let vocabulary = &catalog.vocabulary;
    let mut p = 0;
    while catalog.episodes.len() < episodes {
        let feed = format!("https://feeds.example.com/{p}.xml");
        let pid = podcast_id(None, &feed);
        let language = language(&mut random);
        let title = vocabulary.text(&mut random, 2, 5);
        let count = (random.between(1, MAX_EPISODES_PER_PODCAST) as usize)
            .min(episodes - catalog.episodes.len());
        let mut last = None;
        let mut transcripts = 0;
        for e in 0..count {
            let eid = episode_id(pid, &format!("item-{e}"));
            let published = EPOCH_SECONDS + random.below((PUBLISHED_DAYS * 86_400) as u64) as i64;
            last = last.max(Some(published));
            let mut episode = EpisodeRecord {
                episode_id: eid,
                podcast_id: pid,
                episode_slug: format!("episode-{p}-{e}"),
                episode_rss_title: vocabulary.text(&mut random, 3, 9),
                episode_rss_description_no_html: Some(vocabulary.text(&mut random, 15, 60)),
                episode_enclosure_url: Some(format!("https://cdn.example.com/{p}/{e}.mp3")),
                episode_rss_published_at: Some(timestamp(published)),
                episode_duration_seconds: Some(600 + random.below(3000) as i64),
                episode_podcast_title_denormalized: title.clone(),
                ..EpisodeRecord::default()
            };
            let transcript = (random.below(100) < TRANSCRIPT_PERCENT)
                .then(|| self::transcript(vocabulary, &mut random, &episode));
            if let Some(transcript) = transcript {
                episode.episode_has_transcript = true;
                episode.transcript_id = Some(transcript.transcript_id);
                catalog
                    .episode_transcripts
                    .push(Some(catalog.transcripts.len()));
                catalog.transcripts.push(transcript);
                transcripts += 1;
            } else {
                catalog.episode_transcripts.push(None);
            }
            catalog.episodes.push(episode);
            catalog.episode_languages.push(language);
        }
        catalog.podcasts.push(PodcastRecord {
            podcast_id: pid,
            podcast_slug: format!("podcast-{p}"),
            podcast_rss_feed_url: feed,
            podcast_rss_title: title,
            podcast_rss_description_no_html: Some(vocabulary.text(&mut random, 20, 60)),
            rss_language: Some(language.to_owned()),
            podcast_podlens_genres: vec!["society".to_owned()],
            explicit_rss: false,
            founded_date: Some(timestamp(EPOCH_SECONDS)),
            last_episode_date: last.map(timestamp),
            total_episodes: count as i64,
            total_transcripts: transcripts,
            ..PodcastRecord::default()
        });
        p += 1;
    }
    catalog
}
