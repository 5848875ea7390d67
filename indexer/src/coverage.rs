//! A term's words, any of them: a document matches when it holds at least one, and its
//! score is the sum of its words' scores times the term's coverage,
//! `(words held / words in the term)^γ`.
//!
//! Coverage is a factor, not a tier: a document holding every word usually ranks first,
//! but one holding two of three words in its title can pass one holding all three in a
//! long description.

use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED, Term};

/// Any of `words`, scored by their sum times the coverage.
#[derive(Debug)]
pub struct CoverageQuery {
    words: Vec<Box<dyn Query>>,
    exponent: Score,
}

impl CoverageQuery {
    pub fn new(words: Vec<Box<dyn Query>>, exponent: Score) -> CoverageQuery {
        CoverageQuery { words, exponent }
    }
}

impl Clone for CoverageQuery {
    fn clone(&self) -> CoverageQuery {
        CoverageQuery {
            words: self.words.iter().map(|query| query.box_clone()).collect(),
            exponent: self.exponent,
        }
    }
}

impl Query for CoverageQuery {
    fn weight(&self, enable_scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let words = self
            .words
            .iter()
            .map(|query| query.weight(enable_scoring))
            .collect::<tantivy::Result<Vec<_>>>()?;
        Ok(Box::new(CoverageWeight {
            words,
            exponent: self.exponent,
            scoring: matches!(enable_scoring, EnableScoring::Enabled { .. }),
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        for query in &self.words {
            query.query_terms(visitor);
        }
    }
}

struct CoverageWeight {
    words: Vec<Box<dyn Weight>>,
    exponent: Score,
    scoring: bool,
}

impl CoverageWeight {
    fn coverage_scorer(
        &self,
        reader: &SegmentReader,
        boost: Score,
    ) -> tantivy::Result<CoverageScorer> {
        let words = self
            .words
            .iter()
            .map(|weight| weight.scorer(reader, boost))
            .collect::<tantivy::Result<Vec<_>>>()?;
        // factor[m] = (m / n)^γ for m words held of n
        let total = self.words.len().max(1);
        let factors = (0..=total)
            .map(|held| (held as Score / total as Score).powf(self.exponent))
            .collect();
        Ok(CoverageScorer::new(words, factors, self.scoring))
    }
}

impl Weight for CoverageWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(Box::new(self.coverage_scorer(reader, boost)?))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = self.coverage_scorer(reader, 1.0)?;
        if scorer.seek(doc) != doc {
            return Err(tantivy::TantivyError::InvalidArgument(format!(
                "document #({doc}) does not match"
            )));
        }
        let held = scorer.words.iter().filter(|w| w.doc() == doc).count();
        let mut explanation = Explanation::new_with_string(
            format!(
                "sum of the words' scores × coverage ({held} of {} words)^{}",
                self.words.len(),
                self.exponent
            ),
            scorer.score(),
        );
        for weight in &self.words {
            if crate::guarded::matches(weight.as_ref(), reader, doc)?
                && let Ok(detail) = weight.explain(reader, doc)
            {
                explanation.add_detail(detail);
            }
        }
        Ok(explanation)
    }
}

/// The union of the words' scorers, each on its own next document.
struct CoverageScorer {
    words: Vec<Box<dyn Scorer>>,
    factors: Vec<Score>,
    scoring: bool,
    doc: DocId,
}

impl CoverageScorer {
    fn new(words: Vec<Box<dyn Scorer>>, factors: Vec<Score>, scoring: bool) -> CoverageScorer {
        let mut scorer = CoverageScorer {
            words,
            factors,
            scoring,
            doc: TERMINATED,
        };
        scorer.settle();
        scorer
    }

    fn settle(&mut self) -> DocId {
        self.words.retain(|word| word.doc() != TERMINATED);
        self.doc = self
            .words
            .iter()
            .map(|word| word.doc())
            .min()
            .unwrap_or(TERMINATED);
        self.doc
    }
}

impl DocSet for CoverageScorer {
    fn advance(&mut self) -> DocId {
        if self.doc == TERMINATED {
            return TERMINATED;
        }
        let current = self.doc;
        for word in &mut self.words {
            if word.doc() == current {
                word.advance();
            }
        }
        self.settle()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc >= target {
            return self.doc;
        }
        for word in &mut self.words {
            if word.doc() < target {
                word.seek(target);
            }
        }
        self.settle()
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.words
            .iter()
            .map(|word| word.size_hint())
            .fold(0u32, u32::saturating_add)
    }

    fn cost(&self) -> u64 {
        self.words.iter().map(|word| word.cost()).sum()
    }
}

impl Scorer for CoverageScorer {
    fn score(&mut self) -> Score {
        if !self.scoring {
            return 1.0;
        }
        let doc = self.doc;
        let mut sum = 0.0;
        let mut held = 0;
        for word in &mut self.words {
            if word.doc() == doc {
                sum += word.score();
                held += 1;
            }
        }
        sum * self.factors[held.min(self.factors.len() - 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::collector::{Count, TopDocs};
    use tantivy::query::{BooleanQuery, Occur, TermQuery};
    use tantivy::schema::{IndexRecordOption, Schema, TEXT};
    use tantivy::{Index, IndexWriter, doc};

    /// Matches what a boolean "should" query matches; scores are its scores times
    /// (held / total)^γ.
    #[test]
    fn matches_the_union_and_scales_by_coverage() {
        let mut builder = Schema::builder();
        let body = builder.add_text_field("body", TEXT);
        let index = Index::create_in_ram(builder.build());
        let mut writer: IndexWriter = index.writer(15_000_000).unwrap();
        const TEXTS: [&str; 6] = [
            "red green blue",
            "red green",
            "red",
            "blue sky",
            "nothing at all",
            "green",
        ];
        for text in TEXTS {
            writer.add_document(doc!(body => text)).unwrap();
        }
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let words = || -> Vec<Box<dyn Query>> {
            ["red", "green", "blue"]
                .iter()
                .map(|w| {
                    Box::new(TermQuery::new(
                        Term::from_field_text(body, w),
                        IndexRecordOption::WithFreqs,
                    )) as Box<dyn Query>
                })
                .collect()
        };
        let ours = CoverageQuery::new(words(), 2.0);
        let should = BooleanQuery::new(words().into_iter().map(|q| (Occur::Should, q)).collect());
        let top = || TopDocs::with_limit(10).order_by_score();
        let (found, count) = searcher.search(&ours, &(top(), Count)).unwrap();
        let (expected, expected_count) = searcher.search(&should, &(top(), Count)).unwrap();
        assert_eq!(count, 5);
        assert_eq!(count, expected_count);
        for (score, address) in &found {
            let (sum, _) = expected.iter().find(|(_, a)| a == address).unwrap();
            let held = TEXTS[address.doc_id as usize]
                .split(' ')
                .filter(|w| ["red", "green", "blue"].contains(w))
                .count();
            let factor = (held as f32 / 3.0).powf(2.0);
            assert!(
                (score - sum * factor).abs() < 1e-4,
                "{score} {sum} {factor}"
            );
        }
        // every word held ranks first
        assert_eq!(found[0].1.doc_id, 0);
    }
}
