//! A term's words, any of them: a document matches when it holds at least one, and its
//! score is the sum of its words' scores times the term's coverage,
//! `(words held / words in the term)^γ`.
//!
//! Coverage is a factor, not a tier: a document holding every word usually ranks first,
//! but one holding two of three words in its title can pass one holding all three in a
//! long description.

use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED, Term};

use crate::window::{Slots, Window, seek_to};

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
        let mut held = Vec::new();
        for weight in &self.words {
            if crate::guarded::matches(weight.as_ref(), reader, doc)? {
                held.push(weight);
            }
        }
        let mut explanation = Explanation::new_with_string(
            format!(
                "sum of the words' scores × coverage ({} of {} words)^{}",
                held.len(),
                self.words.len(),
                self.exponent
            ),
            scorer.score(),
        );
        for weight in held {
            if let Ok(detail) = weight.explain(reader, doc) {
                explanation.add_detail(detail);
            }
        }
        Ok(explanation)
    }
}

/// The union of the words' scorers, read a window of documents at a time
/// (`window.rs`).
struct CoverageScorer {
    /// The words that have not ended, each at or past the window's end.
    words: Vec<Box<dyn Scorer>>,
    factors: Vec<Score>,
    window: Window,
    /// Per document of the window: the words' summed score and how many it holds (none
    /// when not scoring).
    slots: Option<(Slots, Slots)>,
    doc: DocId,
    score: Score,
}

impl CoverageScorer {
    fn new(words: Vec<Box<dyn Scorer>>, factors: Vec<Score>, scoring: bool) -> CoverageScorer {
        let words: Vec<Box<dyn Scorer>> = words
            .into_iter()
            .filter(|word| word.doc() != TERMINATED)
            .collect();
        let mut scorer = CoverageScorer {
            slots: (scoring && !words.is_empty()).then(|| (Slots::new(), Slots::new())),
            words,
            factors,
            window: Window::new(),
            doc: 0,
            score: 0.0,
        };
        scorer.refill();
        scorer
    }

    /// Reads the next window, from the smallest document of the words, and moves to its
    /// first match (or ends).
    fn refill(&mut self) -> DocId {
        let Some(start) = self.words.iter().map(|word| word.doc()).min() else {
            self.doc = TERMINATED;
            return TERMINATED;
        };
        let end = self.window.open(start);
        let (window, slots) = (&mut self.window, &mut self.slots);
        self.words.retain_mut(|word| {
            window.drain(word.as_mut(), end, |delta, word| {
                if let Some((sums, held)) = slots.as_mut() {
                    sums.add(delta, word.score());
                    held.add(delta, 1.0);
                }
            })
        });
        self.next_in_window()
            .expect("a window starts on a matching document")
    }

    /// Moves to the window's next match and scores it; `None` when the window is read.
    fn next_in_window(&mut self) -> Option<DocId> {
        let (doc, delta) = self.window.pop()?;
        self.doc = doc;
        self.score = match self.slots.as_mut() {
            Some((sums, held)) => {
                let held = held.take(delta) as usize;
                sums.take(delta) * self.factors[held.min(self.factors.len() - 1)]
            }
            None => 1.0,
        };
        Some(doc)
    }
}

/// Leaves a window document's slots zero.
fn clear(slots: &mut Option<(Slots, Slots)>, delta: usize) {
    if let Some((sums, held)) = slots {
        sums.take(delta);
        held.take(delta);
    }
}

impl Drop for CoverageScorer {
    /// Leaves the slots zero for the next scorer.
    fn drop(&mut self) {
        let slots = &mut self.slots;
        self.window.clear(|delta| clear(slots, delta));
    }
}

impl DocSet for CoverageScorer {
    fn advance(&mut self) -> DocId {
        if self.doc == TERMINATED {
            return TERMINATED;
        }
        match self.next_in_window() {
            Some(doc) => doc,
            None => self.refill(),
        }
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc >= target {
            return self.doc;
        }
        let slots = &mut self.slots;
        if self.window.holds(target) {
            // In the window: drop the buckets before the target's, then read up to it.
            self.window.skip_to(target, |delta| clear(slots, delta));
            let mut doc = self.doc;
            while doc < target {
                doc = self.advance();
            }
            return doc;
        }
        self.window.clear(|delta| clear(slots, delta));
        self.words
            .retain_mut(|word| seek_to(word.as_mut(), target) != TERMINATED);
        self.refill()
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
        self.score
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

    /// Over documents spanning several windows, every match scores the sum of its words'
    /// own BM25 scores (tantivy's term queries, read one by one) times (held / 3)^1.5,
    /// whether reached by advancing or by seeking.
    #[test]
    fn windows_of_documents_score_every_match_by_its_coverage() {
        let mut builder = Schema::builder();
        let body = builder.add_text_field("body", TEXT);
        let index = Index::create_in_ram(builder.build());
        let mut writer: IndexWriter = index.writer_with_num_threads(1, 50_000_000).unwrap();
        let mut next = crate::window::tests::generator();
        const WORDS: [&str; 3] = ["red", "green", "blue"];
        let docs: Vec<Vec<&str>> = (0..3 * crate::window::WINDOW + 500)
            .map(|_| {
                WORDS
                    .iter()
                    .copied()
                    .filter(|_| next(30) < 2)
                    .chain(["sky"])
                    .collect()
            })
            .collect();
        for words in &docs {
            writer.add_document(doc!(body => words.join(" "))).unwrap();
        }
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let segment = searcher.segment_reader(0);
        let term = |word: &str| {
            TermQuery::new(
                Term::from_field_text(body, word),
                IndexRecordOption::WithFreqs,
            )
        };
        let query = CoverageQuery::new(
            WORDS
                .iter()
                .map(|word| Box::new(term(word)) as Box<dyn Query>)
                .collect(),
            1.5,
        );
        let enabled = EnableScoring::enabled_from_searcher(&searcher);
        let weight = query.weight(enabled).unwrap();
        let words: Vec<Box<dyn Weight>> = WORDS
            .iter()
            .map(|word| term(word).weight(enabled).unwrap())
            .collect();
        let expected = |doc: DocId| {
            let mut sum = 0.0;
            let mut held = 0;
            for word in &words {
                let mut scorer = word.scorer(segment, 1.0).unwrap();
                if scorer.doc() <= doc && scorer.seek(doc) == doc {
                    sum += f64::from(scorer.score());
                    held += 1;
                }
            }
            sum * (f64::from(held) / 3.0).powf(1.5)
        };
        let matching: Vec<DocId> = (0..docs.len() as DocId)
            .filter(|&doc| docs[doc as usize].len() > 1)
            .collect();
        crate::window::tests::check_scorer(
            || weight.scorer(segment, 1.0).unwrap(),
            &matching,
            expected,
        );
    }
}
