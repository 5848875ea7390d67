//! `GET /api/v1/polling/updates`: what happened in the team since a time or a cursor,
//! oldest first, built from the stored records: completed transcription requests,
//! podcasts added to project lists and alert matches.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::state::{AppState, blocking};
use podlens_app::cursors::{
    CursorKind, CursorSigner, Payload, Reader, fingerprint, invalid_cursor,
};
use podlens_app::workflows::alerts::AlertMatch;
use podlens_app::workflows::documents::{DocFilter, DocKind, Stored};
use podlens_app::workflows::fields::parse_date;
use podlens_app::workflows::fields::{query_list, query_value};
use podlens_app::workflows::transcriptions::team_requests;

/// The event types.
pub const EVENT_TYPES: [&str; 4] = [
    "request_completed",
    "guest_appearance",
    "listed_podcast_added",
    "alert_match",
];
/// Default and largest page.
pub const UPDATES_LIMIT: (usize, usize) = (50, 100);

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/polling/updates", get(updates))
}

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
fn parse_cursor(signer: &CursorSigner, text: &str, team: [u8; 8]) -> ApiResult<(i64, String)> {
    let payload = signer.verify(CursorKind::Polling, text)?;
    let mut reader = Reader::new(&payload);
    let micros = reader.i64()?;
    let id = reader.text()?;
    let bound = reader.bytes8()?;
    reader.end()?;
    if bound != team || id.is_empty() {
        return Err(ApiError::from(invalid_cursor()));
    }
    Ok((micros, id))
}

struct Filters {
    types: Vec<String>,
    project_id: Option<String>,
    guest_profile_id: Option<String>,
    alert_config_id: Option<String>,
}

fn collect(state: &AppState, team_id: &str, filters: &Filters) -> ApiResult<Vec<Event>> {
    let wants = |kind: &str| filters.types.iter().any(|t| t == kind);
    let scoped = filters.project_id.is_some()
        || filters.guest_profile_id.is_some()
        || filters.alert_config_id.is_some();
    let mut events = Vec::new();
    if wants("request_completed") && !scoped {
        for request in team_requests(&state.workflows, team_id)? {
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
        for project in state.workflows.team_projects(team_id)? {
            if filters
                .project_id
                .as_deref()
                .is_some_and(|id| id != project.project_id && id != project.slug)
            {
                continue;
            }
            for listed in state.workflows.listed_podcasts(&project.project_id)? {
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
        let matches: Vec<Stored<AlertMatch>> = state.workflows.list_docs(
            DocKind::AlertMatch,
            &DocFilter {
                team_id: Some(team_id),
                parent_id: filters.alert_config_id.as_deref(),
                ..DocFilter::default()
            },
        )?;
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

/// `GET /api/v1/polling/updates?since&cursor&eventTypes&projectId&guestProfileId`
/// `&alertConfigId&limit`.
#[utoipa::path(get, path = "/api/v1/polling/updates", tag = "polling",
    params(("since" = Option<String>, Query, description = "Events on or after this time (YYYY-MM-DD or RFC 3339)"),
           ("cursor" = Option<String>, Query, description = "The cursor of the previous page: events after it"),
           ("eventTypes" = Option<String>, Query, description = "Comma-separated (or repeated) event types; default all"),
           ("projectId" = Option<String>, Query, description = "Only this project's events (id or slug)"),
           ("guestProfileId" = Option<String>, Query, description = "Only this guest profile's events"),
           ("alertConfigId" = Option<String>, Query, description = "Only this alert's matches"),
           ("limit" = Option<u32>, Query, description = "Events per page, 1 to 100 (default 50)")),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn updates(
    State(state): State<AppState>,
    caller: Caller,
    axum::extract::Query(query): axum::extract::Query<Vec<(String, String)>>,
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?.clone();
    let types = match query_list(&query, "eventTypes") {
        Some(types) => {
            if let Some(bad) = types.iter().find(|t| !EVENT_TYPES.contains(&t.as_str())) {
                return Err(ApiError::BadRequest(format!(
                    "Invalid event type \"{bad}\"; expected one of {}",
                    EVENT_TYPES.join(", ")
                )));
            }
            types
        }
        None => EVENT_TYPES.iter().map(|t| (*t).to_owned()).collect(),
    };
    let since = query_value(&query, "since").map(parse_date).transpose()?;
    let team = fingerprint(&account.team_id);
    let signer = state.cursors.clone();
    let cursor = query_value(&query, "cursor")
        .map(|text| parse_cursor(&signer, text, team))
        .transpose()?;
    let limit = match query_value(&query, "limit") {
        None => UPDATES_LIMIT.0,
        Some(text) => match text.parse::<f64>() {
            Ok(n) if n.fract() == 0.0 && n >= 1.0 && n <= UPDATES_LIMIT.1 as f64 => n as usize,
            _ => {
                return Err(ApiError::BadRequest(format!(
                    "limit must be a whole number between 1 and {}, got \"{text}\"",
                    UPDATES_LIMIT.1
                )));
            }
        },
    };
    let filters = Filters {
        types,
        project_id: query_value(&query, "projectId").map(str::to_owned),
        guest_profile_id: query_value(&query, "guestProfileId").map(str::to_owned),
        alert_config_id: query_value(&query, "alertConfigId").map(str::to_owned),
    };
    let given_cursor = query_value(&query, "cursor").map(str::to_owned);
    blocking(move || {
        let events: Vec<Event> = collect(&state, &account.team_id, &filters)?
            .into_iter()
            .filter(|event| since.is_none_or(|since| event.occurred_at >= since))
            .filter(|event| {
                cursor.as_ref().is_none_or(|(micros, id)| {
                    (event.occurred_at.timestamp_micros(), &event.id) > (*micros, id)
                })
            })
            .collect();
        let has_more = events.len() > limit;
        let page: Vec<&Event> = events.iter().take(limit).collect();
        let next = page
            .last()
            .map(|event| event.cursor(&signer, team))
            .or(given_cursor);
        let wire: Vec<Value> = page
            .iter()
            .map(|event| {
                json!({
                    "id": format!("{}:{}", event.event_type, event.id),
                    "occurredAt": event.occurred_at,
                    "eventType": event.event_type,
                    "data": event.data,
                })
            })
            .collect();
        Ok(Envelope(
            json!({"events": wire, "cursor": next, "hasMore": has_more}),
        ))
    })
    .await
}
