//! The filters of a validated search, with the value rules of SPEC.md §5: ratings
//! 0–5, counts at least 1, total episodes min ≥ 0 and max ≥ 1, genres and languages
//! lowercased, countries ISO alpha-2, podcast and episode ids UUIDs, dates made absolute.

use chrono::{DateTime, Utc};
use serde::Serialize;
use uuid::Uuid;

use super::RATING_FILTER_RANGE;
use super::dates::DateFilter;
use super::error::SearchError;
use super::options::{AuthorityScoreFilter, ExplicitFilter, ListenersRange, SearchOptions};
use super::terms::{NamedFilterSpec, normalize_person, normalize_sponsor};
use crate::countries::is_country_code;
use crate::kinds::SocialKind;

/// Every filter of a search, checked and normalized. Empty lists filter nothing.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchFilters {
    pub include_genres: Vec<String>,
    pub exclude_genres: Vec<String>,
    pub include_podcast_ids: Vec<Uuid>,
    pub exclude_podcast_ids: Vec<Uuid>,
    pub include_episode_ids: Vec<Uuid>,
    pub exclude_episode_ids: Vec<Uuid>,
    pub explicit: Option<ExplicitFilter>,
    pub languages: Vec<String>,
    /// Lowercase ISO 3166-1 alpha-2 codes.
    pub countries: Vec<String>,
    pub has_socials: Vec<SocialKind>,
    pub has_primary_contact: Option<bool>,
    pub podcast_has_guests: Option<bool>,
    pub has_transcript: Option<bool>,
    pub founded_since: Option<DateTime<Utc>>,
    pub last_episode_since: Option<DateTime<Utc>>,
    pub published_since: Option<DateTime<Utc>>,
    pub published_before: Option<DateTime<Utc>>,
    pub episode_updated_since: Option<DateTime<Utc>>,
    pub episode_created_since: Option<DateTime<Utc>>,
    pub min_total_episodes: Option<u64>,
    pub max_total_episodes: Option<u64>,
    pub min_castbox_plays: Option<u64>,
    pub min_castbox_subscribers: Option<u64>,
    pub min_itunes_rating: Option<f64>,
    pub min_itunes_rating_count: Option<u64>,
    pub min_spotify_rating: Option<f64>,
    pub min_spotify_rating_count: Option<u64>,
    pub authority_score: Option<AuthorityScoreFilter>,
    pub monthly_listeners: Option<ListenersRange>,
    pub persons: Vec<NamedFilterSpec>,
    pub sponsors: Vec<NamedFilterSpec>,
}

/// Trimmed, lowercased, distinct, none blank.
pub(crate) fn lowercase_list(
    values: Option<&Vec<String>>,
    key: &str,
) -> Result<Vec<String>, SearchError> {
    let mut out: Vec<String> = Vec::new();
    for (index, value) in values.into_iter().flatten().enumerate() {
        let normalized = value.trim().to_lowercase();
        if normalized.is_empty() {
            return Err(SearchError::invalid(format!(
                "{key}[{index}] must not be blank"
            )));
        }
        if !out.contains(&normalized) {
            out.push(normalized);
        }
    }
    Ok(out)
}

fn uuid_list(values: Option<&Vec<String>>, key: &str) -> Result<Vec<Uuid>, SearchError> {
    let mut out: Vec<Uuid> = Vec::new();
    for (index, value) in values.into_iter().flatten().enumerate() {
        let id = Uuid::parse_str(value.trim()).map_err(|_| {
            SearchError::invalid(format!("{key}[{index}] is not a uuid: \"{value}\""))
        })?;
        if !out.contains(&id) {
            out.push(id);
        }
    }
    Ok(out)
}

fn languages(values: Option<&Vec<String>>) -> Result<Vec<String>, SearchError> {
    let list = lowercase_list(values, "languages")?;
    if let Some(bad) = list.iter().find(|language| {
        language.len() > 35
            || !language
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    }) {
        return Err(SearchError::invalid(format!(
            "languages: \"{bad}\" is not a language code"
        )));
    }
    Ok(list)
}

fn countries(values: Option<&Vec<String>>) -> Result<Vec<String>, SearchError> {
    let list = lowercase_list(values, "podcastCountries")?;
    if let Some(bad) = list.iter().find(|code| !is_country_code(code)) {
        return Err(SearchError::invalid(format!(
            "podcastCountries: \"{bad}\" is not an iso 3166-1 alpha-2 country code"
        )));
    }
    Ok(list)
}

fn rating(value: Option<f64>, key: &str) -> Result<Option<f64>, SearchError> {
    match value {
        Some(rating) if !RATING_FILTER_RANGE.contains(&rating) => Err(SearchError::invalid(
            format!("{key} must be between 0 and 5, got {rating}"),
        )),
        other => Ok(other),
    }
}

fn at_least(value: Option<i64>, minimum: i64, key: &str) -> Result<Option<u64>, SearchError> {
    match value {
        None => Ok(None),
        Some(number) if number < minimum => Err(SearchError::invalid(format!(
            "{key} must be an integer of at least {minimum}, got {number}"
        ))),
        Some(number) => Ok(u64::try_from(number).ok()),
    }
}

fn date(
    value: Option<&DateFilter>,
    key: &str,
    now: DateTime<Utc>,
) -> Result<Option<DateTime<Utc>>, SearchError> {
    value
        .map(|filter| {
            filter
                .resolve(now)
                .map_err(|reason| SearchError::invalid(format!("{key}: {reason}")))
        })
        .transpose()
}

fn check_authority(
    filter: Option<AuthorityScoreFilter>,
) -> Result<Option<AuthorityScoreFilter>, SearchError> {
    let Some(filter) = filter else {
        return Ok(None);
    };
    for (name, range) in filter.ranges() {
        let bounds = [range.min, range.max];
        if bounds.iter().flatten().any(|bound| !bound.is_finite()) {
            return Err(SearchError::invalid(format!(
                "podcastAuthorityScore.{name} bounds must be finite numbers"
            )));
        }
        if let (Some(min), Some(max)) = (range.min, range.max)
            && min > max
        {
            return Err(SearchError::invalid(format!(
                "podcastAuthorityScore.{name}.min is above its max"
            )));
        }
    }
    Ok(Some(filter))
}

fn check_listeners(range: Option<ListenersRange>) -> Result<Option<ListenersRange>, SearchError> {
    let Some(range) = range else { return Ok(None) };
    let key = "podcastAudienceEstimatedMonthlyListeners";
    if [range.min, range.max]
        .iter()
        .flatten()
        .any(|bound| *bound < 0)
    {
        return Err(SearchError::invalid(format!(
            "{key} bounds must be at least 0"
        )));
    }
    if let (Some(min), Some(max)) = (range.min, range.max)
        && min > max
    {
        return Err(SearchError::invalid(format!("{key}.min is above its max")));
    }
    Ok(Some(range))
}

fn ordered<T: PartialOrd + Copy>(
    low: Option<T>,
    high: Option<T>,
    message: &str,
) -> Result<(), SearchError> {
    match (low, high) {
        (Some(low), Some(high)) if low > high => Err(SearchError::invalid(message)),
        _ => Ok(()),
    }
}

/// Checks and normalizes every filter of `options`, resolving dates against `now`.
pub(crate) fn build_filters(
    options: &SearchOptions,
    now: DateTime<Utc>,
) -> Result<SearchFilters, SearchError> {
    let mut has_socials: Vec<SocialKind> = Vec::new();
    for kind in options.has_socials.iter().flatten() {
        if !has_socials.contains(kind) {
            has_socials.push(*kind);
        }
    }
    let persons = options
        .person_filters
        .iter()
        .flatten()
        .enumerate()
        .map(|(index, filter)| normalize_person(filter, &format!("personFilters[{index}]")))
        .collect::<Result<Vec<_>, _>>()?;
    let sponsors = options
        .sponsor_filters
        .iter()
        .flatten()
        .enumerate()
        .map(|(index, filter)| normalize_sponsor(filter, &format!("sponsorFilters[{index}]")))
        .collect::<Result<Vec<_>, _>>()?;
    let filters = SearchFilters {
        include_genres: lowercase_list(
            options.include_itunes_genres.as_ref(),
            "includeItunesGenres",
        )?,
        exclude_genres: lowercase_list(
            options.exclude_itunes_genres.as_ref(),
            "excludeItunesGenres",
        )?,
        include_podcast_ids: uuid_list(options.include_podcast_ids.as_ref(), "includePodcastIds")?,
        exclude_podcast_ids: uuid_list(options.exclude_podcast_ids.as_ref(), "excludePodcastIds")?,
        include_episode_ids: uuid_list(options.include_episode_ids.as_ref(), "includeEpisodeIds")?,
        exclude_episode_ids: uuid_list(options.exclude_episode_ids.as_ref(), "excludeEpisodeIds")?,
        explicit: options.explicit,
        languages: languages(options.languages.as_ref())?,
        countries: countries(options.podcast_countries.as_ref())?,
        has_socials,
        has_primary_contact: options.has_primary_contact,
        podcast_has_guests: options.podcast_has_guests,
        has_transcript: options.has_transcript,
        founded_since: date(options.founded_since.as_ref(), "foundedSince", now)?,
        last_episode_since: date(
            options.last_episode_date_since.as_ref(),
            "lastEpisodeDateSince",
            now,
        )?,
        published_since: date(options.published_since.as_ref(), "publishedSince", now)?,
        published_before: date(options.published_before.as_ref(), "publishedBefore", now)?,
        episode_updated_since: date(
            options.episode_updated_since.as_ref(),
            "episodeUpdatedSince",
            now,
        )?,
        episode_created_since: date(
            options.episode_created_since.as_ref(),
            "episodeCreatedSince",
            now,
        )?,
        min_total_episodes: at_least(options.min_total_episodes, 0, "minTotalEpisodes")?,
        max_total_episodes: at_least(options.max_total_episodes, 1, "maxTotalEpisodes")?,
        min_castbox_plays: at_least(options.min_castbox_plays, 1, "minCastboxPlays")?,
        min_castbox_subscribers: at_least(
            options.min_castbox_subscribers,
            1,
            "minCastboxSubscribers",
        )?,
        min_itunes_rating: rating(options.min_itunes_rating, "minItunesRating")?,
        min_itunes_rating_count: at_least(
            options.min_itunes_rating_count,
            1,
            "minItunesRatingCount",
        )?,
        min_spotify_rating: rating(options.min_spotify_rating, "minSpotifyRating")?,
        min_spotify_rating_count: at_least(
            options.min_spotify_rating_count,
            1,
            "minSpotifyRatingCount",
        )?,
        authority_score: check_authority(options.podcast_authority_score)?,
        monthly_listeners: check_listeners(options.podcast_audience_estimated_monthly_listeners)?,
        persons,
        sponsors,
    };
    ordered(
        filters.min_total_episodes,
        filters.max_total_episodes,
        "minTotalEpisodes is above maxTotalEpisodes",
    )?;
    ordered(
        filters.published_since,
        filters.published_before,
        "publishedSince is after publishedBefore",
    )?;
    Ok(filters)
}
