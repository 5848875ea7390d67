//! What every handler shares: the account store and the read side of the catalog.

use std::path::PathBuf;
use std::sync::Arc;

use crate::accounts::AccountStore;
use crate::catalog::CatalogReader;

/// The application state handed to [`crate::app`].
#[derive(Clone)]
pub struct AppState {
    pub accounts: Arc<dyn AccountStore>,
    /// Searches to remember, written in batches.
    pub history: Arc<crate::accounts::history::SearchHistory>,
    /// The teams' blacklisted podcasts, remembered for a moment.
    pub blacklists: Arc<crate::accounts::blacklists::TeamBlacklists>,
    /// Usage of unlimited counters, counted in memory and written in batches.
    pub usage: Arc<crate::accounts::meter::UsageMeter>,
    pub catalog: Arc<CatalogReader>,
    /// Projects, listed podcasts and outreach history (tables of the app database).
    pub workflows: Arc<crate::workflows::WorkflowStore>,
    /// The AI assist provider (offline unless an OpenAI-compatible endpoint is configured).
    pub assist: Arc<dyn crate::workflows::agent::AiProvider>,
    /// Sign-in links and browser sessions (tables of the app database).
    pub sessions: Arc<crate::accounts::sessions::SessionStore>,
    /// Team members' roles and invitations (tables of the app database).
    pub members: Arc<crate::accounts::members::MemberStore>,
    /// Where sign-in links and notifications are mailed.
    pub mailer: Arc<dyn crate::mail::Mailer>,
    /// Re-reads one podcast's feed on request (`/podcasts/{id}/refresh`).
    pub refresher: Arc<crate::refresh::FeedRefresher>,
    /// Speech to text for transcription requests without a publisher transcript
    /// (disabled unless `podlens serve --whisper-model` names a model).
    pub speech: Arc<crate::workflows::speech_worker::SpeechWorker>,
    /// Sends alert deliveries (e-mail and team webhooks) from the ledger.
    pub deliveries: Arc<crate::workflows::delivery::DeliveryWorker>,
    /// This node among those sharing the store: the leadership of the background
    /// jobs and the log of catalog changes.
    pub cluster: Arc<crate::cluster::Cluster>,
    /// Re-reads the catalog's feeds on their schedule (run by the leading node of
    /// `podlens serve`) and takes WebSub hubs' pushes.
    pub feeds: Arc<crate::workflows::feeds::FeedScheduler>,
    /// Signs and checks the cursors clients send back.
    pub cursors: Arc<crate::cursors::CursorSigner>,
    pub data_dir: PathBuf,
    /// The web app's built bundle, served outside `/api` when present.
    pub web_dir: Option<PathBuf>,
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("AppState")
            .field("data_dir", &self.data_dir)
            .finish_non_exhaustive()
    }
}

/// Runs blocking work (DuckDB, tantivy) off the async runtime.
pub async fn blocking<T, F>(work: F) -> crate::error::ApiResult<T>
where
    F: FnOnce() -> crate::error::ApiResult<T> + Send + 'static,
    T: Send + 'static,
{
    tokio::task::spawn_blocking(work).await.map_err(|error| {
        crate::error::ApiError::Internal(format!("blocking task failed: {error}"))
    })?
}
