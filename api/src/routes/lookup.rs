//! Finding the podcast or episode a path names (404 for an unknown one).

use podlens_model::catalog::{EpisodeRecord, PodcastRecord};
use uuid::Uuid;

use crate::error::ApiResult;
use crate::state::AppState;

/// The podcast named by an id or a slug, or 404.
pub fn podcast_by_id_or_slug(state: &AppState, id_or_slug: &str) -> ApiResult<PodcastRecord> {
    Ok(state.catalog.podcast(id_or_slug)?)
}

/// The episode with this id, or 400 for a malformed id and 404 for an unknown one.
pub fn episode_by_id(state: &AppState, episode_id: &str) -> ApiResult<EpisodeRecord> {
    Ok(state.catalog.episode(episode_id)?)
}

/// The slug of the podcast with this id (episodes carry only the id).
pub fn podcast_slug(state: &AppState, podcast_id: Uuid) -> ApiResult<String> {
    Ok(state
        .catalog
        .snapshot()?
        .podcast_by_id(podcast_id)?
        .map(|podcast| podcast.podcast_slug)
        .unwrap_or_default())
}
