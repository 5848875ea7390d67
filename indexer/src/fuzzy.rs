//! Fuzzy matches of a word, looked up once per shard and remembered.
//!
//! A word the catalog does not have is matched fuzzily (see `docs/search.md`). tantivy's
//! `FuzzyTermQuery` builds the word's Levenshtein automaton and walks it over the term
//! dictionary of every segment on every search: at a few milliseconds a word it was a
//! fifth of an episode search's time. A generation never changes once open, so the
//! dictionary terms within the word's distance are the same on every search: the first
//! search finds them, later ones search those terms. The memory is bounded (emptied when
//! full) and belongs to the open shard, so a new generation starts empty.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

use levenshtein_automata::{DFA, Distance, LevenshteinAutomatonBuilder, SINK_STATE};
use tantivy::schema::Field;
use tantivy::{Searcher, Term};
use tantivy_fst::Automaton;

use crate::schema::IndexKind;

/// Words remembered per shard.
const CAPACITY: usize = 4096;

/// The largest edit distance a fuzzy word is matched at.
const MAX_DISTANCE: u8 = 2;

/// Per fuzzy word (the index and field it is looked up in, the word, its distance), the
/// dictionary terms within its distance.
type Memory = HashMap<(IndexKind, Field, String, u8), Arc<Vec<Term>>>;

/// The dictionary terms of fuzzy words, remembered.
#[derive(Debug, Default)]
pub(crate) struct FuzzyExpansions {
    memory: Mutex<Memory>,
}

impl FuzzyExpansions {
    /// The terms of `field` in `searcher` within `distance` edits of `word` (a
    /// transposition counts as one edit, as in tantivy's fuzzy query).
    pub(crate) fn terms(
        &self,
        kind: IndexKind,
        searcher: &Searcher,
        field: Field,
        word: &str,
        distance: u8,
    ) -> tantivy::Result<Arc<Vec<Term>>> {
        let key = (kind, field, word.to_owned(), distance);
        if let Some(terms) = self.lock().get(&key) {
            return Ok(terms.clone());
        }
        let terms = Arc::new(expand(searcher, field, word, distance)?);
        let mut memory = self.lock();
        if memory.len() >= CAPACITY {
            memory.clear();
        }
        memory.insert(key, terms.clone());
        Ok(terms)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Memory> {
        self.memory
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

fn expand(
    searcher: &Searcher,
    field: Field,
    word: &str,
    distance: u8,
) -> tantivy::Result<Vec<Term>> {
    static BUILDERS: [OnceLock<LevenshteinAutomatonBuilder>; MAX_DISTANCE as usize + 1] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let distance = distance.min(MAX_DISTANCE);
    let builder = BUILDERS[usize::from(distance)]
        .get_or_init(|| LevenshteinAutomatonBuilder::new(distance, true));
    let dfa = Dfa(builder.build_dfa(word));
    let mut found = BTreeSet::new();
    for reader in searcher.segment_readers() {
        let inverted = reader.inverted_index(field)?;
        let mut stream = inverted.terms().search(&dfa).into_stream()?;
        while stream.advance() {
            if let Ok(text) = std::str::from_utf8(stream.key()) {
                found.insert(text.to_owned());
            }
        }
    }
    Ok(found
        .iter()
        .map(|text| Term::from_field_text(field, text))
        .collect())
}

/// A Levenshtein automaton as the term dictionary walks it.
struct Dfa(DFA);

impl Automaton for &Dfa {
    type State = u32;

    fn start(&self) -> u32 {
        self.0.initial_state()
    }

    fn is_match(&self, state: &u32) -> bool {
        matches!(self.0.distance(*state), Distance::Exact(_))
    }

    fn can_match(&self, state: &u32) -> bool {
        *state != SINK_STATE
    }

    fn accept(&self, state: &u32, byte: u8) -> u32 {
        self.0.transition(*state, byte)
    }
}

#[cfg(test)]
mod tests {
    use tantivy::collector::DocSetCollector;
    use tantivy::query::{FuzzyTermQuery, Query, TermSetQuery};
    use tantivy::schema::{Schema, TEXT};
    use tantivy::{Index, doc};

    use super::*;

    /// The remembered terms match exactly the documents tantivy's own fuzzy query does.
    #[test]
    fn expansions_match_what_tantivys_fuzzy_query_matches() {
        let mut builder = Schema::builder();
        let text = builder.add_text_field("text", TEXT);
        let index = Index::create_in_ram(builder.build());
        let mut writer = index.writer_with_num_threads(1, 15_000_000).unwrap();
        let lines = [
            "true crime cold cases",
            "crimes and misdemeanours",
            "grime music weekly",
            "the crème de la crème",
            "gardening for beginners",
            "gardner's world",
            "startup founders",
            "startups founded",
        ];
        for (at, line) in lines.iter().enumerate() {
            writer.add_document(doc!(text => *line)).unwrap();
            if at == 3 {
                // Two segments: terms from both are found.
                writer.commit().unwrap();
            }
        }
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let expansions = FuzzyExpansions::default();
        for (word, distance) in [
            ("crme", 1),
            ("crime", 1),
            ("gardenning", 2),
            ("startupp", 2),
            ("zzzz", 1),
        ] {
            let expected = FuzzyTermQuery::new(Term::from_field_text(text, word), distance, true);
            let terms = expansions
                .terms(IndexKind::Episodes, &searcher, text, word, distance)
                .unwrap();
            let ours = TermSetQuery::new(terms.iter().cloned());
            assert_eq!(
                searcher
                    .search(&ours as &dyn Query, &DocSetCollector)
                    .unwrap(),
                searcher
                    .search(&expected as &dyn Query, &DocSetCollector)
                    .unwrap(),
                "{word} at {distance}"
            );
            let again = expansions
                .terms(IndexKind::Episodes, &searcher, text, word, distance)
                .unwrap();
            assert!(Arc::ptr_eq(&terms, &again), "{word} is remembered");
        }
    }
}
