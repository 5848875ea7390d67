//! Projects (lists of podcasts to pitch) and their listed podcasts: create, list,
//! details, update, delete; add, move, prioritise, label and remove podcasts with an
//! activity entry for every change; recent episodes of the listed podcasts. Plan caps
//! on the number of projects and podcasts per project (SPEC.md §9). A project is
//! addressed by its id or its slug, only within the caller's team.

use std::collections::HashMap;
use std::sync::Arc;

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
use serde_json::{Map, Value};
use uuid::Uuid;

use crate::accounts::{Account, AccountStore};
use crate::catalog::CatalogReader;
use crate::convert;
use crate::error::{AppError, AppResult};
use crate::plan::Plan;
use crate::runtime::blocking;
use crate::workflows::fields::{
    enum_value, nullable, object, optional_string, optional_strings, query_list, query_value,
};
use crate::workflows::guest_profiles::{self, GuestProfileDoc};
use crate::workflows::{
    ActivityRow, CapCheck, ListedPodcastRow, NewListedPodcast, ProjectRow, UserDirectory,
    WorkflowStore, history_of, listed_podcast_wire, project_wire, slugify,
};

/// Days of recent episodes when the query gives none (SPEC.md §7, §9).
pub const DEFAULT_RECENT_DAYS: i64 = 7;
/// The longest window of recent episodes.
pub const MAX_RECENT_DAYS: i64 = 365;

/// What a list of the team's projects asks for: some states only, and the order after
/// pinned and active projects.
#[derive(Debug, Clone, Default)]
pub struct ProjectsQuery {
    states: Option<Vec<ProjectStatus>>,
    sort_by: Option<ProjectSortBy>,
    pinned: Vec<String>,
}

impl ProjectsQuery {
    /// The list query of `pairs`, or why not.
    pub fn from_query(pairs: &[(String, String)]) -> AppResult<ProjectsQuery> {
        let states = query_list(pairs, "states")
            .map(|values| parse_states(&values))
            .transpose()?;
        let sort_by = query_value(pairs, "sortBy")
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
        let pinned = query_list(pairs, "pinnedIds").unwrap_or_default();
        Ok(ProjectsQuery {
            states,
            sort_by,
            pinned,
        })
    }
}

/// A new listed podcast as a body asks for it: the podcast (id or slug), its state
/// (prospect by default), priority and labels.
#[derive(Debug, Clone)]
pub struct NewListing {
    podcast: String,
    status: ListedPodcastStatus,
    priority: Option<Priority>,
    labels: Vec<ListedPodcastLabel>,
}

impl NewListing {
    /// The listing of an addition's JSON body, or why not.
    pub fn from_body(body: Value) -> AppResult<NewListing> {
        let body = object(body)?;
        let podcast = optional_string(&body, "podcastId")?
            .filter(|id| !id.trim().is_empty())
            .ok_or_else(|| AppError::Invalid("podcastId is required".into()))?;
        let status = optional_string(&body, "state")?
            .map(|value| parse_listed_status(&value))
            .transpose()?
            .unwrap_or_default();
        let priority = optional_string(&body, "priority")?
            .map(|value| parse_priority(&value))
            .transpose()?;
        let labels = parse_labels(&optional_strings(&body, "labels")?.unwrap_or_default())?;
        Ok(NewListing {
            podcast,
            status,
            priority,
            labels,
        })
    }
}

/// A new project as a body asks for it.
#[derive(Debug, Clone)]
pub struct NewProject {
    name: String,
    status: ProjectStatus,
    project_types: Vec<podlens_model::enums::ProjectType>,
    project_type_other_reason: Option<String>,
    project_purpose: Option<String>,
    project_keywords: Vec<String>,
}

impl NewProject {
    /// The project of a creation's JSON body (name 6-32 characters, types from the
    /// list), or why not.
    pub fn from_body(body: Value) -> AppResult<NewProject> {
        let body = object(body)?;
        let name = optional_string(&body, "name")?
            .ok_or_else(|| AppError::Invalid("Project name is required".into()))?;
        let name = validate_project_name(&name)?;
        let project_types =
            parse_project_types(&optional_strings(&body, "projectTypes")?.unwrap_or_default())?;
        let status = match optional_string(&body, "status")?.or(optional_string(&body, "state")?) {
            Some(value) => parse_states(&[value])?[0],
            None => ProjectStatus::Active,
        };
        Ok(NewProject {
            name,
            status,
            project_types,
            project_type_other_reason: optional_string(&body, "projectTypeOtherReason")?,
            project_purpose: optional_string(&body, "projectPurpose")?,
            project_keywords: optional_strings(&body, "projectKeywords")?.unwrap_or_default(),
        })
    }
}

/// A project's listed podcasts with their activity history.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListedPodcastsDetails {
    pub project_id: String,
    pub project_slug: String,
    /// Every listed podcast of the project, whatever the filter keeps.
    pub total: usize,
    pub listed_podcasts: Vec<ListedPodcast>,
}

/// The teams' projects and their listed podcasts.
#[derive(Clone)]
pub struct Projects {
    pub store: Arc<WorkflowStore>,
    pub accounts: Arc<dyn AccountStore>,
    pub catalog: Arc<CatalogReader>,
}

impl Projects {
    /// Creates a project unless `plan`'s project count is reached.
    pub async fn create(
        &self,
        account: &Account,
        plan: Plan,
        new: NewProject,
    ) -> AppResult<ProjectDetailsResponse> {
        let now = Utc::now();
        let project = ProjectRow {
            project_id: Uuid::new_v4().to_string(),
            team_id: account.team_id.clone(),
            slug: slugify(&new.name),
            name: new.name,
            status: new.status,
            project_types: new.project_types,
            project_type_other_reason: new.project_type_other_reason,
            project_purpose: new.project_purpose,
            project_keywords: new.project_keywords,
            created_by_user_id: account.user_id.clone(),
            created_at: now,
            last_updated: now,
        };
        let cap = plan.limits().projects.map(u64::from);
        let users = users_of(self, account).await?;
        // Everything the answer needs is read before the write, so a stored project is
        // always answered 200 (the store may become unreachable right after).
        let project = match self.store.create_project(project, cap).await? {
            CapCheck::Done(project) => project,
            CapCheck::CapReached { limit } => {
                return Err(AppError::Forbidden(format!(
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
        Ok(ProjectDetailsResponse {
            project: details_wire(&loaded, &users, Some(Vec::new())),
        })
    }

    /// The team's projects, optionally only some states; pinned first, then ACTIVE,
    /// then the most recently updated (or by name or creation).
    pub async fn list(
        &self,
        account: &Account,
        query: ProjectsQuery,
    ) -> AppResult<ProjectsResponse> {
        let users = users_of(self, account).await?;
        let profiles = guest_profiles::profiles_by_project(&self.store, &account.team_id).await?;
        // Four reads for the whole page, whatever the number of projects.
        let mut listed = by_project(
            self.store.team_listed_podcasts(&account.team_id).await?,
            |row| &row.project_id,
        );
        let mut activity = by_project(
            self.store.team_project_activity(&account.team_id).await?,
            |row| &row.project_id,
        );
        let mut projects = Vec::new();
        for project in self.store.team_projects(&account.team_id).await? {
            if query
                .states
                .as_ref()
                .is_some_and(|states| !states.contains(&project.status))
            {
                continue;
            }
            let (project_listed, project_activity) = (
                listed.remove(&project.project_id).unwrap_or_default(),
                activity.remove(&project.project_id).unwrap_or_default(),
            );
            let loaded = assemble(project, project_listed, project_activity, &profiles);
            projects.push(project_wire(
                &loaded.project,
                &loaded.listed,
                &loaded.activity,
                &users,
                loaded.guest_profile.clone(),
            ));
        }
        match query.sort_by {
            None | Some(ProjectSortBy::RecentActivity) => {
                sort_project_list(&mut projects, &query.pinned)
            }
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
        Ok(ProjectsResponse {
            options: ProjectsOptions {
                states: query.states,
                sort_by: query.sort_by,
            },
            projects,
        })
    }

    /// The project with the listed podcasts `filter` keeps.
    pub async fn details(
        &self,
        account: &Account,
        id_or_slug: String,
        filter: ListedFilter,
    ) -> AppResult<ProjectDetailsResponse> {
        let users = users_of(self, account).await?;
        let (loaded, listed) = load_filtered(self, account, &id_or_slug, &filter, &users).await?;
        Ok(ProjectDetailsResponse {
            project: details_wire(&loaded, &users, Some(listed)),
        })
    }

    /// Applies `changes` to a project.
    pub async fn update(
        &self,
        account: &Account,
        id_or_slug: String,
        changes: ProjectChanges,
    ) -> AppResult<UpdateProjectResponse> {
        let users = users_of(self, account).await?;
        let mut project = find_project(self, account, &id_or_slug).await?;
        changes.apply(&mut project);
        self.store.save_project(&project).await?;
        let profiles = guest_profiles::profiles_by_project(&self.store, &account.team_id).await?;
        let loaded = load(self, project, &profiles).await?;
        Ok(UpdateProjectResponse {
            project: project_wire(
                &loaded.project,
                &loaded.listed,
                &loaded.activity,
                &users,
                loaded.guest_profile.clone(),
            ),
        })
    }

    /// Removes a project and its listed podcasts.
    pub async fn delete(&self, account: &Account, id_or_slug: String) -> AppResult<ProjectDeleted> {
        let project = find_project(self, account, &id_or_slug).await?;
        if !self
            .store
            .delete_project(&account.team_id, &project.project_id)
            .await?
        {
            return Err(project_not_found(&id_or_slug));
        }
        Ok(ProjectDeleted {
            message: format!("Project \"{}\" deleted", project.name),
            project_id: project.project_id,
        })
    }

    /// Lists a catalog podcast on a project, unless `plan`'s podcasts per project are
    /// reached.
    pub async fn add_podcast(
        &self,
        account: &Account,
        plan: Plan,
        id_or_slug: String,
        listing: NewListing,
    ) -> AppResult<AddPodcastToProjectResponse> {
        let cap = plan.limits().podcasts_per_project.map(u64::from);
        let users = users_of(self, account).await?;
        let project = find_project(self, account, &id_or_slug).await?;
        let catalog = self.catalog.clone();
        let wanted = listing.podcast.clone();
        let podcast = blocking(move || catalog.podcast(&wanted)).await?;
        let now = Utc::now();
        let row = ListedPodcastRow {
            listed_podcast_id: Uuid::new_v4().to_string(),
            project_id: project.project_id.clone(),
            team_id: account.team_id.clone(),
            podcast_id: podcast.podcast_id.to_string(),
            podcast_title: podcast.podcast_rss_title.clone(),
            podcast_slug: podcast.podcast_slug.clone(),
            podcast_image_url: podcast.podcast_image_url.clone(),
            status: listing.status,
            priority: listing.priority,
            labels: listing.labels,
            added_at: now,
            updated_at: now,
            added_by_user_id: account.user_id.clone(),
            relevancy_score: None,
        };
        let added = activity(
            account,
            ActivityActionType::AddedToList,
            None,
            Some(listing.status.as_str().to_owned()),
            now,
        );
        let new = NewListedPodcast {
            row,
            added: added.clone(),
        };
        let row = match self.store.add_listed(new, cap).await? {
            CapCheck::Done(row) => row,
            CapCheck::CapReached { limit } => {
                return Err(AppError::Forbidden(format!(
                    "Podcast limit reached: the {plan} plan allows {limit} podcasts per project. Remove a podcast from \"{}\" or upgrade your plan to add more.",
                    project.name
                )));
            }
        };
        Ok(AddPodcastToProjectResponse {
            listed_podcast: listed_podcast_wire(&row, vec![added], &users),
        })
    }

    /// The listed podcasts `filter` keeps, with their activity history.
    pub async fn listed_details(
        &self,
        account: &Account,
        id_or_slug: String,
        filter: ListedFilter,
    ) -> AppResult<ListedPodcastsDetails> {
        let users = users_of(self, account).await?;
        let (loaded, listed) = load_filtered(self, account, &id_or_slug, &filter, &users).await?;
        Ok(ListedPodcastsDetails {
            total: loaded.listed.len(),
            project_id: loaded.project.project_id,
            project_slug: loaded.project.slug,
            listed_podcasts: listed,
        })
    }

    /// Moves a listed podcast to another state, sets or clears its priority, replaces
    /// its labels: an activity entry per value that changed.
    pub async fn update_listed(
        &self,
        account: &Account,
        id_or_slug: String,
        listed_podcast_id: String,
        changes: ListedChanges,
    ) -> AppResult<UpdateListedPodcastResponse> {
        let users = users_of(self, account).await?;
        let project = find_project(self, account, &id_or_slug).await?;
        let mut row = self
            .store
            .find_listed(&project.project_id, &listed_podcast_id)
            .await?
            .ok_or_else(|| listed_not_found(&listed_podcast_id))?;
        let entries = changes.apply(&mut row, account);
        if !entries.is_empty() {
            self.store.update_listed(&row, &entries).await?;
        }
        let activity = self
            .store
            .listed_activity(&project.project_id, &row.listed_podcast_id)
            .await?;
        Ok(UpdateListedPodcastResponse {
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
        })
    }

    /// Takes a podcast off a project's list.
    pub async fn remove_listed(
        &self,
        account: &Account,
        id_or_slug: String,
        listed_podcast_id: String,
    ) -> AppResult<RemoveListedPodcastResponse> {
        let project = find_project(self, account, &id_or_slug).await?;
        if !self
            .store
            .remove_listed(&project.project_id, &listed_podcast_id, Utc::now())
            .await?
        {
            return Err(listed_not_found(&listed_podcast_id));
        }
        Ok(RemoveListedPodcastResponse {
            project_slug: project.slug,
            listed_podcast_id,
        })
    }

    /// Episodes the listed podcasts published in the last `days` days, newest first
    /// per podcast.
    pub async fn recent_episodes(
        &self,
        account: &Account,
        id_or_slug: String,
        RecentDays(days): RecentDays,
    ) -> AppResult<RecentEpisodesResponse> {
        let project = find_project(self, account, &id_or_slug).await?;
        let listed_podcasts = self.store.listed_podcasts(&project.project_id).await?;
        let catalog = self.catalog.clone();
        blocking(move || {
            let since = Utc::now() - Duration::days(days);
            let snapshot = catalog.snapshot()?;
            let mut podcasts = Vec::new();
            let mut total = 0u64;
            for listed in listed_podcasts {
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
            Ok(RecentEpisodesResponse {
                days,
                since,
                total,
                podcasts,
            })
        })
        .await
    }
}

// ---------------------------------------------------------------- helpers

fn project_not_found(id_or_slug: &str) -> AppError {
    AppError::NotFound(format!("Project not found: {id_or_slug}"))
}

fn listed_not_found(listed_podcast_id: &str) -> AppError {
    AppError::NotFound(format!("Listed podcast not found: {listed_podcast_id}"))
}

async fn find_project(
    service: &Projects,
    account: &Account,
    id_or_slug: &str,
) -> AppResult<ProjectRow> {
    service
        .store
        .find_project(&account.team_id, id_or_slug.trim())
        .await?
        .ok_or_else(|| project_not_found(id_or_slug))
}

async fn users_of(service: &Projects, account: &Account) -> AppResult<UserDirectory> {
    Ok(UserDirectory::new(
        service.accounts.team_users(&account.team_id).await?,
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
async fn load(
    service: &Projects,
    project: ProjectRow,
    profiles: &HashMap<String, GuestProfileDoc>,
) -> AppResult<Loaded> {
    let listed = service.store.listed_podcasts(&project.project_id).await?;
    let activity = service.store.project_activity(&project.project_id).await?;
    Ok(assemble(project, listed, activity, profiles))
}

/// `rows` grouped by their project, in their order within each.
fn by_project<T>(rows: Vec<T>, project_of: impl Fn(&T) -> &String) -> HashMap<String, Vec<T>> {
    let mut grouped: HashMap<String, Vec<T>> = HashMap::new();
    for row in rows {
        grouped
            .entry(project_of(&row).clone())
            .or_default()
            .push(row);
    }
    grouped
}

/// A project with its listed podcasts and activity, and its guest profile from
/// `profiles`.
fn assemble(
    project: ProjectRow,
    listed: Vec<ListedPodcastRow>,
    activity: Vec<ActivityRow>,
    profiles: &HashMap<String, GuestProfileDoc>,
) -> Loaded {
    let booked = listed
        .iter()
        .filter(|row| row.status == ListedPodcastStatus::Booked)
        .count() as u64;
    let guest_profile = profiles
        .get(&project.project_id)
        .map(|profile| guest_profiles::linked_profile(profile, booked));
    Loaded {
        project,
        listed,
        activity,
        guest_profile,
    }
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

fn parse_states(values: &[String]) -> AppResult<Vec<ProjectStatus>> {
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
        .collect::<AppResult<_>>()
}

fn parse_listed_status(value: &str) -> AppResult<ListedPodcastStatus> {
    enum_value(
        value,
        "state",
        ListedPodcastStatus::parse,
        ListedPodcastStatus::ALL,
        ListedPodcastStatus::as_str,
    )
}

fn parse_priority(value: &str) -> AppResult<Priority> {
    enum_value(
        value,
        "priority",
        Priority::parse,
        Priority::ALL,
        Priority::as_str,
    )
}

fn parse_labels(values: &[String]) -> AppResult<Vec<ListedPodcastLabel>> {
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

fn string_value<'a>(value: &'a Value, name: &str) -> AppResult<&'a str> {
    value
        .as_str()
        .ok_or_else(|| AppError::Invalid(format!("{name} must be a string")))
}

/// Which listed podcasts a details call shows: by status and by priority (`none`
/// selects podcasts without one). A filter that is absent selects everything.
pub struct ListedFilter {
    states: Option<Vec<ListedPodcastStatus>>,
    priorities: Option<Vec<Option<Priority>>>,
}

impl ListedFilter {
    /// The filter of a details call's query.
    pub fn from_query(pairs: &[(String, String)]) -> AppResult<ListedFilter> {
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
/// `filter` keeps, as the team's `users` see them: what the project details and the
/// listed podcast details share.
async fn load_filtered(
    service: &Projects,
    account: &Account,
    id_or_slug: &str,
    filter: &ListedFilter,
    users: &UserDirectory,
) -> AppResult<(Loaded, Vec<ListedPodcast>)> {
    let project = find_project(service, account, id_or_slug).await?;
    let profiles = guest_profiles::profiles_by_project(&service.store, &account.team_id).await?;
    let loaded = load(service, project, &profiles).await?;
    let listed = filtered_listed(&loaded, filter, users);
    Ok((loaded, listed))
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

/// The changes a project update asks for, each `None` when absent.
pub struct ProjectChanges {
    name: Option<String>,
    status: Option<ProjectStatus>,
    project_types: Option<Vec<podlens_model::enums::ProjectType>>,
    project_type_other_reason: Option<Option<String>>,
    project_purpose: Option<Option<String>>,
    project_keywords: Option<Vec<String>>,
}

fn nullable_text(body: &Map<String, Value>, name: &str) -> AppResult<Option<Option<String>>> {
    nullable(body, name)
        .map(|value| {
            value
                .map(|value| string_value(value, name).map(str::to_owned))
                .transpose()
        })
        .transpose()
}

impl ProjectChanges {
    /// The changes of an update's JSON body, or why not.
    pub fn from_body(body: &Map<String, Value>) -> AppResult<ProjectChanges> {
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

/// The answer of a deletion.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProjectDeleted {
    pub project_id: String,
    pub message: String,
}

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

/// What a listed podcast update asks for: `priority` may be null (cleared).
pub struct ListedChanges {
    state: Option<ListedPodcastStatus>,
    priority: Option<Option<Priority>>,
    labels: Option<Vec<ListedPodcastLabel>>,
}

impl ListedChanges {
    /// The changes of an update's JSON body, or why not.
    pub fn from_body(body: &Map<String, Value>) -> AppResult<ListedChanges> {
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
            return Err(AppError::Invalid(
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

/// How many days of recent episodes a query asks for (default 7, at most 365).
#[derive(Debug, Clone, Copy)]
pub struct RecentDays(pub i64);

impl RecentDays {
    /// The `days` of a recent-episodes query, or why not.
    pub fn from_query(pairs: &[(String, String)]) -> AppResult<RecentDays> {
        recent_days(pairs).map(RecentDays)
    }
}

fn recent_days(pairs: &[(String, String)]) -> AppResult<i64> {
    let Some(value) = query_value(pairs, "days") else {
        return Ok(DEFAULT_RECENT_DAYS);
    };
    value
        .trim()
        .parse::<i64>()
        .ok()
        .filter(|days| (1..=MAX_RECENT_DAYS).contains(days))
        .ok_or_else(|| {
            AppError::Invalid(format!(
                "days must be a whole number between 1 and {MAX_RECENT_DAYS}, got \"{value}\""
            ))
        })
}
