//! How much a feed's own text reads like a show rather than a list of search words.
//!
//! Keyword stuffing — a title or a description made of the words people search for,
//! repeated or listed — is how a spam feed reaches the top of a text search. BM25
//! already saturates repeats; this factor (1 for ordinary text, down to 0.2) lowers the
//! relevance of feeds whose text has the shapes of stuffing:
//!
//! - a title of more than 10 words, or one that repeats its words;
//! - a description whose few most frequent words make up much of it, or that is mostly
//!   a comma- or pipe-separated list;
//! - more than 30 declared keywords.

use std::collections::HashMap;

use podlens_model::catalog::PodcastRecord;

use crate::words::is_query_stopword;

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The share of `words`' content words taken by its three most frequent ones.
fn top_three_share(words: &[String]) -> f64 {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    let mut content = 0;
    for word in words.iter().filter(|w| !is_query_stopword(w)) {
        *counts.entry(word.as_str()).or_default() += 1;
        content += 1;
    }
    if content == 0 {
        return 0.0;
    }
    let mut frequencies: Vec<usize> = counts.into_values().collect();
    frequencies.sort_unstable_by(|a, b| b.cmp(a));
    frequencies.iter().take(3).sum::<usize>() as f64 / content as f64
}

/// 1 for a feed whose title and description read like text, down to 0.2.
pub fn text_quality(podcast: &PodcastRecord) -> f64 {
    let mut quality = 1.0;
    let title = words(&podcast.podcast_rss_title);
    if title.len() > 16 {
        quality *= 0.5;
    } else if title.len() > 10 {
        quality *= 0.75;
    }
    if title.len() >= 4 {
        let mut distinct = title.clone();
        distinct.sort_unstable();
        distinct.dedup();
        if (distinct.len() as f64) < 0.75 * title.len() as f64 {
            quality *= 0.5;
        }
    }
    if let Some(description) = podcast.podcast_rss_description_no_html.as_deref() {
        let text = words(description);
        if text.len() >= 30 {
            if top_three_share(&text) > 0.3 {
                quality *= 0.5;
            }
            let separators = description
                .chars()
                .filter(|c| matches!(c, ',' | '|' | '#' | ';'))
                .count();
            if separators as f64 > 0.25 * text.len() as f64 {
                quality *= 0.6;
            }
        }
    }
    if podcast.podcast_keywords.len() > 30 {
        quality *= 0.8;
    }
    f64::max(quality, 0.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn podcast(title: &str, description: &str) -> PodcastRecord {
        PodcastRecord {
            podcast_rss_title: title.into(),
            podcast_rss_description_no_html: Some(description.into()),
            ..PodcastRecord::default()
        }
    }

    #[test]
    fn ordinary_shows_keep_full_quality() {
        let crime_junkie = podcast(
            "Crime Junkie",
            "Does hearing about a true crime case always leave you scouring the internet for the truth behind the story? Dive into your next mystery with Crime Junkie. Every Monday, join your host Ashley Flowers as she unravels all the details of infamous and underreported true crime cases with her best friend Brit Prawat.",
        );
        assert_eq!(text_quality(&crime_junkie), 1.0);
    }

    #[test]
    fn stuffed_titles_and_descriptions_lose_quality() {
        let stuffed = podcast(
            "True Crime Podcast True Crime Murder Serial Killer True Crime Stories",
            "true crime, murder, serial killer, cold case, true crime podcast, crime, mystery, unsolved, true crime stories, missing persons, crime junkie, true crime daily, murder mystery, crime news, investigation, detective, police, forensic, killer, true crime",
        );
        assert!(text_quality(&stuffed) <= 0.3, "{}", text_quality(&stuffed));
    }
}
