//! Episode deep analyses (SPEC.md §3 `deepAnalysisRequestedAt`, §7): a summary, the
//! topics, the people and sponsors named (with transcript times when the episode has
//! a transcript), notable quotes and the questions asked. Each analysis is one AI
//! assist, stored for the team and reused until regenerated.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use podlens_model::catalog::{EpisodeRecord, PodcastRecord};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::WorkflowStore;
use super::agent::{self, AiProvider, DeepAnalysis};
use super::briefs::{ANALYSIS_TRANSCRIPT_CHARS, show_material};
use super::documents::{DocFilter, DocKind, Stored};
use super::fields::{
    bool_field, object, optional_string, optional_strings, query_bool, whole_field,
};
use crate::accounts::metering::{Charge, Metering, Requester};
use crate::accounts::{Account, UsageCounter};
use crate::catalog::CatalogReader;
use crate::error::{AppError, AppResult};
use crate::runtime::{blocking, to_the_end};

/// The most episodes one request analyses, and how many it takes by default.
pub const MAX_EPISODES_PER_REQUEST: usize = 10;
pub const DEFAULT_EPISODES_PER_REQUEST: usize = 3;

/// A stored deep analysis of an episode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EpisodeDeepAnalysis {
    pub episode_id: String,
    pub episode_slug: String,
    pub episode_title: String,
    pub episode_published_at: Option<DateTime<Utc>>,
    pub podcast_id: String,
    pub podcast_slug: String,
    /// Whether a transcript was read (times are given only then).
    pub has_transcript: bool,
    pub deep_analysis_requested_at: DateTime<Utc>,
    pub completed_at: DateTime<Utc>,
    pub analysis: DeepAnalysis,
}

/// The body of a podcast's deep analysis request.
#[derive(Debug, Clone, ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct PodcastDeepAnalysisRequest {
    /// The podcast's id or slug.
    pub podcast_id: String,
    /// 1 to 10 episodes of the podcast; without them the newest `limit` are analysed.
    pub episode_ids: Option<Vec<String>>,
    /// 1 to 10 (default 3).
    #[schema(minimum = 1, maximum = 10)]
    pub limit: Option<u8>,
    pub force_regenerate: Option<bool>,
}

impl PodcastDeepAnalysisRequest {
    pub fn from_json(body: Value) -> AppResult<PodcastDeepAnalysisRequest> {
        let body = object(body)?;
        let podcast_id = optional_string(&body, "podcastId")?
            .map(|value| value.trim().to_owned())
            .filter(|value| !value.is_empty())
            .ok_or_else(|| AppError::Invalid("podcastId is required".into()))?;
        let episode_ids = optional_strings(&body, "episodeIds")?;
        if let Some(ids) = &episode_ids
            && (ids.is_empty() || ids.len() > MAX_EPISODES_PER_REQUEST)
        {
            return Err(AppError::Invalid(format!(
                "episodeIds must hold 1 to {MAX_EPISODES_PER_REQUEST} episode ids"
            )));
        }
        let limit =
            whole_field(&body, "limit", 1..=MAX_EPISODES_PER_REQUEST as u64)?.map(|n| n as u8);
        let force_regenerate = bool_field(&body, "forceRegenerate")?;
        Ok(PodcastDeepAnalysisRequest {
            podcast_id,
            episode_ids,
            limit,
            force_regenerate,
        })
    }
}

/// The query of an episode's analysis: `?forceRegenerate=true|false` (absent: false).
#[derive(Debug, Clone, Copy)]
pub struct EpisodeAnalysisQuery {
    pub force_regenerate: bool,
}

impl EpisodeAnalysisQuery {
    pub fn from_query(query: &[(String, String)]) -> AppResult<EpisodeAnalysisQuery> {
        Ok(EpisodeAnalysisQuery {
            force_regenerate: query_bool(query, "forceRegenerate")?.unwrap_or(false),
        })
    }
}

/// `data` of a podcast's analyses: newest episode first.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeepAnalysesResponse {
    pub podcast_id: String,
    pub podcast_slug: String,
    /// How many of `deepAnalyses` this request made (and charged).
    pub generated: usize,
    pub deep_analyses: Vec<EpisodeDeepAnalysis>,
}

fn doc_id(team_id: &str, episode_id: &str) -> String {
    format!("{team_id}:{episode_id}")
}

/// What the deep-analysis service works with.
#[derive(Clone)]
pub struct DeepAnalyses {
    pub catalog: Arc<CatalogReader>,
    pub store: Arc<WorkflowStore>,
    pub metering: Metering,
    pub assist: Arc<dyn AiProvider>,
}

impl DeepAnalyses {
    async fn stored(
        &self,
        team_id: &str,
        episode_id: &str,
    ) -> AppResult<Option<EpisodeDeepAnalysis>> {
        Ok(self
            .store
            .get_doc::<EpisodeDeepAnalysis>(
                DocKind::DeepAnalysis,
                Some(team_id),
                &doc_id(team_id, episode_id),
            )
            .await?
            .map(|doc| doc.value))
    }

    async fn team_analyses(
        &self,
        team_id: &str,
        podcast_id: &str,
    ) -> AppResult<Vec<EpisodeDeepAnalysis>> {
        Ok(self
            .store
            .list_docs::<EpisodeDeepAnalysis>(
                DocKind::DeepAnalysis,
                &DocFilter {
                    team_id: Some(team_id),
                    parent_id: Some(podcast_id),
                    ..DocFilter::default()
                },
            )
            .await?
            .into_iter()
            .map(|doc| doc.value)
            .collect())
    }

    /// When the caller's team asked for a deep analysis of each of the podcast's
    /// episodes that has one (`deepAnalysisRequestedAt` of the episode answers); empty
    /// for a signed-out caller.
    pub async fn requested_times(
        &self,
        account: Option<&Account>,
        podcast_id: &str,
    ) -> AppResult<HashMap<String, DateTime<Utc>>> {
        let Some(account) = account else {
            return Ok(HashMap::new());
        };
        Ok(self
            .team_analyses(&account.team_id, podcast_id)
            .await?
            .into_iter()
            .map(|analysis| (analysis.episode_id, analysis.deep_analysis_requested_at))
            .collect())
    }

    /// When the caller's team asked for a deep analysis of the episode, if it did.
    pub async fn requested_time(
        &self,
        account: Option<&Account>,
        episode_id: &str,
    ) -> AppResult<Option<DateTime<Utc>>> {
        let Some(account) = account else {
            return Ok(None);
        };
        Ok(self
            .stored(&account.team_id, episode_id)
            .await?
            .map(|analysis| analysis.deep_analysis_requested_at))
    }

    /// Analyses one episode (charged) and stores the analysis for the team.
    async fn analyse(
        &self,
        account: &Account,
        requester: &Requester,
        podcast: PodcastRecord,
        episode: EpisodeRecord,
    ) -> AppResult<(EpisodeDeepAnalysis, Charge)> {
        let team_id = account.team_id.clone();
        let requested_at = Utc::now();
        let catalog = self.catalog.clone();
        let (show, podcast, episode) = blocking(move || {
            let show = show_material(
                catalog.snapshot()?,
                &podcast,
                std::slice::from_ref(&episode),
                ANALYSIS_TRANSCRIPT_CHARS,
            )?;
            Ok((show, podcast, episode))
        })
        .await?;
        let has_transcript = show
            .episodes
            .first()
            .is_some_and(|material| !material.transcript.is_empty());
        let charge = self
            .metering
            .charge(requester, UsageCounter::AiAssist)
            .await?;
        let analysis = agent::insight::deep_analysis(self.assist.as_ref(), show).await?;
        let record = EpisodeDeepAnalysis {
            episode_id: episode.episode_id.to_string(),
            episode_slug: episode.episode_slug.clone(),
            episode_title: episode.episode_rss_title.clone(),
            episode_published_at: episode.episode_rss_published_at,
            podcast_id: podcast.podcast_id.to_string(),
            podcast_slug: podcast.podcast_slug.clone(),
            has_transcript,
            deep_analysis_requested_at: requested_at,
            completed_at: Utc::now(),
            analysis,
        };
        // Charged: the analysis is kept, even if the caller stops waiting.
        let store = self.store.clone();
        let saved = Stored {
            id: doc_id(&team_id, &record.episode_id),
            team_id: team_id.clone(),
            parent_id: Some(record.podcast_id.clone()),
            created_at: record.deep_analysis_requested_at,
            updated_at: record.completed_at,
            deleted: false,
            value: record.clone(),
        };
        to_the_end(async move { store.put_doc(DocKind::DeepAnalysis, &saved).await }).await?;
        Ok((record, charge))
    }

    /// The team's analysis of the episode, made on first request (one AI assist) and
    /// then reused; `force` makes a new one.
    pub async fn episode_analysis(
        &self,
        account: &Account,
        requester: &Requester,
        episode_id: &str,
        force: bool,
    ) -> AppResult<(Option<Charge>, EpisodeDeepAnalysis)> {
        let (catalog, episode_id) = (self.catalog.clone(), episode_id.to_owned());
        let (podcast, episode) = blocking(move || {
            let episode = catalog.episode(&episode_id)?;
            let podcast = catalog
                .snapshot()?
                .podcast_by_id(episode.podcast_id)?
                .ok_or_else(|| {
                    crate::catalog::podcast_not_found(&episode.podcast_id.to_string())
                })?;
            Ok((podcast, episode))
        })
        .await?;
        let cached = self
            .stored(&account.team_id, &episode.episode_id.to_string())
            .await?;
        if let Some(analysis) = cached.filter(|_| !force) {
            return Ok((None, analysis));
        }
        let (analysis, charge) = self.analyse(account, requester, podcast, episode).await?;
        Ok((Some(charge), analysis))
    }

    /// The episodes a podcast request names: the listed ids (each of the podcast), else
    /// the newest `limit`.
    fn requested_episodes(
        &self,
        podcast: &PodcastRecord,
        episode_ids: Option<Vec<String>>,
        limit: usize,
    ) -> AppResult<Vec<EpisodeRecord>> {
        let Some(ids) = episode_ids else {
            return Ok(self
                .catalog
                .snapshot()?
                .podcast_episodes_newest(podcast.podcast_id, limit as u64)?);
        };
        let mut episodes: Vec<EpisodeRecord> = Vec::new();
        for id in ids {
            let episode = self.catalog.episode(&id)?;
            if episode.podcast_id != podcast.podcast_id {
                return Err(AppError::Invalid(format!(
                    "Episode {id} is not an episode of {}",
                    podcast.podcast_slug
                )));
            }
            if !episodes
                .iter()
                .any(|known| known.episode_id == episode.episode_id)
            {
                episodes.push(episode);
            }
        }
        Ok(episodes)
    }

    /// Analyses of a podcast's episodes: those already analysed for the team are reused
    /// unless forced; each new analysis is one AI assist (the answer carries the last
    /// charge).
    pub async fn request_for_podcast(
        &self,
        account: &Account,
        requester: &Requester,
        request: PodcastDeepAnalysisRequest,
    ) -> AppResult<(Option<Charge>, DeepAnalysesResponse)> {
        let limit = request
            .limit
            .map_or(DEFAULT_EPISODES_PER_REQUEST, usize::from);
        let force = request.force_regenerate.unwrap_or(false);
        let service = self.clone();
        let (podcast, episodes) = blocking(move || {
            let podcast = service.catalog.podcast(&request.podcast_id)?;
            let episodes = service.requested_episodes(&podcast, request.episode_ids, limit)?;
            Ok((podcast, episodes))
        })
        .await?;
        let mut cached = Vec::with_capacity(episodes.len());
        for episode in &episodes {
            let id = episode.episode_id.to_string();
            cached.push(self.stored(&account.team_id, &id).await?);
        }
        let mut analyses = Vec::with_capacity(episodes.len());
        let mut last_charge = None;
        let mut generated = 0;
        for (episode, cached) in episodes.into_iter().zip(cached) {
            if let Some(analysis) = cached.filter(|_| !force) {
                analyses.push(analysis);
                continue;
            }
            let (analysis, charge) = self
                .analyse(account, requester, podcast.clone(), episode)
                .await?;
            analyses.push(analysis);
            last_charge = Some(charge);
            generated += 1;
        }
        Ok((
            last_charge,
            DeepAnalysesResponse {
                podcast_id: podcast.podcast_id.to_string(),
                podcast_slug: podcast.podcast_slug,
                generated,
                deep_analyses: analyses,
            },
        ))
    }

    /// The team's stored analyses of the podcast's episodes, newest episode first.
    pub async fn list_for_podcast(
        &self,
        account: &Account,
        podcast_key: &str,
    ) -> AppResult<DeepAnalysesResponse> {
        let (catalog, podcast_key) = (self.catalog.clone(), podcast_key.to_owned());
        let podcast = blocking(move || catalog.podcast(&podcast_key)).await?;
        let podcast_id = podcast.podcast_id.to_string();
        let mut analyses = self.team_analyses(&account.team_id, &podcast_id).await?;
        analyses.sort_by(|a, b| {
            b.episode_published_at
                .cmp(&a.episode_published_at)
                .then(a.episode_id.cmp(&b.episode_id))
        });
        Ok(DeepAnalysesResponse {
            podcast_id,
            podcast_slug: podcast.podcast_slug,
            generated: 0,
            deep_analyses: analyses,
        })
    }
}
