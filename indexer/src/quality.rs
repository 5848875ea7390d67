//! How much a feed's own text reads like a show rather than a list of search words.
//!
//! Keyword stuffing — a title or a description made of the words people search for,
//! repeated or listed — is how a spam feed reaches the top of a text search. BM25
//! already saturates repeats; this factor (1 for ordinary text, down to 0.2) lowers the
//! relevance of feeds whose text has the shapes of stuffing:
//!
//! - a title of more than 10 words, or of more than 8 that repeats two of its words;
//! - a description whose three most frequent words make up over a third of its words
//!   (of 40 or more), or that is mostly a comma- or pipe-separated list;
//! - more than 30 declared keywords;
//! - channel text that none of its episodes share: a feed of five or more episodes whose
//!   title and description (at least five words, in a script with spaces between words)
//!   have almost no word in common with the episodes' text is a bait for other searches.

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
        quality *= 0.8;
    }
    if title.len() > 8 {
        let content: Vec<&String> = title.iter().filter(|w| !is_query_stopword(w)).collect();
        let mut distinct = content.clone();
        distinct.sort_unstable();
        distinct.dedup();
        if content.len() - distinct.len() >= 2 {
            quality *= 0.4;
        }
    }
    if let Some(description) = podcast.podcast_rss_description_no_html.as_deref() {
        let text = words(description);
        let content = text.iter().filter(|w| !is_query_stopword(w)).count();
        if content >= 40 && top_three_share(&text) > 0.35 {
            quality *= 0.3;
        }
        if text.len() >= 30 {
            let separators = description
                .chars()
                .filter(|c| matches!(c, ',' | '|' | '#' | ';'))
                .count();
            if separators as f64 > 0.25 * text.len() as f64 {
                quality *= 0.3;
            }
        }
    }
    if podcast.podcast_keywords.len() > 30 {
        quality *= 0.8;
    }
    f64::max(quality, 0.05)
}

/// The words of channel text that count for [`consistency`]: three letters or more, with
/// an ASCII letter, not a stopword.
fn channel_words(text: &str) -> Vec<String> {
    words(text)
        .into_iter()
        .filter(|word| {
            word.chars().count() >= 3
                && word.chars().any(|c| c.is_ascii_alphabetic())
                && !is_query_stopword(word)
        })
        .collect()
}

/// 0.15 for a feed whose channel text shares (almost) no word with its episodes' text, 1
/// otherwise (see the module's last rule).
pub fn consistency(podcast: &PodcastRecord, episodes: usize, episodes_text: &str) -> f64 {
    if episodes < 5 {
        return 1.0;
    }
    let mut channel = channel_words(&format!(
        "{} {}",
        podcast.podcast_rss_title,
        podcast
            .podcast_rss_description_no_html
            .as_deref()
            .unwrap_or_default()
    ));
    channel.sort_unstable();
    channel.dedup();
    if channel.len() < 5 {
        return 1.0;
    }
    let episode_words = words(episodes_text);
    let spaced = episode_words
        .iter()
        .filter(|word| word.chars().any(|c| c.is_ascii_alphabetic()))
        .count();
    if (spaced as f64) < 0.6 * episode_words.len() as f64 {
        return 1.0;
    }
    let held: std::collections::HashSet<String> = episode_words.into_iter().collect();
    let shared = channel.iter().filter(|word| held.contains(*word)).count();
    if (shared as f64) < 0.05 * channel.len() as f64 {
        0.15
    } else {
        1.0
    }
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
        assert!(text_quality(&stuffed) <= 0.1, "{}", text_quality(&stuffed));
    }

    #[test]
    fn channel_text_its_episodes_never_share_is_bait() {
        let bait = podcast(
            "Murder Cases",
            "True crime stories of murder and cold cases.",
        );
        let crypto = "Bitcoin price prediction: altcoins to buy now. Crypto trading signals.";
        assert_eq!(consistency(&bait, 12, crypto), 0.15);
        assert_eq!(
            consistency(&bait, 12, "A cold case reopened: the murder of a teacher."),
            1.0
        );
        assert_eq!(consistency(&bait, 3, crypto), 1.0);
    }
}
