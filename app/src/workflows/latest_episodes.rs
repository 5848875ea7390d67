//! The latest episodes, grouped by podcast (`GET /api/v1/episodes/latest`).

use std::sync::Arc;

use podlens_data::snapshot::LatestEpisodesQuery;
use podlens_model::entities::{LatestEpisodesResponse, PodcastWithEpisodes};

use crate::catalog::CatalogReader;
use crate::error::{AppError, AppResult};
use crate::runtime::blocking;

/// What the latest episodes are filtered by: categories or genres (`categories`, repeated
/// or comma-separated), a podcast image, a transcript, the language (`en` by default, `all`
/// or empty for any), explicit episodes left out; `limit` 1–150 (150 by default).
#[derive(Debug, Default)]
pub struct LatestParams {
    categories: Vec<String>,
    podcast_image_required: Option<bool>,
    has_transcript: Option<bool>,
    language: Option<String>,
    exclude_explicit: Option<bool>,
    limit: Option<u64>,
}

fn flag(name: &str, value: &str) -> AppResult<bool> {
    match value {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        other => Err(AppError::Invalid(format!(
            "{name} must be true or false, got \"{other}\""
        ))),
    }
}

impl LatestParams {
    pub fn from_query(pairs: &[(String, String)]) -> AppResult<LatestParams> {
        let mut params = LatestParams::default();
        for (key, value) in pairs {
            match key.as_str() {
                "categories" | "categories[]" => params.categories.extend(
                    value
                        .split(',')
                        .map(str::trim)
                        .filter(|category| !category.is_empty())
                        .map(str::to_owned),
                ),
                "podcastImageRequired" => params.podcast_image_required = Some(flag(key, value)?),
                "hasTranscript" => params.has_transcript = Some(flag(key, value)?),
                "excludeExplicit" => params.exclude_explicit = Some(flag(key, value)?),
                "language" => params.language = Some(value.clone()),
                "limit" => {
                    params.limit = Some(value.parse().map_err(|_| {
                        AppError::Invalid(format!("limit must be a whole number, got \"{value}\""))
                    })?)
                }
                _ => {}
            }
        }
        let most = LatestEpisodesQuery::default().limit;
        if params.limit.is_some_and(|limit| limit == 0 || limit > most) {
            return Err(AppError::Invalid(format!(
                "limit must be between 1 and {most}"
            )));
        }
        Ok(params)
    }
}

/// The catalog's latest episodes.
pub struct LatestEpisodes {
    pub catalog: Arc<CatalogReader>,
}

impl LatestEpisodes {
    pub async fn groups(&self, params: LatestParams) -> AppResult<LatestEpisodesResponse> {
        let defaults = LatestEpisodesQuery::default();
        let query = LatestEpisodesQuery {
            categories: params.categories,
            podcast_image_required: params.podcast_image_required.unwrap_or(false),
            has_transcript: params.has_transcript,
            language: match params.language {
                Some(language) if language.trim().is_empty() || language == "all" => None,
                Some(language) => Some(language.trim().to_lowercase()),
                None => defaults.language.clone(),
            },
            exclude_explicit: params.exclude_explicit.unwrap_or(false),
            limit: params.limit.unwrap_or(defaults.limit),
            now: chrono::Utc::now(),
        };
        let catalog = self.catalog.clone();
        blocking(move || {
            let groups = catalog.snapshot()?.latest_episodes(&query)?;
            Ok(LatestEpisodesResponse {
                latest_podcasts: groups
                    .iter()
                    .map(|group| PodcastWithEpisodes {
                        podcast: crate::convert::podcast_summary(&group.podcast),
                        episodes: group
                            .episodes
                            .iter()
                            .map(|episode| {
                                crate::convert::episode(episode, &group.podcast.podcast_slug)
                            })
                            .collect(),
                    })
                    .collect(),
            })
        })
        .await
    }
}
