//! Which search nodes serve which shards: what each node says of itself
//! ([`NodeStatus`]), and a root's view of one generation's shards over the live nodes
//! ([`ClusterView`]), each shard's replicas ordered by rendezvous hashing so that a
//! shard's searches go to the same node while it lives (its caches stay warm) and move
//! to the next one when it does not.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::error::ClusterError;

/// What a search node serves: the generations it has open and their shards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeStatus {
    /// The node's name, unique in the cluster.
    pub node: String,
    /// Where roots reach it (`http://host:port`).
    pub url: String,
    /// The generations it serves, newest last, with the shards of each it has open.
    pub generations: Vec<ServedGeneration>,
}

/// One generation a node serves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServedGeneration {
    pub generation: u64,
    /// The generation's number of shards.
    pub shard_count: u32,
    /// The shards of it this node has open.
    pub shards: Vec<u32>,
    /// The sha256 of the embedding model its vectors were made with (`None`: no
    /// vectors), which roots load from their own `<index>/models/<sha>`.
    #[serde(default)]
    pub model: Option<String>,
    /// The sha256 of the multilingual encoder's model its show vectors were made with
    /// (`None`: no show vectors): roots embed podcast searches with it when they hold it.
    #[serde(default)]
    pub encoder: Option<String>,
}

/// The rendezvous weight of `node` for `shard`: each shard ranks the nodes by it.
pub fn rendezvous_weight(node: &str, shard: u32) -> u64 {
    // FNV-1a over the node's name and the shard number: stable across builds and
    // machines (std's hasher is not), and spread well enough for ranking a few nodes.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in node.bytes().chain(shard.to_be_bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    // a final mix, so nodes whose names differ in the last byte do not rank in step
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
    hash ^ (hash >> 33)
}

/// The nodes of `nodes` ranked for `shard`, best first.
pub fn ranked<'a>(nodes: impl IntoIterator<Item = &'a str>, shard: u32) -> Vec<&'a str> {
    let mut ranked: Vec<&str> = nodes.into_iter().collect();
    ranked.sort_by(|a, b| {
        rendezvous_weight(b, shard)
            .cmp(&rendezvous_weight(a, shard))
            .then(a.cmp(b))
    });
    ranked
}

/// One node that serves a shard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replica {
    pub node: Arc<str>,
    pub url: Arc<str>,
}

/// A root's view of the generation it searches: every shard's replicas, in the order
/// a step tries them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterView {
    pub generation: u64,
    pub shard_count: u32,
    /// The embedding model of the generation's vectors (`None`: no vectors).
    pub model: Option<String>,
    /// The encoder model of the generation's show vectors (`None`: none).
    pub encoder: Option<String>,
    replicas: Vec<Vec<Replica>>,
}

impl ClusterView {
    /// The view of the newest generation whose every shard some node of `nodes`
    /// serves; an error when there is none.
    pub fn of(nodes: &[NodeStatus]) -> Result<ClusterView, ClusterError> {
        // generation → (shard count, models, shard → nodes serving it)
        type Models = (Option<String>, Option<String>);
        type Served<'a> = (u32, Models, BTreeMap<u32, Vec<&'a NodeStatus>>);
        let mut served: BTreeMap<u64, Served<'_>> = BTreeMap::new();
        for node in nodes {
            for generation in &node.generations {
                let entry = served.entry(generation.generation).or_insert_with(|| {
                    (
                        generation.shard_count,
                        (generation.model.clone(), generation.encoder.clone()),
                        BTreeMap::new(),
                    )
                });
                if entry.0 != generation.shard_count
                    || entry.1.0 != generation.model
                    || entry.1.1 != generation.encoder
                {
                    continue;
                }
                for shard in &generation.shards {
                    entry.2.entry(*shard).or_default().push(node);
                }
            }
        }
        let complete = served.into_iter().rev().find(|(_, (count, _, shards))| {
            *count > 0 && (0..*count).all(|shard| shards.contains_key(&shard))
        });
        let Some((generation, (shard_count, (model, encoder), shards))) = complete else {
            return Err(ClusterError::Unavailable(
                "no generation has every shard served by a live search node".into(),
            ));
        };
        let replicas = (0..shard_count)
            .map(|shard| {
                let serving = &shards[&shard];
                ranked(serving.iter().map(|node| node.node.as_str()), shard)
                    .into_iter()
                    .filter_map(|name| serving.iter().find(|node| node.node == name))
                    .map(|node| Replica {
                        node: Arc::from(node.node.as_str()),
                        url: Arc::from(node.url.trim_end_matches('/')),
                    })
                    .collect()
            })
            .collect();
        Ok(ClusterView {
            generation,
            shard_count,
            model,
            encoder,
            replicas,
        })
    }

    /// The nodes serving `shard`, in the order a step tries them.
    pub fn replicas(&self, shard: u32) -> &[Replica] {
        self.replicas
            .get(shard as usize)
            .map(Vec::as_slice)
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(name: &str, generations: &[(u64, u32, &[u32])]) -> NodeStatus {
        NodeStatus {
            node: name.into(),
            url: format!("http://{name}"),
            generations: generations
                .iter()
                .map(|(generation, shard_count, shards)| ServedGeneration {
                    generation: *generation,
                    shard_count: *shard_count,
                    shards: shards.to_vec(),
                    model: None,
                    encoder: None,
                })
                .collect(),
        }
    }

    #[test]
    fn a_view_is_of_the_newest_generation_every_shard_of_which_is_served() {
        let nodes = [
            node("a", &[(1, 2, &[0, 1]), (2, 2, &[0])]),
            node("b", &[(1, 2, &[1])]),
        ];
        let view = ClusterView::of(&nodes).unwrap();
        assert_eq!(view.generation, 1, "generation 2 lacks shard 1");
        assert_eq!(view.replicas(0).len(), 1);
        assert_eq!(view.replicas(1).len(), 2);
        let nodes = [node("a", &[(2, 2, &[0])]), node("b", &[(2, 2, &[1])])];
        assert_eq!(ClusterView::of(&nodes).unwrap().generation, 2);
        assert!(ClusterView::of(&[node("a", &[(3, 2, &[0])])]).is_err());
    }

    #[test]
    fn removing_a_node_moves_only_the_shards_it_ranked_first() {
        let names = ["n1", "n2", "n3", "n4"];
        for shard in 0..64 {
            let all = ranked(names, shard);
            let without: Vec<&str> = ranked(names.iter().copied().filter(|n| *n != "n3"), shard);
            let expected: Vec<&str> = all.iter().copied().filter(|n| *n != "n3").collect();
            assert_eq!(without, expected, "shard {shard}");
        }
        // the first choices spread over the nodes
        let firsts: std::collections::HashSet<&str> =
            (0..64).map(|shard| ranked(names, shard)[0]).collect();
        assert_eq!(firsts.len(), names.len());
    }
}
