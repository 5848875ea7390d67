//! A search term in any of several fields: the best field's score plus a tie-breaker
//! share of the other matching fields' scores, as tantivy's `DisjunctionMaxQuery`
//! scores it, with a scorer that moves its fields lazily.
//!
//! A term is searched in a dozen fields at once (title, description and transcript, one
//! field per language family). Tantivy's union scorer buffers a window of 4,096
//! documents: each seek past the window clears the window's scores and scores every
//! match of every field inside the next one. When the term follows a rarer one in a
//! conjunction, it is seeked to sparse targets, and that work is most of the query.
//! [`AnyFieldScorer`] keeps each field's scorer on its own document instead: a seek is a
//! seek of each field's postings, and only the fields on the current document are
//! scored.

use tantivy::fieldnorm::FieldNormReader;
use tantivy::postings::{Postings, SegmentPostings};
use tantivy::query::{Bm25Weight, EnableScoring, Explanation, Query, Scorer, TermQuery, Weight};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED, Term};

/// Matches the documents that any of `queries` matches.
#[derive(Debug)]
pub struct AnyFieldQuery {
    queries: Vec<Box<dyn Query>>,
    tie_breaker: Score,
}

impl AnyFieldQuery {
    /// The union of `queries`, scored as the best score plus `tie_breaker` times the
    /// sum of the others.
    pub fn new(queries: Vec<Box<dyn Query>>, tie_breaker: Score) -> AnyFieldQuery {
        AnyFieldQuery {
            queries,
            tie_breaker,
        }
    }
}

impl Clone for AnyFieldQuery {
    fn clone(&self) -> AnyFieldQuery {
        AnyFieldQuery {
            queries: self.queries.iter().map(|query| query.box_clone()).collect(),
            tie_breaker: self.tie_breaker,
        }
    }
}

impl Query for AnyFieldQuery {
    fn weight(&self, enable_scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let mut terms = Vec::new();
        let mut others = Vec::new();
        for query in &self.queries {
            match query.downcast_ref::<TermQuery>() {
                Some(term_query) => terms.push(FieldTermWeight::new(
                    term_query.term().clone(),
                    enable_scoring,
                )?),
                None => others.push(query.weight(enable_scoring)?),
            }
        }
        Ok(Box::new(AnyFieldWeight {
            terms,
            others,
            tie_breaker: self.tie_breaker,
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        for query in &self.queries {
            query.query_terms(visitor);
        }
    }
}

/// One term in one field, scored by BM25 as tantivy's term query scores it (term
/// frequencies when scoring), with a scorer the union calls without dynamic dispatch.
struct FieldTermWeight {
    term: Term,
    /// `None` when scoring is off: every match then scores 1.
    bm25: Option<Bm25Weight>,
}

impl FieldTermWeight {
    fn new(term: Term, enable_scoring: EnableScoring<'_>) -> tantivy::Result<FieldTermWeight> {
        let bm25 = match enable_scoring {
            EnableScoring::Enabled {
                statistics_provider,
                ..
            } => Some(Bm25Weight::for_terms(
                statistics_provider,
                std::slice::from_ref(&term),
            )?),
            EnableScoring::Disabled { .. } => None,
        };
        Ok(FieldTermWeight { term, bm25 })
    }

    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Option<FieldTerm>> {
        let field = self.term.field();
        let inverted_index = reader.inverted_index(field)?;
        let Some(info) = inverted_index.get_term_info(&self.term)? else {
            return Ok(None);
        };
        let option = match self.bm25 {
            Some(_) => IndexRecordOption::WithFreqs,
            None => IndexRecordOption::Basic,
        };
        let postings = inverted_index.read_postings_from_terminfo(&info, option)?;
        let scoring = match &self.bm25 {
            Some(bm25) => {
                let fieldnorms = reader
                    .fieldnorms_readers()
                    .get_field(field)?
                    .unwrap_or_else(|| FieldNormReader::constant(reader.max_doc(), 1));
                Some((fieldnorms, bm25.boost_by(boost)))
            }
            None => None,
        };
        Ok(Some(FieldTerm { postings, scoring }))
    }
}

/// The scorer of a [`FieldTermWeight`].
pub struct FieldTerm {
    postings: SegmentPostings,
    /// The field's norms and the BM25 weight, when scoring.
    scoring: Option<(FieldNormReader, Bm25Weight)>,
}

impl FieldTerm {
    fn explain(&self) -> Explanation {
        match &self.scoring {
            Some((fieldnorms, bm25)) => {
                let fieldnorm_id = fieldnorms.fieldnorm_id(self.postings.doc());
                bm25.explain(fieldnorm_id, self.postings.term_freq())
            }
            None => Explanation::new("<no score>", 1.0),
        }
    }
}

impl DocSet for FieldTerm {
    #[inline]
    fn advance(&mut self) -> DocId {
        self.postings.advance()
    }

    #[inline]
    fn seek(&mut self, target: DocId) -> DocId {
        self.postings.seek(target)
    }

    #[inline]
    fn doc(&self) -> DocId {
        self.postings.doc()
    }

    fn size_hint(&self) -> u32 {
        self.postings.size_hint()
    }
}

impl Scorer for FieldTerm {
    #[inline]
    fn score(&mut self) -> Score {
        match &self.scoring {
            Some((fieldnorms, bm25)) => {
                let fieldnorm_id = fieldnorms.fieldnorm_id(self.postings.doc());
                bm25.score(fieldnorm_id, self.postings.term_freq())
            }
            None => 1.0,
        }
    }
}

struct AnyFieldWeight {
    /// The plain terms' weights, and the other fields' queries' weights.
    terms: Vec<FieldTermWeight>,
    others: Vec<Box<dyn Weight>>,
    tie_breaker: Score,
}

impl Weight for AnyFieldWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let mut terms = Vec::with_capacity(self.terms.len());
        for weight in &self.terms {
            if let Some(scorer) = weight.scorer(reader, boost)? {
                terms.push(scorer);
            }
        }
        if self.others.is_empty() {
            return Ok(Box::new(AnyFieldScorer::new(terms, self.tie_breaker)));
        }
        let mut scorers: Vec<Box<dyn Scorer>> = terms
            .into_iter()
            .map(|scorer| Box::new(scorer) as Box<dyn Scorer>)
            .collect();
        for weight in &self.others {
            scorers.push(weight.scorer(reader, boost)?);
        }
        Ok(Box::new(AnyFieldScorer::new(scorers, self.tie_breaker)))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = self.scorer(reader, 1.0)?;
        if scorer.seek(doc) != doc {
            return Err(tantivy::TantivyError::InvalidArgument(format!(
                "document #({doc}) does not match"
            )));
        }
        let mut explanation = Explanation::new(
            "best matching field plus the tie-breaker share of the other matching fields",
            scorer.score(),
        );
        for weight in &self.terms {
            if let Some(mut term) = weight.scorer(reader, 1.0)?
                && term.doc() <= doc
                && term.seek(doc) == doc
            {
                let mut detail = term.explain();
                detail.add_context(format!("Term={:?}", weight.term));
                explanation.add_detail(detail);
            }
        }
        // a phrase weight explains by seeking a fresh scorer, which may start past `doc`
        for weight in &self.others {
            if crate::guarded::matches(weight.as_ref(), reader, doc)?
                && let Ok(detail) = weight.explain(reader, doc)
            {
                explanation.add_detail(detail);
            }
        }
        Ok(explanation)
    }
}

/// Documents per window of the buffered mode.
const WINDOW: u32 = 4096;
const WINDOW_WORDS: usize = WINDOW as usize / 64;
/// A move to a document less than this far ahead is a near one …
const NEAR: DocId = 64;
/// … and after this many near moves in a row the scorer buffers: one pass per field
/// over a window then costs less than seeking every field at each move.
const NEAR_MOVES_BEFORE_BUFFERING: u32 = 32;

/// The union of its fields' scorers, in one of two modes:
///
/// - lazy (the start, and after a seek far past the window): each field's scorer stays
///   on its own next document, a seek seeks each of them, and a score scores the fields
///   on the current document;
/// - buffered (after a run of near moves, as when the union drives a scan or follows a
///   dense term): the fields' matches of the next `WINDOW` documents are scored in one
///   pass per field into a bit set and a score buffer, which moves then read, as
///   tantivy's union does.
pub struct AnyFieldScorer<S> {
    /// The fields' scorers that are not exhausted. Lazy: each on or after `doc`.
    /// Buffered: each at or past the window's end.
    scorers: Vec<S>,
    doc: DocId,
    tie_breaker: Score,
    /// Lazy mode: near moves (advances, short seeks) in a row.
    near_moves: u32,
    /// Buffered mode, when set (allocated on the first switch).
    buffered: bool,
    window: Option<Box<Window>>,
}

struct Window {
    start: DocId,
    bits: [u64; WINDOW_WORDS],
    best: [Score; WINDOW as usize],
    sum: [Score; WINDOW as usize],
}

impl<S: Scorer> AnyFieldScorer<S> {
    fn new(scorers: Vec<S>, tie_breaker: Score) -> AnyFieldScorer<S> {
        let mut scorer = AnyFieldScorer {
            scorers,
            doc: TERMINATED,
            tie_breaker,
            near_moves: 0,
            buffered: false,
            window: None,
        };
        scorer.settle();
        scorer
    }

    /// Drops exhausted scorers and moves to the smallest current document (lazy).
    fn settle(&mut self) -> DocId {
        self.scorers.retain(|scorer| scorer.doc() != TERMINATED);
        self.doc = self
            .scorers
            .iter()
            .map(|scorer| scorer.doc())
            .min()
            .unwrap_or(TERMINATED);
        self.doc
    }

    /// Lazy: buffers from `next` once the moves have been near ones for a while.
    fn buffer_if_dense(&mut self, next: DocId) -> DocId {
        if self.near_moves >= NEAR_MOVES_BEFORE_BUFFERING && next != TERMINATED {
            self.near_moves = 0;
            return self.fill(next);
        }
        next
    }

    /// Buffers the window starting at `start`, the smallest current document of the
    /// scorers, and moves to it.
    fn fill(&mut self, start: DocId) -> DocId {
        let window = self.window.get_or_insert_with(|| {
            Box::new(Window {
                start: 0,
                bits: [0; WINDOW_WORDS],
                best: [0.0; WINDOW as usize],
                sum: [0.0; WINDOW as usize],
            })
        });
        window.start = start;
        window.bits = [0; WINDOW_WORDS];
        let end = start.saturating_add(WINDOW);
        for scorer in &mut self.scorers {
            let mut doc = scorer.doc();
            while doc < end {
                let delta = (doc - start) as usize;
                let score = scorer.score();
                let (word, bit) = (delta / 64, 1u64 << (delta % 64));
                if window.bits[word] & bit == 0 {
                    window.bits[word] |= bit;
                    window.best[delta] = score;
                    window.sum[delta] = score;
                } else {
                    window.best[delta] = window.best[delta].max(score);
                    window.sum[delta] += score;
                }
                doc = scorer.advance();
            }
        }
        self.scorers.retain(|scorer| scorer.doc() != TERMINATED);
        self.buffered = true;
        self.doc = start;
        start
    }

    /// Buffered: the first buffered document at or after `from`, else the next window.
    fn next_buffered(&mut self, from: DocId) -> DocId {
        if let Some(window) = &self.window {
            let end = window.start.saturating_add(WINDOW);
            if from < end {
                let delta = (from - window.start) as usize;
                let mut word = delta / 64;
                let mut bits = window.bits[word] & (u64::MAX << (delta % 64));
                loop {
                    if bits != 0 {
                        self.doc = window.start + (word * 64) as u32 + bits.trailing_zeros();
                        return self.doc;
                    }
                    word += 1;
                    if word == WINDOW_WORDS {
                        break;
                    }
                    bits = window.bits[word];
                }
            }
        }
        match self.scorers.iter().map(|scorer| scorer.doc()).min() {
            Some(next) => self.fill(next),
            None => {
                self.doc = TERMINATED;
                TERMINATED
            }
        }
    }
}

impl<S: Scorer> DocSet for AnyFieldScorer<S> {
    fn advance(&mut self) -> DocId {
        if self.doc == TERMINATED {
            return TERMINATED;
        }
        if self.buffered {
            return self.next_buffered(self.doc + 1);
        }
        let current = self.doc;
        for scorer in &mut self.scorers {
            if scorer.doc() == current {
                scorer.advance();
            }
        }
        self.near_moves += 1;
        let next = self.settle();
        self.buffer_if_dense(next)
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc >= target {
            return self.doc;
        }
        let mut stay_buffered = false;
        if self.buffered {
            let window_end = self
                .window
                .as_ref()
                .map_or(0, |window| window.start.saturating_add(WINDOW));
            if target < window_end {
                return self.next_buffered(target);
            }
            // Just past the window: the union is being walked, so buffer on. Far past
            // it: back to seeking each field.
            stay_buffered = target - window_end < WINDOW;
            self.buffered = false;
        }
        if target - self.doc < NEAR {
            self.near_moves += 1;
        } else {
            self.near_moves = 0;
        }
        for scorer in &mut self.scorers {
            if scorer.doc() < target {
                scorer.seek(target);
            }
        }
        let next = self.settle();
        if stay_buffered && next != TERMINATED {
            return self.fill(next);
        }
        self.buffer_if_dense(next)
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.scorers
            .iter()
            .map(|scorer| scorer.size_hint())
            .fold(0u32, u32::saturating_add)
    }

    fn cost(&self) -> u64 {
        self.scorers.iter().map(|scorer| scorer.cost()).sum()
    }
}

impl<S: Scorer> Scorer for AnyFieldScorer<S> {
    fn score(&mut self) -> Score {
        let current = self.doc;
        let (best, sum) = match (&self.window, self.buffered) {
            (Some(window), true) => {
                let delta = (current - window.start) as usize;
                (window.best[delta], window.sum[delta])
            }
            _ => {
                let mut best: Score = 0.0;
                let mut sum: Score = 0.0;
                for scorer in &mut self.scorers {
                    if scorer.doc() == current {
                        let score = scorer.score();
                        best = best.max(score);
                        sum += score;
                    }
                }
                (best, sum)
            }
        };
        best + (sum - best) * self.tie_breaker
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::collector::{Count, TopDocs};
    use tantivy::query::{BoostQuery, DisjunctionMaxQuery};
    use tantivy::schema::{Schema, TEXT};
    use tantivy::{Index, IndexWriter, TantivyDocument, doc};

    /// Against tantivy's `DisjunctionMaxQuery` (the same scores by another
    /// implementation): alone (a scan, buffered), after a rare term in a conjunction
    /// (far seeks, lazy) and next to a dense one (near seeks); with plain terms only
    /// ("even") and with a boosted field.
    #[test]
    fn matches_and_scores_as_disjunction_max() {
        let mut builder = Schema::builder();
        let fields: Vec<_> = (0..4)
            .map(|n| builder.add_text_field(&format!("f{n}"), TEXT))
            .collect();
        let index = Index::create_in_ram(builder.build());
        let mut writer: IndexWriter = index.writer(15_000_000).unwrap();
        let mut state = 7u64;
        for number in 0..20_000u64 {
            let mut document = TantivyDocument::default();
            for field in &fields {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let mut words = Vec::new();
                if state >> 60 < 3 {
                    words.push("common");
                }
                if (state >> 20).is_multiple_of(97) {
                    words.push("rare");
                }
                words.push(if number % 2 == 0 { "even" } else { "odd" });
                document.add_text(*field, words.join(" "));
            }
            writer.add_document(document).unwrap();
        }
        writer
            .add_document(doc!(fields[0] => "nothing here"))
            .unwrap();
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        // The first field's query boosted: a field query other than a plain term takes
        // the dynamically dispatched path.
        let per_field = |word: &str| -> Vec<Box<dyn Query>> {
            fields
                .iter()
                .enumerate()
                .map(|(number, field)| {
                    let term: Box<dyn Query> = Box::new(TermQuery::new(
                        Term::from_field_text(*field, word),
                        IndexRecordOption::WithFreqs,
                    ));
                    if number == 0 && word != "even" {
                        Box::new(BoostQuery::new(term, 1.7)) as Box<dyn Query>
                    } else {
                        term
                    }
                })
                .collect()
        };
        let conjunction = |first: &str, make: &dyn Fn(&str) -> Box<dyn Query>| -> Box<dyn Query> {
            Box::new(tantivy::query::BooleanQuery::intersection(vec![
                make(first),
                make("common"),
            ]))
        };
        let ours =
            |word: &str| -> Box<dyn Query> { Box::new(AnyFieldQuery::new(per_field(word), 0.3)) };
        let theirs = |word: &str| -> Box<dyn Query> {
            Box::new(DisjunctionMaxQuery::with_tie_breaker(per_field(word), 0.3))
        };
        for (mine, reference) in [
            (ours("common"), theirs("common")),
            (conjunction("rare", &ours), conjunction("rare", &theirs)),
            (conjunction("even", &ours), conjunction("even", &theirs)),
        ] {
            let top = || TopDocs::with_limit(50_000).order_by_score();
            let (found, count) = searcher.search(mine.as_ref(), &(top(), Count)).unwrap();
            let (expected, expected_count) = searcher
                .search(reference.as_ref(), &(top(), Count))
                .unwrap();
            assert!(count > 100, "{count}");
            assert_eq!(count, expected_count);
            let mut found: Vec<_> = found.into_iter().map(|(s, a)| (a, s)).collect();
            let mut expected: Vec<_> = expected.into_iter().map(|(s, a)| (a, s)).collect();
            found.sort_by_key(|(address, _)| *address);
            expected.sort_by_key(|(address, _)| *address);
            for ((address, score), (expected_address, expected_score)) in
                found.iter().zip(&expected)
            {
                assert_eq!(address, expected_address);
                assert!(
                    (score - expected_score).abs() < 1e-4,
                    "{score} {expected_score}"
                );
            }
        }
    }
}
