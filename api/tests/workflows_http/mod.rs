//! A real server on a loopback port over the fixture catalog (corpus feeds, a real
//! transcript, a built index), and a small JSON client for the workflow tests.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

use podlens_api::AppState;
use serde_json::Value;

use crate::common;

pub struct Http {
    pub base: String,
    pub state: AppState,
    client: reqwest::Client,
    _dir: tempfile::TempDir,
}

pub struct Answer {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
    pub bytes: Vec<u8>,
}

impl Answer {
    /// The `data` of an OK envelope, failing with the body otherwise.
    pub fn data(&self) -> &Value {
        assert_eq!(self.status, 200, "{}", self.body);
        assert_eq!(self.body["status"], "OK", "{}", self.body);
        &self.body["data"]
    }

    /// The message of an error answer.
    pub fn message(&self) -> &str {
        self.body["data"]["message"].as_str().unwrap_or_default()
    }

    pub fn usage_count(&self) -> Option<u64> {
        self.headers
            .get("x-usage-count")
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.parse().ok())
    }
}

/// Starts the app over its own app database and the shared fixture catalog; `adjust`
/// may change the state (e.g. the assist provider) before the server starts.
pub async fn start_with(adjust: impl FnOnce(&mut AppState)) -> Http {
    let (mut state, dir) = common::state();
    adjust(&mut state);
    serve(state, dir).await
}

/// Serves `state` on a loopback port; `dir` (its data directory) lives as long as the
/// returned client.
pub async fn serve(mut state: AppState, dir: tempfile::TempDir) -> Http {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = listener.local_addr().expect("address");
    // Mailed links point where `podlens serve` would point them: its bound address.
    state.links = podlens_app::accounts::links::LinkOrigin::listening_on(address);
    let app = podlens_api::app(state.clone()).into_make_service_with_connect_info::<SocketAddr>();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Http {
        base: format!("http://{address}"),
        state,
        client: reqwest::Client::new(),
        _dir: dir,
    }
}

pub async fn start() -> Http {
    start_with(|_| {}).await
}

impl Http {
    pub fn key(&self, email: &str, plan: &str) -> String {
        common::key(&self.state, email, plan)
    }

    pub async fn send(&self, request: reqwest::RequestBuilder) -> Answer {
        let response = request.send().await.expect("response");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let bytes = response.bytes().await.expect("body").to_vec();
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Answer {
            status,
            headers,
            body,
            bytes,
        }
    }

    /// The session cookie (`podlens_session=…`) of a browser signed in as the owner of
    /// `api_key`.
    pub fn session_cookie(&self, api_key: &str) -> String {
        let account =
            podlens_app::runtime::block_on_own_thread(self.state.accounts.account_for_key(api_key))
                .expect("store")
                .expect("a live key");
        let token = podlens_app::runtime::block_on_own_thread(
            self.state
                .sessions
                .open_session(&account.user_id, chrono::Utc::now()),
        )
        .expect("session");
        format!(
            "{}={token}",
            podlens_app::accounts::sessions::SESSION_COOKIE
        )
    }

    /// A request as the web app sends it: by session cookie (when given), with the
    /// client header every cookie-authenticated write needs.
    pub async fn as_browser(
        &self,
        method: &str,
        path: &str,
        cookie: Option<&str>,
        body: Option<Value>,
    ) -> Answer {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let mut request = reqwest::Client::new()
            .request(method, format!("{}{path}", self.base))
            .header("x-podlens-client", "web");
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        self.send(request).await
    }

    pub async fn call(&self, method: &str, path: &str, key: &str, body: Option<Value>) -> Answer {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let mut request = self
            .client
            .request(method, format!("{}{path}", self.base))
            .header("authorization", key);
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        self.send(request).await
    }

    pub async fn get(&self, path: &str, key: &str) -> Answer {
        self.call("GET", path, key, None).await
    }

    pub async fn post(&self, path: &str, key: &str, body: Value) -> Answer {
        self.call("POST", path, key, Some(body)).await
    }

    /// A multipart upload of `(field, file name, bytes)` parts.
    pub async fn upload(&self, path: &str, key: &str, parts: &[(&str, &str, Vec<u8>)]) -> Answer {
        let request = self
            .client
            .post(format!("{}{path}", self.base))
            .header("authorization", key);
        self.send(multipart(request, parts)).await
    }

    /// [`Http::upload`] as the web app sends it: by session cookie, with its header.
    pub async fn upload_as_browser(
        &self,
        path: &str,
        cookie: &str,
        parts: &[(&str, &str, Vec<u8>)],
    ) -> Answer {
        let request = reqwest::Client::new()
            .post(format!("{}{path}", self.base))
            .header("x-podlens-client", "web")
            .header("cookie", cookie);
        self.send(multipart(request, parts)).await
    }

    /// Polls `path` until `done` holds for its data (at most 30 s).
    pub async fn wait_for(&self, path: &str, key: &str, done: impl Fn(&Value) -> bool) -> Value {
        for _ in 0..600 {
            let answer = self.get(path, key).await;
            let data = answer.data().clone();
            if done(&data) {
                return data;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("{path} never reached the expected state");
    }
}

/// `request` with a multipart body of `(field, file name, bytes)` parts.
fn multipart(
    request: reqwest::RequestBuilder,
    parts: &[(&str, &str, Vec<u8>)],
) -> reqwest::RequestBuilder {
    let boundary = "podlens-test-boundary-7d1f";
    let mut body = Vec::new();
    for (field, file_name, bytes) in parts {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{file_name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    request
        .header(
            "content-type",
            format!("multipart/form-data; boundary={boundary}"),
        )
        .body(body)
}
