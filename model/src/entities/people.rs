//! Guests and sponsors heard on a podcast.

use serde::{Deserialize, Serialize};

use super::{PodcastSummary, Timestamp};
use crate::enums::{PersonType, SponsorType};

/// A person who appeared on a podcast.
/// SDK: `GetPodcastAllDetailsResponsePodcastGuestsGuestsItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastGuest {
    pub name: String,
    #[serde(rename = "type")]
    pub person_type: PersonType,
    pub image_url: Option<String>,
    pub appearances_count: u64,
    pub most_recent_appearance_date: Timestamp,
    pub oldest_appearance_date: Timestamp,
}

/// The guests of a podcast and the episode counts behind them.
/// SDK: `GetPodcastGuestsResponseGuests`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastGuests {
    pub episodes_count: u64,
    pub episodes_with_guests_count: u64,
    pub most_recent_episode_date: Option<Timestamp>,
    pub oldest_episode_date: Option<Timestamp>,
    pub guests: Vec<PodcastGuest>,
}

/// `GET /api/v1/podcasts/{id}/guests`. SDK: `GetPodcastGuestsResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastGuestsResponse {
    pub podcast: PodcastSummary,
    pub guests: PodcastGuests,
}

/// A sponsor heard on a podcast.
/// SDK: `GetPodcastAllDetailsResponsePodcastSponsorsSponsorsItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastSponsor {
    pub name: String,
    pub image_url: Option<String>,
    pub appearances_count: u64,
    pub most_recent_appearance_date: Timestamp,
    pub oldest_appearance_date: Timestamp,
    /// The kind of sponsorship (SPEC.md §3; not in the SDK's class, which ignores it).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub sponsor_type: Option<SponsorType>,
}

/// The sponsors of a podcast and the episode counts behind them.
/// SDK: `GetPodcastSponsorsResponseSponsors`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastSponsors {
    pub episodes_count: u64,
    pub episodes_with_sponsors_count: u64,
    pub most_recent_episode_date: Option<Timestamp>,
    pub oldest_episode_date: Option<Timestamp>,
    pub sponsors: Vec<PodcastSponsor>,
}

/// `GET /api/v1/podcasts/{id}/sponsors`. SDK: `GetPodcastSponsorsResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastSponsorsResponse {
    pub podcast: PodcastSummary,
    pub sponsors: PodcastSponsors,
}
