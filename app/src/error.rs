//! The one error type of the application's services. Each kind says what went wrong in
//! the domain's terms; only the HTTP layer (`podlens-api`) turns kinds into statuses.

/// A usage limit that a call would exceed: the message, the limit, what was used and
/// when the window resets.
#[derive(Debug, Clone, PartialEq)]
pub struct LimitExceeded {
    pub message: String,
    pub limit: u64,
    pub used: u64,
    /// Seconds until the window resets.
    pub reset_after_seconds: u64,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AppError {
    /// What the caller sent is invalid (the message, often the specification's exact
    /// words, is shown to the caller as is).
    #[error("{0}")]
    Invalid(String),
    /// The caller's plan or role does not allow this (message shown as is).
    #[error("{0}")]
    Forbidden(String),
    /// The thing asked for does not exist, or is not the caller's (message shown as is).
    #[error("{0}")]
    NotFound(String),
    /// The request conflicts with the current state (message shown as is).
    #[error("{0}")]
    Conflict(String),
    /// A cap of the caller's plan is reached.
    #[error("{}", .0.message)]
    CapReached(LimitExceeded),
    /// A resource the service needs is not there yet or is down (the catalog, the
    /// index, the application database); the message says what, and that it may pass.
    #[error("{0}")]
    Unavailable(String),
    /// Anything else: logged with its cause, never shown.
    #[error("internal error: {0}")]
    Internal(String),
}

pub type AppResult<T> = Result<T, AppError>;

impl AppError {
    pub fn internal(error: impl std::fmt::Display) -> AppError {
        AppError::Internal(error.to_string())
    }

    /// A cursor that was not issued for the request it came back with (tampered
    /// with, or from another search).
    pub fn invalid_cursor() -> AppError {
        AppError::Invalid(
            "Invalid cursor: it was not issued for this request; restart without it".into(),
        )
    }
}

impl From<podlens_store::StoreError> for AppError {
    fn from(error: podlens_store::StoreError) -> AppError {
        match error {
            podlens_store::StoreError::Unavailable(_) => AppError::Unavailable(
                "The application database is unavailable; try again shortly.".to_owned(),
            ),
            unstorable @ podlens_store::StoreError::Unstorable(_) => {
                AppError::Invalid(format!("Invalid request: {unstorable}."))
            }
            other => AppError::Internal(other.to_string()),
        }
    }
}

impl From<sqlx::Error> for AppError {
    fn from(error: sqlx::Error) -> AppError {
        AppError::from(podlens_store::StoreError::from(error))
    }
}

impl From<podlens_model::ValidationError> for AppError {
    fn from(error: podlens_model::ValidationError) -> Self {
        AppError::Invalid(error.to_string())
    }
}

impl From<podlens_data::DataError> for AppError {
    fn from(error: podlens_data::DataError) -> Self {
        AppError::Internal(format!("catalog: {error}"))
    }
}

impl From<podlens_indexer::IndexError> for AppError {
    fn from(error: podlens_indexer::IndexError) -> Self {
        match error {
            podlens_indexer::IndexError::VectorsUnavailable => {
                AppError::Unavailable(error.to_string())
            }
            // What a client sent (a page size, a cursor) that the engine refuses.
            podlens_indexer::IndexError::InvalidRequest(message) => AppError::Invalid(message),
            podlens_indexer::IndexError::InvalidCursor(_) => AppError::invalid_cursor(),
            // The caller's query asked for more matching than a search may take.
            podlens_indexer::IndexError::DeadlinePassed => AppError::Invalid(format!(
                "The search was stopped after {} ms of matching; search for fewer or rarer words, or without fuzzy matching.",
                crate::search_plan::SEARCH_TIME_LIMIT.as_millis()
            )),
            // A cluster's search nodes cannot serve every shard.
            podlens_indexer::IndexError::Unavailable(_) => AppError::Unavailable(
                "Search is unavailable for a moment; try again shortly.".into(),
            ),
            error => AppError::Internal(format!("search index: {error}")),
        }
    }
}

impl From<podlens_model::SearchError> for AppError {
    fn from(error: podlens_model::SearchError) -> Self {
        if let Some(detail) = error.detail() {
            tracing::debug!(detail, "search options refused");
        }
        AppError::Invalid(error.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search stopped at its time limit is the caller's query asking too much: a
    /// 400 that says so, never a 5xx.
    #[test]
    fn a_search_past_its_time_limit_is_invalid_not_internal() {
        let error = AppError::from(podlens_indexer::IndexError::DeadlinePassed);
        let AppError::Invalid(message) = error else {
            panic!("{error:?}");
        };
        assert_eq!(
            message,
            "The search was stopped after 1000 ms of matching; search for fewer or rarer words, or without fuzzy matching."
        );
        let error = AppError::from(podlens_model::SearchError::TooLarge("too big".into()));
        assert!(matches!(error, AppError::Invalid(message) if message == "too big"));
    }
}
