//! The language a show is searched in: the one its feed declares, unless the feed says
//! English or nothing and its text is plainly in another.
//!
//! Feeds often keep a hosting platform's default tag: "História da Arte", a lecture
//! series in Portuguese, declares `EN`. Its words were then stemmed as English, and "art
//! history in portuguese" neither translated into its fields nor found it by its
//! language. So when a feed declares English or nothing, its title and description and
//! its newest episodes' titles and descriptions go through a trigram language detector
//! (`whatlang`); where the detector calls itself reliable (above 0.9 sure), the show and
//! its episodes are indexed in the fields of the language it names, and the show is in
//! that language, not the declared one, for the `languages` filter and the words that
//! name a language. Any other declared language is kept: a German show with English
//! episode titles is still a German show. The declared tag stays what the API shows.

use crate::documents::{EpisodeText, declared_language, first_chars};
use podlens_model::catalog::PodcastRecord;

/// At most this many characters of a show's text are read by the detector: enough for a
/// dozen episode titles, and a bounded cost per show at index time.
const SAMPLE_CHARS: usize = 2_000;

/// The language tag a show's text is searched in: the declared tag, or, when the feed
/// declares English or nothing, the primary subtag of the language its text is in where
/// the detector is reliable. `None` when neither is known. `episodes` come newest first
/// (`documents::newest_first`); only their titles and descriptions are read, which a
/// full build and an update both have.
pub fn search_language(podcast: &PodcastRecord, episodes: &[EpisodeText]) -> Option<String> {
    let declared = declared_language(podcast);
    if declared.is_some_and(|tag| crate::documents::primary_language(tag) != "en") {
        return declared.map(str::to_owned);
    }
    let own = [
        podcast.podcast_rss_title.as_str(),
        podcast
            .podcast_rss_description_no_html
            .as_deref()
            .unwrap_or_default(),
    ];
    let episodes = episodes.iter().flat_map(|episode| {
        [
            episode.title.as_str(),
            episode.description.as_deref().unwrap_or_default(),
        ]
    });
    match detect(&sample(own.into_iter().chain(episodes))) {
        Some(code) if declared.is_none() || code != "en" => Some(code.to_owned()),
        _ => declared.map(str::to_owned),
    }
}

/// The texts as sentences (the detector reads the words either side of a bare line break
/// as one), cut at [`SAMPLE_CHARS`].
fn sample<'a>(texts: impl Iterator<Item = &'a str>) -> String {
    let mut sample = String::new();
    let mut left = SAMPLE_CHARS;
    for text in texts.map(str::trim).filter(|text| !text.is_empty()) {
        let taken = first_chars(text, left);
        sample.push_str(taken);
        sample.push_str(". ");
        left = left.saturating_sub(taken.chars().count() + 2);
        if left == 0 {
            break;
        }
    }
    sample
}

/// The primary subtag of the language `text` is in, when the detector calls itself
/// reliable and the language is one a tag can name here.
fn detect(text: &str) -> Option<&'static str> {
    let info = whatlang::detect(text)?;
    if !info.is_reliable() {
        return None;
    }
    primary_subtag(info.lang().code())
}

/// ISO 639-1 for the detector's ISO 639-3 codes of the languages the index stems or a
/// query can name (`crate::words`'s language words).
fn primary_subtag(code: &str) -> Option<&'static str> {
    Some(match code {
        "eng" => "en",
        "deu" => "de",
        "fra" => "fr",
        "spa" => "es",
        "por" => "pt",
        "ita" => "it",
        "nld" => "nl",
        "swe" => "sv",
        "dan" => "da",
        "nob" => "no",
        "fin" => "fi",
        "pol" => "pl",
        "ces" => "cs",
        "rus" => "ru",
        "ukr" => "uk",
        "ell" => "el",
        "tur" => "tr",
        "ara" => "ar",
        "heb" => "he",
        "hin" => "hi",
        "jpn" => "ja",
        "kor" => "ko",
        "cmn" => "zh",
        "cat" => "ca",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(language: Option<&str>, title: &str, description: &str) -> PodcastRecord {
        PodcastRecord {
            rss_language: language.map(str::to_owned),
            podcast_rss_title: title.to_owned(),
            podcast_rss_description_no_html: Some(description.to_owned()),
            ..PodcastRecord::default()
        }
    }

    fn episode(title: &str, description: &str) -> EpisodeText {
        EpisodeText {
            title: title.to_owned(),
            description: Some(description.to_owned()),
            keywords: Vec::new(),
            people: Vec::new(),
            published: None,
        }
    }

    const ENGLISH: &str = "Weekly conversations about gardening, compost and growing your \
                           own vegetables, with listeners' questions answered every episode.";

    fn lectures() -> Vec<EpisodeText> {
        vec![
            episode(
                "Historia da Arte - Renascimento",
                "A pintura italiana do século XV e os grandes mestres da perspectiva.",
            ),
            episode(
                "Historia da Arte - Barroco",
                "A arte barroca em Portugal e no Brasil, as igrejas e a talha dourada.",
            ),
        ]
    }

    #[test]
    fn a_declared_tag_stands_when_the_text_is_in_its_language_or_too_short_to_tell() {
        let garden = show(Some("en-US"), "The Garden Hour", ENGLISH);
        assert_eq!(search_language(&garden, &[]), Some("en-US".to_owned()));
        let short = show(Some("en"), "Arte", "");
        assert_eq!(search_language(&short, &[]), Some("en".to_owned()));
        assert_eq!(search_language(&show(None, "Arte", ""), &[]), None);
        assert_eq!(search_language(&show(Some("  "), "", ""), &[]), None);
    }

    #[test]
    fn a_declared_language_other_than_english_is_kept_whatever_the_text() {
        let garden = show(Some("de-AT"), "The Garden Hour", ENGLISH);
        assert_eq!(search_language(&garden, &[]), Some("de-AT".to_owned()));
    }

    #[test]
    fn text_plainly_in_another_language_than_declared_english_or_nothing_wins() {
        let declared = show(Some("EN"), "História da Arte", "História da Arte");
        assert_eq!(
            search_language(&declared, &lectures()),
            Some("pt".to_owned())
        );
        let untagged = show(None, "História da Arte", "");
        assert_eq!(
            search_language(&untagged, &lectures()),
            Some("pt".to_owned())
        );
        // English text under no tag is searched as English
        let garden = show(None, "The Garden Hour", ENGLISH);
        let episodes = [
            episode(
                "Tomatoes in a cold spring",
                "How to start tomatoes indoors and when to move them outside.",
            ),
            episode(
                "Compost that works",
                "What goes into a compost heap, and what should never go in.",
            ),
        ];
        assert_eq!(search_language(&garden, &episodes), Some("en".to_owned()));
        // a language without a stemmer is named all the same
        let japanese = show(
            Some("en"),
            "安住紳一郎の日曜天国",
            "TBSラジオで毎週日曜日の朝に放送している番組です。",
        );
        assert_eq!(search_language(&japanese, &[]), Some("ja".to_owned()));
    }

    #[test]
    fn the_sample_stops_at_its_length_inside_a_long_text_of_wide_characters() {
        let long = "é".repeat(SAMPLE_CHARS * 2);
        let texts = ["", "título", long.as_str(), "never read"];
        let sample = sample(texts.into_iter());
        assert_eq!(sample.chars().count(), SAMPLE_CHARS + 2);
        assert!(sample.starts_with("título. é"));
        assert!(!sample.contains("never"));
    }
}
