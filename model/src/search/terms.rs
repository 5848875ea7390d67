//! Term rules of SPEC.md §5: at least 2 characters and not blank, at least one target,
//! the `embeddings` type rejected, only podcast targets in podcast mode, match mode
//! `optional` by default. Person and sponsor name filters follow the same text rules.

use serde::Serialize;

use super::MIN_SEARCH_TERM_CHARS;
use super::caps::check_term_size;
use super::error::SearchError;
use super::mode::SearchMode;
use super::options::{
    GroupTermOptions, MatchMode, NamedFilterMatchMode, PersonFilter, PersonFilterType,
    SearchTarget, SearchTerm, SearchTermGroupItem, SearchTermOptions, SearchType, SponsorFilter,
};

/// A validated term: trimmed text, distinct targets, every option resolved.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NormalizedTerm {
    pub text: String,
    pub targets: Vec<SearchTarget>,
    pub match_mode: MatchMode,
    pub phrase_match: bool,
    /// Positions allowed between phrase words.
    pub slop: u32,
    pub fuzzy: bool,
}

/// A validated person or sponsor name filter.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NamedFilterSpec {
    pub name: String,
    pub match_mode: NamedFilterMatchMode,
    pub phrase_match: bool,
    pub slop: u32,
    pub fuzzy: bool,
    /// The role looked for; `None` for sponsors.
    pub person_type: Option<PersonFilterType>,
}

/// The raw parts every term kind shares.
struct RawTerm<'a> {
    text: &'a str,
    search_type: SearchType,
    targets: &'a [SearchTarget],
    match_mode: Option<MatchMode>,
    phrase_match: Option<bool>,
    slop: Option<f64>,
    fuzzy: Option<bool>,
}

/// Checks a term or name text: not blank, at least [`MIN_SEARCH_TERM_CHARS`] characters
/// once trimmed. Returns the trimmed text.
fn check_text<'a>(text: &'a str, path: &str) -> Result<&'a str, SearchError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(SearchError::invalid(format!("{path} must not be blank")));
    }
    if trimmed.chars().count() < MIN_SEARCH_TERM_CHARS {
        return Err(SearchError::invalid(format!(
            "{path} must be at least {MIN_SEARCH_TERM_CHARS} characters"
        )));
    }
    Ok(trimmed)
}

/// A slop must be a whole number of at least 0.
fn check_slop(slop: Option<f64>, path: &str) -> Result<u32, SearchError> {
    let Some(slop) = slop else { return Ok(0) };
    if !slop.is_finite() || slop < 0.0 || slop.fract() != 0.0 || slop > f64::from(u32::MAX) {
        return Err(SearchError::invalid(format!(
            "{path}.slop must be a whole number of at least 0, got {slop}"
        )));
    }
    // Whole and within u32 range, checked above.
    Ok(slop as u32)
}

fn normalize(
    raw: RawTerm<'_>,
    mode: SearchMode,
    path: &str,
) -> Result<NormalizedTerm, SearchError> {
    if raw.search_type == SearchType::Embeddings {
        return Err(SearchError::invalid(format!(
            "{path}: the embeddings search type is not supported"
        )));
    }
    let text = check_text(raw.text, &format!("{path}.searchTerm"))?;
    check_term_size(text, &format!("{path}.searchTerm"))?;
    let mut targets: Vec<SearchTarget> = Vec::with_capacity(raw.targets.len());
    for target in raw.targets {
        if !targets.contains(target) {
            targets.push(*target);
        }
    }
    if targets.is_empty() {
        return Err(SearchError::invalid(format!(
            "{path} needs at least one search target"
        )));
    }
    if mode == SearchMode::Podcasts
        && let Some(target) = targets.iter().find(|target| !target.is_podcast_target())
    {
        return Err(SearchError::invalid(format!(
            "{path}: search target \"{target}\" is not allowed in podcast mode \
             (podcast-title and podcast-description only)"
        )));
    }
    Ok(NormalizedTerm {
        text: text.to_owned(),
        targets,
        match_mode: raw.match_mode.unwrap_or(MatchMode::Optional),
        phrase_match: raw.phrase_match.unwrap_or(false),
        slop: check_slop(raw.slop, path)?,
        fuzzy: raw.fuzzy.unwrap_or(false),
    })
}

/// Validates a top-level term.
pub(crate) fn normalize_term(
    term: &SearchTerm,
    mode: SearchMode,
    path: &str,
) -> Result<NormalizedTerm, SearchError> {
    let options = term.search_term_options.clone().unwrap_or_default();
    normalize(
        RawTerm {
            text: &term.search_term,
            search_type: term.search_type,
            targets: &term.search_targets,
            match_mode: options.match_mode,
            phrase_match: options.phrase_match,
            slop: options.slop,
            fuzzy: options.fuzzy,
        },
        mode,
        path,
    )
}

/// Validates a term of a group; grouped terms have no match mode of their own.
pub(crate) fn normalize_group_term(
    term: &SearchTermGroupItem,
    mode: SearchMode,
    path: &str,
) -> Result<NormalizedTerm, SearchError> {
    let options = term.search_term_options.clone().unwrap_or_default();
    normalize(
        RawTerm {
            text: &term.search_term,
            search_type: term.search_type,
            targets: &term.search_targets,
            match_mode: None,
            phrase_match: options.phrase_match,
            slop: options.slop,
            fuzzy: options.fuzzy,
        },
        mode,
        path,
    )
}

impl NormalizedTerm {
    /// The term as a top-level wire term, every option spelled out.
    pub fn to_wire(&self) -> SearchTerm {
        SearchTerm {
            search_term: self.text.clone(),
            search_type: SearchType::Text,
            search_targets: self.targets.clone(),
            search_term_options: Some(SearchTermOptions {
                match_mode: Some(self.match_mode),
                phrase_match: Some(self.phrase_match),
                slop: Some(f64::from(self.slop)),
                fuzzy: Some(self.fuzzy),
            }),
        }
    }

    /// The term as a grouped wire term.
    pub fn to_group_wire(&self) -> SearchTermGroupItem {
        SearchTermGroupItem {
            search_term: self.text.clone(),
            search_type: SearchType::Text,
            search_targets: self.targets.clone(),
            search_term_options: Some(GroupTermOptions {
                phrase_match: Some(self.phrase_match),
                slop: Some(f64::from(self.slop)),
                fuzzy: Some(self.fuzzy),
            }),
        }
    }
}

/// A name filter's name: the text rules and the size caps.
fn check_name<'a>(name: &'a str, path: &str) -> Result<&'a str, SearchError> {
    let name = check_text(name, &format!("{path}.name"))?;
    check_term_size(name, &format!("{path}.name"))?;
    Ok(name)
}

/// Validates a guest or host name filter.
pub(crate) fn normalize_person(
    filter: &PersonFilter,
    path: &str,
) -> Result<NamedFilterSpec, SearchError> {
    Ok(NamedFilterSpec {
        name: check_name(&filter.name, path)?.to_owned(),
        match_mode: filter.match_mode.unwrap_or(NamedFilterMatchMode::Must),
        phrase_match: filter.phrase_match.unwrap_or(false),
        slop: check_slop(filter.slop, path)?,
        fuzzy: filter.fuzzy.unwrap_or(false),
        person_type: Some(filter.person_type),
    })
}

/// Validates a sponsor name filter.
pub(crate) fn normalize_sponsor(
    filter: &SponsorFilter,
    path: &str,
) -> Result<NamedFilterSpec, SearchError> {
    Ok(NamedFilterSpec {
        name: check_name(&filter.name, path)?.to_owned(),
        match_mode: filter.match_mode.unwrap_or(NamedFilterMatchMode::Must),
        phrase_match: filter.phrase_match.unwrap_or(false),
        slop: check_slop(filter.slop, path)?,
        fuzzy: filter.fuzzy.unwrap_or(false),
        person_type: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(text: &str, targets: &[SearchTarget]) -> SearchTerm {
        SearchTerm {
            search_term: text.to_owned(),
            search_type: SearchType::Text,
            search_targets: targets.to_vec(),
            search_term_options: None,
        }
    }

    fn detail(result: Result<NormalizedTerm, SearchError>) -> String {
        let error = result.unwrap_err();
        assert_eq!(error.to_string(), "Error parsing search options.");
        error.detail().unwrap().to_owned()
    }

    #[test]
    fn text_rules() {
        let targets = [SearchTarget::PodcastTitle];
        let one = detail(normalize_term(
            &term("a", &targets),
            SearchMode::Podcasts,
            "searchTerms[0]",
        ));
        assert_eq!(
            one,
            "searchTerms[0].searchTerm must be at least 2 characters"
        );
        let padded = detail(normalize_term(
            &term("  a  ", &targets),
            SearchMode::Podcasts,
            "t",
        ));
        assert_eq!(padded, "t.searchTerm must be at least 2 characters");
        let blank = detail(normalize_term(
            &term("   ", &targets),
            SearchMode::Podcasts,
            "t",
        ));
        assert_eq!(blank, "t.searchTerm must not be blank");
        // Two characters, counted as characters rather than bytes.
        let accepted = normalize_term(&term(" é! ", &targets), SearchMode::Podcasts, "t").unwrap();
        assert_eq!(accepted.text, "é!");
    }

    #[test]
    fn target_rules() {
        let none = detail(normalize_term(&term("ai", &[]), SearchMode::Episodes, "t"));
        assert_eq!(none, "t needs at least one search target");
        let episode = normalize_term(
            &term("ai", &[SearchTarget::Transcript]),
            SearchMode::Podcasts,
            "t",
        );
        assert_eq!(
            detail(episode),
            "t: search target \"transcript\" is not allowed in podcast mode \
             (podcast-title and podcast-description only)"
        );
        let mixed = normalize_term(
            &term(
                "ai",
                &[
                    SearchTarget::Transcript,
                    SearchTarget::PodcastTitle,
                    SearchTarget::Transcript,
                ],
            ),
            SearchMode::Episodes,
            "t",
        )
        .unwrap();
        assert_eq!(
            mixed.targets,
            [SearchTarget::Transcript, SearchTarget::PodcastTitle]
        );
    }

    #[test]
    fn embeddings_are_rejected() {
        let mut embedding = term("ai", &[SearchTarget::PodcastTitle]);
        embedding.search_type = SearchType::Embeddings;
        let reason = detail(normalize_term(
            &embedding,
            SearchMode::Podcasts,
            "searchTerms[1]",
        ));
        assert_eq!(
            reason,
            "searchTerms[1]: the embeddings search type is not supported"
        );
    }

    #[test]
    fn options_default_and_slop_is_whole() {
        let plain = normalize_term(
            &term("ai", &[SearchTarget::PodcastTitle]),
            SearchMode::Podcasts,
            "t",
        )
        .unwrap();
        assert_eq!(plain.match_mode, MatchMode::Optional);
        assert!(!plain.phrase_match && !plain.fuzzy);
        assert_eq!(plain.slop, 0);
        let mut sloppy = term("machine learning", &[SearchTarget::EpisodeTitle]);
        sloppy.search_term_options = Some(SearchTermOptions {
            match_mode: Some(MatchMode::Not),
            phrase_match: Some(true),
            slop: Some(2.0),
            fuzzy: None,
        });
        let normalized = normalize_term(&sloppy, SearchMode::Episodes, "t").unwrap();
        assert_eq!(
            (normalized.match_mode, normalized.slop),
            (MatchMode::Not, 2)
        );
        for bad in [-1.0, 1.5, f64::NAN] {
            sloppy.search_term_options.as_mut().unwrap().slop = Some(bad);
            let reason = detail(normalize_term(&sloppy, SearchMode::Episodes, "t"));
            assert!(
                reason.starts_with("t.slop must be a whole number"),
                "{reason}"
            );
        }
    }

    #[test]
    fn wire_form_spells_out_every_option() {
        let normalized = normalize_term(
            &term(" ai ", &[SearchTarget::PodcastTitle]),
            SearchMode::Podcasts,
            "t",
        )
        .unwrap();
        assert_eq!(
            serde_json::to_value(normalized.to_wire()).unwrap(),
            serde_json::json!({
                "searchTerm": "ai", "searchType": "text", "searchTargets": ["podcast-title"],
                "searchTermOptions": {"matchMode": "optional", "phraseMatch": false,
                                      "slop": 0.0, "fuzzy": false}
            })
        );
    }

    #[test]
    fn name_filters() {
        let person = PersonFilter {
            name: " Ada Lovelace ".into(),
            match_mode: None,
            phrase_match: Some(true),
            slop: None,
            fuzzy: None,
            person_type: PersonFilterType::Guest,
        };
        let spec = normalize_person(&person, "personFilters[0]").unwrap();
        assert_eq!(spec.name, "Ada Lovelace");
        assert_eq!(spec.match_mode, NamedFilterMatchMode::Must);
        assert_eq!(spec.person_type, Some(PersonFilterType::Guest));
        let sponsor = SponsorFilter {
            name: "x".into(),
            match_mode: Some(NamedFilterMatchMode::Not),
            phrase_match: None,
            slop: None,
            fuzzy: None,
        };
        let error = normalize_sponsor(&sponsor, "sponsorFilters[0]").unwrap_err();
        assert_eq!(
            error.detail(),
            Some("sponsorFilters[0].name must be at least 2 characters")
        );
    }
}
