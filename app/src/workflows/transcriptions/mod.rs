//! Transcription requests: queued durably per episode, processed by a worker that
//! completes a request from the publisher's transcript when the catalog holds one,
//! otherwise hands it to the speech-to-text worker ([`speech_worker`]) when a
//! model is configured, and otherwise fails it with the reason. Podcasts can be
//! followed so that requests are made for their future episodes.

mod requests;
pub mod speech_worker;

pub use requests::{
    HistoryQuery, MAX_HISTORY_LIMIT, PodcastRequestAnswer, PodcastRequestQuery, REQUEST_TYPES,
    RequestHistory, RequestMessage, TranscriptionRequests,
};

use std::sync::Arc;

use super::job_log::JobFailure;
use chrono::{DateTime, NaiveDate, Utc};
use podlens_data::snapshot::EpisodesQuery;
use podlens_model::catalog::{EpisodeRecord, PodcastRecord};
use podlens_model::entities::Timestamp;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::WorkflowStore;
use super::documents::{DocFilter, DocKind, Stored};
use crate::catalog::CatalogReader;
use crate::error::AppResult;
use crate::refresh::CatalogWrites;
use crate::runtime::blocking;
use speech_worker::SpeechWorker;

/// The default start of `since` podcast requests (SPEC.md §9).
pub fn default_since() -> DateTime<Utc> {
    NaiveDate::from_ymd_opt(2024, 1, 1)
        .and_then(|date| date.and_hms_opt(0, 0, 0))
        .map(|at| at.and_utc())
        .unwrap_or_default()
}

/// Episodes a `recent` podcast request covers.
pub const RECENT_EPISODES: u64 = 5;
/// The most episodes one podcast request covers.
pub const MAX_EPISODES_PER_REQUEST: u64 = 100;
/// Why a request without a publisher transcript fails.
pub const NO_TRANSCRIPT_REASON: &str = "no publisher transcript is available for this episode and this server has no speech-to-text model";

/// One transcription request, in its wire shape plus its status.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptionRequest {
    pub request_id: String,
    pub request_type: String,
    pub podcast_title: String,
    pub podcast_image_url: Option<String>,
    pub podcast_id: String,
    pub podcast_slug: String,
    pub requested_at: Timestamp,
    pub requested_by_user_id: Option<String>,
    pub completed_at: Option<Timestamp>,
    pub failure_reason: Option<String>,
    pub episode_id: String,
    pub episode_title: Option<String>,
    pub episode_image_url: Option<String>,
    pub episode_slug: String,
    /// `not_started`, `completed` or `failed`.
    pub status: String,
}

/// A podcast whose future episodes are requested automatically.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastFollow {
    pub podcast_id: String,
    pub requested_by_user_id: String,
    pub since: Timestamp,
}

pub fn new_request(
    podcast: &PodcastRecord,
    episode: &EpisodeRecord,
    user_id: &str,
) -> TranscriptionRequest {
    TranscriptionRequest {
        request_id: Uuid::new_v4().to_string(),
        request_type: "transcription".into(),
        podcast_title: podcast.podcast_rss_title.clone(),
        podcast_image_url: podcast.podcast_image_url.clone(),
        podcast_id: podcast.podcast_id.to_string(),
        podcast_slug: podcast.podcast_slug.clone(),
        requested_at: Utc::now(),
        requested_by_user_id: Some(user_id.to_owned()),
        completed_at: None,
        failure_reason: None,
        episode_id: episode.episode_id.to_string(),
        episode_title: Some(episode.episode_rss_title.clone()),
        episode_image_url: episode.episode_image_url.clone(),
        episode_slug: episode.episode_slug.clone(),
        status: "not_started".into(),
    }
}

/// The team's requests, newest first.
pub async fn team_requests(
    store: &WorkflowStore,
    team_id: &str,
) -> AppResult<Vec<TranscriptionRequest>> {
    let mut requests: Vec<TranscriptionRequest> = store
        .list_docs::<TranscriptionRequest>(
            DocKind::TranscriptionRequest,
            &DocFilter {
                team_id: Some(team_id),
                ..DocFilter::default()
            },
        )
        .await?
        .into_iter()
        .map(|doc| doc.value)
        .collect();
    requests.sort_by(|a, b| {
        b.requested_at
            .cmp(&a.requested_at)
            .then(a.request_id.cmp(&b.request_id))
    });
    Ok(requests)
}

/// The team's live (queued or completed) request for an episode, if any.
pub async fn open_request(
    store: &WorkflowStore,
    team_id: &str,
    episode_id: &str,
) -> AppResult<Option<TranscriptionRequest>> {
    Ok(team_requests(store, team_id)
        .await?
        .into_iter()
        .find(|request| request.episode_id == episode_id && request.status != "failed"))
}

pub async fn save_request(
    store: &WorkflowStore,
    team_id: &str,
    request: &TranscriptionRequest,
) -> AppResult<()> {
    let doc = Stored {
        id: request.request_id.clone(),
        team_id: team_id.to_owned(),
        parent_id: Some(request.podcast_id.clone()),
        created_at: request.requested_at,
        updated_at: Utc::now(),
        deleted: false,
        value: request.clone(),
    };
    store.put_doc(DocKind::TranscriptionRequest, &doc).await
}

/// What processing transcription requests needs: the requests' store, the catalog
/// (its transcripts, and the writes of recognised ones) and the speech-to-text worker.
#[derive(Clone)]
pub struct Transcriptions {
    pub store: Arc<WorkflowStore>,
    pub writes: CatalogWrites,
    pub speech: Arc<SpeechWorker>,
}

/// Completes or fails one queued request, or hands it to the speech-to-text worker
/// (where it stays `not_started` until the audio is transcribed).
pub async fn process_request(
    transcriptions: &Transcriptions,
    team_id: &str,
    request_id: &str,
) -> AppResult<()> {
    let store = &transcriptions.store;
    let Some(mut doc) = store
        .get_doc::<TranscriptionRequest>(DocKind::TranscriptionRequest, Some(team_id), request_id)
        .await?
    else {
        return Ok(());
    };
    if doc.value.status != "not_started" {
        return Ok(());
    }
    let transcript = match Uuid::parse_str(&doc.value.episode_id) {
        Ok(id) => {
            let catalog = transcriptions.writes.catalog.clone();
            blocking(move || Ok(catalog.snapshot()?.transcript_by_episode(id)?)).await?
        }
        Err(_) => None,
    };
    if transcript.is_none() && transcriptions.speech.has_engine() {
        // Speech to text runs on the leader only: a follower leaves the request
        // not started for the leader's next pass.
        if transcriptions.writes.cluster.is_leader() {
            transcriptions.speech.enqueue(
                &transcriptions.store,
                &transcriptions.writes,
                team_id,
                request_id,
            );
        }
        return Ok(());
    }
    let now = Utc::now();
    match transcript {
        Some(_) => {
            doc.value.status = "completed".into();
            doc.value.failure_reason = None;
        }
        None => {
            doc.value.status = "failed".into();
            doc.value.failure_reason = Some(NO_TRANSCRIPT_REASON.into());
        }
    }
    doc.value.completed_at = Some(now);
    doc.updated_at = now;
    store.put_doc(DocKind::TranscriptionRequest, &doc).await
}

/// Processes a request in the background.
pub fn spawn_processing(transcriptions: &Transcriptions, team_id: &str, request_id: &str) {
    let (transcriptions, team_id, request_id) = (
        transcriptions.clone(),
        team_id.to_owned(),
        request_id.to_owned(),
    );
    tokio::spawn(async move {
        if let Err(error) = process_request(&transcriptions, &team_id, &request_id).await {
            tracing::warn!(%error, "transcription request processing failed");
        }
    });
}

/// The episodes a podcast request of `kind` covers: `latest` (the newest),
/// `recent` (the [`RECENT_EPISODES`] newest) or `since` (published on or after `since`).
pub fn episodes_for(
    catalog: &CatalogReader,
    podcast: &PodcastRecord,
    kind: &str,
    since: DateTime<Utc>,
) -> AppResult<Vec<EpisodeRecord>> {
    let limit = match kind {
        "latest" => 1,
        "recent" => RECENT_EPISODES,
        _ => MAX_EPISODES_PER_REQUEST,
    };
    let page = catalog.snapshot()?.podcast_episodes(
        podcast.podcast_id,
        &EpisodesQuery {
            limit,
            ..EpisodesQuery::default()
        },
    )?;
    Ok(page
        .episodes
        .into_iter()
        .filter(|episode| {
            kind != "since"
                || episode
                    .episode_rss_published_at
                    .is_some_and(|at| at >= since)
        })
        .collect())
}

/// What a pass of the transcription worker did.
#[derive(Debug, Default)]
pub struct TranscriptionRunReport {
    /// Requests created for new episodes of followed podcasts.
    pub created: u64,
    /// Requests still waiting after the pass.
    pub queued: u64,
    /// Requests and follows that failed; the others were processed.
    pub failures: Vec<JobFailure>,
}

/// The worker pass: processes queued requests and requests the new episodes of
/// followed podcasts. A request or follow that fails is recorded and the others go on.
pub async fn run_transcriptions(
    transcriptions: &Transcriptions,
) -> AppResult<TranscriptionRunReport> {
    let mut report = TranscriptionRunReport::default();
    let store = &transcriptions.store;
    let queued: Vec<Stored<TranscriptionRequest>> = store
        .list_docs(DocKind::TranscriptionRequest, &DocFilter::default())
        .await?;
    for doc in queued
        .iter()
        .filter(|doc| doc.value.status == "not_started")
    {
        if let Err(error) = process_request(transcriptions, &doc.team_id, &doc.id).await {
            report.failures.push(JobFailure::new(
                "transcription request",
                Some(&doc.team_id),
                Some(&doc.id),
                &error,
            ));
        }
    }
    let follows: Vec<Stored<PodcastFollow>> = store
        .list_docs(DocKind::TranscriptionFollow, &DocFilter::default())
        .await?;
    for follow in follows {
        if let Err(error) = follow_podcast(transcriptions, &follow, &mut report.created).await {
            report.failures.push(JobFailure::new(
                "transcription follow",
                Some(&follow.team_id),
                Some(&follow.value.podcast_id),
                &error,
            ));
        }
    }
    report.queued = store
        .list_docs::<TranscriptionRequest>(DocKind::TranscriptionRequest, &DocFilter::default())
        .await?
        .iter()
        .filter(|doc| doc.value.status == "not_started" || doc.value.status == "in_progress")
        .count() as u64;
    Ok(report)
}

/// Requests the new episodes of one followed podcast.
async fn follow_podcast(
    transcriptions: &Transcriptions,
    follow: &Stored<PodcastFollow>,
    created: &mut u64,
) -> AppResult<()> {
    let Ok(id) = Uuid::parse_str(&follow.value.podcast_id) else {
        return Ok(());
    };
    let (catalog, since) = (transcriptions.writes.catalog.clone(), follow.value.since);
    let found = blocking(move || {
        let Some(podcast) = catalog.snapshot()?.podcast_by_id(id)? else {
            return Ok(None);
        };
        let episodes = episodes_for(&catalog, &podcast, "since", since)?;
        Ok(Some((podcast, episodes)))
    })
    .await?;
    let Some((podcast, episodes)) = found else {
        return Ok(());
    };
    let store = &transcriptions.store;
    for episode in episodes {
        let episode_id = episode.episode_id.to_string();
        if team_requests(store, &follow.team_id)
            .await?
            .iter()
            .any(|r| r.episode_id == episode_id)
        {
            continue;
        }
        let request = new_request(&podcast, &episode, &follow.value.requested_by_user_id);
        save_request(store, &follow.team_id, &request).await?;
        process_request(transcriptions, &follow.team_id, &request.request_id).await?;
        *created += 1;
    }
    Ok(())
}
