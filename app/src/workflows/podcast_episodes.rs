//! A page of a podcast's episodes, newest first (`GET /api/v1/podcasts/{id}/episodes`),
//! each with when the caller's team asked for its deep analysis.

use std::sync::Arc;

use podlens_data::snapshot::EpisodesQuery;
use podlens_model::entities::{
    PodcastEpisodesOptions, PodcastEpisodesResponse, PodcastWithEpisodes,
};
use podlens_model::validation::validate_episodes_limit;
use serde::Deserialize;

use crate::accounts::Account;
use crate::catalog::CatalogReader;
use crate::error::{AppError, AppResult};
use crate::runtime::blocking;
use crate::workflows::deep_analyses::DeepAnalyses;

/// The page size when none is asked for.
pub const DEFAULT_EPISODES_LIMIT: u32 = 20;

/// What a page asks for: episodes with a transcript only, or without; `limit` (at most
/// 100, default 20) after `skip`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EpisodesParams {
    has_transcript: Option<bool>,
    skip: Option<i64>,
    limit: Option<i64>,
}

/// A podcast's episodes.
pub struct PodcastEpisodes {
    pub catalog: Arc<CatalogReader>,
    pub analyses: DeepAnalyses,
}

impl PodcastEpisodes {
    /// A page of the episodes of the podcast `id_or_slug`, for `account` (none when
    /// signed out).
    pub async fn page(
        self,
        account: Option<Account>,
        id_or_slug: String,
        params: EpisodesParams,
    ) -> AppResult<PodcastEpisodesResponse> {
        let limit = match params.limit {
            Some(limit) => validate_episodes_limit(limit)?,
            None => DEFAULT_EPISODES_LIMIT,
        };
        let skip = match params.skip {
            Some(skip) => u64::try_from(skip)
                .map_err(|_| AppError::Invalid("skip must not be negative".into()))?,
            None => 0,
        };
        let catalog = self.catalog.clone();
        let has_transcript = params.has_transcript;
        let (record, page) = blocking(move || {
            let record = catalog.podcast(&id_or_slug)?;
            let query = EpisodesQuery {
                has_transcript,
                skip,
                limit: u64::from(limit),
            };
            let page = catalog
                .snapshot()?
                .podcast_episodes(record.podcast_id, &query)?;
            Ok((record, page))
        })
        .await?;
        let requested = self
            .analyses
            .requested_times(account.as_ref(), &record.podcast_id.to_string())
            .await?;
        Ok(PodcastEpisodesResponse {
            options: PodcastEpisodesOptions {
                has_transcript: params.has_transcript,
                skip: Some(skip),
                limit: Some(u64::from(limit)),
            },
            total_episodes: u64::try_from(record.total_episodes).unwrap_or(0),
            total_transcripts: u64::try_from(record.total_transcripts).unwrap_or(0),
            podcast_with_episodes: PodcastWithEpisodes {
                podcast: crate::convert::podcast_summary(&record),
                episodes: page
                    .episodes
                    .iter()
                    .map(|episode| {
                        let mut wire = crate::convert::episode(episode, &record.podcast_slug);
                        wire.deep_analysis_requested_at =
                            requested.get(&episode.episode_id.to_string()).copied();
                        wire
                    })
                    .collect(),
            },
        })
    }
}
