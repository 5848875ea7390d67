//! Alerts as a team manages them: alert configurations (create, list, get, update,
//! delete, capped by plan), their episode matches and the per-mention match history.
//! Bodies and queries are read field by field ([`NewAlertConfig::from_json`],
//! [`AlertConfigChanges::from_json`], the `…Query::from_query`s) so that each mistake
//! gets its own message; running the alerts is `alerts.rs`.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use podlens_model::Plan;
use podlens_model::validation::is_valid_email;
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::agent::{self, AiProvider};
use super::alerts::{
    ALERT_TYPES, AlertConfig, AlertMatch, Alerts, EMAIL_FREQUENCIES, EmailSettings,
    MAX_OTHER_EMAILS, Mention, emails_outside_team, match_wire, run_alert,
};
use super::delivery::{Deliveries, request_pass};
use super::documents::{DocFilter, DocKind, Stored};
use super::fields::{
    bool_field, object, optional_string, optional_strings, parse_date, query_bool, query_value,
    query_whole,
};
use super::{CapCheck, WorkflowStore};
use crate::accounts::{Account, AccountStore};
use crate::error::{AppError, AppResult};

/// Matches per page of the history (SDK: "50 per page").
pub const HISTORY_PAGE_SIZE: usize = 50;
/// Default and largest page of `/alerts/matches`.
pub const MATCHES_PAGE_SIZE: (usize, usize) = (20, 100);
/// The longest alert name.
pub const MAX_ALERT_NAME_CHARS: usize = 100;

fn not_found(id: &str) -> AppError {
    AppError::NotFound(format!("Alert config not found: {id}"))
}

fn alert_name(value: Option<String>) -> AppResult<String> {
    let name = value.unwrap_or_default().trim().to_owned();
    if name.is_empty() {
        return Err(AppError::Invalid("Alert name is required".into()));
    }
    if name.chars().count() > MAX_ALERT_NAME_CHARS {
        return Err(AppError::Invalid(format!(
            "Alert name must be at most {MAX_ALERT_NAME_CHARS} characters"
        )));
    }
    Ok(name)
}

fn one_of(value: &str, name: &str, allowed: &[&str]) -> AppResult<String> {
    if allowed.contains(&value) {
        Ok(value.to_owned())
    } else {
        Err(AppError::Invalid(format!(
            "Invalid {name} \"{value}\"; expected one of {}",
            allowed.join(", ")
        )))
    }
}

fn alert_value(value: Option<String>) -> AppResult<String> {
    let value = value.unwrap_or_default().trim().to_owned();
    if value.chars().count() < 2 {
        return Err(AppError::Invalid(
            "Alert value must be at least 2 characters".into(),
        ));
    }
    Ok(value)
}

fn email_settings(body: &Map<String, Value>) -> AppResult<Option<EmailSettings>> {
    match body.get("emailSettings") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(settings)) => {
            let frequency = optional_string(settings, "frequency")?
                .ok_or_else(|| AppError::Invalid("emailSettings.frequency is required".into()))?;
            Ok(Some(EmailSettings {
                frequency: one_of(&frequency, "email frequency", &EMAIL_FREQUENCIES)?,
            }))
        }
        Some(_) => Err(AppError::Invalid("emailSettings must be an object".into())),
    }
}

fn enabled_of(body: &Map<String, Value>) -> AppResult<Option<bool>> {
    bool_field(body, "enabled")
}

/// An object field (`None` when absent or null).
fn object_field(body: &Map<String, Value>, name: &str) -> AppResult<Option<Map<String, Value>>> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(map)) => Ok(Some(map.clone())),
        Some(_) => Err(AppError::Invalid(format!("{name} must be an object"))),
    }
}

/// Checks the optional settings every alert type shares and returns them cleaned.
fn checked_settings(settings: &Map<String, Value>) -> AppResult<Map<String, Value>> {
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
            return Err(AppError::Invalid(format!(
                "Invalid email address \"{bad}\""
            )));
        }
        if emails.len() > MAX_OTHER_EMAILS {
            return Err(AppError::Invalid(format!(
                "An alert can e-mail at most {MAX_OTHER_EMAILS} other addresses"
            )));
        }
    }
    match settings.get("filters") {
        None | Some(Value::Null) => {}
        Some(Value::Object(filters)) => {
            for (name, value) in filters {
                if !matches!(name.as_str(), "excludeAds" | "requireSubject") {
                    return Err(AppError::Invalid(format!(
                        "Unknown alert filter \"{name}\"; expected excludeAds or requireSubject"
                    )));
                }
                if !value.is_boolean() && !value.is_null() {
                    return Err(AppError::Invalid(format!(
                        "filters.{name} must be a boolean"
                    )));
                }
            }
        }
        Some(_) => return Err(AppError::Invalid("filters must be an object".into())),
    }
    optional_string(settings, "subjectNote")?;
    Ok(out)
}

/// A new alert.
#[derive(Debug, Clone, PartialEq)]
pub struct NewAlertConfig {
    pub alert_name: String,
    pub alert_type: String,
    pub value: String,
    pub email_settings: EmailSettings,
    pub enabled: bool,
    /// The shared settings, checked and cleaned (`type` and `value` are set on create).
    pub settings: Map<String, Value>,
    /// Whether the AI assist adds other spellings of the value.
    pub generate_alternative_spellings: bool,
}

impl NewAlertConfig {
    /// The new alert of a request body.
    pub fn from_json(body: Value) -> AppResult<NewAlertConfig> {
        let body = object(body)?;
        let alert_name = alert_name(optional_string(&body, "alertName")?)?;
        let alert_type = optional_string(&body, "alertType")?
            .ok_or_else(|| AppError::Invalid("Alert type is required".into()))?;
        let alert_type = one_of(&alert_type, "alert type", &ALERT_TYPES)?;
        let value = alert_value(optional_string(&body, "value")?)?;
        let email_settings = email_settings(&body)?.unwrap_or(EmailSettings {
            frequency: "daily".into(),
        });
        let enabled = enabled_of(&body)?.unwrap_or(true);
        let additional = object_field(&body, "additionalAlertSettings")?.unwrap_or_default();
        Ok(NewAlertConfig {
            alert_name,
            alert_type,
            value,
            email_settings,
            enabled,
            settings: checked_settings(&additional)?,
            generate_alternative_spellings: body.get("generateAlternativeSpellings")
                == Some(&Value::Bool(true)),
        })
    }
}

/// An alert's changes: at least one of alertName, emailSettings, alertSettings,
/// enabled (in `{updates: {...}}` or at the top level). The settings are checked when
/// they are applied to the stored alert.
#[derive(Debug, Clone, PartialEq)]
pub struct AlertConfigChanges {
    pub alert_name: Option<String>,
    pub email_settings: Option<EmailSettings>,
    pub enabled: Option<bool>,
    pub alert_settings: Option<Map<String, Value>>,
}

impl AlertConfigChanges {
    /// The changes of a request body.
    pub fn from_json(body: Value) -> AppResult<AlertConfigChanges> {
        let body = object(body)?;
        let updates = match body.get("updates") {
            Some(Value::Object(updates)) => updates.clone(),
            None | Some(Value::Null) => body.clone(),
            Some(_) => return Err(AppError::Invalid("updates must be an object".into())),
        };
        let known = ["alertName", "emailSettings", "alertSettings", "enabled"];
        if let Some(unknown) = updates.keys().find(|key| !known.contains(&key.as_str())) {
            return Err(AppError::Invalid(format!(
                "Unknown alert config field \"{unknown}\"; expected one of {}",
                known.join(", ")
            )));
        }
        if !updates.values().any(|value| !value.is_null()) {
            return Err(AppError::Invalid(
                "At least one field must be provided to update an alert config".into(),
            ));
        }
        let alert_name = match updates.get("alertName") {
            None | Some(Value::Null) => None,
            Some(_) => Some(alert_name(optional_string(&updates, "alertName")?)?),
        };
        Ok(AlertConfigChanges {
            alert_name,
            email_settings: email_settings(&updates)?,
            enabled: enabled_of(&updates)?,
            alert_settings: object_field(&updates, "alertSettings")?,
        })
    }
}

fn positive(
    query: &[(String, String)],
    name: &str,
    default: usize,
    max: usize,
) -> AppResult<usize> {
    Ok(query_whole(query, name, 1, max as u64)?.map_or(default, |number| number as usize))
}

/// The filters and order of the list of a team's alerts.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AlertListQuery {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alert_config_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sort_by: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sort_direction: Option<String>,
}

impl AlertListQuery {
    /// The list's query of a request's query pairs.
    pub fn from_query(query: &[(String, String)]) -> AppResult<AlertListQuery> {
        Ok(AlertListQuery {
            enabled: query_bool(query, "enabled")?,
            alert_config_id: query_value(query, "alertConfigId").map(str::to_owned),
            sort_by: query_value(query, "sortBy")
                .map(|value| one_of(value, "sortBy", &["lastRunDate", "alertName"]))
                .transpose()?,
            sort_direction: query_value(query, "sortDirection")
                .map(|value| one_of(value, "sortDirection", &["asc", "desc"]))
                .transpose()?,
        })
    }
}

/// A page of a team's alert matches: one per episode, newest first.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MatchesQuery {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alert_config_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_filtered: Option<bool>,
    pub page: usize,
    pub page_size: usize,
}

impl MatchesQuery {
    /// The page's query of a request's query pairs.
    pub fn from_query(query: &[(String, String)]) -> AppResult<MatchesQuery> {
        Ok(MatchesQuery {
            alert_config_id: query_value(query, "alertConfigId").map(str::to_owned),
            include_filtered: query_bool(query, "includeFiltered")?,
            page: positive(query, "page", 1, 1_000_000)?,
            page_size: positive(query, "pageSize", MATCHES_PAGE_SIZE.0, MATCHES_PAGE_SIZE.1)?,
        })
    }
}

/// A page of a team's match history: one item per mention, 50 a page.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryQuery {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alert_config_id: Option<String>,
    pub page: usize,
    #[serde(rename = "sinceDate", skip_serializing_if = "Option::is_none")]
    pub since: Option<DateTime<Utc>>,
}

impl HistoryQuery {
    /// The page's query of a request's query pairs.
    pub fn from_query(query: &[(String, String)]) -> AppResult<HistoryQuery> {
        let alert_config_id = query_value(query, "alertConfigId").map(str::to_owned);
        let page = positive(query, "page", 1, 1_000_000)?;
        let since = query_value(query, "sinceDate")
            .map(parse_date)
            .transpose()?;
        Ok(HistoryQuery {
            alert_config_id,
            page,
            since,
        })
    }
}

/// The list of a team's alerts, with the query it answers.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AlertConfigList {
    pub options: AlertListQuery,
    pub alert_configs: Vec<AlertConfig>,
}

/// A page of matches, with the query it answers.
#[derive(Debug, Serialize)]
pub struct MatchesPage {
    pub options: MatchesQuery,
    pub total: usize,
    pub matches: Vec<Value>,
}

/// A page of the history, with the query it answers.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryPage {
    pub options: HistoryQuery,
    pub total_alert_matches: usize,
    pub alert_matches: Vec<Value>,
}

/// An alert as the workflow store keeps it.
pub fn alert_document(config: AlertConfig, deleted: bool) -> Stored<AlertConfig> {
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

/// The teams' alerts, kept in the workflow store.
#[derive(Clone)]
pub struct AlertConfigs {
    pub(crate) workflows: Arc<WorkflowStore>,
    pub(crate) accounts: Arc<dyn AccountStore>,
    pub(crate) assist: Arc<dyn AiProvider>,
    /// A new alert's first run, and the delivery pass after it.
    pub(crate) runs: Alerts,
    pub(crate) passes: Deliveries,
}

impl std::fmt::Debug for AlertConfigs {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("AlertConfigs")
            .finish_non_exhaustive()
    }
}

impl AlertConfigs {
    /// Keeps a new alert for the account's team, within `plan`'s alerts, and matches it
    /// against the catalog in the background.
    pub async fn create(
        &self,
        account: &Account,
        plan: Plan,
        new: NewAlertConfig,
    ) -> AppResult<AlertConfig> {
        let mut settings = new.settings;
        if new.generate_alternative_spellings {
            let generated = agent::alternative_spellings(self.assist.as_ref(), &new.value).await?;
            let mut spellings = optional_strings(&settings, "otherSpellings")?.unwrap_or_default();
            for spelling in generated {
                if !spellings.iter().any(|s| s.eq_ignore_ascii_case(&spelling)) {
                    spellings.push(spelling);
                }
            }
            settings.insert("otherSpellings".into(), json!(spellings));
        }
        settings.insert("type".into(), json!(new.alert_type));
        settings.insert("value".into(), json!(new.value));
        if new.alert_type == "person" {
            for flag in ["trackMentions", "trackGuestAppearances"] {
                settings.entry(flag).or_insert(json!(true));
            }
        }
        let config = AlertConfig::new(
            account,
            new.alert_name,
            new.alert_type,
            new.enabled,
            settings,
            new.email_settings,
        );
        let cap = plan.limits().alerts.map(u64::from);
        self.members_only(&config.team_id, &config.alert_settings)
            .await?;
        let inserted = self
            .workflows
            .insert_doc_capped(
                DocKind::AlertConfig,
                &alert_document(config.clone(), false),
                cap,
            )
            .await?;
        match inserted {
            CapCheck::Done(()) => {
                self.spawn_first_run(config.clone());
                Ok(config)
            }
            CapCheck::CapReached { limit } => Err(AppError::Forbidden(format!(
                "Alert limit reached: the {plan} plan allows {limit} alerts. Delete an alert or upgrade your plan to create more."
            ))),
        }
    }

    /// The team's alert `id`.
    pub async fn get(&self, account: &Account, id: &str) -> AppResult<AlertConfig> {
        find(&self.workflows, &account.team_id, id).await
    }

    /// The team's alerts, filtered and sorted as `query` asks (newest first by default).
    pub async fn list(
        &self,
        account: &Account,
        query: AlertListQuery,
    ) -> AppResult<AlertConfigList> {
        let filter = DocFilter {
            team_id: Some(&account.team_id),
            ..DocFilter::default()
        };
        let docs: Vec<Stored<AlertConfig>> = self
            .workflows
            .list_docs(DocKind::AlertConfig, &filter)
            .await?;
        let mut configs: Vec<AlertConfig> = docs
            .into_iter()
            .map(|doc| doc.value)
            .filter(|config| query.enabled.is_none_or(|flag| config.enabled == flag))
            .filter(|config| {
                query
                    .alert_config_id
                    .as_deref()
                    .is_none_or(|id| config.id == id)
            })
            .collect();
        match query.sort_by.as_deref() {
            Some("alertName") => configs.sort_by_key(|config| config.alert_name.to_lowercase()),
            Some(_) => configs.sort_by_key(|config| config.last_run_date),
            None => configs.sort_by_key(|config| config.created_at),
        }
        let descending = match query.sort_direction.as_deref() {
            Some(value) => value == "desc",
            None => query.sort_by.is_none(),
        };
        if descending {
            configs.reverse();
        }
        Ok(AlertConfigList {
            options: query,
            alert_configs: configs,
        })
    }

    /// Applies `changes` to the team's alert `id`.
    pub async fn update(
        &self,
        account: &Account,
        id: &str,
        changes: AlertConfigChanges,
    ) -> AppResult<AlertConfig> {
        let settings_changed = changes.alert_settings.is_some();
        let mut config = find(&self.workflows, &account.team_id, id).await?;
        if let Some(name) = changes.alert_name {
            config.alert_name = name;
        }
        if let Some(email) = changes.email_settings {
            config.email_settings = email;
        }
        if let Some(flag) = changes.enabled {
            config.enabled = flag;
        }
        if let Some(settings) = changes.alert_settings {
            let kind = optional_string(&settings, "type")?.unwrap_or(config.alert_type.clone());
            if kind != config.alert_type {
                return Err(AppError::Invalid(format!(
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
            checked.insert("type".into(), json!(kind));
            checked.insert("value".into(), json!(value));
            config.alert_settings = checked;
        }
        config.updated_at = Utc::now();
        if settings_changed {
            self.members_only(&account.team_id, &config.alert_settings)
                .await?;
        }
        // Written only while the alert is live: deleted since it was read, it stays
        // deleted (writing it back would put the team over its alert cap).
        if !self
            .workflows
            .update_live_doc(DocKind::AlertConfig, &alert_document(config.clone(), false))
            .await?
        {
            return Err(not_found(id));
        }
        Ok(config)
    }

    /// Deletes the team's alert `id` (softly: it stops running and is no longer listed).
    pub async fn delete(&self, account: &Account, id: &str) -> AppResult<()> {
        let mut config = find(&self.workflows, &account.team_id, id).await?;
        config.updated_at = Utc::now();
        config.enabled = false;
        self.workflows
            .put_doc(DocKind::AlertConfig, &alert_document(config, true))
            .await
    }

    /// A page of the team's matches: one per episode, newest first.
    pub async fn matches(&self, account: &Account, query: MatchesQuery) -> AppResult<MatchesPage> {
        let id = query.alert_config_id.as_deref();
        let all = team_matches(&self.workflows, &account.team_id, id).await?;
        let show_filtered = query.include_filtered.unwrap_or(false);
        let kept: Vec<AlertMatch> = all
            .into_iter()
            .filter(|m| show_filtered || m.status == "kept")
            .collect();
        let total = kept.len();
        let matches = kept
            .iter()
            .skip((query.page - 1) * query.page_size)
            .take(query.page_size)
            .map(|m| match_wire(m, show_filtered))
            .collect();
        Ok(MatchesPage {
            options: query,
            total,
            matches,
        })
    }

    /// A page of the team's match history: one item per mention, 50 a page.
    pub async fn history(&self, account: &Account, query: HistoryQuery) -> AppResult<HistoryPage> {
        let id = query.alert_config_id.as_deref();
        let all = team_matches(&self.workflows, &account.team_id, id).await?;
        let items: Vec<Value> = all
            .iter()
            .filter(|m| query.since.is_none_or(|since| m.first_matched_at >= since))
            .flat_map(|m| {
                m.mentions
                    .iter()
                    .map(|mention| history_item(m, mention, &account.team_id))
            })
            .collect();
        let total = items.len();
        let alert_matches = items
            .into_iter()
            .skip((query.page - 1) * HISTORY_PAGE_SIZE)
            .take(HISTORY_PAGE_SIZE)
            .collect();
        Ok(HistoryPage {
            options: query,
            total_alert_matches: total,
            alert_matches,
        })
    }

    /// Refuses other e-mail addresses that are not members of the team: alert e-mails
    /// go to team members only (they used to go to any address typed in).
    async fn members_only(&self, team_id: &str, settings: &Map<String, Value>) -> AppResult<()> {
        let emails = optional_strings(settings, "otherEmails")?.unwrap_or_default();
        if emails.is_empty() {
            return Ok(());
        }
        let outside = emails_outside_team(self.accounts.as_ref(), team_id, &emails).await?;
        match outside.first() {
            None => Ok(()),
            Some(email) => Err(AppError::Invalid(format!(
                "Alert e-mails go to members of your team only; {email} is not a member. Invite them to your team first."
            ))),
        }
    }

    /// Matches a new alert against the catalog in the background, so its first matches
    /// (existing episodes that mention it) appear without waiting for the next job run,
    /// then asks for a delivery pass. At most [`FIRST_RUNS_AT_ONCE`] run at a time: a
    /// burst of new alerts neither fills the search pool nor starves the searches that
    /// need it. Outside a runtime nothing runs; the next job run matches the alert.
    fn spawn_first_run(&self, config: AlertConfig) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let (runs, passes) = (self.runs.clone(), self.passes.clone());
        runtime.spawn(async move {
            let Ok(_permit) = FIRST_RUNS.acquire().await else {
                return;
            };
            let id = config.id.clone();
            match run_alert(&runs, &config).await {
                Ok(_) => request_pass(&passes),
                Err(error) => tracing::debug!(alert = %id, %error, "first alert run skipped"),
            }
        });
    }
}

/// How many new alerts are matched against the catalog at once (each is a search over
/// the whole index on the search pool); more wait their turn without holding a thread.
const FIRST_RUNS_AT_ONCE: usize = 2;

static FIRST_RUNS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(FIRST_RUNS_AT_ONCE);

async fn find(workflows: &WorkflowStore, team_id: &str, id: &str) -> AppResult<AlertConfig> {
    workflows
        .get_live_doc::<AlertConfig>(DocKind::AlertConfig, team_id, id)
        .await?
        .map(|doc| doc.value)
        .ok_or_else(|| not_found(id))
}

async fn team_matches(
    workflows: &WorkflowStore,
    team_id: &str,
    alert_config_id: Option<&str>,
) -> AppResult<Vec<AlertMatch>> {
    if let Some(id) = alert_config_id {
        workflows
            .get_doc::<AlertConfig>(DocKind::AlertConfig, Some(team_id), id)
            .await?
            .ok_or_else(|| not_found(id))?;
    }
    let docs: Vec<Stored<AlertMatch>> = workflows
        .list_docs(
            DocKind::AlertMatch,
            &DocFilter {
                team_id: Some(team_id),
                parent_id: alert_config_id,
                ..DocFilter::default()
            },
        )
        .await?;
    let mut matches: Vec<AlertMatch> = docs.into_iter().map(|doc| doc.value).collect();
    matches.sort_by(|a, b| {
        b.first_matched_at
            .cmp(&a.first_matched_at)
            .then(b.episode.published_at.cmp(&a.episode.published_at))
            .then(a.id.cmp(&b.id))
    });
    Ok(matches)
}

fn history_item(m: &AlertMatch, mention: &Mention, team_id: &str) -> Value {
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
