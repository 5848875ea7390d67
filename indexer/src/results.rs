//! What a search returns.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// A podcast hit with the stored fields a result list needs (the API enriches the rest
/// from the catalog by id).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastHit {
    pub podcast_id: Uuid,
    pub slug: String,
    pub title: String,
    pub author: Option<String>,
    pub description: Option<String>,
    pub image_url: Option<String>,
    pub language: Option<String>,
    pub genres: Vec<String>,
    pub host_names: Vec<String>,
    pub founded_date: Option<DateTime<Utc>>,
    pub last_episode_date: Option<DateTime<Utc>>,
    pub total_episodes: u64,
    pub score: f32,
    /// The score breakdown, as tantivy's explanation JSON (when requested).
    pub explanation: Option<serde_json::Value>,
    /// The fields above were read from the index; `false` for a search that asked for
    /// ids alone (`SearchRequest::podcast_fields`): only `podcast_id` and `score` hold.
    #[serde(default)]
    pub stored: bool,
}

impl PodcastHit {
    /// The hit of a search that asked for ids alone: the id and score, nothing read.
    pub fn unread(podcast_id: Uuid, score: f32) -> PodcastHit {
        PodcastHit {
            podcast_id,
            slug: String::new(),
            title: String::new(),
            author: None,
            description: None,
            image_url: None,
            language: None,
            genres: Vec::new(),
            host_names: Vec::new(),
            founded_date: None,
            last_episode_date: None,
            total_episodes: 0,
            score,
            explanation: None,
            stored: false,
        }
    }
}

/// A transcript passage that matched, with highlights and its place in the audio.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptSnippet {
    /// `<transcriptId>:<ordinal>`.
    pub chunk_id: String,
    pub fragment: String,
    /// Byte ranges of `fragment` to highlight.
    pub highlights: Vec<(usize, usize)>,
    /// `fragment` HTML-escaped, with the highlights in `<em>` tags.
    pub html: String,
    pub start_second: Option<f64>,
    pub end_second: Option<f64>,
}

/// An episode hit with the always-returned episode fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EpisodeHit {
    pub episode_id: Uuid,
    pub podcast_id: Uuid,
    pub podcast_title: Option<String>,
    pub slug: String,
    pub title: String,
    pub description: Option<String>,
    pub enclosure_url: Option<String>,
    pub image_url: Option<String>,
    pub web_url: Option<String>,
    pub published_at: Option<DateTime<Utc>>,
    /// When the catalog first saw the episode (the date to show for an undated item).
    pub first_seen_at: Option<DateTime<Utc>>,
    pub duration_seconds: Option<u64>,
    pub has_transcript: bool,
    pub transcript_id: Option<Uuid>,
    /// The start of the transcript (its first chunk, cut at a word), when the request
    /// asks for it ([`crate::SearchRequest::transcript_start_chars`]).
    pub transcript_start: Option<String>,
    pub score: f32,
    pub snippets: Vec<TranscriptSnippet>,
    pub explanation: Option<serde_json::Value>,
}

/// The hits of one page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "mode", content = "hits", rename_all = "camelCase")]
pub enum Hits {
    Podcasts(Vec<PodcastHit>),
    Episodes(Vec<EpisodeHit>),
}

/// Where the time went.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Timings {
    pub search_ms: f64,
    pub post_processing_ms: f64,
    pub total_ms: f64,
}

/// One page of results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchResponse {
    pub hits: Hits,
    /// Every match of the query and filters (exact, not capped).
    pub total: u64,
    /// The cursor of the next page; `None` on the last page.
    pub next_cursor: Option<String>,
    pub generation: u64,
    pub timings: Timings,
}

impl SearchResponse {
    /// The hits' ids in order (podcast or episode ids).
    pub fn ids(&self) -> Vec<Uuid> {
        match &self.hits {
            Hits::Podcasts(hits) => hits.iter().map(|hit| hit.podcast_id).collect(),
            Hits::Episodes(hits) => hits.iter().map(|hit| hit.episode_id).collect(),
        }
    }
}
