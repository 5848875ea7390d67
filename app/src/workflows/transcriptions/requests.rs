//! Transcription requests as a team makes them: for an episode, or for a podcast's
//! episodes (each charged to the plan's monthly transcription requests, the podcast
//! optionally followed for its future episodes), and the team's request history.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use uuid::Uuid;

use super::{
    PodcastFollow, TranscriptionRequest, Transcriptions, default_since, episodes_for, new_request,
    open_request, save_request, spawn_processing, team_requests,
};
use crate::accounts::metering::{Metering, Requester};
use crate::accounts::{Account, UsageCounter};
use crate::catalog::CatalogReader;
use crate::error::{AppError, AppResult};
use crate::runtime::{blocking, to_the_end};
use crate::workflows::documents::{DocKind, Stored};
use crate::workflows::fields::{parse_date, query_bool, query_value, query_whole};

/// The request types of the request history.
pub const REQUEST_TYPES: [&str; 5] = [
    "autoOutreach",
    "deepAnalysis",
    "diarization",
    "guestPrep",
    "transcription",
];
/// The largest page of the request history.
pub const MAX_HISTORY_LIMIT: u64 = 100;

/// `?type=since|latest|recent&requestFutureEpisodes=&sinceDate=` of a podcast's request.
#[derive(Debug, Clone)]
pub struct PodcastRequestQuery {
    kind: String,
    follow: bool,
    since: DateTime<Utc>,
}

impl PodcastRequestQuery {
    pub fn from_query(query: &[(String, String)]) -> AppResult<PodcastRequestQuery> {
        let kind = query_value(query, "type")
            .ok_or_else(|| AppError::Invalid("type is required (since, latest or recent)".into()))?
            .to_owned();
        if !matches!(kind.as_str(), "since" | "latest" | "recent") {
            return Err(AppError::Invalid(format!(
                "Invalid type \"{kind}\"; expected one of since, latest, recent"
            )));
        }
        let follow = query_bool(query, "requestFutureEpisodes")?.unwrap_or(false);
        let since = match query_value(query, "sinceDate") {
            Some(text) => parse_date(text)?,
            None => default_since(),
        };
        Ok(PodcastRequestQuery {
            kind,
            follow,
            since,
        })
    }
}

/// `?limit&skip&filterCompleted` (and `requestType` for the request history).
#[derive(Debug, Clone)]
pub struct HistoryQuery {
    request_type: String,
    limit: u64,
    skip: u64,
    completed: Option<bool>,
}

impl HistoryQuery {
    /// The transcriptions' page (`/teams/transcriptions`).
    pub fn transcriptions(query: &[(String, String)]) -> AppResult<HistoryQuery> {
        Ok(HistoryQuery {
            request_type: "transcription".into(),
            limit: query_whole(query, "limit", 1, MAX_HISTORY_LIMIT)?
                .ok_or_else(|| AppError::Invalid("limit is required".into()))?,
            skip: query_whole(query, "skip", 0, MAX_SKIP)?.unwrap_or(0),
            completed: query_bool(query, "filterCompleted")?,
        })
    }

    /// A page of the request history of one `requestType`.
    pub fn requests(query: &[(String, String)]) -> AppResult<HistoryQuery> {
        let limit = query_whole(query, "limit", 1, MAX_HISTORY_LIMIT)?
            .ok_or_else(|| AppError::Invalid("limit is required".into()))?;
        let skip = query_whole(query, "skip", 0, MAX_SKIP)?.unwrap_or(0);
        let completed = query_bool(query, "filterCompleted")?;
        let request_type = query_value(query, "requestType")
            .ok_or_else(|| AppError::Invalid("requestType is required".into()))?;
        if !REQUEST_TYPES.contains(&request_type) {
            return Err(AppError::Invalid(format!(
                "Invalid requestType \"{request_type}\"; expected one of {}",
                REQUEST_TYPES.join(", ")
            )));
        }
        Ok(HistoryQuery {
            request_type: request_type.to_owned(),
            limit,
            skip,
            completed,
        })
    }
}

/// The largest `skip`.
const MAX_SKIP: u64 = 1_000_000_000;

/// The answer to an episode's request.
#[derive(Debug, Clone, Serialize)]
pub struct RequestMessage {
    pub message: String,
}

/// The answer to a podcast's request: what was done, and the episodes requested.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastRequestAnswer {
    pub message: String,
    pub episode_ids: Vec<String>,
}

/// A page of the request history: the requests without their internal ids.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestHistory {
    pub total_requests: usize,
    pub requests: Vec<Value>,
}

/// What a team's transcription requests work with.
#[derive(Clone)]
pub struct TranscriptionRequests {
    pub transcriptions: Transcriptions,
    pub catalog: Arc<CatalogReader>,
    pub metering: Metering,
}

impl TranscriptionRequests {
    /// Requests the episode's transcription (charged), unless the team already has a
    /// live request for it.
    pub async fn request_episode(
        &self,
        account: &Account,
        requester: &Requester,
        episode_id: &str,
    ) -> AppResult<RequestMessage> {
        let (catalog, lookup_id) = (self.catalog.clone(), episode_id.to_owned());
        let (podcast, episode) = blocking(move || {
            let not_found = || AppError::NotFound(format!("Episode not found: {lookup_id}"));
            let id = Uuid::parse_str(lookup_id.trim()).map_err(|_| not_found())?;
            let snapshot = catalog.snapshot()?;
            let episode = snapshot.episode_by_id(id)?.ok_or_else(not_found)?;
            let podcast = snapshot
                .podcast_by_id(episode.podcast_id)?
                .ok_or_else(not_found)?;
            Ok((podcast, episode))
        })
        .await?;
        let episode_key = episode.episode_id.to_string();
        let existing =
            open_request(&self.transcriptions.store, &account.team_id, &episode_key).await?;
        if let Some(existing) = existing {
            return Ok(RequestMessage {
                message: format!(
                    "Transcription of \"{}\" was already requested ({})",
                    episode.episode_rss_title,
                    existing.status.replace('_', " ")
                ),
            });
        }
        self.metering
            .charge(requester, UsageCounter::TranscriptionRequest)
            .await?;
        let request = new_request(&podcast, &episode, &account.user_id);
        // Charged: the request is kept, even if the caller stops waiting.
        let (store, saved, team_id) = (
            self.transcriptions.store.clone(),
            request.clone(),
            account.team_id.clone(),
        );
        to_the_end(async move { save_request(&store, &team_id, &saved).await }).await?;
        spawn_processing(&self.transcriptions, &account.team_id, &request.request_id);
        Ok(RequestMessage {
            message: format!(
                "Transcription requested for \"{}\"",
                episode.episode_rss_title
            ),
        })
    }

    /// Requests the transcription of the podcast's episodes the query names (each
    /// charged, until the plan's limit: the rest are said not requested), skipping those
    /// the team has live requests for, and follows the podcast when asked.
    pub async fn request_podcast(
        &self,
        account: &Account,
        requester: &Requester,
        podcast_id: &str,
        query: PodcastRequestQuery,
    ) -> AppResult<PodcastRequestAnswer> {
        let existing = team_requests(&self.transcriptions.store, &account.team_id).await?;
        let (catalog, podcast_id) = (self.catalog.clone(), podcast_id.to_owned());
        let PodcastRequestQuery {
            kind,
            follow,
            since,
        } = query;
        let (podcast, wanted) = blocking(move || {
            let podcast = catalog
                .snapshot()?
                .podcast_by_id_or_slug(&podcast_id)?
                .ok_or_else(|| AppError::NotFound(format!("Podcast not found: {podcast_id}")))?;
            let wanted: Vec<_> = episodes_for(&catalog, &podcast, &kind, since)?
                .into_iter()
                .filter(|episode| {
                    let id = episode.episode_id.to_string();
                    !existing
                        .iter()
                        .any(|request| request.episode_id == id && request.status != "failed")
                })
                .collect();
            Ok((podcast, wanted))
        })
        .await?;
        let mut created: Vec<TranscriptionRequest> = Vec::new();
        let mut limited = None;
        for episode in &wanted {
            match self
                .metering
                .charge(requester, UsageCounter::TranscriptionRequest)
                .await
            {
                Ok(_) => created.push(new_request(&podcast, episode, &account.user_id)),
                Err(error) if created.is_empty() => return Err(error),
                Err(error) => {
                    limited = Some(error.to_string());
                    break;
                }
            }
        }
        let store = self.transcriptions.store.clone();
        let team_id = account.team_id.clone();
        let to_save = created.clone();
        let user_id = account.user_id.clone();
        let followed_id = podcast.podcast_id.to_string();
        // Charged: every request is kept, even if the caller stops waiting.
        to_the_end(async move {
            for request in &to_save {
                save_request(&store, &team_id, request).await?;
            }
            if follow {
                let now = Utc::now();
                let followed = Stored {
                    id: format!("{team_id}:{followed_id}"),
                    team_id: team_id.clone(),
                    parent_id: Some(followed_id.clone()),
                    created_at: now,
                    updated_at: now,
                    deleted: false,
                    value: PodcastFollow {
                        podcast_id: followed_id,
                        requested_by_user_id: user_id,
                        since: now,
                    },
                };
                store
                    .put_doc(DocKind::TranscriptionFollow, &followed)
                    .await?;
            }
            Ok(())
        })
        .await?;
        for request in &created {
            spawn_processing(&self.transcriptions, &account.team_id, &request.request_id);
        }
        let mut message = format!(
            "Transcription requested for {} episode{} of \"{}\"",
            created.len(),
            if created.len() == 1 { "" } else { "s" },
            podcast.podcast_rss_title
        );
        if follow {
            message.push_str("; future episodes will be requested automatically");
        }
        if let Some(limit) = limited {
            message.push_str(&format!("; the rest were not requested: {limit}"));
        }
        Ok(PodcastRequestAnswer {
            message,
            episode_ids: created.iter().map(|r| r.episode_id.clone()).collect(),
        })
    }

    /// A page of the team's requests of one type, newest first.
    pub async fn history(
        &self,
        account: &Account,
        query: HistoryQuery,
    ) -> AppResult<RequestHistory> {
        let requests: Vec<TranscriptionRequest> =
            team_requests(&self.transcriptions.store, &account.team_id)
                .await?
                .into_iter()
                .filter(|request| request.request_type == query.request_type)
                .filter(|request| {
                    query
                        .completed
                        .is_none_or(|wanted| (request.status == "completed") == wanted)
                })
                .collect();
        let total_requests = requests.len();
        let requests = requests
            .into_iter()
            .skip(query.skip as usize)
            .take(query.limit as usize)
            .map(|request| {
                let mut value = serde_json::to_value(&request).unwrap_or(Value::Null);
                if let Some(object) = value.as_object_mut() {
                    object.remove("requestId");
                }
                value
            })
            .collect();
        Ok(RequestHistory {
            total_requests,
            requests,
        })
    }
}
