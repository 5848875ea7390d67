//! How much work one search may ask for. A term's words each become clauses in every
//! target field (and a fuzzy word one automaton over each field's terms), so the work
//! of a search grows with its words; left unbounded, a 3,000-word term kept a core busy
//! for seconds. The caps follow the habits of other engines (Google reads 32 words of a
//! query, Elasticsearch caps a query's clauses with `max_clause_count`):
//!
//! | cap | value |
//! |---|---|
//! | terms per search (`searchTerms`, `searchTermGroups`' terms, `personFilters`, `sponsorFilters`) | [`MAX_SEARCH_TERMS`] = 16 |
//! | words per term (runs of letters and digits; CJK text a word per pair of characters, [`word_count`]) | [`MAX_WORDS_PER_TERM`] = 32 |
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

/// The words of `text` as the caps count them, as the search engine splits a term:
/// runs of letters and digits, where a run of Chinese, Japanese or Korean characters is
/// its overlapping pairs of characters (n − 1 words for n characters, one for a lone
/// character), each of which the engine searches as a word.
pub fn word_count(text: &str) -> usize {
    text.split(|c: char| !c.is_alphanumeric())
        .map(|run| {
            let chars: Vec<char> = run.chars().collect();
            chars
                .chunk_by(|a, b| is_cjk(*a) == is_cjk(*b))
                .map(|part| match part {
                    [first, ..] if is_cjk(*first) => part.len().saturating_sub(1).max(1),
                    _ => 1,
                })
                .sum::<usize>()
        })
        .sum()
}

/// Whether `c` is written without spaces between words: Han (Chinese characters, kanji,
/// hanja), hiragana, katakana (also half-width) and Hangul. The search engine indexes
/// and searches runs of these in pairs of characters.
pub fn is_cjk(c: char) -> bool {
    // Below U+1100 (Latin, Greek, Cyrillic, Arabic, Indic, …) in one comparison: the
    // text of most shows.
    (c as u32) >= 0x1100
        && matches!(
            c as u32,
            0x1100..=0x11FF
                | 0x3005..=0x3007
                | 0x3040..=0x30FF
                | 0x3130..=0x318F
                | 0x31F0..=0x31FF
                | 0x3400..=0x4DBF
                | 0x4E00..=0x9FFF
                | 0xAC00..=0xD7AF
                | 0xF900..=0xFAFF
                | 0xFF66..=0xFF9F
                | 0x20000..=0x2FFFF
        )
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
        // CJK runs count as the engine searches them, in pairs of characters.
        assert_eq!(word_count("東京都は、日本の首都であり"), 10);
        assert_eq!(word_count("猫 M-1グランプリ"), 1 + 2 + 4);
        assert_eq!(word_count("らぶぶらLOVE"), 3 + 1);
    }

    #[test]
    fn a_long_cjk_term_is_refused_as_its_words_would_be() {
        // Before CJK text was counted in pairs, 500 characters without a space were one
        // word here and 499 words in the engine.
        let sentence = "真空ジェシカのラジオ父ちゃん".repeat(3);
        let refused = check_term_size(&sentence, "searchTerms[0].searchTerm").unwrap_err();
        assert_eq!(
            refused.to_string(),
            "searchTerms[0].searchTerm has 41 words; a search term may have at most 32 words."
        );
        assert!(check_term_size("真空ジェシカのラジオ父ちゃん", "t").is_ok());
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
