//! Guest prep (SPEC.md §3, §5, §7): the questions a podcast's host will likely ask,
//! grouped by theme, the actions a guest must not miss and a markdown summary, made
//! from the show's newest episodes (titles, show notes, transcripts). Charged as an AI
//! assist; with an email the prep is also mailed there.

use axum::Router;
use axum::extract::State;
use axum::routing::post;
use podlens_model::ValidationError;
use podlens_model::entities::GuestPrepResponse;
use podlens_model::validation::{is_valid_slug, validate_guest_prep_email_request};
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::RawJson;
use crate::metering::{self, Metered};
use crate::state::{AppState, blocking};
use podlens_app::accounts::UsageCounter;
use podlens_app::mail::Mail;
use podlens_app::workflows::agent;
use podlens_app::workflows::briefs::{
    CONTEXT_TRANSCRIPT_CHARS, SHOW_EPISODES, recent_show_material,
};
use podlens_app::workflows::fields::{object, optional_string};

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/guest-prep/generate", post(generate))
}

/// `data` of a guest prep.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GuestPrepResult {
    pub guest_prep: GuestPrepResponse,
    /// Where the prep was mailed, when an email was given.
    pub emailed_to: Option<String>,
}

/// The body of a guest prep request (for the OpenAPI document; read field by field).
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct GuestPrepRequest {
    /// Lowercase letters, digits and hyphens.
    #[schema(pattern = "^[a-z0-9-]+$")]
    podcast_slug: String,
    /// Where to mail the prep.
    #[schema(format = Email)]
    email: Option<String>,
}

/// Checks a podcast slug (and the email, when one is given) as §5 says.
pub fn checked_request(slug: &str, email: Option<&str>) -> ApiResult<()> {
    match email {
        Some(email) => validate_guest_prep_email_request(slug, email)?,
        None if !is_valid_slug(slug) => return Err(ValidationError::InvalidPodcastSlug.into()),
        None => {}
    }
    Ok(())
}

/// Makes the prep for the podcast with this slug, charged to the caller.
pub async fn prepare(
    state: &AppState,
    caller: &Caller,
    slug: String,
) -> ApiResult<(GuestPrepResponse, Metered)> {
    let load = state.clone();
    let lookup = slug.clone();
    let show = blocking(move || {
        let snapshot = load.catalog.snapshot()?;
        let podcast = snapshot
            .podcast_by_slug(&lookup)?
            .ok_or_else(|| ApiError::NotFound(format!("Podcast not found: {lookup}")))?;
        Ok(recent_show_material(
            snapshot,
            &podcast,
            SHOW_EPISODES,
            CONTEXT_TRANSCRIPT_CHARS,
        )?)
    })
    .await?;
    let metered = metering::charge(state, caller, UsageCounter::AiAssist).await?;
    let podcast_slug = show.podcast_slug.clone();
    let episode_slugs = show
        .episodes
        .iter()
        .map(|episode| episode.episode_slug.clone())
        .collect();
    let answer = agent::insight::guest_prep(state.assist.as_ref(), show).await?;
    Ok((
        GuestPrepResponse {
            podcast_slug,
            episode_slugs,
            grouped_likely_questions: answer.grouped_likely_questions,
            critical_actions: answer.critical_actions,
            summary: answer.summary,
        },
        metered,
    ))
}

/// The prep as a plain-text message.
fn prep_mail(to: &str, prep: &GuestPrepResponse) -> Mail {
    let mut text = prep.summary.trim_end().to_owned();
    for group in &prep.grouped_likely_questions {
        text.push_str(&format!("\n\n{}\n", group.description));
        for question in &group.very_likely {
            text.push_str(&format!("- {question}\n"));
        }
        for question in &group.curveballs {
            text.push_str(&format!("- (curveball) {question}\n"));
        }
    }
    if !prep.critical_actions.is_empty() {
        text.push_str("\n\nCritical actions\n");
        for action in &prep.critical_actions {
            text.push_str(&format!("- {action}\n"));
        }
    }
    Mail {
        to: to.to_owned(),
        subject: format!("Guest prep for {}", prep.podcast_slug),
        text,
    }
}

/// `POST /api/v1/guest-prep/generate`: body `podcastSlug` and an optional `email` to
/// mail the prep to.
#[utoipa::path(post, path = "/api/v1/guest-prep/generate", tag = "agent", operation_id = "generateGuestPrep", request_body = GuestPrepRequest,
    responses((status = 200, body = GuestPrepResult, description = "The guest prep"),
              (status = 404, description = "No podcast has this slug"),
              (status = 429, description = "The plan's AI assists are used up")))]
pub async fn generate(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<(Metered, Envelope<GuestPrepResult>)> {
    caller.require_account()?;
    let body = object(body)?;
    let slug = optional_string(&body, "podcastSlug")?
        .map(|slug| slug.trim().to_owned())
        .filter(|slug| !slug.is_empty())
        .ok_or_else(|| ApiError::BadRequest("podcastSlug is required".into()))?;
    let email = optional_string(&body, "email")?
        .map(|email| email.trim().to_owned())
        .filter(|email| !email.is_empty());
    checked_request(&slug, email.as_deref())?;
    let (prep, metered) = prepare(&state, &caller, slug).await?;
    if let Some(to) = &email {
        let mail = prep_mail(to, &prep);
        let mailer = state.mailer.clone();
        blocking(move || Ok(mailer.send(&mail)?)).await?;
    }
    Ok((
        metered,
        Envelope(GuestPrepResult {
            guest_prep: prep,
            emailed_to: email,
        }),
    ))
}
