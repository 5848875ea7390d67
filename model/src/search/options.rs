//! The wire shape of the search options, key for key as the Pod Engine SDK sends them
//! (`models.py`, `AskAgentProjectPodcastRelevancySearchOptionsVariant1` for podcasts and
//! `...Variant2` for episodes; one type here holds both). The SDK drops arguments left
//! at `None` but serializes nested models with their `None` fields as `null`, so every
//! optional field accepts both a missing key and `null`. Unknown keys are rejected at
//! every level.

use serde::{Deserialize, Serialize};

use super::dates::DateFilter;
use crate::kinds::{SocialKind, wire_enum};

wire_enum! {
    /// How a search term is matched. Only `text` runs; `embeddings` is recognised so
    /// that it can be rejected with its own reason.
    SearchType { Text => "text", Embeddings => "embeddings" }
}

wire_enum! {
    /// What a search term is matched against.
    SearchTarget {
        PodcastTitle => "podcast-title", PodcastDescription => "podcast-description",
        EpisodeTitle => "episode-title", EpisodeDescription => "episode-description",
        Transcript => "transcript",
    }
}

wire_enum! {
    /// How a term combines with the others; `optional` by default.
    MatchMode { Must => "must", Not => "not", Optional => "optional" }
}

wire_enum! {
    /// How a person or sponsor name filter combines; `must` by default.
    NamedFilterMatchMode { Must => "must", Not => "not" }
}

wire_enum! {
    /// The role a person filter looks for.
    PersonFilterType { Guest => "guest", Host => "host" }
}

wire_enum! {
    /// The explicit-content filter.
    ExplicitFilter { Clean => "clean", Explicit => "explicit" }
}

wire_enum! {
    /// A sort field. The spec's five come first and are the only ones of episode
    /// searches; the SDK's podcast search also sorts by the last five.
    SortField {
        Relevance => "relevance", RecentActivity => "recentActivity", Title => "title",
        AppleReviews => "appleReviews", SpotifyReviews => "spotifyReviews",
        EstimatedListeners => "estimatedListeners", YoutubeSubscribers => "youtubeSubscribers",
        YoutubeViews => "youtubeViews", AuthorityScore => "authorityScore",
        CastboxSubscribers => "castboxSubscribers",
    }
}

wire_enum! {
    /// Sort direction.
    SortDirection { Asc => "asc", Desc => "desc" }
}

wire_enum! {
    /// Where documents without a value for the sort field go.
    NullOrder { First => "first", Last => "last" }
}

impl SearchTarget {
    /// Whether the target is a podcast field (the only ones of podcast mode).
    pub fn is_podcast_target(self) -> bool {
        matches!(
            self,
            SearchTarget::PodcastTitle | SearchTarget::PodcastDescription
        )
    }
}

impl SortField {
    /// Whether episode searches may sort by this field (the spec's five).
    pub fn sorts_episodes(self) -> bool {
        matches!(
            self,
            SortField::Relevance
                | SortField::RecentActivity
                | SortField::Title
                | SortField::AppleReviews
                | SortField::SpotifyReviews
        )
    }

    /// The direction used when the request gives none: titles A to Z, everything
    /// else best or newest first.
    pub fn default_direction(self) -> SortDirection {
        match self {
            SortField::Title => SortDirection::Asc,
            _ => SortDirection::Desc,
        }
    }
}

/// The body of `POST /api/v1/search/podcasts` and `POST /api/v1/search/episodes`.
/// Field order follows the SDK; the last twelve are episode search options.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct SearchOptions {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project: Option<ProjectSearchContext>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search_terms: Option<Vec<SearchTerm>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search_term_groups: Option<Vec<SearchTermGroup>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclude_itunes_genres: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclude_podcast_ids: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclude_episode_ids: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explicit: Option<ExplicitFilter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub founded_since: Option<DateFilter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_primary_contact: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_socials: Option<Vec<SocialKind>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_itunes_genres: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_podcast_ids: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub languages: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_episode_date_since: Option<DateFilter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_total_episodes: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_castbox_plays: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_castbox_subscribers: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_itunes_rating: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_itunes_rating_count: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_spotify_rating: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_spotify_rating_count: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_total_episodes: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub podcast_countries: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub podcast_has_guests: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub podcast_authority_score: Option<AuthorityScoreFilter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub podcast_audience_estimated_monthly_listeners: Option<ListenersRange>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sort_order: Option<Vec<SortOrder>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_match_snippet: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_transcript_snippet: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcript_snippet_length: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcript_highlight_length: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_episode_ids: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published_since: Option<DateFilter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published_before: Option<DateFilter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_transcript: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub episode_updated_since: Option<DateFilter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub episode_created_since: Option<DateFilter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub person_filters: Option<Vec<PersonFilter>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sponsor_filters: Option<Vec<SponsorFilter>>,
}

/// Searching on behalf of a project (`project`): list exclusions and relevancy.
/// `excludeRelvancyValues` is spelled as the SDK spells it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProjectSearchContext {
    pub project_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_ignored_podcasts: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_podcasts_on_list: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_podcast_relevancy: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_relvancy_values: Option<Vec<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force_recalculate_relevancy: Option<bool>,
}

/// One search term (`searchTerms[]`). The SDK always sends `searchTermOptions` with a
/// `matchMode`; the server also accepts it missing (match mode `optional`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchTerm {
    pub search_term: String,
    pub search_type: SearchType,
    pub search_targets: Vec<SearchTarget>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_term_options: Option<SearchTermOptions>,
}

/// Options of a top-level term.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchTermOptions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_mode: Option<MatchMode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phrase_match: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slop: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuzzy: Option<bool>,
}

/// A group of terms (`searchTermGroups[]`): at least one term of every group matches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchTermGroup {
    pub search_terms: Vec<SearchTermGroupItem>,
}

/// A term inside a group: as a top-level term, without a match mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchTermGroupItem {
    pub search_term: String,
    pub search_type: SearchType,
    pub search_targets: Vec<SearchTarget>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_term_options: Option<GroupTermOptions>,
}

/// Options of a term inside a group.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GroupTermOptions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phrase_match: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slop: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuzzy: Option<bool>,
}

/// A score range; the SDK models both bounds as present and nullable, so both are
/// always written.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreRange {
    #[serde(default)]
    pub min: Option<f64>,
    #[serde(default)]
    pub max: Option<f64>,
}

/// Authority score bounds (`podcastAuthorityScore`), per sub-score.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AuthorityScoreFilter {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authority_score: Option<ScoreRange>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quality_score: Option<ScoreRange>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engagement_score: Option<ScoreRange>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub social_score: Option<ScoreRange>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub youtube_score: Option<ScoreRange>,
}

impl AuthorityScoreFilter {
    /// Each named sub-score range that is present, by wire name.
    pub fn ranges(&self) -> impl Iterator<Item = (&'static str, ScoreRange)> {
        [
            ("authorityScore", self.authority_score),
            ("qualityScore", self.quality_score),
            ("engagementScore", self.engagement_score),
            ("socialScore", self.social_score),
            ("youtubeScore", self.youtube_score),
        ]
        .into_iter()
        .filter_map(|(name, range)| range.map(|range| (name, range)))
    }
}

/// Estimated monthly listeners bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListenersRange {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
}

/// A guest or host name filter (`personFilters[]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PersonFilter {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_mode: Option<NamedFilterMatchMode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phrase_match: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slop: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuzzy: Option<bool>,
    #[serde(rename = "type")]
    pub person_type: PersonFilterType,
}

/// A sponsor name filter (`sponsorFilters[]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SponsorFilter {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_mode: Option<NamedFilterMatchMode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phrase_match: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slop: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuzzy: Option<bool>,
}

/// One sort criterion (`sortOrder[]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SortOrder {
    pub field: SortField,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<SortDirection>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub null_order: Option<NullOrder>,
}
