//! The one error of search option handling. Its messages are the specification's
//! (§5), word for word; rule violations that the specification reports as a failed
//! parse carry a lowercase `detail` for logs and API error details.

/// Why search options were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    /// A key that is not a search option, or not one of this kind of search.
    #[error("Search filter \"{0}\" is not supported.")]
    FilterNotSupported(String),
    /// A filter above the caller's plan.
    #[error("Search filter \"{0}\" is not available for your plan.")]
    FilterNotAvailable(String),
    /// `sortOrder` was sent empty.
    #[error("At least one sort order is required.")]
    SortOrderRequired,
    /// Neither a term nor a filter.
    #[error("At least one search term or filter is required.")]
    TermOrFilterRequired,
    /// The body does not parse, or breaks a rule of the options' schema.
    #[error("Error parsing search options.")]
    InvalidOptions { detail: String },
    /// The search asks for more work than one search may (`caps`): the message says
    /// which cap, the value sent and where.
    #[error("{0}")]
    TooLarge(String),
}

impl SearchError {
    pub(crate) fn invalid(detail: impl Into<String>) -> Self {
        SearchError::InvalidOptions {
            detail: detail.into(),
        }
    }

    /// What exactly was wrong, for a failed parse.
    pub fn detail(&self) -> Option<&str> {
        match self {
            SearchError::InvalidOptions { detail } => Some(detail),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_the_specifications() {
        assert_eq!(
            SearchError::FilterNotSupported("hasTranscript".into()).to_string(),
            "Search filter \"hasTranscript\" is not supported."
        );
        assert_eq!(
            SearchError::FilterNotAvailable("podcastCountries".into()).to_string(),
            "Search filter \"podcastCountries\" is not available for your plan."
        );
        assert_eq!(
            SearchError::SortOrderRequired.to_string(),
            "At least one sort order is required."
        );
        assert_eq!(
            SearchError::TermOrFilterRequired.to_string(),
            "At least one search term or filter is required."
        );
        let invalid = SearchError::invalid("pageSize must be between 1 and 1000");
        assert_eq!(invalid.to_string(), "Error parsing search options.");
        assert_eq!(
            invalid.detail(),
            Some("pageSize must be between 1 and 1000")
        );
        assert_eq!(SearchError::SortOrderRequired.detail(), None);
    }
}
