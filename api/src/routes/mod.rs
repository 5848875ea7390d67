//! Handlers grouped by resource; each module exposes `router()`.

pub mod auth;
pub mod autocomplete;
pub mod charts;
pub mod episodes;
pub mod exports;
pub mod health;
mod lookup;
pub mod outreach;
pub mod podcast_details;
pub mod podcasts;
pub mod projects;
pub mod search;
pub mod stats;
pub mod teams;
pub mod usage;
