//! Search as the application runs it: the engine seam ([`engine::SearchEngine`]) with
//! its two sides, this process's index ([`engine::LocalEngine`]) and a cluster's search
//! nodes ([`cluster_engine::ClusterEngine`]).

pub mod cluster_engine;
pub mod engine;

pub use cluster_engine::{ClusterEngine, ClusterOptions, Membership};
pub use engine::{EngineFuture, GenerationInfo, LocalEngine, SearchEngine, wait};
