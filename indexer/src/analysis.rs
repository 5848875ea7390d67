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
//!
//! Every analyzer splits text into words with [`WordTokenizer`]: runs of letters and
//! digits, and Chinese, Japanese and Korean text, written without spaces between its
//! words, in overlapping pairs of characters.

use std::cell::RefCell;

use tantivy::Index;
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, RawTokenizer, RemoveLongFilter, SimpleTokenizer,
    Stemmer, TextAnalyzer, Token, TokenStream, Tokenizer,
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
        self.analyzer_with(WordTokenizer::default())
    }

    /// This family's filters over the words `tokenizer` splits (`benches/tokenize`
    /// compares tokenizers inside them).
    pub fn analyzer_with<T: Tokenizer>(self, tokenizer: T) -> TextAnalyzer {
        match self.stemmer_language() {
            Some(language) => TextAnalyzer::builder(tokenizer)
                .filter(RemoveLongFilter::limit(48))
                .filter(LowerCaser)
                .filter(Stemmer::new(language))
                .filter(AsciiFoldingFilter)
                .build(),
            None => folded(tokenizer),
        }
    }
}

/// Words, lowercased and ASCII-folded.
pub fn plain_analyzer() -> TextAnalyzer {
    folded(WordTokenizer::default())
}

/// The words `tokenizer` splits, lowercased and ASCII-folded.
fn folded<T: Tokenizer>(tokenizer: T) -> TextAnalyzer {
    TextAnalyzer::builder(tokenizer)
        .filter(RemoveLongFilter::limit(48))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

/// Words as tantivy's `SimpleTokenizer` splits them, runs of letters and digits, except
/// that a run of Chinese, Japanese or Korean characters becomes its overlapping pairs of
/// characters ("東京都" → "東京", "京都") and a lone one itself: the bigrams of Lucene's
/// `CJKBigramFilter`, which Elasticsearch's `cjk` analyzer uses. These languages write no
/// space between words, so a run is often a whole sentence; in pairs, a query's word
/// ("ジェシカ") matches wherever the text holds it, as a phrase of its pairs. A letter or
/// digit next to a CJK character ends the run ("M-1グランプリ" → "m", "1", "グラ", …).
#[derive(Clone, Default)]
pub struct WordTokenizer {
    token: Token,
}

/// The tokens of one text under [`WordTokenizer`].
pub struct WordTokenStream<'a> {
    text: &'a str,
    /// Where the next word is looked for; inside a CJK run, the run's end.
    at: usize,
    /// Inside a CJK run of more than two characters: where its next pair starts.
    pair: Option<usize>,
    token: &'a mut Token,
}

impl Tokenizer for WordTokenizer {
    type TokenStream<'a> = WordTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> WordTokenStream<'a> {
        self.token.reset();
        WordTokenStream {
            text,
            at: 0,
            pair: None,
            token: &mut self.token,
        }
    }
}

/// Whether `c` is a CJK character, read in pairs (one definition with the request
/// caps, which count words as this tokenizer splits them).
pub(crate) use podlens_model::search::is_cjk;

impl WordTokenStream<'_> {
    /// The character at byte `at`, which is not past the text's end.
    fn char_at(&self, at: usize) -> Option<char> {
        self.text[at..].chars().next()
    }

    /// The end of the character starting at `at` (`at` itself at the text's end).
    fn char_end(&self, at: usize) -> usize {
        self.char_at(at).map_or(at, |c| at + c.len_utf8())
    }

    /// The end of the run from `start` of characters that `keep` keeps; ASCII bytes
    /// are read as bytes (`keep_ascii`), the rest decoded.
    fn run_end(
        &self,
        start: usize,
        keep_ascii: impl Fn(u8) -> bool,
        keep: impl Fn(char) -> bool,
    ) -> usize {
        let bytes = self.text.as_bytes();
        let mut at = start;
        while let Some(&byte) = bytes.get(at) {
            if byte.is_ascii() {
                if !keep_ascii(byte) {
                    return at;
                }
                at += 1;
            } else {
                match self.char_at(at) {
                    Some(c) if keep(c) => at += c.len_utf8(),
                    _ => return at,
                }
            }
        }
        at
    }

    fn emit(&mut self, from: usize, to: usize) -> bool {
        self.token.offset_from = from;
        self.token.offset_to = to;
        self.token.text.push_str(&self.text[from..to]);
        true
    }

    /// The pair of characters starting at `start` inside the run ending at `self.at`.
    fn emit_pair(&mut self, start: usize) -> bool {
        let second = self.char_end(start);
        let end = self.char_end(second);
        self.pair = (end < self.at).then_some(second);
        self.emit(start, end)
    }
}

impl TokenStream for WordTokenStream<'_> {
    fn advance(&mut self) -> bool {
        self.token.text.clear();
        self.token.position = self.token.position.wrapping_add(1);
        if let Some(start) = self.pair.take() {
            return self.emit_pair(start);
        }
        // Past what separates words: ASCII punctuation and spaces as bytes.
        let start = self.run_end(
            self.at,
            |byte| !byte.is_ascii_alphanumeric(),
            |c| !c.is_alphanumeric(),
        );
        let Some(first) = self.char_at(start) else {
            self.at = self.text.len();
            return false;
        };
        if is_cjk(first) {
            self.at = self.run_end(start, |_| false, |c| is_cjk(c) && c.is_alphanumeric());
            if self.char_end(start) == self.at {
                return self.emit(start, self.at);
            }
            return self.emit_pair(start);
        }
        self.at = self.run_end(
            start,
            |byte| byte.is_ascii_alphanumeric(),
            |c| c.is_alphanumeric() && !is_cjk(c),
        );
        self.emit(start, self.at)
    }

    fn token(&self) -> &Token {
        self.token
    }

    fn token_mut(&mut self) -> &mut Token {
        self.token
    }
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
/// Its words are runs of letters and digits as written, CJK text too: in pairs of
/// characters, "真空ジェシカ" would sort as "真空 空ジ ジェ …", and the 16 bytes a sort
/// key keeps (`schema::title_sort_words`) would hold fewer of its characters.
pub fn title_sort_form(title: &str) -> String {
    analyze(&mut folded(SimpleTokenizer::default()), title).join(" ")
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

    fn words_with_offsets(text: &str) -> Vec<(String, usize, usize, usize)> {
        tokens_of(WordTokenizer::default(), text)
    }

    fn tokens_of<T: Tokenizer>(mut tokenizer: T, text: &str) -> Vec<(String, usize, usize, usize)> {
        let mut stream = tokenizer.token_stream(text);
        let mut tokens = Vec::new();
        while let Some(token) = stream.next() {
            tokens.push((
                token.text.clone(),
                token.offset_from,
                token.offset_to,
                token.position,
            ));
        }
        tokens
    }

    #[test]
    fn text_without_cjk_splits_as_the_simple_tokenizer_splits_it() {
        for text in [
            "",
            "  Hello, wörld! It's 2024 — naïve café-au-lait; x1 αβγ Привет",
            "...",
            "trailing word",
        ] {
            let theirs = tokens_of(SimpleTokenizer::default(), text);
            assert_eq!(words_with_offsets(text), theirs, "{text:?}");
        }
    }

    #[test]
    fn cjk_runs_become_overlapping_pairs_with_consecutive_positions() {
        // Elasticsearch documents its `cjk_bigram` filter with this sentence and these
        // tokens.
        let tokens = words_with_offsets("東京都は、日本の首都であり");
        let texts: Vec<&str> = tokens.iter().map(|token| token.0.as_str()).collect();
        assert_eq!(
            texts,
            [
                "東京", "京都", "都は", "日本", "本の", "の首", "首都", "都で", "であ", "あり"
            ]
        );
        let positions: Vec<usize> = tokens.iter().map(|token| token.3).collect();
        assert_eq!(positions, (0..10).collect::<Vec<_>>());
        // Offsets are the pair's bytes in the text.
        let text = "東京都は、日本の首都であり";
        for (word, from, to, _) in &tokens {
            assert_eq!(&text[*from..*to], word);
        }
    }

    #[test]
    fn a_lone_cjk_character_is_a_word_and_other_letters_end_a_run() {
        let texts: Vec<String> = words_with_offsets("M-1グランプリ 猫 Podcast真空ジェシカ！ー")
            .into_iter()
            .map(|token| token.0)
            .collect();
        assert_eq!(
            texts,
            [
                "M", "1", "グラ", "ラン", "ンプ", "プリ", "猫", "Podcast", "真空", "空ジ", "ジェ",
                "ェシ", "シカ", "ー"
            ]
        );
        assert_eq!(
            analyze(&mut plain_analyzer(), "한국어 뉴스"),
            ["한국", "국어", "뉴스"]
        );
    }

    #[test]
    fn any_text_gives_tokens_that_slice_it_in_order_with_consecutive_positions() {
        // Letters of every kind the tokenizer tells apart, and what separates them:
        // ASCII, accented and combining marks, Greek, CJK of each script, a lone
        // surrogate's replacement, emoji and full-width punctuation.
        const ALPHABET: &[char] = &[
            'a',
            'Z',
            '7',
            ' ',
            '-',
            '.',
            'é',
            '\u{301}',
            'ß',
            'λ',
            '東',
            '京',
            'の',
            'ジ',
            'ー',
            '한',
            '국',
            'ｶ',
            '々',
            '\u{FFFD}',
            '🎙',
            '！',
            '、',
            '\u{20000}',
            '\n',
        ];
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..2_000 {
            let length = (next() % 24) as usize;
            let text: String = (0..length)
                .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
                .collect();
            let tokens = words_with_offsets(&text);
            // The request caps count words as this tokenizer splits them.
            assert_eq!(
                tokens.len(),
                podlens_model::search::word_count(&text),
                "{text:?}"
            );
            let mut last_from = 0;
            for (at, (word, from, to, position)) in tokens.iter().enumerate() {
                assert_eq!(&text[*from..*to], word, "{text:?}");
                assert!(!word.is_empty() && *from >= last_from, "{text:?}");
                assert_eq!(*position, at, "{text:?}");
                assert!(
                    word.chars().count() <= 2 || !word.chars().any(is_cjk),
                    "{text:?}"
                );
                last_from = *from;
            }
        }
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
        assert_eq!(
            title_sort_form("真空ジェシカのラジオ父ちゃん LOVE"),
            "真空ジェシカのラジオ父ちゃん love"
        );
    }
}
