//! The product's rules as code: every entity of the specification as a serde type
//! with the wire's camelCase names, every enumeration with its exact values, the
//! validation rules with their exact messages, and the plans with their limits and
//! permissions. No I/O: every other crate depends on this one.

pub mod catalog;
pub mod countries;
pub mod entities;
pub mod enums;
pub mod kinds;
pub mod plans;
pub mod publishing;
pub mod search;
pub mod social;
pub mod validation;

pub use kinds::{DirectoryKind, SocialKind};
pub use plans::{Plan, PlanLimits};
pub use search::{SearchError, SearchOptions, ValidatedSearch};
pub use search::{parse_search_options, validate_search};
pub use social::{DirectoryLink, SocialProfile, SocialUrlError};
pub use social::{classify_directory_url, classify_social_url, validate_social_url};
pub use validation::ValidationError;
