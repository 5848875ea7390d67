//! Projects (lists of podcasts to pitch) and their listed podcasts, by
//! `podlens_app::workflows::project_lists::Projects`: each handler extracts the
//! request, calls the service and wraps its answer.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{get, patch, post, put};
use podlens_app::workflows::fields::object;
use podlens_app::workflows::project_lists::{
    ListedChanges, ListedFilter, ListedPodcastsDetails, NewListing, NewProject, ProjectChanges,
    ProjectDeleted, ProjectsQuery, RecentDays, RecentEpisodesResponse,
};
use podlens_model::entities::{
    AddPodcastToProjectResponse, ProjectDetailsResponse, ProjectsResponse,
    RemoveListedPodcastResponse, UpdateListedPodcastResponse, UpdateProjectResponse,
};

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::{ApiQuery, RawJson};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/projects", put(create_project).get(list_projects))
        .route(
            "/api/v1/projects/{projectSlug}",
            patch(update_project).delete(delete_project),
        )
        .route(
            "/api/v1/projects/{projectSlug}/details",
            get(project_details),
        )
        .route("/api/v1/projects/{projectSlug}/podcasts", post(add_podcast))
        .route(
            "/api/v1/projects/{projectSlug}/podcasts/details",
            get(listed_podcast_details),
        )
        .route(
            "/api/v1/projects/{projectSlug}/podcasts/recent-episodes",
            get(recent_episodes),
        )
        .route(
            "/api/v1/projects/{projectSlug}/podcasts/{listedPodcastId}",
            patch(update_listed_podcast).delete(remove_listed_podcast),
        )
}

/// `PUT /api/v1/projects`: creates a project (name 6-32 characters, types from the
/// list) unless the plan's project count is reached.
#[utoipa::path(put, path = "/api/v1/projects", tag = "projects",
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn create_project(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<ProjectDetailsResponse>> {
    let account = caller.require_account()?;
    let project = NewProject::from_body(body)?;
    Ok(Envelope(
        state
            .projects()
            .create(account, caller.plan, project)
            .await?,
    ))
}

/// `GET /api/v1/projects`: the team's projects, optionally only some states; pinned
/// first, then ACTIVE, then the most recently updated (or by name or creation).
#[utoipa::path(get, path = "/api/v1/projects", tag = "projects",
    params(("states" = Option<String>, Query, description = "Comma-separated (or repeated) project states; default all"),
           ("sortBy" = Option<String>, Query, description = "recent-activity (default), name or created: the order after pinned and active projects"),
           ("pinnedIds" = Option<String>, Query, description = "Comma-separated (or repeated) project ids listed first")),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn list_projects(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(pairs): ApiQuery<Vec<(String, String)>>,
) -> ApiResult<Envelope<ProjectsResponse>> {
    let account = caller.require_account()?;
    let query = ProjectsQuery::from_query(&pairs)?;
    Ok(Envelope(state.projects().list(account, query).await?))
}

/// `GET /api/v1/projects/{id}/details`: the project with its listed podcasts,
/// filtered by `states` and `priorities` when given.
#[utoipa::path(get, path = "/api/v1/projects/{projectSlug}/details", tag = "projects",
    params(("projectSlug" = String, Path),
           ("states" = Option<String>, Query, description = "Comma-separated (or repeated) listed-podcast statuses"),
           ("priorities" = Option<String>, Query, description = "Comma-separated (or repeated) priorities; none selects podcasts without one")),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn project_details(
    State(state): State<AppState>,
    caller: Caller,
    Path(id_or_slug): Path<String>,
    ApiQuery(pairs): ApiQuery<Vec<(String, String)>>,
) -> ApiResult<Envelope<ProjectDetailsResponse>> {
    let account = caller.require_account()?;
    let filter = ListedFilter::from_query(&pairs)?;
    Ok(Envelope(
        state
            .projects()
            .details(account, id_or_slug, filter)
            .await?,
    ))
}

/// `PATCH /api/v1/projects/{id}`: changes at least one of name, state, projectTypes,
/// projectTypeOtherReason, projectPurpose, projectKeywords.
#[utoipa::path(patch, path = "/api/v1/projects/{projectSlug}", tag = "projects",
    params(("projectSlug" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn update_project(
    State(state): State<AppState>,
    caller: Caller,
    Path(id_or_slug): Path<String>,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<UpdateProjectResponse>> {
    let account = caller.require_account()?;
    let changes = ProjectChanges::from_body(&object(body)?)?;
    Ok(Envelope(
        state
            .projects()
            .update(account, id_or_slug, changes)
            .await?,
    ))
}

/// `DELETE /api/v1/projects/{id}`: removes the project and its listed podcasts.
#[utoipa::path(delete, path = "/api/v1/projects/{projectSlug}", tag = "projects",
    params(("projectSlug" = String, Path)),
    responses((status = 200, body = ProjectDeleted, description = "The project is deleted")))]
pub async fn delete_project(
    State(state): State<AppState>,
    caller: Caller,
    Path(id_or_slug): Path<String>,
) -> ApiResult<Envelope<ProjectDeleted>> {
    let account = caller.require_account()?;
    Ok(Envelope(
        state.projects().delete(account, id_or_slug).await?,
    ))
}

/// `POST /api/v1/projects/{id}/podcasts`: lists a catalog podcast (by id or slug) as
/// `state` (prospect by default) with an optional priority and labels.
#[utoipa::path(post, path = "/api/v1/projects/{projectSlug}/podcasts", tag = "projects",
    params(("projectSlug" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn add_podcast(
    State(state): State<AppState>,
    caller: Caller,
    Path(id_or_slug): Path<String>,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<AddPodcastToProjectResponse>> {
    let account = caller.require_account()?;
    let listing = NewListing::from_body(body)?;
    Ok(Envelope(
        state
            .projects()
            .add_podcast(account, caller.plan, id_or_slug, listing)
            .await?,
    ))
}

/// `GET /api/v1/projects/{id}/podcasts/details`: the listed podcasts with their
/// activity history, filtered like the project details.
#[utoipa::path(get, path = "/api/v1/projects/{projectSlug}/podcasts/details", tag = "projects",
    params(("projectSlug" = String, Path),
           ("states" = Option<String>, Query, description = "Comma-separated (or repeated) listed-podcast statuses"),
           ("priorities" = Option<String>, Query, description = "Comma-separated (or repeated) priorities; none selects podcasts without one")),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn listed_podcast_details(
    State(state): State<AppState>,
    caller: Caller,
    Path(id_or_slug): Path<String>,
    ApiQuery(pairs): ApiQuery<Vec<(String, String)>>,
) -> ApiResult<Envelope<ListedPodcastsDetails>> {
    let account = caller.require_account()?;
    let filter = ListedFilter::from_query(&pairs)?;
    Ok(Envelope(
        state
            .projects()
            .listed_details(account, id_or_slug, filter)
            .await?,
    ))
}

/// `PATCH /api/v1/projects/{id}/podcasts/{listedPodcastId}`: moves a listed podcast
/// to another state, sets or clears its priority, replaces its labels.
#[utoipa::path(patch, path = "/api/v1/projects/{projectSlug}/podcasts/{listedPodcastId}", tag = "projects",
    params(("projectSlug" = String, Path), ("listedPodcastId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn update_listed_podcast(
    State(state): State<AppState>,
    caller: Caller,
    Path((id_or_slug, listed_podcast_id)): Path<(String, String)>,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<UpdateListedPodcastResponse>> {
    let account = caller.require_account()?;
    let changes = ListedChanges::from_body(&object(body)?)?;
    Ok(Envelope(
        state
            .projects()
            .update_listed(account, id_or_slug, listed_podcast_id, changes)
            .await?,
    ))
}

/// `DELETE /api/v1/projects/{id}/podcasts/{listedPodcastId}`.
#[utoipa::path(delete, path = "/api/v1/projects/{projectSlug}/podcasts/{listedPodcastId}", tag = "projects",
    params(("projectSlug" = String, Path), ("listedPodcastId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn remove_listed_podcast(
    State(state): State<AppState>,
    caller: Caller,
    Path((id_or_slug, listed_podcast_id)): Path<(String, String)>,
) -> ApiResult<Envelope<RemoveListedPodcastResponse>> {
    let account = caller.require_account()?;
    Ok(Envelope(
        state
            .projects()
            .remove_listed(account, id_or_slug, listed_podcast_id)
            .await?,
    ))
}

/// Episodes the listed podcasts published in the last `days` days (default 7),
/// newest first per podcast.
#[utoipa::path(get, path = "/api/v1/projects/{projectSlug}/podcasts/recent-episodes", tag = "projects",
    params(("projectSlug" = String, Path),
           ("days" = Option<i64>, Query, description = "The last N days, 1 to 365 (default 7)")),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn recent_episodes(
    State(state): State<AppState>,
    caller: Caller,
    Path(id_or_slug): Path<String>,
    ApiQuery(pairs): ApiQuery<Vec<(String, String)>>,
) -> ApiResult<Envelope<RecentEpisodesResponse>> {
    let account = caller.require_account()?;
    let days = RecentDays::from_query(&pairs)?;
    Ok(Envelope(
        state
            .projects()
            .recent_episodes(account, id_or_slug, days)
            .await?,
    ))
}
