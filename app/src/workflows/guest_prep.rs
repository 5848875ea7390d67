//! Guest prep (SPEC.md §3, §5, §7): the questions a podcast's host will likely ask,
//! grouped by theme, the actions a guest must not miss and a markdown summary, made
//! from the show's newest episodes (titles, show notes, transcripts). Charged as an AI
//! assist; with an email the prep is also mailed there.

use std::sync::Arc;

use podlens_model::ValidationError;
use podlens_model::entities::GuestPrepResponse;
use podlens_model::validation::{is_valid_slug, validate_guest_prep_email_request};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::agent::{self, AiProvider};
use super::briefs::{CONTEXT_TRANSCRIPT_CHARS, SHOW_EPISODES, recent_show_material};
use super::fields::{object, optional_string};
use crate::accounts::UsageCounter;
use crate::accounts::metering::{Charge, Metering, Requester};
use crate::catalog::CatalogReader;
use crate::error::{AppError, AppResult};
use crate::mail::{Mail, Mailer};
use crate::runtime::blocking;

/// `data` of a guest prep.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GuestPrepResult {
    pub guest_prep: GuestPrepResponse,
    /// Where the prep was mailed, when an email was given.
    pub emailed_to: Option<String>,
}

/// The body of a guest prep request.
#[derive(Debug, Clone, ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct GuestPrepRequest {
    /// Lowercase letters, digits and hyphens.
    #[schema(pattern = "^[a-z0-9-]+$")]
    pub podcast_slug: String,
    /// Where to mail the prep.
    #[schema(format = Email)]
    pub email: Option<String>,
}

impl GuestPrepRequest {
    pub fn from_json(body: Value) -> AppResult<GuestPrepRequest> {
        let body = object(body)?;
        let podcast_slug = optional_string(&body, "podcastSlug")?
            .map(|slug| slug.trim().to_owned())
            .filter(|slug| !slug.is_empty())
            .ok_or_else(|| AppError::Invalid("podcastSlug is required".into()))?;
        let email = optional_string(&body, "email")?
            .map(|email| email.trim().to_owned())
            .filter(|email| !email.is_empty());
        checked_request(&podcast_slug, email.as_deref())?;
        Ok(GuestPrepRequest {
            podcast_slug,
            email,
        })
    }
}

/// Checks a podcast slug (and the email, when one is given) as §5 says.
pub fn checked_request(slug: &str, email: Option<&str>) -> AppResult<()> {
    match email {
        Some(email) => validate_guest_prep_email_request(slug, email)?,
        None if !is_valid_slug(slug) => return Err(ValidationError::InvalidPodcastSlug.into()),
        None => {}
    }
    Ok(())
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

/// What guest preps work with.
#[derive(Clone)]
pub struct GuestPreps {
    pub catalog: Arc<CatalogReader>,
    pub metering: Metering,
    pub assist: Arc<dyn AiProvider>,
    pub mailer: Arc<dyn Mailer>,
}

impl GuestPreps {
    /// Makes the prep for the podcast with this slug, charged to the requester.
    pub async fn prepare(
        &self,
        requester: &Requester,
        slug: String,
    ) -> AppResult<(GuestPrepResponse, Charge)> {
        let catalog = self.catalog.clone();
        let show = blocking(move || {
            let snapshot = catalog.snapshot()?;
            let podcast = snapshot
                .podcast_by_slug(&slug)?
                .ok_or_else(|| AppError::NotFound(format!("Podcast not found: {slug}")))?;
            recent_show_material(snapshot, &podcast, SHOW_EPISODES, CONTEXT_TRANSCRIPT_CHARS)
        })
        .await?;
        let charge = self
            .metering
            .charge(requester, UsageCounter::AiAssist)
            .await?;
        let podcast_slug = show.podcast_slug.clone();
        let episode_slugs = show
            .episodes
            .iter()
            .map(|episode| episode.episode_slug.clone())
            .collect();
        let answer = agent::insight::guest_prep(self.assist.as_ref(), show).await?;
        Ok((
            GuestPrepResponse {
                podcast_slug,
                episode_slugs,
                grouped_likely_questions: answer.grouped_likely_questions,
                critical_actions: answer.critical_actions,
                summary: answer.summary,
            },
            charge,
        ))
    }

    /// The prep, mailed to the request's email when it gives one.
    pub async fn generate(
        &self,
        requester: &Requester,
        request: GuestPrepRequest,
    ) -> AppResult<(Charge, GuestPrepResult)> {
        let (prep, charge) = self.prepare(requester, request.podcast_slug).await?;
        if let Some(to) = &request.email {
            let mail = prep_mail(to, &prep);
            let mailer = self.mailer.clone();
            blocking(move || mailer.send(&mail)).await?;
        }
        Ok((
            charge,
            GuestPrepResult {
                guest_prep: prep,
                emailed_to: request.email,
            },
        ))
    }
}
