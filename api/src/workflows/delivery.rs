//! The alert delivery ledger and its worker.
//!
//! When an alert run finds new matches, the matches and one pending delivery per
//! (alert, channel, recipient or webhook) are written in one transaction
//! ([`WorkflowStore::record_alert_matches`]), each delivery with its rendered payload
//! and a stable id made then. The worker ([`deliver_pending`]) sends the deliveries
//! that are due, one at a time, marks each `sent`, and reschedules a failed attempt
//! with exponential backoff until [`RetryPolicy::max_attempts`], after which the
//! delivery is `failed` with its last error. The ledger lock is held only for the
//! short reads and writes around an attempt, never during the mail or HTTP I/O.
//!
//! The guarantee, across crashes of the process at any point:
//! - no match is lost: a match and its deliveries commit together, and a delivery
//!   stays due until an attempt is recorded as sent;
//! - delivery is at-least-once, with a stable idempotency id: a crash after the
//!   receiver got the delivery but before `sent` was recorded sends it again, with the
//!   same id (`X-Podlens-Delivery` and the body's `id` for webhooks, `Message-ID` for
//!   SMTP), the same body, and a fresh signature timestamp;
//! - the outbox is exactly-once: the message is written under a name made from the
//!   delivery id, whole (temporary file, sync, rename), and a repeat finds it there;
//! - nothing is matched again: a match exists once per alert and episode, and only
//!   a newly inserted match gets deliveries.
//!
//! An attempt is recorded (`sending`, attempts + 1) before its I/O, so a delivery that
//! crashes the process every time still ends `failed`. Only one pass runs at a time in
//! a process, and the app database is opened by one process at a time, so a delivery
//! found `sending` at the start of a pass was cut short by a crash: it is due again.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use duckdb::{Connection, Row, params};
use podlens_model::entities::Timestamp;
use podlens_netguard::AddressPolicy;
use serde::Serialize;
use serde_json::{Value, json};

use super::alerts::{AlertConfig, AlertMatch, match_mail_subject, match_mail_text, match_wire};
use super::documents::{DocKind, Stored, insert_doc};
use super::store::{WorkflowStore, db_error};
use super::webhooks::{AttemptFailure, WebhookSender, team_webhooks_on};
use crate::error::{ApiError, ApiResult};
use crate::mail::{Mail, MessageIdentity};
use crate::state::{AppState, blocking};

/// The e-mail channel: the target is the address.
pub const CHANNEL_EMAIL: &str = "email";
/// The webhook channel: the target is the webhook id.
pub const CHANNEL_WEBHOOK: &str = "webhook";
/// The event of alert match deliveries.
pub const EVENT_ALERT_MATCH: &str = "alert_match";
/// Deliveries read per round of a pass.
const BATCH: usize = 50;

/// How often and how far apart a failed delivery is tried again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included; then the delivery is `failed`.
    pub max_attempts: u32,
    /// The wait after the first failed attempt; doubled after each further one.
    pub first_backoff: Duration,
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    /// Six attempts over about half an hour: 1, 2, 4, 8 and 16 minutes apart.
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 6,
            first_backoff: Duration::from_secs(60),
            max_backoff: Duration::from_secs(3600),
        }
    }
}

impl RetryPolicy {
    /// The wait after failed attempt number `attempts` (1-based).
    pub fn backoff(&self, attempts: u32) -> Duration {
        let doublings = attempts.saturating_sub(1).min(30);
        self.first_backoff
            .saturating_mul(1u32 << doublings)
            .min(self.max_backoff)
    }
}

/// Sends the ledger's deliveries; one per server (in [`AppState::deliveries`]).
#[derive(Debug)]
pub struct DeliveryWorker {
    sender: WebhookSender,
    retry: RetryPolicy,
    /// Held for a whole pass: passes run one after another.
    turn: tokio::sync::Mutex<()>,
    /// When a timer for the next due retry is set to fire.
    wake_at: std::sync::Mutex<Option<Timestamp>>,
}

impl DeliveryWorker {
    /// A worker whose webhooks go to addresses `policy` allows.
    pub fn new(policy: AddressPolicy) -> ApiResult<DeliveryWorker> {
        Ok(DeliveryWorker {
            sender: WebhookSender::new(policy)?,
            retry: RetryPolicy::default(),
            turn: tokio::sync::Mutex::new(()),
            wake_at: std::sync::Mutex::new(None),
        })
    }

    pub fn with_retry(mut self, retry: RetryPolicy) -> DeliveryWorker {
        self.retry = retry;
        self
    }

    pub fn sender(&self) -> &WebhookSender {
        &self.sender
    }

    pub fn retry(&self) -> RetryPolicy {
        self.retry
    }
}

/// One row of the ledger.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    pub delivery_id: String,
    pub team_id: String,
    pub alert_config_id: String,
    pub channel: String,
    /// The e-mail address, or the webhook id.
    pub target: String,
    pub event: String,
    /// The mail (`to`, `subject`, `text`) or the webhook body, fixed at creation.
    pub payload: Value,
    /// `pending`, `sending` (an attempt under way), `sent` or `failed`.
    pub status: String,
    pub attempts: u32,
    pub next_attempt_at: Timestamp,
    pub last_error: Option<String>,
    pub created_at: Timestamp,
    pub sent_at: Option<Timestamp>,
}

const COLUMNS: &str = "delivery_id, team_id, alert_config_id, channel, target, event, payload,
    status, attempts, next_attempt_at, last_error, created_at, sent_at";

type RawDelivery = (Delivery, String);

fn read_row(row: &Row<'_>) -> duckdb::Result<RawDelivery> {
    let attempts: i32 = row.get(8)?;
    Ok((
        Delivery {
            delivery_id: row.get(0)?,
            team_id: row.get(1)?,
            alert_config_id: row.get(2)?,
            channel: row.get(3)?,
            target: row.get(4)?,
            event: row.get(5)?,
            payload: Value::Null,
            status: row.get(7)?,
            attempts: u32::try_from(attempts).unwrap_or(0),
            next_attempt_at: row.get(9)?,
            last_error: row.get(10)?,
            created_at: row.get(11)?,
            sent_at: row.get(12)?,
        },
        row.get(6)?,
    ))
}

fn decode(raw: RawDelivery) -> ApiResult<Delivery> {
    let (mut delivery, payload) = raw;
    delivery.payload = serde_json::from_str(&payload).map_err(|error| {
        ApiError::Internal(format!(
            "stored delivery {} unreadable: {error}",
            delivery.delivery_id
        ))
    })?;
    Ok(delivery)
}

fn query(
    connection: &Connection,
    filter: &str,
    args: &[&dyn duckdb::ToSql],
) -> ApiResult<Vec<Delivery>> {
    let mut statement = connection
        .prepare(&format!("SELECT {COLUMNS} FROM alert_deliveries {filter}"))
        .map_err(db_error)?;
    let rows = statement
        .query_map(args, read_row)
        .map_err(db_error)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(db_error)?;
    rows.into_iter().map(decode).collect()
}

struct NewDelivery<'a> {
    channel: &'a str,
    target: &'a str,
    payload: Value,
    delivery_id: String,
}

fn insert_delivery(
    connection: &Connection,
    config: &AlertConfig,
    delivery: &NewDelivery<'_>,
    now: Timestamp,
) -> ApiResult<()> {
    connection
        .execute(
            &format!(
                "INSERT INTO alert_deliveries ({COLUMNS})
                 VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, NULL, ?, NULL)"
            ),
            params![
                delivery.delivery_id,
                config.team_id,
                config.id,
                delivery.channel,
                delivery.target,
                EVENT_ALERT_MATCH,
                delivery.payload.to_string(),
                now,
                now
            ],
        )
        .map_err(db_error)?;
    Ok(())
}

/// The webhook body of new matches; `id` is the delivery id.
pub fn alert_match_body(
    delivery_id: &str,
    config: &AlertConfig,
    kept: &[&AlertMatch],
    now: Timestamp,
) -> Value {
    json!({
        "id": delivery_id,
        "event": EVENT_ALERT_MATCH,
        "createdAt": now,
        "teamId": config.team_id,
        "data": {
            "alertConfig": {
                "id": config.id,
                "name": config.alert_name,
                "type": config.alert_type,
                "value": config.search_terms().first(),
            },
            "matches": kept.iter().map(|m| match_wire(m, false)).collect::<Vec<_>>(),
        },
    })
}

impl WorkflowStore {
    /// Stores the matches an alert run found and, for the kept ones among those new,
    /// one pending delivery per e-mail recipient and per team webhook subscribed to
    /// `alert_match`, all in one transaction. Returns the new matches (those with no
    /// match stored for the same alert and episode before).
    pub fn record_alert_matches(
        &self,
        config: &AlertConfig,
        found: Vec<AlertMatch>,
        recipients: &[String],
        now: Timestamp,
    ) -> ApiResult<Vec<AlertMatch>> {
        let mut connection = self.lock()?;
        let transaction = connection.transaction().map_err(db_error)?;
        let mut new = Vec::new();
        for matched in found {
            let doc = Stored {
                id: matched.id.clone(),
                team_id: config.team_id.clone(),
                parent_id: Some(config.id.clone()),
                created_at: now,
                updated_at: now,
                deleted: false,
                value: matched,
            };
            let written = insert_doc(
                &transaction,
                "ON CONFLICT (kind, doc_id) DO NOTHING",
                DocKind::AlertMatch,
                &doc,
            )?;
            if written > 0 {
                new.push(doc.value);
            }
        }
        let kept: Vec<&AlertMatch> = new.iter().filter(|m| m.status == "kept").collect();
        if !kept.is_empty() {
            let subject = match_mail_subject(config, kept.len());
            let text = match_mail_text(config, &kept);
            for to in recipients {
                let delivery = NewDelivery {
                    channel: CHANNEL_EMAIL,
                    target: to,
                    payload: json!({"to": to, "subject": subject, "text": text}),
                    delivery_id: uuid::Uuid::new_v4().to_string(),
                };
                insert_delivery(&transaction, config, &delivery, now)?;
            }
            let webhooks = team_webhooks_on(&transaction, &config.team_id)?;
            for webhook in webhooks.iter().filter(|w| w.wants(EVENT_ALERT_MATCH)) {
                let delivery_id = uuid::Uuid::new_v4().to_string();
                let delivery = NewDelivery {
                    channel: CHANNEL_WEBHOOK,
                    target: &webhook.webhook_id,
                    payload: alert_match_body(&delivery_id, config, &kept, now),
                    delivery_id,
                };
                insert_delivery(&transaction, config, &delivery, now)?;
            }
        }
        transaction.commit().map_err(db_error)?;
        Ok(new)
    }

    /// The deliveries of an alert, oldest first.
    pub fn alert_deliveries(&self, alert_config_id: &str) -> ApiResult<Vec<Delivery>> {
        let connection = self.lock()?;
        query(
            &connection,
            "WHERE alert_config_id = ? ORDER BY created_at, channel, delivery_id",
            &[&alert_config_id],
        )
    }

    /// The latest deliveries to one webhook of a team, newest first.
    pub fn webhook_deliveries(
        &self,
        team_id: &str,
        webhook_id: &str,
        limit: usize,
    ) -> ApiResult<Vec<Delivery>> {
        let connection = self.lock()?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        query(
            &connection,
            "WHERE team_id = ? AND channel = 'webhook' AND target = ?
             ORDER BY created_at DESC, delivery_id LIMIT ?",
            &[&team_id, &webhook_id, &limit],
        )
    }

    /// Makes attempts cut short by a crash due again; see the module documentation
    /// for why a `sending` row can only be such an attempt when no pass is running.
    fn resume_interrupted(&self, now: Timestamp) -> ApiResult<usize> {
        let connection = self.lock()?;
        connection
            .execute(
                "UPDATE alert_deliveries SET status = 'pending', next_attempt_at = ?,
                     last_error = 'interrupted: the server stopped during the attempt'
                 WHERE status = 'sending'",
                params![now],
            )
            .map_err(db_error)
    }

    fn due_deliveries(&self, now: Timestamp, limit: usize) -> ApiResult<Vec<Delivery>> {
        let connection = self.lock()?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        query(
            &connection,
            "WHERE status = 'pending' AND next_attempt_at <= ?
             ORDER BY next_attempt_at, created_at, channel, delivery_id LIMIT ?",
            &[&now, &limit],
        )
    }

    /// Records an attempt as under way; the attempt's number.
    fn begin_attempt(&self, delivery_id: &str) -> ApiResult<u32> {
        let connection = self.lock()?;
        let attempts: i32 = connection
            .query_row(
                "UPDATE alert_deliveries SET status = 'sending', attempts = attempts + 1
                 WHERE delivery_id = ? RETURNING attempts",
                params![delivery_id],
                |row| row.get(0),
            )
            .map_err(db_error)?;
        Ok(u32::try_from(attempts).unwrap_or(0))
    }

    fn finish_attempt(
        &self,
        delivery_id: &str,
        outcome: &Outcome,
        now: Timestamp,
    ) -> ApiResult<()> {
        let connection = self.lock()?;
        match outcome {
            Outcome::Sent => connection.execute(
                "UPDATE alert_deliveries SET status = 'sent', sent_at = ?, last_error = NULL
                 WHERE delivery_id = ?",
                params![now, delivery_id],
            ),
            Outcome::RetryAt(at, error) => connection.execute(
                "UPDATE alert_deliveries SET status = 'pending', next_attempt_at = ?,
                     last_error = ?
                 WHERE delivery_id = ?",
                params![at, error, delivery_id],
            ),
            Outcome::Failed(error) => connection.execute(
                "UPDATE alert_deliveries SET status = 'failed', last_error = ?
                 WHERE delivery_id = ?",
                params![error, delivery_id],
            ),
        }
        .map_err(db_error)?;
        Ok(())
    }

    /// When the earliest pending delivery is due.
    fn next_due(&self) -> ApiResult<Option<Timestamp>> {
        let connection = self.lock()?;
        connection
            .query_row(
                "SELECT min(next_attempt_at) FROM alert_deliveries WHERE status = 'pending'",
                [],
                |row| row.get(0),
            )
            .map_err(db_error)
    }
}

/// What became of one attempt.
#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    Sent,
    RetryAt(Timestamp, String),
    Failed(String),
}

/// What one pass did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryReport {
    pub sent: u64,
    pub retrying: u64,
    pub failed: u64,
    /// Attempts found cut short by a crash and made due again.
    pub resumed: u64,
}

async fn store_call<T, F>(state: &AppState, work: F) -> ApiResult<T>
where
    F: FnOnce(&WorkflowStore) -> ApiResult<T> + Send + 'static,
    T: Send + 'static,
{
    let store = Arc::clone(&state.workflows);
    blocking(move || work(&store)).await
}

async fn send_mail(state: &AppState, delivery: &Delivery) -> Result<(), AttemptFailure> {
    let field = |name: &str| {
        delivery.payload[name]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| AttemptFailure::Permanent(format!("stored mail has no {name}")))
    };
    let mail = Mail {
        to: field("to")?,
        subject: field("subject")?,
        text: field("text")?,
    };
    let identity = MessageIdentity {
        id: delivery.delivery_id.clone(),
        created_at: delivery.created_at,
    };
    let mailer = Arc::clone(&state.mailer);
    let sent = tokio::task::spawn_blocking(move || mailer.send_identified(&mail, &identity))
        .await
        .map_err(|error| AttemptFailure::Transient(format!("mail task failed: {error}")))?;
    match sent {
        Ok(()) => Ok(()),
        // The mailer's 400: the address itself is refused; trying again cannot help.
        Err(ApiError::BadRequest(message)) => Err(AttemptFailure::Permanent(message)),
        Err(error) => Err(AttemptFailure::Transient(error.to_string())),
    }
}

async fn send_webhook(state: &AppState, delivery: &Delivery) -> Result<(), AttemptFailure> {
    let webhook_id = delivery.target.clone();
    let webhook = store_call(state, move |store| store.webhook(&webhook_id))
        .await
        .map_err(|error| AttemptFailure::Transient(error.to_string()))?;
    let Some(webhook) = webhook.filter(|w| w.team_id == delivery.team_id) else {
        return Err(AttemptFailure::Permanent("the webhook was deleted".into()));
    };
    let body = serde_json::to_vec(&delivery.payload)
        .map_err(|error| AttemptFailure::Permanent(format!("body: {error}")))?;
    state
        .deliveries
        .sender()
        .post(&webhook, &delivery.delivery_id, &delivery.event, body)
        .await
}

async fn attempt(state: &AppState, delivery: &Delivery) -> ApiResult<Outcome> {
    let id = delivery.delivery_id.clone();
    let attempts = store_call(state, move |store| store.begin_attempt(&id)).await?;
    let result = match delivery.channel.as_str() {
        CHANNEL_EMAIL => send_mail(state, delivery).await,
        CHANNEL_WEBHOOK => send_webhook(state, delivery).await,
        other => Err(AttemptFailure::Permanent(format!(
            "unknown channel {other}"
        ))),
    };
    let retry = state.deliveries.retry();
    let now = Utc::now();
    let outcome = match result {
        Ok(()) => Outcome::Sent,
        Err(AttemptFailure::Permanent(error)) => Outcome::Failed(error),
        Err(AttemptFailure::Transient(error)) if attempts >= retry.max_attempts => {
            Outcome::Failed(format!("{error} (after {attempts} attempts)"))
        }
        Err(AttemptFailure::Transient(error)) => {
            let wait = chrono::Duration::from_std(retry.backoff(attempts))
                .unwrap_or(chrono::Duration::MAX);
            Outcome::RetryAt(now + wait, error)
        }
    };
    match &outcome {
        Outcome::Sent => {
            tracing::info!(delivery = %delivery.delivery_id, channel = %delivery.channel, attempts, "alert delivered")
        }
        Outcome::RetryAt(at, error) => {
            tracing::warn!(delivery = %delivery.delivery_id, channel = %delivery.channel, attempts, %at, %error, "alert delivery failed, will retry")
        }
        Outcome::Failed(error) => {
            tracing::warn!(delivery = %delivery.delivery_id, channel = %delivery.channel, attempts, %error, "alert delivery failed for good")
        }
    }
    let id = delivery.delivery_id.clone();
    let recorded = outcome.clone();
    store_call(state, move |store| {
        store.finish_attempt(&id, &recorded, Utc::now())
    })
    .await?;
    Ok(outcome)
}

/// One pass of the worker: every delivery due now is attempted once, then a timer is
/// set for the next retry. Passes run one at a time; a pass asked for while another
/// runs waits for it and then looks again, so when this returns, every delivery that
/// was due when it was called has had an attempt.
pub async fn deliver_pending(state: &AppState) -> ApiResult<DeliveryReport> {
    let worker = Arc::clone(&state.deliveries);
    let _turn = worker.turn.lock().await;
    let mut report = DeliveryReport::default();
    let resumed = store_call(state, |store| store.resume_interrupted(Utc::now())).await?;
    if resumed > 0 {
        tracing::warn!(
            resumed,
            "alert deliveries interrupted by a stop are due again"
        );
    }
    report.resumed = resumed as u64;
    loop {
        let due = store_call(state, |store| store.due_deliveries(Utc::now(), BATCH)).await?;
        for delivery in &due {
            match attempt(state, delivery).await? {
                Outcome::Sent => report.sent += 1,
                Outcome::RetryAt(..) => report.retrying += 1,
                Outcome::Failed(_) => report.failed += 1,
            }
        }
        if due.len() < BATCH {
            break;
        }
    }
    if let Some(at) = store_call(state, |store| store.next_due()).await? {
        schedule(state, at);
    }
    Ok(report)
}

/// Runs a pass at `at` (the next retry), unless a timer fires before then already.
fn schedule(state: &AppState, at: Timestamp) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    let now = Utc::now();
    {
        let mut wake_at = state
            .deliveries
            .wake_at
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if wake_at.is_some_and(|set| set > now && set <= at) {
            return;
        }
        *wake_at = Some(at);
    }
    let wait = (at - now).to_std().unwrap_or_default();
    let state = state.clone();
    runtime.spawn(async move {
        tokio::time::sleep(wait).await;
        {
            let mut wake_at = state
                .deliveries
                .wake_at
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if *wake_at == Some(at) {
                *wake_at = None;
            }
        }
        if let Err(error) = deliver_pending(&state).await {
            tracing::warn!(%error, "alert delivery pass failed");
        }
    });
}

/// Runs a pass from blocking code (an alert run on the blocking pool) and waits for it.
/// Outside a runtime nothing is sent; the next pass of the background jobs sends it.
pub fn deliver_pending_blocking(state: &AppState) -> ApiResult<DeliveryReport> {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return Ok(DeliveryReport::default());
    };
    let (done, wait) = std::sync::mpsc::channel();
    let state = state.clone();
    runtime.spawn(async move {
        let _ = done.send(deliver_pending(&state).await);
    });
    wait.recv()
        .map_err(|_| ApiError::Internal("the delivery pass stopped".into()))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let retry = RetryPolicy {
            max_attempts: 10,
            first_backoff: Duration::from_secs(60),
            max_backoff: Duration::from_secs(600),
        };
        let waits: Vec<u64> = (1..=6).map(|n| retry.backoff(n).as_secs()).collect();
        assert_eq!(waits, [60, 120, 240, 480, 600, 600]);
        assert_eq!(retry.backoff(u32::MAX).as_secs(), 600);
    }
}
