//! A root's HTTP client of the search nodes: one step of a search posted to a node, and
//! a node's status. A node that failed a step is tried last for a few seconds, so the
//! searches that follow a failure go to the other replica at once instead of waiting on
//! a dead one; whether a node is in the cluster at all is the membership's business
//! (`crate::membership`), not this client's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use podlens_indexer::IndexError;
use podlens_indexer::steps::{StepAnswer, StepRequest};
use serde::{Deserialize, Serialize};

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
    /// The step itself is wrong (a bad cursor, a search past its time limit): every
    /// replica would refuse it, and the root answers the client as one node would.
    Refused(IndexError),
}

/// A node's refusal of a step (a 400), in terms the root turns back into the engine's
/// error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepRefusal {
    pub kind: RefusalKind,
    pub message: String,
}

/// What was wrong with a refused step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RefusalKind {
    Invalid,
    Cursor,
    Deadline,
    Vectors,
}

impl StepRefusal {
    /// The refusal of `error`, when it is the search's own fault (`None`: the node's).
    pub fn of(error: &IndexError) -> Option<StepRefusal> {
        let kind = match error {
            IndexError::InvalidRequest(_) => RefusalKind::Invalid,
            IndexError::InvalidCursor(_) => RefusalKind::Cursor,
            IndexError::DeadlinePassed => RefusalKind::Deadline,
            IndexError::VectorsUnavailable => RefusalKind::Vectors,
            _ => return None,
        };
        let message = match error {
            IndexError::InvalidRequest(message) | IndexError::InvalidCursor(message) => {
                message.clone()
            }
            other => other.to_string(),
        };
        Some(StepRefusal { kind, message })
    }

    /// The engine's error it stands for.
    pub fn into_error(self) -> IndexError {
        match self.kind {
            RefusalKind::Invalid => IndexError::InvalidRequest(self.message),
            RefusalKind::Cursor => IndexError::InvalidCursor(self.message),
            RefusalKind::Deadline => IndexError::DeadlinePassed,
            RefusalKind::Vectors => IndexError::VectorsUnavailable,
        }
    }
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
            .map_err(|error| CallError::Refused(IndexError::InvalidRequest(error.to_string())))?;
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
        if status == reqwest::StatusCode::BAD_REQUEST
            && let Ok(refusal) = serde_json::from_slice::<StepRefusal>(&bytes)
        {
            return Err(CallError::Refused(refusal.into_error()));
        }
        let message = String::from_utf8_lossy(&bytes).into_owned();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_step_reaches_the_root_as_the_engine_error_a_single_node_gives() {
        for error in [
            IndexError::InvalidRequest("page size must be between 1 and 1000".into()),
            IndexError::InvalidCursor("not base64".into()),
            IndexError::DeadlinePassed,
            IndexError::VectorsUnavailable,
        ] {
            let expected = error.to_string();
            let refusal = StepRefusal::of(&error).expect("the search's own fault");
            let sent = serde_json::to_vec(&refusal).unwrap();
            let received: StepRefusal = serde_json::from_slice(&sent).unwrap();
            assert_eq!(received.into_error().to_string(), expected);
        }
        // a node's own trouble is not the search's: another replica is tried
        assert!(StepRefusal::of(&IndexError::ShardNotServed(3)).is_none());
        assert!(StepRefusal::of(&IndexError::GenerationGone(7)).is_none());
    }
}
