//! Episode deep analyses (SPEC.md §3 `deepAnalysisRequestedAt`, §7): a summary, the
//! topics, the people and sponsors named (with transcript times when the episode has
//! a transcript), notable quotes and the questions asked. Each analysis is one AI
//! assist, stored for the team and reused until regenerated.

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use chrono::{DateTime, Utc};
use podlens_model::catalog::{EpisodeRecord, PodcastRecord};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::lookup;
use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::RawJson;
use crate::metering::{self, Metered};
use crate::state::{AppState, blocking};
use podlens_app::accounts::UsageCounter;
use podlens_app::workflows::agent::{self, DeepAnalysis};
use podlens_app::workflows::briefs::{ANALYSIS_TRANSCRIPT_CHARS, show_material};
use podlens_app::workflows::documents::{DocFilter, DocKind, Stored};
use podlens_app::workflows::fields::{object, optional_string, optional_strings, query_value};

/// The most episodes one request analyses, and how many it takes by default.
pub const MAX_EPISODES_PER_REQUEST: usize = 10;
pub const DEFAULT_EPISODES_PER_REQUEST: usize = 3;

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/api/v1/agent/episode/{episodeId}/deep-analysis",
            get(episode_analysis),
        )
        .route("/api/v1/podcasts/deep-analysis", post(request_for_podcast))
        .route(
            "/api/v1/podcasts/{podcastIdOrSlug}/episodes/deep-analysis",
            get(list_for_podcast),
        )
}

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

/// The body of a podcast's deep analysis request (for the OpenAPI document; read field
/// by field).
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct PodcastDeepAnalysisRequest {
    /// The podcast's id or slug.
    podcast_id: String,
    /// 1 to 10 episodes of the podcast; without them the newest `limit` are analysed.
    episode_ids: Option<Vec<String>>,
    /// 1 to 10 (default 3).
    #[schema(minimum = 1, maximum = 10)]
    limit: Option<u8>,
    force_regenerate: Option<bool>,
}

/// `data` of one episode's analysis.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeepAnalysisResponse {
    pub deep_analysis: EpisodeDeepAnalysis,
}

/// `data` of a podcast's analyses: newest episode first.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeepAnalysesResponse {
    pub podcast_id: String,
    pub podcast_slug: String,
    /// How many of `deepAnalyses` this request made (and charged).
    pub generated: usize,
    pub deep_analyses: Vec<EpisodeDeepAnalysis>,
}

/// When the caller's team asked for a deep analysis of each of the podcast's episodes
/// that has one (`deepAnalysisRequestedAt` of the episode answers); empty for a
/// signed-out caller.
pub fn requested_times(
    state: &AppState,
    account: Option<&podlens_app::accounts::Account>,
    podcast_id: &str,
) -> ApiResult<std::collections::HashMap<String, DateTime<Utc>>> {
    let Some(account) = account else {
        return Ok(Default::default());
    };
    Ok(state
        .workflows
        .list_docs::<EpisodeDeepAnalysis>(
            DocKind::DeepAnalysis,
            &DocFilter {
                team_id: Some(&account.team_id),
                parent_id: Some(podcast_id),
                ..DocFilter::default()
            },
        )?
        .into_iter()
        .map(|doc| (doc.value.episode_id, doc.value.deep_analysis_requested_at))
        .collect())
}

/// When the caller's team asked for a deep analysis of the episode, if it did.
pub fn requested_time(
    state: &AppState,
    account: Option<&podlens_app::accounts::Account>,
    episode_id: &str,
) -> ApiResult<Option<DateTime<Utc>>> {
    let Some(account) = account else {
        return Ok(None);
    };
    Ok(stored(state, &account.team_id, episode_id)?
        .map(|analysis| analysis.deep_analysis_requested_at))
}

fn doc_id(team_id: &str, episode_id: &str) -> String {
    format!("{team_id}:{episode_id}")
}

fn stored(
    state: &AppState,
    team_id: &str,
    episode_id: &str,
) -> ApiResult<Option<EpisodeDeepAnalysis>> {
    Ok(state
        .workflows
        .get_doc::<EpisodeDeepAnalysis>(
            DocKind::DeepAnalysis,
            Some(team_id),
            &doc_id(team_id, episode_id),
        )?
        .map(|doc| doc.value))
}

/// Analyses one episode (charged) and stores the analysis for the team.
async fn analyse(
    state: &AppState,
    caller: &Caller,
    podcast: PodcastRecord,
    episode: EpisodeRecord,
) -> ApiResult<(EpisodeDeepAnalysis, Metered)> {
    let team_id = caller.require_account()?.team_id.clone();
    let requested_at = Utc::now();
    let load = state.clone();
    let (show, podcast, episode) = blocking(move || {
        let snapshot = load.catalog.snapshot()?;
        let show = show_material(
            snapshot,
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
    let metered = metering::charge(state, caller, UsageCounter::AiAssist).await?;
    let analysis = agent::insight::deep_analysis(state.assist.as_ref(), show).await?;
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
    let save = state.clone();
    let saved = record.clone();
    blocking(move || {
        Ok(save.workflows.put_doc(
            DocKind::DeepAnalysis,
            &Stored {
                id: doc_id(&team_id, &saved.episode_id),
                team_id: team_id.clone(),
                parent_id: Some(saved.podcast_id.clone()),
                created_at: saved.deep_analysis_requested_at,
                updated_at: saved.completed_at,
                deleted: false,
                value: saved,
            },
        )?)
    })
    .await?;
    Ok((record, metered))
}

fn force_flag(value: Option<&Value>) -> ApiResult<bool> {
    match value {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(flag)) => Ok(*flag),
        Some(_) => Err(ApiError::BadRequest(
            "forceRegenerate must be a boolean".into(),
        )),
    }
}

fn force_query(query: &[(String, String)]) -> ApiResult<bool> {
    match query_value(query, "forceRegenerate") {
        None | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(other) => Err(ApiError::BadRequest(format!(
            "forceRegenerate must be true or false, got \"{other}\""
        ))),
    }
}

/// `GET /api/v1/agent/episode/{episodeId}/deep-analysis`: the team's analysis of the
/// episode, made on first request (one AI assist) and then reused;
/// `?forceRegenerate=true` makes a new one.
#[utoipa::path(get, path = "/api/v1/agent/episode/{episodeId}/deep-analysis", tag = "agent", operation_id = "getEpisodeDeepAnalysis",
    params(("episodeId" = String, Path), ("forceRegenerate" = Option<bool>, Query)),
    responses((status = 200, body = DeepAnalysisResponse, description = "The episode's deep analysis"),
              (status = 429, description = "The plan's AI assists are used up")))]
pub async fn episode_analysis(
    State(state): State<AppState>,
    caller: Caller,
    Path(episode_id): Path<String>,
    Query(query): Query<Vec<(String, String)>>,
) -> ApiResult<(Option<Metered>, Envelope<DeepAnalysisResponse>)> {
    let account = caller.require_account()?.clone();
    let force = force_query(&query)?;
    // Made on first request (an assist) or regenerated: from the app, by session.
    caller.require_app_for_session()?;
    let load = state.clone();
    let (podcast, episode, cached) = blocking(move || {
        let episode = lookup::episode_by_id(&load, &episode_id)?;
        let podcast = load
            .catalog
            .snapshot()?
            .podcast_by_id(episode.podcast_id)?
            .ok_or_else(|| lookup::podcast_not_found(&episode.podcast_id.to_string()))?;
        let cached = stored(&load, &account.team_id, &episode.episode_id.to_string())?;
        Ok((podcast, episode, cached))
    })
    .await?;
    if let Some(analysis) = cached.filter(|_| !force) {
        return Ok((
            None,
            Envelope(DeepAnalysisResponse {
                deep_analysis: analysis,
            }),
        ));
    }
    let (analysis, metered) = analyse(&state, &caller, podcast, episode).await?;
    Ok((
        Some(metered),
        Envelope(DeepAnalysisResponse {
            deep_analysis: analysis,
        }),
    ))
}

/// The episodes a podcast request names: the listed ids (each of the podcast), else
/// the newest `limit`.
fn requested_episodes(
    state: &AppState,
    podcast: &PodcastRecord,
    episode_ids: Option<Vec<String>>,
    limit: usize,
) -> ApiResult<Vec<EpisodeRecord>> {
    let Some(ids) = episode_ids else {
        return Ok(state
            .catalog
            .snapshot()?
            .podcast_episodes_newest(podcast.podcast_id, limit as u64)?);
    };
    let mut episodes: Vec<EpisodeRecord> = Vec::new();
    for id in ids {
        let episode = lookup::episode_by_id(state, &id)?;
        if episode.podcast_id != podcast.podcast_id {
            return Err(ApiError::BadRequest(format!(
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

/// `POST /api/v1/podcasts/deep-analysis`: body `podcastId` (id or slug), and either
/// `episodeIds` (at most 10) or `limit` (the newest 1-10 episodes, default 3), and
/// `forceRegenerate`. Episodes already analysed for the team are reused unless forced;
/// each new analysis is one AI assist.
#[utoipa::path(post, path = "/api/v1/podcasts/deep-analysis", tag = "agent", operation_id = "requestPodcastDeepAnalysis", request_body = PodcastDeepAnalysisRequest,
    responses((status = 200, body = DeepAnalysesResponse, description = "The analyses of the requested episodes"),
              (status = 404, description = "Unknown podcast or episode"),
              (status = 429, description = "The plan's AI assists are used up")))]
pub async fn request_for_podcast(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<(Option<Metered>, Envelope<DeepAnalysesResponse>)> {
    let account = caller.require_account()?.clone();
    let body = object(body)?;
    let podcast_key = optional_string(&body, "podcastId")?
        .map(|value| value.trim().to_owned())
        .filter(|value| !value.is_empty())
        .ok_or_else(|| ApiError::BadRequest("podcastId is required".into()))?;
    let episode_ids = optional_strings(&body, "episodeIds")?;
    if let Some(ids) = &episode_ids
        && (ids.is_empty() || ids.len() > MAX_EPISODES_PER_REQUEST)
    {
        return Err(ApiError::BadRequest(format!(
            "episodeIds must hold 1 to {MAX_EPISODES_PER_REQUEST} episode ids"
        )));
    }
    let limit = match body.get("limit") {
        None | Some(Value::Null) => DEFAULT_EPISODES_PER_REQUEST,
        Some(value) => match value.as_u64() {
            Some(n) if (1..=MAX_EPISODES_PER_REQUEST as u64).contains(&n) => n as usize,
            _ => {
                return Err(ApiError::BadRequest(format!(
                    "limit must be a whole number between 1 and {MAX_EPISODES_PER_REQUEST}"
                )));
            }
        },
    };
    let force = force_flag(body.get("forceRegenerate"))?;
    let load = state.clone();
    let team_id = account.team_id.clone();
    let (podcast, episodes, cached) = blocking(move || {
        let podcast = lookup::podcast_by_id_or_slug(&load, &podcast_key)?;
        let episodes = requested_episodes(&load, &podcast, episode_ids, limit)?;
        let cached = episodes
            .iter()
            .map(|episode| stored(&load, &team_id, &episode.episode_id.to_string()))
            .collect::<ApiResult<Vec<_>>>()?;
        Ok((podcast, episodes, cached))
    })
    .await?;
    let mut analyses = Vec::with_capacity(episodes.len());
    let mut last_charge = None;
    let mut generated = 0;
    for (episode, cached) in episodes.into_iter().zip(cached) {
        if let Some(analysis) = cached.filter(|_| !force) {
            analyses.push(analysis);
            continue;
        }
        let (analysis, metered) = analyse(&state, &caller, podcast.clone(), episode).await?;
        analyses.push(analysis);
        last_charge = Some(metered);
        generated += 1;
    }
    Ok((
        last_charge,
        Envelope(DeepAnalysesResponse {
            podcast_id: podcast.podcast_id.to_string(),
            podcast_slug: podcast.podcast_slug,
            generated,
            deep_analyses: analyses,
        }),
    ))
}

/// `GET /api/v1/podcasts/{podcastIdOrSlug}/episodes/deep-analysis`: the team's stored
/// analyses of the podcast's episodes, newest episode first.
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/episodes/deep-analysis", tag = "agent", operation_id = "listPodcastDeepAnalyses",
    params(("podcastIdOrSlug" = String, Path)),
    responses((status = 200, body = DeepAnalysesResponse, description = "The team's analyses of the podcast's episodes")))]
pub async fn list_for_podcast(
    State(state): State<AppState>,
    caller: Caller,
    Path(podcast_key): Path<String>,
) -> ApiResult<Envelope<DeepAnalysesResponse>> {
    let account = caller.require_account()?.clone();
    blocking(move || {
        let podcast = lookup::podcast_by_id_or_slug(&state, &podcast_key)?;
        let podcast_id = podcast.podcast_id.to_string();
        let mut analyses: Vec<EpisodeDeepAnalysis> = state
            .workflows
            .list_docs::<EpisodeDeepAnalysis>(
                DocKind::DeepAnalysis,
                &DocFilter {
                    team_id: Some(&account.team_id),
                    parent_id: Some(&podcast_id),
                    ..DocFilter::default()
                },
            )?
            .into_iter()
            .map(|doc| doc.value)
            .collect();
        analyses.sort_by(|a, b| {
            b.episode_published_at
                .cmp(&a.episode_published_at)
                .then(a.episode_id.cmp(&b.episode_id))
        });
        Ok(Envelope(DeepAnalysesResponse {
            podcast_id,
            podcast_slug: podcast.podcast_slug,
            generated: 0,
            deep_analyses: analyses,
        }))
    })
    .await
}
