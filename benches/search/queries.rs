//! The fixed query mix, drawn from the catalog so phrases and word pairs occur: single
//! words of every frequency, two- and three-word searches (any of the words), phrases,
//! phrases and words under filters, date order instead of relevance, and deep pages.
//!
//! Words searched as words (every kind but phrases) are content words only: no word
//! Podlens drops from a search box's text at query time, in any language's fields
//! ([`podlens_indexer::words::Word::is_content_in`]: English stopwords everywhere, and
//! each language's own in its fields, "war" in German), so the peers, which search every
//! word they are given, are asked for the same words and find the same documents.
//! Phrases keep every word of the text they are taken from, as every engine searches a
//! phrase's words in order.

use podlens_indexer::analysis::LanguageFamily;
use podlens_indexer::chunking::chunk_transcript;
use podlens_indexer::words::Word;

use crate::catalog::{Catalog, EPOCH_SECONDS, PUBLISHED_DAYS, Random};

/// Results per page.
pub const PAGE_SIZE: usize = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Term,
    TwoWords,
    ThreeWords,
    Phrase,
    Filtered,
    ByDate,
    DeepPage,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::Term,
        Kind::TwoWords,
        Kind::ThreeWords,
        Kind::Phrase,
        Kind::Filtered,
        Kind::ByDate,
        Kind::DeepPage,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Kind::Term => "one word",
            Kind::TwoWords => "two words",
            Kind::ThreeWords => "three words",
            Kind::Phrase => "phrase",
            Kind::Filtered => "filtered",
            Kind::ByDate => "by date",
            Kind::DeepPage => "deep page",
        }
    }
}

/// Filters every engine applies the same way.
#[derive(Debug, Clone, Default)]
pub struct Filters {
    /// Unix seconds.
    pub published_since: Option<i64>,
    pub has_transcript: bool,
    pub language: Option<&'static str>,
}

/// One query: episodes matching any of the words (in any of title, description,
/// transcript) or the phrase (within one of them), filtered, in relevance or
/// newest-first order.
#[derive(Debug, Clone)]
pub struct BenchQuery {
    pub kind: Kind,
    pub words: Vec<String>,
    pub phrase: bool,
    pub filters: Filters,
    pub by_date: bool,
    pub offset: usize,
}

impl BenchQuery {
    pub fn describe(&self) -> String {
        let text = if self.phrase {
            format!("\"{}\"", self.words.join(" "))
        } else {
            self.words.join(" ")
        };
        let mut parts = vec![text];
        if let Some(since) = self.filters.published_since {
            parts.push(format!("since:{}", (since - EPOCH_SECONDS) / 86_400));
        }
        if self.filters.has_transcript {
            parts.push("has-transcript".into());
        }
        if let Some(language) = self.filters.language {
            parts.push(format!("lang:{language}"));
        }
        if self.by_date {
            parts.push("by-date".into());
        }
        if self.offset > 0 {
            parts.push(format!("offset:{}", self.offset));
        }
        parts.join(" ")
    }
}

fn plain_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// Whether Podlens searches `word` (lowercase) in the fields of every language.
fn is_content(word: &str) -> bool {
    let word = Word::folded(word);
    LanguageFamily::ALL
        .iter()
        .all(|family| word.is_content_in(*family))
}

struct Picker<'a> {
    catalog: &'a Catalog,
    random: Random,
}

impl Picker<'_> {
    /// A content word of the given vocabulary rank range.
    fn ranked_word(&mut self, low: usize, high: usize) -> String {
        let words = &self.catalog.vocabulary.words;
        let high = high.min(words.len() - 1);
        loop {
            let word = &words[self.random.between(low as u64, high as u64) as usize];
            if is_content(word) {
                return word.clone();
            }
        }
    }

    /// The words of a random episode text: title, description or a transcript chunk.
    fn text_words(&mut self, from_transcript: bool) -> Vec<String> {
        if from_transcript && !self.catalog.transcripts.is_empty() {
            let transcripts = &self.catalog.transcripts;
            let transcript = &transcripts[self.random.below(transcripts.len() as u64) as usize];
            let chunks = chunk_transcript(transcript);
            let chunk = &chunks[self.random.below(chunks.len() as u64) as usize];
            return plain_words(&chunk.text);
        }
        let episodes = &self.catalog.episodes;
        let episode = &episodes[self.random.below(episodes.len() as u64) as usize];
        if self.random.below(3) == 0 {
            plain_words(&episode.episode_rss_title)
        } else {
            plain_words(
                episode
                    .episode_rss_description_no_html
                    .as_deref()
                    .unwrap_or(""),
            )
        }
    }

    /// `count` adjacent words of one text.
    fn phrase(&mut self, count: usize) -> Vec<String> {
        loop {
            let from_transcript = self.random.below(2) == 0;
            let words = self.text_words(from_transcript);
            if words.len() < count {
                continue;
            }
            let start = self.random.below((words.len() - count + 1) as u64) as usize;
            return words[start..start + count].to_vec();
        }
    }

    /// `count` distinct content words of one text, not necessarily adjacent.
    fn co_occurring(&mut self, count: usize) -> Vec<String> {
        loop {
            let from_transcript = self.random.below(3) == 0;
            let mut words = self.text_words(from_transcript);
            words.retain(|word| is_content(word));
            words.sort();
            words.dedup();
            if words.len() < count {
                continue;
            }
            let mut chosen = Vec::new();
            while chosen.len() < count {
                let word = words.swap_remove(self.random.below(words.len() as u64) as usize);
                chosen.push(word);
            }
            return chosen;
        }
    }

    fn filters(&mut self) -> Filters {
        let mut filters = Filters::default();
        match self.random.below(4) {
            0 => filters.has_transcript = true,
            1 => {
                filters.language = Some(if self.random.below(2) == 0 {
                    "en"
                } else {
                    "de"
                })
            }
            2 => filters.published_since = Some(self.since()),
            _ => {
                filters.published_since = Some(self.since());
                filters.has_transcript = true;
            }
        }
        filters
    }

    fn since(&mut self) -> i64 {
        let day = self
            .random
            .between(PUBLISHED_DAYS as u64 / 2, PUBLISHED_DAYS as u64 - 30);
        EPOCH_SECONDS + day as i64 * 86_400
    }
}

fn query(kind: Kind, words: Vec<String>, phrase: bool) -> BenchQuery {
    BenchQuery {
        kind,
        words,
        phrase,
        filters: Filters::default(),
        by_date: false,
        offset: 0,
    }
}

/// The 200 queries.
pub fn query_mix(catalog: &Catalog, seed: u64) -> Vec<BenchQuery> {
    let mut picker = Picker {
        catalog,
        random: Random::new(seed),
    };
    let mut queries = Vec::new();
    // Single words: ten each from the head, the upper middle, the lower middle, the tail.
    for (low, high) in [(0, 100), (100, 1_000), (1_000, 10_000), (10_000, 50_000)] {
        for _ in 0..10 {
            let word = picker.ranked_word(low, high);
            queries.push(query(Kind::Term, vec![word], false));
        }
    }
    for _ in 0..25 {
        queries.push(query(Kind::TwoWords, picker.co_occurring(2), false));
    }
    for _ in 0..15 {
        queries.push(query(Kind::ThreeWords, picker.co_occurring(3), false));
    }
    for index in 0..30 {
        let length = if index % 3 == 2 { 3 } else { 2 };
        queries.push(query(Kind::Phrase, picker.phrase(length), true));
    }
    for index in 0..30 {
        let mut filtered = if index % 2 == 0 {
            query(Kind::Filtered, picker.phrase(2), true)
        } else {
            query(Kind::Filtered, picker.co_occurring(2), false)
        };
        filtered.filters = picker.filters();
        queries.push(filtered);
    }
    for index in 0..30 {
        let mut by_date = match index % 3 {
            0 => query(Kind::ByDate, vec![picker.ranked_word(0, 2_000)], false),
            1 => query(Kind::ByDate, picker.co_occurring(2), false),
            _ => query(Kind::ByDate, picker.phrase(2), true),
        };
        if index % 2 == 1 {
            by_date.filters = picker.filters();
        }
        by_date.by_date = true;
        queries.push(by_date);
    }
    for index in 0..30 {
        // Words common enough to have a thousand hits (the first content word of the
        // vocabulary is its 33rd word).
        let mut deep = if index % 2 == 0 {
            query(Kind::DeepPage, vec![picker.ranked_word(0, 400)], false)
        } else {
            query(
                Kind::DeepPage,
                vec![picker.ranked_word(0, 150), picker.ranked_word(0, 400)],
                false,
            )
        };
        if deep.words.len() == 2 && deep.words[0] == deep.words[1] {
            deep.words.pop();
        }
        deep.offset = 500 + 50 * picker.random.below(11) as usize;
        deep.by_date = index % 5 == 4;
        queries.push(deep);
    }
    queries
}
