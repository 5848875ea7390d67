//! The steps of the engine's work on shards, as messages, for a root whose shards are
//! held by other processes (a cluster's search nodes): a [`StepRequest`] names the
//! generation, the shards to run on and the [`Step`]; [`run_step`] runs it on the shards
//! open here and answers a [`StepAnswer`]. Every shard holds the same documents at the
//! same addresses on every node that serves it, and every node plans a search's terms
//! against the generation's statistics, so a step answers alike wherever it runs.
//!
//! A root runs steps through a [`StepRunner`]: [`LocalRunner`] over the shards this
//! process holds, or a cluster's runner over HTTP. The roots of the lookups other than
//! search (semantic search, related podcasts, autocomplete, the directory, podcasts by
//! id) live in `crate::lookups` and run on either, so a cluster answers them as one node
//! does; a search's own root runs over [`Shards`] (`crate::search::run`).

use std::collections::HashSet;
use std::future::Future;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use tantivy::DocAddress;
use uuid::Uuid;

use crate::collector::{Collected, Page};
use crate::cursor;
use crate::directory::DirectoryEntry;
use crate::embedding::StaticModel;
use crate::error::{IndexError, Result};
use crate::page::RootPlan;
use crate::query_build::families_for;
use crate::related::RelatedSource;
use crate::relevance::TermPlan;
use crate::request::{SearchMode, SearchRequest};
use crate::results::{Hits, PodcastHit, SearchResponse};
use crate::search::run;
pub use crate::semantic::ScoredRow;
use crate::shard::OpenGeneration;
use crate::shard_search::{MAX_WINDOW, Plan, validate};
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

/// One step of a search ([`Shards`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "step")]
pub enum SearchStep {
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
        /// The hit's show vector from the encoder rather than its static centroid.
        #[serde(default)]
        shows: bool,
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

/// One step of work on shards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Step {
    /// A step of `request`.
    Search {
        request: Box<SearchRequest>,
        step: SearchStep,
    },
    /// The best rows for a semantic search's query: per shard, the best `limit`
    /// episodes (their best description or chunk) or podcast centroids.
    SemanticRows {
        query: Vec<f32>,
        mode: SearchMode,
        limit: usize,
        podcasts: Vec<Uuid>,
        rescore: usize,
    },
    /// The hits of scored rows (an episode's with the passage that matched).
    SemanticHits {
        mode: SearchMode,
        rows: Vec<ScoredRow>,
    },
    /// What related podcasts are found from: a podcast's centroid and text, and its
    /// show vector when `shows` asks for it.
    RelatedSource {
        podcast: Uuid,
        #[serde(default)]
        shows: bool,
    },
    /// The podcast centroids nearest to `query`, but `podcast`'s own.
    NearestCentroids {
        query: Vec<f32>,
        podcast: Uuid,
        limit: usize,
        rescore: usize,
    },
    /// Podcasts whose title and description resemble `source` (more-like-this).
    SimilarByText {
        podcast: Uuid,
        source: RelatedSource,
        limit: usize,
    },
    /// The title words starting with `prefix`, with their document counts.
    PrefixWords { prefix: String },
    /// Podcasts whose title words hold `earlier` and a word starting with `last`.
    TitleMatches {
        earlier: Vec<String>,
        last: String,
        distance: u8,
        limit: usize,
    },
    /// Every podcast of the shards, as the directory lists it.
    DirectoryEntries,
    /// The podcasts `ids` the shards hold.
    PodcastsById { ids: Vec<Uuid> },
}

/// A step on some shards of one generation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepRequest {
    /// The generation the step runs on (its cursors and addresses belong to it).
    pub generation: u64,
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
    Rows { rows: Vec<ScoredRow> },
    Source { source: Option<RelatedSource> },
    Podcasts { podcasts: Vec<PodcastHit> },
    Words { words: Vec<(String, u64)> },
    Directory { entries: Vec<DirectoryEntry> },
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

    fn kind(&self) -> &'static str {
        match self {
            StepAnswer::Page { .. } => "a page",
            StepAnswer::Similarities { .. } => "similarities",
            StepAnswer::Titles { .. } => "titles",
            StepAnswer::Genres { .. } => "genres",
            StepAnswer::Centroid { .. } => "a centroid",
            StepAnswer::Nearest { .. } => "nearest podcasts",
            StepAnswer::Count { .. } => "a count",
            StepAnswer::Hits { .. } => "hits",
            StepAnswer::Rows { .. } => "rows",
            StepAnswer::Source { .. } => "a related source",
            StepAnswer::Podcasts { .. } => "podcasts",
            StepAnswer::Words { .. } => "words",
            StepAnswer::Directory { .. } => "directory entries",
        }
    }
}

/// The error of an answer of the wrong kind.
pub fn unexpected(wanted: &str, answer: &StepAnswer) -> IndexError {
    IndexError::InvalidRequest(format!(
        "a search node answered {} for {wanted}",
        answer.kind()
    ))
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

/// The indexes into `generation.shards` of the shards `numbers`; an error names one not
/// open here.
pub(crate) fn selected(generation: &OpenGeneration, numbers: &[u32]) -> Result<Vec<usize>> {
    numbers
        .iter()
        .map(|number| {
            generation
                .shard_numbers
                .binary_search(number)
                .map_err(|_| IndexError::ShardNotServed(*number))
        })
        .collect()
}

/// Runs `step` on the shards `step.shards` of `generation`, which must all be open here
/// and be of the generation the step names.
pub fn run_step(generation: &OpenGeneration, step: &StepRequest) -> Result<StepAnswer> {
    if step.generation != generation.manifest.generation {
        return Err(IndexError::GenerationGone(step.generation));
    }
    let _running = crate::fanout::Running::start();
    let shards = selected(generation, &step.shards)?;
    Ok(match &step.step {
        Step::Search { request, step: one } => {
            return run_search_step(generation, request, &step.shards, one);
        }
        Step::SemanticRows {
            query,
            mode,
            limit,
            podcasts,
            rescore,
        } => {
            let podcasts: HashSet<Uuid> = podcasts.iter().copied().collect();
            StepAnswer::Rows {
                rows: crate::semantic::nearest_rows(
                    generation,
                    &shards,
                    &query_vector(generation, query)?,
                    *mode,
                    (*limit).clamp(1, crate::semantic::MAX_SEMANTIC_LIMIT),
                    &podcasts,
                    *rescore,
                ),
            }
        }
        Step::SemanticHits { mode, rows } => StepAnswer::Hits {
            hits: crate::semantic::rows_hits(generation, *mode, rows)?,
        },
        Step::RelatedSource { podcast, shows } => StepAnswer::Source {
            source: crate::related::source_of(generation, &shards, *podcast, *shows)?,
        },
        Step::NearestCentroids {
            query,
            podcast,
            limit,
            rescore,
        } => StepAnswer::Rows {
            rows: crate::related::nearest_centroids(
                generation,
                &shards,
                &query_vector(generation, query)?,
                *podcast,
                (*limit).clamp(1, 100),
                *rescore,
            ),
        },
        Step::SimilarByText {
            podcast,
            source,
            limit,
        } => StepAnswer::Podcasts {
            podcasts: crate::related::similar_by_text(
                generation,
                &shards,
                *podcast,
                source,
                (*limit).clamp(1, 100),
            )?,
        },
        Step::PrefixWords { prefix } => StepAnswer::Words {
            words: crate::autocomplete::prefix_frequencies(generation, &shards, prefix)?,
        },
        Step::TitleMatches {
            earlier,
            last,
            distance,
            limit,
        } => StepAnswer::Podcasts {
            podcasts: crate::autocomplete::title_matches(
                generation,
                &shards,
                earlier,
                last,
                (*distance).min(2),
                (*limit).clamp(1, 100),
            )?,
        },
        Step::DirectoryEntries => StepAnswer::Directory {
            entries: crate::directory::entries(generation, &shards)?,
        },
        Step::PodcastsById { ids } => StepAnswer::Podcasts {
            podcasts: crate::hits::podcasts_by_id(generation, &shards, ids)?,
        },
    })
}

/// Runs a step of `request` on the shards `numbers` of `generation`.
fn run_search_step(
    generation: &OpenGeneration,
    request: &SearchRequest,
    numbers: &[u32],
    step: &SearchStep,
) -> Result<StepAnswer> {
    let plan = Plan {
        request,
        mode: request.effective_mode(),
        families: families_for(&request.filters),
        terms: plan_terms(generation, request)?,
    };
    let shards = LocalShards::only(generation, &plan, numbers)?;
    Ok(match step {
        SearchStep::KeywordPage {
            after,
            limit,
            exclude,
        } => {
            if *limit == 0 || *limit > MAX_WINDOW {
                return Err(IndexError::InvalidRequest(format!(
                    "a keyword step asks for 1 to {} hits",
                    MAX_WINDOW
                )));
            }
            let page = done(shards.keyword_page(*after, *limit, exclude))?;
            StepAnswer::Page {
                total: page.total,
                hits: step_hits(&page.hits),
            }
        }
        SearchStep::Similarities { query, hits } => StepAnswer::Similarities {
            similarities: done(
                shards.similarities(&query_vector(generation, query)?, &hits_of(hits)),
            )?,
        },
        SearchStep::Titles { hits } => StepAnswer::Titles {
            titles: done(shards.titles(&hits_of(hits)))?,
        },
        SearchStep::Genres { hits } => StepAnswer::Genres {
            genres: done(shards.genres(&hits_of(hits)))?,
        },
        SearchStep::Centroid { hit, shows } => StepAnswer::Centroid {
            centroid: done(shards.centroid(&Collected::from(hit), *shows))?,
        },
        SearchStep::NearestPodcasts {
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
        SearchStep::CountMatching { ids } => StepAnswer::Count {
            count: done(shards.count_matching(ids))?,
        },
        SearchStep::Fetch { hits } => StepAnswer::Hits {
            hits: done(shards.fetch(&hits_of(hits)))?,
        },
    })
}

/// A query vector sent by a root: the dimension of the generation's vectors (or of its
/// show vectors), finite values.
fn query_vector(generation: &OpenGeneration, values: &[f32]) -> Result<QueryVector> {
    let dim = generation.model.as_ref().map(|model| model.dim());
    let shows_dim = generation.manifest.encoder.as_ref().map(|info| info.dim);
    if dim.is_none() && shows_dim.is_none() {
        return Err(IndexError::VectorsUnavailable);
    }
    if (Some(values.len()) != dim && Some(values.len()) != shows_dim)
        || values.iter().any(|v| !v.is_finite())
    {
        return Err(IndexError::InvalidRequest(
            "a query vector has the wrong dimension or a value that is not a number".into(),
        ));
    }
    Ok(QueryVector::new(values))
}

/// The hits of a [`SearchStep::Fetch`] or [`Step::SemanticHits`] answer.
pub fn answered_hits(answer: StepAnswer) -> Result<Hits> {
    match answer {
        StepAnswer::Hits { hits } => Ok(hits),
        other => Err(unexpected("hits", &other)),
    }
}

/// Runs steps on a generation's shards, wherever they are.
pub trait StepRunner: Sync {
    /// The generation's number.
    fn generation(&self) -> u64;

    /// The generation's number of shards.
    fn shard_count(&self) -> u32;

    /// Runs on every shard of `shards` the step `step` makes for the shards of one call;
    /// each answer comes with the shards it covers.
    fn run(
        &self,
        shards: &[u32],
        step: &(dyn Fn(&[u32]) -> Step + Sync),
    ) -> impl Future<Output = Result<Vec<(Vec<u32>, StepAnswer)>>> + Send;
}

/// The shards this process holds, as a [`StepRunner`]: one call for all of them.
#[derive(Debug, Clone, Copy)]
pub struct LocalRunner<'a> {
    generation: &'a OpenGeneration,
}

impl<'a> LocalRunner<'a> {
    /// A runner over every shard of `generation`, which must all be open here.
    pub fn new(generation: &'a OpenGeneration) -> LocalRunner<'a> {
        LocalRunner { generation }
    }
}

impl StepRunner for LocalRunner<'_> {
    fn generation(&self) -> u64 {
        self.generation.manifest.generation
    }

    fn shard_count(&self) -> u32 {
        self.generation.manifest.shards
    }

    async fn run(
        &self,
        shards: &[u32],
        step: &(dyn Fn(&[u32]) -> Step + Sync),
    ) -> Result<Vec<(Vec<u32>, StepAnswer)>> {
        if shards.is_empty() {
            return Ok(Vec::new());
        }
        let request = StepRequest {
            generation: self.generation.manifest.generation,
            shards: shards.to_vec(),
            step: step(shards),
        };
        Ok(vec![(
            shards.to_vec(),
            run_step(self.generation, &request)?,
        )])
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
