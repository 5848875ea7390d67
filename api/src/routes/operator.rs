//! Operator calls of a running server, for `podlens backup`: they take the operator
//! token of the data directory's control file (`serve.json`, readable by whoever can
//! read the data directory), not an API key, and are refused without it.

use axum::Router;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::post;
use sha2::{Digest, Sha256};

use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::state::{AppState, blocking};
use podlens_app::backup::{OPERATOR_TOKEN_HEADER, StagedCopy, read_control_file};

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/operator/backup", post(backup))
}

/// Whether the request carries the operator token of the control file (compared by
/// digest, so the comparison takes the same time wherever the first difference is).
fn require_operator(state: &AppState, headers: &HeaderMap) -> ApiResult<()> {
    let refused = || {
        ApiError::Forbidden(format!(
            "Operator calls need the {OPERATOR_TOKEN_HEADER} header with the token of the data directory's serve.json"
        ))
    };
    let sent = headers
        .get(OPERATOR_TOKEN_HEADER)
        .and_then(|value| value.to_str().ok())
        .ok_or_else(refused)?;
    let control = read_control_file(&state.data_dir)?.ok_or_else(refused)?;
    if Sha256::digest(sent.as_bytes()) != Sha256::digest(control.token.as_bytes()) {
        return Err(refused());
    }
    Ok(())
}

/// A consistent copy of the app database, the catalog, the Parquet snapshot and the
/// published index generation, staged inside the data directory for `podlens backup`
/// to move out. Feed refreshes wait meanwhile; a batch job writing the catalog makes it
/// answer 503 (retry when it finishes).
#[utoipa::path(post, path = "/api/v1/operator/backup", tag = "operator", operation_id = "stageBackup",
    params(("x-podlens-operator-token" = String, Header,
        description = "The token of the data directory's serve.json")),
    responses((status = 200, body = StagedCopy, description = "The staged copy"),
              (status = 403, description = "No or a wrong operator token"),
              (status = 503, description = "A batch job is writing the catalog")))]
pub async fn backup(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> ApiResult<Envelope<StagedCopy>> {
    require_operator(&state, &headers)?;
    let _refreshes_held = state.refresher.hold_off().await;
    let database = state.workflows.database().clone();
    let data_dir = state.data_dir.clone();
    let staged =
        blocking(move || Ok(podlens_app::backup::stage_copy(&data_dir, &database)?)).await?;
    tracing::info!(
        staging = %staged.staging_dir,
        files = staged.files.len(),
        "staged a backup copy"
    );
    Ok(Envelope(staged))
}
