//! Exports (SPEC.md §7): the podcasts of a remembered search
//! (`POST /api/v1/export/podcasts`) and a project's listed podcasts
//! (`POST /api/v1/export/project/{projectId}/listed-podcasts`), as CSV or JSON files
//! with the chosen column groups. The limit is 1-1000 and at most the plan's entries
//! per export; each export counts against the plan's monthly exports.

use std::collections::HashSet;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use chrono::Utc;
use podlens_indexer::Hits;
use podlens_model::Plan;
use podlens_model::catalog::PodcastRecord;
use podlens_model::enums::{ExportColumn, ExportFormat, ListedPodcastStatus};
use podlens_model::search::{SearchEndpoint, SearchMode, SearchRequestContext};
use podlens_model::validation::{parse_export_columns, parse_export_format, validate_export_limit};
use podlens_model::{parse_search_options, validate_search};
use serde_json::{Map, Value};
use uuid::Uuid;

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::extract::RawJson;
use crate::metering::{self, Metered};
use crate::state::{AppState, blocking};
use podlens_app::accounts::{Account, UsageCounter};
use podlens_app::search_plan::engine_request;
use podlens_app::workflows::fields::{enum_value, object, optional_string, optional_strings};
use podlens_app::workflows::{
    ExportRow, ListedPodcastRow, export_row, header_of, max_export_entries, render_csv, render_json,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/export/podcasts", post(export_search))
        .route(
            "/api/v1/export/project/{projectId}/listed-podcasts",
            post(export_project),
        )
}

/// What every export asks for.
struct ExportRequest {
    columns: Vec<ExportColumn>,
    format: ExportFormat,
    limit: u32,
}

fn limit_value(body: &Map<String, Value>, default: u32) -> ApiResult<u32> {
    match body.get("limit") {
        None | Some(Value::Null) => Ok(default),
        Some(value) => {
            let limit = value
                .as_i64()
                .or_else(|| {
                    value
                        .as_f64()
                        .filter(|n| n.fract() == 0.0)
                        .map(|n| n as i64)
                })
                .unwrap_or(0);
            Ok(validate_export_limit(limit)?)
        }
    }
}

/// Reads columns, format and limit, and checks the limit against the plan.
fn export_request(
    body: &Map<String, Value>,
    plan: Plan,
    default_limit: u32,
) -> ApiResult<ExportRequest> {
    let columns = parse_export_columns(&optional_strings(body, "columns")?.unwrap_or_default())?;
    let format = parse_export_format(&optional_string(body, "format")?.unwrap_or_default())?;
    let limit = limit_value(body, default_limit)?;
    let Some(max_entries) = max_export_entries(plan) else {
        return Err(ApiError::Forbidden(format!(
            "Exports are not included in the {plan} plan"
        )));
    };
    if limit > max_entries {
        return Err(ApiError::Forbidden(format!(
            "The {plan} plan exports at most {max_entries} entries; limit was {limit}"
        )));
    }
    Ok(ExportRequest {
        columns,
        format,
        limit,
    })
}

/// The export file: CSV or JSON, as an attachment named `name`.
fn file_response(
    metered: Metered,
    format: ExportFormat,
    name: &str,
    rows: &[ExportRow],
    header: &[&str],
) -> Response {
    let (content_type, body, extension) = match format {
        ExportFormat::Csv => ("text/csv; charset=utf-8", render_csv(rows, header), "csv"),
        ExportFormat::Json => ("application/json", render_json(rows), "json"),
    };
    let disposition = format!("attachment; filename=\"{name}.{extension}\"");
    (
        metered,
        [
            (CONTENT_TYPE, content_type.to_owned()),
            (CONTENT_DISPOSITION, disposition),
        ],
        body,
    )
        .into_response()
}

/// The podcasts of a remembered search, in result order, at most `limit`.
fn search_podcasts(
    state: &AppState,
    account: &Account,
    plan: Plan,
    mode: &str,
    options_json: &str,
    limit: u32,
) -> ApiResult<Vec<PodcastRecord>> {
    let options: Value = serde_json::from_str(options_json).map_err(|error| {
        ApiError::Internal(format!("stored search options unreadable: {error}"))
    })?;
    let endpoint = if mode == SearchMode::Episodes.as_str() {
        SearchEndpoint::Episodes
    } else {
        SearchEndpoint::Podcasts
    };
    let options = parse_search_options(options)?;
    let context = SearchRequestContext {
        endpoint,
        plan,
        now: Utc::now(),
    };
    let search = validate_search(&options, &context)?;
    let mut request = engine_request(&search, limit as usize, None)?;
    request.filters.exclude_podcast_ids.extend(
        podlens_app::accounts::blacklists::blacklisted_podcast_ids(
            &state.blacklists,
            state.accounts.as_ref(),
            Some(account),
        )?,
    );
    let response = podlens_app::search::wait(state.engine.search(request))?;
    let mut seen = HashSet::new();
    let hit_ids: Vec<Uuid> = match &response.hits {
        Hits::Podcasts(hits) => hits.iter().map(|hit| hit.podcast_id).collect(),
        Hits::Episodes(hits) => hits.iter().map(|hit| hit.podcast_id).collect(),
    };
    let ids: Vec<Uuid> = hit_ids
        .into_iter()
        .filter(|id| seen.insert(*id))
        .take(limit as usize)
        .collect();
    Ok(state.catalog.snapshot()?.podcasts_by_ids(&ids)?)
}

/// The `podcastIds` of a search export: the podcasts picked among the search's results.
fn picked_podcasts(body: &Map<String, Value>) -> ApiResult<Option<Vec<Uuid>>> {
    optional_strings(body, "podcastIds")?
        .map(|ids| {
            ids.iter()
                .map(|id| {
                    Uuid::parse_str(id.trim()).map_err(|_| {
                        ApiError::BadRequest(format!("podcastIds: not a podcast id: {id}"))
                    })
                })
                .collect()
        })
        .transpose()
}

/// `POST /api/v1/export/podcasts`: body `searchHistoryId`, `limit`, `columns`, `format`.
#[utoipa::path(post, path = "/api/v1/export/podcasts", tag = "exports",
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn export_search(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<Response> {
    let account = caller.require_account()?.clone();
    let body = object(body)?;
    let search_id = optional_string(&body, "searchHistoryId")?
        .filter(|id| !id.trim().is_empty())
        .ok_or_else(|| ApiError::BadRequest("searchHistoryId is required".into()))?;
    let request = export_request(&body, caller.plan, 100)?;
    // With `podcastIds`, only those of the search's results (as many as the plan's
    // entries per export are read), in result order: the web's export of a selection.
    let picked = picked_podcasts(&body)?;
    let lookup_state = state.clone();
    let team_id = account.team_id.clone();
    let lookup_id = search_id.clone();
    let (mode, options_json) = blocking(move || {
        // This node's recent searches are written first (a failure to is no reason
        // to refuse a search already stored); another node's are in the store within
        // about one flush interval, so a search not found yet is looked for again
        // for up to two.
        if let Err(error) = lookup_state.history.flush() {
            tracing::warn!(%error, "remembered searches not written before an export");
        }
        let interval = podlens_app::accounts::history::FLUSH_INTERVAL;
        let deadline = std::time::Instant::now() + interval * 2;
        loop {
            if let Some(found) = lookup_state
                .workflows
                .search_of_team(&lookup_id, &team_id)?
            {
                return Ok(found);
            }
            if std::time::Instant::now() >= deadline {
                return Err(ApiError::NotFound(format!(
                    "Search history not found: {lookup_id}"
                )));
            }
            std::thread::sleep(interval / 4);
        }
    })
    .await?;
    let metered = metering::charge(&state, &caller, UsageCounter::Export).await?;
    let plan = caller.plan;
    let columns = request.columns.clone();
    let rows = blocking(move || {
        let podcasts = match &picked {
            None => search_podcasts(&state, &account, plan, &mode, &options_json, request.limit)?,
            Some(ids) => {
                let read = max_export_entries(plan).unwrap_or(request.limit);
                let mut podcasts =
                    search_podcasts(&state, &account, plan, &mode, &options_json, read)?;
                podcasts.retain(|podcast| ids.contains(&podcast.podcast_id));
                podcasts
            }
        };
        Ok(podcasts
            .iter()
            .map(|podcast| export_row(podcast, None, &columns, plan))
            .collect::<Vec<_>>())
    })
    .await?;
    let header = header_of(&request.columns, false, plan);
    Ok(file_response(
        metered,
        request.format,
        &format!("search-{search_id}"),
        &rows,
        &header,
    ))
}

fn states_filter(body: &Map<String, Value>) -> ApiResult<Option<Vec<ListedPodcastStatus>>> {
    Ok(optional_strings(body, "listedPodcastStatesFilter")?
        .map(|values| {
            values
                .iter()
                .map(|value| {
                    enum_value(
                        value,
                        "listed podcast state",
                        ListedPodcastStatus::parse,
                        ListedPodcastStatus::ALL,
                        ListedPodcastStatus::as_str,
                    )
                })
                .collect()
        })
        .transpose()?)
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
    let account = caller.require_account()?.clone();
    let body = object(body)?;
    let default_limit = max_export_entries(caller.plan)
        .unwrap_or(1)
        .min(podlens_model::validation::EXPORT_LIMIT.1);
    let request = export_request(&body, caller.plan, default_limit)?;
    let states = states_filter(&body)?;
    let lookup_state = state.clone();
    let team_id = account.team_id.clone();
    let project = blocking(move || {
        lookup_state
            .workflows
            .find_project(&team_id, id_or_slug.trim())?
            .ok_or_else(|| ApiError::NotFound(format!("Project not found: {id_or_slug}")))
    })
    .await?;
    let metered = metering::charge(&state, &caller, UsageCounter::Export).await?;
    let plan = caller.plan;
    let columns = request.columns.clone();
    let project_id = project.project_id.clone();
    let rows = blocking(move || {
        let listed: Vec<ListedPodcastRow> = state
            .workflows
            .listed_podcasts(&project_id)?
            .into_iter()
            .filter(|row| {
                states
                    .as_ref()
                    .is_none_or(|states| states.contains(&row.status))
            })
            .take(request.limit as usize)
            .collect();
        let ids: Vec<Uuid> = listed
            .iter()
            .filter_map(|row| Uuid::parse_str(&row.podcast_id).ok())
            .collect();
        let podcasts = state.catalog.snapshot()?.podcasts_by_ids(&ids)?;
        Ok(listed
            .iter()
            .filter_map(|row| {
                let podcast = podcasts
                    .iter()
                    .find(|podcast| podcast.podcast_id.to_string() == row.podcast_id)?;
                Some(export_row(podcast, Some(row), &columns, plan))
            })
            .collect::<Vec<_>>())
    })
    .await?;
    let header = header_of(&request.columns, true, plan);
    Ok(file_response(
        metered,
        request.format,
        &format!("project-{}", project.slug),
        &rows,
        &header,
    ))
}
