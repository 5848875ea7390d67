//! Any request body as search options: parsing and validation for every plan and
//! both endpoints either succeed or answer with an error, never a panic; and a search
//! that validates stays within the caps on a search's work (terms, words per term,
//! characters per term, fuzzy words), so no body gets past them.
#![no_main]

use chrono::{TimeZone, Utc};
use libfuzzer_sys::fuzz_target;
use podlens_model::Plan;
use podlens_model::search::{
    MAX_FUZZY_WORDS, MAX_SEARCH_TERMS, MAX_TERM_CHARS, MAX_WORDS_PER_TERM, SearchEndpoint,
    SearchRequestContext, ValidatedSearch, parse_search_options_str, word_count,
};

fn assert_within_caps(search: &ValidatedSearch) {
    let terms: Vec<_> = search
        .terms
        .iter()
        .chain(search.term_groups.iter().flatten())
        .collect();
    let names: Vec<_> = search
        .filters
        .persons
        .iter()
        .chain(&search.filters.sponsors)
        .collect();
    assert!(terms.len() + names.len() <= MAX_SEARCH_TERMS);
    let texts = terms
        .iter()
        .map(|term| term.text.as_str())
        .chain(names.iter().map(|name| name.name.as_str()));
    for text in texts {
        assert!(text.chars().count() <= MAX_TERM_CHARS);
        assert!(word_count(text) <= MAX_WORDS_PER_TERM);
    }
    let fuzzy: usize = terms
        .iter()
        .filter(|term| term.fuzzy && !term.phrase_match)
        .map(|term| word_count(&term.text))
        .chain(
            names
                .iter()
                .filter(|name| name.fuzzy && !name.phrase_match)
                .map(|name| word_count(&name.name)),
        )
        .sum();
    assert!(fuzzy <= MAX_FUZZY_WORDS);
}

fuzz_target!(|body: &str| {
    let Ok(options) = parse_search_options_str(body) else {
        return;
    };
    let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    for plan in Plan::ALL.iter().copied() {
        for endpoint in [SearchEndpoint::Podcasts, SearchEndpoint::Episodes] {
            let context = SearchRequestContext { endpoint, plan, now };
            if let Ok(search) = podlens_model::validate_search(&options, &context) {
                assert_within_caps(&search);
            }
        }
    }
});
