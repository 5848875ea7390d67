//! Everything about a podcast in one answer, composed from what the other podcast
//! routes compute (through the same functions, under the same plan rules): details
//! with the authority score, recent episodes, contacts, guests, reviews, socials,
//! sponsors, related podcasts, chart positions, YouTube channels and, on request,
//! the publishing history.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use podlens_data::snapshot::EpisodesQuery;
use podlens_model::catalog::PodcastRecord;
use podlens_model::entities::{
    MonthlyEpisodeCounts, PodcastAllDetails, PodcastAllDetailsResponse, PodcastContacts,
    PodcastSocialMedia, PodcastYoutubeData, PublishingHistory, RelatedPodcasts,
};
use podlens_model::publishing;
use serde::Deserialize;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiQuery;
use crate::metering::{self, Metered};
use crate::routes::lookup;
use crate::routes::podcast_details::{lookups_time, podcast_reviews, youtube_channels};
use crate::routes::podcast_sponsors::{podcast_sponsors, sponsor_window};
use crate::routes::podcasts::{podcast_guests, related_podcasts};
use crate::state::{AppState, blocking};
use podlens_app::accounts::UsageCounter;
use podlens_app::charts::{PodcastChartFilter, podcast_chart_positions};
use podlens_app::convert;

/// Recent episodes listed.
const RECENT_EPISODES: u64 = 10;
/// Chart positions listed (of the podcast's latest chart day).
const CHART_POSITIONS: usize = 100;

pub fn router() -> Router<AppState> {
    Router::new().route(
        "/api/v1/podcasts/{podcastIdOrSlug}/all-details",
        get(all_details),
    )
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AllDetailsParams {
    include_publishing_history: Option<bool>,
}

/// Whether the caller's plan lets it see the website contacts, charged as one
/// advanced contacts request. `Ok(false)` when the plan has none or the month's are
/// used up: the answer then carries `contacts: null` instead of failing whole.
async fn may_see_contacts(state: &AppState, caller: &Caller) -> ApiResult<(bool, Option<Metered>)> {
    if !caller.plan.sees_internal_contacts() {
        return Ok((true, None));
    }
    match metering::charge(state, caller, UsageCounter::ContactsRequested).await {
        Ok(metered) => Ok((true, Some(metered))),
        Err(ApiError::TooManyRequests(_)) | Err(ApiError::Forbidden(_)) => Ok((false, None)),
        Err(other) => Err(other),
    }
}

/// Everything about a podcast: the other podcast routes' answers in one. Contacts
/// follow the plan's contact rules and count as one advanced contacts request (null
/// once the month's are used up); related podcasts are null until the search index
/// is built. `includePublishingHistory=true` adds monthly episode counts of the last
/// 24 UTC months.
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/all-details", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path, description = "Podcast id or slug"),
           ("includePublishingHistory" = Option<bool>, Query, description = "Add monthly episode counts of the last 24 months")),
    responses((status = 200, description = "Everything about the podcast"), (status = 404, description = "Unknown podcast")))]
pub async fn all_details(
    State(state): State<AppState>,
    caller: Caller,
    Path(id_or_slug): Path<String>,
    ApiQuery(params): ApiQuery<AllDetailsParams>,
) -> ApiResult<(Option<Metered>, Envelope<PodcastAllDetailsResponse>)> {
    let lookup_state = state.clone();
    let record =
        blocking(move || lookup::podcast_by_id_or_slug(&lookup_state, &id_or_slug)).await?;
    let (contacts_allowed, metered) = may_see_contacts(&state, &caller).await?;
    let plan = caller.plan;
    let with_history = params.include_publishing_history.unwrap_or(false);
    let related = match related_podcasts(&state, &record).await {
        Ok(related) => Some(related),
        Err(ApiError::Unavailable(_)) => None,
        Err(other) => return Err(other),
    };
    let details = blocking(move || {
        let contacts = if contacts_allowed {
            Some(state.catalog.podcast_contacts(&record, plan)?)
        } else {
            None
        };
        compose(&state, &record, plan, contacts, related, with_history)
    })
    .await?;
    Ok((
        metered,
        Envelope(PodcastAllDetailsResponse { podcast: details }),
    ))
}

fn compose(
    state: &AppState,
    record: &PodcastRecord,
    plan: podlens_model::Plan,
    contacts: Option<PodcastContacts>,
    related: Option<RelatedPodcasts>,
    with_history: bool,
) -> ApiResult<PodcastAllDetails> {
    let snapshot = state.catalog.snapshot()?;
    let sponsors = podcast_sponsors(state, record, sponsor_window(None)?)?;
    let mut podcast = state.catalog.podcast_details(record, plan)?;
    let links = podcast.social_media_links.clone();
    podcast.podcast_has_sponsors = Some(!sponsors.sponsors.is_empty());

    let page = snapshot.podcast_episodes(
        record.podcast_id,
        &EpisodesQuery {
            has_transcript: None,
            skip: 0,
            limit: RECENT_EPISODES,
        },
    )?;
    let sponsor_names = snapshot.episode_sponsor_names(record.podcast_id)?;
    let recent_episodes = page
        .episodes
        .iter()
        .map(|episode| {
            let mut wire = convert::episode(episode, &record.podcast_slug);
            wire.episode_sponsors = sponsor_names.get(&episode.episode_id).cloned();
            wire
        })
        .collect();

    let (chart_positions, _) = podcast_chart_positions(
        &state.catalog,
        record,
        &PodcastChartFilter::default(),
        CHART_POSITIONS,
    )?;
    let at = lookups_time(state, record)?;
    let publishing_history = if with_history {
        let dates = snapshot.episode_dates(record.podcast_id)?;
        let history = publishing::publishing_history(&dates, chrono::Utc::now());
        Some(PublishingHistory {
            monthly_episode_counts: MonthlyEpisodeCounts {
                from_month: history.from_month,
                counts: history.counts,
            },
            average_episodes_per_month: history.average_episodes_per_month,
            last_episode_at: history.last_episode_at,
            truncated: history.truncated,
        })
    } else {
        None
    };
    Ok(PodcastAllDetails {
        recent_episodes: Some(recent_episodes),
        contacts,
        guests: Some(podcast_guests(state, record, None, None)?),
        reviews: Some(podcast_reviews(state, record, at)?),
        social_media: Some(PodcastSocialMedia {
            podcast_id: record.podcast_id.to_string(),
            social_media_links: links,
            facebook_page_data: Vec::new(),
            instagram_data: Vec::new(),
            linked_in_company_data: Vec::new(),
            linked_in_person_data: Vec::new(),
            tiktok_data: Vec::new(),
            twitter_data: Vec::new(),
        }),
        sponsors: Some(sponsors),
        related_podcasts: related,
        chart_positions: Some(chart_positions),
        youtube_data: Some(PodcastYoutubeData {
            podcast_id: record.podcast_id.to_string(),
            youtube_data: youtube_channels(state, record, at)?,
        }),
        publishing_history,
        podcast,
    })
}
