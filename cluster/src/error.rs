//! What can go wrong between a root and its search nodes.

/// An error of the cluster's own work.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClusterError {
    /// No live node serves what a search needs (every replica of a shard failed, or no
    /// generation is served in full).
    #[error("search is unavailable: {0}")]
    Unavailable(String),
    /// A node answered something that is not a step's answer.
    #[error("a search node answered badly: {0}")]
    BadAnswer(String),
}
