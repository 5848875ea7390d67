//! The search request of `POST /api/v1/search/podcasts` and `/episodes`, in the exact
//! JSON shape the Pod Engine SDK sends (`options`), its parsing (`parse`) and validation
//! against a plan with the specification's messages (`validate`), the search-mode rule
//! of §4 (`mode`), relative date filters (`dates`) and the response envelope
//! (`response`). `validate` turns the wire options into a [`ValidatedSearch`]: what the
//! indexer executes.

mod caps;
mod dates;
mod error;
mod filters;
mod keys;
mod mode;
mod options;
mod parse;
mod response;
mod terms;
mod validate;

pub use caps::{
    MAX_FUZZY_WORDS, MAX_SEARCH_TERMS, MAX_TERM_CHARS, MAX_WORDS_PER_TERM,
    check_autocomplete_query, is_cjk, word_count,
};
pub use dates::{
    CustomDate, CustomTag, DateFilter, RelativeDate, RelativeTag, RelativeUnit, parse_custom_date,
};
pub use error::SearchError;
pub use filters::SearchFilters;
pub use keys::{OptionKind, SEARCH_OPTION_KEYS, SearchOptionKey, option_key};
pub use mode::{SearchMode, detect_search_mode};
pub use options::{
    AuthorityScoreFilter, ExplicitFilter, GroupTermOptions, ListenersRange, MatchMode,
    NamedFilterMatchMode, NullOrder, PersonFilter, PersonFilterType, ProjectSearchContext,
    ScoreRange, SearchOptions, SearchTarget, SearchTerm, SearchTermGroup, SearchTermGroupItem,
    SearchTermOptions, SearchType, SortDirection, SortField, SortOrder, SponsorFilter,
};
pub use parse::{parse_search_options, parse_search_options_str};
pub use response::{
    ProjectPodcastRelevancy, RelevancyAnswer, SearchResponse, SearchResult, SearchResultsStats,
    SearchStatsFilters, SearchStatsTime, SearchStatsTotals, SearchTotal, TotalRelation,
};
pub use terms::{NamedFilterSpec, NormalizedTerm};
pub use validate::{
    SearchEndpoint, SearchRequestContext, SnippetOptions, SortSpec, ValidatedSearch,
    validate_search,
};

/// Shortest accepted search term, in characters (§9).
pub const MIN_SEARCH_TERM_CHARS: usize = 2;
/// Page size bounds (§5, §9).
pub const PAGE_SIZE_RANGE: std::ops::RangeInclusive<u32> = 1..=1000;
/// Rating filter bounds (§5).
pub const RATING_FILTER_RANGE: std::ops::RangeInclusive<f64> = 0.0..=5.0;

#[cfg(test)]
mod tests;
