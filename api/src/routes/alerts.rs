//! Alerts: alert configurations (create, list, get, update, delete, capped by plan),
//! their episode matches and the per-mention match history.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use chrono::{DateTime, Utc};
use podlens_model::validation::is_valid_email;
use serde_json::{Map, Value, json};
use uuid::Uuid;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::RawJson;
use crate::state::{AppState, blocking};
use podlens_app::workflows::CapCheck;
use podlens_app::workflows::agent;
use podlens_app::workflows::alerts::{
    ALERT_TYPES, AlertConfig, AlertMatch, EMAIL_FREQUENCIES, EmailSettings, MAX_OTHER_EMAILS,
    emails_outside_team, match_wire,
};
use podlens_app::workflows::documents::{DocFilter, DocKind, Stored};
use podlens_app::workflows::fields::{object, optional_string, optional_strings, query_value};

/// Matches per page of the history (SDK: "50 per page").
pub const HISTORY_PAGE_SIZE: usize = 50;
/// Default and largest page of `/alerts/matches`.
pub const MATCHES_PAGE_SIZE: (usize, usize) = (20, 100);
/// The longest alert name.
pub const MAX_ALERT_NAME_CHARS: usize = 100;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/alerts/alert-config", post(create))
        .route(
            "/api/v1/alerts/alert-config/{alertConfigId}",
            get(get_one).patch(update).delete(delete_one),
        )
        .route("/api/v1/alerts/alert-configs", get(list))
        .route("/api/v1/alerts/matches", get(matches))
        .route("/api/v1/alerts/history", get(history))
}

type Query = axum::extract::Query<Vec<(String, String)>>;

fn not_found(id: &str) -> ApiError {
    ApiError::NotFound(format!("Alert config not found: {id}"))
}

fn alert_name(value: Option<String>) -> ApiResult<String> {
    let name = value.unwrap_or_default().trim().to_owned();
    if name.is_empty() {
        return Err(ApiError::BadRequest("Alert name is required".into()));
    }
    if name.chars().count() > MAX_ALERT_NAME_CHARS {
        return Err(ApiError::BadRequest(format!(
            "Alert name must be at most {MAX_ALERT_NAME_CHARS} characters"
        )));
    }
    Ok(name)
}

fn one_of(value: &str, name: &str, allowed: &[&str]) -> ApiResult<String> {
    if allowed.contains(&value) {
        Ok(value.to_owned())
    } else {
        Err(ApiError::BadRequest(format!(
            "Invalid {name} \"{value}\"; expected one of {}",
            allowed.join(", ")
        )))
    }
}

fn alert_value(value: Option<String>) -> ApiResult<String> {
    let value = value.unwrap_or_default().trim().to_owned();
    if value.chars().count() < 2 {
        return Err(ApiError::BadRequest(
            "Alert value must be at least 2 characters".into(),
        ));
    }
    Ok(value)
}

fn email_settings(body: &Map<String, Value>) -> ApiResult<Option<EmailSettings>> {
    match body.get("emailSettings") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(settings)) => {
            let frequency = optional_string(settings, "frequency")?.ok_or_else(|| {
                ApiError::BadRequest("emailSettings.frequency is required".into())
            })?;
            Ok(Some(EmailSettings {
                frequency: one_of(&frequency, "email frequency", &EMAIL_FREQUENCIES)?,
            }))
        }
        Some(_) => Err(ApiError::BadRequest(
            "emailSettings must be an object".into(),
        )),
    }
}

/// Checks the optional settings every alert type shares and returns them cleaned.
fn checked_settings(settings: &Map<String, Value>) -> ApiResult<Map<String, Value>> {
    let mut out = settings.clone();
    for list in [
        "otherSpellings",
        "otherEmails",
        "genresToSkip",
        "genresToInclude",
    ] {
        if let Some(values) = optional_strings(settings, list)? {
            let cleaned: Vec<String> = values
                .iter()
                .map(|value| value.trim().to_owned())
                .filter(|value| !value.is_empty())
                .collect();
            out.insert(list.to_owned(), json!(cleaned));
        }
    }
    if let Some(emails) = optional_strings(&out, "otherEmails")? {
        if let Some(bad) = emails.iter().find(|email| !is_valid_email(email)) {
            return Err(ApiError::BadRequest(format!(
                "Invalid email address \"{bad}\""
            )));
        }
        if emails.len() > MAX_OTHER_EMAILS {
            return Err(ApiError::BadRequest(format!(
                "An alert can e-mail at most {MAX_OTHER_EMAILS} other addresses"
            )));
        }
    }
    match settings.get("filters") {
        None | Some(Value::Null) => {}
        Some(Value::Object(filters)) => {
            for (name, value) in filters {
                if !matches!(name.as_str(), "excludeAds" | "requireSubject") {
                    return Err(ApiError::BadRequest(format!(
                        "Unknown alert filter \"{name}\"; expected excludeAds or requireSubject"
                    )));
                }
                if !value.is_boolean() && !value.is_null() {
                    return Err(ApiError::BadRequest(format!(
                        "filters.{name} must be a boolean"
                    )));
                }
            }
        }
        Some(_) => return Err(ApiError::BadRequest("filters must be an object".into())),
    }
    optional_string(settings, "subjectNote")?;
    Ok(out)
}

/// Refuses other e-mail addresses that are not members of the team: alert e-mails go
/// to team members only (they used to go to any address typed in).
fn members_only(state: &AppState, team_id: &str, settings: &Map<String, Value>) -> ApiResult<()> {
    let emails = optional_strings(settings, "otherEmails")?.unwrap_or_default();
    if emails.is_empty() {
        return Ok(());
    }
    let outside = emails_outside_team(state.accounts.as_ref(), team_id, &emails)?;
    match outside.first() {
        None => Ok(()),
        Some(email) => Err(ApiError::BadRequest(format!(
            "Alert e-mails go to members of your team only; {email} is not a member. Invite them to your team first."
        ))),
    }
}

fn stored(config: AlertConfig, deleted: bool) -> Stored<AlertConfig> {
    Stored {
        id: config.id.clone(),
        team_id: config.team_id.clone(),
        parent_id: None,
        created_at: config.created_at,
        updated_at: config.updated_at,
        deleted,
        value: config,
    }
}

fn find(state: &AppState, team_id: &str, id: &str) -> ApiResult<AlertConfig> {
    state
        .workflows
        .get_doc::<AlertConfig>(DocKind::AlertConfig, Some(team_id), id)?
        .filter(|doc| !doc.deleted)
        .map(|doc| doc.value)
        .ok_or_else(|| not_found(id))
}

/// `POST /api/v1/alerts/alert-config`.
#[utoipa::path(post, path = "/api/v1/alerts/alert-config", tag = "alerts",
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?.clone();
    let body = object(body)?;
    let alert_name = alert_name(optional_string(&body, "alertName")?)?;
    let alert_type = optional_string(&body, "alertType")?
        .ok_or_else(|| ApiError::BadRequest("Alert type is required".into()))?;
    let alert_type = one_of(&alert_type, "alert type", &ALERT_TYPES)?;
    let value = alert_value(optional_string(&body, "value")?)?;
    let email = email_settings(&body)?.unwrap_or(EmailSettings {
        frequency: "daily".into(),
    });
    let enabled = match body.get("enabled") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(flag)) => *flag,
        Some(_) => return Err(ApiError::BadRequest("enabled must be a boolean".into())),
    };
    let additional = match body.get("additionalAlertSettings") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(map)) => map.clone(),
        Some(_) => {
            return Err(ApiError::BadRequest(
                "additionalAlertSettings must be an object".into(),
            ));
        }
    };
    let mut settings = checked_settings(&additional)?;
    if body.get("generateAlternativeSpellings") == Some(&Value::Bool(true)) {
        let generated = agent::alternative_spellings(state.assist.as_ref(), &value).await?;
        let mut spellings = optional_strings(&settings, "otherSpellings")?.unwrap_or_default();
        for spelling in generated {
            if !spellings.iter().any(|s| s.eq_ignore_ascii_case(&spelling)) {
                spellings.push(spelling);
            }
        }
        settings.insert("otherSpellings".into(), json!(spellings));
    }
    settings.insert("type".into(), json!(alert_type));
    settings.insert("value".into(), json!(value));
    if alert_type == "person" {
        for flag in ["trackMentions", "trackGuestAppearances"] {
            settings.entry(flag).or_insert(json!(true));
        }
    }
    let now = Utc::now();
    let config = AlertConfig {
        id: Uuid::new_v4().to_string(),
        created_by_user_id: account.user_id.clone(),
        team_id: account.team_id.clone(),
        created_at: now,
        updated_at: now,
        alert_name,
        alert_type,
        enabled,
        alert_settings: settings,
        email_settings: email,
        last_run_date: None,
    };
    let plan = caller.plan;
    let cap = plan.limits().alerts.map(u64::from);
    blocking(move || {
        members_only(&state, &config.team_id, &config.alert_settings)?;
        match state
            .workflows
            .insert_doc_capped(DocKind::AlertConfig, &stored(config.clone(), false), cap)?
        {
            CapCheck::Done(()) => {
                podlens_app::services::jobs::spawn_first_run(&state, config.clone());
                Ok(Envelope(json!({"createdAlertConfig": config})))
            }
            CapCheck::CapReached { limit } => Err(ApiError::Forbidden(format!(
                "Alert limit reached: the {plan} plan allows {limit} alerts. Delete an alert or upgrade your plan to create more."
            ))),
        }
    })
    .await
}

/// `GET /api/v1/alerts/alert-config/{alertConfigId}`.
#[utoipa::path(get, path = "/api/v1/alerts/alert-config/{alertConfigId}", tag = "alerts",
    params(("alertConfigId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn get_one(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?.clone();
    blocking(move || {
        let config = find(&state, &account.team_id, &id)?;
        Ok(Envelope(json!({"alertConfig": config})))
    })
    .await
}

fn query_bool(query: &[(String, String)], name: &str) -> ApiResult<Option<bool>> {
    match query_value(query, name) {
        None => Ok(None),
        Some("true") => Ok(Some(true)),
        Some("false") => Ok(Some(false)),
        Some(other) => Err(ApiError::BadRequest(format!(
            "{name} must be true or false, got \"{other}\""
        ))),
    }
}

/// `GET /api/v1/alerts/alert-configs`: the team's alerts, filtered and sorted.
#[utoipa::path(get, path = "/api/v1/alerts/alert-configs", tag = "alerts",
    params(("enabled" = Option<bool>, Query, description = "Only enabled (true) or disabled (false) alerts"),
           ("alertConfigId" = Option<String>, Query, description = "Only this alert"),
           ("sortBy" = Option<String>, Query, description = "lastRunDate or alertName (default: creation)"),
           ("sortDirection" = Option<String>, Query, description = "asc or desc")),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    axum::extract::Query(query): Query,
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?.clone();
    let enabled = query_bool(&query, "enabled")?;
    let only = query_value(&query, "alertConfigId").map(str::to_owned);
    let sort_by = query_value(&query, "sortBy")
        .map(|value| one_of(value, "sortBy", &["lastRunDate", "alertName"]))
        .transpose()?;
    let direction = query_value(&query, "sortDirection")
        .map(|value| one_of(value, "sortDirection", &["asc", "desc"]))
        .transpose()?;
    blocking(move || {
        let docs: Vec<Stored<AlertConfig>> = state.workflows.list_docs(
            DocKind::AlertConfig,
            &DocFilter {
                team_id: Some(&account.team_id),
                ..DocFilter::default()
            },
        )?;
        let mut configs: Vec<AlertConfig> = docs
            .into_iter()
            .map(|doc| doc.value)
            .filter(|config| enabled.is_none_or(|flag| config.enabled == flag))
            .filter(|config| only.as_deref().is_none_or(|id| config.id == id))
            .collect();
        match sort_by.as_deref() {
            Some("alertName") => {
                configs.sort_by_key(|config| config.alert_name.to_lowercase());
            }
            Some(_) => configs.sort_by_key(|config| config.last_run_date),
            None => configs.sort_by_key(|config| config.created_at),
        }
        let descending = match direction.as_deref() {
            Some(value) => value == "desc",
            None => sort_by.is_none(),
        };
        if descending {
            configs.reverse();
        }
        let mut options = Map::new();
        if let Some(flag) = enabled {
            options.insert("enabled".into(), json!(flag));
        }
        if let Some(id) = &only {
            options.insert("alertConfigId".into(), json!(id));
        }
        if let Some(sort) = &sort_by {
            options.insert("sortBy".into(), json!(sort));
        }
        if let Some(direction) = &direction {
            options.insert("sortDirection".into(), json!(direction));
        }
        Ok(Envelope(
            json!({"options": options, "alertConfigs": configs}),
        ))
    })
    .await
}

/// `PATCH /api/v1/alerts/alert-config/{alertConfigId}`: body `{updates: {...}}` with
/// at least one of alertName, emailSettings, alertSettings, enabled.
#[utoipa::path(patch, path = "/api/v1/alerts/alert-config/{alertConfigId}", tag = "alerts",
    params(("alertConfigId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?.clone();
    let body = object(body)?;
    let updates = match body.get("updates") {
        Some(Value::Object(updates)) => updates.clone(),
        None | Some(Value::Null) => body.clone(),
        Some(_) => return Err(ApiError::BadRequest("updates must be an object".into())),
    };
    let known = ["alertName", "emailSettings", "alertSettings", "enabled"];
    if let Some(unknown) = updates.keys().find(|key| !known.contains(&key.as_str())) {
        return Err(ApiError::BadRequest(format!(
            "Unknown alert config field \"{unknown}\"; expected one of {}",
            known.join(", ")
        )));
    }
    if !updates.values().any(|value| !value.is_null()) {
        return Err(ApiError::BadRequest(
            "At least one field must be provided to update an alert config".into(),
        ));
    }
    let name = match updates.get("alertName") {
        None | Some(Value::Null) => None,
        Some(_) => Some(alert_name(optional_string(&updates, "alertName")?)?),
    };
    let email = email_settings(&updates)?;
    let enabled = match updates.get("enabled") {
        None | Some(Value::Null) => None,
        Some(Value::Bool(flag)) => Some(*flag),
        Some(_) => return Err(ApiError::BadRequest("enabled must be a boolean".into())),
    };
    let settings = match updates.get("alertSettings") {
        None | Some(Value::Null) => None,
        Some(Value::Object(settings)) => Some(settings.clone()),
        Some(_) => {
            return Err(ApiError::BadRequest(
                "alertSettings must be an object".into(),
            ));
        }
    };
    blocking(move || {
        let mut config = find(&state, &account.team_id, &id)?;
        if let Some(name) = name {
            config.alert_name = name;
        }
        if let Some(email) = email {
            config.email_settings = email;
        }
        if let Some(flag) = enabled {
            config.enabled = flag;
        }
        if let Some(settings) = settings {
            let kind = optional_string(&settings, "type")?.unwrap_or(config.alert_type.clone());
            if kind != config.alert_type {
                return Err(ApiError::BadRequest(format!(
                    "alertSettings.type must stay \"{}\"",
                    config.alert_type
                )));
            }
            let value = match optional_string(&settings, "value")? {
                Some(value) => alert_value(Some(value))?,
                None => config
                    .alert_settings
                    .get("value")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
            };
            let mut checked = checked_settings(&settings)?;
            members_only(&state, &account.team_id, &checked)?;
            checked.insert("type".into(), json!(kind));
            checked.insert("value".into(), json!(value));
            config.alert_settings = checked;
        }
        config.updated_at = Utc::now();
        // Written only while the alert is live: deleted since it was read, it stays
        // deleted (writing it back would put the team over its alert cap).
        if !state
            .workflows
            .update_live_doc(DocKind::AlertConfig, &stored(config.clone(), false))?
        {
            return Err(not_found(&id));
        }
        Ok(Envelope(json!({"updatedAlertConfig": config})))
    })
    .await
}

/// `DELETE /api/v1/alerts/alert-config/{alertConfigId}`: a soft delete; the alert stops
/// running and is no longer listed.
#[utoipa::path(delete, path = "/api/v1/alerts/alert-config/{alertConfigId}", tag = "alerts",
    params(("alertConfigId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn delete_one(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?.clone();
    blocking(move || {
        let mut config = find(&state, &account.team_id, &id)?;
        config.updated_at = Utc::now();
        config.enabled = false;
        state
            .workflows
            .put_doc(DocKind::AlertConfig, &stored(config, true))?;
        Ok(Envelope(json!({"deletedAlertConfigId": id})))
    })
    .await
}

fn positive(
    query: &[(String, String)],
    name: &str,
    default: usize,
    max: usize,
) -> ApiResult<usize> {
    match query_value(query, name) {
        None => Ok(default),
        Some(text) => match text.parse::<f64>() {
            Ok(number) if number >= 1.0 && number.fract() == 0.0 && number <= max as f64 => {
                Ok(number as usize)
            }
            _ => Err(ApiError::BadRequest(format!(
                "{name} must be a whole number between 1 and {max}, got \"{text}\""
            ))),
        },
    }
}

fn team_matches(
    state: &AppState,
    team_id: &str,
    alert_config_id: Option<&str>,
) -> ApiResult<Vec<AlertMatch>> {
    if let Some(id) = alert_config_id {
        state
            .workflows
            .get_doc::<AlertConfig>(DocKind::AlertConfig, Some(team_id), id)?
            .ok_or_else(|| not_found(id))?;
    }
    let docs: Vec<Stored<AlertMatch>> = state.workflows.list_docs(
        DocKind::AlertMatch,
        &DocFilter {
            team_id: Some(team_id),
            parent_id: alert_config_id,
            ..DocFilter::default()
        },
    )?;
    let mut matches: Vec<AlertMatch> = docs.into_iter().map(|doc| doc.value).collect();
    matches.sort_by(|a, b| {
        b.first_matched_at
            .cmp(&a.first_matched_at)
            .then(b.episode.published_at.cmp(&a.episode.published_at))
            .then(a.id.cmp(&b.id))
    });
    Ok(matches)
}

/// `GET /api/v1/alerts/matches`: one item per episode, newest first.
#[utoipa::path(get, path = "/api/v1/alerts/matches", tag = "alerts",
    params(("alertConfigId" = Option<String>, Query, description = "Only this alert's matches"),
           ("includeFiltered" = Option<bool>, Query, description = "Also matches and mentions the alert's filters left out"),
           ("page" = Option<u32>, Query, description = "From 1"),
           ("pageSize" = Option<u32>, Query, description = "1 to 100, default 20")),
    responses((status = 200, description = "OK: the answer in the envelope"),
              (status = 404, description = "No alert of the team has this alertConfigId")))]
pub async fn matches(
    State(state): State<AppState>,
    caller: Caller,
    axum::extract::Query(query): Query,
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?.clone();
    let alert_config_id = query_value(&query, "alertConfigId").map(str::to_owned);
    let include_filtered = query_bool(&query, "includeFiltered")?;
    let page = positive(&query, "page", 1, 1_000_000)?;
    let page_size = positive(&query, "pageSize", MATCHES_PAGE_SIZE.0, MATCHES_PAGE_SIZE.1)?;
    blocking(move || {
        let all = team_matches(&state, &account.team_id, alert_config_id.as_deref())?;
        let show_filtered = include_filtered.unwrap_or(false);
        let kept: Vec<AlertMatch> = all
            .into_iter()
            .filter(|m| show_filtered || m.status == "kept")
            .collect();
        let total = kept.len();
        let items: Vec<Value> = kept
            .into_iter()
            .skip((page - 1) * page_size)
            .take(page_size)
            .map(|m| match_wire(&m, show_filtered))
            .collect();
        let mut options = Map::new();
        if let Some(id) = &alert_config_id {
            options.insert("alertConfigId".into(), json!(id));
        }
        if let Some(flag) = include_filtered {
            options.insert("includeFiltered".into(), json!(flag));
        }
        options.insert("page".into(), json!(page));
        options.insert("pageSize".into(), json!(page_size));
        Ok(Envelope(
            json!({"options": options, "total": total, "matches": items}),
        ))
    })
    .await
}

/// `GET /api/v1/alerts/history`: one item per mention, 50 per page.
#[utoipa::path(get, path = "/api/v1/alerts/history", tag = "alerts",
    params(("alertConfigId" = Option<String>, Query, description = "Only this alert's mentions"),
           ("page" = Option<u32>, Query, description = "From 1, 50 mentions a page"),
           ("sinceDate" = Option<String>, Query, description = "Matches first seen on or after this date (YYYY-MM-DD or RFC 3339)")),
    responses((status = 200, description = "OK: the answer in the envelope"),
              (status = 404, description = "No alert of the team has this alertConfigId")))]
pub async fn history(
    State(state): State<AppState>,
    caller: Caller,
    axum::extract::Query(query): Query,
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?.clone();
    let alert_config_id = query_value(&query, "alertConfigId").map(str::to_owned);
    let page = positive(&query, "page", 1, 1_000_000)?;
    let since = match query_value(&query, "sinceDate") {
        None => None,
        Some(text) => Some(parse_date(text)?),
    };
    blocking(move || {
        let all = team_matches(&state, &account.team_id, alert_config_id.as_deref())?;
        let items: Vec<Value> = all
            .iter()
            .filter(|m| since.is_none_or(|since| m.first_matched_at >= since))
            .flat_map(|m| {
                m.mentions
                    .iter()
                    .map(|mention| history_item(m, mention, &account.team_id))
            })
            .collect();
        let total = items.len();
        let page_items: Vec<Value> = items
            .into_iter()
            .skip((page - 1) * HISTORY_PAGE_SIZE)
            .take(HISTORY_PAGE_SIZE)
            .collect();
        let mut options = Map::new();
        if let Some(id) = &alert_config_id {
            options.insert("alertConfigId".into(), json!(id));
        }
        options.insert("page".into(), json!(page));
        if let Some(since) = since {
            options.insert("sinceDate".into(), json!(since));
        }
        Ok(Envelope(json!({
            "options": options,
            "totalAlertMatches": total,
            "alertMatches": page_items,
        })))
    })
    .await
}

/// A date (`YYYY-MM-DD`), an RFC 3339 time, or a time without offset (taken as UTC).
pub fn parse_date(text: &str) -> ApiResult<DateTime<Utc>> {
    if let Ok(at) = DateTime::parse_from_rfc3339(text) {
        return Ok(at.with_timezone(&Utc));
    }
    if let Ok(at) = chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f") {
        return Ok(at.and_utc());
    }
    chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .and_then(|date| date.and_hms_opt(0, 0, 0))
        .map(|at| at.and_utc())
        .ok_or_else(|| {
            ApiError::BadRequest(format!(
                "Invalid date \"{text}\"; expected YYYY-MM-DD or an RFC 3339 time"
            ))
        })
}

fn history_item(
    m: &AlertMatch,
    mention: &podlens_app::workflows::alerts::Mention,
    team_id: &str,
) -> Value {
    let mut item = json!({
        "advertisementLLMHistoryId": null,
        "contextLLMHistoryId": null,
        "episodeDate": m.episode.published_at.unwrap_or(m.first_matched_at),
        "episodeId": m.episode.id,
        "filteredOutReason": mention.filter_reasons.first(),
        "podcastId": m.podcast.id,
        "processedDate": m.first_matched_at,
        "id": mention.id,
        "alertConfig": {
            "id": m.alert_config.id,
            "name": m.alert_config.name,
            "value": m.alert_config.value,
            "teamId": team_id,
            "createdByUserId": m.alert_config.created_by_user_id,
        },
        "emailHistoryId": null,
        "episodeSlug": m.episode.slug,
        "episodeTitle": m.episode.title,
        "filteredOut": !mention.passes_filters,
        "imageUrl": m.episode.image_url,
        "podcastSlug": m.podcast.slug,
        "podcastTitle": m.podcast.title,
        "text": mention.snippet,
        "type": mention.source,
    });
    if mention.source == "TRANSCRIPT" {
        item["endSecond"] = json!(mention.end_second.or(mention.start_second).unwrap_or(0.0));
        item["startSecond"] = json!(mention.start_second.unwrap_or(0.0));
        item["transcriptEmbeddingId"] = Value::Null;
        item["transcriptId"] = json!(m.episode.transcript_id.clone().unwrap_or_default());
        item["transcriptionDate"] = json!(m.first_matched_at);
    }
    item
}
