//! Handlers grouped by resource; each module exposes `router()`.

pub mod agent;
pub mod alerts;
pub mod api_keys;
pub mod auth;
pub mod autocomplete;
pub mod charts;
pub mod episodes;
pub mod exports;
pub mod guest_profiles;
pub mod health;
mod lookup;
pub mod outreach;
pub mod passages;
pub mod podcast_all_details;
pub mod podcast_catalogue;
pub mod podcast_details;
pub mod podcast_refresh;
pub mod podcast_sponsors;
pub mod podcasts;
pub mod polling;
pub mod projects;
pub mod search;
pub mod stats;
pub mod strategies;
pub mod teams;
pub mod transcriptions;
pub mod usage;
