//! `podlens search-node`: a search node of a cluster. It opens some shards of the
//! published index generation and runs the steps of searches on them for the roots
//! (the API nodes): `POST /internal/v1/steps` takes a
//! [`podlens_indexer::steps::StepRequest`] and answers its
//! [`podlens_indexer::steps::StepAnswer`]; `GET /internal/v1/node` says which
//! generations and shards the node serves. A newly published generation is opened
//! beside the current one; the previous stays open for [`KEEP_PREVIOUS`], so searches
//! paging through it (their cursors name it) finish on it.
//!
//! The internal routes take the cluster's shared secret in
//! `x-podlens-cluster-token` when one is set, and are meant for the cluster's own
//! network: a node binds to loopback unless told otherwise.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use podlens_cluster::client::StepRefusal;
use podlens_cluster::client::{STATUS_PATH, STEPS_PATH, TOKEN_HEADER};
use podlens_cluster::{NodeStatus, ServedGeneration};
use podlens_indexer::steps::{StepRequest, run_step};
use podlens_indexer::{IndexError, OpenGeneration, read_manifest};

use crate::error::{ApiError, ApiResult};

/// How long a replaced generation stays open for the searches paging through it.
pub const KEEP_PREVIOUS: Duration = Duration::from_secs(600);
/// How often the published manifest is looked at.
const CHECK_INTERVAL: Duration = Duration::from_secs(1);

/// How a search node runs.
#[derive(Debug, Clone)]
pub struct SearchNodeOptions {
    /// `<data-dir>/index`: the published generations.
    pub index_dir: PathBuf,
    pub address: SocketAddr,
    /// The node's name in the cluster.
    pub name: String,
    /// Where roots reach this node; `http://<address>` when not set.
    pub public_url: Option<String>,
    /// The shards this node serves; every shard when empty.
    pub shards: Vec<u32>,
    /// The cluster's shared secret, required on the internal routes when set.
    pub token: Option<String>,
}

/// A generation open here, and when it stopped being the newest.
struct Served {
    generation: Arc<OpenGeneration>,
    replaced_at: Option<Instant>,
}

/// What a search node holds.
pub struct SearchNode {
    options: SearchNodeOptions,
    url: String,
    /// Newest last.
    served: RwLock<Vec<Served>>,
}

impl std::fmt::Debug for SearchNode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchNode")
            .field("name", &self.options.name)
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

impl SearchNode {
    /// A node serving `options.shards` of the generation published under
    /// `options.index_dir` (none yet is fine: it is opened once published).
    pub fn open(options: SearchNodeOptions, address: SocketAddr) -> SearchNode {
        let url = options
            .public_url
            .clone()
            .unwrap_or_else(|| format!("http://{address}"))
            .trim_end_matches('/')
            .to_owned();
        let node = SearchNode {
            options,
            url,
            served: RwLock::new(Vec::new()),
        };
        if let Err(error) = node.refresh() {
            tracing::warn!(%error, "no index generation served yet");
        }
        node
    }

    /// Opens the published generation when it is not open yet, and closes replaced
    /// generations kept longer than [`KEEP_PREVIOUS`].
    pub fn refresh(&self) -> Result<(), IndexError> {
        let index_dir = &self.options.index_dir;
        let Some(manifest) = read_manifest(index_dir)? else {
            return Ok(());
        };
        {
            let mut served = self.served.write().unwrap_or_else(|e| e.into_inner());
            served.retain(|kept| {
                kept.replaced_at
                    .is_none_or(|replaced| replaced.elapsed() < KEEP_PREVIOUS)
            });
            if served
                .last()
                .is_some_and(|newest| newest.generation.manifest == manifest)
            {
                return Ok(());
            }
        }
        let shards: Vec<u32> = if self.options.shards.is_empty() {
            (0..manifest.shards).collect()
        } else {
            self.options.shards.clone()
        };
        let number = manifest.generation;
        let opened = Arc::new(OpenGeneration::open_shards(index_dir, manifest, &shards)?);
        let mut served = self.served.write().unwrap_or_else(|e| e.into_inner());
        if let Some(newest) = served.last_mut() {
            newest.replaced_at = Some(Instant::now());
        }
        served.push(Served {
            generation: opened,
            replaced_at: None,
        });
        tracing::info!(generation = number, ?shards, "serving index generation");
        Ok(())
    }

    /// The open generation numbered `number`.
    fn generation(&self, number: u64) -> Option<Arc<OpenGeneration>> {
        self.served
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|kept| kept.generation.manifest.generation == number)
            .map(|kept| kept.generation.clone())
    }

    /// What this node serves.
    pub fn status(&self) -> NodeStatus {
        let served = self.served.read().unwrap_or_else(|e| e.into_inner());
        NodeStatus {
            node: self.options.name.clone(),
            url: self.url.clone(),
            generations: served
                .iter()
                .map(|kept| ServedGeneration {
                    generation: kept.generation.manifest.generation,
                    shard_count: kept.generation.manifest.shards,
                    shards: kept.generation.shard_numbers.clone(),
                    model: kept
                        .generation
                        .manifest
                        .vectors
                        .as_ref()
                        .map(|vectors| vectors.model_sha256.clone()),
                })
                .collect(),
        }
    }

    fn authorized(&self, headers: &HeaderMap) -> bool {
        let Some(token) = &self.options.token else {
            return true;
        };
        headers
            .get(TOKEN_HEADER)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|sent| constant_time_eq(sent.as_bytes(), token.as_bytes()))
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The node's routes.
pub fn router(node: Arc<SearchNode>) -> Router {
    Router::new()
        .route(STEPS_PATH, post(step))
        .route(STATUS_PATH, get(status))
        .route("/api/v1/public/health", get(health))
        .with_state(node)
}

fn refused(status: StatusCode, message: impl Into<String>) -> Response {
    (status, message.into()).into_response()
}

async fn health() -> &'static str {
    "ok"
}

async fn status(State(node): State<Arc<SearchNode>>, headers: HeaderMap) -> Response {
    if !node.authorized(&headers) {
        return refused(
            StatusCode::UNAUTHORIZED,
            "the cluster token is missing or wrong",
        );
    }
    axum::Json(node.status()).into_response()
}

async fn step(State(node): State<Arc<SearchNode>>, headers: HeaderMap, body: Bytes) -> Response {
    if !node.authorized(&headers) {
        return refused(
            StatusCode::UNAUTHORIZED,
            "the cluster token is missing or wrong",
        );
    }
    let request: StepRequest = match serde_json::from_slice(&body) {
        Ok(request) => request,
        Err(error) => {
            let refusal =
                StepRefusal::of(&IndexError::InvalidRequest(format!("not a step: {error}")));
            return (StatusCode::BAD_REQUEST, axum::Json(refusal)).into_response();
        }
    };
    let Some(generation) = node.generation(request.generation) else {
        return refused(
            StatusCode::CONFLICT,
            format!("generation {} is not served here", request.generation),
        );
    };
    let answered = crate::state::on_search_pool(move || Ok(run_step(&generation, &request))).await;
    match answered {
        Ok(Ok(answer)) => axum::Json(answer).into_response(),
        Ok(Err(error)) => match StepRefusal::of(&error) {
            // what the search itself asks wrongly: the same on every replica
            Some(refusal) => (StatusCode::BAD_REQUEST, axum::Json(refusal)).into_response(),
            None => {
                let status = match &error {
                    IndexError::GenerationGone(_) => StatusCode::CONFLICT,
                    IndexError::ShardNotServed(_) => StatusCode::SERVICE_UNAVAILABLE,
                    _ => {
                        tracing::error!(%error, "a search step failed");
                        StatusCode::INTERNAL_SERVER_ERROR
                    }
                };
                refused(status, error.to_string())
            }
        },
        Err(error) => refused(StatusCode::INTERNAL_SERVER_ERROR, error.to_string()),
    }
}

/// Binds `options.address`, calls `on_listening` with the bound address, and serves
/// until Ctrl-C or SIGTERM; the published generation is followed once a second.
pub async fn serve(
    options: SearchNodeOptions,
    on_listening: impl FnOnce(SocketAddr),
) -> ApiResult<()> {
    let listener = tokio::net::TcpListener::bind(options.address)
        .await
        .map_err(|error| {
            ApiError::Internal(format!("cannot listen on {}: {error}", options.address))
        })?;
    let local = listener.local_addr().map_err(ApiError::internal)?;
    let node = Arc::new(
        tokio::task::spawn_blocking(move || SearchNode::open(options, local))
            .await
            .map_err(ApiError::internal)?,
    );
    on_listening(local);
    let following = node.clone();
    let follow = tokio::spawn(async move {
        let mut ticks = tokio::time::interval(CHECK_INTERVAL);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let node = following.clone();
            let refreshed = tokio::task::spawn_blocking(move || node.refresh()).await;
            if let Ok(Err(error)) = refreshed {
                tracing::warn!(%error, "keeping the generations served");
            }
        }
    });
    let served = axum::serve(listener, router(node))
        .with_graceful_shutdown(async {
            let signal = crate::server::shutdown_signal().await;
            tracing::info!(signal, "search node shutting down");
        })
        .await
        .map_err(|error| ApiError::Internal(format!("search node failed: {error}")));
    follow.abort();
    served
}
