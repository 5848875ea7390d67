//! A query whose explanation of a document it does not match is an error, never a seek
//! backwards.
//!
//! tantivy's boolean and phrase weights explain a document by seeking a fresh scorer to
//! it, and a scorer must not be sought to a document before its own (a debug assertion;
//! in release the answer is wrong). A clause that does not match the explained document
//! (a proximity bonus, a fuzzy alternative) can start past it. [`Guarded`] checks the
//! match first.

use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TantivyError, Term};

/// `query`, explained only where it matches.
#[derive(Debug)]
pub struct Guarded(Box<dyn Query>);

impl Guarded {
    pub fn new(query: Box<dyn Query>) -> Guarded {
        Guarded(query)
    }
}

impl Clone for Guarded {
    fn clone(&self) -> Guarded {
        Guarded(self.0.box_clone())
    }
}

impl Query for Guarded {
    fn weight(&self, enable_scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(GuardedWeight(self.0.weight(enable_scoring)?)))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.0.query_terms(visitor);
    }
}

struct GuardedWeight(Box<dyn Weight>);

/// Whether `weight` matches `doc`, without seeking any scorer backwards.
pub fn matches(weight: &dyn Weight, reader: &SegmentReader, doc: DocId) -> tantivy::Result<bool> {
    let mut scorer = weight.scorer(reader, 1.0)?;
    Ok(scorer.doc() <= doc && scorer.seek(doc) == doc)
}

impl Weight for GuardedWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        self.0.scorer(reader, boost)
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        if !matches(self.0.as_ref(), reader, doc)? {
            return Err(TantivyError::InvalidArgument(format!(
                "Document #({doc}) does not match"
            )));
        }
        self.0.explain(reader, doc)
    }
}
