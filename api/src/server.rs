//! Running the API: open the data directory, bind, serve until Ctrl-C.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::accounts::{AccountStore, SqlAccountStore};
use crate::catalog::CatalogReader;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use axum::serve::ListenerExt;

/// How often `podlens serve` matches alerts and works through transcription requests.
const JOBS_INTERVAL: std::time::Duration = std::time::Duration::from_secs(300);

/// How `podlens serve` runs the server.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub data_dir: PathBuf,
    /// The application store: `<data_dir>/app.sqlite3`, or a PostgreSQL URL.
    pub store: podlens_store::Location,
    pub address: SocketAddr,
    pub web_dir: Option<PathBuf>,
    /// Mail through this SMTP server; `None`: to the data directory's outbox.
    pub smtp: Option<crate::mail::SmtpSettings>,
    /// Feed refreshes may fetch from, and team webhooks may be delivered to, private,
    /// loopback and link-local addresses.
    pub allow_private_feeds: bool,
    /// Speech to text for transcription requests with faster-whisper and the Whisper
    /// model in this folder; `None`: requests without a publisher transcript fail.
    pub whisper_model: Option<PathBuf>,
    /// Whether the leading node re-reads the catalog's feeds on their schedule.
    pub poll_feeds: bool,
    /// Where WebSub hubs reach this service (`https://podlens.example.com`); `None`:
    /// no subscriptions, feeds are polled only.
    pub public_url: Option<String>,
}

/// Opens the application store at `location`, first importing a data directory's
/// legacy `app.duckdb` into it when one is there.
pub fn open_app_store(
    data_dir: &Path,
    location: &podlens_store::Location,
) -> ApiResult<Arc<podlens_store::Database>> {
    let database = podlens_store::Database::open(location)?;
    if let Some(imported) = podlens_store::import_legacy(data_dir, &database)? {
        let rows: u64 = imported.rows.iter().map(|(_, rows)| rows).sum();
        tracing::info!(
            rows,
            moved_to = %imported.moved_to.display(),
            store = database.describe(),
            "imported the application data of app.duckdb"
        );
    }
    Ok(Arc::new(database))
}

/// The state of a server over `data_dir` with the application store in its SQLite
/// file.
pub fn open_state(data_dir: PathBuf, web_dir: Option<PathBuf>) -> ApiResult<AppState> {
    let database = open_app_store(
        &data_dir,
        &podlens_store::Location::DataDir(data_dir.clone()),
    )?;
    open_state_with(data_dir, web_dir, database)
}

/// The state of a server over `data_dir` (its catalog and indexes) and `database`.
pub fn open_state_with(
    data_dir: PathBuf,
    web_dir: Option<PathBuf>,
    database: Arc<podlens_store::Database>,
) -> ApiResult<AppState> {
    let accounts: Arc<dyn AccountStore> = Arc::new(SqlAccountStore::new(database.clone()));
    let catalog = CatalogReader::open(&data_dir)?;
    let workflows = crate::workflows::WorkflowStore::open(database.clone())?;
    Ok(AppState {
        history: Arc::new(crate::accounts::history::SearchHistory::new(
            accounts.clone(),
        )),
        usage: Arc::new(crate::accounts::meter::UsageMeter::new(accounts.clone())),
        blacklists: Arc::default(),
        workflows: Arc::new(workflows),
        assist: crate::workflows::agent::provider_from_env()?,
        sessions: Arc::new(crate::accounts::sessions::SessionStore::open(
            database.clone(),
        )),
        members: Arc::new(crate::accounts::members::MemberStore::open(
            database.clone(),
        )),
        feeds: Arc::new(crate::workflows::feeds::FeedScheduler::new(
            database.clone(),
            true,
        )),
        cluster: Arc::new(crate::cluster::Cluster::join(database)),
        mailer: Arc::new(crate::mail::Outbox::in_data_dir(&data_dir)),
        refresher: Arc::new(crate::refresh::FeedRefresher::new(data_dir.clone())),
        speech: Arc::new(crate::workflows::speech_worker::SpeechWorker::disabled()),
        deliveries: Arc::new(crate::workflows::delivery::DeliveryWorker::new(
            podlens_netguard::AddressPolicy::public_only(),
        )?),
        cursors: Arc::new(crate::cursors::CursorSigner::new(
            accounts.server_secret("cursor")?,
        )),
        accounts,
        catalog: Arc::new(catalog),
        data_dir,
        web_dir,
    })
}

/// Waits for Ctrl-C or, on Unix, SIGTERM (what service managers and container
/// runtimes send); returns the signal's name.
async fn shutdown_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => tokio::select! {
                _ = tokio::signal::ctrl_c() => "SIGINT",
                _ = terminate.recv() => "SIGTERM",
            },
            Err(error) => {
                tracing::warn!(%error, "cannot listen for SIGTERM; Ctrl-C still stops the server");
                let _ = tokio::signal::ctrl_c().await;
                "SIGINT"
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        "SIGINT"
    }
}

/// Binds `options.address`, calls `on_listening` with the bound address (the port may
/// have been 0), and serves until Ctrl-C or SIGTERM, then finishes the requests in
/// flight.
pub async fn serve(options: ServeOptions, on_listening: impl FnOnce(SocketAddr)) -> ApiResult<()> {
    let database = open_app_store(&options.data_dir, &options.store)?;
    let mut state = open_state_with(options.data_dir, options.web_dir, database)?;
    if options.allow_private_feeds {
        state.refresher =
            Arc::new(crate::refresh::FeedRefresher::new(state.data_dir.clone()).allowing_private());
        state.deliveries = Arc::new(crate::workflows::delivery::DeliveryWorker::new(
            podlens_netguard::AddressPolicy::allow_private(),
        )?);
    }
    if let Some(model_dir) = &options.whisper_model {
        if !model_dir.join("model.bin").is_file() {
            tracing::warn!(dir = %model_dir.display(), "no Whisper model.bin there: speech-to-text requests will fail until it is installed (scripts/install-whisper.sh)");
        }
        let engine = crate::speech::FasterWhisper::new(model_dir.clone());
        let mut worker = crate::workflows::speech_worker::SpeechWorker::new(Arc::new(engine));
        if options.allow_private_feeds {
            worker = worker.allowing_private();
        }
        state.speech = Arc::new(worker);
    }
    let mut http = state.refresher.http().clone();
    http.retries = 1;
    state.feeds = Arc::new(
        crate::workflows::feeds::FeedScheduler::new(
            state.feeds.database().clone(),
            options.poll_feeds,
        )
        .with_http(http)
        .with_public_url(options.public_url.clone()),
    );
    if options.smtp.is_some() {
        state.mailer = crate::mail::mailer_for(&state.data_dir, options.smtp.as_ref())?;
    }
    let listener = tokio::net::TcpListener::bind(options.address)
        .await
        .map_err(|error| {
            ApiError::Internal(format!("cannot listen on {}: {error}", options.address))
        })?;
    let local = listener.local_addr().map_err(ApiError::internal)?;
    // TCP_NODELAY: an answer's last small segment must not wait for the client's
    // delayed ACK (up to 40 ms).
    let listener = listener.tap_io(|stream| {
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "cannot set TCP_NODELAY");
        }
    });
    // Operators' commands (`podlens backup`, `podlens restore`) find the server here;
    // removed when serving stops.
    let _control_file = crate::backup::write_control_file(&state.data_dir, &local.to_string())?;
    on_listening(local);
    // The search index is opened now rather than by the first searches, which would
    // wait for it (about a second with vectors and their model).
    let warming = state.catalog.clone();
    tokio::task::spawn_blocking(move || {
        if let Err(error) = warming.index() {
            tracing::debug!(%error, "search index not opened at start");
        }
    });
    // Pipelines a stop interrupted are resumed by the node that leads (at once, when
    // this one does).
    crate::workflows::jobs::spawn_background_jobs(state.clone(), JOBS_INTERVAL);
    crate::workflows::feeds::spawn_feed_scheduler(state.clone());
    crate::accounts::history::spawn_flusher(state.history.clone());
    crate::accounts::meter::spawn_flusher(state.usage.clone());
    let cluster = state.cluster.clone();
    let history = state.history.clone();
    let usage = state.usage.clone();
    let app = crate::app(state).into_make_service_with_connect_info::<SocketAddr>();
    let served = axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let signal = shutdown_signal().await;
            tracing::info!(signal, "shutting down: finishing the requests in flight");
        })
        .await
        .map_err(|error| ApiError::Internal(format!("server failed: {error}")));
    // The searches and usage counts of the last moments are written; another node
    // takes the background jobs over at once.
    tokio::task::spawn_blocking(move || {
        if let Err(error) = history.flush() {
            tracing::warn!(%error, lost = history.pending(), "searches not remembered at shutdown");
        }
        if let Err(error) = usage.flush() {
            tracing::warn!(%error, lost = usage.pending(), "usage counts not written at shutdown");
        }
        cluster.resign()
    })
    .await
    .map_err(ApiError::internal)?;
    served
}
