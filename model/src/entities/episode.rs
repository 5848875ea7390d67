//! Episodes and transcripts.

use serde::{Deserialize, Serialize};

use super::{AudienceEstimate, PodcastSummary, Timestamp};
use crate::enums::PersonType;

/// A person heard in an episode.
/// SDK: `GetLatestEpisodesResponseLatestPodcastsItemEpisodesItemEpisodeGuestsAndHostsItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EpisodePerson {
    pub name: String,
    #[serde(rename = "type")]
    pub person_type: PersonType,
    pub image_url: Option<String>,
}

/// The episode's video on YouTube.
/// SDK: `GetLatestEpisodesResponseLatestPodcastsItemEpisodesItemYoutubeEpisodeDetails`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct YoutubeEpisodeDetails {
    pub youtube_link: String,
    pub youtube_match_confidence: f64,
    pub youtube_view_count: Option<u64>,
    pub youtube_data_fetched_at: Option<Timestamp>,
}

/// Episode: ids and slugs, title, description, duration, enclosure, image, dates,
/// transcript state. SDK: `GetLatestEpisodesResponseLatestPodcastsItemEpisodesItem`
/// (also `GetEpisodeDetailsByIdResponse.episode`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Episode {
    pub deep_analysis_requested_at: Option<Timestamp>,
    pub description: Option<String>,
    pub duration_seconds: Option<u64>,
    pub enclosure_url: String,
    pub episode_id: String,
    pub episode_guests_and_hosts: Option<Vec<EpisodePerson>>,
    pub episode_slug: String,
    pub episode_short_description: Option<String>,
    pub episode_sponsors: Option<Vec<String>>,
    pub has_transcript: bool,
    pub has_video: bool,
    pub video_url: Option<String>,
    pub image_url: Option<String>,
    pub episode_thumbnail_rss_url: Option<String>,
    pub podcast_id: String,
    pub podcast_slug: String,
    pub published_at: Timestamp,
    pub title: String,
    pub transcript_id: Option<String>,
    pub transcription_requested_at: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience_estimate: Option<AudienceEstimate>,
    pub youtube_episode_details: Option<YoutubeEpisodeDetails>,
    pub apple_podcasts_url: Option<String>,
    /// The episode's author (SPEC.md §3; not in the SDK's class, which ignores it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
}

/// A podcast with some of its episodes.
/// SDK: `GetLatestEpisodesResponseLatestPodcastsItem`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastWithEpisodes {
    pub podcast: PodcastSummary,
    pub episodes: Vec<Episode>,
}

/// `GET /api/v1/episodes/latest`. SDK: `GetLatestEpisodesResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LatestEpisodesResponse {
    pub latest_podcasts: Vec<PodcastWithEpisodes>,
}

/// `GET /api/v1/episodes/{episodeId}/details`. SDK: `GetEpisodeDetailsByIdResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EpisodeDetailsResponse {
    pub episode: Episode,
}

/// The query echoed by the episode listing. SDK: `GetPodcastEpisodesResponseOptions`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastEpisodesOptions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_transcript: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
}

/// `GET /api/v1/podcasts/{id}/episodes`. SDK: `GetPodcastEpisodesResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastEpisodesResponse {
    pub options: PodcastEpisodesOptions,
    pub total_episodes: u64,
    pub total_transcripts: u64,
    pub podcast_with_episodes: PodcastWithEpisodes,
}

/// Transcript text of one episode.
/// SDK: `GetEpisodeTranscriptTextResponseEpisodeTranscriptText`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptText {
    pub podcast_id: String,
    pub episode_id: String,
    pub transcript_id: String,
    pub text: Option<String>,
}

/// `GET /api/v1/episodes/{id}/transcript-text`. SDK: `GetEpisodeTranscriptTextResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptTextResponse {
    pub episode_transcript_text: TranscriptText,
}

/// One timed sentence of a transcript.
/// SDK: `GetEpisodeTranscriptTimestampsResponseSentencesItem`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptSentence {
    pub text: String,
    pub start_second: f64,
    pub end_second: f64,
}

/// Timed sentences of one episode. SDK: `GetEpisodeTranscriptTimestampsResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptTimestampsResponse {
    pub episode_id: String,
    pub podcast_id: String,
    pub sentences: Vec<TranscriptSentence>,
}
