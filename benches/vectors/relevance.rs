//! Which related-podcasts method and which re-ranking weight, measured on the real feeds
//! of ../shared/corpus indexed with the static model:
//!
//! - related podcasts by text (more-like-this), by vector (centroids) and fused: the
//!   corpus holds several snapshots of the same show (same title, different files), so
//!   each snapshot's twin should come first (hit@1, hit@5, MRR); and precision@5 of
//!   sharing an iTunes category with the source podcast;
//! - semantic re-ranking of keyword episode hits: nDCG@10 of each weight's order, with
//!   gains from exact all-mpnet-base-v2 cosine between query and episode text (the
//!   model the static table is distilled from, as the judge).
//!
//! Writes benches/vectors/RELEVANCE.md. Run: `cargo bench -p podlens-indexer --bench vector_relevance`.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use chrono::Utc;
use podlens_indexer::embedding::{MpnetModel, cosine};
use podlens_indexer::{
    BuildOptions, Hits, IndexReaderHandle, IndexSource, MatchMode, RelatedMethod, SearchMode,
    SearchRequest, SearchTerm, Target, VectorModel, build_generation, related_podcasts_with,
};
use podlens_model::catalog::{EpisodeRecord, PodcastRecord};
use uuid::Uuid;

const QUERIES: &[&str] = &[
    "python programming",
    "linux desktop",
    "war and politics",
    "music and artists",
    "science and space",
    "economy and money",
    "history of europe",
    "health and medicine",
    "movies and cinema",
    "startup business",
    "climate change",
    "security and privacy",
    "sports news",
    "comedy and humor",
    "education and learning",
];

fn cache_root() -> PathBuf {
    std::env::var_os("HOME")
        .map(|home| Path::new(&home).join(".cache/podlens-models"))
        .unwrap_or_else(|| PathBuf::from(".cache/podlens-models"))
}

fn dcg(gains: &[f32]) -> f32 {
    gains
        .iter()
        .take(10)
        .enumerate()
        .map(|(i, g)| g / (i as f32 + 2.0).log2())
        .sum()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let corpus = repo.join("../shared/corpus");
    let Ok(model) = VectorModel::load(&cache_root().join("static-mpnet-768")) else {
        println!("skipping: no static model (run `podlens model build`)");
        return Ok(());
    };
    let now = Utc::now();
    let mut podcasts: Vec<PodcastRecord> = Vec::new();
    let mut episodes: Vec<EpisodeRecord> = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(corpus.join("feeds"))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .collect();
    names.sort();
    for path in &names {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let Ok(parsed) = podlens_ingest::parse_feed(&bytes, None) else {
            continue;
        };
        let url = format!("https://feeds.example.test/{}", path.display());
        let batch = podlens_ingest::normalize(&parsed, &url, now);
        if batch.podcast.podcast_rss_title.trim().is_empty() {
            continue;
        }
        podcasts.push(batch.podcast);
        episodes.extend(batch.episodes.into_iter().take(200));
    }
    let dir = tempfile::tempdir()?;
    let options = BuildOptions {
        vectors: Some(model.clone()),
        ..BuildOptions::default()
    };
    let source = IndexSource {
        podcasts: &podcasts,
        episodes: &episodes,
        transcripts: &[],
        persons: &[],
        signals: None,
    };
    build_generation(&dir.path().join("index"), source, &options)?;
    let handle = IndexReaderHandle::open(&dir.path().join("index"))?;
    let generation = handle.generation();

    // related podcasts
    let by_title: HashMap<String, Vec<Uuid>> =
        podcasts.iter().fold(HashMap::new(), |mut map, p| {
            map.entry(p.podcast_rss_title.trim().to_lowercase())
                .or_default()
                .push(p.podcast_id);
            map
        });
    let categories: HashMap<Uuid, BTreeSet<String>> = podcasts
        .iter()
        .map(|p| {
            (
                p.podcast_id,
                p.rss_categories.iter().map(|c| c.to_lowercase()).collect(),
            )
        })
        .collect();
    let mut related_rows = Vec::new();
    for method in [
        RelatedMethod::Text,
        RelatedMethod::Vectors,
        RelatedMethod::Fused,
    ] {
        let (mut twins, mut hit1, mut hit5, mut mrr) = (0, 0, 0, 0.0);
        let (mut judged, mut precision) = (0, 0.0);
        for podcast in &podcasts {
            let hits = related_podcasts_with(&generation, podcast.podcast_id, 10, method)?;
            let ids: Vec<Uuid> = hits.iter().map(|h| h.podcast_id).collect();
            let same: Vec<Uuid> = by_title[&podcast.podcast_rss_title.trim().to_lowercase()]
                .iter()
                .copied()
                .filter(|id| *id != podcast.podcast_id)
                .collect();
            if !same.is_empty() {
                twins += 1;
                if let Some(rank) = ids.iter().position(|id| same.contains(id)) {
                    hit1 += usize::from(rank == 0);
                    hit5 += usize::from(rank < 5);
                    mrr += 1.0 / (rank as f64 + 1.0);
                }
            }
            let own = &categories[&podcast.podcast_id];
            if !own.is_empty() {
                judged += 1;
                let top: Vec<&Uuid> = ids.iter().take(5).collect();
                if !top.is_empty() {
                    let shared = top
                        .iter()
                        .filter(|id| !categories[**id].is_disjoint(own))
                        .count();
                    precision += shared as f64 / top.len() as f64;
                }
            }
        }
        related_rows.push(format!(
            "| {method:?} | {twins} | {:.2} | {:.2} | {:.3} | {judged} | {:.3} |",
            hit1 as f64 / twins.max(1) as f64,
            hit5 as f64 / twins.max(1) as f64,
            mrr / twins.max(1) as f64,
            precision / judged.max(1) as f64
        ));
        eprintln!("{}", related_rows.last().unwrap());
    }

    // re-ranking, judged by exact MPNet
    let mpnet_dir = cache_root().join("all-mpnet-base-v2");
    let mut rerank_rows = Vec::new();
    if let Ok(mpnet) = MpnetModel::load(&mpnet_dir) {
        let texts: HashMap<Uuid, String> = episodes
            .iter()
            .map(|e| {
                (
                    e.episode_id,
                    format!(
                        "{}. {}",
                        e.episode_rss_title,
                        e.episode_rss_description_no_html.as_deref().unwrap_or("")
                    ),
                )
            })
            .collect();
        // 0: keyword order; 1: keyword and vector rankings fused (the default)
        let weights = [0.0_f32, 1.0];
        let mut totals = vec![0.0_f32; weights.len()];
        let mut counted = 0;
        let mut judged: HashMap<(usize, Uuid), f32> = HashMap::new();
        for (q, query) in QUERIES.iter().enumerate() {
            let exact_query = mpnet.embed(query)?;
            let mut pages = Vec::new();
            for weight in weights {
                let request = SearchRequest {
                    mode: Some(SearchMode::Episodes),
                    terms: query
                        .split_whitespace()
                        .filter(|w| w.len() > 3)
                        .map(|w| SearchTerm {
                            text: w.into(),
                            targets: vec![Target::EpisodeTitle, Target::EpisodeDescription],
                            match_mode: MatchMode::Optional,
                            ..SearchTerm::default()
                        })
                        .collect(),
                    page_size: 20,
                    snippets: false,
                    hybrid: weight > 0.0,
                    ..SearchRequest::default()
                };
                let Hits::Episodes(hits) = handle.search(&request)?.hits else {
                    continue;
                };
                pages.push(hits.iter().map(|h| h.episode_id).collect::<Vec<_>>());
            }
            if pages.first().is_none_or(|p| p.len() < 10) {
                continue;
            }
            let mut gains_of = |ids: &[Uuid]| -> Result<Vec<f32>, Box<dyn std::error::Error>> {
                ids.iter()
                    .map(|id| {
                        if let Some(g) = judged.get(&(q, *id)) {
                            return Ok(*g);
                        }
                        let text: String = texts[id].chars().take(400).collect();
                        let g = cosine(&exact_query, &mpnet.embed(&text)?).max(0.0);
                        judged.insert((q, *id), g);
                        Ok(g)
                    })
                    .collect()
            };
            let all = gains_of(&pages[0])?;
            let mut ideal = all.clone();
            ideal.sort_by(|a, b| b.total_cmp(a));
            let best = dcg(&ideal);
            for (slot, page) in pages.iter().enumerate() {
                let gains = gains_of(page)?;
                totals[slot] += dcg(&gains) / best.max(1e-9);
            }
            counted += 1;
        }
        for (weight, total) in weights.iter().zip(&totals) {
            rerank_rows.push(format!(
                "| {weight:.2} | {counted} | {:.3} |",
                total / counted.max(1) as f32
            ));
            eprintln!("{}", rerank_rows.last().unwrap());
        }
    }

    let mut report = String::from("# Related podcasts and re-ranking: which method\n\n");
    report.push_str(&format!(
        "Written by `cargo bench -p podlens-indexer --bench vector_relevance` (release). {} podcasts and {} episodes from the real feeds of ../shared/corpus, indexed with the static model (table sha256 `{}`).\n\n",
        podcasts.len(),
        episodes.len(),
        model.table_sha256
    ));
    report.push_str("## Related podcasts\n\nTwins: podcasts whose title another feed file of the corpus shares (snapshots of the same show); hit@k = the twin is in the first k, MRR over twins. Precision@5: share of the first five that have an iTunes category in common with the source.\n\n| method | twins | hit@1 | hit@5 | MRR | podcasts with categories | category precision@5 |\n|---|---:|---:|---:|---:|---:|---:|\n");
    for row in &related_rows {
        report.push_str(row);
        report.push('\n');
    }
    if !rerank_rows.is_empty() {
        report.push_str("\n## Keyword order and hybrid fusion\n\nEpisode searches (optional words over title and description, first page of 20); gain of a hit = exact all-mpnet-base-v2 cosine of query and the first 400 characters of the episode text; nDCG@10 against the ideal order of the keyword page. Weight 0 is keyword order, 1 the fusion of keyword and vector ranks (`indexer/src/hybrid.rs`).\n\n| weight | queries | nDCG@10 |\n|---:|---:|---:|\n");
        for row in &rerank_rows {
            report.push_str(row);
            report.push('\n');
        }
    }
    print!("{report}");
    std::fs::write(repo.join("benches/vectors/RELEVANCE.md"), &report)?;
    Ok(())
}
