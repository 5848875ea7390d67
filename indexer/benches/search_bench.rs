//! Indexing throughput and query latency on a generated catalog (the tests' generator,
//! scaled up): criterion for throughput and per-query-kind latency, and a plain pass over
//! a fixed query mix that prints p50 / p99.
//!
//! `cargo bench -p podlens-indexer --bench search_bench`; output in `search_bench.txt`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use podlens_indexer::{
    BuildOptions, IndexReaderHandle, IndexSource, MatchMode, SearchFilters, SearchMode,
    SearchRequest, SearchTerm, SortDirection, SortField, SortOrder, Target, build_generation,
};

const PODCASTS: usize = 3_000;

fn source(catalog: &common::Catalog) -> IndexSource<'_> {
    IndexSource {
        podcasts: &catalog.podcasts,
        episodes: &catalog.episodes,
        transcripts: &catalog.transcripts,
        persons: &[],
        signals: None,
    }
}

fn term(text: &str, targets: &[Target], mode: MatchMode, phrase: bool) -> SearchTerm {
    SearchTerm {
        text: text.into(),
        targets: targets.to_vec(),
        match_mode: mode,
        phrase,
        ..SearchTerm::default()
    }
}

/// The fixed query mix: terms, phrases, transcripts, filters, sorts.
fn query_mix() -> Vec<(&'static str, SearchRequest)> {
    let episode = [Target::EpisodeTitle, Target::EpisodeDescription];
    vec![
        (
            "podcast-title-term",
            SearchRequest {
                terms: vec![term(
                    "garden",
                    &[Target::PodcastTitle],
                    MatchMode::Must,
                    false,
                )],
                ..SearchRequest::default()
            },
        ),
        (
            "episode-two-terms",
            SearchRequest {
                terms: vec![term("rocket science", &episode, MatchMode::Must, false)],
                ..SearchRequest::default()
            },
        ),
        (
            "episode-phrase",
            SearchRequest {
                terms: vec![term("ocean music", &episode, MatchMode::Must, true)],
                ..SearchRequest::default()
            },
        ),
        (
            "transcript-with-snippets",
            SearchRequest {
                terms: vec![term(
                    "jazz poetry",
                    &[Target::Transcript],
                    MatchMode::Must,
                    true,
                )],
                ..SearchRequest::default()
            },
        ),
        (
            "filters-recent-sort",
            SearchRequest {
                mode: Some(SearchMode::Episodes),
                filters: SearchFilters {
                    languages: vec!["en".into()],
                    include_genres: vec!["science".into()],
                    has_transcript: Some(true),
                    ..SearchFilters::default()
                },
                sort: SortOrder {
                    field: SortField::RecentActivity,
                    direction: SortDirection::Desc,
                    ..SortOrder::default()
                },
                page_size: 25,
                ..SearchRequest::default()
            },
        ),
        (
            "podcast-title-sort",
            SearchRequest {
                mode: Some(SearchMode::Podcasts),
                terms: vec![term(
                    "music",
                    &[Target::PodcastDescription],
                    MatchMode::Optional,
                    false,
                )],
                sort: SortOrder {
                    field: SortField::Title,
                    direction: SortDirection::Asc,
                    ..SortOrder::default()
                },
                page_size: 50,
                ..SearchRequest::default()
            },
        ),
    ]
}

fn deep_page(handle: &IndexReaderHandle) -> SearchRequest {
    let mut request = SearchRequest {
        terms: vec![term(
            "coffee",
            &[Target::EpisodeDescription],
            MatchMode::Must,
            false,
        )],
        page_size: 20,
        ..SearchRequest::default()
    };
    for _ in 0..20 {
        match handle.search(&request).ok().and_then(|r| r.next_cursor) {
            Some(cursor) => request.cursor = Some(cursor),
            None => break,
        }
    }
    request
}

fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * fraction).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

fn benches(c: &mut Criterion) {
    let catalog = common::catalog(PODCASTS, 99);
    let documents = catalog.podcasts.len() + catalog.episodes.len();

    let mut group = c.benchmark_group("build");
    group.sample_size(10);
    group.throughput(Throughput::Elements(documents as u64));
    group.bench_function(BenchmarkId::new("full", documents), |b| {
        b.iter(|| {
            let dir = tempfile::tempdir().unwrap();
            build_generation(dir.path(), source(&catalog), &BuildOptions::default()).unwrap();
        })
    });
    group.finish();

    let dir = tempfile::tempdir().unwrap();
    build_generation(dir.path(), source(&catalog), &BuildOptions::default()).unwrap();
    let handle = IndexReaderHandle::open(dir.path()).unwrap();
    let mut mix = query_mix();
    mix.push(("deep-page-21", deep_page(&handle)));

    let mut group = c.benchmark_group("query");
    for (name, request) in &mix {
        group.bench_function(*name, |b| b.iter(|| handle.search(request).unwrap()));
    }
    group.bench_function("autocomplete", |b| {
        b.iter(|| handle.autocomplete("mou", 10).unwrap())
    });
    group.finish();

    // p50 / p99 over the whole mix, 200 rounds.
    let mut latencies = Vec::new();
    for _ in 0..200 {
        for (_, request) in &mix {
            let started = Instant::now();
            let response = handle.search(request).unwrap();
            latencies.push(started.elapsed());
            std::hint::black_box(response);
        }
    }
    latencies.sort();
    println!(
        "query mix over {} podcasts / {} episodes / {} transcripts, {} queries: p50 {:.3} ms, p99 {:.3} ms",
        catalog.podcasts.len(),
        catalog.episodes.len(),
        catalog.transcripts.len(),
        latencies.len(),
        percentile(&latencies, 0.50).as_secs_f64() * 1e3,
        percentile(&latencies, 0.99).as_secs_f64() * 1e3,
    );
}

criterion_group!(search_bench, benches);

fn main() {
    search_bench();
    Criterion::default().configure_from_args().final_summary();
}
