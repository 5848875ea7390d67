//! What a search box's text means as words: the term's words in order, which of them
//! carry content, and each word's token in every language family.
//!
//! Stopwords are dropped at query time only; the index keeps every word, so phrases
//! (and the proximity of a term's words, which uses all of them) still see them:
//!
//! - English function words ("the", "of", "about", …) and the words people add to any
//!   podcast search ("podcast", "shows", "episodes", "like", …) are never content words;
//! - in a language family's fields, that language's own stopwords (Snowball's lists) are
//!   dropped too, so "die" is a word in English fields and a stopword in German ones;
//! - one-letter words and punctuation are never content words.
//!
//! A term left with no content word ("The Who", "this is us") is searched as a phrase of
//! all its words.

use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

use tantivy::tokenizer::{AsciiFoldingFilter, Language, LowerCaser, StopWordFilter, TextAnalyzer};

use crate::analysis::{LanguageFamily, WordTokenizer, analyze, first_token_in, plain_analyzer};
use crate::spelling::Spellings;

/// English function words (Lucene's list, extended with the common pronouns, auxiliaries
/// and prepositions of NLTK's list).
const ENGLISH_STOPWORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "all",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "me",
    "more",
    "most",
    "my",
    "myself",
    "no",
    "nor",
    "not",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "same",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
];

/// Words people add to any podcast search that say nothing about what they look for.
const SEARCH_NOISE: &[&str] = &[
    "podcast",
    "podcasts",
    "pod",
    "pods",
    "show",
    "shows",
    "episode",
    "episodes",
    "like",
    "similar",
    "recommend",
    "recommendations",
    "recommended",
    "listen",
    "listening",
    "want",
    "looking",
    "find",
    "search",
];

/// Words that name a language, its people or its country, with the languages (primary
/// subtags) they stand for: "german news", "japanese comedy radio", "belgian morning
/// show". A podcast in one of them holds the word.
const LANGUAGE_WORDS: &[(&str, &[&str])] = &[
    ("arabic", &["ar"]),
    ("austrian", &["de"]),
    ("belgian", &["nl", "fr"]),
    ("brazil", &["pt"]),
    ("brazilian", &["pt"]),
    ("castellano", &["es"]),
    ("catala", &["ca"]),
    ("catalan", &["ca"]),
    ("chinese", &["zh"]),
    ("colombian", &["es"]),
    ("czech", &["cs"]),
    ("danish", &["da"]),
    ("deutsch", &["de"]),
    ("deutsche", &["de"]),
    ("dutch", &["nl"]),
    ("espanol", &["es"]),
    ("finnish", &["fi"]),
    ("flemish", &["nl"]),
    ("francais", &["fr"]),
    ("france", &["fr"]),
    ("french", &["fr"]),
    ("german", &["de"]),
    ("germany", &["de"]),
    ("greece", &["el"]),
    ("greek", &["el"]),
    ("hebrew", &["he"]),
    ("hindi", &["hi"]),
    ("italian", &["it"]),
    ("italiano", &["it"]),
    ("italy", &["it"]),
    ("japan", &["ja"]),
    ("japanese", &["ja"]),
    ("korean", &["ko"]),
    ("mandarin", &["zh"]),
    ("mexican", &["es"]),
    ("nederlands", &["nl"]),
    ("norwegian", &["no", "nb", "nn"]),
    ("polish", &["pl"]),
    ("polski", &["pl"]),
    ("portugal", &["pt"]),
    ("portuguese", &["pt"]),
    ("russian", &["ru"]),
    ("spain", &["es"]),
    ("spanish", &["es"]),
    ("svenska", &["sv"]),
    ("swedish", &["sv"]),
    ("turkish", &["tr"]),
    ("ukrainian", &["uk"]),
];

/// The languages a word names (`german` → `de`), empty for other words.
pub fn language_codes(folded: &str) -> &'static [&'static str] {
    LANGUAGE_WORDS
        .binary_search_by(|(word, _)| word.cmp(&folded))
        .map_or(&[], |at| LANGUAGE_WORDS[at].1)
}

/// Whether a folded, lowercased word is never a content word.
pub fn is_query_stopword(word: &str) -> bool {
    word.chars().count() < 2
        || ENGLISH_STOPWORDS.binary_search(&word).is_ok()
        || SEARCH_NOISE.contains(&word)
}

/// Whether `word` is one of the family's own stopwords (non-English families).
fn is_family_stopword(family: LanguageFamily, word: &str) -> bool {
    thread_local! {
        static FILTERS: RefCell<[Option<Option<TextAnalyzer>>; LanguageFamily::ALL.len()]> =
            RefCell::new(std::array::from_fn(|_| None));
    }
    let language = match family {
        LanguageFamily::English | LanguageFamily::Other => return false,
        LanguageFamily::German => Language::German,
        LanguageFamily::French => Language::French,
        LanguageFamily::Spanish => Language::Spanish,
        LanguageFamily::Portuguese => Language::Portuguese,
        LanguageFamily::Italian => Language::Italian,
        LanguageFamily::Dutch => Language::Dutch,
        LanguageFamily::Swedish => Language::Swedish,
    };
    FILTERS.with(|filters| {
        let mut filters = filters.borrow_mut();
        let slot = filters[family.index()].get_or_insert_with(|| {
            StopWordFilter::new(language).map(|filter| {
                TextAnalyzer::builder(WordTokenizer::default())
                    .filter(LowerCaser)
                    .filter(filter)
                    .build()
            })
        });
        match slot {
            Some(analyzer) => analyze(analyzer, word).is_empty(),
            None => false,
        }
    })
}

/// One word of a term.
///
/// A search builds a query per shard, field and language family from the same words, so
/// a word analyses itself once: its token in each family and its other spellings are
/// worked out when first asked for, and kept, for the word and its copies (a term's
/// content words are copies of its words). `text` and `folded` are set when the word is
/// made and not changed after.
#[derive(Debug, Clone)]
pub struct Word {
    /// The word as typed (one token of the simple tokenizer).
    pub text: String,
    /// Lowercased and ASCII-folded.
    pub folded: String,
    analysed: Arc<Analysed>,
}

/// What a word has worked out of itself.
#[derive(Debug, Default)]
struct Analysed {
    tokens: [OnceLock<Option<String>>; LanguageFamily::ALL.len()],
    spellings: OnceLock<Spellings>,
}

impl PartialEq for Word {
    fn eq(&self, other: &Word) -> bool {
        self.text == other.text && self.folded == other.folded
    }
}

impl Word {
    /// A word as typed, and folded.
    pub fn new(text: String, folded: String) -> Word {
        Word {
            text,
            folded,
            analysed: Arc::default(),
        }
    }

    /// A word given already folded (lowercase, ASCII), as the written-out tables hold
    /// their words.
    pub fn folded(folded: &str) -> Word {
        Word::new(folded.to_owned(), folded.to_owned())
    }

    /// The word's other spellings and the other words of its family.
    pub fn spellings(&self) -> &Spellings {
        self.analysed
            .spellings
            .get_or_init(|| Spellings::of(&self.folded))
    }

    /// Whether the word carries content in `family`'s fields.
    pub fn is_content_in(&self, family: LanguageFamily) -> bool {
        !is_query_stopword(&self.folded) && !is_family_stopword(family, &self.folded)
    }

    /// The word's token in `family`'s fields (stemmed), `None` when it has none.
    pub fn token_in(&self, family: LanguageFamily) -> Option<String> {
        self.analysed.tokens[family.index()]
            .get_or_init(|| first_token_in(family, &self.text))
            .clone()
    }

    /// The word's token in the unstemmed (plain) fields.
    pub fn plain_token(&self) -> String {
        self.folded.clone()
    }
}

/// The words of a term.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TermWords {
    /// Every word, in order (duplicates kept): a phrase of the term uses these.
    pub all: Vec<Word>,
    /// The content words, in order, each once.
    pub content: Vec<Word>,
}

impl TermWords {
    /// Splits `text` into words.
    pub fn of(text: &str) -> TermWords {
        thread_local! {
            static SPLITTER: RefCell<TextAnalyzer> = RefCell::new(
                TextAnalyzer::builder(WordTokenizer::default()).build(),
            );
        }
        let raw = SPLITTER.with(|splitter| analyze(&mut splitter.borrow_mut(), text));
        let mut folder = plain_analyzer();
        let all: Vec<Word> = raw
            .into_iter()
            .filter_map(|text| {
                let folded = analyze(&mut folder, &text).into_iter().next()?;
                Some(Word::new(text, folded))
            })
            .collect();
        let mut content: Vec<Word> = Vec::new();
        for word in &all {
            if !is_query_stopword(&word.folded)
                && !content.iter().any(|seen| seen.folded == word.folded)
            {
                content.push(word.clone());
            }
        }
        TermWords { all, content }
    }

    /// Whether the term has no content word and is searched as a phrase of all its words.
    pub fn only_stopwords(&self) -> bool {
        self.content.is_empty() && !self.all.is_empty()
    }

    /// Whether the term has no word at all (only punctuation, emoji, symbols).
    pub fn is_empty(&self) -> bool {
        self.all.is_empty()
    }
}

/// The tokens of a whole phrase in `family`'s fields (every word, stopwords included).
pub fn phrase_tokens(words: &[Word], family: LanguageFamily) -> Vec<String> {
    words
        .iter()
        .filter_map(|word| word.token_in(family))
        .collect()
}

/// Lowercased, ASCII-folded whole text, as the exact-title field holds titles.
pub fn exact_form(text: &str) -> String {
    let mut analyzer = TextAnalyzer::builder(tantivy::tokenizer::RawTokenizer::default())
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build();
    analyze(&mut analyzer, text.trim())
        .into_iter()
        .next()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopword_list_is_sorted_for_binary_search() {
        let mut sorted = ENGLISH_STOPWORDS.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, ENGLISH_STOPWORDS);
    }

    #[test]
    fn language_words_are_sorted_and_found() {
        let mut sorted: Vec<&str> = LANGUAGE_WORDS.iter().map(|(word, _)| *word).collect();
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            LANGUAGE_WORDS.iter().map(|(w, _)| *w).collect::<Vec<_>>()
        );
        assert_eq!(language_codes("german"), ["de"]);
        assert_eq!(language_codes("belgian"), ["nl", "fr"]);
        assert!(language_codes("news").is_empty());
    }

    #[test]
    fn content_words_drop_function_words_noise_and_single_letters() {
        let words = TermWords::of("Shows about parenting teenagers, a podcast!");
        let content: Vec<&str> = words.content.iter().map(|w| w.folded.as_str()).collect();
        assert_eq!(content, ["parenting", "teenagers"]);
        assert_eq!(words.all.len(), 6);
    }

    #[test]
    fn a_term_of_stopwords_only_is_a_phrase() {
        let words = TermWords::of("The Who");
        assert!(words.only_stopwords());
        assert_eq!(
            phrase_tokens(&words.all, LanguageFamily::English),
            ["the", "who"]
        );
        assert!(TermWords::of("🎙️ !!").is_empty());
    }

    #[test]
    fn family_stopwords_apply_in_their_family_only() {
        let words = TermWords::of("die hard");
        let die = &words.content[0];
        assert!(die.is_content_in(LanguageFamily::English));
        assert!(!die.is_content_in(LanguageFamily::German));
    }

    #[test]
    fn repeated_words_count_once() {
        let words = TermWords::of("new york new jersey");
        let content: Vec<&str> = words.content.iter().map(|w| w.folded.as_str()).collect();
        assert_eq!(content, ["new", "york", "jersey"]);
    }

    #[test]
    fn a_word_keeps_the_tokens_and_spellings_its_analyzers_give() {
        let words = TermWords::of("Favourite TWO die Käse children's the Économie ww2");
        for word in &words.all {
            for family in LanguageFamily::ALL {
                let expected = first_token_in(family, &word.text);
                assert_eq!(
                    word.token_in(family),
                    expected,
                    "{} in {family:?}",
                    word.text
                );
                // Asked again, and of a copy made after: the kept token.
                assert_eq!(word.token_in(family), expected, "{} again", word.text);
                assert_eq!(
                    word.clone().token_in(family),
                    expected,
                    "{} copied",
                    word.text
                );
            }
            assert_eq!(
                *word.spellings(),
                Spellings::of(&word.folded),
                "{}",
                word.text
            );
        }
        // Whatever a word has worked out, it equals the same word as typed.
        let fresh = TermWords::of("Favourite TWO die Käse children's the Économie ww2");
        assert_eq!(fresh, words);
    }
}
