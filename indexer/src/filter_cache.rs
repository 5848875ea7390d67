//! Podcast-level filters of episode searches (language, genres, countries, …), resolved
//! once per shard and generation.
//!
//! Such a filter is a join: the shard's matching podcasts, then their episodes by
//! podcast id. Done per query, that is a `TermSetQuery` over thousands of ids (about
//! 20,000 for an English filter at a million episodes) whose automaton is built and
//! whose postings are unioned on every search. A generation never changes once open, so
//! the episodes a filter keeps are the same on every query: the first search resolves
//! them into one bit set per segment (tantivy's `BitSet`, iterated by its
//! `BitSetDocSet`), later ones reuse it. The cache is bounded (least
//! recently used out) and belongs to the open shard, so a new generation starts empty.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tantivy::index::SegmentId;
use tantivy::query::{
    BitSetDocSet, ConstScorer, EmptyScorer, EnableScoring, Explanation, Query, Scorer, Weight,
};
use tantivy::schema::Field;
use tantivy::{DocId, DocSet, Score, Searcher, SegmentReader, TERMINATED, Term};
use tantivy_common::BitSet;
use uuid::Uuid;

use crate::term_sets::podcast_id_set;

/// Resolved filters kept per shard.
const CAPACITY: usize = 32;

/// A podcast-level filter resolved on one shard's episodes index: the podcast ids it
/// matched and, per segment, the episodes of those podcasts.
#[derive(Debug)]
pub(crate) struct ResolvedFilter {
    podcast_id_field: Field,
    podcast_ids: Vec<Uuid>,
    /// The kept episodes of each segment.
    segments: HashMap<SegmentId, BitSet>,
}

impl ResolvedFilter {
    /// The episodes of `searcher` whose `podcast_id_field` is one of `podcast_ids`:
    /// exactly the documents of the id-set query the filter stands for.
    pub(crate) fn resolve(
        searcher: &Searcher,
        podcast_id_field: Field,
        podcast_ids: Vec<Uuid>,
    ) -> tantivy::Result<ResolvedFilter> {
        let query = podcast_id_set(podcast_id_field, &podcast_ids);
        let weight = query.weight(EnableScoring::disabled_from_searcher(searcher))?;
        let mut segments = HashMap::new();
        for reader in searcher.segment_readers() {
            let mut docs = BitSet::with_max_value(reader.max_doc());
            let mut scorer = weight.scorer(reader, 1.0)?;
            let mut doc = scorer.doc();
            while doc != TERMINATED {
                docs.insert(doc);
                doc = scorer.advance();
            }
            segments.insert(reader.segment_id(), docs);
        }
        Ok(ResolvedFilter {
            podcast_id_field,
            podcast_ids,
            segments,
        })
    }

    /// The id-set query this filter was resolved from.
    fn source_query(&self) -> Box<dyn Query> {
        podcast_id_set(self.podcast_id_field, &self.podcast_ids)
    }
}

/// A query matching the episodes a [`ResolvedFilter`] keeps.
#[derive(Debug, Clone)]
pub(crate) struct ResolvedFilterQuery {
    filter: Arc<ResolvedFilter>,
}

impl ResolvedFilterQuery {
    pub(crate) fn new(filter: Arc<ResolvedFilter>) -> ResolvedFilterQuery {
        ResolvedFilterQuery { filter }
    }
}

impl Query for ResolvedFilterQuery {
    fn weight(&self, _scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(ResolvedFilterWeight {
            filter: self.filter.clone(),
        }))
    }

    fn query_terms<'a>(&'a self, _visitor: &mut dyn FnMut(&'a Term, bool)) {
        // The id terms live only in the query the filter is rebuilt from; nothing that
        // collects terms (snippets, highlighting) looks at podcast ids.
    }
}

struct ResolvedFilterWeight {
    filter: Arc<ResolvedFilter>,
}

impl Weight for ResolvedFilterWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(match self.filter.segments.get(&reader.segment_id()) {
            Some(docs) => Box::new(ConstScorer::new(BitSetDocSet::from(docs.clone()), boost)),
            None => Box::new(EmptyScorer),
        })
    }

    /// Explained as the id-set query it stands for.
    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let query = self.filter.source_query();
        query
            .weight(EnableScoring::disabled_from_schema(reader.schema()))?
            .explain(reader, doc)
    }
}

/// Resolved filters of one shard by key, least recently used first.
#[derive(Debug, Default)]
pub(crate) struct FilterCache {
    entries: Mutex<Vec<(String, Arc<ResolvedFilter>)>>,
}

impl FilterCache {
    /// The filter stored under `key`, resolved with `resolve` when missing. Two searches
    /// missing at once both resolve; the result is the same.
    pub(crate) fn get_or_resolve(
        &self,
        key: &str,
        resolve: impl FnOnce() -> crate::Result<ResolvedFilter>,
    ) -> crate::Result<Arc<ResolvedFilter>> {
        if let Some(found) = self.get(key) {
            return Ok(found);
        }
        let resolved = Arc::new(resolve()?);
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.retain(|(existing, _)| existing != key);
        if entries.len() >= CAPACITY {
            entries.remove(0);
        }
        entries.push((key.to_owned(), resolved.clone()));
        Ok(resolved)
    }

    fn get(&self, key: &str) -> Option<Arc<ResolvedFilter>> {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let position = entries.iter().position(|(existing, _)| existing == key)?;
        let entry = entries.remove(position);
        let found = entry.1.clone();
        entries.push(entry);
        Some(found)
    }

    #[cfg(test)]
    fn keys(&self) -> Vec<String> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.iter().map(|(key, _)| key.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_keeps_the_most_recently_used_filters() {
        let cache = FilterCache::default();
        let empty = || {
            Ok(ResolvedFilter {
                podcast_id_field: Field::from_field_id(0),
                podcast_ids: Vec::new(),
                segments: HashMap::new(),
            })
        };
        for index in 0..CAPACITY {
            cache.get_or_resolve(&index.to_string(), empty).unwrap();
        }
        // Using "0" makes "1" the least recently used, which the next filter replaces.
        cache.get_or_resolve("0", || panic!("cached")).unwrap();
        cache.get_or_resolve("new", empty).unwrap();
        let keys = cache.keys();
        assert_eq!(keys.len(), CAPACITY);
        assert!(keys.contains(&"0".to_owned()));
        assert!(!keys.contains(&"1".to_owned()));
        assert_eq!(keys.last().map(String::as_str), Some("new"));
    }
}
