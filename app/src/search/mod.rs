//! Search as the application runs it: [`SearchService`] (a search from the client's
//! options to the page of hits it gets back: plan, cursor, blacklist, metering,
//! history), over the engine seam ([`engine::SearchEngine`]) with its two sides, this
//! process's index ([`engine::LocalEngine`]) and a cluster's search nodes
//! ([`cluster_engine::ClusterEngine`]); [`hits`] writes the hits' wire form.

pub mod cluster_engine;
pub mod engine;
pub mod hits;
pub mod query_encoder;
pub mod service;

pub use cluster_engine::{ClusterEngine, ClusterOptions, Membership};
pub use engine::{EngineFuture, GenerationInfo, LocalEngine, SearchEngine, on_search_pool};
pub use query_encoder::QueryEncoder;
pub use service::{SearchPage, SearchService, SemanticSearchBody, SemanticSearchResponse};
