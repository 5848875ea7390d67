//! The relevancy review of a podcast for a project: made by the AI assist (charged),
//! stored for the team, reused until regenerated, and put on the project's listing.

use std::sync::Arc;

use chrono::Utc;

use super::WorkflowStore;
use super::agent::{self, AiProvider, PodcastBrief, ProjectBrief, RelevancyAnswer};
use super::briefs::{podcast_brief, project_brief};
use super::documents::{DocKind, Stored};
use crate::accounts::metering::{Charge, Metering, Requester};
use crate::accounts::{Account, UsageCounter};
use crate::catalog::CatalogReader;
use crate::error::{AppError, AppResult};
use crate::runtime::{blocking, to_the_end};

/// The project and podcast briefs and the stored key of a review.
struct ReviewInput {
    project_id: String,
    podcast_id: String,
    project: ProjectBrief,
    podcast: PodcastBrief,
}

fn review_key(project_id: &str, podcast_id: &str) -> String {
    format!("{project_id}:{podcast_id}")
}

fn project_not_found(project: &str) -> AppError {
    AppError::NotFound(format!("Project not found: {project}"))
}

/// What the relevancy reviews work with.
#[derive(Clone)]
pub struct Relevancy {
    pub catalog: Arc<CatalogReader>,
    pub store: Arc<WorkflowStore>,
    pub metering: Metering,
    pub assist: Arc<dyn AiProvider>,
}

impl Relevancy {
    /// Loads a project of the caller's team and a catalog podcast.
    async fn review_input(
        &self,
        team_id: &str,
        project: &str,
        podcast: String,
    ) -> AppResult<ReviewInput> {
        let project = self
            .store
            .find_project(team_id, project)
            .await?
            .ok_or_else(|| project_not_found(project))?;
        let catalog = self.catalog.clone();
        let (record, brief) = blocking(move || {
            let record = catalog
                .snapshot()?
                .podcast_by_id_or_slug(&podcast)?
                .ok_or_else(|| AppError::NotFound(format!("Podcast not found: {podcast}")))?;
            let brief = podcast_brief(&catalog, &record)?;
            Ok((record, brief))
        })
        .await?;
        Ok(ReviewInput {
            project_id: project.project_id.clone(),
            podcast_id: record.podcast_id.to_string(),
            project: project_brief(&project),
            podcast: brief,
        })
    }

    /// The stored review of a podcast for a project, if one was made.
    async fn stored(
        &self,
        team_id: &str,
        project_id: &str,
        podcast_id: &str,
    ) -> AppResult<Option<RelevancyAnswer>> {
        Ok(self
            .store
            .get_doc::<RelevancyAnswer>(
                DocKind::Relevancy,
                Some(team_id),
                &review_key(project_id, podcast_id),
            )
            .await?
            .map(|doc| doc.value))
    }

    /// Makes (or, unless `force`, reuses) the review of `podcast` (id or slug) for
    /// `project` (id or slug), stores it and puts its score on the listing. Returns the
    /// review and the charge when one was made.
    pub async fn review(
        &self,
        account: &Account,
        requester: &Requester,
        project: String,
        podcast: String,
        force: bool,
    ) -> AppResult<(RelevancyAnswer, Option<Charge>)> {
        let input = self
            .review_input(&account.team_id, &project, podcast)
            .await?;
        if !force {
            let cached = self
                .stored(&account.team_id, &input.project_id, &input.podcast_id)
                .await?;
            if let Some(answer) = cached {
                return Ok((answer, None));
            }
        }
        let charge = self
            .metering
            .charge(requester, UsageCounter::AiAssist)
            .await?;
        let answer =
            agent::review_relevancy(self.assist.as_ref(), input.project, input.podcast).await?;
        // Charged: the review is kept, even if the caller stops waiting.
        let (store, team_id, saved) = (self.store.clone(), account.team_id.clone(), answer.clone());
        to_the_end(async move {
            let now = Utc::now();
            let review = Stored {
                id: review_key(&input.project_id, &input.podcast_id),
                team_id,
                parent_id: Some(input.project_id.clone()),
                created_at: now,
                updated_at: now,
                deleted: false,
                value: saved.clone(),
            };
            store.put_doc(DocKind::Relevancy, &review).await?;
            store
                .set_listed_relevancy(
                    &input.project_id,
                    &input.podcast_id,
                    f64::from(saved.rating),
                )
                .await
        })
        .await?;
        Ok((answer, Some(charge)))
    }

    /// The review of a podcast listed in a project of the team (by the project's id or
    /// slug and the listing's id), as [`Relevancy::review`].
    pub async fn review_listed(
        &self,
        account: &Account,
        requester: &Requester,
        project: String,
        listed_podcast_id: String,
        force: bool,
    ) -> AppResult<(RelevancyAnswer, Option<Charge>)> {
        let found = self
            .store
            .find_project(&account.team_id, &project)
            .await?
            .ok_or_else(|| project_not_found(&project))?;
        let listed = self
            .store
            .find_listed(&found.project_id, &listed_podcast_id)
            .await?
            .ok_or_else(|| {
                AppError::NotFound(format!("Listed podcast not found: {listed_podcast_id}"))
            })?;
        self.review(
            account,
            requester,
            found.project_id,
            listed.podcast_id,
            force,
        )
        .await
    }
}
