//! Snippet generators that stem only the words that can match.
//!
//! A snippet re-tokenizes its chunk with the field's analyzer to find the query's stems
//! in it, and stemming is most of that work. Stemming keeps a word's first letter when
//! that letter is ASCII (Snowball stemmers change endings, and re-lowercase the letters
//! they mark; the test below checks it over the corpus in every family). So a word whose
//! first letter is ASCII and starts none of the query's stems cannot match: the
//! [`FirstLetters`] filter empties it before the stemmer. Its offsets, which shape the
//! fragments, stay, so the snippet is the one tantivy's own generator makes.

use std::collections::{BTreeMap, BTreeSet};

use tantivy::query::Query;
use tantivy::schema::Field;
use tantivy::snippet::SnippetGenerator;
use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer, TextAnalyzer,
    Token, TokenFilter, TokenStream, Tokenizer,
};
use tantivy::{Score, Searcher, Term};

use crate::analysis::LanguageFamily;

/// The snippet generator of `query`'s terms in `field` (analyzed by `family`), scored as
/// tantivy's `SnippetGenerator::create` scores them (1 / (1 + document frequency)).
pub(crate) fn snippet_generator(
    searcher: &Searcher,
    query: &dyn Query,
    field: Field,
    family: LanguageFamily,
    max_num_chars: usize,
) -> tantivy::Result<SnippetGenerator> {
    let mut terms: BTreeSet<&Term> = BTreeSet::new();
    query.query_terms(&mut |term, _| {
        if term.field() == field {
            terms.insert(term);
        }
    });
    let mut terms_text: BTreeMap<String, Score> = BTreeMap::new();
    for term in terms {
        let value = term.value();
        let Some(text) = value.as_str() else {
            continue;
        };
        let doc_freq = searcher.doc_freq(term)?;
        if doc_freq > 0 {
            terms_text.insert(text.to_owned(), 1.0 / (1.0 + doc_freq as Score));
        }
    }
    let analyzer = match (
        family.stemmer_language(),
        FirstLetters::of(terms_text.keys()),
    ) {
        (Some(language), Some(letters)) => TextAnalyzer::builder(SimpleTokenizer::default())
            .filter(RemoveLongFilter::limit(48))
            .filter(LowerCaser)
            .filter(letters)
            .filter(Stemmer::new(language))
            .filter(AsciiFoldingFilter)
            .build(),
        _ => family.analyzer(),
    };
    Ok(SnippetGenerator::new(
        terms_text,
        analyzer,
        field,
        max_num_chars,
    ))
}

/// Empties every token whose first letter is ASCII and not one of `letters`.
#[derive(Clone)]
pub(crate) struct FirstLetters {
    letters: [bool; 128],
}

impl FirstLetters {
    /// The first letters of `stems`; `None` when one of them has no ASCII first letter
    /// (then every word has to be stemmed).
    fn of<'a>(stems: impl Iterator<Item = &'a String>) -> Option<FirstLetters> {
        let mut letters = [false; 128];
        for stem in stems {
            let first = *stem.as_bytes().first()?;
            if !first.is_ascii() {
                return None;
            }
            letters[first as usize] = true;
        }
        Some(FirstLetters { letters })
    }
}

impl TokenFilter for FirstLetters {
    type Tokenizer<T: Tokenizer> = FirstLettersFilter<T>;

    fn transform<T: Tokenizer>(self, tokenizer: T) -> FirstLettersFilter<T> {
        FirstLettersFilter {
            tokenizer,
            letters: self.letters,
        }
    }
}

#[derive(Clone)]
pub(crate) struct FirstLettersFilter<T> {
    tokenizer: T,
    letters: [bool; 128],
}

impl<T: Tokenizer> Tokenizer for FirstLettersFilter<T> {
    type TokenStream<'a> = FirstLettersStream<'a, T::TokenStream<'a>>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        FirstLettersStream {
            tail: self.tokenizer.token_stream(text),
            letters: &self.letters,
        }
    }
}

pub(crate) struct FirstLettersStream<'a, T> {
    tail: T,
    letters: &'a [bool; 128],
}

impl<T: TokenStream> TokenStream for FirstLettersStream<'_, T> {
    fn advance(&mut self) -> bool {
        if !self.tail.advance() {
            return false;
        }
        let token = self.tail.token_mut();
        if let Some(&first) = token.text.as_bytes().first()
            && first.is_ascii()
            && !self.letters[first as usize]
        {
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

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::path::Path;

    use tantivy::query::{BooleanQuery, Occur, TermQuery};
    use tantivy::schema::{IndexRecordOption, Schema, TextFieldIndexing, TextOptions};
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
        let mut lower = TextAnalyzer::builder(SimpleTokenizer::default())
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

    /// The property the filter rests on, over every corpus word in every family.
    #[test]
    fn stemming_keeps_an_ascii_first_letter() {
        let words = corpus_words();
        assert!(words.len() > 50_000, "{}", words.len());
        assert!(words.iter().any(|word| !word.is_ascii()));
        for family in LanguageFamily::ALL {
            for word in &words {
                let first = word.as_bytes()[0];
                if !first.is_ascii() {
                    continue;
                }
                for stem in analyze_in(family, word) {
                    assert_eq!(
                        stem.as_bytes().first(),
                        Some(&first),
                        "{family:?}: {word} -> {stem}"
                    );
                }
            }
        }
    }

    /// The filtered generator's snippets equal tantivy's own, on corpus text.
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
                let ours = snippet_generator(&searcher, &query, *field, *family, 220).unwrap();
                let (a, b) = (ours.snippet(passage), theirs.snippet(passage));
                assert_eq!(a.fragment(), b.fragment(), "{family:?} {query_words:?}");
                assert_eq!(
                    a.highlighted(),
                    b.highlighted(),
                    "{family:?} {query_words:?}"
                );
                if !b.highlighted().is_empty() {
                    compared += 1;
                }
            }
        }
        assert!(compared > 150, "{compared}");
    }
}
