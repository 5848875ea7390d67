//! Text analysis: one analyzer per language family (lowercase, Snowball stemming, ASCII
//! folding), a plain one for names and unknown languages, and an exact one for whole
//! titles.
//!
//! Design: every stemmed text target (titles, descriptions, transcripts) has one field per
//! language family (`episode_title__en`, `episode_title__de`, …, `episode_title__xx`).
//! A document's text goes only into the field of its own family, chosen from its
//! podcast's `rssLanguage`, or the language its text is plainly in when that tag says
//! English or nothing (`crate::text_language`); a transcript's own language wins for
//! transcript text. A query term is
//! analyzed once per family and searched in each family's field, so an English query
//! finds German documents only when the words agree after each side's own stemming, and
//! a language filter narrows the fields searched. Languages without a stemmer use the
//! `xx` family (lowercase and ASCII folding only).

use std::cell::RefCell;

use tantivy::Index;
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, RawTokenizer, RemoveLongFilter, SimpleTokenizer,
    Stemmer, TextAnalyzer,
};

/// Tokenizer name: words, lowercased and ASCII-folded, not stemmed.
pub const PLAIN_ANALYZER: &str = "podlens_plain";
/// Tokenizer name: the whole value as one lowercased, ASCII-folded token.
pub const EXACT_ANALYZER: &str = "podlens_exact";

/// A language family: the stemmer a document's text is analyzed with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LanguageFamily {
    English,
    German,
    French,
    Spanish,
    Portuguese,
    Italian,
    Dutch,
    Swedish,
    /// Any other language, or none declared: no stemming.
    Other,
}

impl LanguageFamily {
    /// Every family, in field order.
    pub const ALL: [LanguageFamily; 9] = [
        LanguageFamily::English,
        LanguageFamily::German,
        LanguageFamily::French,
        LanguageFamily::Spanish,
        LanguageFamily::Portuguese,
        LanguageFamily::Italian,
        LanguageFamily::Dutch,
        LanguageFamily::Swedish,
        LanguageFamily::Other,
    ];

    /// The family of a language tag such as `en`, `en-US` or `pt_BR`.
    pub fn from_language_tag(tag: Option<&str>) -> LanguageFamily {
        let Some(tag) = tag else {
            return LanguageFamily::Other;
        };
        let primary = tag
            .trim()
            .split(['-', '_'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        match primary.as_str() {
            "en" => LanguageFamily::English,
            "de" => LanguageFamily::German,
            "fr" => LanguageFamily::French,
            "es" => LanguageFamily::Spanish,
            "pt" => LanguageFamily::Portuguese,
            "it" => LanguageFamily::Italian,
            "nl" => LanguageFamily::Dutch,
            "sv" => LanguageFamily::Swedish,
            _ => LanguageFamily::Other,
        }
    }

    /// The two-letter suffix of this family's fields.
    pub fn code(self) -> &'static str {
        match self {
            LanguageFamily::English => "en",
            LanguageFamily::German => "de",
            LanguageFamily::French => "fr",
            LanguageFamily::Spanish => "es",
            LanguageFamily::Portuguese => "pt",
            LanguageFamily::Italian => "it",
            LanguageFamily::Dutch => "nl",
            LanguageFamily::Swedish => "sv",
            LanguageFamily::Other => "xx",
        }
    }

    /// The position of this family in [`LanguageFamily::ALL`].
    pub fn index(self) -> usize {
        LanguageFamily::ALL
            .iter()
            .position(|family| *family == self)
            .unwrap_or(LanguageFamily::ALL.len() - 1)
    }

    /// The registered tokenizer name of this family.
    pub fn analyzer_name(self) -> &'static str {
        match self {
            LanguageFamily::English => "podlens_en",
            LanguageFamily::German => "podlens_de",
            LanguageFamily::French => "podlens_fr",
            LanguageFamily::Spanish => "podlens_es",
            LanguageFamily::Portuguese => "podlens_pt",
            LanguageFamily::Italian => "podlens_it",
            LanguageFamily::Dutch => "podlens_nl",
            LanguageFamily::Swedish => "podlens_sv",
            LanguageFamily::Other => PLAIN_ANALYZER,
        }
    }

    pub(crate) fn stemmer_language(self) -> Option<Language> {
        match self {
            LanguageFamily::English => Some(Language::English),
            LanguageFamily::German => Some(Language::German),
            LanguageFamily::French => Some(Language::French),
            LanguageFamily::Spanish => Some(Language::Spanish),
            LanguageFamily::Portuguese => Some(Language::Portuguese),
            LanguageFamily::Italian => Some(Language::Italian),
            LanguageFamily::Dutch => Some(Language::Dutch),
            LanguageFamily::Swedish => Some(Language::Swedish),
            LanguageFamily::Other => None,
        }
    }

    /// This family's analyzer.
    pub fn analyzer(self) -> TextAnalyzer {
        match self.stemmer_language() {
            Some(language) => TextAnalyzer::builder(SimpleTokenizer::default())
                .filter(RemoveLongFilter::limit(48))
                .filter(LowerCaser)
                .filter(Stemmer::new(language))
                .filter(AsciiFoldingFilter)
                .build(),
            None => plain_analyzer(),
        }
    }
}

/// Words, lowercased and ASCII-folded.
pub fn plain_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(48))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

/// The whole value as one token, lowercased and ASCII-folded.
pub fn exact_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(RawTokenizer::default())
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

/// Registers every Podlens analyzer on an index (needed on create and on open).
pub fn register_analyzers(index: &Index) {
    let manager = index.tokenizers();
    for family in LanguageFamily::ALL {
        manager.register(family.analyzer_name(), family.analyzer());
    }
    manager.register(PLAIN_ANALYZER, plain_analyzer());
    manager.register(EXACT_ANALYZER, exact_analyzer());
}

/// The tokens of `text` under `analyzer`.
pub fn analyze(analyzer: &mut TextAnalyzer, text: &str) -> Vec<String> {
    let mut stream = analyzer.token_stream(text);
    let mut tokens = Vec::new();
    while stream.advance() {
        tokens.push(stream.token().text.clone());
    }
    tokens
}

/// The tokens of `text` under `family`'s analyzer; each thread builds a family's
/// analyzer once (queries analyze every term once per family, field and shard).
pub fn analyze_in(family: LanguageFamily, text: &str) -> Vec<String> {
    thread_local! {
        static ANALYZERS: RefCell<[Option<TextAnalyzer>; LanguageFamily::ALL.len()]> =
            RefCell::new(std::array::from_fn(|_| None));
    }
    ANALYZERS.with(|analyzers| {
        let mut analyzers = analyzers.borrow_mut();
        let analyzer = analyzers[family.index()].get_or_insert_with(|| family.analyzer());
        analyze(analyzer, text)
    })
}

/// The first token of `text` under `family`'s analyzer: a word's stem, `None` for a
/// stopword or a text without a word.
pub fn first_token_in(family: LanguageFamily, text: &str) -> Option<String> {
    analyze_in(family, text).into_iter().next()
}

/// The sort form of a title: lowercased, ASCII-folded words joined by single spaces.
pub fn title_sort_form(title: &str) -> String {
    analyze(&mut plain_analyzer(), title).join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_come_from_primary_subtags() {
        assert_eq!(
            LanguageFamily::from_language_tag(Some("en-US")),
            LanguageFamily::English
        );
        assert_eq!(
            LanguageFamily::from_language_tag(Some("pt_BR")),
            LanguageFamily::Portuguese
        );
        assert_eq!(
            LanguageFamily::from_language_tag(Some("ja")),
            LanguageFamily::Other
        );
        assert_eq!(
            LanguageFamily::from_language_tag(None),
            LanguageFamily::Other
        );
    }

    #[test]
    fn stemming_and_folding_apply_per_family() {
        let english = analyze(&mut LanguageFamily::English.analyzer(), "Running Cafés");
        assert_eq!(english, vec!["run", "cafe"]);
        let german = analyze(&mut LanguageFamily::German.analyzer(), "Häuser");
        assert_eq!(german.len(), 1);
        assert!(german[0].is_ascii());
        let plain = analyze(&mut plain_analyzer(), "Crème BRÛLÉE");
        assert_eq!(plain, vec!["creme", "brulee"]);
        assert_eq!(title_sort_form("  The  Daily!"), "the daily");
    }
}
