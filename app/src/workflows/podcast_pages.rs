//! A podcast's pages: its details (by id, slug or feed URL), contacts, social profiles,
//! authority score, ratings, YouTube channels, sponsors, guests and hosts, related
//! podcasts, and all of it in one answer (`/all-details`), composed from the same
//! functions under the same plan rules, so the one answer never disagrees with the
//! endpoints it gathers; and the podcasts that published most recently.

use std::sync::Arc;

use podlens_data::PlatformLookupRow;
use podlens_data::snapshot::{EpisodesQuery, PersonsQuery, SponsorWindow};
use podlens_model::catalog::PodcastRecord;
use podlens_model::entities::{
    AppleReview, AuthorityScoreDetails, AuthorityScoreSummary, CastboxStats,
    LatestPodcastsResponse, MonthlyEpisodeCounts, PodcastAllDetails, PodcastAllDetailsResponse,
    PodcastContacts, PodcastContactsResponse, PodcastGuest, PodcastGuests, PodcastGuestsResponse,
    PodcastResponse, PodcastReviews, PodcastReviewsResponse, PodcastSocialMedia,
    PodcastSocialMediaResponse, PodcastSponsor, PodcastSponsors, PodcastSponsorsResponse,
    PodcastSummary, PodcastYoutubeData, PublishingHistory, RelatedPodcasts,
    RelatedPodcastsResponse, SocialMediaLink, SpotifyReview, YoutubeChannel, YoutubeThumbnails,
};
use podlens_model::enums::{PersonType, SponsorType};
use podlens_model::{Plan, SocialKind, publishing};
use serde::{Deserialize, Serialize};

use crate::accounts::UsageCounter;
use crate::accounts::metering::{Charge, Metering, Requester};
use crate::catalog::CatalogReader;
use crate::charts::{PodcastChartFilter, podcast_chart_positions};
use crate::convert;
use crate::error::{AppError, AppResult};
use crate::runtime::blocking;
use crate::search::SearchEngine;

/// Related podcasts listed.
pub const RELATED_LIMIT: usize = 10;
/// Episodes a sponsor summary covers when no `sinceDays` is given.
pub const DEFAULT_SPONSOR_EPISODES: u64 = 10;
/// The longest window `sinceDays` may ask for (ten years).
const MAX_SINCE_DAYS: i64 = 3650;
/// Recent episodes listed in all the details.
const RECENT_EPISODES: u64 = 10;
/// Chart positions listed in all the details (of the podcast's latest chart day).
const CHART_POSITIONS: usize = 100;
/// How many podcasts the latest list holds.
const LATEST_PODCASTS: u64 = 100;

/// A podcast's pages.
#[derive(Clone)]
pub struct PodcastPages {
    pub catalog: Arc<CatalogReader>,
    pub engine: Arc<dyn SearchEngine>,
    pub metering: Metering,
}

/// `GET /api/v1/podcasts/{id}/youtube`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastYoutubeResponse {
    pub podcast: PodcastSummary,
    pub youtube_data: PodcastYoutubeData,
}

/// A podcast's authority score (0–100) and its four sub-scores.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthorityScoreResponse {
    pub podcast_id: String,
    pub podcast_authority_score: f64,
    pub authority_score: AuthorityScoreSummary,
}

fn no_score(id: &str) -> AppError {
    AppError::NotFound(format!("Authority score not found: {id}"))
}

/// Whose guests: those of the last `sinceDays` days, of one `role`.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GuestsParams {
    pub since_days: Option<u32>,
    pub role: Option<String>,
}

impl PodcastPages {
    /// The podcast named by an id or a slug, or `NotFound`.
    async fn record(&self, id_or_slug: String) -> AppResult<PodcastRecord> {
        let catalog = self.catalog.clone();
        blocking(move || catalog.podcast(&id_or_slug)).await
    }

    /// Runs `page` on the podcast `id_or_slug`, on a blocking thread (the catalog).
    async fn on_record<T: Send + 'static>(
        &self,
        id_or_slug: String,
        page: impl FnOnce(&CatalogReader, &PodcastRecord) -> AppResult<T> + Send + 'static,
    ) -> AppResult<T> {
        let catalog = self.catalog.clone();
        blocking(move || {
            let record = catalog.podcast(&id_or_slug)?;
            page(&catalog, &record)
        })
        .await
    }

    /// A podcast's full details, as `plan` sees them.
    pub async fn details(self, plan: Plan, id_or_slug: String) -> AppResult<PodcastResponse> {
        self.on_record(id_or_slug, move |catalog, record| {
            Ok(PodcastResponse {
                podcast: catalog.podcast_details(record, plan)?,
            })
        })
        .await
    }

    /// The podcast of the RSS feed `feed_url`, as `plan` sees it; `NotFound` for a feed
    /// the catalog does not have.
    pub async fn by_feed_url(self, plan: Plan, feed_url: String) -> AppResult<PodcastResponse> {
        let catalog = self.catalog.clone();
        blocking(move || {
            let record = catalog
                .snapshot()?
                .podcast_by_feed_url(&feed_url)?
                .ok_or_else(|| crate::catalog::podcast_not_found(&feed_url))?;
            Ok(PodcastResponse {
                podcast: catalog.podcast_details(&record, plan)?,
            })
        })
        .await
    }

    /// The podcasts that published most recently (with a transcript only, or without,
    /// when `has_transcripts` says so), each with its authority score.
    pub async fn latest(self, has_transcripts: Option<bool>) -> AppResult<LatestPodcastsResponse> {
        let catalog = self.catalog.clone();
        blocking(move || {
            let snapshot = catalog.snapshot()?;
            let records = snapshot.latest_podcasts(has_transcripts, LATEST_PODCASTS)?;
            let ids: Vec<uuid::Uuid> = records.iter().map(|record| record.podcast_id).collect();
            let scores = snapshot.authority_scores(&ids)?;
            Ok(LatestPodcastsResponse {
                podcasts: records
                    .iter()
                    .map(|record| {
                        let mut summary = convert::podcast_summary(record);
                        summary.authority_score =
                            scores.get(&record.podcast_id).map(convert::score_summary);
                        summary
                    })
                    .collect(),
            })
        })
        .await
    }

    /// A podcast's contacts: emails, phone numbers and websites with their contact
    /// pages. Contacts found on the website count against the plan's advanced contacts:
    /// the charge is returned, and over the limit it is refused.
    pub async fn contacts(
        self,
        requester: Requester,
        id_or_slug: String,
    ) -> AppResult<(Option<Charge>, PodcastContactsResponse)> {
        let record = self.record(id_or_slug).await?;
        let plan = requester.plan;
        let charge = if plan.sees_internal_contacts() {
            Some(
                self.metering
                    .charge(&requester, UsageCounter::ContactsRequested)
                    .await?,
            )
        } else {
            None
        };
        let catalog = self.catalog.clone();
        let response = blocking(move || {
            Ok(PodcastContactsResponse {
                podcast: catalog.podcast_summary(&record)?,
                podcast_contacts: catalog.podcast_contacts(&record, plan)?,
            })
        })
        .await?;
        Ok((charge, response))
    }

    /// A podcast's social profiles.
    pub async fn social_media(self, id_or_slug: String) -> AppResult<PodcastSocialMediaResponse> {
        self.on_record(id_or_slug, |catalog, record| {
            Ok(PodcastSocialMediaResponse {
                podcast: catalog.podcast_summary(record)?,
                social_media_data: social_media(record, catalog.social_links(record)?),
            })
        })
        .await
    }

    /// A podcast's authority score (0–100) and its four sub-scores; `NotFound` for a
    /// podcast without one.
    pub async fn authority_score(self, id_or_slug: String) -> AppResult<AuthorityScoreResponse> {
        let id = id_or_slug.clone();
        self.on_record(id_or_slug, move |catalog, record| {
            let scores = catalog.snapshot()?.authority_scores(&[record.podcast_id])?;
            let row = scores
                .get(&record.podcast_id)
                .ok_or_else(|| no_score(&id))?;
            Ok(AuthorityScoreResponse {
                podcast_id: record.podcast_id.to_string(),
                podcast_authority_score: row.authority_score,
                authority_score: convert::score_summary(row),
            })
        })
        .await
    }

    /// How a podcast's authority score was computed: the weighted sub-scores and every
    /// input; `NotFound` for a podcast without one.
    pub async fn authority_score_details(
        self,
        id_or_slug: String,
    ) -> AppResult<AuthorityScoreDetails> {
        let id = id_or_slug.clone();
        self.on_record(id_or_slug, move |catalog, record| {
            catalog
                .snapshot()?
                .authority_score_details(record.podcast_id)?
                .ok_or_else(|| no_score(&id))
        })
        .await
    }

    /// A podcast's ratings on Apple Podcasts and Spotify, and its Castbox plays.
    pub async fn reviews(self, id_or_slug: String) -> AppResult<PodcastReviewsResponse> {
        self.on_record(id_or_slug, |catalog, record| {
            let at = lookups_time(catalog, record)?;
            let lookups = catalog.snapshot()?.platform_lookups(record.podcast_id)?;
            Ok(PodcastReviewsResponse {
                podcast: catalog.podcast_summary(record)?,
                podcast_reviews: podcast_reviews(record, &lookups, at),
            })
        })
        .await
    }

    /// A podcast's YouTube channels.
    pub async fn youtube(self, id_or_slug: String) -> AppResult<PodcastYoutubeResponse> {
        self.on_record(id_or_slug, |catalog, record| {
            let at = lookups_time(catalog, record)?;
            Ok(PodcastYoutubeResponse {
                podcast: catalog.podcast_summary(record)?,
                youtube_data: PodcastYoutubeData {
                    podcast_id: record.podcast_id.to_string(),
                    youtube_data: youtube_channels(
                        record,
                        &catalog.snapshot()?.platform_lookups(record.podcast_id)?,
                        &catalog.social_links(record)?,
                        at,
                    ),
                },
            })
        })
        .await
    }

    /// The sponsors named in a podcast's show notes: over its latest episodes, or over
    /// the episodes of the last `since_days` days (1 to 3650).
    pub async fn sponsors(
        self,
        id_or_slug: String,
        since_days: Option<i64>,
    ) -> AppResult<PodcastSponsorsResponse> {
        let window = sponsor_window(since_days)?;
        self.on_record(id_or_slug, move |catalog, record| {
            Ok(PodcastSponsorsResponse {
                podcast: convert::podcast_summary(record),
                sponsors: podcast_sponsors(catalog, record, window)?,
            })
        })
        .await
    }

    /// The people heard on a podcast (from its feed's `podcast:person` tags).
    pub async fn guests(
        self,
        id_or_slug: String,
        params: GuestsParams,
    ) -> AppResult<PodcastGuestsResponse> {
        if let Some(role) = params.role.as_deref()
            && !matches!(role, "guest" | "host" | "unknown")
        {
            return Err(AppError::Invalid(format!(
                "role must be guest, host or unknown, got \"{role}\""
            )));
        }
        self.on_record(id_or_slug, move |catalog, record| {
            Ok(PodcastGuestsResponse {
                podcast: convert::podcast_summary(record),
                guests: podcast_guests(catalog, record, params.since_days, params.role)?,
            })
        })
        .await
    }

    /// The podcasts most similar to this one.
    pub async fn related(self, id_or_slug: String) -> AppResult<RelatedPodcastsResponse> {
        let record = self.record(id_or_slug).await?;
        let related_podcasts = self.related_of(&record).await?;
        Ok(RelatedPodcastsResponse {
            podcast: convert::podcast_summary(&record),
            related_podcasts,
        })
    }

    /// The podcasts most similar to `record` in the search index: the engine ranks
    /// them, the catalog's snapshot names them (on a blocking thread).
    async fn related_of(&self, record: &PodcastRecord) -> AppResult<RelatedPodcasts> {
        let hits = self
            .engine
            .related_podcasts(record.podcast_id, RELATED_LIMIT)
            .await?;
        let ids: Vec<_> = hits.iter().map(|hit| hit.podcast_id).collect();
        let catalog = self.catalog.clone();
        let similar_podcasts = blocking(move || {
            let found = catalog.snapshot()?.podcasts_by_ids(&ids)?;
            Ok(ids
                .iter()
                .filter_map(|id| found.iter().find(|record| record.podcast_id == *id))
                .map(convert::podcast_summary)
                .collect())
        })
        .await?;
        Ok(RelatedPodcasts {
            podcast_id: record.podcast_id.to_string(),
            similar_podcasts,
        })
    }

    /// Everything about a podcast: the other podcast pages' answers in one. Contacts
    /// follow the plan's contact rules and count as one advanced contacts request, the
    /// charge returned (null contacts once the month's are used up, rather than failing
    /// whole); related podcasts are null until the search index is built.
    /// `with_history` adds monthly episode counts of the last 24 UTC months.
    pub async fn all_details(
        self,
        requester: Requester,
        id_or_slug: String,
        with_history: bool,
    ) -> AppResult<(Option<Charge>, PodcastAllDetailsResponse)> {
        let record = self.record(id_or_slug).await?;
        let plan = requester.plan;
        let (contacts_allowed, charge) = self.may_see_contacts(&requester).await?;
        let related = match self.related_of(&record).await {
            Ok(related) => Some(related),
            Err(AppError::Unavailable(_)) => None,
            Err(other) => return Err(other),
        };
        let catalog = self.catalog.clone();
        let podcast = blocking(move || {
            let contacts = if contacts_allowed {
                Some(catalog.podcast_contacts(&record, plan)?)
            } else {
                None
            };
            compose(&catalog, &record, plan, contacts, related, with_history)
        })
        .await?;
        Ok((charge, PodcastAllDetailsResponse { podcast }))
    }

    /// Whether `requester`'s plan lets it see the website contacts, charged as one
    /// advanced contacts request: not when the plan has none or the month's are used up.
    async fn may_see_contacts(&self, requester: &Requester) -> AppResult<(bool, Option<Charge>)> {
        if !requester.plan.sees_internal_contacts() {
            return Ok((true, None));
        }
        match self
            .metering
            .charge(requester, UsageCounter::ContactsRequested)
            .await
        {
            Ok(charge) => Ok((true, Some(charge))),
            Err(AppError::CapReached(_) | AppError::Forbidden(_)) => Ok((false, None)),
            Err(other) => Err(other),
        }
    }
}

/// All the details of `record`, from the catalog (blocking).
fn compose(
    catalog: &CatalogReader,
    record: &PodcastRecord,
    plan: Plan,
    contacts: Option<PodcastContacts>,
    related: Option<RelatedPodcasts>,
    with_history: bool,
) -> AppResult<PodcastAllDetails> {
    let snapshot = catalog.snapshot()?;
    let sponsors = podcast_sponsors(catalog, record, sponsor_window(None)?)?;
    let mut podcast = catalog.podcast_details(record, plan)?;
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
        catalog,
        record,
        &PodcastChartFilter::default(),
        CHART_POSITIONS,
    )?;
    let at = lookups_time(catalog, record)?;
    // Read once for the ratings and the YouTube channels both.
    let lookups = snapshot.platform_lookups(record.podcast_id)?;
    let youtube = youtube_channels(record, &lookups, &links, at);
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
        guests: Some(podcast_guests(catalog, record, None, None)?),
        reviews: Some(podcast_reviews(record, &lookups, at)),
        social_media: Some(social_media(record, links)),
        sponsors: Some(sponsors),
        related_podcasts: related,
        chart_positions: Some(chart_positions),
        youtube_data: Some(PodcastYoutubeData {
            podcast_id: record.podcast_id.to_string(),
            youtube_data: youtube,
        }),
        publishing_history,
        podcast,
    })
}

/// A podcast's social profiles as the wire has them (the per-network data is not
/// collected).
fn social_media(record: &PodcastRecord, links: Vec<SocialMediaLink>) -> PodcastSocialMedia {
    PodcastSocialMedia {
        podcast_id: record.podcast_id.to_string(),
        social_media_links: links,
        facebook_page_data: Vec::new(),
        instagram_data: Vec::new(),
        linked_in_company_data: Vec::new(),
        linked_in_person_data: Vec::new(),
        tiktok_data: Vec::new(),
        twitter_data: Vec::new(),
    }
}

fn lookup_of<'a>(rows: &'a [PlatformLookupRow], platform: &str) -> Option<&'a PlatformLookupRow> {
    rows.iter().find(|row| row.platform == platform)
}

/// Ratings from the platform lookups.
fn podcast_reviews(
    record: &PodcastRecord,
    lookups: &[PlatformLookupRow],
    scraped_at: chrono::DateTime<chrono::Utc>,
) -> PodcastReviews {
    let apple_id = lookup_of(lookups, "apple")
        .and_then(|row| row.lookup_key.parse().ok())
        .unwrap_or_else(|| convert::apple_id_number(record));
    let apple = lookup_of(lookups, "apple").map(|row| AppleReview {
        apple_id,
        scraped_at,
        country: "us".into(),
        reviews_count: row.ratings_count.unwrap_or(0),
        rating: row.rating,
        one_star_count: 0,
        two_star_count: 0,
        three_star_count: 0,
        four_star_count: 0,
        five_star_count: 0,
    });
    let spotify = lookup_of(lookups, "spotify").map(|row| SpotifyReview {
        spotify_id: row.lookup_key.clone(),
        scraped_at,
        reviews_count: row.ratings_count.unwrap_or(0),
        rating: row.rating,
    });
    let castbox = lookup_of(lookups, "castbox").map(|row| CastboxStats {
        scraped_at,
        plays: row.plays.unwrap_or(0),
        subscribers: row.subscribers.or(row.followers).unwrap_or(0),
    });
    PodcastReviews {
        podcast_id: record.podcast_id.to_string(),
        apple_id,
        spotify_id: record
            .spotify_id
            .clone()
            .or_else(|| spotify.as_ref().map(|review| review.spotify_id.clone())),
        apple_podcasts_reviews_by_country: apple.iter().cloned().collect(),
        apple_podcasts_review: apple,
        apple_podcasts_review_text: None,
        spotify_review: spotify,
        castbox,
    }
}

/// When the podcast's lookups were imported: the time its score was computed from
/// them, else now.
fn lookups_time(
    catalog: &CatalogReader,
    record: &PodcastRecord,
) -> AppResult<chrono::DateTime<chrono::Utc>> {
    Ok(catalog
        .snapshot()?
        .authority_scores(&[record.podcast_id])?
        .get(&record.podcast_id)
        .map(|row| row.calculated_at)
        .unwrap_or_else(chrono::Utc::now))
}

/// The YouTube channels of a podcast: the channel links found for it, with the
/// subscribers and views of the YouTube lookup.
fn youtube_channels(
    record: &PodcastRecord,
    lookups: &[PlatformLookupRow],
    links: &[SocialMediaLink],
    at: chrono::DateTime<chrono::Utc>,
) -> Vec<YoutubeChannel> {
    let lookup = lookup_of(lookups, "youtube");
    let mut channels = Vec::new();
    for link in links
        .iter()
        .filter(|link| link.social_media_type == SocialKind::Youtube)
    {
        let id = link
            .url
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_owned();
        let matches_lookup = lookup.is_some_and(|row| link.url.contains(&row.lookup_key));
        let reach = lookup.filter(|_| matches_lookup || channels.is_empty());
        channels.push(YoutubeChannel {
            id,
            title: record.podcast_rss_title.clone(),
            description: None,
            subscriber_count: reach
                .and_then(|row| row.subscribers.or(row.followers))
                .unwrap_or(0),
            view_count: reach.and_then(|row| row.views).unwrap_or(0),
            video_count: reach.and_then(|row| row.posts).unwrap_or(0),
            published_at: None,
            thumbnails: YoutubeThumbnails::default(),
            country: None,
            custom_url: Some(link.url.clone()),
            links: None,
            is_podcast_channel: None,
            discover_input_keyword: None,
            banner_image_url: None,
            videos: None,
            profile_image_url: None,
            data_last_updated: at,
            last_video_upload_date: None,
            last_video_upload_date_source: None,
            last_video_upload_date_checked_at: None,
        });
    }
    channels
}

/// The window of `sinceDays`, or the latest episodes; a bad value is refused.
fn sponsor_window(since_days: Option<i64>) -> AppResult<SponsorWindow> {
    match since_days {
        None => Ok(SponsorWindow::Latest(DEFAULT_SPONSOR_EPISODES)),
        Some(days) if (1..=MAX_SINCE_DAYS).contains(&days) => Ok(SponsorWindow::Since(
            chrono::Utc::now() - chrono::Duration::days(days),
        )),
        Some(days) => Err(AppError::Invalid(format!(
            "sinceDays must be between 1 and {MAX_SINCE_DAYS}, got {days}"
        ))),
    }
}

/// The sponsors of `record` over `window`, most appearances first.
fn podcast_sponsors(
    catalog: &CatalogReader,
    record: &PodcastRecord,
    window: SponsorWindow,
) -> AppResult<PodcastSponsors> {
    let summary = catalog
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

/// The hosts and guests of `record`'s episodes (of the last `since_days` days when
/// given), of one `role` when given.
fn podcast_guests(
    catalog: &CatalogReader,
    record: &PodcastRecord,
    since_days: Option<u32>,
    role: Option<String>,
) -> AppResult<PodcastGuests> {
    let query = PersonsQuery {
        // A window reaching past the first representable day covers every episode.
        since: since_days.and_then(|days| {
            chrono::TimeDelta::try_days(i64::from(days))
                .and_then(|window| chrono::Utc::now().checked_sub_signed(window))
        }),
        role,
    };
    let summary = catalog
        .snapshot()?
        .podcast_persons(record.podcast_id, &query)?;
    let guests = summary
        .persons
        .into_iter()
        .filter_map(|person| {
            Some(PodcastGuest {
                person_type: PersonType::parse(&person.person_type).unwrap_or(PersonType::Unknown),
                name: person.name,
                image_url: person.image_url,
                appearances_count: person.appearances_count,
                most_recent_appearance_date: person.most_recent_appearance_date?,
                oldest_appearance_date: person.oldest_appearance_date?,
            })
        })
        .collect();
    Ok(PodcastGuests {
        episodes_count: summary.episodes_count,
        episodes_with_guests_count: summary.episodes_with_guests_count,
        most_recent_episode_date: summary.most_recent_episode_date,
        oldest_episode_date: summary.oldest_episode_date,
        guests,
    })
}
