//! The podcast directory (`GET /api/v1/podcasts/directory/{letter}`, SPEC §9): a page of
//! the podcasts whose title files under a letter, in title order, with their authority
//! scores.

use std::sync::Arc;

use podlens_model::entities::PodcastSummary;
use serde::Serialize;

use crate::catalog::CatalogReader;
use crate::error::{AppError, AppResult};
use crate::search::SearchEngine;
use crate::workflows::fields::query_whole;

/// The page size when none is asked for (SPEC §9), and the largest.
pub const DIRECTORY_DEFAULT_LIMIT: u64 = 100;

/// A page of the podcast directory.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DirectoryResponse {
    /// `a`–`z`, or `0` for titles starting with a digit, a symbol or a non-Latin letter.
    letter: String,
    #[schema(value_type = Vec<Object>)]
    podcasts: Vec<PodcastSummary>,
    /// Podcasts under the letter.
    total: u64,
    skip: u64,
    limit: u64,
}

/// What a directory page asks for: the letter, then `limit` (1–100, default 100) after
/// `skip`.
#[derive(Debug, Clone)]
pub struct DirectoryQuery {
    letter: char,
    skip: u64,
    limit: u64,
}

impl DirectoryQuery {
    /// The path's letter (any case, spaces around it ignored) and the query's `limit`
    /// and `skip`.
    pub fn from_query(letter: &str, pairs: &[(String, String)]) -> AppResult<DirectoryQuery> {
        let folded = letter.trim().to_ascii_lowercase();
        let mut chars = folded.chars();
        let letter = match (chars.next(), chars.next()) {
            (Some(letter), None)
                if podlens_indexer::directory::DIRECTORY_LETTERS.contains(letter) =>
            {
                letter
            }
            _ => {
                return Err(AppError::Invalid(format!(
                    "Invalid directory letter \"{folded}\"; expected one of a-z or 0"
                )));
            }
        };
        Ok(DirectoryQuery {
            letter,
            limit: query_whole(pairs, "limit", 1, DIRECTORY_DEFAULT_LIMIT)?
                .unwrap_or(DIRECTORY_DEFAULT_LIMIT),
            skip: query_whole(pairs, "skip", 0, u64::from(u32::MAX))?.unwrap_or(0),
        })
    }
}

/// The directory's pages.
pub struct DirectoryPages {
    pub engine: Arc<dyn SearchEngine>,
    pub catalog: Arc<CatalogReader>,
}

impl DirectoryPages {
    pub async fn page(&self, query: DirectoryQuery) -> AppResult<DirectoryResponse> {
        let directory = self.engine.directory().await?;
        let catalog = self.catalog.clone();
        crate::runtime::blocking(move || {
            let (entries, total) =
                directory.page(query.letter, query.skip as usize, query.limit as usize);
            let ids: Vec<uuid::Uuid> = entries.iter().map(|entry| entry.podcast_id).collect();
            let scores = catalog.snapshot()?.authority_scores(&ids)?;
            let podcasts = entries
                .iter()
                .map(|entry| PodcastSummary {
                    author: entry.author.clone(),
                    authority_score: scores
                        .get(&entry.podcast_id)
                        .map(crate::convert::score_summary),
                    genres: entry.genres.clone(),
                    id: entry.podcast_id.to_string(),
                    image_url: entry.image_url.clone(),
                    language: entry.language.clone().unwrap_or_default(),
                    last_episode_published_at: entry
                        .last_episode_date
                        .and_then(|seconds| chrono::DateTime::from_timestamp(seconds, 0)),
                    slug: entry.slug.clone(),
                    title: entry.title.clone(),
                    title_latest: entry.title.clone(),
                })
                .collect();
            Ok(DirectoryResponse {
                letter: query.letter.to_string(),
                podcasts,
                total: total as u64,
                skip: query.skip,
                limit: query.limit,
            })
        })
        .await
    }
}
