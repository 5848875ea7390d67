//! Usage metering and transcription requests.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::Timestamp;
use crate::enums::{RequestType, TranscriptionRequestStatus};

/// Usage of one user on one day, by counter (SPEC.md §3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UsageRecord {
    pub date: NaiveDate,
    pub ai_assist_count: u64,
    pub contacts_requested_count: u64,
    pub csv_export_count: u64,
    pub search_count: u64,
    pub transcript_download_count: u64,
    pub transcription_requests: u64,
}

/// Usage on one day by usage alias. SDK: `GetDailyResponseDaysItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UsageDay {
    /// `YYYY-MM-DD`.
    pub date: NaiveDate,
    pub total_usage: u64,
    pub usage_by_alias: BTreeMap<String, u64>,
}

/// `GET /api/v1/users/usage/daily`. SDK: `GetDailyResponse`; a null limit is unlimited.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DailyUsageResponse {
    pub days: Vec<UsageDay>,
    pub limits: BTreeMap<String, Option<u64>>,
}

/// Usage in one billing month. SDK: `GetMonthlyResponseMonthsItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UsageMonth {
    pub period_start: Timestamp,
    pub period_end: Timestamp,
    pub total_usage: u64,
    pub usage_by_alias: BTreeMap<String, u64>,
}

/// `GET /api/v1/users/usage/monthly`. SDK: `GetMonthlyResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MonthlyUsageResponse {
    pub months: Vec<UsageMonth>,
    pub limits: BTreeMap<String, Option<u64>>,
}

/// A transcription (or other) request and where it stands.
/// SDK: `GetTranscriptionRequestsResponseRequestsItemVariant1..3`: episode
/// requests (transcription, deepAnalysis, diarization) carry the episode's id,
/// slug, title and image; guestPrep and autoOutreach carry nulls there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptionRequest {
    pub podcast_title: String,
    pub podcast_image_url: Option<String>,
    pub podcast_id: String,
    pub podcast_slug: String,
    pub requested_at: Timestamp,
    pub requested_by_user_id: Option<String>,
    /// When the work finished (the spec's transcribedAt).
    pub completed_at: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_reason: Option<String>,
    pub request_type: RequestType,
    pub episode_id: Option<String>,
    pub episode_title: Option<String>,
    pub episode_image_url: Option<String>,
    pub episode_slug: Option<String>,
    /// SPEC.md §3 status; derived from `completedAt` (ignored by the SDK).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<TranscriptionRequestStatus>,
}

impl TranscriptionRequest {
    /// Completed once `completedAt` is set, not started before.
    pub fn derived_status(&self) -> TranscriptionRequestStatus {
        match self.completed_at {
            Some(_) => TranscriptionRequestStatus::Completed,
            None => TranscriptionRequestStatus::NotStarted,
        }
    }

    /// Whether the request concerns one episode, so the episode fields must be set.
    pub fn is_episode_request(&self) -> bool {
        matches!(
            self.request_type,
            RequestType::Transcription | RequestType::DeepAnalysis | RequestType::Diarization
        )
    }

    /// Whether the SDK accepts this request: episode requests need an episode id and slug.
    pub fn has_required_episode_fields(&self) -> bool {
        !self.is_episode_request() || (self.episode_id.is_some() && self.episode_slug.is_some())
    }
}

/// `GET /api/v1/users/usage/transcription-requests`. SDK: `GetTranscriptionRequestsResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptionRequestsResponse {
    pub total_requests: u64,
    pub requests: Vec<TranscriptionRequest>,
}

/// A response that only says something: `data.message`.
/// SDK: `RequestEpisodeTranscriptionResponse` and other message responses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageResponse {
    pub message: String,
}
