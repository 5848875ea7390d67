//! The crate's one error type.

use std::path::PathBuf;

/// Everything that can go wrong reading or writing the catalog and its snapshots.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DataError {
    /// The database engine rejected a statement or failed to run it.
    #[error("catalog database error: {0}")]
    Database(#[from] duckdb::Error),
    /// A file or directory could not be created, written, synced or renamed.
    #[error("catalog file error at {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A stored value could not be read back into a record.
    #[error("invalid stored value in column {column}: {message}")]
    InvalidValue { column: String, message: String },
    /// The catalog file was written by a newer version of Podlens.
    #[error("catalog schema version {found} is newer than this build supports ({supported})")]
    SchemaTooNew { found: i64, supported: i64 },
    /// A path cannot be used inside a SQL statement (not valid UTF-8).
    #[error("path is not valid utf-8: {0}")]
    NonUtf8Path(PathBuf),
    /// A caller-supplied argument is out of range.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
}

impl DataError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }
}
