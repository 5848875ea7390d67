//! How much work one search may ask for. A term's words each become clauses in every
//! target field (and a fuzzy word one automaton over each field's terms), so the work
//! of a search grows with its words; left unbounded, a 3,000-word term kept a core busy
//! for seconds. The caps follow the habits of other engines (Google reads 32 words of a
//! query, Elasticsearch caps a query's clauses with `max_clause_count`):
//!
//! | cap | value |
//! |---|---|
//! | terms per search (`searchTerms`, `searchTermGroups`' terms, `personFilters`, `sponsorFilters`) | [`MAX_SEARCH_TERMS`] = 16 |
//! | words per term (runs of letters and digits) | [`MAX_WORDS_PER_TERM`] = 32 |
//! | characters per term | [`MAX_TERM_CHARS`] = 500 |
//! | words of the fuzzy terms, together | [`MAX_FUZZY_WORDS`] = 8 |
//!
//! Past a cap, the search is refused with a 400 whose message names the cap, the value
//! sent and where ([`SearchError::TooLarge`]); autocompletion takes the same words and
//! characters per query ([`check_autocomplete_query`]).

use super::error::SearchError;

/// Terms one search may hold, all kinds together.
pub const MAX_SEARCH_TERMS: usize = 16;
/// Words one term (or name filter, or autocompletion query) may hold.
pub const MAX_WORDS_PER_TERM: usize = 32;
/// Characters one term may hold, once trimmed.
pub const MAX_TERM_CHARS: usize = 500;
/// Words matched fuzzily in one search, over all its fuzzy terms.
pub const MAX_FUZZY_WORDS: usize = 8;

/// The words of `text` as the caps count them: runs of letters and digits.
pub fn word_count(text: &str) -> usize {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .count()
}

/// Checks one term's (or name's) size; `path` names it in the message.
pub(crate) fn check_term_size(text: &str, path: &str) -> Result<(), SearchError> {
    let words = word_count(text);
    if words > MAX_WORDS_PER_TERM {
        return Err(SearchError::TooLarge(format!(
            "{path} has {words} words; a search term may have at most {MAX_WORDS_PER_TERM} words."
        )));
    }
    let chars = text.chars().count();
    if chars > MAX_TERM_CHARS {
        return Err(SearchError::TooLarge(format!(
            "{path} is {chars} characters long; a search term may be at most {MAX_TERM_CHARS} characters."
        )));
    }
    Ok(())
}

/// Checks how many terms a search holds.
pub(crate) fn check_term_count(terms: usize) -> Result<(), SearchError> {
    if terms > MAX_SEARCH_TERMS {
        return Err(SearchError::TooLarge(format!(
            "A search may have at most {MAX_SEARCH_TERMS} search terms (searchTerms, searchTermGroups, personFilters and sponsorFilters together); this one has {terms}."
        )));
    }
    Ok(())
}

/// Checks the words a search matches fuzzily, given each fuzzy term's text.
pub(crate) fn check_fuzzy_words<'a>(
    fuzzy_texts: impl IntoIterator<Item = &'a str>,
) -> Result<(), SearchError> {
    let words: usize = fuzzy_texts.into_iter().map(word_count).sum();
    if words > MAX_FUZZY_WORDS {
        return Err(SearchError::TooLarge(format!(
            "Fuzzy matching covers at most {MAX_FUZZY_WORDS} words per search; the fuzzy terms of this one have {words}. Turn fuzzy off for some terms or shorten them."
        )));
    }
    Ok(())
}

/// Checks an autocompletion query (`GET /api/v1/autocomplete/podcasts?query=`).
pub fn check_autocomplete_query(text: &str) -> Result<(), SearchError> {
    check_term_size(text.trim(), "query")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_runs_of_letters_and_digits() {
        assert_eq!(word_count(""), 0);
        assert_eq!(word_count("  "), 0);
        assert_eq!(word_count("the daily"), 2);
        assert_eq!(word_count("rock-n-roll, 1999!"), 4);
        assert_eq!(word_count("café über straße"), 3);
        assert_eq!(word_count("a.b.c.d"), 4);
    }

    #[test]
    fn caps_hold_at_their_values_and_refuse_one_more() {
        let words = |n: usize| vec!["word"; n].join(" ");
        assert!(check_term_size(&words(MAX_WORDS_PER_TERM), "t").is_ok());
        let refused = check_term_size(&words(MAX_WORDS_PER_TERM + 1), "searchTerms[0].searchTerm")
            .unwrap_err();
        assert_eq!(
            refused.to_string(),
            "searchTerms[0].searchTerm has 33 words; a search term may have at most 32 words."
        );
        assert!(check_term_size(&"x".repeat(MAX_TERM_CHARS), "t").is_ok());
        let refused = check_term_size(&"é".repeat(MAX_TERM_CHARS + 1), "t").unwrap_err();
        assert_eq!(
            refused.to_string(),
            "t is 501 characters long; a search term may be at most 500 characters."
        );
        assert!(check_term_count(MAX_SEARCH_TERMS).is_ok());
        assert!(
            check_term_count(MAX_SEARCH_TERMS + 1)
                .unwrap_err()
                .to_string()
                .contains("at most 16 search terms")
        );
        assert!(check_fuzzy_words(["one two three", "four five six seven eight"]).is_ok());
        let refused =
            check_fuzzy_words(["one two three", "four five six seven eight nine"]).unwrap_err();
        assert!(refused.to_string().contains("at most 8 words"), "{refused}");
        assert!(refused.to_string().contains("have 9"), "{refused}");
        assert!(check_autocomplete_query(&words(MAX_WORDS_PER_TERM + 1)).is_err());
        assert!(check_autocomplete_query("  the daily  ").is_ok());
    }
}
