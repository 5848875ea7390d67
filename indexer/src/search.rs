//! Running a [`SearchRequest`]: scatter over shards (in parallel, with global BM25
//! statistics), gather the global top of the page by (sort key, id), load stored fields,
//! and add transcript snippets and explanations.

use crate::cursor::{self, Position};
use crate::embedding::StaticModel;
use crate::error::Result;
use crate::hybrid;
use crate::page::{FoundPage, RootPlan, keyword_page};
use crate::query_build::families_for;
use crate::relevance::TermPlan;
use crate::request::SearchRequest;
use crate::results::{Hits, SearchResponse, Timings};
use crate::shard::OpenGeneration;
use crate::shard_search::{Plan, validate};
use crate::shards::{LocalShards, Shards, done, id_of};
use std::time::Instant;
use uuid::Uuid;

/// Runs `request` on `generation`.
///
/// The search runs on the rayon pool: called from outside it (a server or client
/// thread), the whole request is handed over once, and its parallel steps (the shards'
/// searches, loading the page, snippets) split work inside the pool instead of each
/// handing work over and waiting for it.
pub fn search(generation: &OpenGeneration, request: &SearchRequest) -> Result<SearchResponse> {
    if rayon::current_thread_index().is_some() {
        search_in_pool(generation, request)
    } else {
        rayon::scope(|_| search_in_pool(generation, request))
    }
}

fn search_in_pool(generation: &OpenGeneration, request: &SearchRequest) -> Result<SearchResponse> {
    let _running = crate::fanout::Running::start();
    let started = Instant::now();
    let mode = request.effective_mode();
    validate(request, mode)?;
    let position = match &request.cursor {
        Some(text) => Some(cursor::decode_position(text, mode, &request.sort)?),
        None => None,
    };
    let families = families_for(&request.filters);
    let terms: Vec<TermPlan> = request
        .terms
        .iter()
        .map(|term| TermPlan::new(generation, &families, term))
        .collect();
    let plan = Plan {
        request,
        mode,
        families,
        terms,
    };
    let root = RootPlan {
        request,
        mode,
        terms: plan
            .terms
            .iter()
            .map(|term| (term.term.match_mode, &term.words))
            .collect(),
    };
    let shards = LocalShards::new(generation, &plan);
    done(run(
        &shards,
        &root,
        position,
        generation.model.as_deref(),
        generation.manifest.generation,
        started,
    ))
}

/// Runs a search (validated, its cursor decoded to `position`) as its root over
/// `shards`: the page in keyword or fused order, then the page's hits. `model` embeds
/// the query of a hybrid search (`None`: keyword order alone); `started` is when the
/// search began, for its timings.
pub(crate) async fn run<S: Shards>(
    shards: &S,
    root: &RootPlan<'_>,
    position: Option<Position>,
    model: Option<&StaticModel>,
    generation: u64,
    started: Instant,
) -> Result<SearchResponse> {
    let found = match hybrid::vector_query(root, model)? {
        Some(vector) => hybrid::page(shards, root, vector, position).await?,
        None => keyword_page(shards, root, position).await?,
    };
    let search_done = Instant::now();
    let mut hits = shards.fetch(&found.hits).await?;
    if root.request.explain {
        add_fusion(&mut hits, &found);
    }
    let finished = Instant::now();
    Ok(SearchResponse {
        hits,
        total: found.total,
        next_cursor: found.next_cursor,
        generation,
        timings: Timings {
            search_ms: (search_done - started).as_secs_f64() * 1e3,
            post_processing_ms: (finished - search_done).as_secs_f64() * 1e3,
            total_ms: (finished - started).as_secs_f64() * 1e3,
        },
    })
}

/// A fused page's explanations: how the ranks were fused, and the keyword score's own.
fn add_fusion(hits: &mut Hits, found: &FoundPage) {
    let fused = |explanation: &mut Option<serde_json::Value>, id: Uuid| {
        let position = found.hits.iter().position(|hit| id_of(hit) == id);
        if let Some(fusion) = position.and_then(|at| found.fusion.get(at).cloned().flatten()) {
            let keyword = explanation.take();
            *explanation = Some(serde_json::json!({ "fusion": fusion, "keyword": keyword }));
        }
    };
    match hits {
        Hits::Podcasts(hits) => {
            for hit in hits {
                fused(&mut hit.explanation, hit.podcast_id);
            }
        }
        Hits::Episodes(hits) => {
            for hit in hits {
                fused(&mut hit.explanation, hit.episode_id);
            }
        }
    }
}
