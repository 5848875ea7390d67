//! A query whose matches all score one constant, built without scoring its inner query.
//!
//! tantivy's `ConstScoreQuery` builds its inner query's weight with scoring on, so each
//! term of a filter, a fuzzy word's variants or a page's episode ids is looked up in the
//! term dictionary for its document frequency, a score then thrown away. [`ConstScore`]
//! builds the inner weight with scoring off: a term is looked up once, by its scorer.

use tantivy::query::{ConstScorer, EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TantivyError, Term};

/// The documents `query` matches, each scored `score`.
#[derive(Debug)]
pub struct ConstScore {
    query: Box<dyn Query>,
    score: Score,
}

impl ConstScore {
    pub fn new(query: Box<dyn Query>, score: Score) -> ConstScore {
        ConstScore { query, score }
    }
}

impl Clone for ConstScore {
    fn clone(&self) -> ConstScore {
        ConstScore {
            query: self.query.box_clone(),
            score: self.score,
        }
    }
}

impl Query for ConstScore {
    fn weight(&self, enable_scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let unscored = EnableScoring::Disabled {
            schema: enable_scoring.schema(),
            searcher_opt: enable_scoring.searcher(),
        };
        let weight = self.query.weight(unscored)?;
        Ok(if enable_scoring.is_scoring_enabled() {
            Box::new(ConstScoreWeight {
                weight,
                score: self.score,
            })
        } else {
            weight
        })
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.query.query_terms(visitor);
    }
}

struct ConstScoreWeight {
    weight: Box<dyn Weight>,
    score: Score,
}

impl Weight for ConstScoreWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let scorer = self.weight.scorer(reader, boost)?;
        Ok(Box::new(ConstScorer::new(scorer, boost * self.score)))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = self.weight.scorer(reader, 1.0)?;
        if scorer.seek(doc) != doc {
            return Err(TantivyError::InvalidArgument(format!(
                "Document #({doc}) does not match"
            )));
        }
        let mut explanation = Explanation::new("Const", self.score);
        explanation.add_detail(self.weight.explain(reader, doc)?);
        Ok(explanation)
    }

    fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        self.weight.count(reader)
    }
}

#[cfg(test)]
mod tests {
    use tantivy::collector::TopDocs;
    use tantivy::query::{Bm25StatisticsProvider, ConstScoreQuery, TermQuery};
    use tantivy::schema::{IndexRecordOption, STRING, Schema, TEXT};
    use tantivy::{Index, TantivyDocument, doc};

    use super::*;
    use crate::shard::GlobalStatistics;

    /// Counts the document frequencies a search asks its statistics for.
    struct Counting<'a> {
        inner: GlobalStatistics<'a>,
        doc_freqs: std::sync::atomic::AtomicUsize,
    }

    impl Bm25StatisticsProvider for Counting<'_> {
        fn total_num_tokens(&self, field: tantivy::schema::Field) -> tantivy::Result<u64> {
            self.inner.total_num_tokens(field)
        }
        fn total_num_docs(&self) -> tantivy::Result<u64> {
            self.inner.total_num_docs()
        }
        fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
            self.doc_freqs
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.inner.doc_freq(term)
        }
    }

    /// Same hits and scores as tantivy's `ConstScoreQuery` beside a scored term, without
    /// asking the statistics for the constant part's terms.
    #[test]
    fn const_score_matches_tantivys_without_looking_up_statistics() {
        let mut builder = Schema::builder();
        let id = builder.add_text_field("id", STRING);
        let text = builder.add_text_field("text", TEXT);
        let index = Index::create_in_ram(builder.build());
        let mut writer = index.writer_with_num_threads(1, 15_000_000).unwrap();
        let texts = [
            "rust search",
            "search engines",
            "podcast search search",
            "rust",
        ];
        for (n, body) in texts.iter().enumerate() {
            let mut document = TantivyDocument::default();
            document.add_text(id, format!("e{}", n % 3));
            document.add_text(text, *body);
            writer.add_document(document).unwrap();
        }
        writer
            .add_document(doc!(id => "e9", text => "search"))
            .unwrap();
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let ids = || -> Box<dyn Query> {
            Box::new(crate::term_sets::any_term(
                ["e0", "e2", "missing"]
                    .iter()
                    .map(|value| Term::from_field_text(id, value)),
            ))
        };
        let word: Box<dyn Query> = Box::new(TermQuery::new(
            Term::from_field_text(text, "search"),
            IndexRecordOption::WithFreqs,
        ));
        let search = |constant: Box<dyn Query>| {
            let query = tantivy::query::BooleanQuery::new(vec![
                (tantivy::query::Occur::Must, constant),
                (tantivy::query::Occur::Must, word.box_clone()),
            ]);
            let statistics = Counting {
                inner: GlobalStatistics::new(vec![&searcher]),
                doc_freqs: Default::default(),
            };
            let hits = searcher
                .search_with_statistics_provider(
                    &query,
                    &TopDocs::with_limit(10).order_by_score(),
                    &statistics,
                )
                .unwrap();
            (hits, statistics.doc_freqs.into_inner())
        };
        let (expected, expected_lookups) = search(Box::new(ConstScoreQuery::new(ids(), 0.5)));
        let (found, lookups) = search(Box::new(ConstScore::new(ids(), 0.5)));
        assert_eq!(found, expected);
        assert_eq!(found.len(), 2, "{found:?}");
        // The scored word is looked up once; tantivy also looks up the three ids.
        assert_eq!((lookups, expected_lookups), (1, 4));
        for (_, address) in &found {
            let weight = ConstScore::new(ids(), 0.5)
                .weight(EnableScoring::enabled_from_searcher(&searcher))
                .unwrap();
            let reader = searcher.segment_reader(address.segment_ord);
            assert_eq!(weight.explain(reader, address.doc_id).unwrap().value(), 0.5);
        }
    }
}
