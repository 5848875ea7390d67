//! Signing in from the browser: magic links by email and cookie sessions.
//!
//! `POST /api/v1/auth/sign-up` and `/auth/sign-in` mail a single-use link to the web
//! app's `/sign-up/validate?key=` or `/sign-in/email-link?key=`; the page posts the key
//! to `/auth/validate` or `/auth/email-link`, which opens a session (an HttpOnly,
//! SameSite=Lax cookie). `GET /auth/session` says who is signed in, `PATCH /auth/session`
//! sets the name they chose; `POST /auth/sign-out` ends the session. The answer to a link request never reveals whether the address
//! has an account.

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use chrono::Utc;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, RawJson};
use crate::state::{AppState, blocking};
use podlens_app::accounts::sessions::{
    LinkKind, SESSION_COOKIE, SESSION_LIFETIME_DAYS, session_from_cookies,
};
use podlens_app::accounts::{MAX_DISPLAY_NAME_CHARS, chosen_display_name};
use podlens_app::mail::Mail;
use podlens_app::workflows::fields::{clearable_text, object};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/auth/sign-up", post(sign_up))
        .route("/api/v1/auth/sign-in", post(sign_in))
        .route("/api/v1/auth/validate", post(validate))
        .route("/api/v1/auth/email-link", post(email_link))
        .route("/api/v1/auth/session", get(session).patch(update_session))
        .route("/api/v1/auth/sign-out", post(sign_out))
}

/// A request for a link.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LinkRequest {
    pub email: String,
    /// Where the visitor came from (kept in the link so the app can return there).
    #[serde(default)]
    pub source: Option<String>,
}

/// A link to redeem.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RedeemRequest {
    pub key: String,
}

/// A message for the visitor.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuthMessage {
    pub message: String,
}

/// Who is signed in.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionInfo {
    pub user_id: String,
    pub email: String,
    pub display_name: Option<String>,
    pub team_id: String,
    pub plan: String,
}

/// The origin mailed links point to: the server's configuration (`--public-url`, else
/// the address it is bound to), never the request's `Host` header, which the client
/// chooses.
pub(crate) fn link_origin(state: &AppState) -> ApiResult<String> {
    Ok(state.links.origin()?.to_owned())
}

fn link_mail(email: &str, kind: LinkKind, url: &str) -> Mail {
    let (subject, what) = match kind {
        LinkKind::SignIn => ("Your Podlens sign-in link", "sign in to Podlens"),
        LinkKind::SignUp => (
            "Validate your email address for Podlens",
            "validate your email address and create your Podlens account",
        ),
    };
    Mail {
        to: email.to_owned(),
        subject: subject.to_owned(),
        text: format!(
            "Open this link to {what}:\n\n{url}\n\nThe link works once and expires in {} minutes. If you did not ask for it, ignore this email.",
            podlens_app::accounts::sessions::LINK_LIFETIME_MINUTES
        ),
    }
}

/// Issues and mails a link. A sign-in for an unknown address becomes a sign-up link,
/// and a sign-up for a known one a sign-in link, so the answer reveals nothing.
async fn send_link(state: &AppState, address: String, request: LinkRequest) -> ApiResult<String> {
    let email = podlens_app::accounts::normalized_email(&request.email)
        .map_err(|_| ApiError::BadRequest("Please enter a valid email address.".to_owned()))?;
    let origin = link_origin(state)?;
    let sessions = &state.sessions;
    let source = request.source.filter(|source| !source.trim().is_empty());
    let kind = if sessions.user_exists(&email).await? {
        LinkKind::SignIn
    } else {
        LinkKind::SignUp
    };
    let token = sessions
        .issue_link(&email, kind, &address, Utc::now())
        .await?;
    let mut url = format!("{origin}{}?key={token}", kind.page());
    if let Some(source) = source {
        url.push_str("&source=");
        url.push_str(&percent_encode(&source));
    }
    let (mailer, mail) = (state.mailer.clone(), link_mail(&email, kind, &url));
    blocking(move || Ok(mailer.send(&mail)?)).await?;
    Ok(email)
}

fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                (byte as char).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect()
}

/// Mails a link that validates the address and creates a free account.
#[utoipa::path(post, path = "/api/v1/auth/sign-up", tag = "auth", request_body = LinkRequest,
    responses((status = 200, description = "A link was mailed", body = AuthMessage),
              (status = 400, description = "Not an email address"),
              (status = 429, description = "Too many links asked for"),
              (status = 503, description = "The server has no public address for links (bound to 0.0.0.0 without --public-url)")))]
pub async fn sign_up(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(request): ApiJson<LinkRequest>,
) -> ApiResult<Envelope<AuthMessage>> {
    let email = send_link(&state, caller.client_address, request).await?;
    Ok(Envelope(AuthMessage {
        message: format!("We sent a link to validate your email address to {email}."),
    }))
}

/// Mails a sign-in link.
#[utoipa::path(post, path = "/api/v1/auth/sign-in", tag = "auth", request_body = LinkRequest,
    responses((status = 200, description = "A link was mailed", body = AuthMessage),
              (status = 400, description = "Not an email address"),
              (status = 429, description = "Too many links asked for"),
              (status = 503, description = "The server has no public address for links (bound to 0.0.0.0 without --public-url)")))]
pub async fn sign_in(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(request): ApiJson<LinkRequest>,
) -> ApiResult<Envelope<AuthMessage>> {
    let email = send_link(&state, caller.client_address, request).await?;
    Ok(Envelope(AuthMessage {
        message: format!("We sent a sign-in link to {email}."),
    }))
}

/// The session cookie: `Secure` when the server's public address is https (or a proxy
/// in front says the request came over https).
pub(crate) fn session_cookie(state: &AppState, token: &str, headers: &HeaderMap) -> HeaderValue {
    let secure = state.links.is_https()
        || headers
            .get("x-forwarded-proto")
            .and_then(|value| value.to_str().ok())
            .is_some_and(|proto| proto.eq_ignore_ascii_case("https"));
    let max_age = SESSION_LIFETIME_DAYS * 24 * 3600;
    let value = format!(
        "{SESSION_COOKIE}={token}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax{}",
        if secure { "; Secure" } else { "" }
    );
    HeaderValue::from_str(&value).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// Redeems a link: the account of its email (created for a sign-up), a new session, and
/// the previous session of this browser, if any, closed (sessions rotate on sign-in).
async fn redeem(
    state: AppState,
    headers: HeaderMap,
    request: RedeemRequest,
    kind: LinkKind,
) -> ApiResult<Response> {
    let now = Utc::now();
    let email = state.sessions.redeem_link(&request.key, kind, now).await?;
    let account = state.accounts.sign_up(&email).await?;
    sign_in_as(&state, &headers, account, now).await
}

/// Signs the browser in as `account` (resolved at `now`): closes the browser's previous
/// session, if any, opens a new one and answers the session info with its cookie. Used
/// by the sign-in links and by accepted team invitations.
pub(crate) async fn sign_in_as(
    state: &AppState,
    headers: &HeaderMap,
    account: podlens_app::accounts::Account,
    now: chrono::DateTime<Utc>,
) -> ApiResult<Response> {
    let previous = headers
        .get(COOKIE)
        .and_then(|value| value.to_str().ok())
        .and_then(session_from_cookies);
    if let Some(previous) = previous {
        state.sessions.close_session(previous).await?;
    }
    let token = state.sessions.open_session(&account.user_id, now).await?;
    let mut response = Envelope(session_info(&account)).into_response();
    response
        .headers_mut()
        .insert(SET_COOKIE, session_cookie(state, &token, headers));
    Ok(response)
}

pub(crate) fn session_info(account: &podlens_app::accounts::Account) -> SessionInfo {
    SessionInfo {
        user_id: account.user_id.clone(),
        email: account.email.clone(),
        display_name: account.display_name.clone(),
        team_id: account.team_id.clone(),
        plan: account.plan.clone(),
    }
}

/// Redeems a sign-up link: the account is created and signed in.
#[utoipa::path(post, path = "/api/v1/auth/validate", tag = "auth", request_body = RedeemRequest,
    responses((status = 200, description = "Signed in; the session cookie is set", body = SessionInfo),
              (status = 400, description = "The link is invalid, used or expired")))]
pub async fn validate(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<RedeemRequest>,
) -> ApiResult<Response> {
    redeem(state, headers, request, LinkKind::SignUp).await
}

/// Redeems a sign-in link.
#[utoipa::path(post, path = "/api/v1/auth/email-link", tag = "auth", request_body = RedeemRequest,
    responses((status = 200, description = "Signed in; the session cookie is set", body = SessionInfo),
              (status = 400, description = "The link is invalid, used or expired")))]
pub async fn email_link(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<RedeemRequest>,
) -> ApiResult<Response> {
    redeem(state, headers, request, LinkKind::SignIn).await
}

/// Who is signed in (by session cookie or API key).
#[utoipa::path(get, path = "/api/v1/auth/session", tag = "auth",
    responses((status = 200, description = "The signed-in account", body = SessionInfo),
              (status = 401, description = "Not signed in")))]
pub async fn session(caller: Caller) -> ApiResult<Envelope<SessionInfo>> {
    Ok(Envelope(session_info(caller.require_account()?)))
}

/// What a signed-in user may change about themself.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionUpdate {
    /// The name outreach emails are signed with and the team sees (at most 80
    /// characters; null or blank clears it, and the email address is shown instead).
    pub display_name: Option<String>,
}

/// Sets the signed-in user's name.
#[utoipa::path(patch, path = "/api/v1/auth/session", tag = "auth", request_body = SessionUpdate,
    responses((status = 200, description = "The account with its new name", body = SessionInfo),
              (status = 400, description = "The name is too long or holds control characters"),
              (status = 401, description = "Not signed in")))]
pub async fn update_session(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<SessionInfo>> {
    let mut account = caller.require_account()?.clone();
    let body = object(body)?;
    let name = clearable_text(&body, "displayName", MAX_DISPLAY_NAME_CHARS)?
        .ok_or_else(|| ApiError::BadRequest("displayName is required".into()))?;
    let name = chosen_display_name(name)?;
    state
        .accounts
        .set_display_name(&account.user_id, name.as_deref())
        .await?;
    account.display_name = name;
    Ok(Envelope(session_info(&account)))
}

/// Ends the browser's session and clears its cookie.
#[utoipa::path(post, path = "/api/v1/auth/sign-out", tag = "auth",
    responses((status = 200, description = "Signed out", body = AuthMessage)))]
pub async fn sign_out(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Response> {
    if let Some(token) = headers
        .get(COOKIE)
        .and_then(|value| value.to_str().ok())
        .and_then(session_from_cookies)
        .map(str::to_owned)
    {
        state.sessions.close_session(&token).await?;
    }
    let mut response = Json(serde_json::json!({
        "status": "OK",
        "data": { "message": "You have been signed out" }
    }))
    .into_response();
    response.headers_mut().insert(
        SET_COOKIE,
        HeaderValue::from_static("podlens_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"),
    );
    Ok(response)
}
