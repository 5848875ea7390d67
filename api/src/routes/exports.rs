//! Exports (SPEC.md §7): `POST /api/v1/export/podcasts` and
//! `POST /api/v1/export/project/{projectId}/listed-podcasts`, by
//! `podlens_app::workflows::exports::Exports`.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use podlens_app::accounts::metering::Charge;
use podlens_app::workflows::exports::{ExportFile, ProjectExportRequest, SearchExportRequest};

use crate::auth::Caller;
use crate::error::ApiResult;
use crate::extract::RawJson;
use crate::metering::Metered;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/export/podcasts", post(export_search))
        .route(
            "/api/v1/export/project/{projectId}/listed-podcasts",
            post(export_project),
        )
}

/// The export file as an attachment, with the charge's rate-limit headers.
fn file_response(charge: Charge, file: ExportFile) -> Response {
    let disposition = format!("attachment; filename=\"{}\"", file.file_name);
    (
        Metered(charge),
        [
            (CONTENT_TYPE, file.content_type.to_owned()),
            (CONTENT_DISPOSITION, disposition),
        ],
        file.body,
    )
        .into_response()
}

/// `POST /api/v1/export/podcasts`: body `searchHistoryId`, `limit`, `columns`, `format`.
#[utoipa::path(post, path = "/api/v1/export/podcasts", tag = "exports",
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn export_search(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<Response> {
    let account = caller.require_account()?;
    let request = SearchExportRequest::from_json(body, caller.plan)?;
    let (charge, file) = state
        .exports()
        .export_search(account, &caller.requester(), request)
        .await?;
    Ok(file_response(charge, file))
}

/// `POST /api/v1/export/project/{projectId}/listed-podcasts`: body `columns`,
/// `format`, optional `listedPodcastStatesFilter` and `limit` (default and cap: the
/// plan's entries per export, at most 1000).
#[utoipa::path(post, path = "/api/v1/export/project/{projectId}/listed-podcasts", tag = "exports",
    params(("projectId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn export_project(
    State(state): State<AppState>,
    caller: Caller,
    Path(id_or_slug): Path<String>,
    RawJson(body): RawJson,
) -> ApiResult<Response> {
    let account = caller.require_account()?;
    let request = ProjectExportRequest::from_json(body, caller.plan)?;
    let (charge, file) = state
        .exports()
        .export_project(account, &caller.requester(), &id_or_slug, request)
        .await?;
    Ok(file_response(charge, file))
}
