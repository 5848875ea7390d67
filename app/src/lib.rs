//! The application layer of Podlens, without HTTP: accounts, teams, keys, sessions and
//! usage; projects, alerts and their delivery, webhooks, transcription requests, guest
//! profiles, outreach and the agent; the feed scheduler and the publishing of changed
//! feeds; the catalog's read side and the cluster's change log. Services return
//! [`AppError`]; `podlens-api` maps it to HTTP.

pub mod accounts;
pub mod backup;
pub mod catalog;
pub mod charts;
pub mod cluster;
pub mod convert;
pub mod cursors;
pub mod error;
pub mod feed_changes;
pub mod index_updates;
pub mod mail;
pub mod plan;
pub mod podcast_views;
pub mod refresh;
pub mod runtime;
pub mod search;
pub mod search_plan;
pub mod services;
pub mod speech;
pub mod transcripts;
pub mod workflows;

pub use error::{AppError, AppResult, LimitExceeded};
pub use runtime::blocking;
pub use services::App;
