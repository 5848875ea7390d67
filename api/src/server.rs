//! Running the API: open the data directory, bind, serve until Ctrl-C.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use axum::serve::ListenerExt;
use podlens_app::App;
use podlens_app::services::{NodeOptions, open_app_store};

/// How often `podlens serve` matches alerts and works through transcription requests.
const JOBS_INTERVAL: std::time::Duration = std::time::Duration::from_secs(300);

/// How long a stopping server waits for the feed scheduler to end its cycle: a feed
/// being stored finishes, the rest are left for the next start.
const FEEDS_STOP_WAIT: std::time::Duration = std::time::Duration::from_secs(6);

/// How `podlens serve` runs the server.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub data_dir: PathBuf,
    /// The application store: `<data_dir>/app.sqlite3`, or a PostgreSQL URL.
    pub store: podlens_store::Location,
    pub address: SocketAddr,
    pub web_dir: Option<PathBuf>,
    /// How the node runs its services (mail, private addresses, speech, polling,
    /// WebSub).
    pub node: NodeOptions,
    /// The bearer token `GET /metrics` takes from clients not on loopback; without
    /// it, only loopback clients read the metrics.
    pub metrics_token: Option<String>,
}

/// The state of a server over `data_dir` with the application store in its SQLite
/// file and the default services.
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
    Ok(AppState {
        app: App::open(data_dir, database)?,
        web_dir,
        metrics_token: None,
    })
}

/// Waits for Ctrl-C or, on Unix, SIGTERM (what service managers and container
/// runtimes send); returns the signal's name.
pub(crate) async fn shutdown_signal() -> &'static str {
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
    let listener = tokio::net::TcpListener::bind(options.address)
        .await
        .map_err(|error| {
            ApiError::Internal(format!("cannot listen on {}: {error}", options.address))
        })?;
    let local = listener.local_addr().map_err(ApiError::internal)?;
    let database = open_app_store(&options.data_dir, &options.store)?;
    let node = NodeOptions {
        listening_on: Some(local),
        ..options.node
    };
    let state = AppState {
        app: App::open_node(options.data_dir, database, &node)?,
        web_dir: options.web_dir,
        metrics_token: options
            .metrics_token
            .filter(|token| !token.trim().is_empty())
            .map(|token| Arc::from(token.trim())),
    };
    if let Err(refused) = state.links.origin() {
        tracing::warn!("{refused}");
    }
    // TCP_NODELAY: an answer's last small segment must not wait for the client's
    // delayed ACK (up to 40 ms).
    let listener = listener.tap_io(|stream| {
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "cannot set TCP_NODELAY");
        }
    });
    // Operators' commands (`podlens backup`, `podlens restore`) find the server here;
    // removed when serving stops.
    let _control_file =
        podlens_app::backup::write_control_file(&state.data_dir, &local.to_string())?;
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
    state.spawn_background(JOBS_INTERVAL);
    let services = state.app.clone();
    let app = crate::app(state).into_make_service_with_connect_info::<SocketAddr>();
    let served = axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let signal = shutdown_signal().await;
            tracing::info!(signal, "shutting down: finishing the requests in flight");
        })
        .await
        .map_err(|error| ApiError::Internal(format!("server failed: {error}")));
    // The feed scheduler ends its cycle at the next feed (what it polled is stored or
    // polled again after the restart).
    services.feeds.stop();
    if !services.feeds.stopped_within(FEEDS_STOP_WAIT).await {
        tracing::warn!(
            "the feed poll did not end in time; its feeds stay due and are polled again after the restart"
        );
    }
    // The searches and usage counts of the last moments are written; another node
    // takes the background jobs over at once.
    services.shut_down().await;
    served
}
