//! The engine's own search request: what the API maps the validated public search
//! options onto.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// Where a term is searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Target {
    PodcastTitle,
    PodcastDescription,
    EpisodeTitle,
    EpisodeDescription,
    Transcript,
}

impl Target {
    /// Targets that only exist on episodes.
    pub fn is_episode_target(self) -> bool {
        matches!(
            self,
            Target::EpisodeTitle | Target::EpisodeDescription | Target::Transcript
        )
    }
}

/// How a term combines with the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum MatchMode {
    /// Every hit matches the term.
    Must,
    /// No hit matches the term.
    Not,
    /// Hits match at least one optional term when no term is `Must`; otherwise
    /// optional terms only raise the score.
    #[default]
    Optional,
}

/// One search term. Without `phrase`, every word of `text` must occur in the same target
/// field, in any order; with it, the words must occur in order, at most `slop` positions
/// apart. `fuzzy` allows one edit per word (two for words of eight letters or more);
/// it does not apply to phrases.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SearchTerm {
    pub text: String,
    pub targets: Vec<Target>,
    pub match_mode: MatchMode,
    pub phrase: bool,
    pub slop: u32,
    pub fuzzy: bool,
}

/// Filters; every set filter must hold. Podcast-level filters apply to an episode through
/// its podcast.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SearchFilters {
    /// Primary language subtags (`en`, `de`), any case.
    pub languages: Vec<String>,
    pub include_genres: Vec<String>,
    pub exclude_genres: Vec<String>,
    /// ISO alpha-2 codes, any case.
    pub countries: Vec<String>,
    pub include_podcast_ids: Vec<Uuid>,
    pub exclude_podcast_ids: Vec<Uuid>,
    pub include_episode_ids: Vec<Uuid>,
    pub exclude_episode_ids: Vec<Uuid>,
    pub explicit: Option<bool>,
    pub founded_since: Option<DateTime<Utc>>,
    pub last_episode_since: Option<DateTime<Utc>>,
    pub published_since: Option<DateTime<Utc>>,
    pub min_total_episodes: Option<u64>,
    pub max_total_episodes: Option<u64>,
    pub has_transcript: Option<bool>,
    pub min_apple_rating: Option<f64>,
    pub min_apple_ratings_count: Option<u64>,
    pub min_spotify_rating: Option<f64>,
    pub min_spotify_ratings_count: Option<u64>,
    pub min_authority_score: Option<f64>,
}

impl SearchFilters {
    /// The filters that apply to podcasts (and to episodes through their podcast), the
    /// others left unset.
    fn podcast_level(&self) -> SearchFilters {
        SearchFilters {
            languages: self.languages.clone(),
            include_genres: self.include_genres.clone(),
            exclude_genres: self.exclude_genres.clone(),
            countries: self.countries.clone(),
            founded_since: self.founded_since,
            last_episode_since: self.last_episode_since,
            min_total_episodes: self.min_total_episodes,
            max_total_episodes: self.max_total_episodes,
            min_apple_rating: self.min_apple_rating,
            min_apple_ratings_count: self.min_apple_ratings_count,
            min_spotify_rating: self.min_spotify_rating,
            min_spotify_ratings_count: self.min_spotify_ratings_count,
            min_authority_score: self.min_authority_score,
            ..SearchFilters::default()
        }
    }

    /// Whether any podcast-level filter is set.
    pub(crate) fn has_podcast_level(&self) -> bool {
        self.podcast_level() != SearchFilters::default()
    }

    /// A key naming the podcast-level filters alone (equal keys, equal filters).
    pub(crate) fn podcast_level_key(&self) -> String {
        format!("{:?}", self.podcast_level())
    }
}

/// What results are ordered by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum SortField {
    #[default]
    Relevance,
    /// Podcasts: last episode date; episodes: published date.
    RecentActivity,
    Title,
    /// Apple ratings count (podcasts only).
    AppleReviews,
    /// Spotify ratings count (podcasts only).
    SpotifyReviews,
    /// Authority score (podcasts only).
    AuthorityScore,
}

/// Sort direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum SortDirection {
    Asc,
    #[default]
    Desc,
}

/// Where documents without a sort value go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum NullOrder {
    First,
    #[default]
    Last,
}

/// The order of results; ties are always broken by ascending id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SortOrder {
    pub field: SortField,
    pub direction: SortDirection,
    pub nulls: NullOrder,
}

/// Which index a search runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SearchMode {
    Podcasts,
    Episodes,
}

/// Longest snippet (or transcript start) a request may ask for, in characters.
pub const MAX_SNIPPET_CHARS: usize = 2000;

/// A search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchRequest {
    /// `None`: episodes when a term targets an episode field or an episode-only filter
    /// (has transcript, published since, episode ids) is set, else podcasts.
    pub mode: Option<SearchMode>,
    pub terms: Vec<SearchTerm>,
    pub filters: SearchFilters,
    pub sort: SortOrder,
    pub page_size: usize,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// Transcript snippets per episode hit (episode mode, when a term targets transcripts).
    pub snippets: bool,
    /// Characters of a snippet's fragment (default 220; at most [`MAX_SNIPPET_CHARS`]).
    pub snippet_chars: usize,
    /// The first characters of each episode hit's transcript (`EpisodeHit::transcript_start`).
    pub transcript_start_chars: Option<usize>,
    /// A score breakdown per hit.
    pub explain: bool,
    /// Relevance order on a generation with vectors fuses the keyword ranking with the
    /// vector ranking of the query's meaning (`crate::hybrid`); `false` keeps the
    /// keyword order alone.
    pub hybrid: bool,
    /// Podcast hits read their stored fields. `false`: a podcast hit carries its id and
    /// score (and explanation) alone, with `stored` false, for a caller that has the
    /// podcasts' fields elsewhere (the API's read model) and reads the few it lacks with
    /// [`crate::OpenGeneration::podcast_hits`]. A page of 100 podcast hits decompressed
    /// and decoded 100 stored documents that the API did not use.
    pub podcast_fields: bool,
    /// How long the matching of each page may take once it starts: the engine stops
    /// scoring past it and fails with [`crate::IndexError::DeadlinePassed`] rather than
    /// keep a core busy (`crate::deadline`). `None`: no limit.
    pub time_limit: Option<std::time::Duration>,
    /// The query's vector from the multilingual encoder, of [`SearchRequest::encoder_text`]
    /// as a query, set by the caller when the generation has show vectors from the same
    /// model: a relevance-sorted podcast search then fuses with the show vectors
    /// (`crate::vectors::shows`) instead of the static centroids. It does not travel
    /// between processes: a root carries it to the shards in its steps.
    #[serde(skip)]
    pub encoded_query: Option<Vec<f32>>,
    /// The show a relevance-sorted hybrid podcast search finds shows like (related
    /// podcasts, `crate::related::RelatedMethod::Like`): the search ranks as "shows like
    /// X" does with X named by its id instead of found by its title's words. Set by the
    /// engine's caller, never by a client; it does not travel between processes (only a
    /// search's root fuses).
    #[serde(skip)]
    pub like_podcast: Option<Uuid>,
}

impl Default for SearchRequest {
    fn default() -> Self {
        SearchRequest {
            mode: None,
            terms: Vec::new(),
            filters: SearchFilters::default(),
            sort: SortOrder::default(),
            page_size: 10,
            cursor: None,
            snippets: true,
            snippet_chars: 220,
            transcript_start_chars: None,
            explain: false,
            hybrid: true,
            podcast_fields: true,
            time_limit: None,
            encoded_query: None,
            like_podcast: None,
        }
    }
}

/// Characters of a search's words that the encoder embeds, at most.
const ENCODER_TEXT_CHARS: usize = 500;

impl SearchRequest {
    /// What the multilingual encoder embeds for this search, `None` when the search
    /// would not use it (not a relevance-sorted hybrid podcast search, or no words): the
    /// positive terms' texts as typed, joined.
    pub fn encoder_text(&self) -> Option<String> {
        if !self.hybrid
            || self.sort.field != SortField::Relevance
            || self.effective_mode() != SearchMode::Podcasts
        {
            return None;
        }
        let text = self
            .terms
            .iter()
            .filter(|term| term.match_mode != MatchMode::Not)
            .map(|term| term.text.trim())
            .filter(|text| !text.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let text: String = text.chars().take(ENCODER_TEXT_CHARS).collect();
        (!text.trim().is_empty()).then_some(text)
    }

    /// The mode this request runs in.
    pub fn effective_mode(&self) -> SearchMode {
        if let Some(mode) = self.mode {
            return mode;
        }
        let episode_term = self
            .terms
            .iter()
            .any(|term| term.targets.iter().any(|target| target.is_episode_target()));
        let episode_filter = self.filters.has_transcript.is_some()
            || self.filters.published_since.is_some()
            || !self.filters.include_episode_ids.is_empty()
            || !self.filters.exclude_episode_ids.is_empty();
        if episode_term || episode_filter {
            SearchMode::Episodes
        } else {
            SearchMode::Podcasts
        }
    }
}
