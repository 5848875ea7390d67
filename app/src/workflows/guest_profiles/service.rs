//! Guest profiles as a team manages them: create (with its project, the AI-written bio
//! charged as an assist and an optional person alert), details, archive, bio, contact
//! and social-link changes, document uploads within the plan's storage, bio
//! regeneration and downloads.

use std::path::PathBuf;
use std::sync::Arc;

use chrono::Utc;
use podlens_model::Plan;
use podlens_model::entities::{
    CreateGuestProfileResponse, GuestProfile, GuestProfileCreator, GuestSocialLink,
};
use podlens_model::enums::{GuestProfileStatus, ProjectStatus, ProjectType};
use podlens_model::validation::PROJECT_NAME_CHARS;
use serde::Serialize;
use serde_json::{Map, json};
use uuid::Uuid;

use super::requests::{BioChanges, ContactChanges, DownloadFormat, NewGuestProfile, Uploads};
use super::{
    GuestDocumentDoc, GuestPipeline, GuestProfileDoc, bio_of, bio_source, find_profile,
    profile_documents, render_markdown, save_changes, stored_profile,
};
use crate::accounts::metering::{Charge, Metering, Requester};
use crate::accounts::{Account, UsageCounter};
use crate::error::{AppError, AppResult};
use crate::runtime::{blocking, to_the_end};
use crate::workflows::agent::{self, AiProvider, BioAnswer};
use crate::workflows::documents::{DocKind, StorageCheck, Stored};
use crate::workflows::render::{markdown_to_docx, markdown_to_html, markdown_to_pdf};
use crate::workflows::{CapCheck, ProjectRow, WorkflowStore, slugify};

/// A profile's details: the wire profile, and why its processing failed, if it did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GuestProfileDetails {
    #[serde(flatten)]
    pub profile: GuestProfile,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub processing_error: Option<String>,
}

/// One file of an upload, as stored.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UploadedDocument {
    pub id: String,
    pub file_name: String,
    pub file_size: usize,
}

/// The answer to an upload.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UploadedDocuments {
    pub uploaded_documents: Vec<UploadedDocument>,
}

/// A regenerated bio.
#[derive(Debug, Clone, Serialize)]
pub struct BioResult {
    pub answer: BioAnswer,
}

/// The answer to a bio regeneration: the new bio, or why there is none.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BioRegeneration {
    pub result: Option<BioResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_message: Option<String>,
}

impl BioRegeneration {
    fn failed(reason: &'static str, message: String) -> BioRegeneration {
        BioRegeneration {
            result: None,
            failure_reason: Some(reason),
            failure_message: Some(message),
        }
    }
}

/// A profile rendered as a file.
#[derive(Debug, Clone)]
pub struct Download {
    pub content_type: &'static str,
    pub file_name: String,
    pub bytes: Vec<u8>,
}

/// What the guest-profile service works with.
#[derive(Clone)]
pub struct GuestProfiles {
    pub store: Arc<WorkflowStore>,
    pub metering: Metering,
    pub assist: Arc<dyn AiProvider>,
    pub pipeline: GuestPipeline,
    /// Uploaded documents live under `data_dir/guest-documents/{profile id}`.
    pub data_dir: PathBuf,
}

fn not_found(id: &str) -> AppError {
    AppError::NotFound(format!("Guest profile not found: {id}"))
}

async fn load(
    store: &WorkflowStore,
    account: &Account,
    key: &str,
) -> AppResult<Stored<GuestProfileDoc>> {
    find_profile(store, &account.team_id, key)
        .await?
        .ok_or_else(|| not_found(key))
}

fn project_limit(plan: Plan, limit: u64) -> AppError {
    AppError::Forbidden(format!(
        "Project limit reached: the {plan} plan allows {limit} projects. Delete a project or upgrade your plan to create more."
    ))
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

/// A person alert for a new guest, when the plan has room for one more.
async fn create_person_alert(
    store: &WorkflowStore,
    account: &Account,
    plan: Plan,
    name: &str,
) -> AppResult<()> {
    use crate::workflows::alert_configs::alert_document;
    use crate::workflows::alerts::{AlertConfig, EmailSettings};
    let mut settings = Map::new();
    settings.insert("type".into(), json!("person"));
    settings.insert("value".into(), json!(name));
    settings.insert("trackGuestAppearances".into(), json!(true));
    settings.insert("trackMentions".into(), json!(true));
    let config = AlertConfig::new(
        account,
        name.chars().take(100).collect(),
        "person".into(),
        true,
        settings,
        EmailSettings {
            frequency: "daily".into(),
        },
    );
    let doc = alert_document(config, false);
    let cap = plan.limits().alerts.map(u64::from);
    if let CapCheck::CapReached { limit } = store
        .insert_doc_capped(DocKind::AlertConfig, &doc, cap)
        .await?
    {
        tracing::info!(
            limit,
            "no alert for the new guest: the plan's alert limit is reached"
        );
    }
    Ok(())
}

async fn wire(
    store: &WorkflowStore,
    team_id: &str,
    doc: &Stored<GuestProfileDoc>,
) -> AppResult<GuestProfile> {
    let profile = &doc.value;
    let project = store.find_project(team_id, &profile.project_id).await?;
    let listed = match &project {
        Some(project) => store.listed_podcasts(&project.project_id).await?.len() as u64,
        None => 0,
    };
    let status = if profile.archived {
        ProjectStatus::Archived
    } else {
        project.map(|p| p.status).unwrap_or(ProjectStatus::Active)
    };
    let documents = profile_documents(store, team_id, &profile.guest_profile_id).await?;
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

fn remove_files(paths: &[PathBuf]) {
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
fn storage_full_message(plan: Plan, quota: u64, used: u64, uploading: u64) -> String {
    format!(
        "Guest document storage limit reached: the {plan} plan allows {} of guest documents per team; {} are stored and this upload adds {}. Upgrade your plan to upload more.",
        megabytes(quota),
        megabytes(used),
        megabytes(uploading)
    )
}

impl GuestProfiles {
    /// Creates the profile and its project (within the plan's project cap), charges the
    /// AI assist that writes its bio once the cap is known to leave room, adds the
    /// person alert asked for, and starts the pipeline.
    pub async fn create(
        &self,
        account: &Account,
        requester: &Requester,
        new: NewGuestProfile,
    ) -> AppResult<(Charge, CreateGuestProfileResponse)> {
        let plan = requester.plan;
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
        // The profile's bio is written by the AI: one AI assist, charged before anything
        // is created, once the project cap is known to leave room (checked again, under
        // the store's lock, when the project is created).
        if let Some(limit) = cap {
            let projects = self.store.count_projects(&account.team_id).await?;
            if projects >= limit {
                return Err(project_limit(plan, limit));
            }
        }
        let charge = self
            .metering
            .charge(requester, UsageCounter::AiAssist)
            .await?;
        // Charged: the project, the profile and its alert are all made, even if the
        // caller stops waiting.
        let (store, owner, pipeline) = (self.store.clone(), account.clone(), self.pipeline.clone());
        let response = to_the_end(async move {
            let project = match store.create_project(project, cap).await? {
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
                created_by_user_id: owner.user_id.clone(),
                created_by_email: owner.email.clone(),
                social_media_links: Vec::new(),
                guest_bio: None,
                source: new.source,
                form_document: None,
                processing_status: GuestProfileStatus::Draft,
                processing_error: None,
                archived: false,
            };
            let stored = stored_profile(profile.clone(), &owner.team_id, now);
            store.put_doc(DocKind::GuestProfile, &stored).await?;
            if new.create_alert {
                create_person_alert(&store, &owner, plan, &name).await?;
            }
            pipeline.spawn(&owner.team_id, &profile.guest_profile_id, true);
            Ok(CreateGuestProfileResponse {
                guest_profile_id: profile.guest_profile_id,
                guest_profile_slug: profile.slug,
                project_id: project.project_id,
                project_slug: project.slug,
            })
        })
        .await?;
        Ok((charge, response))
    }

    /// A profile by its id, slug or project id.
    pub async fn details(&self, account: &Account, key: &str) -> AppResult<GuestProfileDetails> {
        let doc = load(&self.store, account, key).await?;
        Ok(GuestProfileDetails {
            profile: wire(&self.store, &account.team_id, &doc).await?,
            processing_error: doc.value.processing_error.clone(),
        })
    }

    /// Loads, changes and stores a profile.
    async fn change(
        &self,
        account: &Account,
        key: &str,
        apply: impl FnOnce(&mut GuestProfileDoc),
    ) -> AppResult<()> {
        let doc = load(&self.store, account, key).await?;
        let mut profile = doc.value.clone();
        apply(&mut profile);
        save_changes(&self.store, &doc.id, &doc.value, &profile).await?;
        Ok(())
    }

    /// The profile and its project become ARCHIVED.
    pub async fn archive(&self, account: &Account, key: &str) -> AppResult<()> {
        let doc = load(&self.store, account, key).await?;
        let (store, team_id) = (self.store.clone(), account.team_id.clone());
        to_the_end(async move {
            let mut archived = doc.value.clone();
            archived.archived = true;
            let project = store.find_project(&team_id, &doc.value.project_id).await?;
            if let Some(mut project) = project {
                project.status = ProjectStatus::Archived;
                project.last_updated = Utc::now();
                store.save_project(&project).await?;
            }
            save_changes(&store, &doc.id, &doc.value, &archived).await?;
            Ok(())
        })
        .await
    }

    pub async fn update_bio(
        &self,
        account: &Account,
        key: &str,
        changes: BioChanges,
    ) -> AppResult<()> {
        self.change(account, key, move |profile| changes.apply(profile))
            .await
    }

    pub async fn update_contact(
        &self,
        account: &Account,
        key: &str,
        changes: ContactChanges,
    ) -> AppResult<()> {
        self.change(account, key, move |profile| changes.apply(profile))
            .await
    }

    pub async fn update_socials(
        &self,
        account: &Account,
        key: &str,
        links: Vec<GuestSocialLink>,
    ) -> AppResult<()> {
        self.change(account, key, move |profile| {
            profile.social_media_links = links;
        })
        .await
    }

    /// Stores the files within the team's guest-document storage (by plan; past it,
    /// Forbidden and nothing is kept), then extracts their text in the background.
    pub async fn upload(
        &self,
        account: &Account,
        plan: Plan,
        key: &str,
        uploads: Uploads,
    ) -> AppResult<UploadedDocuments> {
        if uploads.is_empty() {
            return Err(AppError::Invalid("No file was uploaded".into()));
        }
        let profile = load(&self.store, account, key).await?;
        let dir = self.data_dir.join("guest-documents").join(&profile.id);
        let (owner, profile_id) = (account.clone(), profile.id.clone());
        let written = blocking(move || {
            std::fs::create_dir_all(&dir).map_err(AppError::internal)?;
            let files = uploads.files;
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
                    return Err(AppError::internal(error));
                }
                let now = Utc::now();
                let doc = GuestDocumentDoc {
                    id: id.clone(),
                    guest_profile_id: profile_id.clone(),
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
                    team_id: owner.team_id.clone(),
                    parent_id: Some(profile_id.clone()),
                    created_at: now,
                    updated_at: now,
                    deleted: false,
                    value: doc,
                });
                uploaded.push(UploadedDocument {
                    id,
                    file_name,
                    file_size: bytes.len(),
                });
            }
            Ok((docs, uploaded, paths, bytes_uploaded))
        })
        .await?;
        let (docs, uploaded, paths, bytes_uploaded) = written;
        let quota = plan.guest_document_storage_bytes();
        // The files are written: the quota check and its cleanup run as a task of their
        // own, so a client that hangs up cannot leave files the store does not know.
        let store = self.store.clone();
        let stored = to_the_end(async move {
            let stored = store
                .insert_docs_within_quota(DocKind::GuestDocument, &docs, bytes_uploaded, quota)
                .await;
            if !matches!(stored, Ok(StorageCheck::Stored)) {
                let _ = blocking(move || {
                    remove_files(&paths);
                    Ok(())
                })
                .await;
            }
            stored
        })
        .await?;
        match stored {
            StorageCheck::Stored => {}
            StorageCheck::QuotaExceeded { used } => {
                return Err(AppError::Forbidden(storage_full_message(
                    plan,
                    quota,
                    used,
                    bytes_uploaded,
                )));
            }
        }
        self.pipeline.spawn(&account.team_id, &profile.id, false);
        Ok(UploadedDocuments {
            uploaded_documents: uploaded,
        })
    }

    /// A new bio from everything the profile holds, charged as an AI assist (nothing is
    /// charged when there is nothing to write it from).
    pub async fn regenerate_bio(
        &self,
        account: &Account,
        requester: &Requester,
        key: &str,
    ) -> AppResult<(Option<Charge>, BioRegeneration)> {
        let doc = load(&self.store, account, key).await?;
        let documents = profile_documents(&self.store, &account.team_id, &doc.id).await?;
        let source = bio_source(&doc.value, &documents);
        if source.short_bio.trim().is_empty() && source.documents.is_empty() {
            return Ok((
                None,
                BioRegeneration::failed(
                    "no-source-material",
                    "The profile has no bio and no readable documents to write a bio from.".into(),
                ),
            ));
        }
        let charge = self
            .metering
            .charge(requester, UsageCounter::AiAssist)
            .await?;
        let answer = match agent::generate_bio(self.assist.as_ref(), source).await {
            Ok(answer) => answer,
            Err(error) => {
                tracing::warn!(%error, "bio generation failed");
                return Ok((
                    Some(charge),
                    BioRegeneration::failed("generation-error", error.to_string()),
                ));
            }
        };
        let bio = bio_of(answer.clone(), doc.value.source.additional_context.clone());
        let mut profile = doc.value.clone();
        profile.guest_bio = Some(bio);
        save_changes(&self.store, &doc.id, &doc.value, &profile).await?;
        Ok((
            Some(charge),
            BioRegeneration {
                result: Some(BioResult { answer }),
                failure_reason: None,
                failure_message: None,
            },
        ))
    }

    /// The profile rendered as `format`, named by its slug.
    pub async fn download(
        &self,
        account: &Account,
        key: &str,
        format: DownloadFormat,
    ) -> AppResult<Download> {
        let doc = load(&self.store, account, key).await?;
        let documents = profile_documents(&self.store, &account.team_id, &doc.id).await?;
        let profile = doc.value;
        let markdown = render_markdown(&profile, &documents);
        let (content_type, extension, bytes) = match format {
            DownloadFormat::Pdf => ("application/pdf", "pdf", markdown_to_pdf(&markdown)),
            DownloadFormat::Docx => (
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                "docx",
                markdown_to_docx(&markdown).map_err(AppError::Internal)?,
            ),
            DownloadFormat::Html => (
                "text/html; charset=utf-8",
                "html",
                markdown_to_html(&profile.name, &markdown).into_bytes(),
            ),
            DownloadFormat::Markdown => {
                ("text/markdown; charset=utf-8", "md", markdown.into_bytes())
            }
        };
        Ok(Download {
            content_type,
            file_name: format!("{}.{extension}", profile.slug),
            bytes,
        })
    }
}
