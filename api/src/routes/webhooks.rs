//! Team webhooks (team settings, integrations; a Podlens extension): list, register
//! (the signing secret is in that answer only) and delete. Deliveries are signed with
//! the secret and sent by the alert delivery worker; docs/webhooks.md describes the
//! payload and how to verify it.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{delete, get};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::RawJson;
use crate::state::AppState;
use podlens_app::workflows::CapCheck;
use podlens_app::workflows::fields::{object, optional_string, optional_strings};
use podlens_app::workflows::webhooks::{
    MAX_WEBHOOKS_PER_TEAM, WEBHOOK_EVENTS, WebhookRow, new_secret, url_problem,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/teams/webhooks", get(list).post(create))
        .route("/api/v1/teams/webhooks/{webhookId}", delete(delete_one))
        .route(
            "/api/v1/teams/webhooks/{webhookId}/deliveries",
            get(deliveries),
        )
}

/// One webhook of the team (never its secret).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookInfo {
    pub webhook_id: String,
    pub url: String,
    /// The events delivered to it: `alert_match`.
    pub events: Vec<String>,
    pub created_at: DateTime<Utc>,
    pub created_by_user_id: String,
}

impl From<WebhookRow> for WebhookInfo {
    fn from(row: WebhookRow) -> Self {
        WebhookInfo {
            webhook_id: row.webhook_id,
            url: row.url,
            events: row.events,
            created_at: row.created_at,
            created_by_user_id: row.created_by_user_id,
        }
    }
}

/// `data` of the list.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhooksResponse {
    pub webhooks: Vec<WebhookInfo>,
}

/// The body of a registration.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateWebhookRequest {
    /// Where deliveries are posted: an http or https URL on a public address.
    #[schema(example = "https://hooks.example.com/podlens", pattern = "^https?://")]
    pub url: String,
    /// The events to deliver.
    #[schema(value_type = Vec<WebhookEvent>, min_items = 1)]
    pub events: Vec<String>,
}

/// An event a webhook can subscribe to (the polling event of the same name).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WebhookEvent {
    AlertMatch,
}

/// `data` of a registration: the only answer that holds the signing secret.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedWebhook {
    pub webhook: WebhookInfo,
    /// The HMAC-SHA256 key of `X-Podlens-Signature`, shown this once.
    pub secret: String,
}

/// `data` of a deletion.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeletedWebhook {
    pub webhook_id: String,
}

/// One delivery to a webhook (its latest state in the delivery ledger).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookDeliveryInfo {
    /// The id sent in `X-Podlens-Delivery` and the body's `id`, the same on every attempt.
    pub delivery_id: String,
    pub event: String,
    pub alert_config_id: String,
    /// `pending`, `sending`, `sent` or `failed`.
    pub status: String,
    pub attempts: u32,
    pub created_at: DateTime<Utc>,
    pub next_attempt_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
}

/// `data` of a webhook's deliveries.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookDeliveriesResponse {
    pub deliveries: Vec<WebhookDeliveryInfo>,
}

/// Deliveries listed per webhook (the latest).
pub const DELIVERIES_LISTED: usize = 100;

/// The team's webhooks, oldest first.
#[utoipa::path(get, path = "/api/v1/teams/webhooks", tag = "teams", operation_id = "listTeamWebhooks",
    responses((status = 200, body = WebhooksResponse, description = "The team's webhooks")))]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Envelope<WebhooksResponse>> {
    let account = caller.require_account()?;
    let webhooks = state
        .workflows
        .team_webhooks(&account.team_id)
        .await?
        .into_iter()
        .map(WebhookInfo::from)
        .collect();
    Ok(Envelope(WebhooksResponse { webhooks }))
}

fn checked_events(events: Option<Vec<String>>) -> ApiResult<Vec<String>> {
    let events = events.ok_or_else(|| ApiError::BadRequest("events is required".into()))?;
    if events.is_empty() {
        return Err(ApiError::BadRequest(
            "events must name at least one event".into(),
        ));
    }
    let mut unique: Vec<String> = Vec::new();
    for event in events {
        if !WEBHOOK_EVENTS.contains(&event.as_str()) {
            return Err(ApiError::BadRequest(format!(
                "Invalid event {event:?}; expected one of {}",
                WEBHOOK_EVENTS.join(", ")
            )));
        }
        if !unique.contains(&event) {
            unique.push(event);
        }
    }
    Ok(unique)
}

/// Registers a webhook for the caller's team; the answer holds its signing secret.
#[utoipa::path(post, path = "/api/v1/teams/webhooks", tag = "teams", operation_id = "createTeamWebhook",
    request_body = CreateWebhookRequest,
    responses((status = 200, body = CreatedWebhook, description = "The new webhook and its secret, shown this once")))]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<CreatedWebhook>> {
    let account = caller.require_account()?.clone();
    let body = object(body)?;
    let url = optional_string(&body, "url")?
        .map(|url| url.trim().to_owned())
        .filter(|url| !url.is_empty())
        .ok_or_else(|| ApiError::BadRequest("url is required".into()))?;
    if let Some(problem) = url_problem(&url, state.deliveries.sender().policy()) {
        return Err(ApiError::BadRequest(problem));
    }
    let events = checked_events(optional_strings(&body, "events")?)?;
    let row = WebhookRow {
        webhook_id: Uuid::new_v4().to_string(),
        team_id: account.team_id.clone(),
        url,
        events,
        secret: new_secret(),
        created_by_user_id: account.user_id.clone(),
        created_at: Utc::now(),
    };
    match state
        .workflows
        .create_webhook(&row, MAX_WEBHOOKS_PER_TEAM)
        .await?
    {
        CapCheck::Done(()) => Ok(Envelope(CreatedWebhook {
            secret: row.secret.clone(),
            webhook: WebhookInfo::from(row),
        })),
        CapCheck::CapReached { limit } => Err(ApiError::Forbidden(format!(
            "Webhook limit reached: a team can register {limit} webhooks. Delete one to add another."
        ))),
    }
}

/// Deletes a webhook of the caller's team; deliveries still pending for it fail.
#[utoipa::path(delete, path = "/api/v1/teams/webhooks/{webhookId}", tag = "teams", operation_id = "deleteTeamWebhook",
    params(("webhookId" = String, Path, description = "The webhook's id from the list")),
    responses((status = 200, body = DeletedWebhook, description = "The webhook is deleted"),
              (status = 404, description = "No such webhook in the team")))]
pub async fn delete_one(
    State(state): State<AppState>,
    caller: Caller,
    Path(webhook_id): Path<String>,
) -> ApiResult<Envelope<DeletedWebhook>> {
    let account = caller.require_account()?;
    if state
        .workflows
        .delete_webhook(&account.team_id, &webhook_id)
        .await?
    {
        Ok(Envelope(DeletedWebhook { webhook_id }))
    } else {
        Err(ApiError::NotFound(format!(
            "Webhook not found: {webhook_id}"
        )))
    }
}

/// The latest deliveries to a webhook of the caller's team, newest first (at most 100).
#[utoipa::path(get, path = "/api/v1/teams/webhooks/{webhookId}/deliveries", tag = "teams", operation_id = "listTeamWebhookDeliveries",
    params(("webhookId" = String, Path, description = "The webhook's id from the list")),
    responses((status = 200, body = WebhookDeliveriesResponse, description = "The webhook's latest deliveries"),
              (status = 404, description = "No such webhook in the team")))]
pub async fn deliveries(
    State(state): State<AppState>,
    caller: Caller,
    Path(webhook_id): Path<String>,
) -> ApiResult<Envelope<WebhookDeliveriesResponse>> {
    let account = caller.require_account()?;
    let known = state
        .workflows
        .team_webhooks(&account.team_id)
        .await?
        .iter()
        .any(|hook| hook.webhook_id == webhook_id);
    if !known {
        return Err(ApiError::NotFound(format!(
            "Webhook not found: {webhook_id}"
        )));
    }
    let deliveries = state
        .workflows
        .webhook_deliveries(&account.team_id, &webhook_id, DELIVERIES_LISTED)
        .await?
        .into_iter()
        .map(|delivery| WebhookDeliveryInfo {
            delivery_id: delivery.delivery_id,
            event: delivery.event,
            alert_config_id: delivery.alert_config_id,
            status: delivery.status,
            attempts: delivery.attempts,
            created_at: delivery.created_at,
            next_attempt_at: delivery.next_attempt_at,
            sent_at: delivery.sent_at,
            last_error: delivery.last_error,
        })
        .collect();
    Ok(Envelope(WebhookDeliveriesResponse { deliveries }))
}
