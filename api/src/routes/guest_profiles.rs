//! Guest profiles: create (the SDK call and the onboarding form), details, archive,
//! bio, contact and social updates, document uploads, bio regeneration and download.

use axum::Router;
use axum::extract::{DefaultBodyLimit, Multipart, Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use chrono::Utc;
use podlens_model::entities::{
    CreateGuestProfileResponse, GuestBio, GuestProfile, GuestProfileCreator, GuestSocialLink,
};
use podlens_model::enums::{GuestProfileStatus, ProjectStatus, ProjectType};
use podlens_model::kinds::SocialKind;
use podlens_model::validate_social_url;
use podlens_model::validation::{
    GuestFormField, PROJECT_NAME_CHARS, is_valid_email, optional_url, parse_user_file_field,
    require_guest_field, validate_upload, validate_upload_content, validate_upload_count,
};
use serde_json::{Map, Value, json};
use uuid::Uuid;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::RawJson;
use crate::metering::{self, Metered};
use crate::state::{AppState, blocking};
use podlens_app::accounts::{Account, UsageCounter};
use podlens_app::workflows::agent;
use podlens_app::workflows::documents::{DocKind, StorageCheck, Stored};
use podlens_app::workflows::fields::{object, optional_string, optional_strings, query_value};
use podlens_app::workflows::guest_profiles::{
    GuestDocumentDoc, GuestProfileDoc, GuestSource, bio_of, bio_source, find_profile,
    profile_documents, render_markdown, stored_profile,
};
use podlens_app::workflows::render::{markdown_to_docx, markdown_to_html, markdown_to_pdf};
use podlens_app::workflows::{CapCheck, ProjectRow, slugify};

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

fn not_found(id: &str) -> ApiError {
    ApiError::NotFound(format!("Guest profile not found: {id}"))
}

fn load(state: &AppState, account: &Account, key: &str) -> ApiResult<Stored<GuestProfileDoc>> {
    find_profile(&state.workflows, &account.team_id, key)?.ok_or_else(|| not_found(key))
}

/// Trimmed text, `None` when absent, null or empty.
fn text(body: &Map<String, Value>, name: &str) -> ApiResult<Option<String>> {
    Ok(optional_string(body, name)?
        .map(|value| value.trim().to_owned())
        .filter(|value| !value.is_empty()))
}

fn email(body: &Map<String, Value>) -> ApiResult<Option<String>> {
    match text(body, "email")? {
        Some(address) if !is_valid_email(&address) => {
            Err(ApiError::BadRequest("Invalid email address".into()))
        }
        other => Ok(other),
    }
}

/// A list given as strings or as one free-text string.
fn items(body: &Map<String, Value>, name: &str) -> ApiResult<Vec<String>> {
    match body.get(name) {
        Some(Value::String(text)) => Ok(agent::text::list_items(text)),
        _ => Ok(optional_strings(body, name)?
            .unwrap_or_default()
            .into_iter()
            .map(|item| item.trim().to_owned())
            .filter(|item| !item.is_empty())
            .collect()),
    }
}

/// The project name of a guest: `Guest: <name>`, cut to the project name limit.
fn project_name(name: &str) -> String {
    let full = format!("Guest: {name}");
    full.chars()
        .take(PROJECT_NAME_CHARS.1)
        .collect::<String>()
        .trim()
        .to_owned()
}

struct NewProfile {
    first_name: String,
    last_name: String,
    email: Option<String>,
    phone: Option<String>,
    company_name: Option<String>,
    website_url: Option<String>,
    booking_url: Option<String>,
    linked_in: Option<String>,
    one_pager_url: Option<String>,
    source: GuestSource,
    create_alert: bool,
}

async fn store_new(
    state: AppState,
    caller: &Caller,
    new: NewProfile,
) -> ApiResult<(Metered, Envelope<CreateGuestProfileResponse>)> {
    let account = caller.require_account()?.clone();
    let plan = caller.plan;
    let name = format!("{} {}", new.first_name, new.last_name)
        .trim()
        .to_owned();
    let now = Utc::now();
    let project = ProjectRow {
        project_id: Uuid::new_v4().to_string(),
        team_id: account.team_id.clone(),
        slug: slugify(&name),
        name: project_name(&name),
        status: ProjectStatus::Active,
        project_types: vec![ProjectType::parse("guest-booking").unwrap_or(ProjectType::Other)],
        project_type_other_reason: None,
        project_purpose: Some(format!("Book podcast appearances for {name}")),
        project_keywords: new.source.topics_to_discuss.clone(),
        created_by_user_id: account.user_id.clone(),
        created_at: now,
        last_updated: now,
    };
    let cap = plan.limits().projects.map(u64::from);
    // The profile's bio is written by the AI: one AI assist, charged before anything is
    // created, once the project cap is known to leave room (checked again, under the
    // store's lock, when the project is created).
    if let Some(limit) = cap {
        let (counting, team_id) = (state.clone(), account.team_id.clone());
        let projects = blocking(move || Ok(counting.workflows.count_projects(&team_id)?)).await?;
        if projects >= limit {
            return Err(project_limit(plan, limit));
        }
    }
    let metered = metering::charge(&state, caller, UsageCounter::AiAssist).await?;
    let work_state = state.clone();
    let work_account = account.clone();
    let create_alert = new.create_alert;
    let (response, profile_id) = blocking(move || {
        let state = work_state;
        let account = work_account;
        let project = match state.workflows.create_project(project, cap)? {
            CapCheck::Done(project) => project,
            CapCheck::CapReached { limit } => return Err(project_limit(plan, limit)),
        };
        let profile = GuestProfileDoc {
            guest_profile_id: Uuid::new_v4().to_string(),
            slug: project.slug.clone(),
            project_id: project.project_id.clone(),
            project_slug: project.slug.clone(),
            first_name: Some(new.first_name.clone()),
            last_name: Some(new.last_name.clone()),
            name: name.clone(),
            email: new.email,
            phone: new.phone,
            company_name: new.company_name,
            website_url: new.website_url,
            booking_url: new.booking_url,
            linked_in: new.linked_in,
            one_pager_url: new.one_pager_url,
            image_url: None,
            created_by_user_id: account.user_id.clone(),
            created_by_email: account.email.clone(),
            social_media_links: Vec::new(),
            guest_bio: None,
            source: new.source,
            form_document: None,
            processing_status: GuestProfileStatus::Draft,
            processing_error: None,
            archived: false,
        };
        state.workflows.put_doc(
            DocKind::GuestProfile,
            &stored_profile(profile.clone(), &account.team_id, now),
        )?;
        if create_alert {
            create_person_alert(&state, &account, plan, &name)?;
        }
        Ok((
            CreateGuestProfileResponse {
                guest_profile_id: profile.guest_profile_id.clone(),
                guest_profile_slug: profile.slug.clone(),
                project_id: project.project_id,
                project_slug: project.slug,
            },
            profile.guest_profile_id,
        ))
    })
    .await?;
    state
        .guest_pipeline()
        .spawn(&account.team_id, &profile_id, true);
    Ok((metered, Envelope(response)))
}

fn project_limit(plan: podlens_model::Plan, limit: u64) -> ApiError {
    ApiError::Forbidden(format!(
        "Project limit reached: the {plan} plan allows {limit} projects. Delete a project or upgrade your plan to create more."
    ))
}

/// A person alert for a new guest, when the plan has room for one more.
fn create_person_alert(
    state: &AppState,
    account: &Account,
    plan: podlens_model::Plan,
    name: &str,
) -> ApiResult<()> {
    use podlens_app::workflows::alert_configs::alert_document;
    use podlens_app::workflows::alerts::{AlertConfig, EmailSettings};
    let now = Utc::now();
    let mut settings = Map::new();
    settings.insert("type".into(), json!("person"));
    settings.insert("value".into(), json!(name));
    settings.insert("trackGuestAppearances".into(), json!(true));
    settings.insert("trackMentions".into(), json!(true));
    let config = AlertConfig {
        id: Uuid::new_v4().to_string(),
        created_by_user_id: account.user_id.clone(),
        team_id: account.team_id.clone(),
        created_at: now,
        updated_at: now,
        alert_name: name.chars().take(100).collect(),
        alert_type: "person".into(),
        enabled: true,
        alert_settings: settings,
        email_settings: EmailSettings {
            frequency: "daily".into(),
        },
        last_run_date: None,
    };
    let doc = alert_document(config, false);
    let cap = plan.limits().alerts.map(u64::from);
    if let CapCheck::CapReached { limit } =
        state
            .workflows
            .insert_doc_capped(DocKind::AlertConfig, &doc, cap)?
    {
        tracing::info!(
            limit,
            "no alert for the new guest: the plan's alert limit is reached"
        );
    }
    Ok(())
}

fn required_name(body: &Map<String, Value>, name: &str, label: &str) -> ApiResult<String> {
    text(body, name)?.ok_or_else(|| ApiError::BadRequest(format!("{label} is required")))
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
    caller.require_account()?;
    let body = object(body)?;
    let first_name = required_name(&body, "firstName", "First name")?;
    let last_name = required_name(&body, "lastName", "Last name")?;
    let short_bio = require_guest_field(
        GuestFormField::ShortBio,
        optional_string(&body, "shortBio")?.as_deref(),
    )?;
    let new = NewProfile {
        first_name,
        last_name,
        email: email(&body)?,
        phone: text(&body, "phone")?,
        company_name: text(&body, "companyName")?,
        website_url: optional_url(
            GuestFormField::WebsiteUrl,
            optional_string(&body, "websiteUrl")?.as_deref(),
        )?,
        booking_url: text(&body, "bookingUrl")?,
        linked_in: optional_url(
            GuestFormField::LinkedIn,
            optional_string(&body, "linkedIn")?.as_deref(),
        )?,
        one_pager_url: text(&body, "onePagerUrl")?,
        source: GuestSource {
            short_bio,
            long_bio: text(&body, "longBio")?,
            goals: items(&body, "goals")?,
            areas_of_expertise: items(&body, "areasOfExpertise")?,
            topics_to_discuss: items(&body, "topicsToDiscuss")?,
            things_to_avoid: items(&body, "thingsToAvoid")?,
            additional_context: text(&body, "additionalContext")?,
        },
        create_alert: body.get("createAlert") == Some(&Value::Bool(true)),
    };
    store_new(state, &caller, new).await
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
    caller.require_account()?;
    let body = object(body)?;
    let field = |name: &str| -> ApiResult<Option<String>> { Ok(optional_string(&body, name)?) };
    let short_bio = require_guest_field(GuestFormField::ShortBio, field("shortBio")?.as_deref())?;
    let goals = require_guest_field(GuestFormField::Goals, field("goals")?.as_deref())?;
    let expertise = require_guest_field(GuestFormField::Expertise, field("expertise")?.as_deref())?;
    let topics = require_guest_field(
        GuestFormField::TopicsToDiscuss,
        field("topicsToDiscuss")?.as_deref(),
    )?;
    let linked_in = optional_url(GuestFormField::LinkedIn, field("linkedIn")?.as_deref())?;
    let website_url = optional_url(GuestFormField::WebsiteUrl, field("websiteUrl")?.as_deref())?;
    let first_name = required_name(&body, "firstName", "First name")?;
    let last_name = required_name(&body, "lastName", "Last name")?;
    let split = agent::text::list_items;
    let new = NewProfile {
        first_name,
        last_name,
        email: email(&body)?,
        phone: None,
        company_name: text(&body, "companyName")?,
        website_url,
        booking_url: None,
        linked_in,
        one_pager_url: None,
        source: GuestSource {
            short_bio,
            long_bio: None,
            goals: split(&goals),
            areas_of_expertise: split(&expertise),
            topics_to_discuss: split(&topics),
            things_to_avoid: text(&body, "topicsToAvoid")?
                .map(|t| split(&t))
                .unwrap_or_default(),
            additional_context: None,
        },
        create_alert: false,
    };
    store_new(state, &caller, new).await
}

fn wire(state: &AppState, team_id: &str, doc: &Stored<GuestProfileDoc>) -> ApiResult<GuestProfile> {
    let profile = &doc.value;
    let project = state.workflows.find_project(team_id, &profile.project_id)?;
    let listed = match &project {
        Some(project) => state.workflows.listed_podcasts(&project.project_id)?.len() as u64,
        None => 0,
    };
    let status = if profile.archived {
        ProjectStatus::Archived
    } else {
        project.map(|p| p.status).unwrap_or(ProjectStatus::Active)
    };
    let documents = profile_documents(&state.workflows, team_id, &profile.guest_profile_id)?;
    Ok(GuestProfile {
        project_id: profile.project_id.clone(),
        project_slug: profile.project_slug.clone(),
        guest_profile_id: profile.guest_profile_id.clone(),
        guest_profile_slug: profile.slug.clone(),
        public_slug: None,
        name: profile.name.clone(),
        status,
        created_at: doc.created_at,
        updated_at: doc.updated_at,
        documents: documents.iter().map(GuestDocumentDoc::wire).collect(),
        listed_podcasts_count: listed,
        booking_url: profile.booking_url.clone(),
        company_name: profile.company_name.clone(),
        email: profile.email.clone(),
        first_name: profile.first_name.clone(),
        last_name: profile.last_name.clone(),
        one_pager_url: profile.one_pager_url.clone(),
        phone: profile.phone.clone(),
        website_url: profile.website_url.clone(),
        image_url: profile.image_url.clone(),
        created_by: GuestProfileCreator {
            user_id: profile.created_by_user_id.clone(),
            email: profile.created_by_email.clone(),
        },
        social_media_links: profile.social_media_links.clone(),
        guest_bio: profile.guest_bio.clone(),
        public_view_settings: None,
        processing_status: Some(profile.processing_status),
    })
}

/// `GET /api/v1/guest-profiles/{guestProfileIdOrProjectId}`.
#[utoipa::path(get, path = "/api/v1/guest-profiles/{guestProfileIdOrProjectId}", tag = "guest-profiles",
    params(("guestProfileIdOrProjectId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn details(
    State(state): State<AppState>,
    caller: Caller,
    Path(key): Path<String>,
) -> ApiResult<Response> {
    let account = caller.require_account()?.clone();
    let (profile, error) = blocking(move || {
        let doc = load(&state, &account, &key)?;
        let error = doc.value.processing_error.clone();
        Ok((wire(&state, &account.team_id, &doc)?, error))
    })
    .await?;
    let mut value = serde_json::to_value(&profile).map_err(ApiError::internal)?;
    if let Some(error) = error {
        value["processingError"] = json!(error);
    }
    Ok(Envelope(value).into_response())
}

fn success() -> Envelope<Value> {
    Envelope(json!({"success": true}))
}

/// Loads, changes and stores a profile.
async fn change(
    state: AppState,
    caller: &Caller,
    key: String,
    apply: impl FnOnce(&AppState, &Account, &mut GuestProfileDoc) -> ApiResult<()> + Send + 'static,
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?.clone();
    blocking(move || {
        let mut doc = load(&state, &account, &key)?;
        apply(&state, &account, &mut doc.value)?;
        doc.updated_at = Utc::now();
        state.workflows.put_doc(DocKind::GuestProfile, &doc)?;
        Ok(success())
    })
    .await
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
    change(state, &caller, key, |state, account, profile| {
        profile.archived = true;
        if let Some(mut project) = state
            .workflows
            .find_project(&account.team_id, &profile.project_id)?
        {
            project.status = ProjectStatus::Archived;
            project.last_updated = Utc::now();
            state.workflows.save_project(&project)?;
        }
        Ok(())
    })
    .await
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
    let body = object(body)?;
    let fields = [
        "additionalContext",
        "areasOfExpertise",
        "goals",
        "longBio",
        "shortBio",
        "thingsToAvoid",
        "topicsToDiscuss",
    ];
    if let Some(unknown) = body.keys().find(|key| !fields.contains(&key.as_str())) {
        return Err(ApiError::BadRequest(format!(
            "Unknown bio field \"{unknown}\""
        )));
    }
    if !body.values().any(|value| !value.is_null()) {
        return Err(ApiError::BadRequest(
            "At least one field must be provided to update a bio".into(),
        ));
    }
    let short_bio = match body.get("shortBio") {
        None | Some(Value::Null) => None,
        Some(_) => Some(require_guest_field(
            GuestFormField::ShortBio,
            optional_string(&body, "shortBio")?.as_deref(),
        )?),
    };
    let long_bio = optional_string(&body, "longBio")?;
    let context = body
        .get("additionalContext")
        .map(|_| text(&body, "additionalContext"))
        .transpose()?;
    let lists: Vec<(&str, Option<Vec<String>>)> = [
        "areasOfExpertise",
        "goals",
        "thingsToAvoid",
        "topicsToDiscuss",
    ]
    .into_iter()
    .map(|name| Ok((name, optional_strings(&body, name)?)))
    .collect::<ApiResult<_>>()?;
    change(state, &caller, key, move |_, _, profile| {
        let mut bio = profile.guest_bio.clone().unwrap_or_else(|| GuestBio {
            short_bio: profile.source.short_bio.clone(),
            ..GuestBio::default()
        });
        if let Some(short) = short_bio {
            bio.short_bio = short;
        }
        if let Some(long) = long_bio {
            bio.long_bio = long;
        }
        if let Some(context) = context {
            bio.additional_context = context;
        }
        for (name, values) in lists {
            let Some(values) = values else { continue };
            match name {
                "areasOfExpertise" => bio.areas_of_expertise = values,
                "goals" => bio.goals = values,
                "thingsToAvoid" => bio.things_to_avoid = values,
                _ => bio.topics_to_discuss = values,
            }
        }
        profile.guest_bio = Some(bio);
        Ok(())
    })
    .await
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
    let body = object(body)?;
    let fields = [
        "bookingUrl",
        "onePagerUrl",
        "companyName",
        "email",
        "firstName",
        "lastName",
        "linkedIn",
        "name",
        "phone",
        "websiteUrl",
    ];
    if let Some(unknown) = body.keys().find(|key| !fields.contains(&key.as_str())) {
        return Err(ApiError::BadRequest(format!(
            "Unknown contact field \"{unknown}\""
        )));
    }
    let present = |name: &str| body.get(name).is_some_and(|value| !value.is_null());
    if !fields.iter().any(|name| present(name)) {
        return Err(ApiError::BadRequest(
            "At least one field must be provided to update contact details".into(),
        ));
    }
    let mut values: Vec<(&'static str, Option<String>)> = Vec::new();
    for name in fields {
        if !present(name) {
            continue;
        }
        let value = match name {
            "email" => email(&body)?,
            "linkedIn" => optional_url(
                GuestFormField::LinkedIn,
                optional_string(&body, name)?.as_deref(),
            )?,
            "websiteUrl" => optional_url(
                GuestFormField::WebsiteUrl,
                optional_string(&body, name)?.as_deref(),
            )?,
            _ => text(&body, name)?,
        };
        if matches!(name, "firstName" | "lastName" | "name") && value.is_none() {
            return Err(ApiError::BadRequest(format!("{name} cannot be empty")));
        }
        values.push((name, value));
    }
    let name_given = values.iter().any(|(name, _)| *name == "name");
    let names_changed = values
        .iter()
        .any(|(name, _)| matches!(*name, "firstName" | "lastName"));
    change(state, &caller, key, move |_, _, profile| {
        for (name, value) in values {
            match name {
                "bookingUrl" => profile.booking_url = value,
                "onePagerUrl" => profile.one_pager_url = value,
                "companyName" => profile.company_name = value,
                "email" => profile.email = value,
                "firstName" => profile.first_name = value,
                "lastName" => profile.last_name = value,
                "linkedIn" => profile.linked_in = value,
                "phone" => profile.phone = value,
                "websiteUrl" => profile.website_url = value,
                _ => profile.name = value.unwrap_or_default(),
            }
        }
        if names_changed && !name_given {
            profile.name = format!(
                "{} {}",
                profile.first_name.as_deref().unwrap_or_default(),
                profile.last_name.as_deref().unwrap_or_default()
            )
            .trim()
            .to_owned();
        }
        Ok(())
    })
    .await
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
    let list = match body {
        Value::Array(items) => items,
        Value::Object(mut map) => match map.remove("body") {
            Some(Value::Array(items)) => items,
            _ => {
                return Err(ApiError::BadRequest(
                    "The body must be a list of {socialMediaType, url}".into(),
                ));
            }
        },
        _ => {
            return Err(ApiError::BadRequest(
                "The body must be a list of {socialMediaType, url}".into(),
            ));
        }
    };
    let mut links: Vec<GuestSocialLink> = Vec::new();
    for item in list {
        let item = object(item)?;
        let kind_text = optional_string(&item, "socialMediaType")?
            .ok_or_else(|| ApiError::BadRequest("socialMediaType is required".into()))?;
        let kind = SocialKind::parse(&kind_text).ok_or_else(|| {
            ApiError::BadRequest(format!("Invalid socialMediaType \"{kind_text}\""))
        })?;
        let url = optional_string(&item, "url")?
            .map(|url| url.trim().to_owned())
            .ok_or_else(|| ApiError::BadRequest("url is required".into()))?;
        validate_social_url(kind, &url).map_err(podlens_model::ValidationError::from)?;
        links.retain(|link| link.social_media_type != kind || link.url != url);
        links.push(GuestSocialLink {
            social_media_type: kind,
            url,
            last_scraped_at: None,
            last_scrape_failed_at: None,
            is_scraping: false,
        });
    }
    change(state, &caller, key, move |_, _, profile| {
        profile.social_media_links = links;
        Ok(())
    })
    .await
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
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?.clone();
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    while let Some(field) = multipart.next_field().await.map_err(multipart_error)? {
        let name = field.name().unwrap_or_default().to_owned();
        if name != "documents" {
            parse_user_file_field(&name)?;
        }
        let file_name = field
            .file_name()
            .map(str::to_owned)
            .filter(|n| !n.trim().is_empty())
            .ok_or_else(|| ApiError::BadRequest(format!("Field {name} carries no file name")))?;
        let bytes = field.bytes().await.map_err(multipart_error)?;
        validate_upload(&file_name, bytes.len() as u64)?;
        validate_upload_content(&file_name, &bytes)?;
        files.push((file_name, bytes.to_vec()));
        validate_upload_count(files.len())?;
    }
    if files.is_empty() {
        return Err(ApiError::BadRequest("No file was uploaded".into()));
    }
    let work_state = state.clone();
    let work_account = account.clone();
    let plan = caller.plan;
    let (profile_id, uploaded) = blocking(move || {
        let state = work_state;
        let account = work_account;
        let profile = load(&state, &account, &key)?;
        let dir = state.data_dir.join("guest-documents").join(&profile.id);
        std::fs::create_dir_all(&dir).map_err(ApiError::internal)?;
        let bytes_uploaded: u64 = files.iter().map(|(_, bytes)| bytes.len() as u64).sum();
        let mut uploaded = Vec::new();
        let mut docs = Vec::new();
        let mut paths = Vec::new();
        for (file_name, bytes) in files {
            let id = Uuid::new_v4().to_string();
            let file_type = file_name
                .rsplit_once('.')
                .map(|(_, ext)| ext.to_ascii_lowercase())
                .unwrap_or_default();
            let path = dir.join(format!("{id}.{file_type}"));
            paths.push(path.clone());
            if let Err(error) = std::fs::write(&path, &bytes) {
                remove_files(&paths);
                return Err(ApiError::internal(error));
            }
            let now = Utc::now();
            let doc = GuestDocumentDoc {
                id: id.clone(),
                guest_profile_id: profile.id.clone(),
                name: file_name.clone(),
                file_type,
                size: bytes.len() as u64,
                status: "uploaded".into(),
                date_extracted: None,
                text: None,
                path: path.to_string_lossy().into_owned(),
            };
            docs.push(Stored {
                id: id.clone(),
                team_id: account.team_id.clone(),
                parent_id: Some(profile.id.clone()),
                created_at: now,
                updated_at: now,
                deleted: false,
                value: doc,
            });
            uploaded.push(json!({"id": id, "fileName": file_name, "fileSize": bytes.len()}));
        }
        let quota = plan.guest_document_storage_bytes();
        let stored = state.workflows.insert_docs_within_quota(
            DocKind::GuestDocument,
            &docs,
            bytes_uploaded,
            quota,
        );
        match stored {
            Ok(StorageCheck::Stored) => Ok((profile.id, uploaded)),
            Ok(StorageCheck::QuotaExceeded { used }) => {
                remove_files(&paths);
                Err(ApiError::Forbidden(storage_full_message(
                    plan,
                    quota,
                    used,
                    bytes_uploaded,
                )))
            }
            Err(error) => {
                remove_files(&paths);
                Err(error.into())
            }
        }
    })
    .await?;
    state
        .guest_pipeline()
        .spawn(&account.team_id, &profile_id, false);
    Ok(Envelope(json!({"uploadedDocuments": uploaded})))
}

fn remove_files(paths: &[std::path::PathBuf]) {
    for path in paths {
        if let Err(error) = std::fs::remove_file(path)
            && error.kind() != std::io::ErrorKind::NotFound
        {
            tracing::warn!(path = %path.display(), %error, "cannot remove a refused upload");
        }
    }
}

/// Bytes as megabytes for messages, one decimal.
fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / (1024.0 * 1024.0))
}

/// The answer to an upload past the team's guest-document storage.
fn storage_full_message(
    plan: podlens_model::Plan,
    quota: u64,
    used: u64,
    uploading: u64,
) -> String {
    format!(
        "Guest document storage limit reached: the {plan} plan allows {} of guest documents per team; {} are stored and this upload adds {}. Upgrade your plan to upload more.",
        megabytes(quota),
        megabytes(used),
        megabytes(uploading)
    )
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
) -> ApiResult<(Option<Metered>, Envelope<Value>)> {
    let account = caller.require_account()?.clone();
    let load_state = state.clone();
    let load_account = account.clone();
    let (doc, documents) = blocking(move || {
        let doc = load(&load_state, &load_account, &key)?;
        let documents = profile_documents(&load_state.workflows, &load_account.team_id, &doc.id)?;
        Ok((doc, documents))
    })
    .await?;
    let source = bio_source(&doc.value, &documents);
    if source.short_bio.trim().is_empty() && source.documents.is_empty() {
        return Ok((
            None,
            Envelope(json!({
                "result": null,
                "failureReason": "no-source-material",
                "failureMessage": "The profile has no bio and no readable documents to write a bio from.",
            })),
        ));
    }
    let metered = metering::charge(&state, &caller, UsageCounter::AiAssist).await?;
    let answer = match agent::generate_bio(state.assist.as_ref(), source).await {
        Ok(answer) => answer,
        Err(error) => {
            tracing::warn!(%error, "bio generation failed");
            return Ok((
                Some(metered),
                Envelope(json!({
                    "result": null,
                    "failureReason": "generation-error",
                    "failureMessage": error.to_string(),
                })),
            ));
        }
    };
    let bio = bio_of(answer.clone(), doc.value.source.additional_context.clone());
    let mut doc = doc;
    doc.value.guest_bio = Some(bio);
    doc.updated_at = Utc::now();
    let save_state = state.clone();
    blocking(move || Ok(save_state.workflows.put_doc(DocKind::GuestProfile, &doc)?)).await?;
    Ok((
        Some(metered),
        Envelope(json!({"result": {"answer": answer}})),
    ))
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
    let account = caller.require_account()?.clone();
    let format = query_value(&query, "format").unwrap_or("html").to_owned();
    if !matches!(format.as_str(), "html" | "docx" | "pdf" | "markdown" | "md") {
        return Err(ApiError::BadRequest(format!(
            "Invalid format \"{format}\"; expected one of html, docx, pdf, markdown"
        )));
    }
    let (profile, documents) = blocking(move || {
        let doc = load(&state, &account, &key)?;
        let documents = profile_documents(&state.workflows, &account.team_id, &doc.id)?;
        Ok((doc.value, documents))
    })
    .await?;
    let markdown = render_markdown(&profile, &documents);
    let (content_type, extension, bytes) = match format.as_str() {
        "pdf" => ("application/pdf", "pdf", markdown_to_pdf(&markdown)),
        "docx" => (
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "docx",
            markdown_to_docx(&markdown).map_err(ApiError::Internal)?,
        ),
        "html" => (
            "text/html; charset=utf-8",
            "html",
            markdown_to_html(&profile.name, &markdown).into_bytes(),
        ),
        _ => ("text/markdown; charset=utf-8", "md", markdown.into_bytes()),
    };
    let disposition = format!("attachment; filename=\"{}.{extension}\"", profile.slug);
    Ok((
        [
            (header::CONTENT_TYPE, content_type.to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        bytes,
    )
        .into_response())
}
