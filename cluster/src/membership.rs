//! Which search nodes are alive, from etcd: each node keeps its [`NodeStatus`] under
//! `<prefix>/nodes/<name>`, attached to a lease it renews; a node that stops renewing
//! (killed, cut off) disappears when its lease expires. Roots and nodes list the
//! members; nodes work out their shards from them ([`assigned_shards`]).
//!
//! Spoken through etcd's JSON gateway (`/v3/lease/grant`, `/v3/lease/keepalive`,
//! `/v3/kv/put`, `/v3/kv/range`; keys and values in base64), with the HTTP client already
//! in the tree: the `etcd-client` crate would need `protoc` at build time. A call that
//! fails on one endpoint is tried on the next, so a cluster of three etcd members goes on
//! answering while one of them (its leader, say) is down.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use crate::error::ClusterError;
use crate::view::{NodeStatus, ranked};

/// How long a node's lease lives without renewal: how long a killed node stays listed.
pub const LEASE_SECONDS: u64 = 4;

/// An etcd cluster, through its JSON gateway.
#[derive(Debug)]
pub struct Etcd {
    http: reqwest::Client,
    endpoints: Vec<String>,
    /// The endpoint that answered last (tried first).
    current: AtomicUsize,
    prefix: String,
}

fn unavailable(error: impl std::fmt::Display) -> ClusterError {
    ClusterError::Unavailable(format!("etcd: {error}"))
}

/// `prefix` plus one at its last byte: the end of etcd's range of keys under `prefix`.
fn range_end(prefix: &[u8]) -> Vec<u8> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            return end;
        }
    }
    vec![0]
}

/// A 64-bit number of etcd's JSON, which writes them as strings.
fn number(value: &Value) -> Option<i64> {
    match value {
        Value::String(text) => text.parse().ok(),
        Value::Number(number) => number.as_i64(),
        _ => None,
    }
}

impl Etcd {
    /// The etcd cluster at `endpoints` (`http://host:2379`), keys under `prefix`.
    pub fn new(endpoints: &[String], prefix: &str) -> Result<Etcd, ClusterError> {
        if endpoints.is_empty() {
            return Err(unavailable("no endpoint given"));
        }
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_millis(500))
            .timeout(Duration::from_secs(3))
            .no_proxy()
            .build()
            .map_err(unavailable)?;
        Ok(Etcd {
            http,
            endpoints: endpoints
                .iter()
                .map(|endpoint| endpoint.trim_end_matches('/').to_owned())
                .collect(),
            current: AtomicUsize::new(0),
            prefix: prefix.trim_end_matches('/').to_owned(),
        })
    }

    /// Posts `body` to `path` on the endpoint that answered last, then on the others.
    async fn post(&self, path: &str, body: &Value) -> Result<Value, ClusterError> {
        let first = self.current.load(Ordering::Relaxed);
        let mut last_error = String::new();
        for attempt in 0..self.endpoints.len() {
            let at = (first + attempt) % self.endpoints.len();
            let url = format!("{}{path}", self.endpoints[at]);
            let answer = async {
                let response = self
                    .http
                    .post(&url)
                    .header(reqwest::header::CONTENT_TYPE, "application/json")
                    .body(body.to_string())
                    .send()
                    .await
                    .map_err(|error| error.to_string())?;
                let status = response.status();
                let bytes = response.bytes().await.map_err(|error| error.to_string())?;
                if !status.is_success() {
                    return Err(format!("{status}: {}", String::from_utf8_lossy(&bytes)));
                }
                serde_json::from_slice::<Value>(&bytes).map_err(|error| error.to_string())
            }
            .await;
            match answer {
                Ok(value) => {
                    self.current.store(at, Ordering::Relaxed);
                    return Ok(value);
                }
                Err(error) => last_error = format!("{url}: {error}"),
            }
        }
        Err(unavailable(last_error))
    }

    fn key(&self, name: &str) -> String {
        format!("{}/{name}", self.prefix)
    }

    /// A new lease of `seconds`.
    pub async fn grant(&self, seconds: u64) -> Result<i64, ClusterError> {
        let answer = self
            .post("/v3/lease/grant", &json!({ "TTL": seconds }))
            .await?;
        number(&answer["ID"]).ok_or_else(|| unavailable(format!("no lease in {answer}")))
    }

    /// Renews `lease`; false when it has expired.
    pub async fn keep_alive(&self, lease: i64) -> Result<bool, ClusterError> {
        let answer = self
            .post("/v3/lease/keepalive", &json!({ "ID": lease.to_string() }))
            .await?;
        let result = answer.get("result").unwrap_or(&answer);
        Ok(number(&result["TTL"]).is_some_and(|ttl| ttl > 0))
    }

    /// Ends `lease` now, and with it the keys attached to it.
    pub async fn revoke(&self, lease: i64) -> Result<(), ClusterError> {
        self.post("/v3/lease/revoke", &json!({ "ID": lease.to_string() }))
            .await
            .map(|_| ())
    }

    /// Puts `value` at `<prefix>/<name>`, attached to `lease`.
    pub async fn put(&self, name: &str, value: &[u8], lease: i64) -> Result<(), ClusterError> {
        let body = json!({
            "key": STANDARD.encode(self.key(name)),
            "value": STANDARD.encode(value),
            "lease": lease.to_string(),
        });
        self.post("/v3/kv/put", &body).await.map(|_| ())
    }

    /// Every key under `<prefix>/<folder>/` with its value.
    pub async fn list(&self, folder: &str) -> Result<Vec<(String, Vec<u8>)>, ClusterError> {
        let prefix = format!("{}/", self.key(folder));
        let body = json!({
            "key": STANDARD.encode(&prefix),
            "range_end": STANDARD.encode(range_end(prefix.as_bytes())),
        });
        let answer = self.post("/v3/kv/range", &body).await?;
        let Some(kvs) = answer.get("kvs").and_then(Value::as_array) else {
            return Ok(Vec::new());
        };
        Ok(kvs
            .iter()
            .filter_map(|kv| {
                let key = STANDARD.decode(kv["key"].as_str()?).ok()?;
                let value = STANDARD
                    .decode(kv["value"].as_str().unwrap_or_default())
                    .ok()?;
                Some((String::from_utf8(key).ok()?, value))
            })
            .collect())
    }

    /// The search nodes that hold a live lease.
    pub async fn members(&self) -> Result<Vec<NodeStatus>, ClusterError> {
        Ok(self
            .list("nodes")
            .await?
            .into_iter()
            .filter_map(|(key, value)| match serde_json::from_slice(&value) {
                Ok(status) => Some(status),
                Err(error) => {
                    tracing::warn!(%key, %error, "an unreadable member entry is left out");
                    None
                }
            })
            .collect())
    }
}

/// The shards of `shard_count` that `node` serves among `members` (itself included
/// whether listed or not): those for which rendezvous hashing ranks it among the first
/// `replicas`.
pub fn assigned_shards(
    node: &str,
    members: &[&str],
    shard_count: u32,
    replicas: usize,
) -> Vec<u32> {
    let mut names: Vec<&str> = members.to_vec();
    if !names.contains(&node) {
        names.push(node);
    }
    names.sort_unstable();
    names.dedup();
    (0..shard_count)
        .filter(|shard| {
            ranked(names.iter().copied(), *shard)
                .iter()
                .take(replicas.max(1))
                .any(|name| *name == node)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shard_has_its_replicas_among_the_members() {
        let members = ["a", "b", "c", "d", "e"];
        for replicas in 1..=3 {
            let mut holders = vec![0; 16];
            for node in members {
                for shard in assigned_shards(node, &members, 16, replicas) {
                    holders[shard as usize] += 1;
                }
            }
            assert!(
                holders.iter().all(|count| *count == replicas),
                "{holders:?}"
            );
        }
        // fewer members than replicas: every member holds every shard
        assert_eq!(assigned_shards("a", &["a"], 3, 2), vec![0, 1, 2]);
    }

    #[test]
    fn a_range_ends_after_every_key_under_its_prefix() {
        assert_eq!(range_end(b"podlens/nodes/"), b"podlens/nodes0".to_vec());
        assert_eq!(range_end(&[b'a', 0xff]), b"b".to_vec());
    }
}
