//! Relevance of Podlens search against two baselines on the real feeds of
//! ../shared/corpus, over judged queries (`queries.tsv`, `judgments.tsv`).
//!
//! ```text
//! cargo bench -p podlens-indexer --bench search_relevance            # RESULTS.md
//! cargo bench -p podlens-indexer --bench search_relevance -- pool F  # pools to judge
//! ```
//!
//! Podlens runs each query as the web app and the API send it (one term, the default
//! targets, `matchMode` optional, relevance order); the baselines are SQLite FTS5 BM25
//! with the words OR'd and tantivy's `QueryParser` defaults over the same titles,
//! descriptions (and, for episodes, transcripts). See README.md.

mod corpus;
mod metrics;
mod peers;
#[path = "../search/random.rs"]
#[allow(dead_code)]
mod random;

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use podlens_indexer::text_language::search_language;
use podlens_indexer::{
    BuildOptions, EpisodeText, Hits, IndexReaderHandle, IndexSource, MatchMode, RelatedMethod,
    SearchMode, SearchRequest, SearchTerm, Target, VectorModel, build_generation,
    declared_language, newest_first,
};
use serde_json::json;
use uuid::Uuid;

use crate::corpus::Corpus;
use crate::metrics::Grades;
use crate::peers::{Fts5, Parser, PeerDoc};

const DEPTH: usize = 100;
const POOL_DEPTH: usize = 20;
const SYSTEMS: [&str; 3] = ["podlens", "fts5", "queryparser"];

#[derive(Debug, Clone)]
struct Query {
    id: String,
    mode: SearchMode,
    kind: String,
    text: String,
    intent: String,
}

impl Query {
    /// Two thirds of the queries tune, one third is held back (by a hash of the id).
    fn held_back(&self) -> bool {
        let hash = self
            .id
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| {
                (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
            });
        hash % 3 == 0
    }
}

fn bench_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../benches/relevance")
}

fn read_queries(path: &Path) -> Vec<Query> {
    let text = std::fs::read_to_string(path).expect("queries.tsv");
    text.lines()
        .skip(1)
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            assert!(cells.len() >= 5, "bad query line: {line}");
            Query {
                id: cells[0].to_owned(),
                mode: match cells[1] {
                    "episodes" => SearchMode::Episodes,
                    _ => SearchMode::Podcasts,
                },
                kind: cells[2].to_owned(),
                text: cells[3].to_owned(),
                intent: cells[4].to_owned(),
            }
        })
        .collect()
}

/// query id → judged key → grade.
fn read_judgments(path: &Path) -> HashMap<String, Grades> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return HashMap::new();
    };
    let mut out: HashMap<String, Grades> = HashMap::new();
    for line in text.lines().skip(1).filter(|line| !line.trim().is_empty()) {
        let cells: Vec<&str> = line.split('\t').collect();
        if cells.len() < 3 {
            continue;
        }
        let grade: u8 = cells[2].trim().parse().expect("grade 0, 1 or 2");
        out.entry(cells[0].to_owned())
            .or_default()
            .insert(cells[1].to_owned(), grade.min(2));
    }
    out
}

fn static_model() -> Option<VectorModel> {
    let dir = std::env::var_os("PODLENS_STATIC_MODEL")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .map(|home| Path::new(&home).join(".cache/podlens-models/static-mpnet-768"))
        })?;
    VectorModel::load(&dir).ok()
}

/// Podlens's request for a query, as the web app sends it.
fn podlens_request(query: &Query) -> SearchRequest {
    let targets = match query.mode {
        SearchMode::Podcasts => vec![Target::PodcastTitle, Target::PodcastDescription],
        SearchMode::Episodes => vec![
            Target::EpisodeTitle,
            Target::EpisodeDescription,
            Target::Transcript,
        ],
    };
    let mut request = SearchRequest {
        mode: Some(query.mode),
        terms: vec![SearchTerm {
            text: query.text.clone(),
            targets,
            match_mode: MatchMode::Optional,
            ..SearchTerm::default()
        }],
        page_size: DEPTH,
        snippets: false,
        // RELEVANCE_HYBRID=0 measures keyword order alone (the default fuses, as the API).
        hybrid: std::env::var("RELEVANCE_HYBRID").map_or(true, |value| value != "0"),
        ..SearchRequest::default()
    };
    // As the API's engine does: the encoder's vector of the words, for podcast search.
    if let Some(encoder) = encoder()
        && let Some(text) = request.encoder_text()
    {
        request.encoded_query = Some(encoder.query(&text).expect("the encoder embeds"));
    }
    request
}

/// The multilingual encoder when it is installed, unless `RELEVANCE_ENCODER=0` (which
/// measures the static vectors alone).
fn encoder() -> Option<std::sync::Arc<podlens_indexer::embedding::Encoder>> {
    if std::env::var("RELEVANCE_ENCODER").is_ok_and(|value| value == "0") {
        return None;
    }
    podlens_indexer::embedding::Encoder::shared()
}

struct Systems {
    handle: IndexReaderHandle,
    podcast_peers: (Fts5, Parser),
    episode_peers: (Fts5, Parser),
    vectors: bool,
}

impl Systems {
    fn build(corpus: &Corpus, dir: &Path) -> Systems {
        let model = static_model();
        let vectors = model.is_some();
        let options = BuildOptions {
            vectors: model,
            encoder: encoder(),
            ..BuildOptions::default()
        };
        let source = IndexSource {
            podcasts: &corpus.podcasts,
            episodes: &corpus.episodes,
            transcripts: &corpus.transcripts,
            persons: &corpus.persons,
            signals: Some(&corpus.signals),
        };
        let index_dir = dir.join("index");
        build_generation(&index_dir, source, &options).expect("index builds");
        let handle = IndexReaderHandle::open(&index_dir).expect("index opens");
        let podcast_docs: Vec<PeerDoc> = corpus
            .podcasts
            .iter()
            .map(|podcast| PeerDoc {
                key: corpus.podcast_key[&podcast.podcast_id].clone(),
                fields: vec![
                    podcast.podcast_rss_title.clone(),
                    podcast
                        .podcast_rss_description_no_html
                        .clone()
                        .unwrap_or_default(),
                ],
            })
            .collect();
        let transcripts: HashMap<Uuid, &str> = corpus
            .transcripts
            .iter()
            .map(|t| (t.episode_id, t.transcript_text.as_str()))
            .collect();
        let episode_docs: Vec<PeerDoc> = corpus
            .episodes
            .iter()
            .map(|episode| PeerDoc {
                key: corpus.episode_key[&episode.episode_id].clone(),
                fields: vec![
                    episode.episode_rss_title.clone(),
                    episode
                        .episode_rss_description_no_html
                        .clone()
                        .unwrap_or_default(),
                    transcripts
                        .get(&episode.episode_id)
                        .copied()
                        .unwrap_or_default()
                        .to_owned(),
                ],
            })
            .collect();
        let podcast_fields = ["title", "description"];
        let episode_fields = ["title", "description", "transcript"];
        Systems {
            handle,
            podcast_peers: (
                Fts5::new(&podcast_fields, &podcast_docs).expect("fts5"),
                Parser::new(&podcast_fields, &podcast_docs).expect("parser"),
            ),
            episode_peers: (
                Fts5::new(&episode_fields, &episode_docs).expect("fts5"),
                Parser::new(&episode_fields, &episode_docs).expect("parser"),
            ),
            vectors,
        }
    }

    /// The ranked keys of one system for one query.
    fn run(&self, corpus: &Corpus, system: &str, query: &Query) -> Vec<String> {
        let (fts5, parser) = match query.mode {
            SearchMode::Podcasts => &self.podcast_peers,
            SearchMode::Episodes => &self.episode_peers,
        };
        match system {
            "fts5" => fts5.search(&query.text, DEPTH).expect("fts5 query"),
            "queryparser" => parser.search(&query.text, DEPTH).expect("parser query"),
            _ => {
                let response = match self.handle.search(&podlens_request(query)) {
                    Ok(response) => response,
                    Err(error) => {
                        eprintln!("podlens refused {:?}: {error}", query.text);
                        return Vec::new();
                    }
                };
                keyed_hits(corpus, response.hits)
                    .into_iter()
                    .map(|(key, _)| key)
                    .collect()
            }
        }
    }
}

/// Each hit's document key (hits outside the corpus left out) and its explanation.
fn keyed_hits(corpus: &Corpus, hits: Hits) -> Vec<(String, Option<serde_json::Value>)> {
    let (keys, hits): (_, Vec<_>) = match hits {
        Hits::Podcasts(hits) => (
            &corpus.podcast_key,
            hits.into_iter()
                .map(|h| (h.podcast_id, h.explanation))
                .collect(),
        ),
        Hits::Episodes(hits) => (
            &corpus.episode_key,
            hits.into_iter()
                .map(|h| (h.episode_id, h.explanation))
                .collect(),
        ),
    };
    hits.into_iter()
        .filter_map(|(id, explanation)| Some((keys.get(&id)?.clone(), explanation)))
        .collect()
}

/// Podlens's top 50 for the queries `ids`, with each hit's fused, keyword and vector
/// scores; `EXPLAIN_KEY=KEY` also prints that document's whole keyword explanation.
fn write_explanations(corpus: &Corpus, systems: &Systems, queries: &[Query], ids: &[String]) {
    let full = std::env::var("EXPLAIN_KEY").unwrap_or_default();
    for id in ids {
        let Some(query) = queries.iter().find(|q| &q.id == id) else {
            eprintln!("no query {id}");
            continue;
        };
        let request = SearchRequest {
            explain: true,
            page_size: 50,
            ..podlens_request(query)
        };
        let response = systems.handle.search(&request).expect("search");
        println!("{} {:?}", query.id, query.text);
        for (rank, (key, explanation)) in keyed_hits(corpus, response.hits).into_iter().enumerate()
        {
            let explanation = explanation.unwrap_or_default();
            let fusion = &explanation["fusion"];
            println!(
                "  {:>2} {key} fused {} keyword {} similarity {}",
                rank + 1,
                fusion["fused"],
                fusion["keywordScore"],
                fusion["similarity"]
            );
            if key == full {
                println!("    {}", explanation["keyword"]);
            }
        }
    }
}

/// What a judge reads about a podcast or an episode.
fn describe(corpus: &Corpus, key: &str, mode: SearchMode) -> serde_json::Value {
    match mode {
        SearchMode::Podcasts => {
            let Some(podcast) = corpus
                .podcasts
                .iter()
                .find(|p| corpus.podcast_key[&p.podcast_id] == key)
            else {
                return json!({ "key": key });
            };
            json!({ "key": key, "title": podcast.podcast_rss_title, "language": podcast.rss_language })
        }
        SearchMode::Episodes => {
            let Some(episode) = corpus
                .episodes
                .iter()
                .find(|e| corpus.episode_key[&e.episode_id] == key)
            else {
                return json!({ "key": key });
            };
            let description: String = episode
                .episode_rss_description_no_html
                .as_deref()
                .unwrap_or_default()
                .chars()
                .take(500)
                .collect();
            let transcript = corpus
                .transcripts
                .iter()
                .find(|t| t.episode_id == episode.episode_id)
                .map(|t| t.source.clone());
            json!({
                "key": key,
                "podcast": episode.episode_podcast_title_denormalized,
                "title": episode.episode_rss_title,
                "description": description,
                "transcriptFile": transcript,
            })
        }
    }
}

fn write_pool(corpus: &Corpus, systems: &Systems, queries: &[Query], out: &Path) {
    let judged = read_judgments(&bench_dir().join("judgments.tsv"));
    let mut pools = Vec::new();
    for query in queries {
        let mut keys: Vec<String> = Vec::new();
        for system in SYSTEMS {
            for key in systems
                .run(corpus, system, query)
                .into_iter()
                .take(POOL_DEPTH)
            {
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
        }
        let already = judged.get(&query.id);
        let unjudged: Vec<serde_json::Value> = keys
            .iter()
            .filter(|key| already.is_none_or(|grades| !grades.contains_key(*key)))
            .map(|key| describe(corpus, key, query.mode))
            .collect();
        pools.push(json!({
            "id": query.id,
            "mode": if query.mode == SearchMode::Podcasts { "podcasts" } else { "episodes" },
            "query": query.text,
            "intent": query.intent,
            "toJudge": unjudged,
        }));
    }
    std::fs::write(out, serde_json::to_string_pretty(&pools).expect("json")).expect("pool written");
    let count: usize = pools
        .iter()
        .map(|pool| pool["toJudge"].as_array().map_or(0, Vec::len))
        .sum();
    println!(
        "{count} documents to judge for {} queries -> {}",
        pools.len(),
        out.display()
    );
}

/// Per-query figures of one system.
#[derive(Debug, Clone, Default)]
struct Figures {
    ndcg: f64,
    reciprocal_rank: f64,
    recall: f64,
    zero: bool,
    /// Share of the top 10 that is judged.
    judged_top10: f64,
}

fn figures(corpus: &Corpus, query: &Query, ranked: &[String], grades: &Grades) -> Figures {
    // Podcast results count once per show (dated copies of one feed are one show); the
    // judgments are keyed by feed file, so a copy takes its show's grade.
    let identity = |key: &str| -> String {
        match query.mode {
            SearchMode::Podcasts => corpus
                .show_of
                .get(key)
                .cloned()
                .unwrap_or_else(|| key.to_owned()),
            SearchMode::Episodes => key.to_owned(),
        }
    };
    let show_grades: Grades = grades.iter().fold(Grades::new(), |mut out, (key, grade)| {
        let slot = out.entry(identity(key)).or_insert(0);
        *slot = (*slot).max(*grade);
        out
    });
    let gained = metrics::gains(ranked, &show_grades, &identity);
    let top = ranked.iter().take(10).count();
    let judged = ranked
        .iter()
        .take(10)
        .filter(|key| grades.contains_key(*key))
        .count();
    Figures {
        ndcg: metrics::ndcg(&gained, &show_grades, 10),
        reciprocal_rank: metrics::reciprocal_rank(&gained),
        recall: metrics::recall(&gained, &show_grades, DEPTH),
        zero: ranked.is_empty(),
        judged_top10: if top == 0 {
            1.0
        } else {
            judged as f64 / top as f64
        },
    }
}

fn evaluate(corpus: &Corpus, systems: &Systems, queries: &[Query]) -> String {
    let judgments = read_judgments(&bench_dir().join("judgments.tsv"));
    // Queries without a relevant document in the catalog have no nDCG: counted apart.
    let relevant = |query: &Query| {
        judgments
            .get(&query.id)
            .is_some_and(|grades| grades.values().any(|grade| *grade > 0))
    };
    let judged: Vec<&Query> = queries.iter().filter(|query| relevant(query)).collect();
    let without: Vec<&Query> = queries.iter().filter(|query| !relevant(query)).collect();
    // system → query id → figures
    let mut results: BTreeMap<&str, HashMap<String, Figures>> = BTreeMap::new();
    let mut timings: Vec<f64> = Vec::new();
    for query in &judged {
        for system in SYSTEMS {
            let started = std::time::Instant::now();
            let ranked = systems.run(corpus, system, query);
            if system == "podlens" {
                timings.push(started.elapsed().as_secs_f64() * 1e3);
            }
            results.entry(system).or_default().insert(
                query.id.clone(),
                figures(corpus, query, &ranked, &judgments[&query.id]),
            );
        }
    }
    let mut out = String::new();
    let vectors = if systems.vectors {
        "with the static embedding model's vectors"
    } else {
        "without vectors (no static model installed)"
    };
    let _ = writeln!(
        out,
        "Catalog: {} podcasts, {} episodes, {} transcripts; Podlens index {vectors}. {} judged queries ({} podcast, {} episode).\n",
        corpus.podcasts.len(),
        corpus.episodes.len(),
        corpus.transcripts.len(),
        judged.len(),
        judged
            .iter()
            .filter(|q| q.mode == SearchMode::Podcasts)
            .count(),
        judged
            .iter()
            .filter(|q| q.mode == SearchMode::Episodes)
            .count(),
    );
    let relabelled = searched_in_another_language(corpus);
    let _ = writeln!(
        out,
        "Shows searched in another language than their feed declares (`indexer/src/text_language.rs`): {}.\n",
        if relabelled.is_empty() {
            "none".to_owned()
        } else {
            relabelled.join(", ")
        }
    );
    let _ = writeln!(
        out,
        "{} more queries have no relevant document in the catalog ({}); they are left out of the figures below.\n",
        without.len(),
        without
            .iter()
            .map(|q| format!("\"{}\"", q.text))
            .collect::<Vec<_>>()
            .join(", "),
    );
    for (mode, mode_name) in [
        (SearchMode::Podcasts, "Podcast search"),
        (SearchMode::Episodes, "Episode search"),
    ] {
        for (split_name, held_back) in [("tuning split", false), ("held-back split", true)] {
            let subset: Vec<&&Query> = judged
                .iter()
                .filter(|q| q.mode == mode && q.held_back() == held_back)
                .collect();
            if subset.is_empty() {
                continue;
            }
            let _ = writeln!(
                out,
                "### {mode_name}, {split_name} ({} queries)\n",
                subset.len()
            );
            let _ = writeln!(
                out,
                "| system | nDCG@10 [95% CI] | MRR | recall@100 | zero results | top-10 judged |"
            );
            let _ = writeln!(out, "|---|---|---:|---:|---:|---:|");
            let per_system = |system: &str| -> Vec<Figures> {
                subset
                    .iter()
                    .map(|q| results[system][&q.id].clone())
                    .collect()
            };
            for system in SYSTEMS {
                let figures = per_system(system);
                let ndcg: Vec<f64> = figures.iter().map(|f| f.ndcg).collect();
                let (low, high) = metrics::bootstrap_interval(&ndcg, 7);
                let _ = writeln!(
                    out,
                    "| {} | {:.3} [{low:.3}, {high:.3}] | {:.3} | {:.3} | {} of {} | {:.0}% |",
                    system_name(system),
                    metrics::mean(&ndcg),
                    metrics::mean(
                        &figures
                            .iter()
                            .map(|f| f.reciprocal_rank)
                            .collect::<Vec<_>>()
                    ),
                    metrics::mean(&figures.iter().map(|f| f.recall).collect::<Vec<_>>()),
                    figures.iter().filter(|f| f.zero).count(),
                    figures.len(),
                    100.0
                        * metrics::mean(
                            &figures.iter().map(|f| f.judged_top10).collect::<Vec<_>>()
                        ),
                );
            }
            let ours: Vec<f64> = per_system("podlens").iter().map(|f| f.ndcg).collect();
            for peer in ["fts5", "queryparser"] {
                let theirs: Vec<f64> = per_system(peer).iter().map(|f| f.ndcg).collect();
                let compared = metrics::paired(&ours, &theirs, 11);
                let _ = writeln!(
                    out,
                    "\nPodlens − {}: nDCG@10 {:+.3} [95% CI {:+.3}, {:+.3}]; Podlens better on {}, equal on {}, worse on {} queries.",
                    system_name(peer),
                    compared.difference,
                    compared.interval.0,
                    compared.interval.1,
                    compared.wins,
                    compared.ties,
                    compared.losses,
                );
            }
            let _ = writeln!(out);
        }
    }
    // by kind
    let _ = writeln!(out, "### nDCG@10 by kind of query (both splits)\n");
    let _ = writeln!(
        out,
        "| mode | kind | queries | Podlens | FTS5 BM25 | QueryParser |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---:|---:|");
    let mut kinds: BTreeMap<(String, String), Vec<&Query>> = BTreeMap::new();
    for query in &judged {
        let mode = if query.mode == SearchMode::Podcasts {
            "podcasts"
        } else {
            "episodes"
        };
        kinds
            .entry((mode.to_owned(), query.kind.clone()))
            .or_default()
            .push(query);
    }
    for ((mode, kind), subset) in &kinds {
        let mean_of = |system: &str| {
            metrics::mean(
                &subset
                    .iter()
                    .map(|q| results[system][&q.id].ndcg)
                    .collect::<Vec<_>>(),
            )
        };
        let _ = writeln!(
            out,
            "| {mode} | {kind} | {} | {:.3} | {:.3} | {:.3} |",
            subset.len(),
            mean_of("podlens"),
            mean_of("fts5"),
            mean_of("queryparser")
        );
    }
    timings.sort_by(f64::total_cmp);
    if !timings.is_empty() {
        let _ = writeln!(
            out,
            "\nPodlens engine time per query (top {DEPTH}, this catalog): p50 {:.2} ms, p99 {:.2} ms.",
            timings[timings.len() / 2],
            timings[(timings.len() * 99 / 100).min(timings.len() - 1)]
        );
    }
    out
}

/// Per query: each system's nDCG@10 and Podlens's top 10 with their grades (for tuning).
fn write_details(corpus: &Corpus, systems: &Systems, queries: &[Query], out: &Path) {
    let judgments = read_judgments(&bench_dir().join("judgments.tsv"));
    let mut text = String::new();
    for query in queries {
        let Some(grades) = judgments.get(&query.id) else {
            continue;
        };
        if !grades.values().any(|grade| *grade > 0) {
            continue;
        }
        let mut line = format!(
            "{} [{}{}] {:?}",
            query.id,
            query.kind,
            if query.held_back() { ", held back" } else { "" },
            query.text
        );
        let mut podlens = Vec::new();
        for system in SYSTEMS {
            let ranked = systems.run(corpus, system, query);
            let figures = figures(corpus, query, &ranked, grades);
            let _ = write!(line, "  {system} {:.3}", figures.ndcg);
            if system == "podlens" {
                podlens = ranked;
            }
        }
        let _ = writeln!(text, "{line}");
        for key in podlens.iter().take(10) {
            let grade = grades.get(key).map_or("?".to_owned(), |g| g.to_string());
            let _ = writeln!(text, "    {grade} {key}");
        }
        let mut missing: Vec<(&String, &u8)> = grades
            .iter()
            .filter(|(key, grade)| **grade > 0 && !podlens.iter().take(10).any(|k| k == *key))
            .collect();
        missing.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (key, grade) in missing.iter().take(6) {
            let rank = podlens
                .iter()
                .position(|k| k == *key)
                .map_or("-".to_owned(), |r| (r + 1).to_string());
            let _ = writeln!(text, "    missing {grade} {key} (rank {rank})");
        }
    }
    std::fs::write(out, text).expect("details written");
}

fn system_name(system: &str) -> &'static str {
    match system {
        "podlens" => "Podlens",
        "fts5" => "SQLite FTS5 BM25 (words OR'd)",
        _ => "tantivy QueryParser (defaults)",
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let queries = read_queries(&bench_dir().join("queries.tsv"));
    let corpus = corpus::load();
    let dir = tempfile::tempdir().expect("temporary directory");
    let systems = Systems::build(&corpus, dir.path());
    match args.first().map(String::as_str) {
        Some("details") => {
            let out = args
                .get(1)
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from("details.txt"));
            write_details(&corpus, &systems, &queries, &out);
        }
        Some("explain") => write_explanations(&corpus, &systems, &queries, &args[1..]),
        Some("related") => println!("{}", related_report(&corpus, &systems, &queries)),
        Some("pool") => {
            let out = args
                .get(1)
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from("pool.json"));
            write_pool(&corpus, &systems, &queries, &out);
        }
        _ => {
            let report = evaluate(&corpus, &systems, &queries);
            println!("{report}");
            let results = bench_dir().join("RESULTS.md");
            let head = std::fs::read_to_string(&results).unwrap_or_default();
            let marker = "<!-- search_relevance writes everything below this line -->";
            let head = head
                .split(marker)
                .next()
                .unwrap_or_default()
                .trim_end()
                .to_owned();
            std::fs::write(&results, format!("{head}\n\n{marker}\n\n{report}"))
                .expect("RESULTS.md");
        }
    }
}

/// The show a "like" query names: its words after the asking words.
fn named_show(text: &str) -> &str {
    const ASKING: [&str; 6] = [
        "shows like ",
        "podcasts like ",
        "podcasts similar to ",
        "similar to ",
        "alternatives to ",
        "like ",
    ];
    ASKING
        .iter()
        .find_map(|asking| text.strip_prefix(asking))
        .unwrap_or(text)
}

/// Related podcasts (`/api/v1/podcasts/{id}/related`) judged with the "like" queries:
/// each query's named show (the first hit of a title search for its name) asks for its
/// related podcasts by each method, scored against the query's judgments without the
/// show itself, beside the "like" search's own ranking without it.
fn related_report(corpus: &Corpus, systems: &Systems, queries: &[Query]) -> String {
    let judgments = read_judgments(&bench_dir().join("judgments.tsv"));
    let generation = systems.handle.generation();
    // Without either, a method falls back to another and its row would be mislabelled.
    assert!(
        generation.model.is_some() && generation.manifest.encoder.is_some(),
        "related needs the static model (PODLENS_STATIC_MODEL) and the encoder's show vectors"
    );
    let methods = [
        ("text", RelatedMethod::Text),
        ("vectors", RelatedMethod::Vectors),
        ("fused (the API's)", RelatedMethod::Fused),
        ("show vectors", RelatedMethod::Shows),
        ("the \"like\" ranking of the title", RelatedMethod::Like),
        (
            "text and genres (without vectors)",
            RelatedMethod::TextAndGenres,
        ),
    ];
    let mut scores: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    let mut out = String::new();
    for query in queries.iter().filter(|query| query.kind == "like") {
        let Some(grades) = judgments.get(&query.id) else {
            continue;
        };
        let name = named_show(&query.text);
        let title_search = SearchRequest {
            mode: Some(SearchMode::Podcasts),
            terms: vec![SearchTerm {
                text: name.to_owned(),
                targets: vec![Target::PodcastTitle],
                match_mode: MatchMode::Optional,
                ..SearchTerm::default()
            }],
            page_size: 1,
            hybrid: false,
            snippets: false,
            ..SearchRequest::default()
        };
        let found = systems
            .handle
            .search(&title_search)
            .expect("a title search");
        let Some((named, named_key)) = keyed_ids(corpus, found.hits).into_iter().next() else {
            let _ = writeln!(out, "- {}: no show found for {name:?}", query.id);
            continue;
        };
        let show = |key: &str| {
            corpus
                .show_of
                .get(key)
                .cloned()
                .unwrap_or_else(|| key.to_owned())
        };
        let named_show = show(&named_key);
        let without: Grades = grades
            .iter()
            .filter(|(key, _)| show(key) != named_show)
            .map(|(key, grade)| (key.clone(), *grade))
            .collect();
        let others = |ranked: Vec<String>| -> Vec<String> {
            ranked
                .into_iter()
                .filter(|key| show(key) != named_show)
                .collect()
        };
        let searched = others(systems.run(corpus, "podlens", query));
        scores
            .entry("the \"like\" search")
            .or_default()
            .push(figures(corpus, query, &searched, &without).ndcg);
        for (label, method) in methods {
            let related = podlens_indexer::related_podcasts_with(&generation, named, 10, method)
                .expect("related podcasts");
            let ranked = others(
                keyed_hits(corpus, Hits::Podcasts(related))
                    .into_iter()
                    .map(|(key, _)| key)
                    .collect(),
            );
            scores
                .entry(label)
                .or_default()
                .push(figures(corpus, query, &ranked, &without).ndcg);
        }
        let _ = writeln!(out, "- {} {:?}: {named_key}", query.id, query.text);
    }
    let mut table = String::from(
        "| ranking | queries | nDCG@10 without the named show [95% CI] |\n|---|---:|---|\n",
    );
    for (label, values) in &scores {
        let (low, high) = metrics::bootstrap_interval(values, 52);
        let _ = writeln!(
            table,
            "| {label} | {} | {:.3} [{low:.3}, {high:.3}] |",
            values.len(),
            metrics::mean(values)
        );
    }
    for (ours, theirs) in [
        ("vectors", "fused (the API's)"),
        ("vectors", "show vectors"),
        ("the \"like\" search", "vectors"),
        ("the \"like\" ranking of the title", "vectors"),
        ("the \"like\" ranking of the title", "fused (the API's)"),
        ("text and genres (without vectors)", "text"),
    ] {
        let (Some(ours_scores), Some(theirs_scores)) = (scores.get(ours), scores.get(theirs))
        else {
            continue;
        };
        let compared = metrics::paired(ours_scores, theirs_scores, 11);
        let _ = writeln!(
            table,
            "\n{ours} − {theirs}: {:+.3} [95% CI {:+.3}, {:+.3}]; better on {}, equal on {}, worse on {} queries.",
            compared.difference,
            compared.interval.0,
            compared.interval.1,
            compared.wins,
            compared.ties,
            compared.losses
        );
    }
    format!("{table}\nNamed shows:\n{out}")
}

/// Each hit's id and document key (hits outside the corpus left out).
fn keyed_ids(corpus: &Corpus, hits: Hits) -> Vec<(Uuid, String)> {
    match hits {
        Hits::Podcasts(hits) => hits
            .into_iter()
            .filter_map(|hit| {
                Some((
                    hit.podcast_id,
                    corpus.podcast_key.get(&hit.podcast_id)?.clone(),
                ))
            })
            .collect(),
        Hits::Episodes(_) => Vec::new(),
    }
}

/// The feed files whose show the index searches in another language than the one its
/// feed declares, with both (`podlens_indexer::text_language`, on the same text as the
/// index build: each episode's title and description, newest first).
fn searched_in_another_language(corpus: &Corpus) -> Vec<String> {
    let mut texts: HashMap<Uuid, Vec<EpisodeText>> = HashMap::new();
    for episode in &corpus.episodes {
        texts
            .entry(episode.podcast_id)
            .or_default()
            .push(EpisodeText::of(episode, Vec::new()));
    }
    let mut found: Vec<String> = corpus
        .podcasts
        .iter()
        .filter_map(|podcast| {
            let episodes = texts
                .get_mut(&podcast.podcast_id)
                .map_or(&mut [][..], |texts| texts.as_mut_slice());
            newest_first(episodes);
            let declared = declared_language(podcast);
            let searched = search_language(podcast, episodes);
            (searched.as_deref() != declared).then(|| {
                format!(
                    "{} (declares {}, searched as {})",
                    corpus.podcast_key[&podcast.podcast_id],
                    declared.unwrap_or("nothing"),
                    searched.as_deref().unwrap_or("nothing")
                )
            })
        })
        .collect();
    found.sort();
    found
}
