//! Team webhooks (a Podlens extension of the team settings' integrations): the stored
//! endpoints with their signing secrets, the signature every delivery carries, and the
//! sender that posts deliveries through the outbound address guard.
//!
//! Signature: `X-Podlens-Signature: t=<unix seconds>,v1=<hex hmac-sha256(secret,
//! "<t>.<body>")>`, computed per attempt over the exact body bytes sent; the delivery id
//! is in `X-Podlens-Delivery` and in the body, the same on every attempt
//! (docs/webhooks.md shows how to verify both).
//!
//! The sender refuses non-public targets unless the server allows private addresses
//! (`podlens serve --allow-private`): the URL's host is checked when it is an address
//! literal, and names are checked after resolution, in the HTTP client's resolver
//! ([`podlens_netguard::GuardedClient`]), so the address checked is the address
//! connected to; proxies named by the environment are never used. Redirects are never
//! followed: a 3xx answer fails the delivery.

use std::time::Duration;

use hmac::{Hmac, Mac};
use podlens_model::entities::Timestamp;
use podlens_netguard::{AddressPolicy, GuardedClient, Redirects, Refused, check_url};
use podlens_store::{count, time_at, time_text};
use sha2::Sha256;
use sqlx::any::AnyRow;
use sqlx::{Any, AssertSqlSafe, Executor, Row};
use url::Url;

use super::CapCheck;
use super::store::WorkflowStore;
use crate::accounts::keys::hex;
use crate::error::{AppError, AppResult};

/// The events a webhook can subscribe to (the polling event of the same name).
pub const WEBHOOK_EVENTS: [&str; 1] = ["alert_match"];
/// Webhooks one team may register.
pub const MAX_WEBHOOKS_PER_TEAM: u64 = 10;
/// The longest accepted URL.
pub const MAX_WEBHOOK_URL_CHARS: usize = 2048;
/// The headers of a delivery.
pub const SIGNATURE_HEADER: &str = "X-Podlens-Signature";
pub const DELIVERY_HEADER: &str = "X-Podlens-Delivery";
pub const EVENT_HEADER: &str = "X-Podlens-Event";
/// How long connecting, and the whole exchange, may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
const REQUEST_TIMEOUT: Duration = Duration::from_secs(15);
/// The most bytes of an answer read (only to quote it in the delivery's last error).
pub const MAX_ANSWER_BYTES: usize = 64 * 1024;
/// Characters of an answer kept in the last error.
const ANSWER_QUOTE_CHARS: usize = 200;

/// One registered endpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct WebhookRow {
    pub webhook_id: String,
    pub team_id: String,
    pub url: String,
    pub events: Vec<String>,
    pub secret: String,
    pub created_by_user_id: String,
    pub created_at: Timestamp,
}

impl WebhookRow {
    pub fn wants(&self, event: &str) -> bool {
        self.events.iter().any(|e| e == event)
    }
}

const COLUMNS: &str = "webhook_id, team_id, url, events, secret, created_by_user_id, created_at";

fn read_row(row: &AnyRow) -> AppResult<WebhookRow> {
    let webhook_id: String = row.try_get("webhook_id")?;
    let events = serde_json::from_str(&row.try_get::<String, _>("events")?).map_err(|error| {
        AppError::Internal(format!("stored webhook {webhook_id} unreadable: {error}"))
    })?;
    Ok(WebhookRow {
        team_id: row.try_get("team_id")?,
        url: row.try_get("url")?,
        events,
        secret: row.try_get("secret")?,
        created_by_user_id: row.try_get("created_by_user_id")?,
        created_at: time_at(row, "created_at")?,
        webhook_id,
    })
}

/// The team's webhooks through `executor` (the pool, or a transaction), oldest first.
pub(super) async fn team_webhooks_on<'e>(
    executor: impl Executor<'e, Database = Any>,
    team_id: &str,
) -> AppResult<Vec<WebhookRow>> {
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM team_webhooks WHERE team_id = $1 ORDER BY created_at, webhook_id"
    )))
    .bind(team_id)
    .fetch_all(executor)
    .await?;
    rows.iter().map(read_row).collect()
}

impl WorkflowStore {
    /// Registers a webhook unless the team already has `cap`: the count and the insert
    /// run in one write transaction holding the team's webhook lock.
    pub async fn create_webhook(&self, row: &WebhookRow, cap: u64) -> AppResult<CapCheck<()>> {
        let events = serde_json::to_string(&row.events).map_err(AppError::internal)?;
        let database = self.database();
        database
            .run(async {
                let mut tx = database.begin_write().await?;
                database
                    .lock(&mut tx, &format!("team_webhooks:{}", row.team_id))
                    .await?;
                let count = count(
                    sqlx::query("SELECT COUNT(*) FROM team_webhooks WHERE team_id = $1")
                        .bind(row.team_id.as_str()),
                    &mut *tx,
                )
                .await?;
                if count >= cap {
                    return Ok(CapCheck::CapReached { limit: cap });
                }
                sqlx::query(AssertSqlSafe(format!(
                    "INSERT INTO team_webhooks ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)"
                )))
                .bind(row.webhook_id.as_str())
                .bind(row.team_id.as_str())
                .bind(row.url.as_str())
                .bind(events)
                .bind(row.secret.as_str())
                .bind(row.created_by_user_id.as_str())
                .bind(time_text(row.created_at))
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok::<_, AppError>(CapCheck::Done(()))
            })
            .await
    }

    /// The team's webhooks, oldest first.
    pub async fn team_webhooks(&self, team_id: &str) -> AppResult<Vec<WebhookRow>> {
        let database = self.database();
        database
            .run(team_webhooks_on(database.pool(), team_id))
            .await
    }

    /// One webhook by id, whatever its team (for the delivery worker).
    pub async fn webhook(&self, webhook_id: &str) -> AppResult<Option<WebhookRow>> {
        let database = self.database();
        let row = database
            .run(
                sqlx::query(AssertSqlSafe(format!(
                    "SELECT {COLUMNS} FROM team_webhooks WHERE webhook_id = $1"
                )))
                .bind(webhook_id)
                .fetch_optional(database.pool()),
            )
            .await?;
        row.as_ref().map(read_row).transpose()
    }

    /// Removes a webhook of the team; false when the team has none with this id.
    /// Deliveries still pending for it fail when their turn comes.
    pub async fn delete_webhook(&self, team_id: &str, webhook_id: &str) -> AppResult<bool> {
        let database = self.database();
        let removed = database
            .run(
                sqlx::query("DELETE FROM team_webhooks WHERE team_id = $1 AND webhook_id = $2")
                    .bind(team_id)
                    .bind(webhook_id)
                    .execute(database.writer()),
            )
            .await?;
        Ok(removed.rows_affected() > 0)
    }
}

/// A new signing secret: `whsec_` and 32 random bytes in hex.
pub fn new_secret() -> String {
    format!("whsec_{}", hex(&rand::random::<[u8; 32]>()))
}

/// The hex HMAC-SHA256 of `"<timestamp>.<body>"` under `secret`.
pub fn signature_hex(secret: &str, timestamp: i64, body: &[u8]) -> String {
    // HMAC takes keys of any length, so this cannot fail.
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes())
        .unwrap_or_else(|_| unreachable!("hmac accepts any key length"));
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    hex(&mac.finalize().into_bytes())
}

/// The `X-Podlens-Signature` value for a body sent at `timestamp`.
pub fn signature_header(secret: &str, timestamp: i64, body: &[u8]) -> String {
    format!(
        "t={timestamp},v1={}",
        signature_hex(secret, timestamp, body)
    )
}

/// Why a webhook URL cannot be registered (the 400 message), or `None`.
pub fn url_problem(text: &str, policy: &AddressPolicy) -> Option<String> {
    if text.chars().count() > MAX_WEBHOOK_URL_CHARS {
        return Some(format!(
            "url must be at most {MAX_WEBHOOK_URL_CHARS} characters"
        ));
    }
    let Ok(url) = Url::parse(text) else {
        return Some(format!("url is not a valid URL: {text:?}"));
    };
    if !matches!(url.scheme(), "http" | "https") {
        return Some("url must be an http or https URL".into());
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Some("url must have a host".into());
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Some("url must not contain credentials".into());
    }
    if url.fragment().is_some() {
        return Some("url must not contain a fragment".into());
    }
    check_url(&url, policy).err().map(|refused| {
        format!(
            "url is not allowed: {} (this server only delivers to public addresses)",
            refused.reason
        )
    })
}

/// Why one attempt did not deliver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttemptFailure {
    /// Retrying cannot help (a refused target, a redirect, a deleted webhook).
    Permanent(String),
    /// Worth retrying (a timeout, a connection error, an error answer).
    Transient(String),
}

/// Posts deliveries through the address guard: no redirects, no environment proxies,
/// timeouts, a capped answer.
#[derive(Debug, Clone)]
pub struct WebhookSender {
    client: GuardedClient,
}

impl WebhookSender {
    pub fn new(policy: AddressPolicy) -> AppResult<WebhookSender> {
        let client = GuardedClient::build(policy, Redirects::Never, |builder| {
            builder
                .connect_timeout(CONNECT_TIMEOUT)
                .timeout(REQUEST_TIMEOUT)
                .user_agent(concat!("Podlens-Webhooks/", env!("CARGO_PKG_VERSION")))
        })
        .map_err(|error| AppError::Internal(format!("webhook client: {error}")))?;
        Ok(WebhookSender { client })
    }

    pub fn policy(&self) -> &AddressPolicy {
        self.client.policy()
    }

    /// Posts `body` to the webhook, signed now.
    pub async fn post(
        &self,
        webhook: &WebhookRow,
        delivery_id: &str,
        event: &str,
        body: Vec<u8>,
    ) -> Result<(), AttemptFailure> {
        let url = Url::parse(&webhook.url)
            .map_err(|error| AttemptFailure::Permanent(format!("bad webhook url: {error}")))?;
        let request = self
            .client
            .post(&url)
            .map_err(|refused| AttemptFailure::Permanent(refused.to_string()))?;
        let timestamp = chrono::Utc::now().timestamp();
        let signature = signature_header(&webhook.secret, timestamp, &body);
        let sent = request
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header(SIGNATURE_HEADER, signature)
            .header(DELIVERY_HEADER, delivery_id)
            .header(EVENT_HEADER, event)
            .body(body)
            .send()
            .await;
        let mut response = match sent {
            Ok(response) => response,
            Err(error) => {
                if let Some(refused) = Refused::find(&error) {
                    return Err(AttemptFailure::Permanent(refused.to_string()));
                }
                let kind = if error.is_timeout() {
                    "timed out"
                } else {
                    "failed"
                };
                return Err(AttemptFailure::Transient(format!(
                    "request {kind}: {error}"
                )));
            }
        };
        let status = response.status();
        if status.is_success() {
            return Ok(());
        }
        if status.is_redirection() {
            let location = response
                .headers()
                .get(reqwest::header::LOCATION)
                .and_then(|value| value.to_str().ok())
                .unwrap_or_default()
                .to_owned();
            return Err(AttemptFailure::Permanent(format!(
                "answered {status} to {location:?}: redirects are not followed"
            )));
        }
        let mut answer = Vec::new();
        while answer.len() < MAX_ANSWER_BYTES {
            match response.chunk().await {
                Ok(Some(chunk)) => answer.extend_from_slice(&chunk),
                Ok(None) | Err(_) => break,
            }
        }
        answer.truncate(MAX_ANSWER_BYTES);
        let quote: String = String::from_utf8_lossy(&answer)
            .chars()
            .take(ANSWER_QUOTE_CHARS)
            .collect();
        Err(AttemptFailure::Transient(format!(
            "answered {status}: {}",
            quote.trim()
        )))
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::workflows::store::tests::{at, memory_store};

    #[test]
    fn the_signature_is_the_hmac_of_the_timestamp_and_body() {
        // RFC 4231, test case 2: the hex encoding and the HMAC are the standard ones.
        let mut mac = Hmac::<Sha256>::new_from_slice(b"Jefe").unwrap();
        mac.update(b"what do ya want for nothing?");
        assert_eq!(
            hex(&mac.finalize().into_bytes()),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        // The signed text is "<t>.<body>", in one piece.
        let mut whole = Hmac::<Sha256>::new_from_slice(b"whsec_x").unwrap();
        whole.update(b"1700000000.{\"a\":1}");
        let expected = hex(&whole.finalize().into_bytes());
        assert_eq!(
            signature_header("whsec_x", 1_700_000_000, b"{\"a\":1}"),
            format!("t=1700000000,v1={expected}")
        );
        assert_ne!(
            signature_hex("whsec_y", 1_700_000_000, b"{\"a\":1}"),
            expected
        );
        assert_ne!(
            signature_hex("whsec_x", 1_700_000_001, b"{\"a\":1}"),
            expected
        );
    }

    #[test]
    fn secrets_are_random_and_long() {
        let (a, b) = (new_secret(), new_secret());
        assert_ne!(a, b);
        assert_eq!(a.len(), "whsec_".len() + 64);
    }

    #[test]
    fn urls_are_checked_for_shape_and_address() {
        let public = AddressPolicy::public_only();
        let open = AddressPolicy::allow_private();
        assert_eq!(
            url_problem("https://hooks.example.com/podlens", &public),
            None
        );
        assert!(
            url_problem("ftp://example.com/", &public)
                .unwrap()
                .contains("http or https")
        );
        assert!(
            url_problem("not a url", &public)
                .unwrap()
                .contains("not a valid URL")
        );
        assert!(
            url_problem("https://u:p@example.com/", &public)
                .unwrap()
                .contains("credentials")
        );
        assert!(
            url_problem("http://127.0.0.1:9/", &public)
                .unwrap()
                .contains("loopback")
        );
        assert!(
            url_problem("http://169.254.169.254/", &public)
                .unwrap()
                .contains("link-local")
        );
        assert!(url_problem("http://localhost/", &public).is_some());
        assert_eq!(url_problem("http://127.0.0.1:9/", &open), None);
        let long = format!("https://example.com/{}", "a".repeat(MAX_WEBHOOK_URL_CHARS));
        assert!(url_problem(&long, &public).unwrap().contains("at most"));
    }

    pub(in crate::workflows) fn webhook(id: &str, team_id: &str, second: i64) -> WebhookRow {
        WebhookRow {
            webhook_id: id.to_owned(),
            team_id: team_id.to_owned(),
            url: format!("https://hooks.example.com/{id}"),
            events: vec!["alert_match".to_owned()],
            secret: format!("whsec_{id}"),
            created_by_user_id: "u1".to_owned(),
            created_at: at(second),
        }
    }

    #[tokio::test]
    async fn webhooks_are_capped_per_team_and_listed_oldest_first() {
        let store = memory_store();
        for row in [webhook("w2", "t1", 2), webhook("w1", "t1", 1)] {
            assert_eq!(
                store.create_webhook(&row, 2).await.unwrap(),
                CapCheck::Done(())
            );
        }
        assert_eq!(
            store
                .create_webhook(&webhook("w3", "t1", 3), 2)
                .await
                .unwrap(),
            CapCheck::CapReached { limit: 2 }
        );
        assert_eq!(
            store
                .create_webhook(&webhook("w4", "t2", 4), 2)
                .await
                .unwrap(),
            CapCheck::Done(())
        );
        assert_eq!(
            store.team_webhooks("t1").await.unwrap(),
            [webhook("w1", "t1", 1), webhook("w2", "t1", 2)]
        );
        assert_eq!(
            store.webhook("w4").await.unwrap(),
            Some(webhook("w4", "t2", 4))
        );
        assert_eq!(store.webhook("w3").await.unwrap(), None);
        assert!(!store.delete_webhook("t2", "w1").await.unwrap());
        assert!(store.delete_webhook("t1", "w1").await.unwrap());
        assert_eq!(
            store.team_webhooks("t1").await.unwrap(),
            [webhook("w2", "t1", 2)]
        );
    }
}
