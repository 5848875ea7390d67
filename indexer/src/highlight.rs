//! Snippets: the best fragment of a transcript chunk for the query's terms, chosen as
//! tantivy's `SnippetGenerator` chooses it, at less cost.
//!
//! - **Only the words that can match are stemmed.** A snippet re-tokenizes its chunk with
//!   the field's analyzer to find the query's stems in it, and stemming is the largest
//!   part of that work. Stemming keeps a word's first two letters when they are ASCII,
//!   with two exceptions ([`Prefixes`]; the test below checks it over the corpus in every
//!   family). So a word whose first two letters start none of the query's stems cannot
//!   match: the filter empties it before the stemmer. Its offsets, which shape the
//!   fragments, stay.
//! - **A word is looked up among the query's few stems directly**, not through a
//!   lowercased copy of it in an ordered map, and the analyzer is not cloned per snippet.
//!
//! The fragments, their scores and highlights are tantivy's own (the test
//! `snippets_equal_tantivys_generator`).

use std::collections::BTreeSet;
use std::ops::Range;

use tantivy::query::{Bm25StatisticsProvider, Query};
use tantivy::schema::Field;
use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RemoveLongFilter, Stemmer, TextAnalyzer, Token, TokenFilter,
    TokenStream, Tokenizer,
};
use tantivy::{Score, Term};

use crate::analysis::{LanguageFamily, WordTokenizer};

/// The best fragment of a text and the byte ranges of the query's words in it (relative
/// to the fragment).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Snippet {
    pub fragment: String,
    pub highlighted: Vec<Range<usize>>,
}

/// Makes the snippets of one query in one field.
pub(crate) struct Highlighter {
    analyzer: TextAnalyzer,
    /// The query's stems in the field, each scored as tantivy's
    /// `SnippetGenerator::create` scores it: 1 / (1 + its document frequency).
    terms: Vec<(String, Score)>,
    max_num_chars: usize,
}

/// A run of words of at most `max_num_chars` characters, and what it holds of the query.
struct Fragment {
    score: Score,
    start: usize,
    stop: usize,
    highlighted: Vec<Range<usize>>,
}

impl Fragment {
    fn at(start: usize) -> Fragment {
        Fragment {
            score: 0.0,
            start,
            stop: start,
            highlighted: Vec::new(),
        }
    }
}

impl Highlighter {
    /// The highlighter of `query`'s terms in `field` (analyzed by `family`), with
    /// fragments of at most `max_num_chars`; document frequencies from `statistics` (the
    /// search's, which has looked them up already).
    pub(crate) fn new(
        statistics: &dyn Bm25StatisticsProvider,
        query: &dyn Query,
        field: Field,
        family: LanguageFamily,
        max_num_chars: usize,
    ) -> tantivy::Result<Highlighter> {
        let mut found: BTreeSet<&Term> = BTreeSet::new();
        query.query_terms(&mut |term, _| {
            if term.field() == field {
                found.insert(term);
            }
        });
        let mut terms = Vec::new();
        for term in found {
            let value = term.value();
            let Some(text) = value.as_str() else {
                continue;
            };
            let doc_freq = statistics.doc_freq(term)?;
            if doc_freq > 0 {
                terms.push((text.to_owned(), 1.0 / (1.0 + doc_freq as Score)));
            }
        }
        let analyzer = match (
            family.stemmer_language(),
            Prefixes::of(terms.iter().map(|(text, _)| text)),
        ) {
            (Some(language), Some(prefixes)) => TextAnalyzer::builder(WordTokenizer::default())
                .filter(RemoveLongFilter::limit(48))
                .filter(LowerCaser)
                .filter(prefixes)
                .filter(Stemmer::new(language))
                .filter(AsciiFoldingFilter)
                .build(),
            _ => family.analyzer(),
        };
        Ok(Highlighter {
            analyzer,
            terms,
            max_num_chars,
        })
    }

    /// The best fragment of `text`: the highest sum of its words' scores, the first of
    /// equal ones; empty when no word matches.
    pub(crate) fn snippet(&mut self, text: &str) -> Snippet {
        let mut best: Option<Fragment> = None;
        let mut keep = |fragment: Fragment| {
            if fragment.score > 0.0 && best.as_ref().is_none_or(|best| fragment.score > best.score)
            {
                best = Some(fragment);
            }
        };
        let mut fragment = Fragment::at(0);
        let terms = &self.terms;
        let mut stream = self.analyzer.token_stream(text);
        while let Some(token) = stream.next() {
            if token.offset_to - fragment.start > self.max_num_chars {
                keep(std::mem::replace(
                    &mut fragment,
                    Fragment::at(token.offset_from),
                ));
            }
            fragment.stop = token.offset_to;
            if let Some(score) = score_of(terms, &token.text) {
                fragment.score += score;
                fragment
                    .highlighted
                    .push(token.offset_from..token.offset_to);
            }
        }
        keep(fragment);
        match best {
            Some(best) => Snippet {
                fragment: text[best.start..best.stop].to_owned(),
                highlighted: best
                    .highlighted
                    .iter()
                    .map(|range| range.start - best.start..range.end - best.start)
                    .collect(),
            },
            None => Snippet {
                fragment: String::new(),
                highlighted: Vec::new(),
            },
        }
    }
}

/// The score of a word of the text, if it is one of `terms` (compared in lowercase, as
/// tantivy compares them).
fn score_of(terms: &[(String, Score)], word: &str) -> Option<Score> {
    if word.is_empty() {
        return None;
    }
    let find = |word: &str| {
        terms
            .iter()
            .find(|(term, _)| term == word)
            .map(|(_, score)| *score)
    };
    let lowercase = if word.is_ascii() {
        !word.bytes().any(|byte| byte.is_ascii_uppercase())
    } else {
        word.chars().all(|c| c.to_lowercase().eq([c]))
    };
    if lowercase {
        find(word)
    } else {
        find(&word.to_lowercase())
    }
}

/// Which words can stem to one of the query's stems, judged by their first two letters.
///
/// Stemming keeps a word's first letter when it is ASCII, and its second when both are,
/// except that a stem may end after the first letter (French "bs" → "b") and English
/// turns a second "y" into "i" ("dying" → "die"). The test
/// `stemming_keeps_the_first_two_ascii_letters` checks this over the corpus in every
/// family.
#[derive(Clone)]
pub(crate) struct Prefixes {
    /// Per ASCII first letter, the ASCII second letters that can follow it (bit per
    /// letter); every one when a stem is that letter alone or its second letter is not
    /// ASCII.
    seconds: [u128; 128],
}

impl Prefixes {
    /// The prefixes of `stems`; `None` when one of them has no ASCII first letter (then
    /// every word has to be stemmed).
    fn of<'a>(stems: impl Iterator<Item = &'a String>) -> Option<Prefixes> {
        let mut seconds = [0u128; 128];
        for stem in stems {
            let bytes = stem.as_bytes();
            let first = *bytes.first()?;
            if !first.is_ascii() {
                return None;
            }
            let allowed = &mut seconds[first as usize];
            match bytes.get(1) {
                Some(&second) if second.is_ascii() => {
                    *allowed |= 1 << second;
                    if second == b'i' {
                        *allowed |= 1 << b'y';
                    }
                }
                _ => *allowed = u128::MAX,
            }
        }
        Some(Prefixes { seconds })
    }

    /// Whether a lowercased word can stem to one of the stems.
    fn admits(&self, word: &[u8]) -> bool {
        match word {
            [] => true,
            [first, ..] if !first.is_ascii() => true,
            [first] => self.seconds[*first as usize] != 0,
            [first, second, ..] if !second.is_ascii() => self.seconds[*first as usize] != 0,
            [first, second, ..] => self.seconds[*first as usize] & (1 << second) != 0,
        }
    }
}

impl TokenFilter for Prefixes {
    type Tokenizer<T: Tokenizer> = PrefixesFilter<T>;

    fn transform<T: Tokenizer>(self, tokenizer: T) -> PrefixesFilter<T> {
        PrefixesFilter {
            tokenizer,
            prefixes: self,
        }
    }
}

/// Empties every token that [`Prefixes`] does not admit. Its offsets, which shape the
/// fragments, stay.
#[derive(Clone)]
pub(crate) struct PrefixesFilter<T> {
    tokenizer: T,
    prefixes: Prefixes,
}

impl<T: Tokenizer> Tokenizer for PrefixesFilter<T> {
    type TokenStream<'a> = PrefixesStream<'a, T::TokenStream<'a>>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        PrefixesStream {
            tail: self.tokenizer.token_stream(text),
            prefixes: &self.prefixes,
        }
    }
}

pub(crate) struct PrefixesStream<'a, T> {
    tail: T,
    prefixes: &'a Prefixes,
}

impl<T: TokenStream> TokenStream for PrefixesStream<'_, T> {
    fn advance(&mut self) -> bool {
        if !self.tail.advance() {
            return false;
        }
        let token = self.tail.token_mut();
        if !self.prefixes.admits(token.text.as_bytes()) {
            token.text.clear();
        }
        true
    }

    fn token(&self) -> &Token {
        self.tail.token()
    }

    fn token_mut(&mut self) -> &mut Token {
        self.tail.token_mut()
    }
}

/// `fragment`, HTML-escaped, with the byte ranges `highlights` (in order of their
/// starts) in `<em>` tags; ranges that overlap or touch, as the pairs of characters of
/// CJK text do ([`crate::analysis::WordTokenizer`]), are marked as one.
pub(crate) fn highlighted_html(fragment: &str, highlights: &[(usize, usize)]) -> String {
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(highlights.len());
    for &(start, end) in highlights {
        match merged.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    let mut html = String::with_capacity(fragment.len() + 9 * merged.len());
    let mut at = 0;
    for (start, end) in merged {
        let (Some(before), Some(marked)) = (fragment.get(at..start), fragment.get(start..end))
        else {
            continue;
        };
        html.push_str(&escape_html(before));
        html.push_str("<em>");
        html.push_str(&escape_html(marked));
        html.push_str("</em>");
        at = end;
    }
    html.push_str(&escape_html(fragment.get(at..).unwrap_or_default()));
    html
}

/// `&`, `<`, `>` and quotes escaped.
pub(crate) fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::path::Path;

    use tantivy::query::{BooleanQuery, Occur, TermQuery};
    use tantivy::schema::{IndexRecordOption, Schema, TextFieldIndexing, TextOptions};
    use tantivy::snippet::SnippetGenerator;
    use tantivy::{Index, IndexWriter, TantivyDocument};

    use super::*;
    use crate::analysis::{analyze, analyze_in, register_analyzers};

    /// Distinct lowercased words of the corpus's transcripts and feeds (the feeds are in
    /// a dozen languages).
    fn corpus_words() -> Vec<String> {
        let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
        let mut texts = Vec::new();
        let mut stack = vec![corpus.join("transcripts"), corpus.join("feeds")];
        while let Some(path) = stack.pop() {
            if path.is_dir() {
                for entry in std::fs::read_dir(&path).unwrap().flatten() {
                    stack.push(entry.path());
                }
            } else if let Ok(bytes) = std::fs::read(&path) {
                let head = &bytes[..bytes.len().min(1 << 20)];
                texts.push(String::from_utf8_lossy(head).into_owned());
            }
        }
        let mut lower = TextAnalyzer::builder(WordTokenizer::default())
            .filter(RemoveLongFilter::limit(48))
            .filter(LowerCaser)
            .build();
        let mut words = HashSet::new();
        for text in &texts {
            words.extend(analyze(&mut lower, text));
        }
        let mut words: Vec<String> = words.into_iter().collect();
        words.sort();
        words
    }

    /// The property the filter rests on, over every corpus word in every family: a
    /// stem keeps the word's ASCII first letter, and its ASCII second letter unless the
    /// stem is one letter long or the second letter is a "y" turned into "i".
    #[test]
    fn overlapping_pairs_of_cjk_characters_are_marked_once() {
        let text = "真空ジェシカのラジオ & <b>";
        let mut tokenizer = WordTokenizer::default();
        let mut stream = tokenizer.token_stream(text);
        let mut pairs = Vec::new();
        while let Some(token) = stream.next() {
            if ["ジェ", "ェシ", "シカ", "ラジ"].contains(&token.text.as_str()) {
                pairs.push((token.offset_from, token.offset_to));
            }
        }
        assert_eq!(pairs.len(), 4);
        assert_eq!(
            highlighted_html(text, &pairs),
            "真空<em>ジェシカ</em>の<em>ラジ</em>オ &amp; &lt;b&gt;"
        );
        assert_eq!(
            highlighted_html("one two", &[(0, 3), (4, 7)]),
            "<em>one</em> <em>two</em>"
        );
    }

    #[test]
    fn stemming_keeps_the_first_two_ascii_letters() {
        let words = corpus_words();
        assert!(words.len() > 50_000, "{}", words.len());
        assert!(words.iter().any(|word| !word.is_ascii()));
        let mut shortened = 0;
        for family in LanguageFamily::ALL {
            for word in &words {
                let word_bytes = word.as_bytes();
                let first = word_bytes[0];
                if !first.is_ascii() {
                    continue;
                }
                for stem in analyze_in(family, word) {
                    let stem_bytes = stem.as_bytes();
                    assert_eq!(
                        stem_bytes.first(),
                        Some(&first),
                        "{family:?}: {word} -> {stem}"
                    );
                    let Some(&second) = word_bytes.get(1).filter(|byte| byte.is_ascii()) else {
                        continue;
                    };
                    match stem_bytes.get(1) {
                        None => shortened += 1,
                        Some(&kept) => assert!(
                            kept == second || (second == b'y' && kept == b'i'),
                            "{family:?}: {word} -> {stem}"
                        ),
                    }
                }
            }
        }
        // French "bs" -> "b" and the like: the exception is real, and rare.
        assert!((1..100).contains(&shortened), "{shortened}");
    }

    /// The filter admits every word that stems to a query's stem.
    #[test]
    fn prefixes_admit_the_words_of_their_stems() {
        let stems = ["die".to_owned(), "b".to_owned(), "news".to_owned()];
        let prefixes = Prefixes::of(stems.iter()).unwrap();
        for word in ["dying", "dies", "bs", "b", "bravo", "newsy", "über"] {
            assert!(prefixes.admits(word.as_bytes()), "{word}");
        }
        for word in ["dance", "nail", "x", "the"] {
            assert!(!prefixes.admits(word.as_bytes()), "{word}");
        }
        assert!(Prefixes::of(["élan".to_owned()].iter()).is_none());
    }

    /// The highlighter's snippets equal tantivy's generator's, on corpus text.
    #[test]
    fn snippets_equal_tantivys_generator() {
        let words = corpus_words();
        let mut builder = Schema::builder();
        let families = [
            LanguageFamily::English,
            LanguageFamily::German,
            LanguageFamily::French,
            LanguageFamily::Other,
        ];
        let fields: Vec<Field> = families
            .iter()
            .map(|family| {
                let indexing = TextFieldIndexing::default()
                    .set_tokenizer(family.analyzer_name())
                    .set_index_option(IndexRecordOption::WithFreqsAndPositions);
                builder.add_text_field(
                    family.code(),
                    TextOptions::default().set_indexing_options(indexing),
                )
            })
            .collect();
        let index = Index::create_in_ram(builder.build());
        register_analyzers(&index);
        // Passages of 150 corpus words, drawn with a fixed stride.
        let passages: Vec<String> = (0..60)
            .map(|n| {
                (0..150)
                    .map(|i| words[(n * 7_919 + i * 104_729) % words.len()].as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let mut writer: IndexWriter = index.writer(15_000_000).unwrap();
        for passage in &passages {
            let mut document = TantivyDocument::default();
            for field in &fields {
                document.add_text(*field, passage);
            }
            writer.add_document(document).unwrap();
        }
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let mut compared = 0;
        for (family, field) in families.iter().zip(&fields) {
            for (n, passage) in passages.iter().enumerate() {
                // Two words of the passage and one from elsewhere, stemmed as queries are.
                let passage_words: Vec<&str> = passage.split(' ').collect();
                let query_words = [
                    passage_words[(n * 31) % passage_words.len()],
                    passage_words[(n * 17 + 5) % passage_words.len()],
                    words[(n * 999_983) % words.len()].as_str(),
                ];
                let clauses: Vec<(Occur, Box<dyn Query>)> = query_words
                    .iter()
                    .flat_map(|word| analyze_in(*family, word))
                    .map(|stem| {
                        let term = Term::from_field_text(*field, &stem);
                        let query: Box<dyn Query> =
                            Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs));
                        (Occur::Should, query)
                    })
                    .collect();
                let query = BooleanQuery::new(clauses);
                let mut theirs = SnippetGenerator::create(&searcher, &query, *field).unwrap();
                theirs.set_max_num_chars(220);
                let mut ours = Highlighter::new(&searcher, &query, *field, *family, 220).unwrap();
                let (a, b) = (ours.snippet(passage), theirs.snippet(passage));
                assert_eq!(a.fragment, b.fragment(), "{family:?} {query_words:?}");
                assert_eq!(a.highlighted, b.highlighted(), "{family:?} {query_words:?}");
                if !b.highlighted().is_empty() {
                    compared += 1;
                }
            }
        }
        assert!(compared > 150, "{compared}");
    }
}
