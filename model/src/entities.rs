//! Every entity of SPEC.md §3 as a serde type with the wire's camelCase names.
//!
//! The response shapes are the ones the Pod Engine SDK (`podengine==0.3.2`,
//! `_generated/models.py`) validates: each struct names the SDK class it serves.
//! A field the SDK types `X | None` without a default is always serialized, as
//! `null` when empty; only fields the SDK gives a default may be left out.
//! Unknown keys in input are ignored (as the SDK does), except in the strict
//! user preferences.

/// A point in time on the wire (RFC 3339, UTC).
pub type Timestamp = chrono::DateTime<chrono::Utc>;

mod catalogue;
mod charts;
mod contacts;
mod episode;
mod guests;
mod outreach;
mod people;
mod podcast;
mod projects;
mod reviews;
mod social_data;
mod stats;
mod team;
mod usage;

pub use catalogue::*;
pub use charts::*;
pub use contacts::*;
pub use episode::*;
pub use guests::*;
pub use outreach::*;
pub use people::*;
pub use podcast::*;
pub use projects::*;
pub use reviews::*;
pub use social_data::*;
pub use stats::*;
pub use team::*;
pub use usage::*;

#[cfg(test)]
mod tests;
