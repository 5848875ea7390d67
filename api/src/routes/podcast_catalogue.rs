//! A podcast's episode catalogue: its publishing rhythm over the last 26 weeks and a
//! compact list of its episodes with their people, sponsors, transcript state and
//! whether each is new or a rerun. Not a metered podcast lookup.

use std::collections::HashMap;

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use podlens_model::catalog::{EpisodeRecord, PodcastRecord};
use podlens_model::entities::{
    CatalogueEpisode, CatalogueRhythm, CatalogueRhythmDay, CatalogueWeekdayShift, EpisodeCatalogue,
    EpisodeCatalogueResponse, EpisodePerson,
};
use podlens_model::enums::PersonType;
use podlens_model::publishing::{self, Release};
use serde::Deserialize;
use uuid::Uuid;

use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiQuery;
use crate::routes::lookup;
use crate::state::{AppState, blocking};

/// Episodes listed by the summary view (the newest).
pub const SUMMARY_EPISODES: u64 = 50;
/// Episodes listed by the full view (the newest), and read for the rhythm.
pub const FULL_EPISODES: u64 = 1000;

pub fn router() -> Router<AppState> {
    Router::new().route(
        "/api/v1/podcasts/{podcastIdOrSlug}/episode-catalogue",
        get(episode_catalogue),
    )
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogueParams {
    view: Option<String>,
}

/// How many episodes a view lists.
fn view_limit(view: Option<&str>) -> ApiResult<u64> {
    match view {
        Some("summary") => Ok(SUMMARY_EPISODES),
        Some("full") => Ok(FULL_EPISODES),
        Some(other) => Err(ApiError::BadRequest(format!(
            "view must be summary or full, got \"{other}\""
        ))),
        None => Err(ApiError::BadRequest(
            "view is required: summary or full".into(),
        )),
    }
}

/// A podcast's publishing rhythm over the last 26 weeks and its newest episodes
/// (50 in the summary view, 1000 in the full view).
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/episode-catalogue", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path, description = "Podcast id or slug"),
           ("view" = String, Query, description = "summary (newest 50 episodes) or full (newest 1000)")),
    responses((status = 200, description = "The catalogue"), (status = 400, description = "Missing or unknown view"),
              (status = 404, description = "Unknown podcast")))]
pub async fn episode_catalogue(
    State(state): State<AppState>,
    Path(id_or_slug): Path<String>,
    ApiQuery(params): ApiQuery<CatalogueParams>,
) -> ApiResult<Envelope<EpisodeCatalogueResponse>> {
    let listed = view_limit(params.view.as_deref())?;
    blocking(move || {
        let record = lookup::podcast_by_id_or_slug(&state, &id_or_slug)?;
        Ok(Envelope(EpisodeCatalogueResponse {
            catalogue: catalogue(&state, &record, listed, chrono::Utc::now())?,
        }))
    })
    .await
}

fn published_at(episode: &EpisodeRecord) -> chrono::DateTime<chrono::Utc> {
    episode
        .episode_rss_published_at
        .unwrap_or(episode.episode_created_at)
}

fn catalogue(
    state: &AppState,
    record: &PodcastRecord,
    listed: u64,
    now: chrono::DateTime<chrono::Utc>,
) -> ApiResult<EpisodeCatalogue> {
    let snapshot = state.catalog.snapshot()?;
    let episodes = snapshot.podcast_episodes_newest(record.podcast_id, FULL_EPISODES + 1)?;
    let mut sponsors = snapshot.episode_sponsor_names(record.podcast_id)?;
    let mut people: HashMap<Uuid, Vec<EpisodePerson>> = HashMap::new();
    for person in snapshot.episode_people(record.podcast_id)? {
        people
            .entry(person.episode_id)
            .or_default()
            .push(EpisodePerson {
                name: person.name,
                person_type: PersonType::parse(&person.person_type).unwrap_or(PersonType::Unknown),
                image_url: person.image_url,
            });
    }
    // Oldest first, so a repeated title marks the later episode as the rerun.
    let reruns = publishing::reruns(
        episodes
            .iter()
            .rev()
            .map(|episode| episode.episode_rss_title.as_str()),
    );
    let rerun_of = |index: usize| reruns[episodes.len() - 1 - index];
    let releases: Vec<Release> = episodes
        .iter()
        .filter(|episode| episode.episode_rss_published_at.is_some())
        .map(|episode| Release {
            published_at: published_at(episode),
            duration_seconds: episode
                .episode_duration_seconds
                .and_then(|seconds| u64::try_from(seconds).ok()),
        })
        .collect();
    let rhythm = publishing::rhythm(&releases, record.founded_date, now);
    let total = u64::try_from(record.total_episodes)
        .unwrap_or(0)
        .max(episodes.len() as u64);
    let listed_episodes = episodes
        .iter()
        .enumerate()
        .take(usize::try_from(listed).unwrap_or(usize::MAX))
        .map(|(index, episode)| CatalogueEpisode {
            id: episode.episode_id.to_string(),
            slug: episode.episode_slug.clone(),
            title: episode.episode_rss_title.clone(),
            published_at: published_at(episode),
            duration_seconds: episode
                .episode_duration_seconds
                .and_then(|seconds| u64::try_from(seconds).ok()),
            image_url: episode.episode_image_url.clone(),
            people: Some(people.remove(&episode.episode_id).unwrap_or_default()),
            sponsors: Some(sponsors.remove(&episode.episode_id).unwrap_or_default()),
            has_transcript: episode.episode_has_transcript,
            release_type: Some(if rerun_of(index) { "rerun" } else { "new" }.to_owned()),
            apple_podcasts_url: None,
            youtube_url: None,
            spotify_url: None,
        })
        .collect();
    Ok(EpisodeCatalogue {
        episodes: listed_episodes,
        truncated: total > listed,
        classification_available: true,
        rhythm: CatalogueRhythm {
            start: rhythm.start,
            end: rhythm.end,
            days: rhythm
                .days
                .iter()
                .map(|day| CatalogueRhythmDay {
                    date: day.date.to_string(),
                    count: day.count,
                    runtime_seconds: day.runtime_seconds,
                    future: day.future,
                })
                .collect(),
            episode_count: rhythm.episode_count,
            truncated: rhythm.truncated,
            median_runtime_seconds: rhythm.median_runtime_seconds,
            median_interval_days: rhythm.median_interval_days,
            empty_weeks: rhythm.empty_weeks.iter().map(ToString::to_string).collect(),
            weekday_shift: rhythm.weekday_shift.map(|shift| CatalogueWeekdayShift {
                from_day: shift.from_day,
                to_day: shift.to_day,
                since: shift.since.to_string(),
            }),
        },
    })
}
