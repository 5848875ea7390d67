//! Scoring: the authority score with its published weights and formulas, Wilson lower
//! bounds for ratings, review and follower lookups read by pluggable importers, and
//! chart movements (previous position, change, days in chart and streaks).
//!
//! Everything here is computation over values the catalog hands in; nothing does
//! HTTP. The method behind every number is public: [`authority::INPUT_RULES`] and
//! [`authority::SUB_SCORE_WEIGHTS`] are the tables of `docs/authority-score.md`.

pub mod authority;
pub mod charts;
mod error;
pub mod lookups;
pub mod wilson;

pub use authority::{AuthorityScore, authority_score};
pub use error::ScoringError;
pub use wilson::{rating_wilson_score, star_counts_wilson_score, wilson_lower_bound};
