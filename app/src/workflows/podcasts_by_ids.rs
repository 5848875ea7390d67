//! Podcasts by their ids: several by id, in the order asked
//! (`GET /api/v1/podcasts/multiple`), and one by exactly one of its ids elsewhere or its
//! feed URL (`GET /api/v1/podcasts/id/lookup`).

use std::sync::Arc;

use podlens_model::Plan;
use podlens_model::entities::PodcastLookupResponse;
use podlens_model::validation::{PodcastLookupKey, podcast_lookup_key};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::catalog::CatalogReader;
use crate::error::{AppError, AppResult};
use crate::runtime::blocking;

/// Most podcasts one call may ask for.
pub const MAX_MULTIPLE: usize = 100;

/// What a call asks for: the ids (`podcastIds`, repeated or comma-separated) and how
/// much of each podcast (`details`: `basic`, the default, or `full`).
#[derive(Debug, Clone)]
pub struct PodcastsByIdsQuery {
    ids: Vec<String>,
    uuids: Vec<Uuid>,
    details: &'static str,
}

impl PodcastsByIdsQuery {
    pub fn from_query(pairs: &[(String, String)]) -> AppResult<PodcastsByIdsQuery> {
        let mut ids = Vec::new();
        let mut details = "basic";
        for (key, value) in pairs {
            match key.as_str() {
                "podcastIds" | "podcastIds[]" => ids.extend(
                    value
                        .split(',')
                        .map(str::trim)
                        .filter(|id| !id.is_empty())
                        .map(str::to_owned),
                ),
                "details" => {
                    details = match value.as_str() {
                        "basic" => "basic",
                        "full" => "full",
                        other => {
                            return Err(AppError::Invalid(format!(
                                "details must be basic or full, got \"{other}\""
                            )));
                        }
                    }
                }
                _ => {}
            }
        }
        if ids.is_empty() {
            return Err(AppError::Invalid("podcastIds is required".into()));
        }
        if ids.len() > MAX_MULTIPLE {
            return Err(AppError::Invalid(format!(
                "at most {MAX_MULTIPLE} podcastIds per call"
            )));
        }
        let uuids = ids
            .iter()
            .map(|id| {
                Uuid::parse_str(id.trim()).map_err(|_| {
                    AppError::Invalid(format!("podcastIds must be a UUID, got \"{id}\""))
                })
            })
            .collect::<AppResult<Vec<_>>>()?;
        Ok(PodcastsByIdsQuery {
            ids,
            uuids,
            details,
        })
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MultipleOptions {
    podcast_ids: Vec<String>,
    details: &'static str,
}

/// The podcasts found, in the order asked, with what was asked.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MultiplePodcastsResponse {
    options: MultipleOptions,
    total_requested: u64,
    total_found: u64,
    podcasts: Vec<serde_json::Value>,
}

/// A lookup: exactly one of appleId, slug, spotifyId or podlensId (also read as
/// `podEngineId`), or a feed URL.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LookupQuery {
    apple_id: Option<String>,
    spotify_id: Option<String>,
    slug: Option<String>,
    pod_engine_id: Option<String>,
    podlens_id: Option<String>,
    rss_feed_url: Option<String>,
    podcast_guid: Option<String>,
}

/// Podcasts by id.
pub struct PodcastsByIds {
    pub catalog: Arc<CatalogReader>,
}

impl PodcastsByIds {
    /// The podcasts of `query` that the catalog holds, as `plan` sees them.
    pub async fn find(
        &self,
        query: PodcastsByIdsQuery,
        plan: Plan,
    ) -> AppResult<MultiplePodcastsResponse> {
        let catalog = self.catalog.clone();
        blocking(move || {
            let found = catalog.snapshot()?.podcasts_by_ids(&query.uuids)?;
            let mut podcasts = Vec::new();
            for id in &query.uuids {
                let Some(record) = found.iter().find(|record| record.podcast_id == *id) else {
                    continue;
                };
                let value = if query.details == "full" {
                    serde_json::to_value(catalog.podcast_details(record, plan)?)
                } else {
                    serde_json::to_value(crate::convert::podcast_summary(record))
                };
                podcasts.push(value.map_err(AppError::internal)?);
            }
            Ok(MultiplePodcastsResponse {
                total_requested: query.ids.len() as u64,
                total_found: podcasts.len() as u64,
                options: MultipleOptions {
                    podcast_ids: query.ids,
                    details: query.details,
                },
                podcasts,
            })
        })
        .await
    }

    /// The podcast a lookup names, `None` when the catalog has none.
    pub async fn lookup(&self, query: LookupQuery) -> AppResult<PodcastLookupResponse> {
        let own_id = query
            .podlens_id
            .as_deref()
            .or(query.pod_engine_id.as_deref());
        let given_id_keys = [
            query.apple_id.as_deref(),
            query.slug.as_deref(),
            query.spotify_id.as_deref(),
            own_id,
        ]
        .iter()
        .filter(|value| value.is_some_and(|text| !text.trim().is_empty()))
        .count();
        let feed_url = query
            .rss_feed_url
            .clone()
            .filter(|url| !url.trim().is_empty());
        if query.podcast_guid.is_some() {
            return Err(AppError::Invalid(
                "podcastGuid lookups are not supported; use podlensId, slug, appleId, spotifyId or rssFeedUrl".into(),
            ));
        }
        // Err(url): a feed URL lookup; Ok(key): one of the four id keys.
        let key: Result<PodcastLookupKey, String> = match (feed_url, given_id_keys) {
            (Some(url), 0) => Err(url),
            (Some(_), _) => return Err(podlens_model::ValidationError::LookupMoreThanOne.into()),
            (None, _) => Ok(podcast_lookup_key(
                query.apple_id.as_deref(),
                query.slug.as_deref(),
                query.spotify_id.as_deref(),
                own_id,
            )?),
        };
        let catalog = self.catalog.clone();
        blocking(move || {
            let snapshot = catalog.snapshot()?;
            let record = match key {
                Err(feed_url) => snapshot.podcast_by_feed_url(&feed_url)?,
                Ok(PodcastLookupKey::AppleId(id)) => snapshot.podcast_by_apple_id(&id)?,
                Ok(PodcastLookupKey::Slug(slug)) => snapshot.podcast_by_slug(&slug)?,
                Ok(PodcastLookupKey::SpotifyId(id)) => snapshot.podcast_by_spotify_id(&id)?,
                Ok(PodcastLookupKey::PodlensId(id)) => match Uuid::parse_str(id.trim()) {
                    Ok(uuid) => snapshot.podcast_by_id(uuid)?,
                    Err(_) => None,
                },
            };
            Ok(PodcastLookupResponse {
                podcast: record.as_ref().map(crate::convert::podcast_summary),
            })
        })
        .await
    }
}
