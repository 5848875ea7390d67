//! Guest profiles: create (the SDK call and the onboarding form), details, archive,
//! bio, contact and social updates, document uploads, bio regeneration and download.

use axum::Router;
use axum::extract::{DefaultBodyLimit, Multipart, Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use podlens_app::workflows::fields::query_value;
use podlens_app::workflows::guest_profiles::{
    BioChanges, BioRegeneration, ContactChanges, DownloadFormat, GuestProfileDetails,
    NewGuestProfile, UploadedDocuments, Uploads, social_links,
};
use podlens_model::entities::CreateGuestProfileResponse;
use serde_json::{Value, json};

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::RawJson;
use crate::metering::Metered;
use crate::state::AppState;

/// The largest upload body: five files of the largest size, with room for the form.
pub const UPLOAD_BODY_LIMIT: usize = (podlens_model::validation::MAX_UPLOAD_FILES + 1)
    * podlens_model::validation::MAX_UPLOAD_BYTES as usize;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/guest-profiles", post(create))
        .route(
            "/api/v1/guest-profiles/onboarding-form",
            post(create_from_form),
        )
        .route("/api/v1/guest-profiles/{guestProfileId}", get(details))
        .route(
            "/api/v1/guest-profiles/{guestProfileId}/archive",
            post(archive),
        )
        .route(
            "/api/v1/guest-profiles/{guestProfileId}/bio",
            put(update_bio),
        )
        .route(
            "/api/v1/guest-profiles/{guestProfileId}/contact-details",
            put(update_contact),
        )
        .route(
            "/api/v1/guest-profiles/{guestProfileId}/social-media-links",
            put(update_socials),
        )
        .route(
            "/api/v1/guest-profiles/{guestProfileId}/documents",
            post(upload_documents).layer(DefaultBodyLimit::max(UPLOAD_BODY_LIMIT)),
        )
        .route(
            "/api/v1/guest-profiles/{guestProfileId}/regenerate-bio",
            post(regenerate_bio),
        )
        .route(
            "/api/v1/guest-profiles/{guestProfileId}/download",
            get(download),
        )
}

/// A multipart body that could not be read: 413 over the upload limit, else 400.
fn multipart_error(error: axum::extract::multipart::MultipartError) -> ApiError {
    if error.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError::PayloadTooLarge {
            limit: UPLOAD_BODY_LIMIT,
        };
    }
    ApiError::BadRequest(format!("Invalid multipart body: {error}"))
}

fn success() -> Envelope<Value> {
    Envelope(json!({"success": true}))
}

/// `POST /api/v1/guest-profiles`: firstName, lastName and shortBio are required.
#[utoipa::path(post, path = "/api/v1/guest-profiles", tag = "guest-profiles",
    responses((status = 200, description = "OK: the answer in the envelope; the bio is written by the AI (one AI assist)"),
              (status = 429, description = "AI assists used up")))]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<(Metered, Envelope<CreateGuestProfileResponse>)> {
    let account = caller.require_account()?;
    let new = NewGuestProfile::from_json(body)?;
    let (charge, created) = state
        .guest_profiles()
        .create(account, &caller.requester(), new)
        .await?;
    Ok((Metered(charge), Envelope(created)))
}

/// `POST /api/v1/guest-profiles/onboarding-form`: the onboarding form (SPEC.md §3, §5):
/// short bio, goals, expertise and topics to discuss required with their messages;
/// topics to avoid, company, LinkedIn and website optional (empty URLs allowed).
#[utoipa::path(post, path = "/api/v1/guest-profiles/onboarding-form", tag = "guest-profiles",
    responses((status = 200, description = "OK: the answer in the envelope; the bio is written by the AI (one AI assist)"),
              (status = 429, description = "AI assists used up")))]
pub async fn create_from_form(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<(Metered, Envelope<CreateGuestProfileResponse>)> {
    let account = caller.require_account()?;
    let new = NewGuestProfile::from_form(body)?;
    let (charge, created) = state
        .guest_profiles()
        .create(account, &caller.requester(), new)
        .await?;
    Ok((Metered(charge), Envelope(created)))
}

/// `GET /api/v1/guest-profiles/{guestProfileIdOrProjectId}`.
#[utoipa::path(get, path = "/api/v1/guest-profiles/{guestProfileIdOrProjectId}", tag = "guest-profiles",
    params(("guestProfileIdOrProjectId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn details(
    State(state): State<AppState>,
    caller: Caller,
    Path(key): Path<String>,
) -> ApiResult<Envelope<GuestProfileDetails>> {
    let account = caller.require_account()?;
    Ok(Envelope(
        state.guest_profiles().details(account, &key).await?,
    ))
}

/// `POST /api/v1/guest-profiles/{id}/archive`: the profile and its project become
/// ARCHIVED.
#[utoipa::path(post, path = "/api/v1/guest-profiles/{guestProfileId}/archive", tag = "guest-profiles",
    params(("guestProfileId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn archive(
    State(state): State<AppState>,
    caller: Caller,
    Path(key): Path<String>,
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?;
    state.guest_profiles().archive(account, &key).await?;
    Ok(success())
}

/// `PUT /api/v1/guest-profiles/{id}/bio`: any of the bio fields; at least one.
#[utoipa::path(put, path = "/api/v1/guest-profiles/{guestProfileId}/bio", tag = "guest-profiles",
    params(("guestProfileId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn update_bio(
    State(state): State<AppState>,
    caller: Caller,
    Path(key): Path<String>,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<Value>> {
    let changes = BioChanges::from_json(body)?;
    let account = caller.require_account()?;
    state
        .guest_profiles()
        .update_bio(account, &key, changes)
        .await?;
    Ok(success())
}

/// `PUT /api/v1/guest-profiles/{id}/contact-details`: an empty string clears a field.
#[utoipa::path(put, path = "/api/v1/guest-profiles/{guestProfileId}/contact-details", tag = "guest-profiles",
    params(("guestProfileId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn update_contact(
    State(state): State<AppState>,
    caller: Caller,
    Path(key): Path<String>,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<Value>> {
    let changes = ContactChanges::from_json(body)?;
    let account = caller.require_account()?;
    state
        .guest_profiles()
        .update_contact(account, &key, changes)
        .await?;
    Ok(success())
}

/// `PUT /api/v1/guest-profiles/{id}/social-media-links`: the whole list (a JSON array,
/// or `{"body": [...]}`), each URL checked against its platform's rules.
#[utoipa::path(put, path = "/api/v1/guest-profiles/{guestProfileId}/social-media-links", tag = "guest-profiles",
    params(("guestProfileId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn update_socials(
    State(state): State<AppState>,
    caller: Caller,
    Path(key): Path<String>,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<Value>> {
    let links = social_links(body)?;
    let account = caller.require_account()?;
    state
        .guest_profiles()
        .update_socials(account, &key, links)
        .await?;
    Ok(success())
}

/// `POST /api/v1/guest-profiles/{id}/documents`: multipart files in fields named
/// `documents` or `user_file:{n}`; at most 5 files of at most 5 MB, of the allowed
/// types, within the team's guest-document storage (by plan; past it, 403 and nothing
/// is kept). The text of each is extracted in the background.
#[utoipa::path(post, path = "/api/v1/guest-profiles/{guestProfileId}/documents", tag = "guest-profiles",
    params(("guestProfileId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn upload_documents(
    State(state): State<AppState>,
    caller: Caller,
    Path(key): Path<String>,
    mut multipart: Multipart,
) -> ApiResult<Envelope<UploadedDocuments>> {
    let account = caller.require_account()?;
    let mut uploads = Uploads::default();
    while let Some(field) = multipart.next_field().await.map_err(multipart_error)? {
        let file_name = Uploads::file_name(field.name().unwrap_or_default(), field.file_name())?;
        let bytes = field.bytes().await.map_err(multipart_error)?;
        uploads.add(file_name, bytes.to_vec())?;
    }
    let uploaded = state
        .guest_profiles()
        .upload(account, caller.plan, &key, uploads)
        .await?;
    Ok(Envelope(uploaded))
}

/// `POST /api/v1/guest-profiles/{id}/regenerate-bio`: a new bio from everything the
/// profile holds (charged as an AI assist).
#[utoipa::path(post, path = "/api/v1/guest-profiles/{guestProfileId}/regenerate-bio", tag = "guest-profiles",
    params(("guestProfileId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn regenerate_bio(
    State(state): State<AppState>,
    caller: Caller,
    Path(key): Path<String>,
) -> ApiResult<(Option<Metered>, Envelope<BioRegeneration>)> {
    let account = caller.require_account()?;
    let (charge, regenerated) = state
        .guest_profiles()
        .regenerate_bio(account, &caller.requester(), &key)
        .await?;
    Ok((charge.map(Metered), Envelope(regenerated)))
}

/// `GET /api/v1/guest-profiles/{id}/download?format=html|docx|pdf|markdown`.
#[utoipa::path(get, path = "/api/v1/guest-profiles/{guestProfileId}/download", tag = "guest-profiles",
    params(("guestProfileId" = String, Path),
           ("format" = Option<String>, Query, description = "html (default), docx, pdf or markdown")),
    responses((status = 200, description = "The profile as a file: HTML (default), DOCX, PDF or Markdown",
               content((String = "text/html"), (String = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"), (String = "application/pdf"), (String = "text/markdown")))))]
pub async fn download(
    State(state): State<AppState>,
    caller: Caller,
    Path(key): Path<String>,
    axum::extract::Query(query): axum::extract::Query<Vec<(String, String)>>,
) -> ApiResult<Response> {
    let account = caller.require_account()?;
    let format = DownloadFormat::parse(query_value(&query, "format"))?;
    let file = state
        .guest_profiles()
        .download(account, &key, format)
        .await?;
    let disposition = format!("attachment; filename=\"{}\"", file.file_name);
    Ok((
        [
            (header::CONTENT_TYPE, file.content_type.to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        file.bytes,
    )
        .into_response())
}
