//! Guest profiles: the stored profile, its uploaded documents, the status pipeline
//! DRAFT → CREATING_DOCUMENT_FROM_FORM → PROCESSING_DOCUMENTS → GENERATING_PROFILE →
//! DONE | ERROR (run by a background task, every step stored), and the renderings a
//! profile downloads as.

mod requests;
mod service;

pub use requests::{
    BioChanges, ContactChanges, DownloadFormat, NewGuestProfile, Uploads, social_links,
};
pub use service::{
    BioRegeneration, BioResult, Download, GuestProfileDetails, GuestProfiles, UploadedDocument,
    UploadedDocuments,
};

use std::collections::HashMap;
use std::sync::Arc;

use chrono::Utc;
use podlens_model::entities::{
    GuestBio, GuestDocument, GuestSocialLink, LinkedGuestProfile, Timestamp,
};
use podlens_model::enums::{GuestProfileStatus, ProjectStatus};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::WorkflowStore;
use super::agent::{self, BioAnswer, BioSource};
use super::documents::{DocFilter, DocKind, Stored};
use crate::error::{AppError, AppResult};
use crate::runtime::blocking;

/// What the guest told us: the onboarding form or the SDK's create call.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GuestSource {
    pub short_bio: String,
    pub long_bio: Option<String>,
    pub goals: Vec<String>,
    pub areas_of_expertise: Vec<String>,
    pub topics_to_discuss: Vec<String>,
    pub things_to_avoid: Vec<String>,
    pub additional_context: Option<String>,
}

/// A stored guest profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GuestProfileDoc {
    pub guest_profile_id: String,
    pub slug: String,
    pub project_id: String,
    pub project_slug: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub company_name: Option<String>,
    pub website_url: Option<String>,
    pub booking_url: Option<String>,
    pub linked_in: Option<String>,
    pub one_pager_url: Option<String>,
    pub image_url: Option<String>,
    pub created_by_user_id: String,
    pub created_by_email: String,
    pub social_media_links: Vec<GuestSocialLink>,
    pub guest_bio: Option<GuestBio>,
    pub source: GuestSource,
    /// The profile document composed from the form (markdown).
    pub form_document: Option<String>,
    pub processing_status: GuestProfileStatus,
    pub processing_error: Option<String>,
    pub archived: bool,
}

/// A stored upload with the text extracted from it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GuestDocumentDoc {
    pub id: String,
    pub guest_profile_id: String,
    pub name: String,
    pub file_type: String,
    pub size: u64,
    /// `uploaded`, then `processed` (text extracted) or `stored` (kept, no text).
    pub status: String,
    pub date_extracted: Option<Timestamp>,
    pub text: Option<String>,
    pub path: String,
}

impl GuestDocumentDoc {
    pub fn wire(&self) -> GuestDocument {
        GuestDocument {
            name: self.name.clone(),
            id: self.id.clone(),
            size: self.size,
            status: self.status.clone(),
            file_type: self.file_type.clone(),
            date_extracted: self.date_extracted,
        }
    }
}

pub fn stored_profile(
    profile: GuestProfileDoc,
    team_id: &str,
    created_at: Timestamp,
) -> Stored<GuestProfileDoc> {
    Stored {
        id: profile.guest_profile_id.clone(),
        team_id: team_id.to_owned(),
        parent_id: Some(profile.project_id.clone()),
        created_at,
        updated_at: Utc::now(),
        deleted: false,
        value: profile,
    }
}

/// A profile by its id, its slug or its project's id or slug, within a team.
pub async fn find_profile(
    store: &WorkflowStore,
    team_id: &str,
    key: &str,
) -> AppResult<Option<Stored<GuestProfileDoc>>> {
    if let Some(doc) = store
        .get_doc::<GuestProfileDoc>(DocKind::GuestProfile, Some(team_id), key)
        .await?
    {
        return Ok(Some(doc));
    }
    let all = team_profiles(store, team_id).await?;
    Ok(all.into_iter().find(|doc| {
        doc.value.slug == key || doc.value.project_id == key || doc.value.project_slug == key
    }))
}

/// Every guest profile of a team, archived ones too, oldest first.
async fn team_profiles(
    store: &WorkflowStore,
    team_id: &str,
) -> AppResult<Vec<Stored<GuestProfileDoc>>> {
    let filter = DocFilter {
        team_id: Some(team_id),
        ..DocFilter::default()
    };
    store.list_docs(DocKind::GuestProfile, &filter).await
}

/// The guest profile each project of a team carries, by project id: the newest profile
/// made for the project that is not archived. One query for the whole team, so a
/// project list does not ask once per project.
pub async fn profiles_by_project(
    store: &WorkflowStore,
    team_id: &str,
) -> AppResult<HashMap<String, GuestProfileDoc>> {
    let profiles = team_profiles(store, team_id).await?;
    let mut newest: HashMap<String, Stored<GuestProfileDoc>> = HashMap::new();
    for doc in profiles.into_iter().filter(|doc| !doc.value.archived) {
        match newest.get(&doc.value.project_id) {
            Some(kept) if kept.created_at > doc.created_at => {}
            _ => {
                newest.insert(doc.value.project_id.clone(), doc);
            }
        }
    }
    Ok(newest
        .into_iter()
        .map(|(project_id, doc)| (project_id, doc.value))
        .collect())
}

/// A project's guest profile as project lists show it: its status in the project's
/// words (a profile being built is PENDING, a finished one ACTIVE); its appearances are
/// the project's listed podcasts booked so far.
pub fn linked_profile(profile: &GuestProfileDoc, booked: u64) -> LinkedGuestProfile {
    LinkedGuestProfile {
        id: profile.guest_profile_id.clone(),
        name: profile.name.clone(),
        slug: profile.slug.clone(),
        status: match profile.processing_status {
            GuestProfileStatus::Draft => ProjectStatus::Draft,
            GuestProfileStatus::Done => ProjectStatus::Active,
            GuestProfileStatus::Error => ProjectStatus::Error,
            GuestProfileStatus::CreatingDocumentFromForm
            | GuestProfileStatus::ProcessingDocuments
            | GuestProfileStatus::GeneratingProfile => ProjectStatus::Pending,
        },
        image_url: profile.image_url.clone(),
        linkedin_url: profile.linked_in.clone(),
        company_name: profile.company_name.clone(),
        appearances_count: booked,
    }
}

/// A profile's documents, oldest first.
pub async fn profile_documents(
    store: &WorkflowStore,
    team_id: &str,
    guest_profile_id: &str,
) -> AppResult<Vec<GuestDocumentDoc>> {
    Ok(store
        .list_docs::<GuestDocumentDoc>(
            DocKind::GuestDocument,
            &DocFilter {
                team_id: Some(team_id),
                parent_id: Some(guest_profile_id),
                ..DocFilter::default()
            },
        )
        .await?
        .into_iter()
        .map(|doc| doc.value)
        .collect())
}

/// The markdown document the pipeline composes from the form.
pub fn form_document(profile: &GuestProfileDoc) -> String {
    let mut out = format!("# {}\n\n", profile.name);
    if let Some(company) = &profile.company_name {
        out.push_str(&format!("Company: {company}\n\n"));
    }
    out.push_str(&format!(
        "## Short bio\n\n{}\n\n",
        profile.source.short_bio.trim()
    ));
    if let Some(long) = profile
        .source
        .long_bio
        .as_deref()
        .filter(|t| !t.trim().is_empty())
    {
        out.push_str(&format!("## Long bio\n\n{}\n\n", long.trim()));
    }
    for (title, items) in [
        ("Goals", &profile.source.goals),
        ("Expertise", &profile.source.areas_of_expertise),
        ("Topics to discuss", &profile.source.topics_to_discuss),
        ("Topics to avoid", &profile.source.things_to_avoid),
    ] {
        if !items.is_empty() {
            out.push_str(&format!("## {title}\n\n"));
            for item in items {
                out.push_str(&format!("- {item}\n"));
            }
            out.push('\n');
        }
    }
    if let Some(context) = profile
        .source
        .additional_context
        .as_deref()
        .filter(|t| !t.trim().is_empty())
    {
        out.push_str(&format!("## Additional context\n\n{}\n", context.trim()));
    }
    out
}

/// The most characters kept from one upload.
pub const MAX_EXTRACTED_CHARS: usize = 200_000;

/// Text of an upload when its type carries plain text (txt, csv); other types are kept
/// without text.
pub fn extract_text(file_type: &str, bytes: &[u8]) -> Option<String> {
    match file_type {
        "txt" | "csv" => Some(
            String::from_utf8_lossy(bytes)
                .chars()
                .take(MAX_EXTRACTED_CHARS)
                .collect(),
        ),
        _ => None,
    }
}

/// What a bio is generated from: the profile, its form document and its documents.
pub fn bio_source(profile: &GuestProfileDoc, documents: &[GuestDocumentDoc]) -> BioSource {
    BioSource {
        first_name: profile.first_name.clone().unwrap_or_default(),
        last_name: profile.last_name.clone().unwrap_or_default(),
        company_name: profile.company_name.clone(),
        short_bio: profile.source.short_bio.clone(),
        long_bio: profile.source.long_bio.clone(),
        goals: profile.source.goals.clone(),
        areas_of_expertise: profile.source.areas_of_expertise.clone(),
        topics_to_discuss: profile.source.topics_to_discuss.clone(),
        things_to_avoid: profile.source.things_to_avoid.clone(),
        additional_context: profile.source.additional_context.clone(),
        documents: documents
            .iter()
            .filter_map(|doc| doc.text.clone())
            .collect(),
    }
}

pub fn bio_of(answer: BioAnswer, additional_context: Option<String>) -> GuestBio {
    GuestBio {
        additional_context,
        areas_of_expertise: answer.areas_of_expertise,
        goals: answer.goals,
        long_bio: answer.long_bio,
        short_bio: answer.short_bio,
        things_to_avoid: answer.things_to_avoid,
        topics_to_discuss: answer.topics_to_discuss,
    }
}

/// Writes the fields of profile `id` that `after` changed from `before` (as a JSON merge
/// patch, in one transaction holding the document), so a change made meanwhile to other
/// fields is kept: the pipeline's status steps, a bio written again and a member's edit
/// each wrote the whole profile they had read, and the last one undid the others.
pub async fn save_changes(
    store: &WorkflowStore,
    id: &str,
    before: &GuestProfileDoc,
    after: &GuestProfileDoc,
) -> AppResult<bool> {
    let (Value::Object(before), Value::Object(after)) = (
        serde_json::to_value(before).map_err(AppError::internal)?,
        serde_json::to_value(after).map_err(AppError::internal)?,
    ) else {
        return Err(AppError::Internal(
            "a guest profile is not a JSON object".into(),
        ));
    };
    let mut patch = serde_json::Map::new();
    for (key, value) in &after {
        if before.get(key) != Some(value) {
            patch.insert(key.clone(), value.clone());
        }
    }
    for key in before.keys().filter(|key| !after.contains_key(*key)) {
        patch.insert(key.clone(), Value::Null);
    }
    store
        .merge_into_doc_at(DocKind::GuestProfile, id, &Value::Object(patch), Utc::now())
        .await
}

async fn set_status(
    store: &WorkflowStore,
    team_id: &str,
    id: &str,
    status: GuestProfileStatus,
    change: impl FnOnce(&mut GuestProfileDoc),
) -> AppResult<GuestProfileDoc> {
    let doc = store
        .get_doc::<GuestProfileDoc>(DocKind::GuestProfile, Some(team_id), id)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("Guest profile not found: {id}")))?;
    let mut profile = doc.value.clone();
    profile.processing_status = status;
    change(&mut profile);
    save_changes(store, id, &doc.value, &profile).await?;
    Ok(profile)
}

/// Extracts the text of every document still `uploaded` (reading and parsing each
/// file on a blocking thread).
async fn process_documents(store: &WorkflowStore, team_id: &str, id: &str) -> AppResult<()> {
    let documents: Vec<Stored<GuestDocumentDoc>> = store
        .list_docs(
            DocKind::GuestDocument,
            &DocFilter {
                team_id: Some(team_id),
                parent_id: Some(id),
                ..DocFilter::default()
            },
        )
        .await?;
    for mut doc in documents
        .into_iter()
        .filter(|d| d.value.status == "uploaded")
    {
        let (path, file_type) = (doc.value.path.clone(), doc.value.file_type.clone());
        doc.value.text = blocking(move || {
            let bytes = std::fs::read(&path).map_err(|error| {
                AppError::Internal(format!("cannot read upload {path}: {error}"))
            })?;
            Ok(extract_text(&file_type, &bytes))
        })
        .await?;
        doc.value.status = if doc.value.text.is_some() {
            "processed"
        } else {
            "stored"
        }
        .to_owned();
        doc.value.date_extracted = doc.value.text.as_ref().map(|_| Utc::now());
        doc.updated_at = Utc::now();
        store.put_doc(DocKind::GuestDocument, &doc).await?;
    }
    Ok(())
}

/// What the guest-profile pipeline needs: the documents' store and the AI assist
/// provider that writes the bio.
#[derive(Clone)]
pub struct GuestPipeline {
    pub store: Arc<WorkflowStore>,
    pub assist: Arc<dyn agent::AiProvider>,
}

impl GuestPipeline {
    /// Runs the pipeline from the profile's current status to DONE (or ERROR with the
    /// reason). `generate` says whether the bio is (re)generated at the end by the AI
    /// assist: only for a caller charged an assist for it.
    pub async fn run(self, team_id: String, id: String, generate: bool) {
        if let Err(error) = self.steps(&team_id, &id, generate).await {
            tracing::warn!(guest_profile = %id, %error, "guest profile processing failed");
            let reason = error.to_string();
            let failed = set_status(
                &self.store,
                &team_id,
                &id,
                GuestProfileStatus::Error,
                |profile| {
                    profile.processing_error = Some(reason);
                },
            );
            if let Err(error) = failed.await {
                tracing::warn!(guest_profile = %id, %error, "cannot record the failure");
            }
        }
    }

    async fn steps(&self, team_id: &str, id: &str, generate: bool) -> AppResult<()> {
        let step = |status: GuestProfileStatus| {
            set_status(&self.store, team_id, id, status, move |profile| {
                profile.processing_error = None;
                if status == GuestProfileStatus::CreatingDocumentFromForm {
                    profile.form_document = Some(form_document(profile));
                }
            })
        };
        step(GuestProfileStatus::CreatingDocumentFromForm).await?;
        step(GuestProfileStatus::ProcessingDocuments).await?;
        process_documents(&self.store, team_id, id).await?;
        let profile = step(GuestProfileStatus::GeneratingProfile).await?;
        // The bio is written by the AI only when the caller was charged an AI assist
        // for it (creation, a resumed creation); documents added later keep the bio.
        if generate {
            let documents = profile_documents(&self.store, team_id, id).await?;
            let answer =
                agent::generate_bio(self.assist.as_ref(), bio_source(&profile, &documents)).await?;
            let bio = bio_of(answer, profile.source.additional_context.clone());
            set_status(
                &self.store,
                team_id,
                id,
                GuestProfileStatus::Done,
                |profile| {
                    profile.guest_bio = Some(bio);
                },
            )
            .await?;
        } else {
            step(GuestProfileStatus::Done).await?;
        }
        Ok(())
    }

    /// Starts the pipeline in the background.
    pub fn spawn(&self, team_id: &str, id: &str, generate: bool) {
        tokio::spawn(
            self.clone()
                .run(team_id.to_owned(), id.to_owned(), generate),
        );
    }

    /// Restarts the pipeline of every profile a stopped server left mid-way.
    pub async fn resume(&self) {
        let profiles: Vec<Stored<GuestProfileDoc>> = match self
            .store
            .list_docs(DocKind::GuestProfile, &DocFilter::default())
            .await
        {
            Ok(profiles) => profiles,
            Err(error) => {
                tracing::warn!(%error, "cannot list guest profiles to resume");
                return;
            }
        };
        for doc in profiles {
            if !matches!(
                doc.value.processing_status,
                GuestProfileStatus::Done | GuestProfileStatus::Error
            ) {
                // A profile without a bio was stopped while being created, and its
                // creation was charged the assist that writes the bio.
                self.spawn(&doc.team_id, &doc.id, doc.value.guest_bio.is_none());
            }
        }
    }
}

/// The profile as markdown.
pub fn render_markdown(profile: &GuestProfileDoc, documents: &[GuestDocumentDoc]) -> String {
    let mut out = format!("# {}\n\n", profile.name);
    let contact: Vec<String> = [
        ("Company", &profile.company_name),
        ("Email", &profile.email),
        ("Phone", &profile.phone),
        ("Website", &profile.website_url),
        ("LinkedIn", &profile.linked_in),
        ("Booking", &profile.booking_url),
        ("One pager", &profile.one_pager_url),
    ]
    .iter()
    .filter_map(|(label, value)| value.as_ref().map(|value| format!("- {label}: {value}")))
    .collect();
    if !contact.is_empty() {
        out.push_str(&format!("## Contact\n\n{}\n\n", contact.join("\n")));
    }
    let bio = profile.guest_bio.clone().unwrap_or_else(|| GuestBio {
        short_bio: profile.source.short_bio.clone(),
        long_bio: profile.source.long_bio.clone().unwrap_or_default(),
        goals: profile.source.goals.clone(),
        areas_of_expertise: profile.source.areas_of_expertise.clone(),
        topics_to_discuss: profile.source.topics_to_discuss.clone(),
        things_to_avoid: profile.source.things_to_avoid.clone(),
        additional_context: profile.source.additional_context.clone(),
    });
    out.push_str(&format!("## Bio\n\n{}\n\n", bio.short_bio.trim()));
    if !bio.long_bio.trim().is_empty() {
        out.push_str(&format!("{}\n\n", bio.long_bio.trim()));
    }
    for (title, items) in [
        ("Areas of expertise", &bio.areas_of_expertise),
        ("Topics to discuss", &bio.topics_to_discuss),
        ("Goals", &bio.goals),
        ("Things to avoid", &bio.things_to_avoid),
    ] {
        if !items.is_empty() {
            out.push_str(&format!("## {title}\n\n"));
            for item in items {
                out.push_str(&format!("- {item}\n"));
            }
            out.push('\n');
        }
    }
    if !profile.social_media_links.is_empty() {
        out.push_str("## Social media\n\n");
        for link in &profile.social_media_links {
            out.push_str(&format!("- {}: {}\n", link.social_media_type, link.url));
        }
        out.push('\n');
    }
    if !documents.is_empty() {
        out.push_str("## Documents\n\n");
        for document in documents {
            out.push_str(&format!("- {} ({} bytes)\n", document.name, document.size));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workflows::store::tests::memory_store;

    fn profile() -> GuestProfileDoc {
        GuestProfileDoc {
            guest_profile_id: "g1".into(),
            slug: "ada".into(),
            project_id: "p1".into(),
            project_slug: "guest-ada".into(),
            first_name: Some("Ada".into()),
            last_name: Some("Lovelace".into()),
            name: "Ada Lovelace".into(),
            email: None,
            phone: None,
            company_name: None,
            website_url: None,
            booking_url: None,
            linked_in: None,
            one_pager_url: None,
            image_url: None,
            created_by_user_id: "u1".into(),
            created_by_email: "ada@example.com".into(),
            social_media_links: Vec::new(),
            guest_bio: Some(GuestBio {
                short_bio: "First bio.".into(),
                ..GuestBio::default()
            }),
            source: GuestSource::default(),
            form_document: None,
            processing_status: GuestProfileStatus::Done,
            processing_error: Some("an old error".into()),
            archived: false,
        }
    }

    /// An upload's pipeline read the profile, a bio was written again meanwhile, and
    /// the pipeline's next status step wrote back the whole profile it had read: the
    /// new bio was lost (seen on PostgreSQL, where the steps interleave differently).
    #[tokio::test]
    async fn a_bio_written_while_the_pipeline_steps_is_kept() {
        let store = memory_store();
        store
            .put_doc(
                DocKind::GuestProfile,
                &stored_profile(profile(), "t1", Utc::now()),
            )
            .await
            .unwrap();
        let read = |store: &WorkflowStore| {
            store.wait(store.get_doc::<GuestProfileDoc>(DocKind::GuestProfile, Some("t1"), "g1"))
        };
        // The pipeline's read, before the bio is written.
        let pipeline_read = read(&store).unwrap().unwrap().value;
        // The bio written again, from a read of its own.
        let mut rebio = pipeline_read.clone();
        rebio.guest_bio = Some(GuestBio {
            short_bio: "Second bio.".into(),
            ..GuestBio::default()
        });
        assert!(
            save_changes(&store, "g1", &pipeline_read, &rebio)
                .await
                .unwrap()
        );
        // The pipeline's step, from its older read.
        let mut stepped = pipeline_read.clone();
        stepped.processing_status = GuestProfileStatus::ProcessingDocuments;
        stepped.processing_error = None;
        assert!(
            save_changes(&store, "g1", &pipeline_read, &stepped)
                .await
                .unwrap()
        );

        let stored = read(&store).unwrap().unwrap().value;
        assert_eq!(
            stored.guest_bio.map(|bio| bio.short_bio).as_deref(),
            Some("Second bio."),
            "the bio written meanwhile is kept"
        );
        assert_eq!(
            stored.processing_status,
            GuestProfileStatus::ProcessingDocuments
        );
        assert_eq!(
            stored.processing_error, None,
            "a field set to none is removed"
        );
        assert_eq!(stored.name, "Ada Lovelace");
    }
}
