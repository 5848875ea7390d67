//! Podlens past one machine. The index's shards are served by search nodes; a node
//! that receives a search is its root: it runs the search's steps on one replica of
//! every shard and merges their answers exactly as a single node merges its own
//! shards' (`podlens_indexer::steps`). This crate is the root's side: which nodes serve
//! which shards ([`view`]), the HTTP client of the nodes ([`client`]) and the steps run
//! on them with failover between replicas ([`remote`]), and the index generations a
//! cluster publishes in an object store ([`artifacts`]).

pub mod artifacts;
pub mod client;
pub mod error;
pub mod membership;
pub mod remote;
pub mod view;

pub use client::NodeClient;
pub use error::ClusterError;
pub use remote::{RemoteRunner, RemoteShards};
pub use view::{ClusterView, NodeStatus, ServedGeneration};
