//! Running blocking work from async code.

/// Runs blocking work (DuckDB, tantivy, the stores not yet async) off the async
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

/// Waits for `future` (a store call) from synchronous code that runs off the async
/// runtime, on one of its blocking threads (a background job).
pub fn wait<F: std::future::Future>(future: F) -> crate::error::AppResult<F::Output> {
    let runtime = tokio::runtime::Handle::try_current().map_err(|_| {
        crate::error::AppError::Internal(
            "a store call was made outside the server's runtime".into(),
        )
    })?;
    Ok(runtime.block_on(future))
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
