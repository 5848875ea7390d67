//! WebSub (W3C): feeds that declare a hub (`atom:link rel="hub"`) push their changes
//! to us, so a new episode is polled seconds after it is published instead of at the
//! feed's next scheduled poll.
//!
//! After a poll reads such a feed, the scheduler asks its hub for a subscription to
//! the feed's topic, with a callback `<public-url>/websub/<token>` (the token names
//! the subscription; it is random and unguessable), a secret and a ten-day lease; it
//! asks again a day before the lease ends. The hub verifies the intent with a GET on
//! the callback, which answers the challenge only for the token's own topic; then it
//! delivers each update with a POST signed with the secret (`X-Hub-Signature:
//! sha1=…`, or sha256/384/512). A correctly signed delivery makes the feed due at
//! once; a delivery that is unsigned or signed wrongly is acknowledged, as the
//! specification requires, and ignored. Without `--public-url`, hubs cannot reach the
//! server, and no subscription is asked for.

use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use podlens_model::catalog::FeedPolling;
use podlens_store::Subscription;
use uuid::Uuid;

use super::FeedScheduler;
use crate::error::{AppError, AppResult};

/// The lease asked for.
pub const LEASE_SECONDS: i64 = 10 * 86_400;
/// The longest lease a hub's verification is taken at (a year).
const MAX_LEASE_SECONDS: i64 = 365 * 86_400;
/// A subscription is renewed when its lease ends within this.
const RENEW_BEFORE: chrono::Duration = chrono::Duration::days(1);
/// A request the hub did not confirm is asked again after this.
const RETRY_UNCONFIRMED: chrono::Duration = chrono::Duration::hours(6);

/// Whether the feed needs a (new) subscription request now.
fn needs_request(
    existing: Option<&Subscription>,
    polling: &FeedPolling,
    now: DateTime<Utc>,
) -> bool {
    let (Some(hub), Some(topic)) = (&polling.hub, &polling.topic) else {
        return false;
    };
    match existing {
        None => true,
        Some(subscription) if &subscription.hub != hub || &subscription.topic != topic => true,
        Some(subscription) => match subscription.state.as_str() {
            "active" => subscription
                .lease_expires_at
                .is_none_or(|end| end - now < RENEW_BEFORE),
            "requested" => now - subscription.requested_at > RETRY_UNCONFIRMED,
            // A hub that denied is asked again only after a while too.
            _ => now - subscription.requested_at > RETRY_UNCONFIRMED * 4,
        },
    }
}

/// What asking a hub for a subscription came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HubRequest {
    /// The hub accepted the request (it verifies the intent next).
    Accepted,
    /// The hub answered with this error status.
    Refused(u16),
    /// The hub could not be reached.
    Failed(String),
    /// The address guard refused the hub's URL (a private, loopback or link-local
    /// address, a literal or a name resolving to one, or not http): nothing was sent.
    Forbidden(String),
}

/// Asks the hubs of `feeds` for subscriptions where one is needed; what each request
/// came to, by podcast. Failures are logged: the feed is polled on its schedule
/// meanwhile. A hub is named by the feed, so it is reached through the address guard
/// like the feed itself.
pub async fn subscribe_all(
    scheduler: &FeedScheduler,
    feeds: Vec<(Uuid, FeedPolling)>,
) -> Vec<(Uuid, HubRequest)> {
    let mut outcomes = Vec::new();
    let Some(public_url) = scheduler.public_url().map(str::to_owned) else {
        return outcomes;
    };
    let client = match podlens_ingest::fetch::build_client(&scheduler.http()) {
        Ok(client) => client,
        Err(error) => {
            tracing::warn!(%error, "cannot build the WebSub client");
            return outcomes;
        }
    };
    for (podcast_id, polling) in feeds {
        let database = scheduler.database().clone();
        let id = podcast_id.to_string();
        let now = Utc::now();
        let existing = match database.subscription_of(&id).await {
            Ok(existing) => existing,
            Err(_) => continue,
        };
        if !needs_request(existing.as_ref(), &polling, now) {
            continue;
        }
        let (Some(hub), Some(topic)) = (polling.hub.clone(), polling.topic.clone()) else {
            continue;
        };
        let subscription = Subscription {
            podcast_id: id,
            hub: hub.clone(),
            topic: topic.clone(),
            callback_token: crate::accounts::keys::random_token(),
            secret: crate::accounts::keys::random_token(),
            state: "requested".to_owned(),
            requested_at: now,
            lease_expires_at: None,
        };
        if database.save_subscription(&subscription).await.is_err() {
            tracing::warn!(%podcast_id, "cannot record a WebSub subscription request");
            continue;
        }
        let callback = format!("{public_url}/websub/{}", subscription.callback_token);
        let lease = LEASE_SECONDS.to_string();
        let form = [
            ("hub.mode", "subscribe"),
            ("hub.topic", topic.as_str()),
            ("hub.callback", callback.as_str()),
            ("hub.secret", subscription.secret.as_str()),
            ("hub.lease_seconds", lease.as_str()),
        ];
        let outcome = match ask_hub(&client, &hub, &form).await {
            HubRequest::Accepted => {
                tracing::debug!(%podcast_id, %hub, "asked the hub for a WebSub subscription");
                HubRequest::Accepted
            }
            HubRequest::Refused(status) => {
                tracing::info!(%podcast_id, %hub, status, "the WebSub hub refused the subscription; the feed is polled");
                HubRequest::Refused(status)
            }
            HubRequest::Failed(error) => {
                tracing::info!(%podcast_id, %hub, %error, "cannot reach the WebSub hub; the feed is polled");
                HubRequest::Failed(error)
            }
            HubRequest::Forbidden(reason) => {
                tracing::warn!(%podcast_id, %hub, %reason, "the feed's WebSub hub is not a public address; the feed is polled");
                HubRequest::Forbidden(reason)
            }
        };
        let label = match &outcome {
            HubRequest::Accepted => "accepted",
            HubRequest::Refused(_) => "refused",
            HubRequest::Failed(_) => "failed",
            HubRequest::Forbidden(_) => "forbidden",
        };
        metrics::counter!("podlens_websub_requests_total", "outcome" => label).increment(1);
        outcomes.push((podcast_id, outcome));
    }
    outcomes
}

/// Posts the subscription request `form` to `hub` through the guarded client.
async fn ask_hub(
    client: &podlens_netguard::GuardedClient,
    hub: &str,
    form: &[(&str, &str)],
) -> HubRequest {
    let url = match url::Url::parse(hub) {
        Ok(url) => url,
        Err(error) => return HubRequest::Forbidden(format!("not a URL: {error}")),
    };
    let request = match client.post(&url) {
        Ok(request) => request,
        Err(refused) => return HubRequest::Forbidden(refused.to_string()),
    };
    match request.form(form).send().await {
        Ok(response) if response.status().is_success() => HubRequest::Accepted,
        Ok(response) => HubRequest::Refused(response.status().as_u16()),
        Err(error) => match podlens_netguard::Refused::find(&error) {
            Some(refused) => HubRequest::Forbidden(refused.to_string()),
            None => HubRequest::Failed(error.to_string()),
        },
    }
}

/// A hub's verification of intent (`GET` on the callback).
#[derive(Debug, Clone, Default)]
pub struct Verification {
    pub mode: String,
    pub topic: String,
    pub challenge: Option<String>,
    pub lease_seconds: Option<i64>,
    pub reason: Option<String>,
}

/// Answers a hub's verification: the challenge to echo when the token names a
/// subscription to `topic` (recording it active, unsubscribed or denied); not found
/// otherwise.
pub async fn verify(
    scheduler: &FeedScheduler,
    token: &str,
    verification: &Verification,
) -> AppResult<String> {
    let database = scheduler.database();
    let not_found = || AppError::NotFound("Unknown subscription".to_owned());
    let subscription = database
        .subscription_by_token(token)
        .await?
        .ok_or_else(not_found)?;
    if subscription.topic != verification.topic {
        return Err(not_found());
    }
    let now = Utc::now();
    match verification.mode.as_str() {
        "subscribe" => {
            let lease = verification
                .lease_seconds
                .filter(|&seconds| seconds > 0)
                .unwrap_or(LEASE_SECONDS);
            // A hub's lease past the representable times (2^63 - 1 seconds) panicked:
            // a lease is kept at most a year, and renewed before its end anyway.
            let lease = lease.min(MAX_LEASE_SECONDS);
            database
                .set_subscription_state(
                    token,
                    "active",
                    Some(now + chrono::Duration::seconds(lease)),
                )
                .await?;
            tracing::info!(podcast_id = %subscription.podcast_id, hub = %subscription.hub, lease, "WebSub subscription confirmed");
        }
        "unsubscribe" => {
            database
                .set_subscription_state(token, "unsubscribed", None)
                .await?
        }
        "denied" => {
            database
                .set_subscription_state(token, "denied", None)
                .await?;
            tracing::info!(podcast_id = %subscription.podcast_id, hub = %subscription.hub, reason = ?verification.reason, "the WebSub hub denied the subscription");
            return Ok(String::new());
        }
        _ => return Err(AppError::Invalid("Unknown hub.mode".to_owned())),
    }
    verification
        .challenge
        .clone()
        .ok_or_else(|| AppError::Invalid("Missing hub.challenge".to_owned()))
}

/// Whether `signature` (`sha256=<hex>`) is `body` signed with `secret`.
pub fn signature_matches(secret: &str, body: &[u8], signature: &str) -> bool {
    let Some((method, hex)) = signature.trim().split_once('=') else {
        return false;
    };
    let Some(expected) = crate::accounts::keys::from_hex(hex.trim()) else {
        return false;
    };
    fn check<M: Mac + hmac::digest::KeyInit>(secret: &str, body: &[u8], expected: &[u8]) -> bool {
        match <M as hmac::digest::KeyInit>::new_from_slice(secret.as_bytes()) {
            Ok(mut mac) => {
                mac.update(body);
                mac.verify_slice(expected).is_ok()
            }
            Err(_) => false,
        }
    }
    match method.trim().to_ascii_lowercase().as_str() {
        "sha1" => check::<Hmac<sha1::Sha1>>(secret, body, &expected),
        "sha256" => check::<Hmac<sha2::Sha256>>(secret, body, &expected),
        "sha384" => check::<Hmac<sha2::Sha384>>(secret, body, &expected),
        "sha512" => check::<Hmac<sha2::Sha512>>(secret, body, &expected),
        _ => false,
    }
}

/// What a delivery did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// Signed correctly: the feed is due now.
    Accepted,
    /// Unsigned or signed wrongly: acknowledged and ignored.
    Ignored,
}

/// A hub's content delivery (`POST` on the callback). Not found for an unknown token
/// or a subscription that is not active. The signature of a body of up to 16 MB is
/// checked on a blocking thread.
pub async fn deliver<B>(
    scheduler: &FeedScheduler,
    token: &str,
    body: B,
    signature: Option<String>,
) -> AppResult<Delivery>
where
    B: AsRef<[u8]> + Send + 'static,
{
    let database = scheduler.database();
    let subscription = database
        .subscription_by_token(token)
        .await?
        .filter(|subscription| subscription.state == "active")
        .ok_or_else(|| AppError::NotFound("Unknown subscription".to_owned()))?;
    let secret = subscription.secret.clone();
    let signed =
        crate::runtime::blocking(move || {
            Ok(signature
                .is_some_and(|signature| signature_matches(&secret, body.as_ref(), &signature)))
        })
        .await?;
    if !signed {
        metrics::counter!("podlens_websub_deliveries_total", "outcome" => "ignored").increment(1);
        tracing::info!(podcast_id = %subscription.podcast_id, "ignored a WebSub delivery without a valid signature");
        return Ok(Delivery::Ignored);
    }
    database
        .push_feed(&subscription.podcast_id, Utc::now())
        .await?;
    metrics::counter!("podlens_websub_deliveries_total", "outcome" => "accepted").increment(1);
    Ok(Delivery::Accepted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn hmac_hex<M: Mac + hmac::digest::KeyInit>(secret: &str, body: &[u8]) -> String {
        let mut mac = <M as hmac::digest::KeyInit>::new_from_slice(secret.as_bytes()).unwrap();
        mac.update(body);
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    #[test]
    fn signatures_are_checked_with_every_method_the_specification_names() {
        let body = b"<rss>new episode</rss>";
        // RFC 2202's HMAC-SHA1 case 2 pins the SHA-1 method independently.
        assert!(signature_matches(
            "Jefe",
            b"what do ya want for nothing?",
            "sha1=effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"
        ));
        let sha256 = hmac_hex::<Hmac<sha2::Sha256>>("s3cret", body);
        assert!(signature_matches(
            "s3cret",
            body,
            &format!("sha256={sha256}")
        ));
        assert!(signature_matches(
            "s3cret",
            body,
            &format!("SHA256={}", sha256.to_uppercase())
        ));
        assert!(!signature_matches(
            "other",
            body,
            &format!("sha256={sha256}")
        ));
        assert!(!signature_matches(
            "s3cret",
            b"tampered",
            &format!("sha256={sha256}")
        ));
        let sha512 = hmac_hex::<Hmac<sha2::Sha512>>("s3cret", body);
        assert!(signature_matches(
            "s3cret",
            body,
            &format!("sha512={sha512}")
        ));
        for bad in [
            "",
            "sha256",
            "md5=00",
            "sha256=zz",
            "sha256=abc",
            "sha256=é",
        ] {
            assert!(!signature_matches("s3cret", body, bad), "{bad:?}");
        }
    }

    /// A loopback server at `address` that counts the connections it accepts and
    /// answers each with 202.
    async fn counting_hub(address: &str) -> (String, Arc<AtomicUsize>) {
        let listener = tokio::net::TcpListener::bind(address).await.unwrap();
        let bound = listener.local_addr().unwrap();
        let connections = Arc::new(AtomicUsize::new(0));
        let counted = connections.clone();
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                counted.fetch_add(1, Ordering::SeqCst);
                tokio::spawn(async move {
                    use tokio::io::{AsyncReadExt, AsyncWriteExt};
                    let mut buffer = vec![0; 4096];
                    let _ = stream.read(&mut buffer).await;
                    let _ = stream
                        .write_all(b"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                        .await;
                });
            }
        });
        (bound.to_string(), connections)
    }

    /// The hub a feed names used to be posted to after a check of its scheme alone: an
    /// address literal never reaches the guarded resolver, so a feed could make the
    /// server POST to the cloud metadata address or to loopback.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn websub_hubs_at_private_address_literals_are_never_contacted() {
        let (allowed, allowed_hits) = counting_hub("127.0.0.1:0").await;
        // Another loopback address, not the one the policy lets through.
        let (forbidden, forbidden_hits) = counting_hub("127.0.0.2:0").await;
        let forbidden_port = forbidden.rsplit(':').next().unwrap().to_owned();
        let database = Arc::new(podlens_store::Database::for_tests().unwrap());
        let scheduler = FeedScheduler::new(database, true)
            .with_http(podlens_ingest::fetch::HttpConfig {
                allowed_addresses: vec![std::net::Ipv4Addr::LOCALHOST.into()],
                retries: 0,
                ..podlens_ingest::fetch::HttpConfig::default()
            })
            .with_public_url(Some("https://podlens.example.com".into()));
        let hubs = [
            format!("http://{allowed}/hub"),
            format!("http://{forbidden}/hub"),
            // 127.0.0.2 spelt as one number.
            format!("http://2130706434:{forbidden_port}/hub"),
            format!("http://[::ffff:127.0.0.2]:{forbidden_port}/hub"),
            "http://169.254.169.254/latest/meta-data/".to_owned(),
            "http://[::1]:9/hub".to_owned(),
            format!("http://localhost:{forbidden_port}/hub"),
            "file:///etc/passwd".to_owned(),
        ];
        let feeds: Vec<(Uuid, FeedPolling)> = hubs
            .iter()
            .map(|hub| {
                let polling = FeedPolling {
                    hub: Some(hub.clone()),
                    topic: Some("https://feeds.example.com/show.xml".into()),
                    ..FeedPolling::default()
                };
                (Uuid::new_v4(), polling)
            })
            .collect();
        let ids: Vec<Uuid> = feeds.iter().map(|(id, _)| *id).collect();
        let outcomes = subscribe_all(&scheduler, feeds).await;
        assert_eq!(outcomes.len(), hubs.len(), "{outcomes:?}");
        assert_eq!(outcomes[0], (ids[0], HubRequest::Accepted));
        for ((id, outcome), hub) in outcomes.iter().zip(&hubs).skip(1) {
            assert!(
                matches!(outcome, HubRequest::Forbidden(_)),
                "{hub}: {outcome:?}"
            );
            assert!(ids.contains(id));
        }
        assert_eq!(allowed_hits.load(Ordering::SeqCst), 1);
        assert_eq!(
            forbidden_hits.load(Ordering::SeqCst),
            0,
            "a forbidden hub was reached"
        );
    }

    /// A hub confirming with `hub.lease_seconds` of 2^63 - 1 made the lease's end
    /// overflow (a panic, answered 500); the lease is kept a year at most.
    #[tokio::test]
    async fn a_lease_of_i64_max_seconds_is_kept_a_year_not_a_panic() {
        let database = Arc::new(podlens_store::Database::for_tests().unwrap());
        let scheduler = FeedScheduler::new(database.clone(), true);
        let now = Utc::now();
        database
            .save_subscription(&Subscription {
                podcast_id: Uuid::new_v4().to_string(),
                hub: "https://hub.example.com/".into(),
                topic: "https://feeds.example.com/show.xml".into(),
                callback_token: "token-1".into(),
                secret: "secret".into(),
                state: "requested".into(),
                requested_at: now,
                lease_expires_at: None,
            })
            .await
            .unwrap();
        for lease in [i64::MAX, i64::MAX / 1000, 400 * 86_400] {
            let verification = Verification {
                mode: "subscribe".into(),
                topic: "https://feeds.example.com/show.xml".into(),
                challenge: Some("c-1".into()),
                lease_seconds: Some(lease),
                reason: None,
            };
            assert_eq!(
                verify(&scheduler, "token-1", &verification).await.unwrap(),
                "c-1"
            );
            let end = database
                .subscription_by_token("token-1")
                .await
                .unwrap()
                .unwrap()
                .lease_expires_at
                .unwrap();
            let kept = (end - now).num_days();
            assert!((365..=366).contains(&kept), "{lease}: {kept} days");
        }
    }

    #[test]
    fn a_subscription_is_asked_for_when_missing_moved_expiring_or_long_unconfirmed() {
        let now = Utc::now();
        let polling = FeedPolling {
            hub: Some("https://hub.example.test/".into()),
            topic: Some("https://feeds.example.test/a.xml".into()),
            ..FeedPolling::default()
        };
        let active = Subscription {
            podcast_id: "a".into(),
            hub: "https://hub.example.test/".into(),
            topic: "https://feeds.example.test/a.xml".into(),
            callback_token: "t".into(),
            secret: "s".into(),
            state: "active".into(),
            requested_at: now - chrono::Duration::days(3),
            lease_expires_at: Some(now + chrono::Duration::days(7)),
        };
        assert!(needs_request(None, &polling, now));
        assert!(!needs_request(None, &FeedPolling::default(), now));
        assert!(!needs_request(Some(&active), &polling, now));
        let expiring = Subscription {
            lease_expires_at: Some(now + chrono::Duration::hours(12)),
            ..active.clone()
        };
        assert!(needs_request(Some(&expiring), &polling, now));
        let moved = Subscription {
            hub: "https://other-hub.example.test/".into(),
            ..active.clone()
        };
        assert!(needs_request(Some(&moved), &polling, now));
        let pending = Subscription {
            state: "requested".into(),
            requested_at: now - chrono::Duration::hours(1),
            ..active.clone()
        };
        assert!(!needs_request(Some(&pending), &polling, now));
        let stale = Subscription {
            requested_at: now - chrono::Duration::hours(7),
            ..pending
        };
        assert!(needs_request(Some(&stale), &polling, now));
    }
}
