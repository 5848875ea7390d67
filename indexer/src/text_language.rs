//! The language a show is searched in: the one its feed declares, unless its text is
//! plainly in another.
//!
//! Feeds often keep a hosting platform's default tag: "História da Arte", a lecture
//! series in Portuguese, declares `EN`. Its words are then stemmed as English, and "art
//! history in portuguese" neither translates into its fields nor finds it by its
//! language. So when a feed declares English, or no language, the show's own title and
//! description and the opening of its episodes' text go through a trigram language
//! detector (`whatlang`); where the detector is reliable and sure, and names another
//! language, the show's text is indexed in that language's fields and the show counts as
//! in both languages for the `languages` filter and the words that name a language. Any
//! other declared language is kept as it is: a platform's default is English, and a
//! German show with English episode titles is still a German show. The declared tag
//! stays what the API shows.

/// At most this many characters of a show's text are read by the detector: enough for a
/// dozen episode titles, and a bounded cost per show at index time.
const SAMPLE_CHARS: usize = 2_000;

/// The detector's confidence (0 to 1) below which the declared tag stands.
const MIN_CONFIDENCE: f64 = 0.9;

/// The language tag a show's text is searched in: the declared tag, or, when the feed
/// declares English or nothing, the primary subtag of the language its text is in where
/// the detector is reliable and sure. `None` when neither is known.
pub fn search_language(
    declared: Option<&str>,
    title: &str,
    description: Option<&str>,
    episodes_text: &str,
) -> Option<String> {
    let declared = declared.map(str::trim).filter(|tag| !tag.is_empty());
    if declared.is_some_and(|tag| crate::documents::primary_language(tag) != "en") {
        return declared.map(str::to_owned);
    }
    match detect(&sample(title, description, episodes_text)) {
        Some(code) if code != "en" => Some(code.to_owned()),
        _ => declared.map(str::to_owned),
    }
}

/// The show's own text first, then its episodes', cut at [`SAMPLE_CHARS`].
fn sample(title: &str, description: Option<&str>, episodes_text: &str) -> String {
    [title, description.unwrap_or_default(), episodes_text]
        .join("\n")
        .chars()
        .take(SAMPLE_CHARS)
        .collect()
}

/// The primary subtag of the language `text` is in, when the detector is reliable and
/// at least [`MIN_CONFIDENCE`] sure, and the language is one a tag can name here.
fn detect(text: &str) -> Option<&'static str> {
    let info = whatlang::detect(text)?;
    if !info.is_reliable() || info.confidence() < MIN_CONFIDENCE {
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

    #[test]
    fn a_declared_tag_stands_when_the_text_is_in_its_language_or_too_short_to_tell() {
        let english = "Weekly conversations about gardening, compost and growing your own \
                       vegetables, with listeners' questions answered every episode.";
        assert_eq!(
            search_language(Some("en-US"), "The Garden Hour", Some(english), ""),
            Some("en-US".to_owned())
        );
        assert_eq!(
            search_language(Some("de"), "Arte", None, ""),
            Some("de".to_owned())
        );
        // a declared language other than English is kept whatever the text
        assert_eq!(
            search_language(Some("de-AT"), "The Garden Hour", Some(english), ""),
            Some("de-AT".to_owned())
        );
        assert_eq!(search_language(None, "Arte", None, ""), None);
        assert_eq!(search_language(Some("  "), "", None, ""), None);
    }

    #[test]
    fn text_plainly_in_another_language_than_declared_english_wins() {
        let episodes = "Historia da Arte - Renascimento.\nA pintura italiana do século XV e \
                        os grandes mestres da perspectiva.\nHistoria da Arte - Barroco.\nA \
                        arte barroca em Portugal e no Brasil, as igrejas e a talha dourada.\n";
        assert_eq!(
            search_language(
                Some("EN"),
                "História da Arte",
                Some("História da Arte"),
                episodes
            ),
            Some("pt".to_owned())
        );
        assert_eq!(
            search_language(None, "História da Arte", None, episodes),
            Some("pt".to_owned())
        );
    }
}
