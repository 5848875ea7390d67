//! Running blocking work from async code.

/// Runs blocking work (DuckDB, tantivy, the store's synchronous calls) off the async
/// runtime.
pub async fn blocking<T, F>(work: F) -> crate::error::AppResult<T>
where
    F: FnOnce() -> crate::error::AppResult<T> + Send + 'static,
    T: Send + 'static,
{
    tokio::task::spawn_blocking(work).await.map_err(|error| {
        crate::error::AppError::Internal(format!("blocking task failed: {error}"))
    })?
}
