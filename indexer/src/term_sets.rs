//! Queries matching any of a set of terms: the filters of a search.

use tantivy::Term;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery, TermSetQuery};
use tantivy::schema::{Field, IndexRecordOption};
use uuid::Uuid;

/// Documents holding any of `terms`. A handful of terms (languages, genres, countries)
/// is a union of term queries; tantivy's `TermSetQuery` builds an automaton and a bit
/// set over every document of a segment on each search, which pays only for many terms.
pub(crate) fn any_term(terms: impl IntoIterator<Item = Term>) -> Box<dyn Query> {
    const UNION_UP_TO: usize = 16;
    let terms: Vec<Term> = terms.into_iter().collect();
    if terms.len() > UNION_UP_TO {
        return Box::new(TermSetQuery::new(terms));
    }
    Box::new(BooleanQuery::new(
        terms
            .into_iter()
            .map(|term| {
                let query: Box<dyn Query> =
                    Box::new(TermQuery::new(term, IndexRecordOption::Basic));
                (Occur::Should, query)
            })
            .collect(),
    ))
}

pub(crate) fn id_set(field: Field, ids: &[Uuid]) -> Box<dyn Query> {
    any_term(
        ids.iter()
            .map(|id| Term::from_field_text(field, &id.to_string())),
    )
}

/// A query matching episodes (or chunks) of the given podcasts.
pub fn podcast_id_set(field: Field, ids: &[Uuid]) -> Box<dyn Query> {
    id_set(field, ids)
}
