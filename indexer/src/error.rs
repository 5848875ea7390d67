//! The indexer's error type.

use std::path::PathBuf;

/// Everything that can go wrong building, publishing or searching the indexes.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum IndexError {
    /// The search needs shards no live node serves (a cluster's replicas all failed).
    #[error("search is unavailable: {0}")]
    Unavailable(String),
    /// A step of a search named a generation this node no longer (or not yet) serves.
    #[error("generation {0} is not served here")]
    GenerationGone(u64),
    /// A step of a search asked for a shard this node does not serve.
    #[error("shard {0} is not served here")]
    ShardNotServed(u32),
    /// A search request the engine cannot run (a caller's mistake).
    #[error("invalid search request: {0}")]
    InvalidRequest(String),
    /// A cursor that was not produced by this engine for the same sort.
    #[error("invalid cursor: {0}")]
    InvalidCursor(String),
    /// No generation has been published under the index directory yet.
    #[error("no index generation published under {0}")]
    NoGeneration(PathBuf),
    /// The manifest exists but cannot be read.
    #[error("unreadable index manifest {path}: {reason}")]
    BadManifest { path: PathBuf, reason: String },
    /// The generation was built without the static embedding model, so it has no
    /// vectors: semantic search, vector similarity and re-ranking are unavailable.
    #[error(
        "semantic features are unavailable: the index was built without the static embedding model (run `podlens model build`, then `podlens index`)"
    )]
    VectorsUnavailable,
    /// A file-system operation failed.
    #[error("i/o error on {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The search passed its [`crate::SearchRequest::time_limit`] and was stopped.
    #[error("the search passed its time limit and was stopped")]
    DeadlinePassed,
    /// tantivy reported an error.
    #[error("search engine error: {0}")]
    Tantivy(#[source] tantivy::TantivyError),
    /// A query could not be built.
    #[error("query error: {0}")]
    Query(#[from] tantivy::query::QueryParserError),
}

impl IndexError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        IndexError::Io {
            path: path.into(),
            source,
        }
    }
}

impl From<tantivy::TantivyError> for IndexError {
    fn from(error: tantivy::TantivyError) -> Self {
        if crate::deadline::is_deadline(&error) {
            IndexError::DeadlinePassed
        } else {
            IndexError::Tantivy(error)
        }
    }
}

/// The indexer's result type.
pub type Result<T, E = IndexError> = std::result::Result<T, E>;
