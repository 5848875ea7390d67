//! Alert deliveries over real HTTP on loopback: team webhooks registered through the
//! API receive each new match signed with their secret (verified here with hmac,
//! independently of the server's signing code); a failing receiver gets retries with
//! the same delivery id until it answers, or until the bounded attempts end the
//! delivery `failed`; private targets are refused unless allowed; webhooks are team
//! scoped; the outbox gets one message per delivery.

mod common;
mod workflows_http;

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use hmac::{Hmac, Mac};
use podlens_api::AppState;
use podlens_app::workflows::delivery::{Delivery, DeliveryWorker, RetryPolicy};
use podlens_netguard::AddressPolicy;
use serde_json::{Value, json};
use sha2::Sha256;
use workflows_http::{Http, start_with};

/// One request the receiver got.
#[derive(Debug, Clone)]
struct Received {
    headers: HeaderMap,
    body: Vec<u8>,
}

impl Received {
    fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("the body is JSON")
    }
}

/// A webhook receiver on loopback answering each request with the next status of
/// `script` (the last one repeated).
#[derive(Clone)]
struct Receiver {
    address: SocketAddr,
    received: Arc<Mutex<Vec<Received>>>,
}

impl Receiver {
    async fn start(script: Vec<u16>) -> Receiver {
        let received: Arc<Mutex<Vec<Received>>> = Arc::default();
        let log = Arc::clone(&received);
        let app = axum::Router::new().route(
            "/hook",
            axum::routing::post(move |headers: HeaderMap, body: Bytes| {
                let log = Arc::clone(&log);
                let script = script.clone();
                async move {
                    let mut log = log.lock().unwrap();
                    let status = script[log.len().min(script.len() - 1)];
                    log.push(Received {
                        headers,
                        body: body.to_vec(),
                    });
                    (StatusCode::from_u16(status).unwrap(), "receiver says hi")
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Receiver { address, received }
    }

    fn url(&self) -> String {
        format!("http://{}/hook", self.address)
    }

    fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    async fn wait_for(&self, count: usize) -> Vec<Received> {
        for _ in 0..600 {
            let received = self.received();
            if received.len() >= count {
                return received;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the receiver never got {count} requests");
    }
}

/// Verifies `X-Podlens-Signature` as docs/webhooks.md tells receivers to.
fn signature_valid(secret: &str, received: &Received) -> bool {
    let header = received.header("x-podlens-signature");
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.split_once('=') {
            Some(("t", value)) => timestamp = Some(value.to_owned()),
            Some(("v1", value)) => signatures.push(value.to_owned()),
            _ => {}
        }
    }
    let Some(timestamp) = timestamp else {
        return false;
    };
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(&received.body);
    let expected: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    signatures.contains(&expected)
}

const FAST_RETRY: RetryPolicy = RetryPolicy {
    max_attempts: 3,
    first_backoff: Duration::from_millis(100),
    max_backoff: Duration::from_millis(400),
};

fn worker(policy: AddressPolicy) -> Arc<DeliveryWorker> {
    Arc::new(DeliveryWorker::new(policy).unwrap().with_retry(FAST_RETRY))
}

/// A server whose webhooks may go to 127.0.0.1 only (as `--allow-private` would
/// allow, but no wider), with fast retries.
async fn server() -> Http {
    start_with(|state: &mut AppState| {
        state.deliveries = worker(AddressPolicy {
            allow_private: false,
            allowed_addresses: vec!["127.0.0.1".parse().unwrap()],
        });
    })
    .await
}

async fn register(http: &Http, key: &str, url: &str) -> (String, String) {
    let answer = http
        .post(
            "/api/v1/teams/webhooks",
            key,
            json!({"url": url, "events": ["alert_match"]}),
        )
        .await;
    let data = answer.data();
    (
        data["webhook"]["webhookId"].as_str().unwrap().to_owned(),
        data["secret"].as_str().unwrap().to_owned(),
    )
}

async fn create_alert(http: &Http, key: &str, value: &str) -> String {
    let answer = http
        .post(
            "/api/v1/alerts/alert-config",
            key,
            json!({"alertName": format!("{value} watch"), "alertType": "custom-keyword", "value": value}),
        )
        .await;
    answer.data()["createdAlertConfig"]["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The ids of the alert's stored matches that passed its filters.
async fn kept_match_ids(http: &Http, key: &str, alert_id: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for page in 1.. {
        let answer = http
            .get(
                &format!(
                    "/api/v1/alerts/matches?alertConfigId={alert_id}&page={page}&pageSize=100"
                ),
                key,
            )
            .await;
        let items = answer.data()["matches"].as_array().unwrap().clone();
        if items.is_empty() {
            break;
        }
        ids.extend(
            items
                .iter()
                .filter(|m| m["status"] == "kept")
                .map(|m| m["id"].as_str().unwrap().to_owned()),
        );
    }
    ids
}

async fn deliveries(http: &Http, alert_id: &str) -> Vec<Delivery> {
    http.state
        .workflows
        .alert_deliveries(alert_id)
        .await
        .unwrap()
}

/// Waits until every webhook delivery of the alert is `sent` or `failed`.
async fn settled_webhook_deliveries(http: &Http, alert_id: &str) -> Vec<Delivery> {
    for _ in 0..600 {
        let all: Vec<Delivery> = deliveries(http, alert_id)
            .await
            .into_iter()
            .filter(|d| d.channel == "webhook")
            .collect();
        if !all.is_empty()
            && all
                .iter()
                .all(|d| d.status == "sent" || d.status == "failed")
        {
            return all;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the webhook deliveries never settled");
}

#[tokio::test]
async fn each_new_match_reaches_the_webhook_signed_with_its_secret_and_by_mail() {
    let http = server().await;
    let receiver = Receiver::start(vec![200]).await;
    let key = http.key("deliver-signed@example.com", "business");
    let (webhook_id, secret) = register(&http, &key, &receiver.url()).await;
    assert!(secret.starts_with("whsec_"));
    let alert_id = create_alert(&http, &key, "Linux").await;

    let received = receiver.wait_for(1).await;
    let delivered = settled_webhook_deliveries(&http, &alert_id).await;
    assert_eq!(delivered.len(), 1, "one delivery per alert run and webhook");
    assert_eq!(delivered[0].status, "sent");
    assert_eq!(delivered[0].target, webhook_id);
    assert_eq!(receiver.received().len(), 1, "sent once");

    let request = &received[0];
    assert!(signature_valid(&secret, request), "the signature verifies");
    assert!(
        !signature_valid("whsec_not-the-secret", request),
        "another secret does not verify"
    );
    let mut tampered = request.clone();
    tampered.body.push(b' ');
    assert!(
        !signature_valid(&secret, &tampered),
        "a changed body does not verify"
    );

    let body = request.json();
    let delivery_id = request.header("x-podlens-delivery");
    assert_eq!(delivery_id, delivered[0].delivery_id);
    assert_eq!(body["id"], delivery_id);
    assert_eq!(body["event"], "alert_match");
    assert_eq!(request.header("x-podlens-event"), "alert_match");
    assert_eq!(body["data"]["alertConfig"]["id"], alert_id.as_str());
    // Every kept match of the run is in the delivery, and nothing else.
    let in_body: BTreeSet<String> = body["data"]["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap().to_owned())
        .collect();
    let stored = kept_match_ids(&http, &key, &alert_id).await;
    assert!(stored.len() > 20, "the fixture has many Linux episodes");
    assert_eq!(in_body, stored);
    for m in body["data"]["matches"].as_array().unwrap() {
        assert!(
            m["mentions"]
                .as_array()
                .is_some_and(|mentions| !mentions.is_empty())
        );
    }

    // The creator was mailed once, under the delivery's id.
    let mails: Vec<Delivery> = deliveries(&http, &alert_id)
        .await
        .into_iter()
        .filter(|d| d.channel == "email")
        .collect();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].target, "deliver-signed@example.com");
    assert_eq!(mails[0].status, "sent");
    let outbox = podlens_app::mail::Outbox::in_data_dir(&http.state.data_dir);
    let files = outbox.messages().unwrap();
    let ours: Vec<_> = files
        .iter()
        .filter(|path| path.to_string_lossy().contains(&mails[0].delivery_id))
        .collect();
    assert_eq!(ours.len(), 1, "{files:?}");
    let text = std::fs::read_to_string(ours[0]).unwrap();
    assert!(text.contains(&format!(
        "Message-ID: <{}@podlens.local>",
        mails[0].delivery_id
    )));
    assert!(
        text.contains(&format!("matched {} new episodes", stored.len())),
        "{text}"
    );

    // A second run matches nothing new and delivers nothing.
    let state = http.state.clone();
    let (report, _) = podlens_app::services::jobs::run_alerts(&state)
        .await
        .unwrap();
    assert_eq!(report.new_matches, 0);
    assert_eq!(deliveries(&http, &alert_id).await.len(), 2);
    assert_eq!(receiver.received().len(), 1);
}

#[tokio::test]
async fn a_failed_delivery_is_retried_with_the_same_id_until_it_is_accepted() {
    let http = server().await;
    let receiver = Receiver::start(vec![500, 200]).await;
    let key = http.key("deliver-retry@example.com", "business");
    let (_, secret) = register(&http, &key, &receiver.url()).await;
    let alert_id = create_alert(&http, &key, "Linux").await;

    let received = receiver.wait_for(2).await;
    let delivered = settled_webhook_deliveries(&http, &alert_id).await;
    assert_eq!(delivered.len(), 1);
    assert_eq!(delivered[0].status, "sent");
    assert_eq!(delivered[0].attempts, 2);
    assert_eq!(received.len(), 2, "one retry after the 500");
    let id = &delivered[0].delivery_id;
    for request in &received {
        assert_eq!(request.header("x-podlens-delivery"), id);
        assert_eq!(request.json()["id"], id.as_str());
        assert!(signature_valid(&secret, request));
    }
    assert_eq!(
        received[0].body, received[1].body,
        "the same body is sent again"
    );
}

#[tokio::test]
async fn a_receiver_that_never_accepts_ends_failed_after_the_bounded_attempts() {
    let http = server().await;
    let receiver = Receiver::start(vec![500]).await;
    let key = http.key("deliver-fail@example.com", "business");
    register(&http, &key, &receiver.url()).await;
    let alert_id = create_alert(&http, &key, "Linux").await;

    let delivered = settled_webhook_deliveries(&http, &alert_id).await;
    assert_eq!(delivered.len(), 1);
    let delivery = &delivered[0];
    assert_eq!(delivery.status, "failed");
    assert_eq!(delivery.attempts, FAST_RETRY.max_attempts);
    let error = delivery.last_error.as_deref().unwrap();
    assert!(error.contains("answered 500"), "{error}");
    assert!(error.contains("receiver says hi"), "{error}");
    // No further attempt after the last.
    tokio::time::sleep(FAST_RETRY.max_backoff * 2).await;
    let received = receiver.received();
    assert_eq!(received.len(), FAST_RETRY.max_attempts as usize);
    assert!(
        received
            .iter()
            .all(|r| r.header("x-podlens-delivery") == delivery.delivery_id)
    );
}

/// This machine's host name when it resolves only to non-public addresses (as in
/// most containers); it is not an obviously local name, so only the check after
/// resolution can refuse it.
fn host_name_resolving_privately() -> Option<String> {
    use std::net::ToSocketAddrs;
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname").ok()?;
    let name = name.trim().to_owned();
    let addresses: Vec<SocketAddr> = (name.as_str(), 80).to_socket_addrs().ok()?.collect();
    let all_loopback = !addresses.is_empty() && addresses.iter().all(|a| a.ip().is_loopback());
    (all_loopback && !name.contains('.')).then_some(name)
}

#[tokio::test]
async fn private_targets_are_refused_by_default_and_allowed_when_opted_in() {
    let http = start_with(|_| {}).await;
    let receiver = Receiver::start(vec![200]).await;
    let key = http.key("deliver-private@example.com", "business");

    // Registration refuses an address literal that is not public.
    for url in [
        receiver.url(),
        "http://169.254.169.254/latest/meta-data".to_owned(),
        "http://[::1]:9/hook".to_owned(),
        "http://localhost:9/hook".to_owned(),
    ] {
        let answer = http
            .post(
                "/api/v1/teams/webhooks",
                &key,
                json!({"url": url, "events": ["alert_match"]}),
            )
            .await;
        assert_eq!(answer.status, 400, "{url}: {}", answer.body);
        assert!(
            answer.message().contains("url is not allowed"),
            "{}",
            answer.message()
        );
    }

    // Webhooks stored while their target was acceptable (here: written directly) are
    // refused at delivery: the address literal before connecting, a host name after
    // it resolves.
    let account =
        podlens_app::runtime::block_on_own_thread(http.state.accounts.account_for_key(&key))
            .expect("the key's account")
            .expect("an account");
    let mut targets = vec![receiver.url()];
    if let Some(name) = host_name_resolving_privately() {
        targets.push(format!("http://{name}:{}/hook", receiver.address.port()));
    } else {
        eprintln!("no host name resolving to loopback here: only the literal is checked");
    }
    for url in &targets {
        let row = podlens_app::workflows::webhooks::WebhookRow {
            webhook_id: uuid::Uuid::new_v4().to_string(),
            team_id: account.team_id.clone(),
            url: url.clone(),
            events: vec!["alert_match".into()],
            secret: "whsec_test".into(),
            created_by_user_id: account.user_id.clone(),
            created_at: chrono::Utc::now(),
        };
        http.state.workflows.create_webhook(&row, 10).await.unwrap();
    }
    let alert_id = create_alert(&http, &key, "Linux").await;
    let delivered = settled_webhook_deliveries(&http, &alert_id).await;
    assert_eq!(delivered.len(), targets.len());
    for delivery in &delivered {
        assert_eq!(delivery.status, "failed", "{delivery:?}");
        assert_eq!(delivery.attempts, 1, "a refusal is not retried");
        let error = delivery.last_error.as_deref().unwrap();
        assert!(error.starts_with("refusing to fetch"), "{error}");
        assert!(
            error.contains("loopback") || error.contains("non-public"),
            "{error}"
        );
    }
    assert!(
        receiver.received().is_empty(),
        "the receiver got no request"
    );

    // With private addresses allowed (`podlens serve --allow-private`), the same
    // receiver is registered and served.
    let open = start_with(|state: &mut AppState| {
        state.deliveries = worker(AddressPolicy::allow_private());
    })
    .await;
    let key = open.key("deliver-private-open@example.com", "business");
    let (_, secret) = register(&open, &key, &receiver.url()).await;
    let alert_id = create_alert(&open, &key, "Linux").await;
    let received = receiver.wait_for(1).await;
    assert!(signature_valid(&secret, &received[0]));
    let delivered = settled_webhook_deliveries(&open, &alert_id).await;
    assert_eq!(delivered[0].status, "sent");
}

#[tokio::test]
async fn webhooks_belong_to_their_team() {
    let http = server().await;
    let receiver_a = Receiver::start(vec![200]).await;
    let receiver_b = Receiver::start(vec![200]).await;
    let key_a = http.key("hooks-team-a@example.com", "business");
    let key_b = http.key("hooks-team-b@example.com", "business");
    let (hook_a, secret_a) = register(&http, &key_a, &receiver_a.url()).await;

    let list_b = http.get("/api/v1/teams/webhooks", &key_b).await;
    assert_eq!(list_b.data()["webhooks"], json!([]));
    let list_a = http.get("/api/v1/teams/webhooks", &key_a).await;
    let hooks = list_a.data()["webhooks"].as_array().unwrap().clone();
    assert_eq!(hooks.len(), 1);
    assert_eq!(hooks[0]["webhookId"], hook_a.as_str());
    assert_eq!(hooks[0]["url"], receiver_a.url().as_str());
    assert!(
        !list_a
            .bytes
            .windows(secret_a.len())
            .any(|w| w == secret_a.as_bytes()),
        "the list never shows the secret"
    );

    let stolen = http
        .call(
            "DELETE",
            &format!("/api/v1/teams/webhooks/{hook_a}"),
            &key_b,
            None,
        )
        .await;
    assert_eq!(stolen.status, 404, "{}", stolen.body);
    assert_eq!(stolen.message(), format!("Webhook not found: {hook_a}"));
    let peek = http
        .get(
            &format!("/api/v1/teams/webhooks/{hook_a}/deliveries"),
            &key_b,
        )
        .await;
    assert_eq!(peek.status, 404, "another team's deliveries are not shown");

    // Team B's alert is delivered to team B's webhook only.
    let (_, secret_b) = register(&http, &key_b, &receiver_b.url()).await;
    let alert_b = create_alert(&http, &key_b, "Linux").await;
    let received = receiver_b.wait_for(1).await;
    assert!(signature_valid(&secret_b, &received[0]));
    settled_webhook_deliveries(&http, &alert_b).await;
    assert!(
        receiver_a.received().is_empty(),
        "team A's webhook got team B's matches"
    );

    let deleted = http
        .call(
            "DELETE",
            &format!("/api/v1/teams/webhooks/{hook_a}"),
            &key_a,
            None,
        )
        .await;
    assert_eq!(deleted.data()["webhookId"], hook_a.as_str());
    let again = http
        .call(
            "DELETE",
            &format!("/api/v1/teams/webhooks/{hook_a}"),
            &key_a,
            None,
        )
        .await;
    assert_eq!(again.status, 404);
}

#[tokio::test]
async fn bad_registrations_get_clear_messages() {
    let http = server().await;
    let key = http.key("hooks-bad@example.com", "business");
    for (body, message) in [
        (json!({"events": ["alert_match"]}), "url is required"),
        (
            json!({"url": "  ", "events": ["alert_match"]}),
            "url is required",
        ),
        (
            json!({"url": 7, "events": ["alert_match"]}),
            "url must be a string",
        ),
        (
            json!({"url": "ftp://example.com/x", "events": ["alert_match"]}),
            "url must be an http or https URL",
        ),
        (
            json!({"url": "https://u:p@example.com/x", "events": ["alert_match"]}),
            "url must not contain credentials",
        ),
        (
            json!({"url": "https://example.com/x"}),
            "events is required",
        ),
        (
            json!({"url": "https://example.com/x", "events": []}),
            "events must name at least one event",
        ),
        (
            json!({"url": "https://example.com/x", "events": "alert_match"}),
            "events must be a list of strings",
        ),
        (
            json!({"url": "https://example.com/x", "events": ["ping"]}),
            "Invalid event \"ping\"; expected one of alert_match",
        ),
        (
            json!(["not", "an", "object"]),
            "The request body must be a JSON object",
        ),
    ] {
        let answer = http
            .post("/api/v1/teams/webhooks", &key, body.clone())
            .await;
        assert_eq!(answer.status, 400, "{body}: {}", answer.body);
        assert_eq!(answer.message(), message, "{body}");
    }
    let unknown = http
        .call("DELETE", "/api/v1/teams/webhooks/no-such-hook", &key, None)
        .await;
    assert_eq!(unknown.status, 404);
    // A public URL is accepted (nothing is sent until an alert matches).
    for n in 0..10 {
        register(&http, &key, &format!("https://hooks.example.com/{n}")).await;
    }
    let over = http
        .post(
            "/api/v1/teams/webhooks",
            &key,
            json!({"url": "https://hooks.example.com/11", "events": ["alert_match"]}),
        )
        .await;
    assert_eq!(over.status, 403, "{}", over.body);
    assert!(over.message().starts_with("Webhook limit reached"));
}

#[tokio::test]
async fn deleting_a_webhook_fails_its_pending_deliveries_without_another_request() {
    // A long first backoff: the webhook is deleted well before the retry is due.
    let http = start_with(|state: &mut AppState| {
        state.deliveries = Arc::new(
            DeliveryWorker::new(AddressPolicy::allow_private())
                .unwrap()
                .with_retry(RetryPolicy {
                    max_attempts: 3,
                    first_backoff: Duration::from_secs(2),
                    max_backoff: Duration::from_secs(2),
                }),
        );
    })
    .await;
    let receiver = Receiver::start(vec![503]).await;
    let key = http.key("deliver-deleted@example.com", "business");
    let (webhook_id, _) = register(&http, &key, &receiver.url()).await;
    let alert_id = create_alert(&http, &key, "Linux").await;
    receiver.wait_for(1).await;
    let listed = http
        .get(
            &format!("/api/v1/teams/webhooks/{webhook_id}/deliveries"),
            &key,
        )
        .await;
    let listed = listed.data()["deliveries"].as_array().unwrap().clone();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["attempts"], 1);
    assert!(listed[0]["lastError"].as_str().unwrap().contains("503"));
    let deleted = http
        .call(
            "DELETE",
            &format!("/api/v1/teams/webhooks/{webhook_id}"),
            &key,
            None,
        )
        .await;
    assert_eq!(deleted.status, 200, "{}", deleted.body);

    let delivered = settled_webhook_deliveries(&http, &alert_id).await;
    assert_eq!(delivered[0].status, "failed");
    assert_eq!(
        delivered[0].last_error.as_deref(),
        Some("the webhook was deleted")
    );
    assert_eq!(
        receiver.received().len(),
        1,
        "no request after the deletion"
    );
    let gone = http
        .get(
            &format!("/api/v1/teams/webhooks/{webhook_id}/deliveries"),
            &key,
        )
        .await;
    assert_eq!(gone.status, 404);
}

/// Regression: each new alert's first run waited, on a thread of the blocking pool, for
/// a delivery pass that needed a thread of that pool itself, so a burst of more than
/// 512 new alerts left every thread waiting and the server stopped answering (found by
/// benches/app-store).
#[tokio::test]
async fn a_burst_of_new_alerts_leaves_the_server_answering() {
    use futures_util::StreamExt;
    let http = server().await;
    // A team may have 500 alerts on the admin plan: two teams.
    let keys = [
        http.key("burst-one@example.com", "admin"),
        http.key("burst-two@example.com", "admin"),
    ];
    let burst = futures_util::stream::iter(0..600)
        .map(|n| {
            let (http, key) = (&http, &keys[n % 2]);
            async move {
                let body = json!({"alertName": format!("Burst {n}"), "alertType": "custom-keyword", "value": format!("word{n}")});
                http.post("/api/v1/alerts/alert-config", key, body)
                    .await
                    .status
            }
        })
        .buffer_unordered(64)
        .collect::<Vec<_>>();
    let statuses = tokio::time::timeout(Duration::from_secs(120), burst)
        .await
        .expect("600 alerts created within two minutes");
    assert!(statuses.iter().all(|status| *status == 200), "{statuses:?}");
    let listed = tokio::time::timeout(
        Duration::from_secs(30),
        http.get("/api/v1/alerts/alert-configs?pageSize=1", &keys[0]),
    )
    .await
    .expect("the server answers after the burst");
    assert_eq!(listed.status, 200, "{}", listed.body);
}

/// Alert e-mails went to any address an alert's `otherEmails` named, as many as given,
/// with the alert's name as the subject: anyone could have the server mail strangers
/// their wording. They now go to members of the alert's team only, at most 10 other
/// addresses: a stranger is refused when the alert is created or changed, and one
/// stored before (or a member since removed) is not mailed.
#[tokio::test]
async fn alert_emails_go_to_team_members_only() {
    use podlens_app::accounts::members::Role;
    use podlens_app::workflows::alerts::AlertConfig;
    use podlens_app::workflows::documents::{DocKind, Stored};

    let http = server().await;
    let key = http.key("alert-owner@example.com", "business");
    let owner =
        podlens_app::runtime::block_on_own_thread(http.state.accounts.account_for_key(&key))
            .unwrap()
            .unwrap();
    let now = chrono::Utc::now();
    let (_, token) = podlens_app::runtime::block_on_own_thread(http.state.members.invite(
        &owner,
        "alert-mate@example.com",
        Role::Member,
        now,
    ))
    .unwrap();
    podlens_app::runtime::block_on_own_thread(http.state.members.accept(&token, now)).unwrap();

    let with_emails = |emails: Vec<String>| {
        json!({"alertName": "Linux watch", "alertType": "custom-keyword", "value": "Linux",
               "additionalAlertSettings": {"otherEmails": emails}})
    };
    let stranger = http
        .post(
            "/api/v1/alerts/alert-config",
            &key,
            with_emails(vec!["stranger@example.net".into()]),
        )
        .await;
    assert_eq!(stranger.status, 400, "{}", stranger.body);
    assert_eq!(
        stranger.message(),
        "Alert e-mails go to members of your team only; stranger@example.net is not a member. Invite them to your team first."
    );
    let eleven: Vec<String> = (0..11).map(|n| format!("a{n}@example.com")).collect();
    let too_many = http
        .post("/api/v1/alerts/alert-config", &key, with_emails(eleven))
        .await;
    assert_eq!(too_many.status, 400, "{}", too_many.body);
    assert_eq!(
        too_many.message(),
        "An alert can e-mail at most 10 other addresses"
    );
    let alerts_listed = http.get("/api/v1/alerts/alert-configs", &key).await;
    assert_eq!(
        alerts_listed.data()["alertConfigs"]
            .as_array()
            .unwrap()
            .len(),
        0,
        "refused alerts are not created"
    );

    // A member, in any case, is accepted; a PATCH naming a stranger is refused.
    let created = http
        .post(
            "/api/v1/alerts/alert-config",
            &key,
            with_emails(vec!["Alert-Mate@Example.com".into()]),
        )
        .await;
    let alert_id = created.data()["createdAlertConfig"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let patched = http
        .call(
            "PATCH",
            &format!("/api/v1/alerts/alert-config/{alert_id}"),
            &key,
            Some(json!({"updates": {"alertSettings": {"otherEmails": ["stranger@example.net"]}}})),
        )
        .await;
    assert_eq!(patched.status, 400, "{}", patched.body);
    assert!(
        patched
            .message()
            .contains("stranger@example.net is not a member")
    );

    // The first run mails the creator and the member, each once.
    let mailed = |alert_id: String| {
        let http = &http;
        async move {
            for _ in 0..600 {
                let mut targets: Vec<String> = deliveries(http, &alert_id)
                    .await
                    .into_iter()
                    .filter(|d| d.channel == "email")
                    .map(|d| d.target)
                    .collect();
                if !targets.is_empty() {
                    targets.sort();
                    return targets;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            panic!("the alert was never run");
        }
    };
    assert_eq!(
        mailed(alert_id.clone()).await,
        ["alert-mate@example.com", "alert-owner@example.com"]
    );

    // An alert stored with a stranger (before the rule) mails the members it names only.
    let mut config: AlertConfig =
        serde_json::from_value(created.data()["createdAlertConfig"].clone()).unwrap();
    config.id = uuid::Uuid::new_v4().to_string();
    config.alert_settings.insert(
        "otherEmails".into(),
        json!(["stranger@example.net", "alert-mate@example.com"]),
    );
    let stored = Stored {
        id: config.id.clone(),
        team_id: config.team_id.clone(),
        parent_id: None,
        created_at: config.created_at,
        updated_at: config.updated_at,
        deleted: false,
        value: config.clone(),
    };
    http.state
        .workflows
        .put_doc(DocKind::AlertConfig, &stored)
        .await
        .unwrap();
    let state = http.state.clone();
    let run = config.clone();
    podlens_app::workflows::alerts::run_alert(&state.alert_runs(), &run)
        .await
        .unwrap();
    assert_eq!(
        mailed(config.id.clone()).await,
        ["alert-mate@example.com", "alert-owner@example.com"]
    );
}
