//! The embedding module's error type.

use std::path::PathBuf;

/// What can go wrong loading, building or running an embedding model.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EmbeddingError {
    /// A model file could not be read or written.
    #[error("cannot access {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A model folder lacks a file the model needs.
    #[error("model file {0} is missing (install it with scripts/install-model.sh)")]
    MissingFile(PathBuf),
    /// A file is present but its content is not what the model expects.
    #[error("invalid model file {path}: {reason}")]
    InvalidModel { path: PathBuf, reason: String },
    /// A file's sha256 differs from the one its manifest pins.
    #[error("sha256 of {path} is {actual}, the manifest pins {expected}")]
    ChecksumMismatch {
        path: PathBuf,
        expected: String,
        actual: String,
    },
    /// A caller passed arguments the model cannot handle.
    #[error("invalid input: {0}")]
    InvalidInput(String),
}

impl EmbeddingError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn invalid(path: impl Into<PathBuf>, reason: impl Into<String>) -> Self {
        Self::InvalidModel {
            path: path.into(),
            reason: reason.into(),
        }
    }
}

/// Result with an [`EmbeddingError`].
pub type EmbeddingResult<T> = std::result::Result<T, EmbeddingError>;
