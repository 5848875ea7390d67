//! Steps run on the search nodes that serve a generation's shards: [`RemoteRunner`]
//! (any step, for the lookups of `podlens_indexer::lookups`) and [`RemoteShards`] (a
//! search's steps). Each step goes to one replica of every shard it needs, the shards of
//! one node in one call, all calls at once; the shards of a call that fails are tried on
//! their next replica within the same step, so a node that dies loses no search. The
//! root merges the answers as a single node merges its shards' (the same functions:
//! `podlens_indexer::steps::search_over` and `podlens_indexer::lookups`).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use futures_util::future::join_all;
use podlens_indexer::shards::Shards;
use podlens_indexer::steps::{
    SearchStep, Step, StepAnswer, StepHit, StepRequest, StepRunner, unexpected,
};
use podlens_indexer::vectors::QueryVector;
use podlens_indexer::{Collected, Hits, IndexError, Page, SearchRequest};
use uuid::Uuid;

use crate::client::{CallError, NodeClient};
use crate::error::ClusterError;
use crate::view::{ClusterView, Replica};

/// The shards of one generation as a cluster serves them.
#[derive(Debug, Clone, Copy)]
pub struct RemoteRunner<'a> {
    pub client: &'a NodeClient,
    pub view: &'a ClusterView,
}

/// The shards of one generation as a cluster serves them, for one search.
#[derive(Debug, Clone, Copy)]
pub struct RemoteShards<'a> {
    pub runner: RemoteRunner<'a>,
    pub request: &'a SearchRequest,
}

/// One call of a step: the node, its url, the shards it covers and the step.
struct Call {
    node: Arc<str>,
    url: Arc<str>,
    shards: Vec<u32>,
    request: StepRequest,
}

/// A cluster error as the engine's.
fn engine_error(error: ClusterError) -> IndexError {
    IndexError::Unavailable(error.to_string())
}

impl StepRunner for RemoteRunner<'_> {
    fn generation(&self) -> u64 {
        self.view.generation
    }

    fn shard_count(&self) -> u32 {
        self.view.shard_count
    }

    /// Runs a step on every shard of `shards`: one call per node holding some of them,
    /// the shards of a failed call retried on their next replicas. `step` makes a
    /// call's step for its shards. Answers come with the shards they cover.
    async fn run(
        &self,
        shards: &[u32],
        step: &(dyn Fn(&[u32]) -> Step + Sync),
    ) -> Result<Vec<(Vec<u32>, StepAnswer)>, IndexError> {
        // shard → the replicas it has not tried yet, preferred first
        let mut untried: BTreeMap<u32, Vec<&Replica>> = shards
            .iter()
            .map(|shard| {
                let replicas = self.view.replicas(*shard);
                let (sound, suspect): (Vec<&Replica>, Vec<&Replica>) = replicas
                    .iter()
                    .partition(|replica| !self.client.is_suspect(&replica.node));
                (*shard, sound.into_iter().chain(suspect).collect())
            })
            .collect();
        let mut answers = Vec::new();
        let mut last_error = String::new();
        while !untried.is_empty() {
            // this round: each shard on its next replica, grouped by node
            let mut calls: BTreeMap<Arc<str>, (Arc<str>, Vec<u32>)> = BTreeMap::new();
            for (shard, replicas) in &mut untried {
                if replicas.is_empty() {
                    return Err(engine_error(ClusterError::Unavailable(format!(
                        "every replica of shard {shard} failed ({last_error})"
                    ))));
                }
                let replica = replicas.remove(0);
                calls
                    .entry(replica.node.clone())
                    .or_insert_with(|| (replica.url.clone(), Vec::new()))
                    .1
                    .push(*shard);
            }
            let calls: Vec<Call> = calls
                .into_iter()
                .map(|(node, (url, shards))| Call {
                    request: StepRequest {
                        generation: self.view.generation,
                        shards: shards.clone(),
                        step: step(&shards),
                    },
                    node,
                    url,
                    shards,
                })
                .collect();
            let outcomes = join_all(
                calls
                    .iter()
                    .map(|call| self.client.step(&call.url, &call.request)),
            )
            .await;
            for (Call { node, shards, .. }, outcome) in calls.into_iter().zip(outcomes) {
                match outcome {
                    Ok(answer) => {
                        for shard in &shards {
                            untried.remove(shard);
                        }
                        answers.push((shards, answer));
                    }
                    Err(CallError::Refused(error)) => return Err(error),
                    Err(CallError::Retry(error)) => {
                        tracing::warn!(node = %node, %error, "a search node failed a step; trying the next replica");
                        self.client.suspect(&node);
                        last_error = error;
                    }
                }
            }
        }
        Ok(answers)
    }
}

impl RemoteShards<'_> {
    /// Runs `step` of this search on every shard of `shards`.
    async fn run(
        &self,
        shards: &[u32],
        step: impl Fn(&[u32]) -> SearchStep + Sync,
    ) -> Result<Vec<(Vec<u32>, StepAnswer)>, IndexError> {
        let request = Box::new(self.request.clone());
        self.runner
            .run(shards, &|shards| Step::Search {
                request: request.clone(),
                step: step(shards),
            })
            .await
    }

    fn every_shard(&self) -> Vec<u32> {
        (0..self.runner.view.shard_count).collect()
    }

    /// Runs a step about `hits` on the shards holding them; answers per hit in the
    /// order of `hits`, taken from each call's answer by `take` (one item per hit sent).
    async fn per_hit<T>(
        &self,
        hits: &[Collected],
        step: impl Fn(Vec<StepHit>) -> SearchStep + Sync,
        take: impl Fn(StepAnswer) -> Result<Vec<T>, IndexError>,
    ) -> Result<Vec<T>, IndexError> {
        let by_shard = positions_by_shard(hits);
        let shards: Vec<u32> = by_shard.keys().copied().collect();
        let answers = self
            .run(&shards, |shards| {
                step(
                    shards
                        .iter()
                        .flat_map(|shard| {
                            by_shard[shard].iter().map(|at| StepHit::from(&hits[*at]))
                        })
                        .collect(),
                )
            })
            .await?;
        let mut found: Vec<Option<T>> = hits.iter().map(|_| None).collect();
        for (shards, answer) in answers {
            let positions: Vec<usize> = shards
                .iter()
                .flat_map(|shard| by_shard[shard].iter().copied())
                .collect();
            let items = take(answer)?;
            if items.len() != positions.len() {
                return Err(engine_error(ClusterError::BadAnswer(format!(
                    "{} answers for {} hits",
                    items.len(),
                    positions.len()
                ))));
            }
            for (at, item) in positions.into_iter().zip(items) {
                found[at] = Some(item);
            }
        }
        found
            .into_iter()
            .map(|item| {
                item.ok_or_else(|| {
                    engine_error(ClusterError::BadAnswer("a hit went unanswered".into()))
                })
            })
            .collect()
    }
}

/// The positions of `hits` by the shard holding them.
fn positions_by_shard(hits: &[Collected]) -> BTreeMap<u32, Vec<usize>> {
    let mut by_shard: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (at, hit) in hits.iter().enumerate() {
        by_shard.entry(hit.shard as u32).or_default().push(at);
    }
    by_shard
}

fn wrong(wanted: &str, answer: &StepAnswer) -> IndexError {
    unexpected(wanted, answer)
}

impl Shards for RemoteShards<'_> {
    async fn keyword_page(
        &self,
        after: Option<podlens_indexer::sort_key::SortKey>,
        limit: usize,
        exclude: &[Uuid],
    ) -> Result<Page, IndexError> {
        let answers = self
            .run(&self.every_shard(), |_| SearchStep::KeywordPage {
                after,
                limit,
                exclude: exclude.to_vec(),
            })
            .await?;
        let pages = answers
            .into_iter()
            .map(|(_, answer)| answer.into_page())
            .collect::<Result<Vec<_>, _>>()?;
        Ok(podlens_indexer::merge_pages(
            &self.request.sort,
            limit,
            pages,
        ))
    }

    async fn similarities(
        &self,
        query: &QueryVector,
        hits: &[Collected],
    ) -> Result<Vec<Option<f32>>, IndexError> {
        self.per_hit(
            hits,
            |hits| SearchStep::Similarities {
                query: query.unit().to_vec(),
                hits,
            },
            |answer| match answer {
                StepAnswer::Similarities { similarities } => Ok(similarities),
                other => Err(wrong("similarities", &other)),
            },
        )
        .await
    }

    async fn titles(&self, hits: &[Collected]) -> Result<Vec<String>, IndexError> {
        self.per_hit(
            hits,
            |hits| SearchStep::Titles { hits },
            |answer| match answer {
                StepAnswer::Titles { titles } => Ok(titles),
                other => Err(wrong("titles", &other)),
            },
        )
        .await
    }

    async fn genres(&self, hits: &[Collected]) -> Result<Vec<Vec<String>>, IndexError> {
        self.per_hit(
            hits,
            |hits| SearchStep::Genres { hits },
            |answer| match answer {
                StepAnswer::Genres { genres } => Ok(genres),
                other => Err(wrong("genres", &other)),
            },
        )
        .await
    }

    async fn centroid(&self, hit: &Collected, shows: bool) -> Result<Option<Vec<f32>>, IndexError> {
        let answers = self
            .run(&[hit.shard as u32], |_| SearchStep::Centroid {
                hit: StepHit::from(hit),
                shows,
            })
            .await?;
        match answers.into_iter().next() {
            Some((_, StepAnswer::Centroid { centroid })) => Ok(centroid),
            Some((_, other)) => Err(wrong("a centroid", &other)),
            None => Ok(None),
        }
    }

    async fn nearest_podcasts(
        &self,
        query: &QueryVector,
        keyword: &HashSet<Uuid>,
        exclude: Option<Uuid>,
    ) -> Result<Vec<(f32, Collected)>, IndexError> {
        let keyword: Vec<Uuid> = keyword.iter().copied().collect();
        let answers = self
            .run(&self.every_shard(), |_| SearchStep::NearestPodcasts {
                query: query.unit().to_vec(),
                keyword: keyword.clone(),
                exclude,
            })
            .await?;
        let mut found = Vec::new();
        for (_, answer) in answers {
            match answer {
                StepAnswer::Nearest { nearest } => found.extend(
                    nearest
                        .iter()
                        .map(|(similarity, hit)| (*similarity, Collected::from(hit))),
                ),
                other => return Err(wrong("nearest podcasts", &other)),
            }
        }
        Ok(found)
    }

    async fn count_matching(&self, ids: &[Uuid]) -> Result<u64, IndexError> {
        if ids.is_empty() {
            return Ok(0);
        }
        let answers = self
            .run(&self.every_shard(), |_| SearchStep::CountMatching {
                ids: ids.to_vec(),
            })
            .await?;
        let mut total = 0;
        for (_, answer) in answers {
            match answer {
                StepAnswer::Count { count } => total += count,
                other => return Err(wrong("a count", &other)),
            }
        }
        Ok(total)
    }

    async fn fetch(&self, hits: &[Collected]) -> Result<Hits, IndexError> {
        let by_shard = positions_by_shard(hits);
        let shards: Vec<u32> = by_shard.keys().copied().collect();
        let answers = self
            .run(&shards, |shards| SearchStep::Fetch {
                hits: shards
                    .iter()
                    .flat_map(|shard| by_shard[shard].iter().map(|at| StepHit::from(&hits[*at])))
                    .collect(),
            })
            .await?;
        // Each call answers its hits in the order sent, leaving out a document gone:
        // the page is put back in order by id.
        let order: HashMap<Uuid, usize> = hits
            .iter()
            .enumerate()
            .map(|(at, hit)| (podlens_indexer::shards::id_of(hit), at))
            .collect();
        let mut podcasts = Vec::new();
        let mut episodes = Vec::new();
        for (_, answer) in answers {
            match podlens_indexer::steps::answered_hits(answer)? {
                Hits::Podcasts(hits) => podcasts.extend(hits),
                Hits::Episodes(hits) => episodes.extend(hits),
            }
        }
        let mode = self.request.effective_mode();
        Ok(match mode {
            podlens_indexer::SearchMode::Podcasts => {
                podcasts.sort_by_key(|hit| order.get(&hit.podcast_id).copied());
                Hits::Podcasts(podcasts)
            }
            podlens_indexer::SearchMode::Episodes => {
                episodes.sort_by_key(|hit| order.get(&hit.episode_id).copied());
                Hits::Episodes(episodes)
            }
        })
    }
}
