//! Podcasts: the summary, the full record and its parts, and the second summary form.

use serde::{Deserialize, Serialize};

use super::Timestamp;
use crate::enums::{
    AffiliationType, AgeRange, EducationLevel, GenderSkew, IncomeLevel, ListenersBucket,
    SocialLinkSource, TranscriptionModeKind, UpdateFrequency,
};
use crate::kinds::{DirectoryKind, SocialKind};

/// The compact authority score carried by every podcast summary.
/// SDK: `GetChartResponseChartPositionsItemPodenginePodcastAuthorityScore`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AuthorityScoreSummary {
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub calculated_at: Timestamp,
    pub authority_score: f64,
    pub quality_score: f64,
    pub youtube_score: f64,
    pub social_score: f64,
    pub engagement_score: f64,
}

/// Podcast summary: id, slug, title, author, genres, image, language, last episode.
/// SDK: `GetLatestEpisodesResponseLatestPodcastsItemPodcast` (the same shape is
/// `GetChartResponseChartPositionsItemPodenginePodcast`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastSummary {
    pub author: Option<String>,
    pub authority_score: Option<AuthorityScoreSummary>,
    pub genres: Vec<String>,
    pub id: String,
    pub image_url: Option<String>,
    pub language: String,
    pub last_episode_published_at: Option<Timestamp>,
    pub slug: String,
    pub title: String,
    /// The feed's current title (`title` is the title the podcast was first seen with).
    pub title_latest: String,
}

/// The organisation behind a podcast.
/// SDK: `GetMultiplePodcastsResponsePodcastsItemVariant2PodcastAffiliation`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastAffiliation {
    #[serde(default)]
    pub affiliate_organization_name: Option<String>,
    #[serde(default)]
    pub affiliation_type: Option<AffiliationType>,
}

/// A social profile of a podcast and where it was found.
/// SDK: `GetMultiplePodcastsResponsePodcastsItemVariant2SocialMediaLinksItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SocialMediaLink {
    pub social_media_type: SocialKind,
    pub url: String,
    pub sources: Vec<SocialLinkSource>,
}

/// Publishing statistics of a podcast.
/// SDK: `GetMultiplePodcastsResponsePodcastsItemVariant2Stats`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastStats {
    pub download_count: u64,
    pub episode_count: u64,
    pub latest_published_at: Option<Timestamp>,
    pub first_episode_published_at: Option<Timestamp>,
    pub transcripts_count: u64,
    /// Episodes whose feed links a transcript that Podlens does not hold (yet): the
    /// fetch failed and is retried by re-polls with a backoff, up to a cap.
    #[serde(default)]
    pub transcripts_unavailable: u64,
    pub update_frequency: UpdateFrequency,
}

/// Which episodes of a podcast are transcribed. `episodes-since` always carries
/// its start date; the other modes carry none.
/// SDK: `GetMultiplePodcastsResponsePodcastsItemVariant2TranscriptionModeVariant1..3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "TranscriptionModeWire", into = "TranscriptionModeWire")]
pub enum TranscriptionMode {
    None,
    All,
    EpisodesSince(Timestamp),
}

impl TranscriptionMode {
    /// The mode's wire name.
    pub fn kind(self) -> TranscriptionModeKind {
        match self {
            TranscriptionMode::None => TranscriptionModeKind::None,
            TranscriptionMode::All => TranscriptionModeKind::All,
            TranscriptionMode::EpisodesSince(_) => TranscriptionModeKind::EpisodesSince,
        }
    }
}

/// The wire form of [`TranscriptionMode`]: `{mode, transcribeSince}`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct TranscriptionModeWire {
    mode: TranscriptionModeKind,
    #[serde(default)]
    transcribe_since: Option<Timestamp>,
}

impl TryFrom<TranscriptionModeWire> for TranscriptionMode {
    type Error = String;

    fn try_from(wire: TranscriptionModeWire) -> Result<Self, Self::Error> {
        match (wire.mode, wire.transcribe_since) {
            (TranscriptionModeKind::None, _) => Ok(TranscriptionMode::None),
            (TranscriptionModeKind::All, _) => Ok(TranscriptionMode::All),
            (TranscriptionModeKind::EpisodesSince, Some(since)) => {
                Ok(TranscriptionMode::EpisodesSince(since))
            }
            (TranscriptionModeKind::EpisodesSince, None) => {
                Err("transcription mode episodes-since requires transcribeSince".to_owned())
            }
        }
    }
}

impl From<TranscriptionMode> for TranscriptionModeWire {
    fn from(mode: TranscriptionMode) -> Self {
        let transcribe_since = match mode {
            TranscriptionMode::EpisodesSince(since) => Some(since),
            TranscriptionMode::None | TranscriptionMode::All => None,
        };
        TranscriptionModeWire {
            mode: mode.kind(),
            transcribe_since,
        }
    }
}

/// Why a podcast is hidden from the catalog.
/// SDK: `GetMultiplePodcastsResponsePodcastsItemVariant2Blocked`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastBlock {
    pub blocked_date: Timestamp,
    #[serde(default)]
    pub blocked_reason: Option<String>,
}

/// Who listens to a podcast or an episode, as brackets.
/// SDK: `GetLatestEpisodesResponseLatestPodcastsItemEpisodesItemAudienceEstimateAudienceDemographics`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AudienceDemographics {
    pub age_range: AgeRange,
    pub gender_skew: GenderSkew,
    pub education_level: EducationLevel,
    pub income_level: IncomeLevel,
    pub example_listener_profile: String,
}

/// How many people listen. SDK:
/// `GetLatestEpisodesResponseLatestPodcastsItemEpisodesItemAudienceEstimate` (the
/// podcast form adds optional fields with defaults, left out here).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AudienceEstimate {
    pub audience_demographics: Option<AudienceDemographics>,
    pub estimated_monthly_listeners: Option<u64>,
    #[serde(default)]
    pub estimated_monthly_listeners_bucket: Option<ListenersBucket>,
    /// Spelled `Monthy` on the wire, as the SDK spells it.
    pub estimated_monthy_listeners_calculated_at: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_dormant: Option<bool>,
}

/// Full podcast record: the summary plus identifiers, contacts, links, stats and modes.
/// SDK: `GetMultiplePodcastsResponsePodcastsItemVariant2` (the `podcast` of
/// `GetPodcastResponse` and `GetPodcastAllDetailsResponsePodcast`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Podcast {
    #[serde(flatten)]
    pub summary: PodcastSummary,
    /// Apple Podcasts id; the SDK requires an integer, so 0 stands for "not listed".
    pub apple_id: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocked: Option<PodcastBlock>,
    pub description: Option<String>,
    pub emails: Vec<String>,
    pub explicit_rss: Option<bool>,
    pub host_names: Option<Vec<String>>,
    pub ignore: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ignore_reason: Option<String>,
    pub is_claimed: bool,
    pub podcast_affiliation: Option<PodcastAffiliation>,
    pub podcast_directory_links: PodcastDirectoryLinks,
    pub podcast_has_guests: Option<bool>,
    pub podcast_has_sponsors: Option<bool>,
    pub podcast_locations: Option<Vec<String>>,
    pub primary_contact_email: Option<String>,
    pub rss_feed_url: String,
    pub social_media_links: Vec<SocialMediaLink>,
    pub spotify_id: Option<String>,
    pub stats: PodcastStats,
    pub title_latest_cleaned: Option<String>,
    pub transcription_mode: TranscriptionMode,
    pub website_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience_estimate: Option<AudienceEstimate>,
}

/// `GET /api/v1/podcasts/{podcastIdOrSlug}`. SDK: `GetPodcastResponse` (its
/// optional `platforms` is not produced).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastResponse {
    pub podcast: Podcast,
}

/// `GET /api/v1/podcasts/id/lookup`. SDK: `GetPodcastIdLookupResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastLookupResponse {
    pub podcast: Option<PodcastSummary>,
}

/// `GET /api/v1/podcasts/latest`. SDK: `GetLatestPodcastsResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LatestPodcastsResponse {
    pub podcasts: Vec<PodcastSummary>,
}

/// Podcasts similar to one podcast.
/// SDK: `GetPodcastRelatedPodcastsResponseRelatedPodcasts`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RelatedPodcasts {
    pub podcast_id: String,
    pub similar_podcasts: Vec<PodcastSummary>,
}

/// `GET /api/v1/podcasts/{id}/related-podcasts`. SDK: `GetPodcastRelatedPodcastsResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RelatedPodcastsResponse {
    pub podcast: PodcastSummary,
    pub related_podcasts: RelatedPodcasts,
}

/// A network a podcast belongs to (second summary form).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastNetwork {
    pub id: String,
    pub title: String,
    pub verified: bool,
}

/// Podcast summary, second form (directory and listing pages): ids on the
/// directories, owner, power score, ratings and networks. Not an SDK class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastOverview {
    pub id: String,
    pub title: String,
    pub itunes_id: Option<u64>,
    pub spotify_id: Option<String>,
    pub slug: String,
    pub owner_name: Option<String>,
    pub power_score: Option<f64>,
    pub has_guests: Option<bool>,
    pub rating_count: Option<u64>,
    pub first_episode_date: Option<Timestamp>,
    pub latest_episode_date: Option<Timestamp>,
    pub rating: Option<f64>,
    pub networks: Vec<PodcastNetwork>,
}

macro_rules! directory_links {
    ($($field:ident),+ $(,)?) => {
        /// A podcast's page on each podcast directory, keyed by directory name.
        /// SDK: `GetMultiplePodcastsResponsePodcastsItemVariant2PodcastDirectoryLinks`
        /// (45 keys: the spec's 24 directory kinds and 21 more apps the SDK knows).
        #[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
        pub struct PodcastDirectoryLinks {
            $(
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $field: Option<String>,
            )+
        }

        impl PodcastDirectoryLinks {
            /// Every key the wire accepts, in the SDK's (alphabetical) order.
            pub const KEYS: &'static [&'static str] = &[$(stringify!($field)),+];

            /// The link stored under a wire key, if any.
            pub fn by_key(&self, key: &str) -> Option<&str> {
                match key {
                    $(stringify!($field) => self.$field.as_deref(),)+
                    _ => None,
                }
            }

            /// Stores a link under a wire key; unknown keys are an error.
            pub fn set_by_key(&mut self, key: &str, url: String) -> Result<(), String> {
                match key {
                    $(stringify!($field) => { self.$field = Some(url); Ok(()) })+
                    _ => Err(format!("unknown podcast directory {key:?}")),
                }
            }
        }
    };
}

directory_links! {
    amazonmusic, anchor, antennapod, anytimeplayer, apollo, apple, audible, breez,
    castamatic, castbox, castro, curiocaster, fountain, goodpods, google, gpodder,
    iheartradio, listennotes, lnbeats, moonfm, overcast, playerfm, pocketcasts, podbean,
    podcastaddict, podcastguru, podcastrepublic, podchaser, podfriend, podknife, podlp,
    podnews, podscan, podscribe, podstation, podurama, podverse, radiopublic, rephonic,
    sonnet, spotify, stenofm, truefans, tunein, youtubemusic,
}

impl PodcastDirectoryLinks {
    /// The link for one of the spec's directory kinds.
    pub fn get(&self, kind: DirectoryKind) -> Option<&str> {
        self.by_key(kind.as_str())
    }

    /// Stores the link for one of the spec's directory kinds.
    pub fn set(&mut self, kind: DirectoryKind, url: String) {
        // Every DirectoryKind is one of KEYS (checked by a test), so this cannot fail.
        let _ = self.set_by_key(kind.as_str(), url);
    }

    /// The links present, as (key, url) pairs in key order.
    pub fn present(&self) -> Vec<(&'static str, &str)> {
        Self::KEYS
            .iter()
            .filter_map(|key| self.by_key(key).map(|url| (*key, url)))
            .collect()
    }
}
