//! An API node of a cluster (docs/cluster.md): the index's shards are served by search
//! nodes, and every call of [`SearchEngine`] runs as a root over them
//! (`podlens_cluster::RemoteShards`, `podlens_indexer::lookups`). Which nodes serve
//! which shards is watched once every [`WATCH_INTERVAL`]: from etcd (each search node's
//! lease-bound entry) or, without etcd, by asking a fixed list of nodes; the root keeps
//! its last view while neither answers, so searches go on while etcd changes leader.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use futures_util::future::join_all;
use podlens_cluster::membership::Etcd;
use podlens_cluster::{ClusterView, NodeClient, NodeStatus, RemoteRunner, RemoteShards};
use podlens_indexer::directory::Directory;
use podlens_indexer::embedding::StaticModel;
use podlens_indexer::{
    Autocomplete, DEFAULT_RELATED_METHOD, PodcastHit, RelatedMethod, SearchRequest, SearchResponse,
    SemanticRequest, VectorSearchOptions, like_request, lookups, others,
};
use uuid::Uuid;

use super::engine::{EngineFuture, GenerationInfo, SearchEngine};
use super::query_encoder::{Encodable, QueryEncoder};
use crate::error::{AppError, AppResult};

/// How often the root looks at which nodes serve which shards.
pub const WATCH_INTERVAL: Duration = Duration::from_millis(500);

/// Where an API node learns which search nodes serve which shards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Membership {
    /// etcd's endpoints and the prefix of the cluster's keys.
    Etcd {
        endpoints: Vec<String>,
        prefix: String,
    },
    /// A fixed list of search nodes, each asked what it serves.
    Nodes(Vec<String>),
}

/// How an API node reaches its cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterOptions {
    pub membership: Membership,
    /// The cluster's shared secret, sent with every call to a search node.
    pub token: Option<String>,
}

/// The view of the cluster and the model its generation's vectors were made with.
#[derive(Debug)]
struct Current {
    view: Arc<ClusterView>,
    model: Option<Arc<StaticModel>>,
}

/// A cluster's shards, searched from an API node.
#[derive(Debug)]
pub struct ClusterEngine {
    client: Arc<NodeClient>,
    current: Arc<RwLock<Option<Arc<Current>>>>,
    /// The generation's directory, merged once from every shard.
    directory: Mutex<Option<(u64, Arc<Directory>)>>,
}

fn unavailable() -> AppError {
    AppError::Unavailable(
        "Search is starting: no search node serves every shard of the index yet; try again shortly."
            .into(),
    )
}

impl ClusterEngine {
    /// An engine over the cluster `options` names; `index_dir` holds the generations'
    /// embedding models (`<index>/models/<sha>`). Watches the membership on the current
    /// runtime from now on.
    pub fn start(options: &ClusterOptions, index_dir: PathBuf) -> AppResult<Arc<ClusterEngine>> {
        let client = Arc::new(
            NodeClient::new(options.token.clone())
                .map_err(|error| AppError::Unavailable(error.to_string()))?,
        );
        let engine = Arc::new(ClusterEngine {
            client: client.clone(),
            current: Arc::default(),
            directory: Mutex::new(None),
        });
        let source = match &options.membership {
            Membership::Etcd { endpoints, prefix } => Source::Etcd(
                Etcd::new(endpoints, prefix)
                    .map_err(|error| AppError::Unavailable(error.to_string()))?,
            ),
            Membership::Nodes(urls) => Source::Nodes(urls.clone()),
        };
        let current = engine.current.clone();
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| {
            AppError::Internal("a cluster engine starts on the server's runtime".into())
        })?;
        runtime.spawn(watch(source, client, current, index_dir));
        Ok(engine)
    }

    fn current(&self) -> AppResult<Arc<Current>> {
        self.current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .ok_or_else(unavailable)
    }
}

/// Where the members come from.
enum Source {
    Etcd(Etcd),
    Nodes(Vec<String>),
}

impl Source {
    async fn members(&self, client: &NodeClient) -> Result<Vec<NodeStatus>, String> {
        match self {
            Source::Etcd(etcd) => etcd.members().await.map_err(|error| error.to_string()),
            Source::Nodes(urls) => {
                let answers = join_all(urls.iter().map(|url| client.status(url))).await;
                Ok(answers.into_iter().filter_map(Result::ok).collect())
            }
        }
    }
}

/// Keeps `current` on the newest generation the live search nodes serve in full.
async fn watch(
    source: Source,
    client: Arc<NodeClient>,
    current: Arc<RwLock<Option<Arc<Current>>>>,
    index_dir: PathBuf,
) {
    let mut ticks = tokio::time::interval(WATCH_INTERVAL);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut warned = false;
    loop {
        ticks.tick().await;
        let members = match source.members(&client).await {
            Ok(members) => members,
            Err(error) => {
                // etcd changing leader, say: searches go on with the last view
                tracing::debug!(%error, "cluster membership not read; keeping the last view");
                continue;
            }
        };
        let view = match ClusterView::of(&members) {
            Ok(view) => view,
            Err(error) => {
                if !warned {
                    tracing::warn!(%error, "the cluster does not serve a whole generation yet");
                    warned = true;
                }
                continue;
            }
        };
        warned = false;
        let known = current.read().unwrap_or_else(|e| e.into_inner()).clone();
        if known.as_ref().is_some_and(|known| *known.view == view) {
            continue;
        }
        let model = match &view.model {
            Some(sha) => {
                let (dir, sha) = (index_dir.clone(), sha.clone());
                let loaded = tokio::task::spawn_blocking(move || {
                    podlens_indexer::vectors::load_index_model(&dir, &sha)
                })
                .await;
                match loaded {
                    Ok(Ok(model)) => Some(model),
                    Ok(Err(error)) => {
                        tracing::warn!(%error, "the generation's embedding model is not here: searches keep the keyword order");
                        None
                    }
                    Err(_) => None,
                }
            }
            None => None,
        };
        tracing::info!(
            generation = view.generation,
            shards = view.shard_count,
            "searching the cluster's generation"
        );
        *current.write().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(Current {
            view: Arc::new(view),
            model,
        }));
    }
}

/// `request` with the encoder's vector of its words when the view's show vectors come
/// from the encoder this node holds (embedded on the search pool, off the runtime).
async fn embedded<R: Encodable + Send + 'static>(request: R, view: &ClusterView) -> AppResult<R> {
    let Some(shows) = view.encoder.clone() else {
        return Ok(request);
    };
    if request.encoder_text().is_none() {
        return Ok(request);
    }
    let mut request = request;
    super::engine::on_search_pool(move || {
        QueryEncoder::fill_shared(&mut request, Some(&shows));
        Ok(request)
    })
    .await
}

impl SearchEngine for ClusterEngine {
    fn search(&self, request: SearchRequest) -> EngineFuture<'_, SearchResponse> {
        Box::pin(async move {
            let current = self.current()?;
            // The root embeds a podcast search's words once; its steps carry the vector.
            let request = embedded(request, &current.view).await?;
            let shards = RemoteShards {
                runner: RemoteRunner {
                    client: &self.client,
                    view: &current.view,
                },
                request: &request,
            };
            Ok(podlens_indexer::steps::search_over(
                &shards,
                &request,
                current.model.as_deref(),
                current.view.generation,
            )
            .await?)
        })
    }

    fn semantic_search(&self, request: SemanticRequest) -> EngineFuture<'_, SearchResponse> {
        Box::pin(async move {
            let current = self.current()?;
            let request = embedded(request, &current.view).await?;
            let runner = RemoteRunner {
                client: &self.client,
                view: &current.view,
            };
            Ok(lookups::semantic_over(
                &runner,
                current.model.as_deref(),
                &request,
                VectorSearchOptions::default(),
            )
            .await?)
        })
    }

    fn related_podcasts(&self, podcast: Uuid, limit: usize) -> EngineFuture<'_, Vec<PodcastHit>> {
        Box::pin(async move {
            let current = self.current()?;
            let runner = RemoteRunner {
                client: &self.client,
                view: &current.view,
            };
            let vectors = current.view.model.is_some();
            // The "like" ranking is a search with the show named, as one node runs it.
            if DEFAULT_RELATED_METHOD == RelatedMethod::Like && vectors {
                let found = lookups::podcasts_by_ids(&runner, &[podcast]).await?;
                let Some(show) = found.first() else {
                    return Ok(Vec::new());
                };
                if let Some(request) = like_request(podcast, &show.title, limit) {
                    let found = self.search(request).await?;
                    return Ok(others(found.hits, podcast, limit));
                }
            }
            Ok(
                lookups::related_over(&runner, vectors, podcast, limit, DEFAULT_RELATED_METHOD)
                    .await?,
            )
        })
    }

    fn autocomplete(&self, prefix: String, limit: usize) -> EngineFuture<'_, Autocomplete> {
        Box::pin(async move {
            let current = self.current()?;
            let runner = RemoteRunner {
                client: &self.client,
                view: &current.view,
            };
            Ok(lookups::autocomplete_over(&runner, &prefix, limit).await?)
        })
    }

    fn directory(&self) -> EngineFuture<'_, Arc<Directory>> {
        Box::pin(async move {
            let current = self.current()?;
            let generation = current.view.generation;
            if let Some((held, directory)) =
                &*self.directory.lock().unwrap_or_else(|e| e.into_inner())
                && *held == generation
            {
                return Ok(directory.clone());
            }
            let runner = RemoteRunner {
                client: &self.client,
                view: &current.view,
            };
            let directory = Arc::new(lookups::directory_over(&runner).await?);
            *self.directory.lock().unwrap_or_else(|e| e.into_inner()) =
                Some((generation, directory.clone()));
            Ok(directory)
        })
    }

    fn podcast_hits(&self, ids: Vec<Uuid>) -> EngineFuture<'_, Vec<PodcastHit>> {
        Box::pin(async move {
            let current = self.current()?;
            let runner = RemoteRunner {
                client: &self.client,
                view: &current.view,
            };
            Ok(lookups::podcasts_by_ids(&runner, &ids).await?)
        })
    }

    fn generation(&self) -> EngineFuture<'_, GenerationInfo> {
        Box::pin(async move {
            let current = self.current()?;
            Ok(GenerationInfo {
                generation: current.view.generation,
                vectors: current.model.is_some(),
            })
        })
    }
}
