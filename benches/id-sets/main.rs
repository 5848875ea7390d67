//! A set of ids as a filter: tantivy's `TermSetQuery` against a union of term queries
//! (`BooleanQuery` of `Should` `TermQuery`s), side by side in one run, on one index.
//!
//! Podlens filters by sets of podcast or episode ids: a hybrid podcast search holds its
//! 30 nearest podcasts per shard to the request's filters, and requests include or
//! exclude podcasts. `indexer/src/term_sets.rs` picks between the two queries by the
//! set's size from this table.
//!
//! The index: `DOCS` documents (default 50,000) with a UUID id, as a shard's podcasts or
//! episodes store it, in one segment. Each search counts the documents of `AllQuery`
//! that the set holds, as a filtered search intersects its filter; the query is built
//! inside the timed loop, as each search builds it.
//!
//! Run: `cargo bench --workspace --locked --bench id_sets` (`DOCS=…` to resize).

use std::time::{Duration, Instant};

use tantivy::collector::Count;
use tantivy::query::{AllQuery, BooleanQuery, Occur, Query, TermQuery, TermSetQuery};
use tantivy::schema::{IndexRecordOption, STRING, Schema};
use tantivy::{Index, Searcher, TantivyDocument, Term};
use uuid::Uuid;

const SIZES: [usize; 7] = [16, 30, 100, 300, 1_000, 5_000, 20_000];

fn main() {
    let docs: usize = std::env::var("DOCS")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(50_000);
    let mut builder = Schema::builder();
    let field = builder.add_text_field("id", STRING);
    let index = Index::create_in_ram(builder.build());
    let mut writer = index
        .writer_with_num_threads(1, 64 << 20)
        .expect("index writer");
    let ids: Vec<String> = (0..docs)
        .map(|n| {
            Uuid::from_u128(
                0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835u128.wrapping_mul(n as u128 + 1),
            )
            .to_string()
        })
        .collect();
    for id in &ids {
        let mut doc = TantivyDocument::default();
        doc.add_text(field, id);
        writer.add_document(doc).expect("add");
    }
    writer.commit().expect("commit");
    let searcher = index.reader().expect("reader").searcher();
    println!(
        "{docs} documents in {} segment(s); µs per filtered count, best of 3 passes",
        searcher.segment_readers().len()
    );
    println!();
    println!("| ids in the set | TermSetQuery µs | union of TermQuery µs | TermSetQuery ÷ union |");
    println!("|---:|---:|---:|---:|");
    for size in SIZES.into_iter().filter(|size| *size <= docs) {
        let terms: Vec<Term> = ids
            .iter()
            .step_by(docs / size)
            .take(size)
            .map(|id| Term::from_field_text(field, id))
            .collect();
        let set = || -> Box<dyn Query> { Box::new(TermSetQuery::new(terms.clone())) };
        let union = || -> Box<dyn Query> {
            Box::new(BooleanQuery::new(
                terms
                    .iter()
                    .map(|term| {
                        let query: Box<dyn Query> =
                            Box::new(TermQuery::new(term.clone(), IndexRecordOption::Basic));
                        (Occur::Should, query)
                    })
                    .collect(),
            ))
        };
        let rounds = (100_000 / size).clamp(20, 3_000);
        let (mut best_set, mut best_union) = (Duration::MAX, Duration::MAX);
        for _ in 0..3 {
            best_set = best_set.min(time(&searcher, &set, rounds, size));
            best_union = best_union.min(time(&searcher, &union, rounds, size));
        }
        println!(
            "| {size} | {:.1} | {:.1} | {:.1} |",
            micros(best_set),
            micros(best_union),
            best_set.as_secs_f64() / best_union.as_secs_f64()
        );
    }
}

/// The time of one search, over `rounds` of them; each must count `expected` documents.
fn time(
    searcher: &Searcher,
    make: &dyn Fn() -> Box<dyn Query>,
    rounds: usize,
    expected: usize,
) -> Duration {
    let start = Instant::now();
    for _ in 0..rounds {
        let query = BooleanQuery::new(vec![
            (Occur::Must, Box::new(AllQuery) as Box<dyn Query>),
            (Occur::Must, make()),
        ]);
        let count = searcher.search(&query, &Count).expect("search");
        assert_eq!(count, expected);
    }
    start.elapsed() / rounds as u32
}

fn micros(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e6
}
