//! Podlens search against its peers on one generated catalog: Podlens (the indexer's
//! generation, searched as the API searches a search box's text: any of its words,
//! BM25F over the fields), the same with vectors and hybrid ranking, a plain tantivy
//! index, SQLite FTS5 and PostgreSQL full-text search, on the same episodes and the same
//! 200 queries, every engine matching any of a query's words. Prints one table: build
//! throughput, index size, p50 / p99 / mean latency per query kind, result-count
//! agreement and the ratios the targets are stated in.
//!
//! Run through `benches/search/run.sh`, which starts a throwaway PostgreSQL. Settings
//! come from the environment: `EPISODES` (default 1,000,000), `BENCH_DIR`, `ROUNDS`
//! (timed passes over the mix after one warm-up pass, default 2), `PG_CONNECTION`
//! (libpq key/value string; unset: PostgreSQL is skipped), `ENGINES` (a subset) and
//! `KINDS` (a subset of the query kinds, to profile them).

mod catalog;
mod podlens;
mod postgres;
mod queries;
mod random;
mod raw_tantivy;
mod report;
mod sqlite;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use podlens_indexer::chunking::chunk_transcript;

use crate::catalog::Catalog;
use crate::queries::BenchQuery;
use crate::report::{EngineResult, Report};

/// The allocator `podlens serve` runs with (tools/src/main.rs), so Podlens is measured as
/// the server searches. The raw tantivy baseline shares it; SQLite and PostgreSQL
/// allocate through their own.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub type Result<T> = std::result::Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// Separates transcript chunks and fields in the SQL engines' single text values, so a
/// phrase does not match across a chunk boundary there either (tantivy leaves a
/// position gap between the values of a field). No query contains it.
pub const GAP_WORD: &str = "zzgap";

/// A search engine under test.
pub trait Engine {
    /// Work done once per query before timing (Podlens: the deep pages' cursors).
    fn prepare(&mut self, _queries: &[BenchQuery]) -> Result<()> {
        Ok(())
    }
    /// Runs query `index` and returns its total match count.
    fn run(&mut self, index: usize, query: &BenchQuery) -> Result<u64>;
}

/// One episode's text and columns, as the engines other than Podlens load them.
pub struct EpisodeText<'a> {
    pub number: u64,
    pub title: &'a str,
    pub description: &'a str,
    /// Podlens's own transcript chunks.
    pub chunks: Vec<String>,
    pub published_at: i64,
    pub has_transcript: bool,
    pub language: &'static str,
}

pub fn episode_texts(catalog: &Catalog) -> impl Iterator<Item = EpisodeText<'_>> {
    catalog
        .episodes
        .iter()
        .enumerate()
        .map(|(number, episode)| {
            let chunks = catalog.episode_transcripts[number]
                .map(|index| {
                    chunk_transcript(&catalog.transcripts[index])
                        .into_iter()
                        .map(|chunk| chunk.text)
                        .collect()
                })
                .unwrap_or_default();
            EpisodeText {
                number: number as u64,
                title: &episode.episode_rss_title,
                description: episode
                    .episode_rss_description_no_html
                    .as_deref()
                    .unwrap_or(""),
                chunks,
                published_at: episode
                    .episode_rss_published_at
                    .map(|date| date.timestamp())
                    .unwrap_or_default(),
                has_transcript: catalog.episode_transcripts[number].is_some(),
                language: catalog.episode_languages[number],
            }
        })
}

fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|value| value.replace('_', "").parse().ok())
        .unwrap_or(default)
}

fn directory_bytes(path: &Path) -> u64 {
    let Ok(metadata) = std::fs::metadata(path) else {
        return 0;
    };
    if metadata.is_file() {
        return metadata.len();
    }
    std::fs::read_dir(path)
        .map(|entries| {
            entries
                .flatten()
                .map(|entry| directory_bytes(&entry.path()))
                .sum()
        })
        .unwrap_or(0)
}

/// One warm-up pass (its counts are the engine's answers), then `rounds` timed passes.
fn measure(
    engine: &mut dyn Engine,
    queries: &[BenchQuery],
    rounds: usize,
) -> Result<(Vec<u64>, Vec<Vec<Duration>>)> {
    engine.prepare(queries)?;
    let mut counts = Vec::with_capacity(queries.len());
    for (index, query) in queries.iter().enumerate() {
        counts.push(engine.run(index, query)?);
    }
    let mut latencies = vec![Vec::with_capacity(rounds); queries.len()];
    for _ in 0..rounds {
        for (index, query) in queries.iter().enumerate() {
            let started = Instant::now();
            let total = engine.run(index, query)?;
            latencies[index].push(started.elapsed());
            std::hint::black_box(total);
        }
    }
    Ok((counts, latencies))
}

fn keep_data() -> bool {
    std::env::var("KEEP_DATA").is_ok_and(|value| value == "1")
}

/// Removes an engine's files once measured (unless `KEEP_DATA=1`), so the disk holds
/// one engine's index at a time.
fn discard(path: &Path) {
    if keep_data() {
        return;
    }
    let removed = if path.is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    };
    if let Err(error) = removed {
        eprintln!("could not remove {}: {error}", path.display());
    }
}

fn timed<T>(work: impl FnOnce() -> Result<T>) -> Result<(T, f64)> {
    let started = Instant::now();
    let value = work()?;
    Ok((value, started.elapsed().as_secs_f64()))
}

/// Whether `ENGINES` (a comma-separated list of podlens, hybrid, tantivy, sqlite,
/// postgres; default all) includes `name`.
fn selected(name: &str) -> bool {
    match std::env::var("ENGINES") {
        Ok(list) if !list.trim().is_empty() => list.split(',').any(|item| item.trim() == name),
        _ => true,
    }
}

fn run_podlens(
    dir: &Path,
    catalog: &Catalog,
    queries: &[BenchQuery],
    rounds: usize,
    report: &mut Report,
) -> Result<()> {
    let ((), seconds) = timed(|| podlens::build(dir, catalog, None))?;
    let bytes = directory_bytes(dir);
    eprintln!("podlens built in {seconds:.1} s");
    for (name, snippets) in [("podlens", true), ("podlens, no snippets", false)] {
        let mut engine = podlens::Podlens::open(dir, snippets, false)?;
        let (counts, latencies) = measure(&mut engine, queries, rounds)?;
        report.add(EngineResult::new(name, seconds, bytes, counts, latencies));
        eprintln!("{name} measured");
    }
    discard(dir);
    Ok(())
}

/// The same catalog indexed with vectors (the static model), searched as the API
/// searches by default: relevance order fuses keyword and vector rankings.
fn run_hybrid(
    dir: &Path,
    catalog: &Catalog,
    queries: &[BenchQuery],
    rounds: usize,
    report: &mut Report,
) -> Result<()> {
    let Some(model_dir) = podlens::model_dir() else {
        report.note("podlens hybrid skipped: neither PODLENS_STATIC_MODEL nor HOME is set");
        return Ok(());
    };
    let model = match podlens_indexer::VectorModel::load(&model_dir) {
        Ok(model) => model,
        Err(error) => {
            report.note(&format!(
                "podlens hybrid skipped: no static model at {} ({error})",
                model_dir.display()
            ));
            return Ok(());
        }
    };
    let ((), seconds) = timed(|| podlens::build(dir, catalog, Some(model)))?;
    let bytes = directory_bytes(dir);
    let vectors = podlens_indexer::read_manifest(dir)?
        .and_then(|manifest| manifest.vectors)
        .map_or(0, |vectors| vectors.count);
    eprintln!("podlens with vectors built in {seconds:.1} s");
    report.note(&format!(
        "podlens hybrid: index built with vectors in {seconds:.1} s ({vectors} vectors of \
         the static model {}, {:.0} MiB on disk with the indexes)",
        model_dir.display(),
        bytes as f64 / (1 << 20) as f64
    ));
    let name = "podlens hybrid";
    let mut engine = podlens::Podlens::open(dir, true, true)?;
    let (counts, latencies) = measure(&mut engine, queries, rounds)?;
    for note in engine.notes(name) {
        report.note(&note);
    }
    report.add(EngineResult::new(name, seconds, bytes, counts, latencies));
    eprintln!("{name} measured");
    drop(engine);
    discard(dir);
    Ok(())
}

fn run_tantivy(
    dir: &Path,
    catalog: &Catalog,
    queries: &[BenchQuery],
    rounds: usize,
    report: &mut Report,
) -> Result<()> {
    let ((), seconds) = timed(|| raw_tantivy::build(dir, catalog))?;
    let bytes = directory_bytes(dir);
    eprintln!("tantivy built in {seconds:.1} s");
    let mut engine = raw_tantivy::RawTantivy::open(dir)?;
    let (counts, latencies) = measure(&mut engine, queries, rounds)?;
    report.add(EngineResult::new(
        "tantivy", seconds, bytes, counts, latencies,
    ));
    drop(engine);
    discard(dir);
    Ok(())
}

fn run_sqlite(
    path: &Path,
    catalog: &Catalog,
    queries: &[BenchQuery],
    rounds: usize,
    report: &mut Report,
) -> Result<()> {
    let _ = std::fs::remove_file(path);
    let ((), seconds) = timed(|| sqlite::build(path, catalog))?;
    let bytes = directory_bytes(path);
    eprintln!("sqlite built in {seconds:.1} s");
    for (name, snippets) in [("sqlite fts5", false), ("sqlite fts5, snippets", true)] {
        let mut engine = sqlite::Sqlite::open(path, snippets)?;
        let (counts, latencies) = measure(&mut engine, queries, rounds)?;
        report.add(EngineResult::new(name, seconds, bytes, counts, latencies));
        eprintln!("{name} measured");
    }
    discard(path);
    Ok(())
}

fn run_postgres(
    connection: &str,
    catalog: &Catalog,
    queries: &[BenchQuery],
    rounds: usize,
    report: &mut Report,
) -> Result<()> {
    let mut client = postgres::connect(connection)?;
    let ((), seconds) = timed(|| postgres::build(&mut client, catalog))?;
    eprintln!("postgres built in {seconds:.1} s");
    let bytes = postgres::size(&mut client)?;
    let mut engine = postgres::Postgres::new(client);
    let (counts, latencies) = measure(&mut engine, queries, rounds)?;
    if !keep_data() {
        engine.drop_table()?;
    }
    report.add(EngineResult::new(
        "postgres fts",
        seconds,
        bytes,
        counts,
        latencies,
    ));
    Ok(())
}

fn main() -> Result<()> {
    // `cargo bench` passes `--bench`; nothing here takes arguments.
    let episodes = setting("EPISODES", 1_000_000);
    let rounds = setting("ROUNDS", 2).max(1);
    let dir = PathBuf::from(
        std::env::var("BENCH_DIR").unwrap_or_else(|_| "/tmp/podlens-search-bench".into()),
    );
    std::fs::create_dir_all(&dir)?;

    let (catalog, generate_seconds) = timed(|| Ok(catalog::generate(episodes, 2026)))?;
    let mut queries = queries::query_mix(&catalog, 7);
    // `KINDS` (labels, comma-separated: "two words,deep page") keeps only those kinds,
    // to profile them.
    if let Ok(kinds) = std::env::var("KINDS")
        && !kinds.trim().is_empty()
    {
        let kinds: Vec<&str> = kinds.split(',').map(str::trim).collect();
        queries.retain(|query| kinds.contains(&query.kind.label()));
    }
    eprintln!(
        "generated {} podcasts, {} episodes, {} transcripts in {generate_seconds:.1} s; {} queries",
        catalog.podcasts.len(),
        catalog.episodes.len(),
        catalog.transcripts.len(),
        queries.len()
    );
    let mut report = Report::new(&catalog, &queries, rounds);
    if selected("podlens") {
        run_podlens(
            &dir.join("podlens"),
            &catalog,
            &queries,
            rounds,
            &mut report,
        )?;
    }
    if selected("hybrid") {
        run_hybrid(
            &dir.join("podlens-hybrid"),
            &catalog,
            &queries,
            rounds,
            &mut report,
        )?;
    }
    if selected("tantivy") {
        run_tantivy(
            &dir.join("tantivy"),
            &catalog,
            &queries,
            rounds,
            &mut report,
        )?;
    }
    if selected("sqlite") {
        run_sqlite(
            &dir.join("fts5.db"),
            &catalog,
            &queries,
            rounds,
            &mut report,
        )?;
    }
    if selected("postgres") {
        match std::env::var("PG_CONNECTION") {
            Ok(connection) => run_postgres(&connection, &catalog, &queries, rounds, &mut report)?,
            Err(_) => report.note("postgres skipped: PG_CONNECTION is not set"),
        }
    }
    report.print();
    Ok(())
}
