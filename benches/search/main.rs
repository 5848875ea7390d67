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
//! `KINDS` (a subset of the query kinds, to profile them). With `shows` among the engines,
//! a second table: podcast search with and without the multilingual encoder's query
//! vector (`shows.rs`; `SHOW_TEXT_TOKENS`).

mod catalog;
mod podlens;
mod postgres;
mod queries;
mod random;
mod raw_tantivy;
mod report;
mod shows;
mod sqlite;

use std::path::{Path, PathBuf};
use std::time::Instant;

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
    /// What the report says of this engine (named `name`) beyond its timings.
    fn notes(&self, _name: &str) -> Vec<String> {
        Vec::new()
    }
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

/// An engine built and open, to be measured beside the others.
struct Contender {
    name: &'static str,
    build_seconds: f64,
    bytes: u64,
    engine: Box<dyn Engine>,
}

/// Every engine in turn: `rounds` rounds in which each engine runs an untimed warm-up
/// pass over the queries (the first round's gives the engines' answers) and a timed
/// pass, the engines taking turns in an order rotated from one round to the next. A
/// change in the machine's speed during the run then falls on every engine alike, so the
/// ratios between them are side by side in time, and each timed pass runs with its own
/// engine's data in the caches, as a server searching one index does (without the
/// warm-up, a pass after PostgreSQL's or SQLite's ran its first queries on what those had
/// left in memory).
fn measure(
    contenders: &mut [Contender],
    queries: &[BenchQuery],
    rounds: usize,
) -> Result<(Vec<EngineResult>, Vec<String>)> {
    for contender in contenders.iter_mut() {
        contender.engine.prepare(queries)?;
    }
    let mut counts = vec![Vec::with_capacity(queries.len()); contenders.len()];
    let mut latencies = vec![vec![Vec::with_capacity(rounds); queries.len()]; contenders.len()];
    for round in 0..rounds {
        for turn in 0..contenders.len() {
            let which = (turn + round) % contenders.len();
            let engine = &mut contenders[which].engine;
            for (index, query) in queries.iter().enumerate() {
                let total = engine.run(index, query)?;
                if round == 0 {
                    counts[which].push(total);
                }
            }
            for (index, query) in queries.iter().enumerate() {
                let started = Instant::now();
                let total = engine.run(index, query)?;
                latencies[which][index].push(started.elapsed());
                std::hint::black_box(total);
            }
        }
    }
    let mut results = Vec::new();
    let mut notes = Vec::new();
    for ((contender, counts), latencies) in contenders.iter().zip(counts).zip(latencies) {
        notes.extend(contender.engine.notes(contender.name));
        results.push(EngineResult::new(
            contender.name,
            contender.build_seconds,
            contender.bytes,
            counts,
            latencies,
        ));
    }
    Ok((results, notes))
}

fn keep_data() -> bool {
    std::env::var("KEEP_DATA").is_ok_and(|value| value == "1")
}

/// Removes an engine's files once measured (unless `KEEP_DATA=1`).
fn discard(path: &Path) {
    if keep_data() || !path.exists() {
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

/// Whether `ENGINES` (a comma-separated list of podlens, hybrid, tantivy, sqlite, postgres,
/// shows; default all) includes `name`.
fn selected(name: &str) -> bool {
    match std::env::var("ENGINES") {
        Ok(list) if !list.trim().is_empty() => list.split(',').any(|item| item.trim() == name),
        _ => true,
    }
}

fn podlens_contenders(dir: &Path, catalog: &Catalog) -> Result<Vec<Contender>> {
    let ((), seconds) = timed(|| podlens::build(dir, catalog, None))?;
    let bytes = directory_bytes(dir);
    eprintln!("podlens built in {seconds:.1} s");
    let mut contenders = Vec::new();
    for (name, snippets) in [("podlens", true), ("podlens, no snippets", false)] {
        contenders.push(Contender {
            name,
            build_seconds: seconds,
            bytes,
            engine: Box::new(podlens::Podlens::open(dir, snippets, false)?),
        });
    }
    Ok(contenders)
}

/// The same catalog indexed with vectors (the static model), searched as the API
/// searches by default: relevance order fuses keyword and vector rankings.
fn hybrid_contender(
    dir: &Path,
    catalog: &Catalog,
    notes: &mut Vec<String>,
) -> Result<Option<Contender>> {
    let Some(model_dir) = podlens::model_dir() else {
        notes.push("podlens hybrid skipped: neither PODLENS_STATIC_MODEL nor HOME is set".into());
        return Ok(None);
    };
    let model = match podlens_indexer::VectorModel::load(&model_dir) {
        Ok(model) => model,
        Err(error) => {
            notes.push(format!(
                "podlens hybrid skipped: no static model at {} ({error})",
                model_dir.display()
            ));
            return Ok(None);
        }
    };
    let ((), seconds) = timed(|| podlens::build(dir, catalog, Some(model)))?;
    let bytes = directory_bytes(dir);
    let vectors = podlens_indexer::read_manifest(dir)?
        .and_then(|manifest| manifest.vectors)
        .map_or(0, |vectors| vectors.count);
    eprintln!("podlens with vectors built in {seconds:.1} s");
    notes.push(format!(
        "podlens hybrid: index built with vectors in {seconds:.1} s ({vectors} vectors of \
         the static model {}, {:.0} MiB on disk with the indexes)",
        model_dir.display(),
        bytes as f64 / (1 << 20) as f64
    ));
    Ok(Some(Contender {
        name: "podlens hybrid",
        build_seconds: seconds,
        bytes,
        engine: Box::new(podlens::Podlens::open(dir, true, true)?),
    }))
}

/// Podcast search on a generation with static vectors and the encoder's show vectors:
/// without the encoder's query vector, with it embedded in the timed call, and with it
/// embedded before (`shows`). Each show's text is cut at `SHOW_TEXT_TOKENS` tokens
/// (default 24: the title, language and categories): at the encoder's 1,300 tokens a
/// second on two cores, the whole text of 50,000 shows would take most of an hour, and a
/// search's cost does not depend on the text a row was made of.
fn shows_contenders(
    dir: &Path,
    catalog: &Catalog,
    notes: &mut Vec<String>,
) -> Result<Vec<Contender>> {
    let Some(model) =
        podlens::model_dir().and_then(|dir| podlens_indexer::VectorModel::load(&dir).ok())
    else {
        notes.push("podcast search skipped: no static model".into());
        return Ok(Vec::new());
    };
    let Some(encoder) = podlens_indexer::embedding::Encoder::shared() else {
        notes.push(
            "podcast search skipped: the encoder is not installed (scripts/install-encoder.sh)"
                .into(),
        );
        return Ok(Vec::new());
    };
    let tokens = setting("SHOW_TEXT_TOKENS", 24);
    let ((), seconds) = timed(|| shows::build(dir, catalog, model, encoder.clone(), tokens))?;
    let bytes = directory_bytes(dir);
    let manifest = podlens_indexer::read_manifest(dir)?;
    let rows = manifest
        .as_ref()
        .and_then(|manifest| manifest.encoder.as_ref())
        .map_or(0, |encoder| encoder.count);
    eprintln!("podlens with show vectors built in {seconds:.1} s");
    notes.push(format!(
        "podcast search: index built with static vectors and {rows} show vectors (each \
         show's text cut at {tokens} tokens) in {seconds:.1} s, {:.0} MiB on disk; the \
         encoder {} with {} OpenMP threads a call",
        bytes as f64 / (1 << 20) as f64,
        encoder.dir().display(),
        encoder.team_threads(),
    ));
    let mut contenders = Vec::new();
    for (name, vectors) in [
        ("podcasts, static vectors", shows::QueryVectors::Static),
        ("podcasts, encoder, new query", shows::QueryVectors::New),
        (
            "podcasts, encoder, repeated query",
            shows::QueryVectors::Repeated,
        ),
    ] {
        contenders.push(Contender {
            name,
            build_seconds: seconds,
            bytes,
            engine: Box::new(shows::Shows::open(dir, encoder.clone(), vectors)?),
        });
    }
    Ok(contenders)
}

fn tantivy_contender(dir: &Path, catalog: &Catalog) -> Result<Contender> {
    let ((), seconds) = timed(|| raw_tantivy::build(dir, catalog))?;
    let bytes = directory_bytes(dir);
    eprintln!("tantivy built in {seconds:.1} s");
    Ok(Contender {
        name: "tantivy",
        build_seconds: seconds,
        bytes,
        engine: Box::new(raw_tantivy::RawTantivy::open(dir)?),
    })
}

fn sqlite_contenders(path: &Path, catalog: &Catalog) -> Result<Vec<Contender>> {
    let _ = std::fs::remove_file(path);
    let ((), seconds) = timed(|| sqlite::build(path, catalog))?;
    let bytes = directory_bytes(path);
    eprintln!("sqlite built in {seconds:.1} s");
    let mut contenders = Vec::new();
    for (name, snippets) in [("sqlite fts5", false), ("sqlite fts5, snippets", true)] {
        contenders.push(Contender {
            name,
            build_seconds: seconds,
            bytes,
            engine: Box::new(sqlite::Sqlite::open(path, snippets)?),
        });
    }
    Ok(contenders)
}

fn postgres_contender(connection: &str, catalog: &Catalog) -> Result<Contender> {
    let mut client = postgres::connect(connection)?;
    let ((), seconds) = timed(|| postgres::build(&mut client, catalog))?;
    eprintln!("postgres built in {seconds:.1} s");
    let bytes = postgres::size(&mut client)?;
    Ok(Contender {
        name: "postgres fts",
        build_seconds: seconds,
        bytes,
        engine: Box::new(postgres::Postgres::new(client, keep_data())),
    })
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
    // Every selected engine is built (and its files kept) before any is measured.
    let mut contenders = Vec::new();
    let mut notes = Vec::new();
    let mut paths = Vec::new();
    if selected("podlens") {
        paths.push(dir.join("podlens"));
        contenders.extend(podlens_contenders(&dir.join("podlens"), &catalog)?);
    }
    if selected("hybrid") {
        paths.push(dir.join("podlens-hybrid"));
        contenders.extend(hybrid_contender(
            &dir.join("podlens-hybrid"),
            &catalog,
            &mut notes,
        )?);
    }
    if selected("tantivy") {
        paths.push(dir.join("tantivy"));
        contenders.push(tantivy_contender(&dir.join("tantivy"), &catalog)?);
    }
    if selected("sqlite") {
        paths.push(dir.join("fts5.db"));
        contenders.extend(sqlite_contenders(&dir.join("fts5.db"), &catalog)?);
    }
    if selected("postgres") {
        match std::env::var("PG_CONNECTION") {
            Ok(connection) => contenders.push(postgres_contender(&connection, &catalog)?),
            Err(_) => notes.push("postgres skipped: PG_CONNECTION is not set".into()),
        }
    }
    let mut shows = if selected("shows") {
        paths.push(dir.join("podlens-shows"));
        shows_contenders(&dir.join("podlens-shows"), &catalog, &mut notes)?
    } else {
        Vec::new()
    };
    eprintln!("measuring {} engines side by side …", contenders.len());
    let measured = measure(&mut contenders, &queries, rounds);
    drop(contenders);
    let show_queries: Vec<BenchQuery> = queries
        .iter()
        .filter(|q| shows::searched(q))
        .cloned()
        .collect();
    let shows_measured = if shows.is_empty() {
        None
    } else {
        eprintln!("measuring podcast search, {} ways …", shows.len());
        Some(measure(&mut shows, &show_queries, rounds))
    };
    drop(shows);
    for path in &paths {
        discard(path);
    }
    let (results, engine_notes) = measured?;
    let results_empty = results.is_empty();
    for note in notes.iter().chain(&engine_notes) {
        report.note(note);
    }
    for result in results {
        report.add(result);
    }
    if results_empty {
        report.print_header();
    } else {
        report.print();
    }
    if let Some(measured) = shows_measured {
        let (results, notes) = measured?;
        report::print_shows(&results, &show_queries, &notes);
    }
    Ok(())
}
