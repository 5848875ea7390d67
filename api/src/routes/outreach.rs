//! Outreach emails written by the built-in offline writer: the five templates with
//! their placeholders filled from the podcast (host first name, show, a recent
//! episode) and the guest, shaped by the generation options, stored as outreach
//! history. Each generation counts as one AI assist of the plan.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use chrono::Utc;
use podlens_data::snapshot::EpisodesQuery;
use podlens_model::entities::{
    OutreachDetails, OutreachGuest, OutreachHistoryEntry, OutreachOptions, OutreachPodcast,
    OutreachProject,
};
use podlens_model::enums::{
    CallToActionStyle, EmailLength, GenerationMode, OutreachPerspective, OutreachTemplateKind,
    PersonalizationLevel,
};
use serde::Serialize;
use serde_json::{Map, Value};
use uuid::Uuid;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiQuery, RawJson};
use crate::metering::{self, Metered};
use crate::routes::lookup;
use crate::state::{AppState, blocking};
use podlens_app::accounts::UsageCounter;
use podlens_app::workflows::fields::{
    enum_value, object, optional_string, optional_strings, query_value,
};
use podlens_app::workflows::guest_profiles::{GuestProfileDoc, find_profile, profiles_by_project};
use podlens_app::workflows::outreach_templates;
use podlens_app::workflows::{
    OutreachContext, OutreachGuestInfo, OutreachRow, compose_outreach, host_first_name, slugify,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/outreach/generate", post(generate))
        .route("/api/v1/outreach/history", get(history))
        .route("/api/v1/outreach/{id}/details", get(details))
}

fn option<T: Copy>(
    body: &Map<String, Value>,
    name: &str,
    default: T,
    parse: fn(&str) -> Option<T>,
    all: &[T],
    as_str: fn(T) -> &'static str,
) -> ApiResult<T> {
    match optional_string(body, name)? {
        None => Ok(default),
        Some(value) => Ok(enum_value(&value, name, parse, all, as_str)?),
    }
}

/// The generation options; unset ones take the middle setting (basic mode).
fn options_of(body: &Map<String, Value>) -> ApiResult<OutreachOptions> {
    Ok(OutreachOptions {
        perspective: option(
            body,
            "perspective",
            OutreachPerspective::First,
            OutreachPerspective::parse,
            OutreachPerspective::ALL,
            OutreachPerspective::as_str,
        )?,
        email_length: option(
            body,
            "emailLength",
            EmailLength::Medium,
            EmailLength::parse,
            EmailLength::ALL,
            EmailLength::as_str,
        )?,
        call_to_action_style: option(
            body,
            "callToActionStyle",
            CallToActionStyle::Medium,
            CallToActionStyle::parse,
            CallToActionStyle::ALL,
            CallToActionStyle::as_str,
        )?,
        personalization_level: option(
            body,
            "personalizationLevel",
            PersonalizationLevel::Medium,
            PersonalizationLevel::parse,
            PersonalizationLevel::ALL,
            PersonalizationLevel::as_str,
        )?,
        generation_mode: option(
            body,
            "generationMode",
            GenerationMode::Basic,
            GenerationMode::parse,
            GenerationMode::ALL,
            GenerationMode::as_str,
        )?,
        outreach_template_id: optional_string(body, "outreachTemplateId")?,
    })
}

/// The template an `outreachTemplateId` (or `template`) names: a built-in kind or one
/// of the team's (looked up by the caller).
fn template_id(body: &Map<String, Value>, options: &OutreachOptions) -> ApiResult<Option<String>> {
    Ok(options
        .outreach_template_id
        .clone()
        .or(optional_string(body, "template")?)
        .filter(|id| !id.trim().is_empty()))
}

/// Where the sender's name goes when it is not known (the user chose no name in
/// Settings and the body gives none): the email says where to write it rather than
/// signing with the address's "jdoe42".
pub const YOUR_NAME: &str = "[Your name]";

/// The name the email is signed with when someone writes on the guest's behalf: the
/// body's `senderName`, else the name the user chose, else [`YOUR_NAME`].
fn sender_name_of(body: &Map<String, Value>, chosen: Option<&str>) -> ApiResult<String> {
    Ok(optional_string(body, "senderName")?
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty())
        .or_else(|| chosen.map(str::to_owned))
        .unwrap_or_else(|| YOUR_NAME.to_owned()))
}

/// A field of the body's guest, else the profile's.
fn or_profile(given: Option<String>, profile: Option<String>) -> Option<String> {
    given
        .filter(|value| !value.trim().is_empty())
        .or(profile.filter(|value| !value.trim().is_empty()))
}

/// The guest from the body's `guest` object, each field it leaves out taken from the
/// guest `profile` (the one named by `guestProfileId`, or the project's) unless the body
/// names another guest; with neither, the caller pitches themself under `sender_name`.
fn guest_of(
    body: &Map<String, Value>,
    profile: Option<&GuestProfileDoc>,
    sender_name: &str,
) -> ApiResult<OutreachGuestInfo> {
    let guest = match body.get("guest") {
        None | Some(Value::Null) => Map::new(),
        Some(value) => object(value.clone())
            .map_err(|_| ApiError::BadRequest("guest must be an object".into()))?,
    };
    // A guest named in the body who is not the profile's is someone else: none of the
    // profile's bio, company or topics is theirs.
    let named = optional_string(&guest, "name")?.filter(|name| !name.trim().is_empty());
    let profile = profile.filter(|profile| {
        named
            .as_deref()
            .is_none_or(|name| name.trim().eq_ignore_ascii_case(profile.name.trim()))
    });
    let (profile_bio, profile_expertise, profile_topics) = match profile {
        None => (None, Vec::new(), Vec::new()),
        Some(profile) => match &profile.guest_bio {
            Some(bio) => (
                Some(bio.short_bio.clone()),
                bio.areas_of_expertise.clone(),
                bio.topics_to_discuss.clone(),
            ),
            None => (
                Some(profile.source.short_bio.clone()),
                profile.source.areas_of_expertise.clone(),
                profile.source.topics_to_discuss.clone(),
            ),
        },
    };
    let name = or_profile(
        optional_string(&guest, "name")?,
        profile.map(|profile| profile.name.clone()),
    )
    .unwrap_or_else(|| sender_name.to_owned());
    let topics = optional_strings(&guest, "topicsToDiscuss")?
        .or(optional_strings(&guest, "topics")?)
        .filter(|topics| topics.iter().any(|topic| !topic.trim().is_empty()))
        .unwrap_or(profile_topics)
        .into_iter()
        .map(|topic| topic.trim().to_owned())
        .filter(|topic| !topic.is_empty())
        .collect();
    let expertise = (!profile_expertise.is_empty()).then(|| profile_expertise.join(", "));
    Ok(OutreachGuestInfo {
        name: name.trim().to_owned(),
        company_name: or_profile(
            optional_string(&guest, "companyName")?,
            profile.and_then(|profile| profile.company_name.clone()),
        ),
        short_bio: or_profile(optional_string(&guest, "shortBio")?, profile_bio),
        expertise: or_profile(optional_string(&guest, "expertise")?, expertise),
        topics,
    })
}

fn history_entry(row: &OutreachRow, project: Option<OutreachProject>) -> OutreachHistoryEntry {
    OutreachHistoryEntry {
        id: row.outreach_id.clone(),
        created_at: row.created_at,
        team_id: row.team_id.clone(),
        user_id: row.user_id.clone(),
        podcast: OutreachPodcast {
            podcast_id: row.podcast_id.clone(),
            title: row.podcast_title.clone(),
            slug: row.podcast_slug.clone(),
            image_url: row.podcast_image_url.clone(),
        },
        project,
        subject: row.subject.clone(),
        options: row.options.clone(),
    }
}

fn project_of(state: &AppState, row: &OutreachRow) -> ApiResult<Option<OutreachProject>> {
    let Some(project_id) = row.project_id.as_deref() else {
        return Ok(None);
    };
    Ok(state
        .workflows
        .find_project(&row.team_id, project_id)?
        .map(|project| OutreachProject {
            project_id: project.project_id,
            slug: project.slug,
            name: project.name,
            guest: row.guest.clone(),
        }))
}

/// `data.outreach` of a generation or a details call.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct OutreachResponse {
    pub outreach: OutreachDetails,
}

/// `POST /api/v1/outreach/generate`: writes and stores an outreach email to a podcast.
#[utoipa::path(post, path = "/api/v1/outreach/generate", tag = "outreach", operation_id = "generateOutreach",
    responses((status = 200, body = OutreachResponse, description = "The generated email, stored in the history"),
              (status = 429, description = "The plan's AI assists are used up")))]
pub async fn generate(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<(Metered, Envelope<OutreachResponse>)> {
    let account = caller.require_account()?.clone();
    let body = object(body)?;
    let podcast_ref = optional_string(&body, "podcastId")?
        .filter(|id| !id.trim().is_empty())
        .ok_or_else(|| ApiError::BadRequest("podcastId is required".into()))?;
    let options = options_of(&body)?;
    let template_ref = template_id(&body, &options)?;
    let sender_name = sender_name_of(&body, account.chosen_name())?;
    let project_ref = optional_string(&body, "projectId")?;
    let profile_ref = optional_string(&body, "guestProfileId")?;
    let lookup_state = state.clone();
    let lookup_account = account.clone();
    let profile_key = profile_ref.clone();
    let (template, podcast, project, profile) = blocking(move || {
        let template = template_ref
            .map(|id| {
                outreach_templates::resolve(&lookup_state.workflows, &lookup_account.team_id, &id)
            })
            .transpose()?;
        let podcast = lookup::podcast_by_id_or_slug(&lookup_state, &podcast_ref)?;
        let project = project_ref
            .map(|reference| {
                lookup_state
                    .workflows
                    .find_project(&lookup_account.team_id, reference.trim())?
                    .ok_or_else(|| ApiError::NotFound(format!("Project not found: {reference}")))
            })
            .transpose()?;
        let team = &lookup_account.team_id;
        // The guest profile named, else the project's: the guest the email pitches.
        // An id the team has no profile for is kept as given, as before profiles
        // filled the guest.
        let profile = match (&profile_key, &project) {
            (Some(reference), _) => {
                find_profile(&lookup_state.workflows, team, reference.trim())?.map(|doc| doc.value)
            }
            (None, Some(project)) => {
                profiles_by_project(&lookup_state.workflows, team)?.remove(&project.project_id)
            }
            (None, None) => None,
        };
        Ok((template, podcast, project, profile))
    })
    .await?;
    let guest = guest_of(&body, profile.as_ref(), &sender_name)?;
    let guest_profile_id = profile
        .map(|profile| profile.guest_profile_id)
        .or(profile_ref);
    let metered = metering::charge(&state, &caller, UsageCounter::AiAssist).await?;
    blocking(move || {
        let recent = state.catalog.snapshot()?.podcast_episodes(
            podcast.podcast_id,
            &EpisodesQuery {
                limit: 1,
                ..EpisodesQuery::default()
            },
        )?;
        let context = OutreachContext {
            host_first_name: host_first_name(
                &podcast.podcast_host_names,
                podcast.podcast_owner_name.as_deref(),
            ),
            podcast_title: podcast.podcast_rss_title.clone(),
            recent_episode_title: recent
                .episodes
                .first()
                .map(|episode| episode.episode_rss_title.clone()),
            podcast_genres: podcast.podcast_podlens_genres.clone(),
            sender_name: match options.perspective {
                // The guest writes: the email is theirs to sign.
                OutreachPerspective::First => guest.name.clone(),
                OutreachPerspective::Third => sender_name,
            },
            guest,
        };
        let kind = template
            .as_ref()
            .and_then(|template| OutreachTemplateKind::parse(&template.id))
            .unwrap_or(OutreachTemplateKind::Default);
        let custom_text = template
            .as_ref()
            .filter(|template| !template.built_in)
            .map(|template| template.template.as_str());
        let (subject, body) = compose_outreach(kind, custom_text, &context, &options);
        let outreach_guest = guest_profile_id.as_ref().map(|id| OutreachGuest {
            id: id.clone(),
            name: context.guest.name.clone(),
            slug: slugify(&context.guest.name),
        });
        let row = OutreachRow {
            outreach_id: Uuid::new_v4().to_string(),
            team_id: account.team_id.clone(),
            user_id: account.user_id.clone(),
            podcast_id: podcast.podcast_id.to_string(),
            podcast_title: podcast.podcast_rss_title.clone(),
            podcast_slug: podcast.podcast_slug.clone(),
            podcast_image_url: podcast.podcast_image_url.clone(),
            project_id: project.as_ref().map(|project| project.project_id.clone()),
            guest_profile_id,
            guest: outreach_guest,
            subject,
            body,
            options,
            created_at: Utc::now(),
        };
        state.workflows.insert_outreach(&row)?;
        let project = project_of(&state, &row)?;
        Ok((
            metered,
            Envelope(OutreachResponse {
                outreach: OutreachDetails {
                    entry: history_entry(&row, project),
                    body: row.body,
                },
            }),
        ))
    })
    .await
}

/// `data` of the history: newest first.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HistoryResponse {
    pub total: u64,
    pub outreach_history: Vec<OutreachHistoryEntry>,
}

/// `GET /api/v1/outreach/history?podcastId=&guestProfileId=`.
#[utoipa::path(get, path = "/api/v1/outreach/history", tag = "outreach",
    params(("podcastId" = Option<String>, Query, description = "Only e-mails to this podcast"),
           ("guestProfileId" = Option<String>, Query, description = "Only e-mails pitching this guest")),
    responses((status = 200, body = HistoryResponse, description = "The team's outreach emails, newest first")))]
pub async fn history(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(pairs): ApiQuery<Vec<(String, String)>>,
) -> ApiResult<Envelope<HistoryResponse>> {
    let account = caller.require_account()?.clone();
    let podcast_id = query_value(&pairs, "podcastId").map(str::to_owned);
    let guest_profile_id = query_value(&pairs, "guestProfileId").map(str::to_owned);
    blocking(move || {
        let rows = state.workflows.outreach_history(
            &account.team_id,
            podcast_id.as_deref(),
            guest_profile_id.as_deref(),
        )?;
        let entries = rows
            .iter()
            .map(|row| Ok(history_entry(row, project_of(&state, row)?)))
            .collect::<ApiResult<Vec<_>>>()?;
        Ok(Envelope(HistoryResponse {
            total: entries.len() as u64,
            outreach_history: entries,
        }))
    })
    .await
}

/// `GET /api/v1/outreach/{id}/details`: the email with its body.
#[utoipa::path(get, path = "/api/v1/outreach/{id}/details", tag = "outreach",
    params(("id" = String, Path)),
    responses((status = 200, body = OutreachResponse, description = "The email with its body")))]
pub async fn details(
    State(state): State<AppState>,
    caller: Caller,
    Path(outreach_id): Path<String>,
) -> ApiResult<Envelope<OutreachResponse>> {
    let account = caller.require_account()?.clone();
    blocking(move || {
        let row = state
            .workflows
            .find_outreach(&account.team_id, outreach_id.trim())?
            .ok_or_else(|| ApiError::NotFound(format!("Outreach not found: {outreach_id}")))?;
        let project = project_of(&state, &row)?;
        Ok(Envelope(OutreachResponse {
            outreach: OutreachDetails {
                entry: history_entry(&row, project),
                body: row.body,
            },
        }))
    })
    .await
}
