//! The steps of [`Shards`] as messages, for a root that runs a search over shards held by
//! other processes (a cluster's search nodes): a [`StepRequest`] names the search, the
//! shards to run on and the step; [`run_step`] runs it on the shards open here and
//! answers a [`StepAnswer`]. Every shard holds the same documents at the same addresses
//! on every node that serves it, and every node plans the search's terms against the
//! generation's statistics, so a step answers alike wherever it runs.

use std::collections::HashSet;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use tantivy::DocAddress;
use uuid::Uuid;

use crate::collector::{Collected, Page};
use crate::cursor;
use crate::embedding::StaticModel;
use crate::error::{IndexError, Result};
use crate::query_build::families_for;
use crate::relevance::TermPlan;
use crate::request::SearchRequest;
use crate::results::{Hits, SearchResponse};
use crate::search::{Plan, RootPlan, run, validate};
use crate::shard::OpenGeneration;
use crate::shards::{LocalShards, Shards, done};
use crate::sort_key::SortKey;
use crate::vectors::QueryVector;
use crate::words::TermWords;

/// A hit between processes: where it is and how it sorts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct StepHit {
    pub key: SortKey,
    pub score: f32,
    pub shard: u32,
    pub segment: u32,
    pub doc: u32,
}

impl From<&Collected> for StepHit {
    fn from(hit: &Collected) -> StepHit {
        StepHit {
            key: hit.key,
            score: hit.score,
            shard: hit.shard as u32,
            segment: hit.address.segment_ord,
            doc: hit.address.doc_id,
        }
    }
}

impl From<&StepHit> for Collected {
    fn from(hit: &StepHit) -> Collected {
        Collected {
            key: hit.key,
            address: DocAddress::new(hit.segment, hit.doc),
            score: hit.score,
            shard: hit.shard as usize,
        }
    }
}

fn hits_of(hits: &[StepHit]) -> Vec<Collected> {
    hits.iter().map(Collected::from).collect()
}

fn step_hits(hits: &[Collected]) -> Vec<StepHit> {
    hits.iter().map(StepHit::from).collect()
}

/// One step of [`Shards`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "step")]
pub enum Step {
    KeywordPage {
        after: Option<SortKey>,
        limit: usize,
        exclude: Vec<Uuid>,
    },
    Similarities {
        query: Vec<f32>,
        hits: Vec<StepHit>,
    },
    Titles {
        hits: Vec<StepHit>,
    },
    Genres {
        hits: Vec<StepHit>,
    },
    Centroid {
        hit: StepHit,
    },
    NearestPodcasts {
        query: Vec<f32>,
        keyword: Vec<Uuid>,
        exclude: Option<Uuid>,
    },
    CountMatching {
        ids: Vec<Uuid>,
    },
    Fetch {
        hits: Vec<StepHit>,
    },
}

/// A step of one search, on some shards of one generation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepRequest {
    /// The generation the search runs on (its cursors and addresses belong to it).
    pub generation: u64,
    pub request: SearchRequest,
    pub shards: Vec<u32>,
    pub step: Step,
}

/// What a step answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "answer")]
pub enum StepAnswer {
    Page { total: u64, hits: Vec<StepHit> },
    Similarities { similarities: Vec<Option<f32>> },
    Titles { titles: Vec<String> },
    Genres { genres: Vec<Vec<String>> },
    Centroid { centroid: Option<Vec<f32>> },
    Nearest { nearest: Vec<(f32, StepHit)> },
    Count { count: u64 },
    Hits { hits: Hits },
}

impl StepAnswer {
    /// The page of a keyword step.
    pub fn into_page(self) -> Result<Page> {
        match self {
            StepAnswer::Page { total, hits } => Ok(Page {
                total,
                hits: hits_of(&hits),
            }),
            other => Err(unexpected("a page", &other)),
        }
    }
}

/// The error of an answer of the wrong kind.
pub fn unexpected(wanted: &str, answer: &StepAnswer) -> IndexError {
    let kind = match answer {
        StepAnswer::Page { .. } => "a page",
        StepAnswer::Similarities { .. } => "similarities",
        StepAnswer::Titles { .. } => "titles",
        StepAnswer::Genres { .. } => "genres",
        StepAnswer::Centroid { .. } => "a centroid",
        StepAnswer::Nearest { .. } => "nearest podcasts",
        StepAnswer::Count { .. } => "a count",
        StepAnswer::Hits { .. } => "hits",
    };
    IndexError::InvalidRequest(format!("a search node answered {kind} for {wanted}"))
}

/// The search's terms planned against `generation`.
fn plan_terms(generation: &OpenGeneration, request: &SearchRequest) -> Result<Vec<TermPlan>> {
    let mode = request.effective_mode();
    validate(request, mode)?;
    let families = families_for(&request.filters);
    Ok(request
        .terms
        .iter()
        .map(|term| TermPlan::new(generation, &families, term))
        .collect())
}

/// Runs `step` of `request` on the shards `shards` of `generation`, which must all be
/// open here and be of the generation the step names.
pub fn run_step(generation: &OpenGeneration, step: &StepRequest) -> Result<StepAnswer> {
    if step.generation != generation.manifest.generation {
        return Err(IndexError::GenerationGone(step.generation));
    }
    let _running = crate::fanout::Running::start();
    let request = &step.request;
    let plan = Plan {
        request,
        mode: request.effective_mode(),
        families: families_for(&request.filters),
        terms: plan_terms(generation, request)?,
    };
    let shards = LocalShards::only(generation, &plan, &step.shards)?;
    Ok(match &step.step {
        Step::KeywordPage {
            after,
            limit,
            exclude,
        } => {
            if *limit == 0 || *limit > crate::search::MAX_WINDOW {
                return Err(IndexError::InvalidRequest(format!(
                    "a keyword step asks for 1 to {} hits",
                    crate::search::MAX_WINDOW
                )));
            }
            let page = done(shards.keyword_page(*after, *limit, exclude))?;
            StepAnswer::Page {
                total: page.total,
                hits: step_hits(&page.hits),
            }
        }
        Step::Similarities { query, hits } => StepAnswer::Similarities {
            similarities: done(
                shards.similarities(&query_vector(generation, query)?, &hits_of(hits)),
            )?,
        },
        Step::Titles { hits } => StepAnswer::Titles {
            titles: done(shards.titles(&hits_of(hits)))?,
        },
        Step::Genres { hits } => StepAnswer::Genres {
            genres: done(shards.genres(&hits_of(hits)))?,
        },
        Step::Centroid { hit } => StepAnswer::Centroid {
            centroid: done(shards.centroid(&Collected::from(hit)))?,
        },
        Step::NearestPodcasts {
            query,
            keyword,
            exclude,
        } => {
            let keyword: HashSet<Uuid> = keyword.iter().copied().collect();
            let nearest = done(shards.nearest_podcasts(
                &query_vector(generation, query)?,
                &keyword,
                *exclude,
            ))?;
            StepAnswer::Nearest {
                nearest: nearest
                    .iter()
                    .map(|(similarity, hit)| (*similarity, StepHit::from(hit)))
                    .collect(),
            }
        }
        Step::CountMatching { ids } => StepAnswer::Count {
            count: done(shards.count_matching(ids))?,
        },
        Step::Fetch { hits } => StepAnswer::Hits {
            hits: done(shards.fetch(&hits_of(hits)))?,
        },
    })
}

/// A query vector sent by a root: the dimension of the generation's vectors, finite
/// values.
fn query_vector(generation: &OpenGeneration, values: &[f32]) -> Result<QueryVector> {
    let dim = generation
        .model
        .as_ref()
        .map(|model| model.dim())
        .ok_or(IndexError::VectorsUnavailable)?;
    if values.len() != dim || values.iter().any(|v| !v.is_finite()) {
        return Err(IndexError::InvalidRequest(
            "a query vector has the wrong dimension or a value that is not a number".into(),
        ));
    }
    Ok(QueryVector::new(values))
}

/// The hits of a [`Step::Fetch`] answer.
pub fn answered_hits(answer: StepAnswer) -> Result<Hits> {
    match answer {
        StepAnswer::Hits { hits } => Ok(hits),
        other => Err(unexpected("hits", &other)),
    }
}

/// Runs `request` as the root of a search over `shards` (every shard of generation
/// `generation`): validated, its cursor decoded, the page found and fetched by the
/// shards' steps. `model` embeds the query of a hybrid search; without it the search
/// keeps the keyword order. This is what a single node runs over its own shards too,
/// so a cluster ranks exactly as one node does.
pub async fn search_over<S: Shards>(
    shards: &S,
    request: &SearchRequest,
    model: Option<&StaticModel>,
    generation: u64,
) -> Result<SearchResponse> {
    let started = Instant::now();
    let mode = request.effective_mode();
    validate(request, mode)?;
    let position = match &request.cursor {
        Some(text) => Some(cursor::decode_position(text, mode, &request.sort)?),
        None => None,
    };
    let words: Vec<TermWords> = request
        .terms
        .iter()
        .map(|term| TermWords::of(&term.text))
        .collect();
    let root = RootPlan {
        request,
        mode,
        terms: request
            .terms
            .iter()
            .zip(&words)
            .map(|(term, words)| (term.match_mode, words))
            .collect(),
    };
    run(shards, &root, position, model, generation, started).await
}
