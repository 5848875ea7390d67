//! What happened in a team since a time or a cursor, oldest first, built from the
//! stored records: completed transcription requests, podcasts added to project lists
//! and alert matches (`GET /api/v1/polling/updates`).

use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Value, json};

use super::WorkflowStore;
use super::alerts::AlertMatch;
use super::documents::{DocFilter, DocKind, Stored};
use super::fields::{parse_date, query_list, query_value, whole_number};
use super::transcriptions::team_requests;
use crate::accounts::Account;
use crate::cursors::{CursorKind, CursorSigner, Payload, Reader, fingerprint, invalid_cursor};
use crate::error::{AppError, AppResult};

/// The event types.
pub const EVENT_TYPES: [&str; 4] = [
    "request_completed",
    "guest_appearance",
    "listed_podcast_added",
    "alert_match",
];
/// Default and largest page.
pub const UPDATES_LIMIT: (usize, usize) = (50, 100);

/// One event with the key it is ordered and paged by.
struct Event {
    occurred_at: DateTime<Utc>,
    id: String,
    event_type: &'static str,
    data: Value,
}

impl Event {
    /// The signed cursor after this event, bound to the team.
    fn cursor(&self, signer: &CursorSigner, team: [u8; 8]) -> String {
        let payload = Payload::default()
            .i64(self.occurred_at.timestamp_micros())
            .text(&self.id)
            .bytes8(team)
            .finish();
        signer.sign(CursorKind::Polling, &payload)
    }
}

/// The event a polling cursor of this team points after.
fn parse_cursor(signer: &CursorSigner, text: &str, team: [u8; 8]) -> AppResult<(i64, String)> {
    let payload = signer.verify(CursorKind::Polling, text)?;
    let mut reader = Reader::new(&payload);
    let micros = reader.i64()?;
    let id = reader.text()?;
    let bound = reader.bytes8()?;
    reader.end()?;
    if bound != team || id.is_empty() {
        return Err(invalid_cursor());
    }
    Ok((micros, id))
}

struct Filters {
    types: Vec<String>,
    project_id: Option<String>,
    guest_profile_id: Option<String>,
    alert_config_id: Option<String>,
}

async fn collect(store: &WorkflowStore, team_id: &str, filters: &Filters) -> AppResult<Vec<Event>> {
    let wants = |kind: &str| filters.types.iter().any(|t| t == kind);
    let scoped = filters.project_id.is_some()
        || filters.guest_profile_id.is_some()
        || filters.alert_config_id.is_some();
    let mut events = Vec::new();
    if wants("request_completed") && !scoped {
        for request in team_requests(store, team_id).await? {
            let Some(completed_at) = request.completed_at else {
                continue;
            };
            events.push(Event {
                occurred_at: completed_at,
                id: request.request_id.clone(),
                event_type: "request_completed",
                data: json!({
                    "requestId": request.request_id,
                    "requestType": request.request_type,
                    "podcastId": request.podcast_id,
                    "episodeId": request.episode_id,
                    "guestProfileId": null,
                    "completedAt": completed_at,
                    "error": request.failure_reason,
                }),
            });
        }
    }
    if wants("listed_podcast_added")
        && filters.guest_profile_id.is_none()
        && filters.alert_config_id.is_none()
    {
        for project in store.team_projects(team_id).await? {
            if filters
                .project_id
                .as_deref()
                .is_some_and(|id| id != project.project_id && id != project.slug)
            {
                continue;
            }
            for listed in store.listed_podcasts(&project.project_id).await? {
                events.push(Event {
                    occurred_at: listed.added_at,
                    id: listed.listed_podcast_id.clone(),
                    event_type: "listed_podcast_added",
                    data: json!({
                        "listedPodcastId": listed.listed_podcast_id,
                        "projectId": listed.project_id,
                        "podcastId": listed.podcast_id,
                        "status": listed.status.as_str(),
                        "createdAt": listed.added_at,
                    }),
                });
            }
        }
    }
    if wants("alert_match") && filters.project_id.is_none() && filters.guest_profile_id.is_none() {
        let matches: Vec<Stored<AlertMatch>> = store
            .list_docs(
                DocKind::AlertMatch,
                &DocFilter {
                    team_id: Some(team_id),
                    parent_id: filters.alert_config_id.as_deref(),
                    ..DocFilter::default()
                },
            )
            .await?;
        for stored in matches {
            let m = stored.value;
            events.push(Event {
                occurred_at: m.first_matched_at,
                id: m.id.clone(),
                event_type: "alert_match",
                data: json!({
                    "alertMatchId": m.id,
                    "alertConfigId": m.alert_config.id,
                    "alertConfigName": m.alert_config.name,
                    "alertType": m.kind(),
                    "episodeId": m.episode.id,
                    "podcastId": m.podcast.id,
                    "createdAt": m.first_matched_at,
                }),
            });
        }
    }
    events.sort_by(|a, b| a.occurred_at.cmp(&b.occurred_at).then(a.id.cmp(&b.id)));
    Ok(events)
}

/// `?since&cursor&eventTypes&projectId&guestProfileId&alertConfigId&limit`, read field by
/// field; the cursor, then the limit, are checked by [`Updates::page`] (the cursor is
/// bound to the team).
#[derive(Debug, Clone)]
pub struct UpdatesQuery {
    types: Vec<String>,
    since: Option<DateTime<Utc>>,
    cursor: Option<String>,
    limit: Option<String>,
    project_id: Option<String>,
    guest_profile_id: Option<String>,
    alert_config_id: Option<String>,
}

impl UpdatesQuery {
    pub fn from_query(query: &[(String, String)]) -> AppResult<UpdatesQuery> {
        let types = match query_list(query, "eventTypes") {
            Some(types) => {
                if let Some(bad) = types.iter().find(|t| !EVENT_TYPES.contains(&t.as_str())) {
                    return Err(AppError::Invalid(format!(
                        "Invalid event type \"{bad}\"; expected one of {}",
                        EVENT_TYPES.join(", ")
                    )));
                }
                types
            }
            None => EVENT_TYPES.iter().map(|t| (*t).to_owned()).collect(),
        };
        let since = query_value(query, "since").map(parse_date).transpose()?;
        Ok(UpdatesQuery {
            types,
            since,
            cursor: query_value(query, "cursor").map(str::to_owned),
            limit: query_value(query, "limit").map(str::to_owned),
            project_id: query_value(query, "projectId").map(str::to_owned),
            guest_profile_id: query_value(query, "guestProfileId").map(str::to_owned),
            alert_config_id: query_value(query, "alertConfigId").map(str::to_owned),
        })
    }
}

/// One event as the client sees it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UpdateEvent {
    pub id: String,
    pub occurred_at: DateTime<Utc>,
    pub event_type: &'static str,
    pub data: Value,
}

/// A page of events, with the cursor after its last one (or the one given, on an empty
/// page) and whether more follow.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UpdatesPage {
    pub events: Vec<UpdateEvent>,
    pub cursor: Option<String>,
    pub has_more: bool,
}

/// What the updates feed reads: the team's records and the cursor signer.
#[derive(Clone)]
pub struct Updates {
    pub store: Arc<WorkflowStore>,
    pub cursors: Arc<CursorSigner>,
}

impl Updates {
    pub async fn page(&self, account: &Account, query: UpdatesQuery) -> AppResult<UpdatesPage> {
        let team = fingerprint(&account.team_id);
        let signer = self.cursors.clone();
        let cursor = query
            .cursor
            .as_deref()
            .map(|text| parse_cursor(&signer, text, team))
            .transpose()?;
        // Events per page: 1 to the largest page.
        let limit = match &query.limit {
            None => UPDATES_LIMIT.0,
            Some(text) => whole_number("limit", text, 1, UPDATES_LIMIT.1 as u64)? as usize,
        };
        let filters = Filters {
            types: query.types,
            project_id: query.project_id,
            guest_profile_id: query.guest_profile_id,
            alert_config_id: query.alert_config_id,
        };
        let (since, given_cursor) = (query.since, query.cursor);
        let events: Vec<Event> = collect(&self.store, &account.team_id, &filters)
            .await?
            .into_iter()
            .filter(|event| since.is_none_or(|since| event.occurred_at >= since))
            .filter(|event| {
                cursor.as_ref().is_none_or(|(micros, id)| {
                    (event.occurred_at.timestamp_micros(), &event.id) > (*micros, id)
                })
            })
            .collect();
        let has_more = events.len() > limit;
        let page: Vec<Event> = events.into_iter().take(limit).collect();
        let next = page
            .last()
            .map(|event| event.cursor(&signer, team))
            .or(given_cursor);
        let events = page
            .into_iter()
            .map(|event| UpdateEvent {
                id: format!("{}:{}", event.event_type, event.id),
                occurred_at: event.occurred_at,
                event_type: event.event_type,
                data: event.data,
            })
            .collect();
        Ok(UpdatesPage {
            events,
            cursor: next,
            has_more,
        })
    }
}
