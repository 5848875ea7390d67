//! Follower and following counts per social platform, and YouTube channels.

use serde::{Deserialize, Serialize};

use super::{PodcastSummary, SocialMediaLink, Timestamp};

/// A Facebook page. SDK: `GetPodcastAllDetailsResponsePodcastSocialMediaFacebookPageDataItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FacebookPageData {
    pub facebook_page_id: String,
    pub profile_photo_url: Option<String>,
    pub name: String,
    pub followers: u64,
    pub likes: u64,
    pub following: u64,
    pub talking_about_count: Option<u64>,
    pub facebook_page_url: String,
    pub scraped_at: Timestamp,
}

/// An Instagram profile. SDK: `GetPodcastAllDetailsResponsePodcastSocialMediaInstagramDataItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InstagramData {
    pub profile_id: u64,
    pub followers: u64,
    pub following: u64,
    pub posts: u64,
    pub instagram_profile_name: String,
    pub profile_photo_url: Option<String>,
    pub scraped_at: Timestamp,
}

/// A company's latest LinkedIn post. SDK:
/// `GetPodcastAllDetailsResponsePodcastSocialMediaLinkedInCompanyDataItemMostRecentUpdate`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LinkedInPost {
    pub post_id: String,
    pub likes_count: u64,
    pub comments_count: u64,
    pub title: String,
    pub text: String,
    pub post_url: String,
    pub date: Timestamp,
}

/// A LinkedIn company page.
/// SDK: `GetPodcastAllDetailsResponsePodcastSocialMediaLinkedInCompanyDataItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LinkedInCompanyData {
    pub scraped_at: Timestamp,
    pub linked_in_company_id: String,
    pub linked_in_url: String,
    pub name: String,
    pub country_code: Option<String>,
    pub followers: Option<u64>,
    pub employees_in_linkedin: u64,
    pub about: Option<String>,
    pub description: Option<String>,
    pub company_size: Option<String>,
    pub industries: Option<String>,
    pub logo_image_url: Option<String>,
    pub most_recent_update: Option<LinkedInPost>,
}

/// A LinkedIn person profile.
/// SDK: `GetPodcastAllDetailsResponsePodcastSocialMediaLinkedInPersonDataItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LinkedInPersonData {
    pub scraped_at: Timestamp,
    pub name: String,
    pub profile_photo_url: Option<String>,
    pub linked_in_profile_id: String,
    pub linked_in_numeric_id: u64,
    pub avatar_url: Option<String>,
    pub city: Option<String>,
    pub country_code: Option<String>,
    pub description: Option<String>,
    pub about: Option<String>,
    pub location: Option<String>,
    pub follower_count: u64,
    pub connections_count: u64,
    pub recommendations_count: u64,
}

/// A TikTok account. SDK: `GetPodcastAllDetailsResponsePodcastSocialMediaTiktokDataItem`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TiktokData {
    pub account_id: String,
    /// Spelled `awg` on the wire, as the SDK spells it.
    pub awg_engagement_rate: Option<f64>,
    pub biography: Option<String>,
    pub comment_engagement_rate: Option<f64>,
    pub date_joined: Timestamp,
    pub followers: u64,
    pub following: u64,
    pub is_private: bool,
    pub is_verified: bool,
    pub like_engagement_rate: Option<f64>,
    pub likes: u64,
    pub nickname: String,
    pub handle: String,
    pub profile_pic_url: Option<String>,
    pub videos_count: u64,
    pub scraped_at: Timestamp,
}

/// A Twitter/X profile. SDK: `GetPodcastAllDetailsResponsePodcastSocialMediaTwitterDataItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TwitterData {
    pub profile_id: String,
    pub profile_name: String,
    pub profile_url: String,
    pub profile_image_url: Option<String>,
    pub biography: Option<String>,
    pub following_count: u64,
    pub follower_count: u64,
    pub posts_count: u64,
    pub date_joined: Option<Timestamp>,
    pub scraped_at: Timestamp,
}

/// Social data per platform for one podcast.
/// SDK: `GetPodcastSocialMediaDetailsResponseSocialMediaData`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastSocialMedia {
    pub podcast_id: String,
    pub social_media_links: Vec<SocialMediaLink>,
    pub facebook_page_data: Vec<FacebookPageData>,
    pub instagram_data: Vec<InstagramData>,
    pub linked_in_company_data: Vec<LinkedInCompanyData>,
    pub linked_in_person_data: Vec<LinkedInPersonData>,
    pub tiktok_data: Vec<TiktokData>,
    pub twitter_data: Vec<TwitterData>,
}

/// `GET /api/v1/podcasts/{id}/social-media`. SDK: `GetPodcastSocialMediaDetailsResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastSocialMediaResponse {
    pub podcast: PodcastSummary,
    pub social_media_data: PodcastSocialMedia,
}

/// Channel artwork. SDK: `GetPodcastAllDetailsResponsePodcastYoutubeDataYoutubeDataItemThumbnails`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct YoutubeThumbnails {
    pub default: Option<String>,
    pub medium: Option<String>,
    pub high: Option<String>,
}

/// One video of a channel.
/// SDK: `GetPodcastAllDetailsResponsePodcastYoutubeDataYoutubeDataItemVideosItem`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct YoutubeVideo {
    pub image_url: String,
    pub is_short: bool,
    pub posted_at: Timestamp,
    pub posted_at_relative: String,
    pub scraped_at: Timestamp,
    pub title: String,
    pub video_url: String,
    pub views: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_seconds: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub like_count: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment_count: Option<u64>,
}

/// A YouTube channel of a podcast: subscribers and views.
/// SDK: `GetPodcastAllDetailsResponsePodcastYoutubeDataYoutubeDataItem`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct YoutubeChannel {
    pub id: String,
    pub title: String,
    pub description: Option<String>,
    pub subscriber_count: u64,
    pub view_count: u64,
    pub video_count: u64,
    pub published_at: Option<Timestamp>,
    pub thumbnails: YoutubeThumbnails,
    pub country: Option<String>,
    pub custom_url: Option<String>,
    pub links: Option<Vec<String>>,
    pub is_podcast_channel: Option<bool>,
    pub discover_input_keyword: Option<String>,
    pub banner_image_url: Option<String>,
    pub videos: Option<Vec<YoutubeVideo>>,
    pub profile_image_url: Option<String>,
    pub data_last_updated: Timestamp,
    pub last_video_upload_date: Option<Timestamp>,
    pub last_video_upload_date_source: Option<String>,
    pub last_video_upload_date_checked_at: Option<Timestamp>,
}

/// YouTube channels of one podcast. SDK: `GetPodcastYoutubeDetailsResponseYoutubeData`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastYoutubeData {
    pub podcast_id: String,
    pub youtube_data: Vec<YoutubeChannel>,
}
