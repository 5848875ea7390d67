//! The scoring crate's one error type.

use std::path::PathBuf;

/// Why an import or a computation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ScoringError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A lookup file is not the JSON its platform's importer reads.
    #[error("{platform} lookup file {path}: {message}")]
    Lookup {
        platform: String,
        path: PathBuf,
        message: String,
    },
    /// A chart snapshot file is not a chart snapshot.
    #[error("chart snapshot {path}: {message}")]
    Chart { path: PathBuf, message: String },
}

impl ScoringError {
    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> ScoringError {
        ScoringError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}
