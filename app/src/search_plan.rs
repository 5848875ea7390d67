//! From a validated search (`podlens_model::search::ValidatedSearch`) to the indexer's
//! `SearchRequest`. A validated option the engine cannot run is refused with the
//! specification's "not supported" message rather than silently ignored.

use podlens_indexer as engine;
use podlens_model::SearchError;
use podlens_model::search::{
    ExplicitFilter, MatchMode, NormalizedTerm, NullOrder, SearchMode, SearchTarget, SortDirection,
    SortField, ValidatedSearch,
};

/// How long the engine may spend matching one page of a search before it stops and
/// the search is refused (`podlens_indexer::IndexError::DeadlinePassed`): 50 to 100
/// times the 1M-episode benchmark's p99 (`benches/search/RESULTS.md`), and well short of
/// the seconds a crafted query could otherwise keep a core busy.
pub const SEARCH_TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(1);

fn unsupported(name: &str) -> SearchError {
    SearchError::FilterNotSupported(name.to_owned())
}

fn target(target: SearchTarget) -> engine::Target {
    match target {
        SearchTarget::PodcastTitle => engine::Target::PodcastTitle,
        SearchTarget::PodcastDescription => engine::Target::PodcastDescription,
        SearchTarget::EpisodeTitle => engine::Target::EpisodeTitle,
        SearchTarget::EpisodeDescription => engine::Target::EpisodeDescription,
        SearchTarget::Transcript => engine::Target::Transcript,
    }
}

fn term(term: &NormalizedTerm, match_mode: MatchMode) -> engine::SearchTerm {
    engine::SearchTerm {
        text: term.text.clone(),
        targets: term.targets.iter().copied().map(target).collect(),
        match_mode: match match_mode {
            MatchMode::Must => engine::MatchMode::Must,
            MatchMode::Not => engine::MatchMode::Not,
            MatchMode::Optional => engine::MatchMode::Optional,
        },
        phrase: term.phrase_match,
        slop: term.slop,
        fuzzy: term.fuzzy,
    }
}

fn terms(search: &ValidatedSearch) -> Result<Vec<engine::SearchTerm>, SearchError> {
    let mut out: Vec<_> = search
        .terms
        .iter()
        .map(|normalized| term(normalized, normalized.match_mode))
        .collect();
    for group in &search.term_groups {
        // A one-term group is a required term; wider groups need OR-within-AND,
        // which the engine does not run.
        match group.as_slice() {
            [only] => out.push(term(only, MatchMode::Must)),
            _ => return Err(unsupported("searchTermGroups")),
        }
    }
    Ok(out)
}

fn filters(search: &ValidatedSearch) -> Result<engine::SearchFilters, SearchError> {
    let given = &search.filters;
    let refused: [(&str, bool); 12] = [
        ("hasSocials", !given.has_socials.is_empty()),
        ("hasPrimaryContact", given.has_primary_contact.is_some()),
        ("podcastHasGuests", given.podcast_has_guests.is_some()),
        ("publishedBefore", given.published_before.is_some()),
        ("episodeUpdatedSince", given.episode_updated_since.is_some()),
        ("episodeCreatedSince", given.episode_created_since.is_some()),
        ("minCastboxPlays", given.min_castbox_plays.is_some()),
        (
            "minCastboxSubscribers",
            given.min_castbox_subscribers.is_some(),
        ),
        (
            "podcastAudienceEstimatedMonthlyListeners",
            given.monthly_listeners.is_some(),
        ),
        ("persons", !given.persons.is_empty()),
        ("sponsors", !given.sponsors.is_empty()),
        (
            "podcastAuthorityScore",
            given.authority_score.as_ref().is_some_and(|filter| {
                filter.quality_score.is_some()
                    || filter.engagement_score.is_some()
                    || filter.social_score.is_some()
                    || filter.youtube_score.is_some()
                    || filter
                        .authority_score
                        .as_ref()
                        .is_some_and(|range| range.max.is_some())
            }),
        ),
    ];
    if let Some((name, _)) = refused.iter().find(|(_, set)| *set) {
        return Err(unsupported(name));
    }
    Ok(engine::SearchFilters {
        languages: given.languages.clone(),
        include_genres: given.include_genres.clone(),
        exclude_genres: given.exclude_genres.clone(),
        countries: given.countries.clone(),
        include_podcast_ids: given.include_podcast_ids.clone(),
        exclude_podcast_ids: given.exclude_podcast_ids.clone(),
        include_episode_ids: given.include_episode_ids.clone(),
        exclude_episode_ids: given.exclude_episode_ids.clone(),
        explicit: given
            .explicit
            .map(|filter| filter == ExplicitFilter::Explicit),
        founded_since: given.founded_since,
        last_episode_since: given.last_episode_since,
        published_since: given.published_since,
        min_total_episodes: given.min_total_episodes,
        max_total_episodes: given.max_total_episodes,
        has_transcript: given.has_transcript,
        min_apple_rating: given.min_itunes_rating,
        min_apple_ratings_count: given.min_itunes_rating_count,
        min_spotify_rating: given.min_spotify_rating,
        min_spotify_ratings_count: given.min_spotify_rating_count,
        min_authority_score: given
            .authority_score
            .as_ref()
            .and_then(|filter| filter.authority_score.as_ref())
            .and_then(|range| range.min),
    })
}

fn sort(search: &ValidatedSearch) -> Result<engine::SortOrder, SearchError> {
    let Some(first) = search.sort.first() else {
        return Err(SearchError::SortOrderRequired);
    };
    let field = match first.field {
        SortField::Relevance => engine::SortField::Relevance,
        SortField::RecentActivity => engine::SortField::RecentActivity,
        SortField::Title => engine::SortField::Title,
        SortField::AppleReviews => engine::SortField::AppleReviews,
        SortField::SpotifyReviews => engine::SortField::SpotifyReviews,
        SortField::AuthorityScore => engine::SortField::AuthorityScore,
        other => return Err(unsupported(&format!("sortOrder.{other}"))),
    };
    Ok(engine::SortOrder {
        field,
        direction: match first.direction {
            SortDirection::Asc => engine::SortDirection::Asc,
            SortDirection::Desc => engine::SortDirection::Desc,
        },
        nulls: match first.null_order {
            NullOrder::First => engine::NullOrder::First,
            NullOrder::Last => engine::NullOrder::Last,
        },
    })
}

/// The best matching passage (`matchSnippet`, as the SDK documents it: about 400
/// characters).
pub const MATCH_SNIPPET_CHARS: usize = 400;
/// Highlighted fragments (`transcriptHighlights`) unless `transcriptHighlightLength` says.
const HIGHLIGHT_CHARS: usize = 220;
/// The start of the transcript (`transcriptTextSnippet`) unless `transcriptSnippetLength`
/// says.
const TRANSCRIPT_START_CHARS: usize = 300;

/// A requested length in characters, at most the engine's longest.
fn snippet_length(requested: Option<u32>, default: usize) -> usize {
    requested.map_or(default, |length| {
        (length as usize).clamp(1, engine::MAX_SNIPPET_CHARS)
    })
}

/// The engine request for one page of `search`: `page_size` hits from `cursor`.
pub fn engine_request(
    search: &ValidatedSearch,
    page_size: usize,
    cursor: Option<String>,
) -> Result<engine::SearchRequest, SearchError> {
    Ok(engine::SearchRequest {
        mode: Some(match search.mode {
            SearchMode::Podcasts => engine::SearchMode::Podcasts,
            SearchMode::Episodes => engine::SearchMode::Episodes,
        }),
        terms: terms(search)?,
        filters: filters(search)?,
        sort: sort(search)?,
        page_size,
        cursor,
        // Matching passages feed transcriptHighlights and matchSnippet; the start of the
        // transcript the legacy transcriptTextSnippet.
        snippets: search.snippets.include_transcript_snippet
            || search.snippets.include_match_snippet,
        snippet_chars: if search.snippets.include_match_snippet {
            MATCH_SNIPPET_CHARS
        } else {
            snippet_length(search.snippets.transcript_highlight_length, HIGHLIGHT_CHARS)
        },
        transcript_start_chars: search.snippets.include_transcript_snippet.then(|| {
            snippet_length(
                search.snippets.transcript_snippet_length,
                TRANSCRIPT_START_CHARS,
            )
        }),
        explain: false,
        hybrid: true,
        podcast_fields: true,
        time_limit: Some(SEARCH_TIME_LIMIT),
        // The engine sets it (`crate::search::QueryEncoder`).
        encoded_query: None,
        // Only related podcasts name a show (`podlens_indexer::like_request`).
        like_podcast: None,
    })
}
