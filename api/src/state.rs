//! What every handler shares: the application's services and the web bundle.

use std::path::PathBuf;
use std::sync::Arc;

use podlens_app::App;

/// The state handed to [`crate::app`]: the services, and where the built web app is.
/// It reads as the [`App`] it holds.
#[derive(Clone, Debug)]
pub struct AppState {
    pub app: App,
    /// The web app's built bundle, served outside `/api` when present.
    pub web_dir: Option<PathBuf>,
    /// The bearer token `GET /metrics` takes from a client that is not on loopback
    /// (`--metrics-token`); `None`: loopback clients only.
    pub metrics_token: Option<Arc<str>>,
}

impl std::ops::Deref for AppState {
    type Target = App;

    fn deref(&self) -> &App {
        &self.app
    }
}

impl std::ops::DerefMut for AppState {
    fn deref_mut(&mut self) -> &mut App {
        &mut self.app
    }
}

/// Runs blocking work (DuckDB, tantivy, the store) off the async runtime.
pub async fn blocking<T, F>(work: F) -> crate::error::ApiResult<T>
where
    F: FnOnce() -> crate::error::ApiResult<T> + Send + 'static,
    T: Send + 'static,
{
    tokio::task::spawn_blocking(work).await.map_err(|error| {
        crate::error::ApiError::Internal(format!("blocking task failed: {error}"))
    })?
}

/// Runs CPU-bound search work (the index query and writing its hits) on the search
/// pool, where the engine's parallel steps run anyway: one hand-off there and one back,
/// instead of a hand-off to a blocking thread that hands the search over again and
/// waits for it. Nothing that waits on I/O belongs here. The application's hand-off
/// (`podlens_app::search::on_search_pool`): one bound on the pool's queue for both.
pub async fn on_search_pool<T, F>(work: F) -> crate::error::ApiResult<T>
where
    F: FnOnce() -> crate::error::ApiResult<T> + Send + 'static,
    T: Send + 'static,
{
    podlens_app::search::on_search_pool(move || Ok(work())).await?
}
