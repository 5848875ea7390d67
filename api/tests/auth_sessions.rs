//! Signing up and in by magic link over real HTTP: the mail lands in the outbox, the
//! link works once, the session cookie identifies the browser, writes need the CSRF
//! header, sign-out ends the session, and link requests are rate-limited.

mod common;

use std::net::SocketAddr;

use podlens_app::mail::Outbox;
use reqwest::StatusCode;
use reqwest::header::{COOKIE, SET_COOKIE};
use serde_json::{Value, json};

struct Server {
    base: String,
    outbox: Outbox,
    _dir: tempfile::TempDir,
}

async fn start() -> Server {
    let (mut state, dir) = common::state();
    let outbox = Outbox::in_data_dir(dir.path());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = listener.local_addr().expect("address");
    state.links = podlens_app::accounts::links::LinkOrigin::listening_on(address);
    let app = podlens_api::app(state).into_make_service_with_connect_info::<SocketAddr>();
    tokio::spawn(async move {
        axum::serve(listener, app).await.expect("serve");
    });
    Server {
        base: format!("http://{address}"),
        outbox,
        _dir: dir,
    }
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

async fn send(
    server: &Server,
    method: reqwest::Method,
    path: &str,
    cookie: Option<&str>,
    csrf: bool,
    body: Option<Value>,
) -> (StatusCode, reqwest::header::HeaderMap, Value) {
    let mut request = client().request(method, format!("{}{path}", server.base));
    if let Some(cookie) = cookie {
        request = request.header(COOKIE, cookie);
    }
    if csrf {
        request = request.header("x-podlens-client", "web");
    }
    if let Some(body) = body {
        request = request
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body.to_string());
    }
    let response = request.send().await.expect("response");
    let status = response.status();
    let headers = response.headers().clone();
    let text = response.text().await.unwrap_or_default();
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    (status, headers, body)
}

/// A JSON POST without a session cookie.
async fn post_json(
    server: &Server,
    path: &str,
    body: Value,
) -> (StatusCode, reqwest::header::HeaderMap, Value) {
    send(server, reqwest::Method::POST, path, None, false, Some(body)).await
}

/// A GET, with a session cookie when given.
async fn get(
    server: &Server,
    path: &str,
    cookie: Option<&str>,
) -> (StatusCode, reqwest::header::HeaderMap, Value) {
    send(server, reqwest::Method::GET, path, cookie, false, None).await
}

/// The `key` of the link in the newest outbox message, checked to point at `page`.
fn newest_link_key(outbox: &Outbox, to: &str, page: &str) -> String {
    let messages = outbox.messages().expect("outbox readable");
    let newest = messages.last().expect("a message was mailed");
    let text = std::fs::read_to_string(newest).expect("message readable");
    assert!(text.contains(&format!("To: {to}\r\n")), "{text}");
    let pattern = regex::Regex::new(r"(http://[^\s]+)\?key=([0-9a-f]{64})").expect("regex");
    let captures = pattern
        .captures(&text)
        .unwrap_or_else(|| panic!("no link in {text}"));
    assert!(
        captures[1].ends_with(page),
        "link {} should open {page}",
        &captures[1]
    );
    captures[2].to_owned()
}

/// `podlens_session=…` from a Set-Cookie header, after checking its attributes.
fn session_cookie(headers: &reqwest::header::HeaderMap) -> String {
    let value = headers
        .get(SET_COOKIE)
        .expect("a session cookie is set")
        .to_str()
        .expect("ascii");
    assert!(value.contains("HttpOnly"), "{value}");
    assert!(value.contains("SameSite=Lax"), "{value}");
    assert!(value.contains("Path=/"), "{value}");
    value.split(';').next().expect("pair").trim().to_owned()
}

#[tokio::test]
async fn sign_up_by_outbox_link_then_session_then_sign_out() {
    let server = start().await;
    let email = "New.Guest@Example.com";
    let (status, _, body) = post_json(
        &server,
        "/api/v1/auth/sign-up",
        json!({ "email": email, "source": "pricing" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body["data"]["message"],
        "We sent a link to validate your email address to new.guest@example.com."
    );
    let key = newest_link_key(&server.outbox, "new.guest@example.com", "/sign-up/validate");

    // Not signed in yet.
    let (status, _, body) = get(&server, "/api/v1/auth/session", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");

    // The sign-up link is not a sign-in link.
    let (status, _, _) = post_json(&server, "/api/v1/auth/email-link", json!({ "key": key })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    let (status, headers, body) =
        post_json(&server, "/api/v1/auth/validate", json!({ "key": key })).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["email"], "new.guest@example.com");
    assert_eq!(body["data"]["plan"], "free");
    let cookie = session_cookie(&headers);

    // Single use.
    let (status, _, body) =
        post_json(&server, "/api/v1/auth/validate", json!({ "key": key })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["data"]["message"],
        podlens_app::accounts::sessions::BAD_LINK_MESSAGE
    );

    // The cookie identifies the user, on the free plan, without API access needed.
    let (status, _, body) = get(&server, "/api/v1/auth/session", Some(&cookie)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["email"], "new.guest@example.com");
    let (status, _, body) = get(&server, "/api/v1/teams/usage/current", Some(&cookie)).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    // A write by cookie without the CSRF header is refused; with it, it goes through.
    let (status, _, body) = send(
        &server,
        reqwest::Method::POST,
        "/api/v1/auth/sign-out",
        Some(&cookie),
        false,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, headers, body) = send(
        &server,
        reqwest::Method::POST,
        "/api/v1/auth/sign-out",
        Some(&cookie),
        true,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["message"], "You have been signed out");
    assert!(
        headers[SET_COOKIE]
            .to_str()
            .expect("ascii")
            .contains("Max-Age=0")
    );

    // The old cookie is now a signed-out visitor.
    let (status, _, _) = get(&server, "/api/v1/auth/session", Some(&cookie)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn sign_in_links_rotate_sessions_and_are_rate_limited() {
    let server = start().await;
    // Signing in with an unknown address mails a sign-up link instead (same answer).
    let (status, _, body) = post_json(
        &server,
        "/api/v1/auth/sign-in",
        json!({ "email": "booker@example.com" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body["data"]["message"],
        "We sent a sign-in link to booker@example.com."
    );
    let key = newest_link_key(&server.outbox, "booker@example.com", "/sign-up/validate");
    let (_, headers, _) = post_json(&server, "/api/v1/auth/validate", json!({ "key": key })).await;
    let first = session_cookie(&headers);

    // Now the address has an account: a sign-in link.
    post_json(
        &server,
        "/api/v1/auth/sign-in",
        json!({ "email": "booker@example.com" }),
    )
    .await;
    let key = newest_link_key(&server.outbox, "booker@example.com", "/sign-in/email-link");
    let (status, headers, body) = send(
        &server,
        reqwest::Method::POST,
        "/api/v1/auth/email-link",
        Some(&first),
        true,
        Some(json!({ "key": key })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let second = session_cookie(&headers);
    assert_ne!(first, second, "signing in issues a new session");
    let (status, _, _) = get(&server, "/api/v1/auth/session", Some(&first)).await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "the browser's previous session is closed"
    );
    let (status, _, _) = get(&server, "/api/v1/auth/session", Some(&second)).await;
    assert_eq!(status, StatusCode::OK);

    // Not an address.
    let (status, _, body) = post_json(
        &server,
        "/api/v1/auth/sign-in",
        json!({ "email": "not-an-address" }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["data"]["message"],
        "Please enter a valid email address."
    );

    // Two links were sent to booker@ so far; the limit is per hour.
    let limit = podlens_app::accounts::sessions::LINKS_PER_EMAIL_PER_HOUR;
    for _ in 2..limit {
        let (status, _, _) = post_json(
            &server,
            "/api/v1/auth/sign-in",
            json!({ "email": "booker@example.com" }),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    let before = server.outbox.messages().expect("outbox").len();
    let (status, _, body) = post_json(
        &server,
        "/api/v1/auth/sign-in",
        json!({ "email": "booker@example.com" }),
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(
        server.outbox.messages().expect("outbox").len(),
        before,
        "nothing mailed past the limit"
    );
}
