//! From wire options to a [`ValidatedSearch`], in the order the checks run:
//! unsupported keys, plan, terms (each within the caps of `caps`), filters, the caps on the
//! whole search, "term or filter", sort, paging, snippets.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::PAGE_SIZE_RANGE;
use super::caps::{check_fuzzy_words, check_term_count};
use super::error::SearchError;
use super::filters::{SearchFilters, build_filters};
use super::keys::{OptionKind, set_keys};
use super::mode::{SearchMode, detect_search_mode};
use super::options::{
    NullOrder, ProjectSearchContext, SearchOptions, SearchTermGroup, SortDirection, SortField,
    SortOrder,
};
use super::terms::{NormalizedTerm, normalize_group_term, normalize_term};
use crate::plans::Plan;

/// Which route received the options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchEndpoint {
    /// `POST /api/v1/search/podcasts`: always podcast mode; episode-only keys are
    /// unsupported.
    Podcasts,
    /// `POST /api/v1/search/episodes`: always episode mode.
    Episodes,
    /// A caller without a fixed route (the app's search screen): the mode follows §4.
    Unified,
}

/// Who searches, where, and when (relative dates count back from `now`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchRequestContext {
    pub endpoint: SearchEndpoint,
    pub plan: Plan,
    pub now: DateTime<Utc>,
}

/// One resolved sort criterion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SortSpec {
    pub field: SortField,
    pub direction: SortDirection,
    pub null_order: NullOrder,
}

/// What episode results carry besides their fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SnippetOptions {
    /// `transcriptTextSnippet`: on for episode searches unless turned off.
    pub include_transcript_snippet: bool,
    /// `matchSnippet`: the best matching transcript passage, when asked for.
    pub include_match_snippet: bool,
    pub transcript_snippet_length: Option<u32>,
    pub transcript_highlight_length: Option<u32>,
}

/// A search ready to run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidatedSearch {
    pub mode: SearchMode,
    /// Top-level terms, combined by their match modes.
    pub terms: Vec<NormalizedTerm>,
    /// Term groups: every group must match through at least one of its terms.
    pub term_groups: Vec<Vec<NormalizedTerm>>,
    pub filters: SearchFilters,
    /// At least one criterion, first decides.
    pub sort: Vec<SortSpec>,
    /// Hits per response: the requested page size (admin only) or the plan's maximum
    /// results, whichever is smaller.
    pub page_size: u32,
    /// The plan's maximum results per search: no cursor reaches past it.
    pub max_results: u32,
    pub cursor: Option<String>,
    pub snippets: SnippetOptions,
    pub project: Option<ProjectSearchContext>,
    pub project_id: Option<String>,
    /// The options as the response's `searchOptions` echoes them: normalized, every
    /// default spelled out, dates kept as sent.
    pub echo: SearchOptions,
}

fn mode_for(options: &SearchOptions, endpoint: SearchEndpoint) -> SearchMode {
    match endpoint {
        SearchEndpoint::Podcasts => SearchMode::Podcasts,
        SearchEndpoint::Episodes => SearchMode::Episodes,
        SearchEndpoint::Unified => detect_search_mode(options),
    }
}

fn normalize_groups(
    groups: Option<&Vec<SearchTermGroup>>,
    mode: SearchMode,
) -> Result<Vec<Vec<NormalizedTerm>>, SearchError> {
    let mut out = Vec::new();
    for (group_index, group) in groups.into_iter().flatten().enumerate() {
        if group.search_terms.is_empty() {
            return Err(SearchError::invalid(format!(
                "searchTermGroups[{group_index}] needs at least one search term"
            )));
        }
        let terms = group
            .search_terms
            .iter()
            .enumerate()
            .map(|(index, term)| {
                normalize_group_term(
                    term,
                    mode,
                    &format!("searchTermGroups[{group_index}].searchTerms[{index}]"),
                )
            })
            .collect::<Result<Vec<_>, _>>()?;
        out.push(terms);
    }
    Ok(out)
}

/// The sort of the request, or relevance first when terms exist and newest first
/// otherwise. An empty list is refused.
fn resolve_sort(
    requested: Option<&Vec<SortOrder>>,
    mode: SearchMode,
    has_terms: bool,
) -> Result<Vec<SortSpec>, SearchError> {
    let Some(requested) = requested else {
        let field = if has_terms {
            SortField::Relevance
        } else {
            SortField::RecentActivity
        };
        return Ok(vec![SortSpec {
            field,
            direction: field.default_direction(),
            null_order: NullOrder::Last,
        }]);
    };
    if requested.is_empty() {
        return Err(SearchError::SortOrderRequired);
    }
    let mut sort: Vec<SortSpec> = Vec::with_capacity(requested.len());
    for (index, order) in requested.iter().enumerate() {
        if mode == SearchMode::Episodes && !order.field.sorts_episodes() {
            return Err(SearchError::invalid(format!(
                "sortOrder[{index}]: episode searches cannot sort by \"{}\"",
                order.field
            )));
        }
        if sort.iter().any(|spec| spec.field == order.field) {
            return Err(SearchError::invalid(format!(
                "sortOrder[{index}]: \"{}\" is already sorted on",
                order.field
            )));
        }
        sort.push(SortSpec {
            field: order.field,
            direction: order
                .direction
                .unwrap_or_else(|| order.field.default_direction()),
            null_order: order.null_order.unwrap_or(NullOrder::Last),
        });
    }
    Ok(sort)
}

fn positive_length(value: Option<i64>, key: &str) -> Result<Option<u32>, SearchError> {
    value
        .map(|length| {
            u32::try_from(length)
                .ok()
                .filter(|length| *length >= 1)
                .ok_or_else(|| SearchError::invalid(format!("{key} must be a positive integer")))
        })
        .transpose()
}

fn page_size(requested: Option<i64>, max_results: u32) -> Result<u32, SearchError> {
    let Some(requested) = requested else {
        return Ok(max_results);
    };
    let size = u32::try_from(requested)
        .ok()
        .filter(|size| PAGE_SIZE_RANGE.contains(size))
        .ok_or_else(|| {
            SearchError::invalid(format!(
                "pageSize must be between 1 and 1000, got {requested}"
            ))
        })?;
    Ok(size.min(max_results))
}

fn project_id(options: &SearchOptions) -> Result<Option<String>, SearchError> {
    let direct = options.project_id.as_deref().map(str::trim);
    let nested = options
        .project
        .as_ref()
        .map(|project| project.project_id.trim());
    match (direct, nested) {
        (Some(""), _) | (_, Some("")) => Err(SearchError::invalid("projectId must not be blank")),
        (Some(direct), Some(nested)) if direct != nested => Err(SearchError::invalid(
            "projectId and project.projectId name different projects",
        )),
        (direct, nested) => Ok(direct.or(nested).map(str::to_owned)),
    }
}

/// The caps on a whole search's work: how many terms of every kind, and how many
/// words are matched fuzzily (each term's own size is checked with the term).
fn check_work(
    terms: &[NormalizedTerm],
    term_groups: &[Vec<NormalizedTerm>],
    filters: &SearchFilters,
) -> Result<(), SearchError> {
    let grouped = term_groups.iter().flatten();
    let count = terms.len()
        + term_groups.iter().map(Vec::len).sum::<usize>()
        + filters.persons.len()
        + filters.sponsors.len();
    check_term_count(count)?;
    let fuzzy_terms = terms
        .iter()
        .chain(grouped)
        .filter(|term| term.fuzzy && !term.phrase_match)
        .map(|term| term.text.as_str());
    let fuzzy_names = filters
        .persons
        .iter()
        .chain(&filters.sponsors)
        .filter(|name| name.fuzzy && !name.phrase_match)
        .map(|name| name.name.as_str());
    check_fuzzy_words(fuzzy_terms.chain(fuzzy_names))
}

/// Checks `options` for `context` and resolves them into a runnable search.
pub fn validate_search(
    options: &SearchOptions,
    context: &SearchRequestContext,
) -> Result<ValidatedSearch, SearchError> {
    let set = set_keys(options)?;
    let mode = mode_for(options, context.endpoint);
    if context.endpoint == SearchEndpoint::Podcasts
        && let Some(key) = set.iter().find(|key| key.episodes_only)
    {
        return Err(SearchError::FilterNotSupported(key.name.to_owned()));
    }
    if let Some(key) = set.iter().find(|key| {
        Plan::minimum_tier_for_filter(key.name).is_some() && !context.plan.allows_filter(key.name)
    }) {
        return Err(SearchError::FilterNotAvailable(key.name.to_owned()));
    }

    let terms = options
        .search_terms
        .iter()
        .flatten()
        .enumerate()
        .map(|(index, term)| normalize_term(term, mode, &format!("searchTerms[{index}]")))
        .collect::<Result<Vec<_>, _>>()?;
    let term_groups = normalize_groups(options.search_term_groups.as_ref(), mode)?;
    let filters = build_filters(options, context.now)?;
    check_work(&terms, &term_groups, &filters)?;
    let has_terms = !terms.is_empty() || !term_groups.is_empty();
    if !has_terms && !set.iter().any(|key| key.kind == OptionKind::Filter) {
        return Err(SearchError::TermOrFilterRequired);
    }
    let sort = resolve_sort(options.sort_order.as_ref(), mode, has_terms)?;

    let max_results = context.plan.limits().max_results_per_search;
    let page_size = page_size(options.page_size, max_results)?;
    let episodes = mode == SearchMode::Episodes;
    let snippets = SnippetOptions {
        include_transcript_snippet: episodes && options.include_transcript_snippet.unwrap_or(true),
        include_match_snippet: episodes && options.include_match_snippet.unwrap_or(false),
        transcript_snippet_length: positive_length(
            options.transcript_snippet_length,
            "transcriptSnippetLength",
        )?,
        transcript_highlight_length: positive_length(
            options.transcript_highlight_length,
            "transcriptHighlightLength",
        )?,
    };
    let project_id = project_id(options)?;

    let echo = SearchOptions {
        search_terms: options
            .search_terms
            .as_ref()
            .map(|_| terms.iter().map(NormalizedTerm::to_wire).collect()),
        search_term_groups: options.search_term_groups.as_ref().map(|_| {
            term_groups
                .iter()
                .map(|group| SearchTermGroup {
                    search_terms: group.iter().map(NormalizedTerm::to_group_wire).collect(),
                })
                .collect()
        }),
        include_itunes_genres: options
            .include_itunes_genres
            .as_ref()
            .map(|_| filters.include_genres.clone()),
        exclude_itunes_genres: options
            .exclude_itunes_genres
            .as_ref()
            .map(|_| filters.exclude_genres.clone()),
        languages: options
            .languages
            .as_ref()
            .map(|_| filters.languages.clone()),
        podcast_countries: options
            .podcast_countries
            .as_ref()
            .map(|_| filters.countries.clone()),
        sort_order: Some(
            sort.iter()
                .map(|spec| SortOrder {
                    field: spec.field,
                    direction: Some(spec.direction),
                    null_order: Some(spec.null_order),
                })
                .collect(),
        ),
        include_transcript_snippet: episodes.then_some(snippets.include_transcript_snippet),
        ..options.clone()
    };

    Ok(ValidatedSearch {
        mode,
        terms,
        term_groups,
        filters,
        sort,
        page_size,
        max_results,
        cursor: options.cursor.clone(),
        snippets,
        project: options.project.clone(),
        project_id,
        echo,
    })
}
