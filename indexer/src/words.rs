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
//! - one-letter words and punctuation are never content words alone (a compound, below,
//!   holds its one-letter part).
//!
//! A single letter or digit hyphenated to the word beside it ("x-men", "k-pop", "m-1",
//! "jay-z"; [`compounds`] says where) is one content word with it, a compound: its parts
//! joined ("xmen"), which it matches as a word, and the phrase of its parts, which it
//! matches too. Its one-letter part is what tells "x-men" from "men".
//!
//! A term left with no content word ("The Who", "this is us") is searched as a phrase of
//! all its words.

use std::cell::RefCell;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, StopWordFilter, TextAnalyzer, TokenStream,
};

use crate::analysis::{
    LanguageFamily, WordTokenizer, analyze, first_token_in, is_cjk, plain_analyzer,
};
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
    /// The word as typed (one token of the simple tokenizer); a compound's parts joined.
    pub text: String,
    /// Lowercased and ASCII-folded.
    pub folded: String,
    /// A compound's parts ("x", "men" of "x-men"), which it also matches as a phrase;
    /// empty for any other word.
    pub parts: Vec<Word>,
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
            parts: Vec::new(),
            analysed: Arc::default(),
        }
    }

    /// The compound of `parts` ("x-men"): their texts joined, folded and not.
    fn compound(parts: Vec<Word>) -> Word {
        let text = parts.iter().map(|part| part.text.as_str()).collect();
        let folded = parts.iter().map(|part| part.folded.as_str()).collect();
        Word {
            parts,
            ..Word::new(text, folded)
        }
    }

    /// The words a reader sees: a compound's parts, or the word itself.
    pub fn as_written(&self) -> &[Word] {
        if self.parts.is_empty() {
            std::slice::from_ref(self)
        } else {
            &self.parts
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
        let raw: Vec<(String, Range<usize>)> = SPLITTER.with(|splitter| {
            let mut splitter = splitter.borrow_mut();
            let mut stream = splitter.token_stream(text);
            let mut raw = Vec::new();
            while stream.advance() {
                let token = stream.token();
                raw.push((token.text.clone(), token.offset_from..token.offset_to));
            }
            raw
        });
        let mut folder = plain_analyzer();
        let (all, spans): (Vec<Word>, Vec<Range<usize>>) = raw
            .into_iter()
            .filter_map(|(text, span)| {
                let folded = analyze(&mut folder, &text).into_iter().next()?;
                Some((Word::new(text, folded), span))
            })
            .unzip();
        let compounds = compounds(text, &all, &spans);
        let mut content: Vec<Word> = Vec::new();
        let mut at = 0;
        while at < all.len() {
            let (word, next) = match compounds.iter().find(|run| run.start == at) {
                Some(run) => (Some(Word::compound(all[run.clone()].to_vec())), run.end),
                None => (
                    (!is_query_stopword(&all[at].folded)).then(|| all[at].clone()),
                    at + 1,
                ),
            };
            if let Some(word) = word {
                match content.iter_mut().find(|seen| seen.folded == word.folded) {
                    None => content.push(word),
                    // "xmen x-men": the compound, which also matches its parts.
                    Some(seen) if seen.parts.is_empty() && !word.parts.is_empty() => {
                        *seen = word;
                    }
                    Some(_) => {}
                }
            }
            at = next;
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

/// Hyphens that join a compound's parts: the hyphen-minus, Unicode's hyphen and
/// non-breaking hyphen, and the full-width hyphen-minus of Japanese text ("Ｍ－１").
const HYPHENS: &[&str] = &["-", "\u{2010}", "\u{2011}", "\u{FF0D}"];

/// The compounds among `words` (at `spans` of `text`). In a run of words written with a
/// hyphen and nothing else between each two, a compound is the one-letter (or one-digit)
/// words at either end of the run with the word next to them ("x-men" of
/// "x-men-origins", "jay-z", "m-1"), or the whole run when each of its words is one
/// letter ("a-b-c"), and it holds a letter. A one-letter word inside a run
/// ("rock-n-roll") makes none: the run's other words are searched as before. CJK text
/// is left out (a lone character there is a word of its own), and so are digits only
/// ("1-2", a score or a date).
fn compounds(text: &str, words: &[Word], spans: &[Range<usize>]) -> Vec<Range<usize>> {
    let joined = |at: usize| {
        text.get(spans[at].end..spans[at + 1].start)
            .is_some_and(|between| HYPHENS.contains(&between))
    };
    let single = |at: &usize| words[*at].folded.chars().count() == 1;
    let has_letter = |run: &Range<usize>| {
        words[run.clone()]
            .iter()
            .any(|word| word.folded.chars().any(char::is_alphabetic))
    };
    let mut found = Vec::new();
    let mut start = 0;
    for at in 0..words.len() {
        if at + 1 < words.len() && joined(at) {
            continue;
        }
        let end = at + 1;
        let run = start..end;
        start = end;
        if run.len() < 2
            || words[run.clone()]
                .iter()
                .any(|word| word.text.chars().any(is_cjk))
        {
            continue;
        }
        let leading = run.clone().take_while(single).count();
        let trailing = run.clone().rev().take_while(single).count();
        if leading == run.len() {
            found.extend(Some(run).filter(has_letter));
            continue;
        }
        let first = (leading > 0).then(|| run.start..run.start + leading + 1);
        let last = (trailing > 0)
            .then(|| run.end - trailing - 1..run.end)
            .filter(|last| first.as_ref().is_none_or(|first| first.end <= last.start));
        found.extend([first, last].into_iter().flatten().filter(has_letter));
    }
    found
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
    fn a_word_hyphenated_around_a_single_letter_is_one_content_word() {
        let content = |text: &str| -> Vec<(String, Vec<String>)> {
            TermWords::of(text)
                .content
                .iter()
                .map(|word| {
                    let parts = word.parts.iter().map(|part| part.folded.clone()).collect();
                    (word.folded.clone(), parts)
                })
                .collect()
        };
        let compound = |joined: &str, parts: &[&str]| {
            (
                joined.to_owned(),
                parts
                    .iter()
                    .map(|part| part.to_string())
                    .collect::<Vec<_>>(),
            )
        };
        let word = |folded: &str| (folded.to_owned(), Vec::new());
        assert_eq!(content("X-Men"), [compound("xmen", &["x", "men"])]);
        assert_eq!(
            content("m-1 grand prix comedians"),
            [
                compound("m1", &["m", "1"]),
                word("grand"),
                word("prix"),
                word("comedians")
            ]
        );
        assert_eq!(
            content("k\u{2011}pop idols"),
            [compound("kpop", &["k", "pop"]), word("idols")]
        );
        assert_eq!(
            content("a-b-c news"),
            [compound("abc", &["a", "b", "c"]), word("news")]
        );
        // One-letter words at an end of a longer run join the word next to them; inside
        // a run they make no compound.
        assert_eq!(
            content("x-men-origins"),
            [compound("xmen", &["x", "men"]), word("origins")]
        );
        assert_eq!(content("a-ha-x"), [compound("aha", &["a", "ha"])]);
        assert_eq!(content("rock-n-roll"), [word("rock"), word("roll")]);
        assert_eq!(content("Ｍ－１"), [compound("m1", &["m", "1"])]);
        // The same word typed both ways: the compound.
        assert_eq!(content("xmen x-men"), [compound("xmen", &["x", "men"])]);
        assert_eq!(content("x-men xmen"), [compound("xmen", &["x", "men"])]);
        // Not compounds: parts of two letters or more, spaces around the hyphen,
        // digits only, a dash, CJK text.
        assert_eq!(content("sci-fi"), [word("sci"), word("fi")]);
        assert_eq!(content("x - men"), [word("men")]);
        assert_eq!(content("1-2 scores"), [word("scores")]);
        assert_eq!(content("x—men"), [word("men")]);
        assert!(content("ジ-ェ").is_empty());
        // Every word stays in the phrase of the term.
        let all: Vec<String> = TermWords::of("X-Men")
            .all
            .iter()
            .map(|word| word.folded.clone())
            .collect();
        assert_eq!(all, ["x", "men"]);
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
