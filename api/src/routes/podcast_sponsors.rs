//! The sponsors heard on a podcast: the sponsor mentions that `podlens score` found
//! in its episodes' show notes, over its latest episodes or a window of days.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use podlens_data::snapshot::SponsorWindow;
use podlens_model::catalog::PodcastRecord;
use podlens_model::entities::{PodcastSponsor, PodcastSponsors, PodcastSponsorsResponse};
use podlens_model::enums::SponsorType;
use serde::Deserialize;

use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiQuery;
use crate::routes::lookup;
use crate::state::{AppState, blocking};
use podlens_app::convert;

/// Episodes a sponsor summary covers when no `sinceDays` is given.
pub const DEFAULT_SPONSOR_EPISODES: u64 = 10;
/// The longest window `sinceDays` may ask for (ten years).
const MAX_SINCE_DAYS: i64 = 3650;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/podcasts/{podcastIdOrSlug}/sponsors", get(sponsors))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SponsorsParams {
    since_days: Option<i64>,
}

/// The window of `sinceDays`, or the latest episodes; a bad value is a 400.
pub(crate) fn sponsor_window(since_days: Option<i64>) -> ApiResult<SponsorWindow> {
    match since_days {
        None => Ok(SponsorWindow::Latest(DEFAULT_SPONSOR_EPISODES)),
        Some(days) if (1..=MAX_SINCE_DAYS).contains(&days) => Ok(SponsorWindow::Since(
            chrono::Utc::now() - chrono::Duration::days(days),
        )),
        Some(days) => Err(ApiError::BadRequest(format!(
            "sinceDays must be between 1 and {MAX_SINCE_DAYS}, got {days}"
        ))),
    }
}

/// The sponsors of `record` over `window`, most appearances first.
pub(crate) fn podcast_sponsors(
    state: &AppState,
    record: &PodcastRecord,
    window: SponsorWindow,
) -> ApiResult<PodcastSponsors> {
    let summary = state
        .catalog
        .snapshot()?
        .podcast_sponsors(record.podcast_id, window)?;
    let sponsors = summary
        .sponsors
        .into_iter()
        .filter_map(|sponsor| {
            Some(PodcastSponsor {
                sponsor_type: SponsorType::parse(&sponsor.sponsor_type),
                name: sponsor.name,
                image_url: None,
                appearances_count: sponsor.appearances_count,
                most_recent_appearance_date: sponsor.most_recent_appearance_date?,
                oldest_appearance_date: sponsor.oldest_appearance_date?,
            })
        })
        .collect();
    Ok(PodcastSponsors {
        episodes_count: summary.episodes_count,
        episodes_with_sponsors_count: summary.episodes_with_sponsors_count,
        most_recent_episode_date: summary.most_recent_episode_date,
        oldest_episode_date: summary.oldest_episode_date,
        sponsors,
    })
}

/// The sponsors and advertisers named in a podcast's show notes: over its last 10
/// episodes, or over the episodes of the last `sinceDays` days.
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/sponsors", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path, description = "Podcast id or slug"),
           ("sinceDays" = Option<i64>, Query, description = "Episodes of the last N days (1-3650) instead of the last 10 episodes")),
    responses((status = 200, description = "The sponsors"), (status = 400, description = "Bad sinceDays"),
              (status = 404, description = "Unknown podcast")))]
pub async fn sponsors(
    State(state): State<AppState>,
    Path(id_or_slug): Path<String>,
    ApiQuery(params): ApiQuery<SponsorsParams>,
) -> ApiResult<Envelope<PodcastSponsorsResponse>> {
    let window = sponsor_window(params.since_days)?;
    blocking(move || {
        let record = lookup::podcast_by_id_or_slug(&state, &id_or_slug)?;
        Ok(Envelope(PodcastSponsorsResponse {
            podcast: convert::podcast_summary(&record),
            sponsors: podcast_sponsors(&state, &record, window)?,
        }))
    })
    .await
}
