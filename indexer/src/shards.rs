//! The steps a search runs on a generation's shards, wherever they are: [`Shards`].
//!
//! A search is a root that asks the shards for a page of keyword hits (the query phase:
//! sort keys, scores, addresses, counts), fuses them with the vectors when it is hybrid
//! (each hit's similarity, the nearest podcasts, a named show's centroid and genres),
//! then asks the shards holding the page's hits for their fields (the fetch phase).
//! [`LocalShards`] runs each step on the shards this process has open, on the rayon
//! pool; a cluster's root runs the same steps on search nodes over HTTP (the
//! `podlens-cluster` crate), so both rank alike (`crate::search::run`).
//!
//! A hit names its shard by the generation's shard number and its document by its
//! address in that shard: a generation's shard is the same files on every node that
//! serves it, so an address found by one replica is read by any other.

use std::collections::{HashMap, HashSet};
use std::future::Future;

use rayon::prelude::*;
use tantivy::query::{BooleanQuery, EnableScoring, Occur, Query};
use tantivy::{DocAddress, TantivyDocument};
use uuid::Uuid;

use crate::collector::{Collected, Page, PageCollector, ValueSource, merge_pages};
use crate::error::{IndexError, Result};
use crate::hits::{episode_hit, podcast_hit};
pub use crate::ranking::VECTOR_CANDIDATES;
use crate::request::{MatchMode, SearchMode, SortOrder};
use crate::results::{EpisodeHit, Hits, PodcastHit};
use crate::schema::id_from_halves;
use crate::semantic::best_centroids;
use crate::shard::{GlobalStatistics, OpenGeneration, OpenShard, podcast_store};
use crate::shard_search::{
    Plan, add_snippets, id_set, index_searcher, page_collector, shard_query,
};
use crate::sort_key::SortKey;
use crate::stored::{text, texts};
use crate::vectors::{QueryVector, VectorSearchOptions};

/// The id of a hit (a podcast's or an episode's).
pub fn id_of(hit: &Collected) -> Uuid {
    id_from_halves(hit.key.id.0, hit.key.id.1)
}

/// The steps of one search over the shards of a generation. Every step covers every
/// shard of the generation; hits name their shard by number.
pub trait Shards: Sync {
    /// The first `limit` hits of the search's keyword query (without `exclude`) after
    /// `after` in the request's order, over every shard, and the number of matches.
    fn keyword_page(
        &self,
        after: Option<SortKey>,
        limit: usize,
        exclude: &[Uuid],
    ) -> impl Future<Output = Result<Page>> + Send;

    /// Per hit, the cosine of its vector with `query` (a podcast's centroid, an
    /// episode's best description or transcript chunk); `None` for a hit without one.
    fn similarities(
        &self,
        query: &QueryVector,
        hits: &[Collected],
    ) -> impl Future<Output = Result<Vec<Option<f32>>>> + Send;

    /// Per podcast hit, its title.
    fn titles(&self, hits: &[Collected]) -> impl Future<Output = Result<Vec<String>>> + Send;

    /// Per podcast hit, its genres.
    fn genres(&self, hits: &[Collected]) -> impl Future<Output = Result<Vec<Vec<String>>>> + Send;

    /// A podcast hit's centroid (its unit vector), when it has one: its show vector from
    /// the encoder with `shows`, else its static centroid.
    fn centroid(
        &self,
        hit: &Collected,
        shows: bool,
    ) -> impl Future<Output = Result<Option<Vec<f32>>>> + Send;

    /// The podcasts nearest to `query` that pass the request's filters and `not` terms,
    /// are not in `keyword` and are not `exclude`, with their similarity: at least the
    /// best [`VECTOR_CANDIDATES`] of every shard, in any order.
    fn nearest_podcasts(
        &self,
        query: &QueryVector,
        keyword: &HashSet<Uuid>,
        exclude: Option<Uuid>,
    ) -> impl Future<Output = Result<Vec<(f32, Collected)>>> + Send;

    /// How many of the documents `ids` the keyword query matches.
    fn count_matching(&self, ids: &[Uuid]) -> impl Future<Output = Result<u64>> + Send;

    /// The hits' fields, in the order of `hits` (a hit whose document is gone is left
    /// out), with snippets and keyword explanations when the request asks for them.
    fn fetch(&self, hits: &[Collected]) -> impl Future<Output = Result<Hits>> + Send;
}

/// The answer of a local step: its future never waits (the work is done when it is
/// polled, on the calling thread), so it is polled once.
pub(crate) fn done<T>(step: impl Future<Output = Result<T>>) -> Result<T> {
    use futures_util::FutureExt;
    step.now_or_never().unwrap_or_else(|| {
        Err(IndexError::Unavailable(
            "a local search step waited for something".into(),
        ))
    })
}

/// The shards a process has open, searched with a plan made on them.
pub struct LocalShards<'a> {
    generation: &'a OpenGeneration,
    plan: &'a Plan<'a>,
    statistics: GlobalStatistics<'a>,
    /// The open shards a step runs on (indexes into `generation.shards`).
    selected: Vec<usize>,
}

impl<'a> LocalShards<'a> {
    /// Every shard of `generation` that is open here, for `plan`.
    pub(crate) fn new(generation: &'a OpenGeneration, plan: &'a Plan<'a>) -> LocalShards<'a> {
        LocalShards {
            generation,
            plan,
            statistics: generation.statistics(plan.mode.into()),
            selected: (0..generation.shards.len()).collect(),
        }
    }

    /// The shards `numbers` of `generation` alone; an error names a shard not open here.
    pub(crate) fn only(
        generation: &'a OpenGeneration,
        plan: &'a Plan<'a>,
        numbers: &[u32],
    ) -> Result<LocalShards<'a>> {
        let mut shards = LocalShards::new(generation, plan);
        shards.selected = numbers
            .iter()
            .map(|number| {
                generation
                    .shard_numbers
                    .binary_search(number)
                    .map_err(|_| IndexError::ShardNotServed(*number))
            })
            .collect::<Result<_>>()?;
        Ok(shards)
    }

    /// The open shard of a hit.
    fn shard_of(&self, hit: &Collected) -> Result<&'a OpenShard> {
        self.generation
            .shard(hit.shard as u32)
            .ok_or(IndexError::ShardNotServed(hit.shard as u32))
    }

    /// The selected shards with their numbers.
    fn selected(&self) -> impl IndexedParallelIterator<Item = (u32, &'a OpenShard)> + '_ {
        let generation = self.generation;
        self.selected
            .par_iter()
            .with_min_len(crate::fanout::min_len())
            .map(move |at| (generation.shard_numbers[*at], &generation.shards[*at]))
    }

    /// The stored podcast document of a hit.
    fn podcast_doc(&self, hit: &Collected) -> Result<TantivyDocument> {
        Ok(self.shard_of(hit)?.podcasts.doc(hit.address)?)
    }

    /// The keyword explanation of a hit (its shard's query rebuilt), as JSON.
    fn explanation(
        &self,
        queries: &mut HashMap<usize, Box<dyn Query>>,
        hit: &Collected,
    ) -> Result<Option<serde_json::Value>> {
        let shard = self.shard_of(hit)?;
        let query = match queries.entry(hit.shard) {
            std::collections::hash_map::Entry::Occupied(entry) => entry.into_mut(),
            std::collections::hash_map::Entry::Vacant(entry) => {
                entry.insert(shard_query(self.generation, shard, self.plan, &[])?)
            }
        };
        let searcher = index_searcher(shard, self.plan.mode);
        let weight = query.weight(EnableScoring::enabled_from_statistics_provider(
            &self.statistics,
            searcher,
        ))?;
        Ok(weight
            .explain(
                searcher.segment_reader(hit.address.segment_ord),
                hit.address.doc_id,
            )
            .ok()
            .and_then(|explanation| serde_json::from_str(&explanation.to_pretty_json()).ok()))
    }
}

impl Shards for LocalShards<'_> {
    async fn keyword_page(
        &self,
        after: Option<SortKey>,
        limit: usize,
        exclude: &[Uuid],
    ) -> Result<Page> {
        let collector = page_collector(self.generation, self.plan, after, limit)?;
        let pages: Vec<Result<Page>> = self
            .selected()
            .map(|(number, shard)| {
                let query = shard_query(self.generation, shard, self.plan, exclude)?;
                let searcher = index_searcher(shard, self.plan.mode);
                let mut page = searcher.search_with_statistics_provider(
                    query.as_ref(),
                    &collector,
                    &self.statistics,
                )?;
                for hit in &mut page.hits {
                    hit.shard = number as usize;
                }
                Ok(page)
            })
            .collect();
        Ok(merge_pages(
            &self.plan.request.sort,
            limit,
            pages.into_iter().collect::<Result<_>>()?,
        ))
    }

    async fn similarities(
        &self,
        query: &QueryVector,
        hits: &[Collected],
    ) -> Result<Vec<Option<f32>>> {
        hits.iter()
            .map(|hit| {
                let Some(vectors) = podcast_store(self.shard_of(hit)?, query) else {
                    return Ok(None);
                };
                let id = id_of(hit);
                Ok(match self.plan.mode {
                    SearchMode::Podcasts => vectors
                        .centroid_row(id)
                        .map(|row| query.score(vectors, row)),
                    SearchMode::Episodes => vectors.episode_rows(id).and_then(|rows| {
                        rows.map(|row| query.score(vectors, row))
                            .max_by(f32::total_cmp)
                    }),
                })
            })
            .collect()
    }

    async fn titles(&self, hits: &[Collected]) -> Result<Vec<String>> {
        let field = self.generation.schemas.podcasts.title_stored;
        hits.iter()
            .map(|hit| Ok(text(&self.podcast_doc(hit)?, field).unwrap_or_default()))
            .collect()
    }

    async fn genres(&self, hits: &[Collected]) -> Result<Vec<Vec<String>>> {
        let field = self.generation.schemas.podcasts.genres;
        hits.iter()
            .map(|hit| Ok(texts(&self.podcast_doc(hit)?, field)))
            .collect()
    }

    async fn centroid(&self, hit: &Collected, shows: bool) -> Result<Option<Vec<f32>>> {
        let shard = self.shard_of(hit)?;
        let store = if shows { &shard.shows } else { &shard.vectors };
        let Some(vectors) = store.as_ref() else {
            return Ok(None);
        };
        Ok(vectors
            .centroid_row(id_of(hit))
            .map(|row| vectors.dequantized(row)))
    }

    async fn nearest_podcasts(
        &self,
        query: &QueryVector,
        keyword: &HashSet<Uuid>,
        exclude: Option<Uuid>,
    ) -> Result<Vec<(f32, Collected)>> {
        let options = VectorSearchOptions::default();
        let plan = self.plan;
        let constraints = Plan {
            request: plan.request,
            mode: plan.mode,
            families: plan.families.clone(),
            terms: plan
                .terms
                .iter()
                .filter(|term| term.term.match_mode == MatchMode::Not)
                .cloned()
                .collect(),
        };
        let per_shard: Vec<Result<Vec<(f32, Collected)>>> = self
            .selected()
            .map(|(number, shard)| {
                let Some(vectors) = podcast_store(shard, query) else {
                    return Ok(Vec::new());
                };
                let nearest =
                    best_centroids(vectors, query, VECTOR_CANDIDATES, options.rescore, |key| {
                        !keyword.contains(&key.podcast_id) && Some(key.podcast_id) != exclude
                    });
                if nearest.is_empty() {
                    return Ok(Vec::new());
                }
                let similarity: HashMap<Uuid, f32> = nearest
                    .iter()
                    .map(|(score, (id, _))| (*id, *score))
                    .collect();
                let ids: Vec<Uuid> = similarity.keys().copied().collect();
                let allowed = BooleanQuery::new(vec![
                    (
                        Occur::Must,
                        shard_query(self.generation, shard, &constraints, &[])?,
                    ),
                    (Occur::Must, id_set(self.generation, plan.mode, &ids)),
                ]);
                let collector = PageCollector {
                    order: SortOrder::default(),
                    source: ValueSource::Score,
                    after: None,
                    limit: ids.len(),
                    scoring: false,
                    prior: None,
                    deadline: None,
                };
                let page = index_searcher(shard, plan.mode).search(&allowed, &collector)?;
                Ok(page
                    .hits
                    .into_iter()
                    .map(|mut hit| {
                        hit.shard = number as usize;
                        (similarity.get(&id_of(&hit)).copied().unwrap_or(0.0), hit)
                    })
                    .collect())
            })
            .collect();
        let mut found = Vec::new();
        for shard in per_shard {
            found.extend(shard?);
        }
        Ok(found)
    }

    async fn count_matching(&self, ids: &[Uuid]) -> Result<u64> {
        if ids.is_empty() {
            return Ok(0);
        }
        let counts: Vec<Result<u64>> = self
            .selected()
            .map(|(_, shard)| {
                let query: Box<dyn Query> = Box::new(BooleanQuery::new(vec![
                    (
                        Occur::Must,
                        shard_query(self.generation, shard, self.plan, &[])?,
                    ),
                    (Occur::Must, id_set(self.generation, self.plan.mode, ids)),
                ]));
                let searcher = index_searcher(shard, self.plan.mode);
                Ok(searcher.search(query.as_ref(), &tantivy::collector::Count)? as u64)
            })
            .collect();
        counts.into_iter().sum()
    }

    async fn fetch(&self, hits: &[Collected]) -> Result<Hits> {
        let request = self.plan.request;
        let generation = self.generation;
        Ok(match self.plan.mode {
            SearchMode::Podcasts => {
                let mut queries = HashMap::new();
                Hits::Podcasts(
                    hits.iter()
                        .map(|found| {
                            let mut hit = if request.podcast_fields {
                                let shard = self.shard_of(found)?;
                                podcast_hit(
                                    generation,
                                    shard.podcasts.doc(found.address)?,
                                    found.score,
                                )
                            } else {
                                // The collector read the id (the order's tie-break).
                                PodcastHit::unread(id_of(found), found.score)
                            };
                            if request.explain {
                                hit.explanation = self.explanation(&mut queries, found)?;
                            }
                            Ok(hit)
                        })
                        .collect::<Result<Vec<_>>>()?,
                )
            }
            SearchMode::Episodes => {
                // One step per shard: its hits' stored fields, then their snippets.
                let per_shard: Vec<Result<Vec<(usize, EpisodeHit, DocAddress)>>> = self
                    .selected()
                    .map(|(number, shard)| {
                        let mut queries = HashMap::new();
                        let mut page = hits
                            .iter()
                            .enumerate()
                            .filter(|(_, hit)| hit.shard == number as usize)
                            .map(|(position, found)| {
                                let doc = shard.episodes.doc(found.address)?;
                                let mut hit = episode_hit(
                                    generation,
                                    doc,
                                    found.score,
                                    request.transcript_start_chars,
                                );
                                if request.explain {
                                    hit.explanation = self.explanation(&mut queries, found)?;
                                }
                                Ok((position, hit, found.address))
                            })
                            .collect::<Result<Vec<_>>>()?;
                        if request.snippets && !page.is_empty() {
                            add_snippets(generation, shard, self.plan, &mut page)?;
                        }
                        Ok(page)
                    })
                    .collect();
                let mut page: Vec<Option<EpisodeHit>> = hits.iter().map(|_| None).collect();
                for found in per_shard {
                    for (position, hit, _) in found? {
                        page[position] = Some(hit);
                    }
                }
                Hits::Episodes(page.into_iter().flatten().collect())
            }
        })
    }
}
