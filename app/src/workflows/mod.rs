//! Workflows: projects with their listed podcasts and activity history, outreach
//! history, alerts and their matches, guest profiles, AI assist behind one provider
//! trait, and the pieces exports and outreach emails are built from. The tables live
//! in the application store (`podlens_store`) beside the accounts, reached through the
//! same pool.

pub mod agent;
pub mod agent_runs;
pub mod alert_configs;
pub mod alerts;
pub mod briefs;
pub mod compose;
pub mod custom_prompts;
pub mod deep_analyses;
pub mod delivery;
pub mod directory;
pub mod documents;
pub mod episode_transcripts;
mod export;
pub mod exports;
pub mod feeds;
pub use feeds::websub;
pub mod fields;
pub mod guest_prep;
pub mod guest_profiles;
pub mod job_log;
pub mod latest_episodes;
pub mod outreach;
pub mod outreach_templates;
pub mod passages;
pub mod podcast_episodes;
pub mod podcast_pages;
pub mod podcasts_by_ids;
pub mod polling;
pub mod project_lists;
mod projects;
pub mod relevancy;
pub mod render;
pub mod settings;
mod slug;
mod store;
pub mod strategies;
pub mod suggest;
pub mod team_podcasts;
pub mod transcriptions;
pub use transcriptions::speech_worker;
pub mod webhooks;
mod wire;

pub use compose::{OutreachContext, OutreachGuestInfo, compose_outreach, host_first_name};
pub use export::{
    EXPORT_LISTED_COLUMNS, ExportRow, export_row, header_of, max_export_entries, render_csv,
    render_json,
};
pub use projects::{
    ActivityRow, ListedPodcastRow, NewListedPodcast, OutreachRow, ProjectRow, TeamListing,
};
pub use slug::slugify;
pub use store::{CapCheck, WorkflowStore};
pub use wire::{UserDirectory, history_of, listed_podcast_wire, project_wire, recent_activities};
