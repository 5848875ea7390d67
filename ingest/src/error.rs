//! The one error type of the ingest crate.

use std::path::PathBuf;

/// Why a feed or a transcript could not be read. The `kind` of each variant is the
/// failure kind recorded in the feed fetch log.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum IngestError {
    #[error("not xml: {0}")]
    NotXml(String),
    #[error("not a feed: {0}")]
    NotAFeed(String),
    #[error("network error: {0}")]
    Network(String),
    /// The target (or a redirect hop) is a private, loopback or link-local address.
    #[error("{0}")]
    Refused(String),
    #[error("http status {status}")]
    HttpStatus { status: u16 },
    #[error("response larger than {limit} bytes (decompressed)")]
    TooLarge { limit: u64 },
    #[error("feed is blocked from indexing ({0})")]
    Blocked(String),
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("invalid transcript: {0}")]
    Transcript(String),
    #[error("invalid opml: {0}")]
    Opml(String),
    #[error("catalog error: {0}")]
    Store(String),
    #[error("internal error: {0}")]
    Internal(String),
}

impl IngestError {
    /// The failure kind as recorded in the feed fetch log: `network`, `refused`, `http-status`,
    /// `not-xml`, `not-a-feed`, `too-large`, `blocked`, `io`, `transcript`, `opml`,
    /// `store`, `internal`.
    pub fn kind(&self) -> &'static str {
        match self {
            IngestError::NotXml(_) => "not-xml",
            IngestError::NotAFeed(_) => "not-a-feed",
            IngestError::Network(_) => "network",
            IngestError::Refused(_) => "refused",
            IngestError::HttpStatus { .. } => "http-status",
            IngestError::TooLarge { .. } => "too-large",
            IngestError::Blocked(_) => "blocked",
            IngestError::Io { .. } => "io",
            IngestError::Transcript(_) => "transcript",
            IngestError::Opml(_) => "opml",
            IngestError::Store(_) => "store",
            IngestError::Internal(_) => "internal",
        }
    }
}
