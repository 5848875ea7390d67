//! Projects (lists of podcasts to pitch) and their listed podcasts: create, list,
//! details, update, delete; add, move, prioritise, label and remove podcasts with an
//! activity entry for every change; recent episodes of the listed podcasts. Plan caps
//! on the number of projects and podcasts per project (SPEC.md §9). A project is
//! addressed by its id or its slug, only within the caller's team.

use std::collections::HashMap;

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{get, patch, post, put};
use chrono::{Duration, Utc};
use podlens_data::snapshot::EpisodesQuery;
use podlens_model::entities::{
    ActivityEntry, AddPodcastToProjectResponse, Episode, LinkedGuestProfile, ListedPodcast,
    ListedPodcastUpdate, ProjectDetails, ProjectDetailsResponse, ProjectsOptions, ProjectsResponse,
    RemoveListedPodcastResponse, UpdateListedPodcastResponse, UpdateProjectResponse,
    sort_project_list,
};
use podlens_model::enums::{
    ActivityActionType, ListedPodcastLabel, ListedPodcastStatus, Priority, ProjectSortBy,
    ProjectStatus,
};
use podlens_model::validation::{
    parse_project_types, validate_project_name, validate_project_update_fields,
};
use serde::Serialize;
use serde_json::{Map, Value, json};
use uuid::Uuid;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiQuery, RawJson};
use crate::routes::lookup;
use crate::state::{AppState, blocking};
use podlens_app::accounts::Account;
use podlens_app::convert;
use podlens_app::workflows::fields::{
    enum_value, nullable, object, optional_string, optional_strings, query_list, query_value,
};
use podlens_app::workflows::guest_profiles::GuestProfileDoc;
use podlens_app::workflows::{
    ActivityRow, CapCheck, ListedPodcastRow, NewListedPodcast, ProjectRow, UserDirectory,
    guest_profiles, history_of, listed_podcast_wire, project_wire, slugify,
};

/// Days of recent episodes when the query gives none (SPEC.md §7, §9).
pub const DEFAULT_RECENT_DAYS: i64 = 7;
/// The longest window of recent episodes.
pub const MAX_RECENT_DAYS: i64 = 365;

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

// ---------------------------------------------------------------- helpers

fn project_not_found(id_or_slug: &str) -> ApiError {
    ApiError::NotFound(format!("Project not found: {id_or_slug}"))
}

fn listed_not_found(listed_podcast_id: &str) -> ApiError {
    ApiError::NotFound(format!("Listed podcast not found: {listed_podcast_id}"))
}

fn find_project(state: &AppState, account: &Account, id_or_slug: &str) -> ApiResult<ProjectRow> {
    state
        .workflows
        .find_project(&account.team_id, id_or_slug.trim())?
        .ok_or_else(|| project_not_found(id_or_slug))
}

fn users_of(state: &AppState, account: &Account) -> ApiResult<UserDirectory> {
    Ok(UserDirectory::new(
        state.accounts.team_users(&account.team_id)?,
    ))
}

/// A project with its listed podcasts and their activity.
struct Loaded {
    project: ProjectRow,
    listed: Vec<ListedPodcastRow>,
    activity: Vec<ActivityRow>,
    guest_profile: Option<LinkedGuestProfile>,
}

/// A project with its listed podcasts, activity and guest profile (`profiles` from
/// [`guest_profiles::profiles_by_project`] for the project's team).
fn load(
    state: &AppState,
    project: ProjectRow,
    profiles: &HashMap<String, GuestProfileDoc>,
) -> ApiResult<Loaded> {
    let listed = state.workflows.listed_podcasts(&project.project_id)?;
    let activity = state.workflows.project_activity(&project.project_id)?;
    let booked = listed
        .iter()
        .filter(|row| row.status == ListedPodcastStatus::Booked)
        .count() as u64;
    let guest_profile = profiles
        .get(&project.project_id)
        .map(|profile| guest_profiles::linked_profile(profile, booked));
    Ok(Loaded {
        project,
        listed,
        activity,
        guest_profile,
    })
}

fn details_wire(
    loaded: &Loaded,
    users: &UserDirectory,
    listed_podcasts: Option<Vec<ListedPodcast>>,
) -> ProjectDetails {
    let project = &loaded.project;
    ProjectDetails {
        project: project_wire(
            project,
            &loaded.listed,
            &loaded.activity,
            users,
            loaded.guest_profile.clone(),
        ),
        project_type_other_reason: project.project_type_other_reason.clone(),
        project_purpose: project.project_purpose.clone(),
        project_keywords: project.project_keywords.clone(),
        public_title: None,
        public_description: None,
        public_slug: None,
        is_public_listicle: false,
        public_podcast_limit: 0,
        is_public_for_team: false,
        listed_podcasts,
    }
}

fn parse_states(values: &[String]) -> ApiResult<Vec<ProjectStatus>> {
    values
        .iter()
        .map(|value| {
            enum_value(
                value,
                "project state",
                ProjectStatus::parse,
                ProjectStatus::ALL,
                ProjectStatus::as_str,
            )
        })
        .collect::<Result<_, podlens_app::AppError>>()
        .map_err(ApiError::from)
}

fn parse_listed_status(value: &str) -> ApiResult<ListedPodcastStatus> {
    Ok(enum_value(
        value,
        "state",
        ListedPodcastStatus::parse,
        ListedPodcastStatus::ALL,
        ListedPodcastStatus::as_str,
    )?)
}

fn parse_priority(value: &str) -> ApiResult<Priority> {
    Ok(enum_value(
        value,
        "priority",
        Priority::parse,
        Priority::ALL,
        Priority::as_str,
    )?)
}

fn parse_labels(values: &[String]) -> ApiResult<Vec<ListedPodcastLabel>> {
    let mut labels = Vec::new();
    for value in values {
        let label = enum_value(
            value,
            "label",
            ListedPodcastLabel::parse,
            ListedPodcastLabel::ALL,
            ListedPodcastLabel::as_str,
        )?;
        if !labels.contains(&label) {
            labels.push(label);
        }
    }
    Ok(labels)
}

fn string_value<'a>(value: &'a Value, name: &str) -> ApiResult<&'a str> {
    value
        .as_str()
        .ok_or_else(|| ApiError::BadRequest(format!("{name} must be a string")))
}

/// Which listed podcasts a details call shows: by status and by priority (`none`
/// selects podcasts without one). A filter that is absent selects everything.
struct ListedFilter {
    states: Option<Vec<ListedPodcastStatus>>,
    priorities: Option<Vec<Option<Priority>>>,
}

impl ListedFilter {
    fn from_query(pairs: &[(String, String)]) -> ApiResult<ListedFilter> {
        let states = query_list(pairs, "states")
            .map(|values| {
                values
                    .iter()
                    .map(|value| parse_listed_status(value))
                    .collect()
            })
            .transpose()?;
        let priorities = query_list(pairs, "priorities")
            .map(|values| {
                values
                    .iter()
                    .map(|value| match value.as_str() {
                        "none" => Ok(None),
                        other => parse_priority(other).map(Some),
                    })
                    .collect()
            })
            .transpose()?;
        Ok(ListedFilter { states, priorities })
    }

    fn keeps(&self, row: &ListedPodcastRow) -> bool {
        self.states
            .as_ref()
            .is_none_or(|states| states.contains(&row.status))
            && self
                .priorities
                .as_ref()
                .is_none_or(|priorities| priorities.contains(&row.priority))
    }
}

/// A project (by id or slug) of the caller's team, loaded, with the listed podcasts
/// `filter` keeps: what the project details and the listed podcast details share.
fn load_filtered(
    state: &AppState,
    account: &Account,
    id_or_slug: &str,
    filter: &ListedFilter,
) -> ApiResult<(Loaded, UserDirectory, Vec<ListedPodcast>)> {
    let project = find_project(state, account, id_or_slug)?;
    let users = users_of(state, account)?;
    let profiles = guest_profiles::profiles_by_project(&state.workflows, &account.team_id)?;
    let loaded = load(state, project, &profiles)?;
    let listed = filtered_listed(&loaded, filter, &users);
    Ok((loaded, users, listed))
}

/// The listed podcasts `filter` keeps, by priority (low first, none last), then the
/// most recently added.
fn filtered_listed(
    loaded: &Loaded,
    filter: &ListedFilter,
    users: &UserDirectory,
) -> Vec<ListedPodcast> {
    let mut rows: Vec<&ListedPodcastRow> = loaded
        .listed
        .iter()
        .filter(|row| filter.keeps(row))
        .collect();
    rows.sort_by(|a, b| {
        Priority::ascending_missing_last(a.priority, b.priority)
            .then_with(|| b.added_at.cmp(&a.added_at))
            .then_with(|| a.listed_podcast_id.cmp(&b.listed_podcast_id))
    });
    rows.into_iter()
        .map(|row| {
            listed_podcast_wire(
                row,
                history_of(&loaded.activity, &row.listed_podcast_id),
                users,
            )
        })
        .collect()
}

// ---------------------------------------------------------------- projects

/// `PUT /api/v1/projects`: creates a project (name 6-32 characters, types from the
/// list) unless the plan's project count is reached.
#[utoipa::path(put, path = "/api/v1/projects", tag = "projects",
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn create_project(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<ProjectDetailsResponse>> {
    let account = caller.require_account()?.clone();
    let body = object(body)?;
    let name = optional_string(&body, "name")?
        .ok_or_else(|| ApiError::BadRequest("Project name is required".into()))?;
    let name = validate_project_name(&name)?;
    let project_types =
        parse_project_types(&optional_strings(&body, "projectTypes")?.unwrap_or_default())?;
    let status = match optional_string(&body, "status")?.or(optional_string(&body, "state")?) {
        Some(value) => parse_states(&[value])?[0],
        None => ProjectStatus::Active,
    };
    let now = Utc::now();
    let project = ProjectRow {
        project_id: Uuid::new_v4().to_string(),
        team_id: account.team_id.clone(),
        slug: slugify(&name),
        name,
        status,
        project_types,
        project_type_other_reason: optional_string(&body, "projectTypeOtherReason")?,
        project_purpose: optional_string(&body, "projectPurpose")?,
        project_keywords: optional_strings(&body, "projectKeywords")?.unwrap_or_default(),
        created_by_user_id: account.user_id.clone(),
        created_at: now,
        last_updated: now,
    };
    let plan = caller.plan;
    let cap = plan.limits().projects.map(u64::from);
    blocking(move || {
        // Everything the answer needs is read before the write, so a stored project
        // is always answered 200 (the store may become unreachable right after).
        let users = users_of(&state, &account)?;
        let project = match state.workflows.create_project(project, cap)? {
            CapCheck::Done(project) => project,
            CapCheck::CapReached { limit } => {
                return Err(ApiError::Forbidden(format!(
                    "Project limit reached: the {plan} plan allows {limit} projects. Delete a project or upgrade your plan to create more."
                )));
            }
        };
        // A new project has no listed podcasts, activity or guest profile yet.
        let loaded = Loaded {
            project,
            listed: Vec::new(),
            activity: Vec::new(),
            guest_profile: None,
        };
        Ok(Envelope(ProjectDetailsResponse {
            project: details_wire(&loaded, &users, Some(Vec::new())),
        }))
    })
    .await
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
    let account = caller.require_account()?.clone();
    let states = query_list(&pairs, "states")
        .map(|values| parse_states(&values))
        .transpose()?;
    let sort_by = query_value(&pairs, "sortBy")
        .map(|value| {
            enum_value(
                value,
                "sortBy",
                ProjectSortBy::parse,
                ProjectSortBy::ALL,
                ProjectSortBy::as_str,
            )
        })
        .transpose()?;
    let pinned: Vec<String> = query_list(&pairs, "pinnedIds").unwrap_or_default();
    blocking(move || {
        let users = users_of(&state, &account)?;
        let profiles = guest_profiles::profiles_by_project(&state.workflows, &account.team_id)?;
        let mut projects = Vec::new();
        for project in state.workflows.team_projects(&account.team_id)? {
            if states
                .as_ref()
                .is_some_and(|states| !states.contains(&project.status))
            {
                continue;
            }
            let loaded = load(&state, project, &profiles)?;
            projects.push(project_wire(
                &loaded.project,
                &loaded.listed,
                &loaded.activity,
                &users,
                loaded.guest_profile.clone(),
            ));
        }
        match sort_by {
            None | Some(ProjectSortBy::RecentActivity) => sort_project_list(&mut projects, &pinned),
            Some(ProjectSortBy::Name) => projects.sort_by(|a, b| {
                a.name
                    .to_lowercase()
                    .cmp(&b.name.to_lowercase())
                    .then_with(|| a.project_id.cmp(&b.project_id))
            }),
            Some(ProjectSortBy::Created) => projects.sort_by(|a, b| {
                b.created_at
                    .cmp(&a.created_at)
                    .then_with(|| a.project_id.cmp(&b.project_id))
            }),
        }
        Ok(Envelope(ProjectsResponse {
            options: ProjectsOptions { states, sort_by },
            projects,
        }))
    })
    .await
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
    let account = caller.require_account()?.clone();
    let filter = ListedFilter::from_query(&pairs)?;
    blocking(move || {
        let (loaded, users, listed) = load_filtered(&state, &account, &id_or_slug, &filter)?;
        Ok(Envelope(ProjectDetailsResponse {
            project: details_wire(&loaded, &users, Some(listed)),
        }))
    })
    .await
}

/// The changes a project update asks for, each `None` when absent.
struct ProjectChanges {
    name: Option<String>,
    status: Option<ProjectStatus>,
    project_types: Option<Vec<podlens_model::enums::ProjectType>>,
    project_type_other_reason: Option<Option<String>>,
    project_purpose: Option<Option<String>>,
    project_keywords: Option<Vec<String>>,
}

fn nullable_text(body: &Map<String, Value>, name: &str) -> ApiResult<Option<Option<String>>> {
    nullable(body, name)
        .map(|value| {
            value
                .map(|value| string_value(value, name).map(str::to_owned))
                .transpose()
        })
        .transpose()
}

impl ProjectChanges {
    fn from_body(body: &Map<String, Value>) -> ApiResult<ProjectChanges> {
        let name = optional_string(body, "name")?
            .map(|name| validate_project_name(&name))
            .transpose()?;
        let status = match optional_string(body, "state")?.or(optional_string(body, "status")?) {
            Some(value) => Some(parse_states(&[value])?[0]),
            None => None,
        };
        let project_types = optional_strings(body, "projectTypes")?
            .map(|values| parse_project_types(&values))
            .transpose()?;
        let changes = ProjectChanges {
            name,
            status,
            project_types,
            project_type_other_reason: nullable_text(body, "projectTypeOtherReason")?,
            project_purpose: nullable_text(body, "projectPurpose")?,
            project_keywords: optional_strings(body, "projectKeywords")?,
        };
        validate_project_update_fields(&[
            changes.name.is_some(),
            changes.status.is_some(),
            changes.project_types.is_some(),
            changes.project_type_other_reason.is_some(),
            changes.project_purpose.is_some(),
            changes.project_keywords.is_some(),
        ])?;
        Ok(changes)
    }

    fn apply(self, project: &mut ProjectRow) {
        if let Some(name) = self.name {
            project.name = name;
        }
        if let Some(status) = self.status {
            project.status = status;
        }
        if let Some(types) = self.project_types {
            project.project_types = types;
        }
        if let Some(reason) = self.project_type_other_reason {
            project.project_type_other_reason = reason;
        }
        if let Some(purpose) = self.project_purpose {
            project.project_purpose = purpose;
        }
        if let Some(keywords) = self.project_keywords {
            project.project_keywords = keywords;
        }
        project.last_updated = Utc::now();
    }
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
    let account = caller.require_account()?.clone();
    let changes = ProjectChanges::from_body(&object(body)?)?;
    blocking(move || {
        let mut project = find_project(&state, &account, &id_or_slug)?;
        changes.apply(&mut project);
        state.workflows.save_project(&project)?;
        let users = users_of(&state, &account)?;
        let profiles = guest_profiles::profiles_by_project(&state.workflows, &account.team_id)?;
        let loaded = load(&state, project, &profiles)?;
        Ok(Envelope(UpdateProjectResponse {
            project: project_wire(
                &loaded.project,
                &loaded.listed,
                &loaded.activity,
                &users,
                loaded.guest_profile.clone(),
            ),
        }))
    })
    .await
}

/// The answer of a deletion.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProjectDeleted {
    pub project_id: String,
    pub message: String,
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
    let account = caller.require_account()?.clone();
    blocking(move || {
        let project = find_project(&state, &account, &id_or_slug)?;
        if !state
            .workflows
            .delete_project(&account.team_id, &project.project_id)?
        {
            return Err(project_not_found(&id_or_slug));
        }
        Ok(Envelope(ProjectDeleted {
            message: format!("Project \"{}\" deleted", project.name),
            project_id: project.project_id,
        }))
    })
    .await
}

// ---------------------------------------------------------------- listed podcasts

fn activity(
    account: &Account,
    action_type: ActivityActionType,
    from_value: Option<String>,
    to_value: Option<String>,
    at: chrono::DateTime<Utc>,
) -> ActivityEntry {
    ActivityEntry {
        action_type,
        activity_date: at,
        from_value,
        to_value,
        user_id: account.user_id.clone(),
        user_display_name: account.shown_name(),
    }
}

fn labels_text(labels: &[ListedPodcastLabel]) -> String {
    labels
        .iter()
        .map(|label| label.as_str())
        .collect::<Vec<_>>()
        .join(",")
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
    let account = caller.require_account()?.clone();
    let body = object(body)?;
    let podcast_ref = optional_string(&body, "podcastId")?
        .filter(|id| !id.trim().is_empty())
        .ok_or_else(|| ApiError::BadRequest("podcastId is required".into()))?;
    let status = optional_string(&body, "state")?
        .map(|value| parse_listed_status(&value))
        .transpose()?
        .unwrap_or_default();
    let priority = optional_string(&body, "priority")?
        .map(|value| parse_priority(&value))
        .transpose()?;
    let labels = parse_labels(&optional_strings(&body, "labels")?.unwrap_or_default())?;
    let plan = caller.plan;
    let cap = plan.limits().podcasts_per_project.map(u64::from);
    blocking(move || {
        let project = find_project(&state, &account, &id_or_slug)?;
        let podcast = lookup::podcast_by_id_or_slug(&state, &podcast_ref)?;
        let now = Utc::now();
        let row = ListedPodcastRow {
            listed_podcast_id: Uuid::new_v4().to_string(),
            project_id: project.project_id.clone(),
            team_id: account.team_id.clone(),
            podcast_id: podcast.podcast_id.to_string(),
            podcast_title: podcast.podcast_rss_title.clone(),
            podcast_slug: podcast.podcast_slug.clone(),
            podcast_image_url: podcast.podcast_image_url.clone(),
            status,
            priority,
            labels,
            added_at: now,
            updated_at: now,
            added_by_user_id: account.user_id.clone(),
            relevancy_score: None,
        };
        let added = activity(
            &account,
            ActivityActionType::AddedToList,
            None,
            Some(status.as_str().to_owned()),
            now,
        );
        let row = match state.workflows.add_listed(NewListedPodcast { row, added: added.clone() }, cap)? {
            CapCheck::Done(row) => row,
            CapCheck::CapReached { limit } => {
                return Err(ApiError::Forbidden(format!(
                    "Podcast limit reached: the {plan} plan allows {limit} podcasts per project. Remove a podcast from \"{}\" or upgrade your plan to add more.",
                    project.name
                )));
            }
        };
        let users = users_of(&state, &account)?;
        Ok(Envelope(AddPodcastToProjectResponse {
            listed_podcast: listed_podcast_wire(&row, vec![added], &users),
        }))
    })
    .await
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
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?.clone();
    let filter = ListedFilter::from_query(&pairs)?;
    blocking(move || {
        let (loaded, _, listed) = load_filtered(&state, &account, &id_or_slug, &filter)?;
        Ok(Envelope(json!({
            "projectId": loaded.project.project_id,
            "projectSlug": loaded.project.slug,
            "total": loaded.listed.len(),
            "listedPodcasts": listed,
        })))
    })
    .await
}

/// What a listed podcast update asks for: `priority` may be null (cleared).
struct ListedChanges {
    state: Option<ListedPodcastStatus>,
    priority: Option<Option<Priority>>,
    labels: Option<Vec<ListedPodcastLabel>>,
}

impl ListedChanges {
    fn from_body(body: &Map<String, Value>) -> ApiResult<ListedChanges> {
        let state = optional_string(body, "state")?
            .map(|value| parse_listed_status(&value))
            .transpose()?;
        let priority = nullable(body, "priority")
            .map(|value| {
                value
                    .map(|value| string_value(value, "priority").and_then(parse_priority))
                    .transpose()
            })
            .transpose()?;
        let labels = optional_strings(body, "labels")?
            .map(|values| parse_labels(&values))
            .transpose()?;
        if state.is_none() && priority.is_none() && labels.is_none() {
            return Err(ApiError::BadRequest(
                "At least one of state, priority or labels must be provided".into(),
            ));
        }
        Ok(ListedChanges {
            state,
            priority,
            labels,
        })
    }

    /// Applies the changes; returns one activity entry per value that changed.
    fn apply(&self, row: &mut ListedPodcastRow, account: &Account) -> Vec<ActivityEntry> {
        let now = Utc::now();
        let mut entries = Vec::new();
        if let Some(status) = self.state
            && status != row.status
        {
            entries.push(activity(
                account,
                ActivityActionType::UpdateState,
                Some(row.status.as_str().to_owned()),
                Some(status.as_str().to_owned()),
                now,
            ));
            row.status = status;
        }
        if let Some(priority) = self.priority
            && priority != row.priority
        {
            entries.push(activity(
                account,
                ActivityActionType::UpdatePriority,
                row.priority.map(|priority| priority.as_str().to_owned()),
                priority.map(|priority| priority.as_str().to_owned()),
                now,
            ));
            row.priority = priority;
        }
        if let Some(labels) = &self.labels
            && labels != &row.labels
        {
            entries.push(activity(
                account,
                ActivityActionType::UpdateLabels,
                Some(labels_text(&row.labels)),
                Some(labels_text(labels)),
                now,
            ));
            row.labels = labels.clone();
        }
        if !entries.is_empty() {
            row.updated_at = now;
        }
        entries
    }
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
    let account = caller.require_account()?.clone();
    let changes = ListedChanges::from_body(&object(body)?)?;
    blocking(move || {
        let project = find_project(&state, &account, &id_or_slug)?;
        let mut row = state
            .workflows
            .find_listed(&project.project_id, &listed_podcast_id)?
            .ok_or_else(|| listed_not_found(&listed_podcast_id))?;
        let entries = changes.apply(&mut row, &account);
        if !entries.is_empty() {
            state.workflows.update_listed(&row, &entries)?;
        }
        let users = users_of(&state, &account)?;
        let activity = state
            .workflows
            .listed_activity(&project.project_id, &row.listed_podcast_id)?;
        Ok(Envelope(UpdateListedPodcastResponse {
            project_slug: project.slug,
            listed_podcast_id: row.listed_podcast_id.clone(),
            options: ListedPodcastUpdate {
                state: changes.state,
                priority: changes.priority.flatten(),
            },
            updated_listed_podcast: listed_podcast_wire(
                &row,
                history_of(&activity, &row.listed_podcast_id),
                &users,
            ),
        }))
    })
    .await
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
    let account = caller.require_account()?.clone();
    blocking(move || {
        let project = find_project(&state, &account, &id_or_slug)?;
        if !state
            .workflows
            .remove_listed(&project.project_id, &listed_podcast_id, Utc::now())?
        {
            return Err(listed_not_found(&listed_podcast_id));
        }
        Ok(Envelope(RemoveListedPodcastResponse {
            project_slug: project.slug,
            listed_podcast_id,
        }))
    })
    .await
}

/// The recent episodes of one listed podcast.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListedPodcastEpisodes {
    pub listed_podcast_id: String,
    pub podcast_id: String,
    pub podcast_slug: String,
    pub podcast_title: String,
    pub episodes: Vec<Episode>,
}

/// `GET /api/v1/projects/{id}/podcasts/recent-episodes?days=7`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RecentEpisodesResponse {
    pub days: i64,
    pub since: chrono::DateTime<Utc>,
    pub total: u64,
    pub podcasts: Vec<ListedPodcastEpisodes>,
}

fn recent_days(pairs: &[(String, String)]) -> ApiResult<i64> {
    let Some(value) = query_value(pairs, "days") else {
        return Ok(DEFAULT_RECENT_DAYS);
    };
    value
        .trim()
        .parse::<i64>()
        .ok()
        .filter(|days| (1..=MAX_RECENT_DAYS).contains(days))
        .ok_or_else(|| {
            ApiError::BadRequest(format!(
                "days must be a whole number between 1 and {MAX_RECENT_DAYS}, got \"{value}\""
            ))
        })
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
    let account = caller.require_account()?.clone();
    let days = recent_days(&pairs)?;
    blocking(move || {
        let project = find_project(&state, &account, &id_or_slug)?;
        let since = Utc::now() - Duration::days(days);
        let snapshot = state.catalog.snapshot()?;
        let mut podcasts = Vec::new();
        let mut total = 0u64;
        for listed in state.workflows.listed_podcasts(&project.project_id)? {
            let Ok(podcast_id) = Uuid::parse_str(&listed.podcast_id) else {
                continue;
            };
            let page = snapshot.podcast_episodes(podcast_id, &EpisodesQuery::default())?;
            let episodes: Vec<Episode> = page
                .episodes
                .iter()
                .filter(|episode| {
                    episode
                        .episode_rss_published_at
                        .is_some_and(|at| at >= since)
                })
                .map(|episode| convert::episode(episode, &listed.podcast_slug))
                .collect();
            if episodes.is_empty() {
                continue;
            }
            total += episodes.len() as u64;
            podcasts.push(ListedPodcastEpisodes {
                listed_podcast_id: listed.listed_podcast_id,
                podcast_id: listed.podcast_id,
                podcast_slug: listed.podcast_slug,
                podcast_title: listed.podcast_title,
                episodes,
            });
        }
        Ok(Envelope(RecentEpisodesResponse {
            days,
            since,
            total,
            podcasts,
        }))
    })
    .await
}
