//! Reading a request body into [`SearchOptions`]. A top-level key that is not a
//! search option is reported as an unsupported filter; anything else that does not
//! parse (wrong types, unknown enum values, unknown nested keys) is the
//! specification's failed parse.

use serde_json::Value;

use super::error::SearchError;
use super::keys::option_key;
use super::options::SearchOptions;

/// Parses the JSON text of a search request body.
pub fn parse_search_options_str(body: &str) -> Result<SearchOptions, SearchError> {
    let value: Value = serde_json::from_str(body)
        .map_err(|error| SearchError::invalid(format!("body is not json: {error}")))?;
    parse_search_options(value)
}

/// Parses a search request body already read as JSON.
pub fn parse_search_options(body: Value) -> Result<SearchOptions, SearchError> {
    let Value::Object(map) = &body else {
        return Err(SearchError::invalid(
            "the search options must be a json object",
        ));
    };
    if let Some(unknown) = map.keys().find(|name| option_key(name).is_none()) {
        return Err(SearchError::FilterNotSupported(unknown.clone()));
    }
    serde_json::from_value(body).map_err(|error| SearchError::invalid(error.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_top_level_keys_are_unsupported_filters() {
        let error =
            parse_search_options_str(r#"{"languages":["en"],"minAuthority":3}"#).unwrap_err();
        assert_eq!(
            error.to_string(),
            "Search filter \"minAuthority\" is not supported."
        );
        // snake_case keys are not the wire's.
        let error = parse_search_options_str(r#"{"page_size":10}"#).unwrap_err();
        assert_eq!(
            error.to_string(),
            "Search filter \"page_size\" is not supported."
        );
    }

    #[test]
    fn unknown_nested_keys_fail_the_parse() {
        let body = r#"{"searchTerms":[{"searchTerm":"ai","searchType":"text",
            "searchTargets":["podcast-title"],"boost":2}]}"#;
        let error = parse_search_options_str(body).unwrap_err();
        assert_eq!(error.to_string(), "Error parsing search options.");
        assert!(error.detail().unwrap().contains("boost"), "{error:?}");
        let body = r#"{"sortOrder":[{"field":"title","order":"asc"}]}"#;
        assert_eq!(
            parse_search_options_str(body).unwrap_err().to_string(),
            "Error parsing search options."
        );
    }

    #[test]
    fn malformed_bodies_fail_the_parse() {
        for body in [
            "",
            "[]",
            "null",
            "{\"languages\": \"en\"}",
            "{\"pageSize\": 10.5}",
            "{\"explicit\": \"dirty\"}",
            "{\"hasSocials\": [\"myspace\"]}",
            "{\"sortOrder\": [{\"field\": \"popularity\"}]}",
            "{\"searchTerms\": [{\"searchTerm\": \"ai\", \"searchType\": \"text\", \"searchTargets\": [\"website\"]}]}",
            "{\"searchTerms\": [{\"searchTerm\": \"ai\", \"searchType\": \"text\", \"searchTargets\": [\"podcast-title\"], \"searchTermOptions\": {\"matchMode\": \"should\"}}]}",
            "{\"personFilters\": [{\"name\": \"Ada\", \"type\": \"sponsor\"}]}",
        ] {
            let error = parse_search_options_str(body).unwrap_err();
            assert_eq!(error.to_string(), "Error parsing search options.", "{body}");
        }
    }

    #[test]
    fn nulls_stand_for_missing_values() {
        let options = parse_search_options_str(
            r#"{"cursor":null,"languages":null,"searchTerms":[{"searchTerm":"ai",
            "searchType":"text","searchTargets":["podcast-title"],
            "searchTermOptions":{"matchMode":"must","phraseMatch":null,"slop":null,"fuzzy":null}}]}"#,
        )
        .unwrap();
        assert_eq!(options.cursor, None);
        assert_eq!(options.languages, None);
        let term_options = options.search_terms.unwrap()[0]
            .search_term_options
            .clone()
            .unwrap();
        assert_eq!(term_options.phrase_match, None);
    }
}
