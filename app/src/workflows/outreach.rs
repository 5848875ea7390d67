//! Outreach emails written by the built-in offline writer: the five templates (or the
//! team's own) with their placeholders filled from the podcast (host first name, show,
//! a recent episode) and the guest, shaped by the generation options, stored as outreach
//! history. Each generation counts as one AI assist of the plan.

use std::sync::Arc;

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

use super::fields::{enum_value, object, optional_string, optional_strings, query_value};
use super::guest_profiles::{GuestProfileDoc, find_profile, profiles_by_project};
use super::{
    OutreachContext, OutreachGuestInfo, OutreachRow, WorkflowStore, compose_outreach,
    host_first_name, outreach_templates, slugify,
};
use crate::accounts::metering::{Charge, Metering, Requester};
use crate::accounts::{Account, UsageCounter};
use crate::catalog::CatalogReader;
use crate::error::{AppError, AppResult};
use crate::runtime::{blocking, to_the_end};

fn option<T: Copy>(
    body: &Map<String, Value>,
    name: &str,
    default: T,
    parse: fn(&str) -> Option<T>,
    all: &[T],
    as_str: fn(T) -> &'static str,
) -> AppResult<T> {
    match optional_string(body, name)? {
        None => Ok(default),
        Some(value) => Ok(enum_value(&value, name, parse, all, as_str)?),
    }
}

/// The generation options; unset ones take the middle setting (basic mode).
fn options_of(body: &Map<String, Value>) -> AppResult<OutreachOptions> {
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
fn template_id(body: &Map<String, Value>, options: &OutreachOptions) -> AppResult<Option<String>> {
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
fn sender_name_of(body: &Map<String, Value>, chosen: Option<&str>) -> AppResult<String> {
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
) -> AppResult<OutreachGuestInfo> {
    let guest = match body.get("guest") {
        None | Some(Value::Null) => Map::new(),
        Some(value) => object(value.clone())
            .map_err(|_| AppError::Invalid("guest must be an object".into()))?,
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

async fn project_of(
    store: &WorkflowStore,
    row: &OutreachRow,
) -> AppResult<Option<OutreachProject>> {
    let Some(project_id) = row.project_id.as_deref() else {
        return Ok(None);
    };
    Ok(store
        .find_project(&row.team_id, project_id)
        .await?
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

/// `data` of the history: newest first.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HistoryResponse {
    pub total: u64,
    pub outreach_history: Vec<OutreachHistoryEntry>,
}

/// `?podcastId=&guestProfileId=` of the history.
#[derive(Debug, Clone, Default)]
pub struct OutreachHistoryQuery {
    podcast_id: Option<String>,
    guest_profile_id: Option<String>,
}

impl OutreachHistoryQuery {
    pub fn from_query(pairs: &[(String, String)]) -> OutreachHistoryQuery {
        OutreachHistoryQuery {
            podcast_id: query_value(pairs, "podcastId").map(str::to_owned),
            guest_profile_id: query_value(pairs, "guestProfileId").map(str::to_owned),
        }
    }
}

/// A generation's body, read field by field; the guest is read once the guest profile
/// it completes is known ([`Outreach::generate`]).
#[derive(Debug, Clone)]
pub struct OutreachRequest {
    podcast: String,
    options: OutreachOptions,
    template: Option<String>,
    sender_name: String,
    project: Option<String>,
    guest_profile: Option<String>,
    body: Map<String, Value>,
}

impl OutreachRequest {
    /// `chosen_name`: the name the caller chose in Settings, if any.
    pub fn from_json(body: Value, chosen_name: Option<&str>) -> AppResult<OutreachRequest> {
        let body = object(body)?;
        let podcast = optional_string(&body, "podcastId")?
            .filter(|id| !id.trim().is_empty())
            .ok_or_else(|| AppError::Invalid("podcastId is required".into()))?;
        let options = options_of(&body)?;
        let template = template_id(&body, &options)?;
        let sender_name = sender_name_of(&body, chosen_name)?;
        Ok(OutreachRequest {
            podcast,
            options,
            template,
            sender_name,
            project: optional_string(&body, "projectId")?,
            guest_profile: optional_string(&body, "guestProfileId")?,
            body,
        })
    }
}

/// What outreach works with.
#[derive(Clone)]
pub struct Outreach {
    pub catalog: Arc<CatalogReader>,
    pub store: Arc<WorkflowStore>,
    pub metering: Metering,
}

impl Outreach {
    /// Writes and stores an outreach email to a podcast (one AI assist).
    pub async fn generate(
        &self,
        account: &Account,
        requester: &Requester,
        request: OutreachRequest,
    ) -> AppResult<(Charge, OutreachResponse)> {
        let OutreachRequest {
            podcast: podcast_ref,
            options,
            template: template_ref,
            sender_name,
            project: project_ref,
            guest_profile: profile_ref,
            body,
        } = request;
        let (store, team) = (&self.store, &account.team_id);
        let template = match template_ref {
            Some(id) => Some(outreach_templates::resolve(store, team, &id).await?),
            None => None,
        };
        let catalog = self.catalog.clone();
        let podcast = blocking(move || catalog.podcast(&podcast_ref)).await?;
        let project = match project_ref {
            Some(reference) => Some(
                store
                    .find_project(team, reference.trim())
                    .await?
                    .ok_or_else(|| AppError::NotFound(format!("Project not found: {reference}")))?,
            ),
            None => None,
        };
        // The guest profile named, else the project's: the guest the email pitches. An
        // id the team has no profile for is kept as given, as before profiles filled the
        // guest.
        let profile = match (&profile_ref, &project) {
            (Some(reference), _) => find_profile(store, team, reference.trim())
                .await?
                .map(|doc| doc.value),
            (None, Some(project)) => profiles_by_project(store, team)
                .await?
                .remove(&project.project_id),
            (None, None) => None,
        };
        let guest = guest_of(&body, profile.as_ref(), &sender_name)?;
        let guest_profile_id = profile
            .map(|profile| profile.guest_profile_id)
            .or(profile_ref);
        let charge = self
            .metering
            .charge(requester, UsageCounter::AiAssist)
            .await?;
        let (catalog, owner) = (self.catalog.clone(), account.clone());
        let row = blocking(move || {
            let recent = catalog.snapshot()?.podcast_episodes(
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
                team_id: owner.team_id.clone(),
                user_id: owner.user_id.clone(),
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
            Ok(row)
        })
        .await?;
        // Charged: the email is kept, even if the caller stops waiting.
        let (store, saved) = (self.store.clone(), row.clone());
        to_the_end(async move { store.insert_outreach(&saved).await }).await?;
        let project = project_of(&self.store, &row).await?;
        Ok((
            charge,
            OutreachResponse {
                outreach: OutreachDetails {
                    entry: history_entry(&row, project),
                    body: row.body,
                },
            },
        ))
    }

    /// The team's outreach emails, newest first.
    pub async fn history(
        &self,
        account: &Account,
        query: OutreachHistoryQuery,
    ) -> AppResult<HistoryResponse> {
        let rows = self
            .store
            .outreach_history(
                &account.team_id,
                query.podcast_id.as_deref(),
                query.guest_profile_id.as_deref(),
            )
            .await?;
        let mut entries = Vec::with_capacity(rows.len());
        for row in &rows {
            entries.push(history_entry(row, project_of(&self.store, row).await?));
        }
        Ok(HistoryResponse {
            total: entries.len() as u64,
            outreach_history: entries,
        })
    }

    /// One of the team's emails, with its body.
    pub async fn details(
        &self,
        account: &Account,
        outreach_id: &str,
    ) -> AppResult<OutreachResponse> {
        let row = self
            .store
            .find_outreach(&account.team_id, outreach_id.trim())
            .await?
            .ok_or_else(|| AppError::NotFound(format!("Outreach not found: {outreach_id}")))?;
        let project = project_of(&self.store, &row).await?;
        Ok(OutreachResponse {
            outreach: OutreachDetails {
                entry: history_entry(&row, project),
                body: row.body,
            },
        })
    }
}
