//! Running blocking work from async code.

/// Runs blocking work (DuckDB, tantivy, files) off the async runtime.
pub async fn blocking<T, F>(work: F) -> crate::error::AppResult<T>
where
    F: FnOnce() -> crate::error::AppResult<T> + Send + 'static,
    T: Send + 'static,
{
    tokio::task::spawn_blocking(work).await.map_err(|error| {
        crate::error::AppError::Internal(format!("blocking task failed: {error}"))
    })?
}

/// Runs `work` (store writes that belong together) as a task of its own, so it goes on
/// to its end when its caller stops waiting: a client that hangs up drops its request's
/// future, and must not leave half of such writes done.
pub async fn to_the_end<T, F>(work: F) -> crate::error::AppResult<T>
where
    F: std::future::Future<Output = crate::error::AppResult<T>> + Send + 'static,
    T: Send + 'static,
{
    tokio::spawn(work).await.map_err(|error| {
        crate::error::AppError::Internal(format!("a store task failed: {error}"))
    })?
}

/// Waits for `future` from any thread, inside a runtime or not, on a thread and a
/// runtime of its own: for synchronous callers that cannot await (test helpers). The
/// store's queries keep their connections on the store's runtime, so a runtime per call
/// is fine.
pub fn block_on_own_thread<F>(future: F) -> F::Output
where
    F: std::future::Future + Send,
    F::Output: Send,
{
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime for one call")
                    .block_on(future)
            })
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// Writes that would be left half done when a client hangs up: the caller's future
    /// is dropped while the work waits, and the work still finishes.
    #[tokio::test]
    async fn work_run_to_the_end_finishes_after_its_caller_stops_waiting() {
        let (done, finished) = tokio::sync::oneshot::channel();
        let work = to_the_end(async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            let _ = done.send(());
            Ok(())
        });
        let gave_up = tokio::time::timeout(Duration::from_millis(5), work).await;
        assert!(gave_up.is_err(), "the caller stopped waiting first");
        assert!(finished.await.is_ok(), "the work went on to its end");
    }
}
