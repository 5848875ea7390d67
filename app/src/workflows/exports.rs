//! Exports (SPEC.md §7): the podcasts of a remembered search and a project's listed
//! podcasts, as CSV or JSON files with the chosen column groups. The limit is 1-1000
//! and at most the plan's entries per export; each export counts against the plan's
//! monthly exports.

use std::collections::HashSet;
use std::sync::Arc;

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

use super::fields::{enum_value, object, optional_string, optional_strings};
use super::{
    ExportRow, ListedPodcastRow, WorkflowStore, export_row, header_of, max_export_entries,
    render_csv, render_json,
};
use crate::accounts::blacklists::{TeamBlacklists, blacklist_of};
use crate::accounts::history::SearchHistory;
use crate::accounts::metering::{Charge, Metering, Requester};
use crate::accounts::{Account, AccountStore, UsageCounter};
use crate::catalog::CatalogReader;
use crate::error::{AppError, AppResult};
use crate::runtime::blocking;
use crate::search::SearchEngine;
use crate::search_plan::engine_request;

/// What every export asks for.
#[derive(Debug, Clone)]
struct ExportRequest {
    columns: Vec<ExportColumn>,
    format: ExportFormat,
    limit: u32,
}

fn limit_value(body: &Map<String, Value>, default: u32) -> AppResult<u32> {
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
) -> AppResult<ExportRequest> {
    let columns = parse_export_columns(&optional_strings(body, "columns")?.unwrap_or_default())?;
    let format = parse_export_format(&optional_string(body, "format")?.unwrap_or_default())?;
    let limit = limit_value(body, default_limit)?;
    let Some(max_entries) = max_export_entries(plan) else {
        return Err(AppError::Forbidden(format!(
            "Exports are not included in the {plan} plan"
        )));
    };
    if limit > max_entries {
        return Err(AppError::Forbidden(format!(
            "The {plan} plan exports at most {max_entries} entries; limit was {limit}"
        )));
    }
    Ok(ExportRequest {
        columns,
        format,
        limit,
    })
}

/// The `podcastIds` of a search export: the podcasts picked among the search's results.
fn picked_podcasts(body: &Map<String, Value>) -> AppResult<Option<Vec<Uuid>>> {
    optional_strings(body, "podcastIds")?
        .map(|ids| {
            ids.iter()
                .map(|id| {
                    Uuid::parse_str(id.trim()).map_err(|_| {
                        AppError::Invalid(format!("podcastIds: not a podcast id: {id}"))
                    })
                })
                .collect()
        })
        .transpose()
}

fn states_filter(body: &Map<String, Value>) -> AppResult<Option<Vec<ListedPodcastStatus>>> {
    optional_strings(body, "listedPodcastStatesFilter")?
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
        .transpose()
}

/// `POST /api/v1/export/podcasts`: `searchHistoryId`, `limit` (default 100), `columns`,
/// `format` and the `podcastIds` picked among the search's results.
#[derive(Debug, Clone)]
pub struct SearchExportRequest {
    search_id: String,
    export: ExportRequest,
    picked: Option<Vec<Uuid>>,
}

impl SearchExportRequest {
    pub fn from_json(body: Value, plan: Plan) -> AppResult<SearchExportRequest> {
        let body = object(body)?;
        let search_id = optional_string(&body, "searchHistoryId")?
            .filter(|id| !id.trim().is_empty())
            .ok_or_else(|| AppError::Invalid("searchHistoryId is required".into()))?;
        let export = export_request(&body, plan, 100)?;
        Ok(SearchExportRequest {
            search_id,
            export,
            picked: picked_podcasts(&body)?,
        })
    }
}

/// `POST /api/v1/export/project/{projectId}/listed-podcasts`: `columns`, `format`,
/// `listedPodcastStatesFilter` and `limit` (default and cap: the plan's entries per
/// export, at most 1000).
#[derive(Debug, Clone)]
pub struct ProjectExportRequest {
    export: ExportRequest,
    states: Option<Vec<ListedPodcastStatus>>,
}

impl ProjectExportRequest {
    pub fn from_json(body: Value, plan: Plan) -> AppResult<ProjectExportRequest> {
        let body = object(body)?;
        let default_limit = max_export_entries(plan)
            .unwrap_or(1)
            .min(podlens_model::validation::EXPORT_LIMIT.1);
        let export = export_request(&body, plan, default_limit)?;
        Ok(ProjectExportRequest {
            export,
            states: states_filter(&body)?,
        })
    }
}

/// An export as a file: its content type, its name and its text.
#[derive(Debug, Clone)]
pub struct ExportFile {
    pub content_type: &'static str,
    pub file_name: String,
    pub body: String,
}

fn export_file(
    request: &ExportRequest,
    name: &str,
    rows: &[ExportRow],
    with_listed: bool,
    plan: Plan,
) -> ExportFile {
    let (content_type, body, extension) = match request.format {
        ExportFormat::Csv => {
            let header = header_of(&request.columns, with_listed, plan);
            ("text/csv; charset=utf-8", render_csv(rows, &header), "csv")
        }
        ExportFormat::Json => ("application/json", render_json(rows), "json"),
    };
    ExportFile {
        content_type,
        file_name: format!("{name}.{extension}"),
        body,
    }
}

/// What exports work with.
#[derive(Clone)]
pub struct Exports {
    pub catalog: Arc<CatalogReader>,
    pub store: Arc<WorkflowStore>,
    pub engine: Arc<dyn SearchEngine>,
    pub accounts: Arc<dyn AccountStore>,
    pub blacklists: Arc<TeamBlacklists>,
    pub history: Arc<SearchHistory>,
    pub metering: Metering,
}

/// The podcasts of a remembered search, in result order, at most `limit`, without
/// the team's `blacklisted` podcasts.
async fn search_podcasts(
    exports: &Exports,
    blacklisted: &[Uuid],
    plan: Plan,
    mode: &str,
    options_json: &str,
    limit: u32,
) -> AppResult<Vec<PodcastRecord>> {
    let options: Value = serde_json::from_str(options_json).map_err(|error| {
        AppError::Internal(format!("stored search options unreadable: {error}"))
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
    request
        .filters
        .exclude_podcast_ids
        .extend(blacklisted.iter().copied());
    let response = exports.engine.search(request).await?;
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
    let catalog = exports.catalog.clone();
    blocking(move || Ok(catalog.snapshot()?.podcasts_by_ids(&ids)?)).await
}

impl Exports {
    /// The podcasts of one of the team's remembered searches (those picked, when some
    /// are), in result order.
    pub async fn export_search(
        &self,
        account: &Account,
        requester: &Requester,
        request: SearchExportRequest,
    ) -> AppResult<(Charge, ExportFile)> {
        let SearchExportRequest {
            search_id,
            export: request,
            picked,
        } = request;
        // This node's recent searches are written first (a failure to is no reason to
        // refuse a search already stored); another node's are in the store within about
        // one flush interval, so a search not found yet is looked for again for up to two.
        if let Err(error) = self.history.flush().await {
            tracing::warn!(%error, "remembered searches not written before an export");
        }
        let interval = crate::accounts::history::FLUSH_INTERVAL;
        let deadline = tokio::time::Instant::now() + interval * 2;
        let (mode, options_json) = loop {
            if let Some(found) = self
                .store
                .search_of_team(&search_id, &account.team_id)
                .await?
            {
                break found;
            }
            if tokio::time::Instant::now() >= deadline {
                return Err(AppError::NotFound(format!(
                    "Search history not found: {search_id}"
                )));
            }
            tokio::time::sleep(interval / 4).await;
        };
        let charge = self
            .metering
            .charge(requester, UsageCounter::Export)
            .await?;
        let plan = requester.plan;
        let columns = request.columns.clone();
        let blacklisted =
            blacklist_of(&self.blacklists, self.accounts.as_ref(), Some(account)).await?;
        // With podcasts picked, they are looked for among as many results as the plan
        // exports at most.
        let read = match &picked {
            None => request.limit,
            Some(_) => max_export_entries(plan).unwrap_or(request.limit),
        };
        let mut podcasts =
            search_podcasts(self, &blacklisted, plan, &mode, &options_json, read).await?;
        if let Some(ids) = &picked {
            podcasts.retain(|podcast| ids.contains(&podcast.podcast_id));
        }
        let rows = podcasts
            .iter()
            .map(|podcast| export_row(podcast, None, &columns, plan))
            .collect::<Vec<_>>();
        let file = export_file(&request, &format!("search-{search_id}"), &rows, false, plan);
        Ok((charge, file))
    }

    /// The listed podcasts of one of the team's projects (id or slug), in list order.
    pub async fn export_project(
        &self,
        account: &Account,
        requester: &Requester,
        id_or_slug: &str,
        request: ProjectExportRequest,
    ) -> AppResult<(Charge, ExportFile)> {
        let ProjectExportRequest {
            export: request,
            states,
        } = request;
        let project = self
            .store
            .find_project(&account.team_id, id_or_slug.trim())
            .await?
            .ok_or_else(|| AppError::NotFound(format!("Project not found: {id_or_slug}")))?;
        let charge = self
            .metering
            .charge(requester, UsageCounter::Export)
            .await?;
        let plan = requester.plan;
        let columns = request.columns.clone();
        let listed = self.store.listed_podcasts(&project.project_id).await?;
        let catalog = self.catalog.clone();
        let rows = blocking(move || {
            let listed: Vec<ListedPodcastRow> = listed
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
            let podcasts = catalog.snapshot()?.podcasts_by_ids(&ids)?;
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
        let name = format!("project-{}", project.slug);
        Ok((charge, export_file(&request, &name, &rows, true, plan)))
    }
}
