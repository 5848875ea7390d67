//! The alert delivery ledger and its worker.
//!
//! When an alert run finds new matches, the matches and one pending delivery per
//! (alert, channel, recipient or webhook) are written in one transaction
//! ([`WorkflowStore::record_alert_matches`]), each delivery with its rendered payload
//! and a stable id made then. The worker ([`deliver_pending`]) sends the deliveries
//! that are due, one at a time, marks each `sent`, and reschedules a failed attempt
//! with exponential backoff until [`RetryPolicy::max_attempts`], after which the
//! delivery is `failed` with its last error. The ledger is read and written in short
//! statements around an attempt; no transaction stays open during the mail or HTTP I/O.
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
//! crashes the process every time still ends `failed`. Recording it is a claim: only a
//! `pending` row can be taken, so two passes never send the same attempt. A claim is a
//! lease of [`ATTEMPT_LEASE`] (kept in `next_attempt_at` while `sending`): a row still
//! `sending` once its lease is over was cut short — a crash, a store that went away
//! before the outcome was written — and is due again. The first pass after a server
//! starts makes every `sending` row due at once (only one pass runs at a time in a
//! server, and only the leader of several servers delivers, so such a row was cut
//! short by the stop).

use std::sync::Arc;
use std::time::Duration;

/// How long a claimed attempt may stay `sending` before another pass takes it as cut
/// short (an attempt's mail or HTTP request is bounded far below this).
pub const ATTEMPT_LEASE: Duration = Duration::from_secs(600);

use chrono::Utc;
use podlens_model::entities::Timestamp;
use podlens_netguard::AddressPolicy;
use podlens_store::{optional_time_at, time_at, time_text};
use serde::Serialize;
use serde_json::{Value, json};
use sqlx::any::{AnyArguments, AnyRow};
use sqlx::query::Query;
use sqlx::{Any, AnyConnection, AssertSqlSafe, Row};

use super::alerts::{AlertConfig, AlertMatch, match_mail_subject, match_mail_text, match_wire};
use super::documents::{DocKind, ON_CONFLICT_SKIP, Stored, insert_doc_query};
use super::store::WorkflowStore;
use super::webhooks::{AttemptFailure, WebhookSender, team_webhooks_on};
use crate::error::{AppError, AppResult};
use crate::mail::{Mail, MessageIdentity};

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

/// Sends the ledger's deliveries; one per server.
#[derive(Debug)]
pub struct DeliveryWorker {
    sender: WebhookSender,
    retry: RetryPolicy,
    /// Held for a whole pass: passes run one after another.
    turn: tokio::sync::Mutex<()>,
    /// When a timer for the next due retry is set to fire.
    wake_at: std::sync::Mutex<Option<Timestamp>>,
    /// The next pass makes every `sending` row due (set at start).
    resume_all: std::sync::atomic::AtomicBool,
    /// A pass asked for by [`request_pass`] waits for its turn; requests made before it
    /// starts need no pass of their own.
    pass_queued: std::sync::atomic::AtomicBool,
}

impl DeliveryWorker {
    /// A worker whose webhooks go to addresses `policy` allows.
    pub fn new(policy: AddressPolicy) -> AppResult<DeliveryWorker> {
        Ok(DeliveryWorker {
            sender: WebhookSender::new(policy)?,
            retry: RetryPolicy::default(),
            turn: tokio::sync::Mutex::new(()),
            wake_at: std::sync::Mutex::new(None),
            resume_all: std::sync::atomic::AtomicBool::new(true),
            pass_queued: std::sync::atomic::AtomicBool::new(false),
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

fn read_row(row: &AnyRow) -> AppResult<Delivery> {
    let delivery_id: String = row.try_get("delivery_id")?;
    let payload = serde_json::from_str(&row.try_get::<String, _>("payload")?).map_err(|error| {
        AppError::Internal(format!("stored delivery {delivery_id} unreadable: {error}"))
    })?;
    Ok(Delivery {
        team_id: row.try_get("team_id")?,
        alert_config_id: row.try_get("alert_config_id")?,
        channel: row.try_get("channel")?,
        target: row.try_get("target")?,
        event: row.try_get("event")?,
        payload,
        status: row.try_get("status")?,
        attempts: u32::try_from(row.try_get::<i64, _>("attempts")?).unwrap_or(0),
        next_attempt_at: time_at(row, "next_attempt_at")?,
        last_error: row.try_get("last_error")?,
        created_at: time_at(row, "created_at")?,
        sent_at: optional_time_at(row, "sent_at")?,
        delivery_id,
    })
}

/// The ledger's rows that pass `filter` (a `WHERE` clause with its order), to bind.
fn select(filter: &str) -> Query<'static, Any, AnyArguments> {
    sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM alert_deliveries {filter}"
    )))
}

struct NewDelivery<'a> {
    channel: &'a str,
    target: &'a str,
    payload: Value,
    delivery_id: String,
}

async fn insert_delivery(
    connection: &mut AnyConnection,
    config: &AlertConfig,
    delivery: &NewDelivery<'_>,
    now: Timestamp,
) -> AppResult<()> {
    sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO alert_deliveries ({COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', 0, $8, NULL, $8, NULL)"
    )))
    .bind(delivery.delivery_id.as_str())
    .bind(config.team_id.as_str())
    .bind(config.id.as_str())
    .bind(delivery.channel)
    .bind(delivery.target)
    .bind(EVENT_ALERT_MATCH)
    .bind(delivery.payload.to_string())
    .bind(time_text(now))
    .execute(connection)
    .await?;
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
    /// `alert_match`, all in one write transaction. Returns the new matches (those
    /// with no match stored for the same alert and episode before: the inserts the
    /// conflict on (kind, id) did not skip).
    pub async fn record_alert_matches(
        &self,
        config: &AlertConfig,
        found: Vec<AlertMatch>,
        recipients: &[String],
        now: Timestamp,
    ) -> AppResult<Vec<AlertMatch>> {
        let docs = found
            .into_iter()
            .map(|matched| {
                let doc = Stored {
                    id: matched.id.clone(),
                    team_id: config.team_id.clone(),
                    parent_id: Some(config.id.clone()),
                    created_at: now,
                    updated_at: now,
                    deleted: false,
                    value: matched,
                };
                Ok((
                    insert_doc_query(DocKind::AlertMatch, &doc, ON_CONFLICT_SKIP)?,
                    doc.value,
                ))
            })
            .collect::<AppResult<Vec<_>>>()?;
        let database = self.database();
        database
            .run(async {
                let mut tx = database.begin_write().await?;
                let mut new = Vec::new();
                for (insert, matched) in docs {
                    if insert.execute(&mut *tx).await?.rows_affected() > 0 {
                        new.push(matched);
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
                        insert_delivery(&mut tx, config, &delivery, now).await?;
                    }
                    let webhooks = team_webhooks_on(&mut *tx, &config.team_id).await?;
                    for webhook in webhooks.iter().filter(|w| w.wants(EVENT_ALERT_MATCH)) {
                        let delivery_id = uuid::Uuid::new_v4().to_string();
                        let delivery = NewDelivery {
                            channel: CHANNEL_WEBHOOK,
                            target: &webhook.webhook_id,
                            payload: alert_match_body(&delivery_id, config, &kept, now),
                            delivery_id,
                        };
                        insert_delivery(&mut tx, config, &delivery, now).await?;
                    }
                }
                tx.commit().await?;
                Ok(new)
            })
            .await
    }

    /// The ledger's rows a query selects.
    async fn deliveries(
        &self,
        query: Query<'static, Any, AnyArguments>,
    ) -> AppResult<Vec<Delivery>> {
        let database = self.database();
        let rows = database.run(query.fetch_all(database.pool())).await?;
        rows.iter().map(read_row).collect()
    }

    /// The deliveries of an alert, oldest first.
    pub async fn alert_deliveries(&self, alert_config_id: &str) -> AppResult<Vec<Delivery>> {
        self.deliveries(
            select("WHERE alert_config_id = $1 ORDER BY created_at, channel, delivery_id")
                .bind(alert_config_id),
        )
        .await
    }

    /// The latest deliveries to one webhook of a team, newest first.
    pub async fn webhook_deliveries(
        &self,
        team_id: &str,
        webhook_id: &str,
        limit: usize,
    ) -> AppResult<Vec<Delivery>> {
        self.deliveries(
            select(
                "WHERE team_id = $1 AND channel = 'webhook' AND target = $2
                 ORDER BY created_at DESC, delivery_id LIMIT $3",
            )
            .bind(team_id)
            .bind(webhook_id)
            .bind(i64::try_from(limit).unwrap_or(i64::MAX)),
        )
        .await
    }

    /// Makes attempts cut short due again: those whose lease is over, or every one
    /// when `all` (the first pass after a start; see the module documentation).
    async fn resume_interrupted(&self, now: Timestamp, all: bool) -> AppResult<u64> {
        let database = self.database();
        let resumed = database
            .run(
                sqlx::query(
                    "UPDATE alert_deliveries SET status = 'pending', next_attempt_at = $1,
                     last_error = 'interrupted: the server stopped during the attempt'
                 WHERE status = 'sending' AND ($2 = 1 OR next_attempt_at <= $1)",
                )
                .bind(time_text(now))
                .bind(i64::from(all))
                .execute(database.writer()),
            )
            .await?;
        Ok(resumed.rows_affected())
    }

    async fn due_deliveries(&self, now: Timestamp, limit: usize) -> AppResult<Vec<Delivery>> {
        self.deliveries(
            select(
                "WHERE status = 'pending' AND next_attempt_at <= $1
                 ORDER BY next_attempt_at, created_at, channel, delivery_id LIMIT $2",
            )
            .bind(time_text(now))
            .bind(i64::try_from(limit).unwrap_or(i64::MAX)),
        )
        .await
    }

    /// Claims a pending delivery for an attempt until `now` + [`ATTEMPT_LEASE`]; the
    /// attempt's number, or `None` when it is not pending (another pass took it).
    async fn begin_attempt(&self, delivery_id: &str, now: Timestamp) -> AppResult<Option<u32>> {
        let database = self.database();
        let lease_end = now + chrono::Duration::from_std(ATTEMPT_LEASE).unwrap_or_default();
        let claimed = database
            .run(
                sqlx::query(
                    "UPDATE alert_deliveries SET status = 'sending', attempts = attempts + 1,
                     next_attempt_at = $2
                 WHERE delivery_id = $1 AND status = 'pending' RETURNING attempts",
                )
                .bind(delivery_id)
                .bind(time_text(lease_end))
                .fetch_optional(database.writer()),
            )
            .await?;
        claimed
            .map(|row| {
                let attempts: i64 = row.try_get(0)?;
                Ok(u32::try_from(attempts).unwrap_or(0))
            })
            .transpose()
    }

    async fn finish_attempt(
        &self,
        delivery_id: &str,
        outcome: &Outcome,
        now: Timestamp,
    ) -> AppResult<()> {
        let update = match outcome {
            Outcome::Sent => sqlx::query(
                "UPDATE alert_deliveries SET status = 'sent', sent_at = $1, last_error = NULL
                 WHERE delivery_id = $2",
            )
            .bind(time_text(now)),
            Outcome::RetryAt(at, error) => sqlx::query(
                "UPDATE alert_deliveries SET status = 'pending', next_attempt_at = $1,
                     last_error = $2
                 WHERE delivery_id = $3",
            )
            .bind(time_text(*at))
            .bind(error.as_str()),
            Outcome::Failed(error) => sqlx::query(
                "UPDATE alert_deliveries SET status = 'failed', last_error = $1
                 WHERE delivery_id = $2",
            )
            .bind(error.as_str()),
        };
        let database = self.database();
        database
            .run(update.bind(delivery_id).execute(database.writer()))
            .await?;
        Ok(())
    }

    /// When the earliest pending delivery is due.
    async fn next_due(&self) -> AppResult<Option<Timestamp>> {
        let database = self.database();
        let row = database
            .run(
                sqlx::query(
                    "SELECT MIN(next_attempt_at) AS next_due FROM alert_deliveries
                 WHERE status = 'pending'",
                )
                .fetch_one(database.pool()),
            )
            .await?;
        Ok(optional_time_at(&row, "next_due")?)
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

/// What the delivery passes need: the worker (its webhook sender, retry policy and
/// turn), the ledger's store, the mailer, and the cluster (only the leader sends).
#[derive(Clone)]
pub struct Deliveries {
    pub worker: Arc<DeliveryWorker>,
    pub store: Arc<WorkflowStore>,
    pub mailer: Arc<dyn crate::mail::Mailer>,
    pub cluster: Arc<crate::cluster::Cluster>,
}

async fn send_mail(deliveries: &Deliveries, delivery: &Delivery) -> Result<(), AttemptFailure> {
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
    let mailer = Arc::clone(&deliveries.mailer);
    let sent = tokio::task::spawn_blocking(move || mailer.send_identified(&mail, &identity))
        .await
        .map_err(|error| AttemptFailure::Transient(format!("mail task failed: {error}")))?;
    match sent {
        Ok(()) => Ok(()),
        // The mailer's 400: the address itself is refused; trying again cannot help.
        Err(AppError::Invalid(message)) => Err(AttemptFailure::Permanent(message)),
        Err(error) => Err(AttemptFailure::Transient(error.to_string())),
    }
}

async fn send_webhook(deliveries: &Deliveries, delivery: &Delivery) -> Result<(), AttemptFailure> {
    let webhook = deliveries
        .store
        .webhook(&delivery.target)
        .await
        .map_err(|error| AttemptFailure::Transient(error.to_string()))?;
    let Some(webhook) = webhook.filter(|w| w.team_id == delivery.team_id) else {
        return Err(AttemptFailure::Permanent("the webhook was deleted".into()));
    };
    let body = serde_json::to_vec(&delivery.payload)
        .map_err(|error| AttemptFailure::Permanent(format!("body: {error}")))?;
    deliveries
        .worker
        .sender()
        .post(&webhook, &delivery.delivery_id, &delivery.event, body)
        .await
}

/// One attempt at `delivery`; `None` when another pass claimed it first.
async fn attempt(deliveries: &Deliveries, delivery: &Delivery) -> AppResult<Option<Outcome>> {
    let claimed = deliveries
        .store
        .begin_attempt(&delivery.delivery_id, Utc::now())
        .await?;
    let Some(attempts) = claimed else {
        return Ok(None);
    };
    let result = match delivery.channel.as_str() {
        CHANNEL_EMAIL => send_mail(deliveries, delivery).await,
        CHANNEL_WEBHOOK => send_webhook(deliveries, delivery).await,
        other => Err(AttemptFailure::Permanent(format!(
            "unknown channel {other}"
        ))),
    };
    let retry = deliveries.worker.retry();
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
    deliveries
        .store
        .finish_attempt(&delivery.delivery_id, &outcome, Utc::now())
        .await?;
    Ok(Some(outcome))
}

/// One pass of the worker: every delivery due now is attempted once, then a timer is
/// set for the next retry. Passes run one at a time; a pass asked for while another
/// runs waits for it and then looks again, so when this returns, every delivery that
/// was due when it was called has had an attempt.
///
/// Only the leader delivers (see [`crate::cluster`]): on another node this does
/// nothing, and the leader sends what is due within a tick.
pub async fn deliver_pending(deliveries: &Deliveries) -> AppResult<DeliveryReport> {
    if !deliveries.cluster.is_leader() {
        return Ok(DeliveryReport::default());
    }
    let worker = Arc::clone(&deliveries.worker);
    let _turn = worker.turn.lock().await;
    // Deliveries asked for from now on are not covered by this pass's reading.
    worker
        .pass_queued
        .store(false, std::sync::atomic::Ordering::Release);
    let mut report = DeliveryReport::default();
    let all = worker
        .resume_all
        .swap(false, std::sync::atomic::Ordering::AcqRel);
    let resumed = deliveries.store.resume_interrupted(Utc::now(), all).await?;
    if resumed > 0 {
        tracing::warn!(
            resumed,
            "alert deliveries interrupted by a stop are due again"
        );
    }
    report.resumed = resumed;
    loop {
        let due = deliveries.store.due_deliveries(Utc::now(), BATCH).await?;
        for delivery in &due {
            match attempt(deliveries, delivery).await? {
                Some(Outcome::Sent) => report.sent += 1,
                Some(Outcome::RetryAt(..)) => report.retrying += 1,
                Some(Outcome::Failed(_)) => report.failed += 1,
                None => {}
            }
        }
        if due.len() < BATCH {
            break;
        }
    }
    if let Some(at) = deliveries.store.next_due().await? {
        schedule(deliveries, at);
    }
    Ok(report)
}

/// Runs a pass at `at` (the next retry), unless a timer fires before then already.
fn schedule(deliveries: &Deliveries, at: Timestamp) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    let now = Utc::now();
    {
        let mut wake_at = deliveries
            .worker
            .wake_at
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if wake_at.is_some_and(|set| set > now && set <= at) {
            return;
        }
        *wake_at = Some(at);
    }
    let wait = (at - now).to_std().unwrap_or_default();
    let deliveries = deliveries.clone();
    runtime.spawn(async move {
        tokio::time::sleep(wait).await;
        {
            let mut wake_at = deliveries
                .worker
                .wake_at
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if *wake_at == Some(at) {
                *wake_at = None;
            }
        }
        if let Err(error) = deliver_pending(&deliveries).await {
            tracing::warn!(%error, "alert delivery pass failed");
        }
    });
}

/// Asks for a pass without waiting for it: a pass is started unless one is already
/// waiting for its turn (that one reads the deliveries due after this call). A burst
/// of alert runs asks for one pass, not one each. Outside a runtime nothing is sent;
/// the next pass of the background jobs sends it.
pub fn request_pass(deliveries: &Deliveries) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    if deliveries
        .worker
        .pass_queued
        .swap(true, std::sync::atomic::Ordering::AcqRel)
    {
        return;
    }
    let deliveries = deliveries.clone();
    runtime.spawn(async move {
        if let Err(error) = deliver_pending(&deliveries).await {
            tracing::warn!(%error, "alert delivery pass failed");
        }
    });
}

#[cfg(test)]
mod tests {
    use serde_json::Map;

    use super::*;
    use crate::workflows::alerts::{EmailSettings, MatchAlert, MatchEpisode, MatchPodcast};
    use crate::workflows::documents::DocFilter;
    use crate::workflows::store::tests::{at, memory_store};
    use crate::workflows::webhooks::tests::webhook;

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

    fn config() -> AlertConfig {
        let mut settings = Map::new();
        settings.insert("value".into(), json!("Ada Lovelace"));
        AlertConfig {
            id: "a1".into(),
            created_by_user_id: "u1".into(),
            team_id: "t1".into(),
            created_at: at(0),
            updated_at: at(0),
            alert_name: "Ada".into(),
            alert_type: "keyword".into(),
            enabled: true,
            alert_settings: settings,
            email_settings: EmailSettings {
                frequency: "instant".into(),
            },
            last_run_date: None,
        }
    }

    fn matched(episode: &str, status: &str) -> AlertMatch {
        AlertMatch {
            id: format!("a1:{episode}"),
            alert_config: MatchAlert {
                id: "a1".into(),
                name: "Ada".into(),
                alert_type: "keyword".into(),
                value: "Ada Lovelace".into(),
                created_by_user_id: "u1".into(),
            },
            status: status.into(),
            filter_reasons: Vec::new(),
            episode: MatchEpisode {
                id: episode.into(),
                slug: episode.into(),
                title: format!("Episode {episode}"),
                published_at: Some(at(1)),
                image_url: None,
                transcript_id: None,
            },
            podcast: MatchPodcast {
                id: "pod1".into(),
                slug: "pod1".into(),
                title: "Pod".into(),
            },
            appearance: None,
            first_matched_at: at(1),
            mentions: Vec::new(),
        }
    }

    #[tokio::test]
    async fn only_new_kept_matches_get_deliveries() {
        let store = memory_store();
        store
            .create_webhook(&webhook("w1", "t1", 1), 10)
            .await
            .unwrap();
        store
            .create_webhook(&webhook("w2", "t2", 2), 10)
            .await
            .unwrap();
        let recipients = ["ada@example.com".to_owned(), "bob@example.com".to_owned()];
        let new = store
            .record_alert_matches(
                &config(),
                vec![matched("e1", "kept"), matched("e2", "filtered")],
                &recipients,
                at(10),
            )
            .await
            .unwrap();
        assert_eq!(new, [matched("e1", "kept"), matched("e2", "filtered")]);
        let deliveries = store.alert_deliveries("a1").await.unwrap();
        let mut targets: Vec<(&str, &str)> = deliveries
            .iter()
            .map(|d| (d.channel.as_str(), d.target.as_str()))
            .collect();
        targets.sort();
        assert_eq!(
            targets,
            [
                (CHANNEL_EMAIL, "ada@example.com"),
                (CHANNEL_EMAIL, "bob@example.com"),
                (CHANNEL_WEBHOOK, "w1"),
            ]
        );
        let mail = deliveries
            .iter()
            .find(|d| d.target == "ada@example.com")
            .unwrap();
        assert_eq!(mail.status, "pending");
        assert_eq!(mail.attempts, 0);
        assert_eq!((mail.created_at, mail.next_attempt_at), (at(10), at(10)));
        assert_eq!((mail.last_error.as_deref(), mail.sent_at), (None, None));
        assert_eq!(mail.event, EVENT_ALERT_MATCH);
        assert_eq!(mail.payload["to"], "ada@example.com");
        assert_eq!(mail.payload["subject"], match_mail_subject(&config(), 1));
        let hook = &deliveries[2];
        assert_eq!(hook.payload["id"], hook.delivery_id.as_str());
        assert_eq!(hook.payload["data"]["matches"].as_array().unwrap().len(), 1);

        // Matched again: nothing new, nothing more to deliver.
        let again = store
            .record_alert_matches(
                &config(),
                vec![matched("e1", "kept"), matched("e3", "kept")],
                &recipients,
                at(20),
            )
            .await
            .unwrap();
        assert_eq!(again, [matched("e3", "kept")]);
        assert_eq!(store.alert_deliveries("a1").await.unwrap().len(), 6);
        let stored: Vec<String> = store
            .list_docs::<AlertMatch>(
                DocKind::AlertMatch,
                &DocFilter {
                    parent_id: Some("a1"),
                    ..Default::default()
                },
            )
            .await
            .unwrap()
            .into_iter()
            .map(|doc| doc.id)
            .collect();
        assert_eq!(stored, ["a1:e1", "a1:e2", "a1:e3"]);
        assert_eq!(
            store.webhook_deliveries("t1", "w1", 1).await.unwrap()[0].created_at,
            at(20)
        );
        assert_eq!(
            store
                .webhook_deliveries("t1", "w1", 10)
                .await
                .unwrap()
                .len(),
            2
        );
        assert!(
            store
                .webhook_deliveries("t2", "w1", 10)
                .await
                .unwrap()
                .is_empty()
        );
    }

    #[tokio::test]
    async fn attempts_move_a_delivery_through_the_ledger() {
        let store = memory_store();
        let recipients = ["ada@example.com".to_owned(), "bob@example.com".to_owned()];
        store
            .record_alert_matches(&config(), vec![matched("e1", "kept")], &recipients, at(10))
            .await
            .unwrap();
        assert_eq!(store.next_due().await.unwrap(), Some(at(10)));
        assert!(store.due_deliveries(at(9), 10).await.unwrap().is_empty());
        let due = store.due_deliveries(at(10), 10).await.unwrap();
        assert_eq!(due.len(), 2);
        assert_eq!(store.due_deliveries(at(10), 1).await.unwrap().len(), 1);
        let (first, second) = (&due[0].delivery_id, &due[1].delivery_id);

        assert_eq!(store.begin_attempt(first, at(10)).await.unwrap(), Some(1));
        // A delivery under way is claimed: another pass cannot take it.
        assert_eq!(store.begin_attempt(first, at(10)).await.unwrap(), None);
        store
            .finish_attempt(first, &Outcome::RetryAt(at(70), "timed out".into()), at(11))
            .await
            .unwrap();
        assert_eq!(store.begin_attempt(first, at(70)).await.unwrap(), Some(2));
        store
            .finish_attempt(first, &Outcome::Sent, at(71))
            .await
            .unwrap();
        assert_eq!(store.begin_attempt(first, at(72)).await.unwrap(), None);
        assert_eq!(store.begin_attempt(second, at(12)).await.unwrap(), Some(1));
        store
            .finish_attempt(second, &Outcome::RetryAt(at(80), "refused".into()), at(12))
            .await
            .unwrap();
        assert_eq!(store.next_due().await.unwrap(), Some(at(80)));
        // An attempt cut short stays `sending` until its lease is over, or until the
        // first pass after a start.
        assert_eq!(store.begin_attempt(second, at(80)).await.unwrap(), Some(2));
        assert_eq!(store.next_due().await.unwrap(), None);
        let lease_over = at(80) + chrono::Duration::from_std(ATTEMPT_LEASE).unwrap();
        assert_eq!(store.resume_interrupted(at(90), false).await.unwrap(), 0);
        assert_eq!(
            store.resume_interrupted(lease_over, false).await.unwrap(),
            1
        );
        assert_eq!(store.begin_attempt(second, at(85)).await.unwrap(), Some(3));
        assert_eq!(store.resume_interrupted(at(90), true).await.unwrap(), 1);
        assert_eq!(store.resume_interrupted(at(91), true).await.unwrap(), 0);

        let ledger = store.alert_deliveries("a1").await.unwrap();
        let sent = ledger.iter().find(|d| &d.delivery_id == first).unwrap();
        assert_eq!(sent.status, "sent");
        assert_eq!(
            (sent.attempts, sent.sent_at, sent.last_error.as_deref()),
            (2, Some(at(71)), None)
        );
        let resumed = ledger.iter().find(|d| &d.delivery_id == second).unwrap();
        assert_eq!(resumed.status, "pending");
        assert_eq!(resumed.next_attempt_at, at(90));
        assert!(
            resumed
                .last_error
                .as_deref()
                .unwrap()
                .starts_with("interrupted")
        );

        store
            .finish_attempt(second, &Outcome::Failed("gone".into()), at(95))
            .await
            .unwrap();
        let failed = store.alert_deliveries("a1").await.unwrap();
        let failed = failed.iter().find(|d| &d.delivery_id == second).unwrap();
        assert_eq!(
            (failed.status.as_str(), failed.last_error.as_deref()),
            ("failed", Some("gone"))
        );
        assert_eq!(store.next_due().await.unwrap(), None);
        assert!(store.due_deliveries(at(1000), 10).await.unwrap().is_empty());
    }
}
