//! Contact details of a podcast: emails, phone numbers and websites.

use serde::{Deserialize, Serialize};

use super::{PodcastSummary, Timestamp};
use crate::enums::EmailDeliverability;

/// A contact email and what is known about its deliverability.
/// SDK: `GetPodcastAllDetailsResponsePodcastContactsEmailsItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContactEmail {
    pub email: String,
    pub verified_at: Option<Timestamp>,
    pub syntax_valid: Option<bool>,
    pub mx_valid: Option<bool>,
    pub deep_verified_at: Option<Timestamp>,
    pub deliverability_status: Option<EmailDeliverability>,
    pub deliverability_reason: Option<String>,
    pub is_free_email_provider: Option<bool>,
    pub suggested_correction: Option<String>,
}

impl ContactEmail {
    /// An address found on a page or in a feed, not yet checked.
    pub fn unverified(email: impl Into<String>) -> Self {
        ContactEmail {
            email: email.into(),
            verified_at: None,
            syntax_valid: None,
            mx_valid: None,
            deep_verified_at: None,
            deliverability_status: None,
            deliverability_reason: None,
            is_free_email_provider: None,
            suggested_correction: None,
        }
    }
}

/// A website of the podcast and its contact pages.
/// SDK: `GetPodcastAllDetailsResponsePodcastContactsWebsitesItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContactWebsite {
    pub url: String,
    pub verified: bool,
    pub contact_urls: Vec<String>,
}

/// Contacts: emails, phone numbers, websites.
/// SDK: `GetPodcastContactsResponsePodcastContacts`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastContacts {
    pub podcast_id: String,
    pub emails: Vec<ContactEmail>,
    pub phone_numbers: Vec<String>,
    pub websites: Vec<ContactWebsite>,
}

/// `GET /api/v1/podcasts/{id}/contacts`. SDK: `GetPodcastContactsResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastContactsResponse {
    pub podcast: PodcastSummary,
    pub podcast_contacts: PodcastContacts,
}
