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
use podlens_cluster::artifacts::Artifacts;
use podlens_cluster::client::StepRefusal;
use podlens_cluster::client::{STATUS_PATH, STEPS_PATH, TOKEN_HEADER};
use podlens_cluster::membership::{Etcd, LEASE_SECONDS, assigned_shards};
use podlens_cluster::{NodeStatus, ServedGeneration};
use podlens_indexer::steps::{StepRequest, run_step};
use podlens_indexer::{IndexError, OpenGeneration, read_manifest};

use crate::error::{ApiError, ApiResult};

/// How long a replaced generation stays open for the searches paging through it.
pub const KEEP_PREVIOUS: Duration = Duration::from_secs(600);
/// How often the published manifest is looked at.
const CHECK_INTERVAL: Duration = Duration::from_secs(1);
/// How often a node renews its membership lease and rereads the members.
const MEMBERSHIP_INTERVAL: Duration = Duration::from_secs(1);

/// How a search node runs.
#[derive(Debug, Clone)]
pub struct SearchNodeOptions {
    /// `<data-dir>/index`: the published generations.
    pub index_dir: PathBuf,
    pub address: SocketAddr,
    /// The node's name in the cluster; empty: `search-<port>`, the port it listens on
    /// (so nodes started on port 0 are told apart).
    pub name: String,
    /// Where roots reach this node; `http://<address>` when not set.
    pub public_url: Option<String>,
    /// The shards this node serves; every shard when empty (and no etcd is given).
    pub shards: Vec<u32>,
    /// etcd's endpoints: the node keeps its entry there under a lease, and serves the
    /// shards rendezvous hashing gives it among the live nodes (`shards` is then unused).
    pub etcd: Vec<String>,
    /// The prefix of the cluster's keys in etcd.
    pub etcd_prefix: String,
    /// How many nodes serve each shard (with etcd).
    pub replicas: usize,
    /// The cluster's shared secret, required on the internal routes when set.
    pub token: Option<String>,
    /// The object store holding the cluster's generations (`s3://bucket/prefix`,
    /// `file:///dir`): the node pulls the shards it serves of the newest generation
    /// the metastore lists into `index_dir`. Without it, the node serves what is
    /// published in `index_dir`.
    pub object_store: Option<String>,
    /// The metastore (the application database the API nodes share), with an object store.
    pub metastore: Option<podlens_store::Location>,
}

/// Where a node pulls its shards from: the object store, and the metastore naming the
/// newest generation in it.
struct Remote {
    artifacts: Artifacts,
    metastore: Arc<podlens_store::Database>,
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
    /// The shards to serve when membership decides them (`None`: the options').
    assigned: RwLock<Option<Vec<u32>>>,
    remote: Option<Remote>,
    /// The newest generation the metastore lists: its number and shard count.
    listed: RwLock<Option<(u64, u32)>>,
    /// The generation and shards pulled last (pulled again only when they change).
    pulled: std::sync::Mutex<Option<(u64, Vec<u32>)>>,
    /// One pull and refresh at a time.
    syncing: tokio::sync::Mutex<()>,
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
        SearchNode::with_remote(options, address, None)
    }

    fn with_remote(
        options: SearchNodeOptions,
        address: SocketAddr,
        remote: Option<Remote>,
    ) -> SearchNode {
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
            assigned: RwLock::new(None),
            remote,
            listed: RwLock::new(None),
            pulled: std::sync::Mutex::new(None),
            syncing: tokio::sync::Mutex::new(()),
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
        let Some(shards) = self.wanted(manifest.shards) else {
            return Ok(());
        };
        {
            let mut served = self.served.write().unwrap_or_else(|e| e.into_inner());
            served.retain(|kept| {
                kept.replaced_at
                    .is_none_or(|replaced| replaced.elapsed() < KEEP_PREVIOUS)
            });
            if served.last().is_some_and(|newest| {
                newest.generation.manifest == manifest && newest.generation.shard_numbers == shards
            }) {
                return Ok(());
            }
        }
        if shards.is_empty() {
            return Ok(());
        }
        let number = manifest.generation;
        let opened = Arc::new(OpenGeneration::open_shards(index_dir, manifest, &shards)?);
        let mut served = self.served.write().unwrap_or_else(|e| e.into_inner());
        match served.last_mut() {
            // the same generation on other shards (the membership moved some): replaced
            // at once, the searches in flight keep theirs
            Some(newest) if newest.generation.manifest.generation == number => {
                newest.generation = opened;
            }
            Some(newest) => {
                newest.replaced_at = Some(Instant::now());
                served.push(Served {
                    generation: opened,
                    replaced_at: None,
                });
            }
            None => served.push(Served {
                generation: opened,
                replaced_at: None,
            }),
        }
        tracing::info!(generation = number, ?shards, "serving index generation");
        Ok(())
    }

    /// The shards to serve of a generation of `count` shards; `None` while the
    /// membership has not decided them yet.
    fn wanted(&self, count: u32) -> Option<Vec<u32>> {
        let assigned = self
            .assigned
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let mut shards: Vec<u32> = match assigned {
            Some(assigned) => assigned,
            None if !self.options.etcd.is_empty() => return None,
            None if self.options.shards.is_empty() => (0..count).collect(),
            None => self.options.shards.clone(),
        };
        shards.retain(|shard| *shard < count);
        shards.sort_unstable();
        shards.dedup();
        Some(shards)
    }

    /// The shard count of the generation to serve: the newest the metastore lists
    /// (with an object store), else the one published in the index directory.
    fn shard_count(&self) -> Option<u32> {
        if self.remote.is_some() {
            return self
                .listed
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .map(|(_, shards)| shards);
        }
        read_manifest(&self.options.index_dir)
            .ok()
            .flatten()
            .map(|manifest| manifest.shards)
    }

    /// With an object store, pulls the shards to serve of the newest generation the
    /// metastore lists; then opens what is published in the index directory.
    async fn sync(self: &Arc<Self>) {
        let _one = self.syncing.lock().await;
        if let Some(remote) = &self.remote {
            match remote.metastore.newest_generation().await {
                Ok(Some(newest)) => {
                    *self.listed.write().unwrap_or_else(|e| e.into_inner()) =
                        Some((newest.generation, newest.shards));
                    if let Some(shards) = self.wanted(newest.shards) {
                        let wanted = Some((newest.generation, shards.clone()));
                        let pulled = self
                            .pulled
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .clone();
                        if !shards.is_empty() && pulled != wanted {
                            let started = Instant::now();
                            match remote
                                .artifacts
                                .pull_generation(
                                    &self.options.index_dir,
                                    newest.generation,
                                    &shards,
                                )
                                .await
                            {
                                Ok(bytes) => {
                                    tracing::info!(
                                        generation = newest.generation,
                                        ?shards,
                                        bytes,
                                        seconds = started.elapsed().as_secs_f64(),
                                        "pulled from the object store"
                                    );
                                    *self.pulled.lock().unwrap_or_else(|e| e.into_inner()) = wanted;
                                }
                                Err(error) => tracing::warn!(
                                    %error,
                                    generation = newest.generation,
                                    "the shards to serve could not be pulled; keeping those served"
                                ),
                            }
                        }
                    }
                }
                Ok(None) => {}
                Err(error) => {
                    tracing::warn!(%error, "the metastore is unreadable; keeping the generations served");
                }
            }
        }
        let node = self.clone();
        let refreshed = tokio::task::spawn_blocking(move || {
            node.refresh()?;
            node.prune();
            Ok::<(), IndexError>(())
        })
        .await;
        if let Ok(Err(error)) = refreshed {
            tracing::warn!(%error, "keeping the generations served");
        }
    }

    /// With an object store, removes from the index directory the files of the shards
    /// this node no longer serves of its newest generation (pulled again if they come
    /// back). Searches still running on them keep their open files.
    fn prune(&self) {
        if self.remote.is_none() {
            return;
        }
        let newest = {
            let served = self.served.read().unwrap_or_else(|e| e.into_inner());
            served.last().map(|kept| {
                (
                    kept.generation.manifest.generation,
                    kept.generation.shard_numbers.clone(),
                )
            })
        };
        let Some((generation, shards)) = newest else {
            return;
        };
        let dir = podlens_indexer::generation::generation_dir(&self.options.index_dir, generation);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(shard) = name
                .to_str()
                .and_then(|name| name.strip_prefix("shard-"))
                .and_then(|number| number.parse::<u32>().ok())
            else {
                continue;
            };
            if !shards.contains(&shard) {
                match std::fs::remove_dir_all(entry.path()) {
                    Ok(()) => tracing::info!(generation, shard, "removed a shard no longer served"),
                    Err(error) => {
                        tracing::warn!(%error, shard, "a shard no longer served stays on disk")
                    }
                }
                // pulled again when it comes back
                let mut pulled = self.pulled.lock().unwrap_or_else(|e| e.into_inner());
                if pulled
                    .as_ref()
                    .is_some_and(|(number, _)| *number == generation)
                {
                    *pulled = None;
                }
            }
        }
    }

    /// Serves `shards` from now on (the membership's assignment).
    fn assign(&self, shards: Vec<u32>) {
        *self.assigned.write().unwrap_or_else(|e| e.into_inner()) = Some(shards);
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
                    encoder: kept
                        .generation
                        .manifest
                        .encoder
                        .as_ref()
                        .map(|shows| shows.model_sha256.clone()),
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
    let mut options = options;
    if options.name.is_empty() {
        options.name = format!("search-{}", local.port());
    }
    let remote = match (&options.object_store, &options.metastore) {
        (Some(url), Some(location)) => {
            let artifacts =
                Artifacts::open(url).map_err(|error| ApiError::Unavailable(error.to_string()))?;
            let location = location.clone();
            let metastore =
                tokio::task::spawn_blocking(move || podlens_store::Database::open(&location))
                    .await
                    .map_err(ApiError::internal)?
                    .map_err(|error| ApiError::Unavailable(format!("the metastore: {error}")))?;
            Some(Remote {
                artifacts,
                metastore: Arc::new(metastore),
            })
        }
        (Some(_), None) => {
            return Err(ApiError::Unavailable(
                "an object store needs the metastore (--database-url)".into(),
            ));
        }
        _ => None,
    };
    let node = Arc::new(
        tokio::task::spawn_blocking(move || SearchNode::with_remote(options, local, remote))
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
            following.sync().await;
        }
    });
    let membership = if node.options.etcd.is_empty() {
        None
    } else {
        let etcd = Arc::new(
            Etcd::new(&node.options.etcd, &node.options.etcd_prefix)
                .map_err(|error| ApiError::Unavailable(error.to_string()))?,
        );
        let lease = Arc::new(std::sync::Mutex::new(None));
        let task = tokio::spawn(keep_membership(node.clone(), etcd.clone(), lease.clone()));
        Some((etcd, lease, task))
    };
    let served = axum::serve(listener, router(node))
        .with_graceful_shutdown(async {
            let signal = crate::server::shutdown_signal().await;
            tracing::info!(signal, "search node shutting down");
        })
        .await
        .map_err(|error| ApiError::Internal(format!("search node failed: {error}")));
    follow.abort();
    if let Some((etcd, lease, task)) = membership {
        task.abort();
        // Leaving at once: roots stop sending steps here without waiting for the lease.
        let held = *lease.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(lease) = held
            && let Err(error) = etcd.revoke(lease).await
        {
            tracing::warn!(%error, "could not give the membership lease back");
        }
    }
    served
}

/// Keeps the node a member of the cluster in etcd: a lease renewed every second, the
/// node's status under it, and the shards rendezvous hashing gives it among the live
/// members, opened before they are listed.
async fn keep_membership(
    node: Arc<SearchNode>,
    etcd: Arc<Etcd>,
    held: Arc<std::sync::Mutex<Option<i64>>>,
) {
    let mut ticks = tokio::time::interval(MEMBERSHIP_INTERVAL);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut lease: Option<i64> = None;
    loop {
        ticks.tick().await;
        if let Some(id) = lease {
            match etcd.keep_alive(id).await {
                Ok(true) => {}
                Ok(false) => lease = None,
                Err(error) => {
                    tracing::warn!(%error, "membership lease not renewed");
                    continue;
                }
            }
        }
        if lease.is_none() {
            match etcd.grant(LEASE_SECONDS).await {
                Ok(id) => lease = Some(id),
                Err(error) => {
                    tracing::warn!(%error, "no membership lease");
                    continue;
                }
            }
        }
        *held.lock().unwrap_or_else(|e| e.into_inner()) = lease;
        let Some(id) = lease else { continue };
        match etcd.members().await {
            Ok(members) => {
                let names: Vec<&str> = members
                    .iter()
                    .filter(|member| member.node != node.options.name)
                    .map(|member| member.node.as_str())
                    .collect();
                let counting = node.clone();
                let count = tokio::task::spawn_blocking(move || counting.shard_count())
                    .await
                    .ok()
                    .flatten();
                if let Some(count) = count {
                    node.assign(assigned_shards(
                        &node.options.name,
                        &names,
                        count,
                        node.options.replicas,
                    ));
                    node.sync().await;
                }
            }
            Err(error) => tracing::warn!(%error, "members not read; keeping the shards served"),
        }
        let status = match serde_json::to_vec(&node.status()) {
            Ok(status) => status,
            Err(_) => continue,
        };
        if let Err(error) = etcd
            .put(&format!("nodes/{}", node.options.name), &status, id)
            .await
        {
            tracing::warn!(%error, "membership entry not written");
        }
    }
}
