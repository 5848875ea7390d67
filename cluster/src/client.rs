//! A root's HTTP client of the search nodes: one step of a search posted to a node, and
//! a node's status. A node that failed a step is tried last for a few seconds, so the
//! searches that follow a failure go to the other replica at once instead of waiting on
//! a dead one; whether a node is in the cluster at all is the membership's business
//! (`crate::membership`), not this client's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use podlens_indexer::steps::{StepAnswer, StepRequest};

use crate::error::ClusterError;
use crate::view::NodeStatus;

/// The path of a search node's steps.
pub const STEPS_PATH: &str = "/internal/v1/steps";
/// The path of a search node's status.
pub const STATUS_PATH: &str = "/internal/v1/node";
/// The header carrying the cluster's shared secret.
pub const TOKEN_HEADER: &str = "x-podlens-cluster-token";

/// How long a node that failed is tried after the others.
const SUSPECT_FOR: Duration = Duration::from_secs(5);
/// How long a step may take on one node before its shards are tried elsewhere.
const STEP_TIMEOUT: Duration = Duration::from_secs(10);
const CONNECT_TIMEOUT: Duration = Duration::from_millis(500);

/// Why a step failed on a node.
#[derive(Debug)]
pub(crate) enum CallError {
    /// The node is gone, overloaded or no longer serves the shards: try another replica.
    Retry(String),
    /// The step itself is wrong: every replica would refuse it.
    Refused(ClusterError),
}

/// The HTTP client of a root.
#[derive(Debug)]
pub struct NodeClient {
    http: reqwest::Client,
    token: Option<String>,
    suspects: Mutex<HashMap<Arc<str>, Instant>>,
}

impl NodeClient {
    /// A client sending `token` (the cluster's shared secret) with every call.
    pub fn new(token: Option<String>) -> Result<NodeClient, ClusterError> {
        let http = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .timeout(STEP_TIMEOUT)
            .no_proxy()
            .pool_max_idle_per_host(64)
            .tcp_nodelay(true)
            .build()
            .map_err(|error| {
                ClusterError::Unavailable(format!("cannot make an HTTP client: {error}"))
            })?;
        Ok(NodeClient {
            http,
            token,
            suspects: Mutex::new(HashMap::new()),
        })
    }

    fn request(&self, builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.token {
            Some(token) => builder.header(TOKEN_HEADER, token),
            None => builder,
        }
    }

    /// Whether `node` failed a step in the last few seconds.
    pub(crate) fn is_suspect(&self, node: &str) -> bool {
        let mut suspects = self.suspects.lock().unwrap_or_else(|e| e.into_inner());
        match suspects.get(node) {
            Some(since) if since.elapsed() < SUSPECT_FOR => true,
            Some(_) => {
                suspects.remove(node);
                false
            }
            None => false,
        }
    }

    pub(crate) fn suspect(&self, node: &Arc<str>) {
        self.suspects
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(node.clone(), Instant::now());
    }

    /// Posts one step to the node at `url`.
    pub(crate) async fn step(
        &self,
        url: &str,
        step: &StepRequest,
    ) -> Result<StepAnswer, CallError> {
        let body = serde_json::to_vec(step)
            .map_err(|error| CallError::Refused(ClusterError::Invalid(error.to_string())))?;
        let response = self
            .request(self.http.post(format!("{url}{STEPS_PATH}")))
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body)
            .send()
            .await
            .map_err(|error| CallError::Retry(format!("{url}: {error}")))?;
        let status = response.status();
        let bytes = response
            .bytes()
            .await
            .map_err(|error| CallError::Retry(format!("{url}: {error}")))?;
        if status.is_success() {
            return serde_json::from_slice(&bytes)
                .map_err(|error| CallError::Retry(format!("{url}: not a step's answer: {error}")));
        }
        let message = String::from_utf8_lossy(&bytes).into_owned();
        if status == reqwest::StatusCode::BAD_REQUEST {
            return Err(CallError::Refused(ClusterError::Invalid(message)));
        }
        Err(CallError::Retry(format!("{url}: {status} {message}")))
    }

    /// What the node at `url` serves.
    pub async fn status(&self, url: &str) -> Result<NodeStatus, ClusterError> {
        let unavailable = |error: String| ClusterError::Unavailable(format!("{url}: {error}"));
        let response = self
            .request(self.http.get(format!("{url}{STATUS_PATH}")))
            .send()
            .await
            .map_err(|error| unavailable(error.to_string()))?;
        if !response.status().is_success() {
            return Err(unavailable(response.status().to_string()));
        }
        let bytes = response
            .bytes()
            .await
            .map_err(|error| unavailable(error.to_string()))?;
        serde_json::from_slice(&bytes).map_err(|error| ClusterError::BadAnswer(error.to_string()))
    }
}
