//! A project's search strategies: list, generate, update, delete, run by
//! `podlens_app::workflows::strategies::Strategies`.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{get, post, put};
use podlens_app::workflows::fields::object;
use podlens_app::workflows::strategies::{StrategyChanges, count_of};
use podlens_model::entities::SearchStrategy;
use serde::Serialize;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::RawJson;
use crate::metering::Metered;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/projects/{projectSlug}/strategies", get(list))
        .route(
            "/api/v1/projects/{projectSlug}/strategies/generate",
            post(generate),
        )
        .route(
            "/api/v1/projects/{projectSlug}/strategies/{strategyId}",
            put(update).delete(delete_one),
        )
}

/// `data` of a list or a generation.
#[derive(Debug, Serialize)]
pub struct StrategiesResponse {
    pub strategies: Vec<SearchStrategy>,
}

/// `data` of an update.
#[derive(Debug, Serialize)]
pub struct StrategyResponse {
    pub strategy: SearchStrategy,
}

/// `data` of a delete.
#[derive(Debug, Serialize)]
pub struct StrategyDeleted {
    pub message: &'static str,
}

/// `GET /api/v1/projects/{projectSlug}/strategies`.
#[utoipa::path(get, path = "/api/v1/projects/{projectSlug}/strategies", tag = "strategies",
    params(("projectSlug" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Envelope<StrategiesResponse>> {
    let strategies = state
        .strategies()
        .list(caller.require_account()?, &slug)
        .await?;
    Ok(Envelope(StrategiesResponse { strategies }))
}

/// `POST /api/v1/projects/{projectSlug}/strategies/generate`: body `{count}` (default:
/// the room left under the plan's strategies per list).
#[utoipa::path(post, path = "/api/v1/projects/{projectSlug}/strategies/generate", tag = "strategies", operation_id = "generateProjectStrategies",
    params(("projectSlug" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn generate(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    RawJson(body): RawJson,
) -> ApiResult<(Metered, Envelope<StrategiesResponse>)> {
    let asked = count_of(&object(body)?)?;
    let account = caller.require_account()?;
    let (charge, strategies) = state
        .strategies()
        .generate(account, &caller.requester(), &slug, asked)
        .await?;
    Ok((Metered(charge), Envelope(StrategiesResponse { strategies })))
}

/// `PUT /api/v1/projects/{projectSlug}/strategies/{strategyId}`.
#[utoipa::path(put, path = "/api/v1/projects/{projectSlug}/strategies/{strategyId}", tag = "strategies",
    params(("projectSlug" = String, Path), ("strategyId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path((slug, strategy_id)): Path<(String, String)>,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<StrategyResponse>> {
    let account = caller.require_account()?;
    let changes = StrategyChanges::from_json(body)?;
    let strategy = state
        .strategies()
        .update(account, &slug, &strategy_id, changes)
        .await?;
    Ok(Envelope(StrategyResponse { strategy }))
}

/// `DELETE /api/v1/projects/{projectSlug}/strategies/{strategyId}`.
#[utoipa::path(delete, path = "/api/v1/projects/{projectSlug}/strategies/{strategyId}", tag = "strategies",
    params(("projectSlug" = String, Path), ("strategyId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn delete_one(
    State(state): State<AppState>,
    caller: Caller,
    Path((slug, strategy_id)): Path<(String, String)>,
) -> ApiResult<Envelope<StrategyDeleted>> {
    state
        .strategies()
        .delete(caller.require_account()?, &slug, &strategy_id)
        .await?;
    Ok(Envelope(StrategyDeleted {
        message: "Strategy deleted",
    }))
}
