//! The catalog's records: what `ingest` produces from a feed, what `data` stores in
//! DuckDB and snapshots to Parquet, and what `indexer` reads back. Field names on the
//! wire (and Parquet column names) are the specification's search-field API names.
//!
//! Identifiers are deterministic UUID v5 values, so re-ingesting a feed updates its rows
//! instead of duplicating them: a podcast's id comes from its `podcast:guid` when the
//! feed has one, else from its normalised feed URL; an episode's id from its podcast's id
//! and its item guid (or enclosure URL, or title and date, when the guid is missing).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// Namespace of every Podlens UUID v5.
pub const ID_NAMESPACE: Uuid = Uuid::from_u128(0x8f3c_2a71_5b0e_4c1d_9a6f_2e7b_4d1c_0a93);

/// The id of a podcast from its `podcast:guid`, or from its feed URL when it has none.
pub fn podcast_id(podcast_guid: Option<&str>, feed_url: &str) -> Uuid {
    match podcast_guid.map(str::trim).filter(|guid| !guid.is_empty()) {
        Some(guid) => Uuid::new_v5(
            &ID_NAMESPACE,
            format!("guid:{}", guid.to_lowercase()).as_bytes(),
        ),
        None => Uuid::new_v5(
            &ID_NAMESPACE,
            format!("feed:{}", normalize_feed_url(feed_url)).as_bytes(),
        ),
    }
}

/// The id of an episode of `podcast_id` from its item key (guid, else enclosure URL,
/// else title and date).
pub fn episode_id(podcast_id: Uuid, item_key: &str) -> Uuid {
    Uuid::new_v5(&podcast_id, item_key.trim().as_bytes())
}

/// The id of a transcript of an episode, from the transcript's URL or file name.
pub fn transcript_id(episode_id: Uuid, source: &str) -> Uuid {
    Uuid::new_v5(&episode_id, format!("transcript:{source}").as_bytes())
}

/// A feed URL in the form used for identity: scheme and host lowercased, no fragment,
/// no trailing slash, `feed://` and `itpc://` read as `http://`.
pub fn normalize_feed_url(url: &str) -> String {
    let trimmed = url.trim();
    let rewritten = ["feed://", "itpc://", "pcast://"]
        .iter()
        .find_map(|scheme| {
            trimmed
                .get(..scheme.len())
                .filter(|head| head.eq_ignore_ascii_case(scheme))
                .map(|_| format!("http://{}", &trimmed[scheme.len()..]))
        })
        .unwrap_or_else(|| trimmed.to_owned());
    match url::Url::parse(&rewritten) {
        Ok(mut parsed) => {
            parsed.set_fragment(None);
            let text = parsed.to_string();
            text.strip_suffix('/').map(str::to_owned).unwrap_or(text)
        }
        Err(_) => rewritten,
    }
}

/// A podcast as read from its feed (and later enriched by the crawler and scoring).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastRecord {
    pub podcast_id: Uuid,
    pub podcast_slug: String,
    /// The `podcast:guid`, when the feed declares one.
    pub podcast_guid: Option<String>,
    pub podcast_rss_feed_url: String,
    pub podcast_rss_title: String,
    pub podcast_rss_author: Option<String>,
    /// Sanitized HTML (safe to render).
    pub podcast_rss_description: Option<String>,
    pub podcast_rss_description_no_html: Option<String>,
    pub podcast_website_url: Option<String>,
    pub podcast_image_url: Option<String>,
    /// Lowercased language tag from the feed, e.g. `en` or `en-us`.
    pub rss_language: Option<String>,
    /// iTunes categories and subcategories, as written in the feed.
    pub rss_categories: Vec<String>,
    /// Lowercased genres derived from the categories.
    pub podcast_podlens_genres: Vec<String>,
    pub podcast_keywords: Vec<String>,
    pub explicit_rss: bool,
    pub podcast_owner_name: Option<String>,
    pub podcast_owner_email: Option<String>,
    pub podcast_host_names: Vec<String>,
    pub podcast_has_guests: bool,
    /// `episodic` or `serial`.
    pub podcast_type: Option<String>,
    /// `podcast`, `music`, `video`, … (`podcast:medium`).
    pub podcast_medium: Option<String>,
    pub podcast_locked: bool,
    pub podcast_blocked: bool,
    pub podcast_complete: bool,
    pub podcast_location: Option<String>,
    pub podcast_funding_urls: Vec<String>,
    pub podcast_has_value: bool,
    pub apple_id: Option<String>,
    pub spotify_id: Option<String>,
    pub founded_date: Option<DateTime<Utc>>,
    pub last_episode_date: Option<DateTime<Utc>>,
    pub total_episodes: i64,
    pub total_transcripts: i64,
    /// daily, weekly, bi-weekly, monthly or stale (see `UpdateFrequency`).
    pub update_frequency: Option<String>,
    /// The feed generator (`<generator>`), for the RSS stats.
    pub rss_generator: Option<String>,
    /// Podcasting 2.0 / iTunes tags present in the feed (e.g. `podcast:transcript`),
    /// counted once per feed for the RSS public stats.
    pub rss_tags: Vec<String>,
    pub updated_at: DateTime<Utc>,
}

/// Everything one feed yields: its podcast, its episodes and its persons. This is what
/// `ingest` hands to `data::Catalog::upsert_feed`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FeedBatch {
    pub podcast: PodcastRecord,
    pub episodes: Vec<EpisodeRecord>,
    pub persons: Vec<PersonRecord>,
    /// What the feed says about polling it (not stored in the catalog: the feed
    /// scheduler keeps it).
    #[serde(default)]
    pub polling: FeedPolling,
}

/// What a feed says about how to follow it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FeedPolling {
    /// The WebSub hub it declares (`atom:link rel="hub"`), with the topic to
    /// subscribe to (its `rel="self"` address, else the feed's own).
    pub hub: Option<String>,
    pub topic: Option<String>,
    /// The publishing period it declares, in seconds: `podcast:updateFrequency`'s
    /// rule, else `sy:updatePeriod` divided by `sy:updateFrequency`.
    pub declared_period_seconds: Option<i64>,
    /// `podcast:updateFrequency complete="true"` or `itunes:complete`: no new episodes
    /// are expected.
    pub complete: bool,
}

/// One episode (`<item>` or `<entry>`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EpisodeRecord {
    pub episode_id: Uuid,
    pub podcast_id: Uuid,
    pub episode_slug: String,
    pub episode_guid: Option<String>,
    pub episode_rss_title: String,
    /// Sanitized HTML (safe to render).
    pub episode_rss_description: Option<String>,
    pub episode_rss_description_no_html: Option<String>,
    pub episode_enclosure_url: Option<String>,
    pub episode_enclosure_type: Option<String>,
    pub episode_enclosure_length: Option<i64>,
    pub episode_image_url: Option<String>,
    pub episode_web_url: Option<String>,
    pub episode_rss_published_at: Option<DateTime<Utc>>,
    pub episode_duration_seconds: Option<i64>,
    pub episode_season: Option<i64>,
    pub episode_number: Option<i64>,
    /// `full`, `trailer` or `bonus`.
    pub episode_type: Option<String>,
    pub episode_explicit: Option<bool>,
    pub episode_keywords: Vec<String>,
    /// Transcript links declared by the feed (`podcast:transcript`).
    pub episode_transcript_urls: Vec<TranscriptLink>,
    pub episode_chapters_url: Option<String>,
    /// Podcasting 2.0 / iTunes tags present in the item (e.g. `podcast:chapters`),
    /// counted once per episode for the RSS public stats.
    #[serde(default)]
    pub episode_rss_tags: Vec<String>,
    pub episode_has_transcript: bool,
    pub transcript_id: Option<Uuid>,
    pub episode_podcast_title_denormalized: String,
    pub episode_created_at: DateTime<Utc>,
    pub episode_updated_at: DateTime<Utc>,
}

/// A `podcast:transcript` link of an episode.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptLink {
    pub url: String,
    /// MIME type, e.g. `text/vtt`, `application/x-subrip`, `application/json`, `text/html`.
    pub mime_type: String,
    pub language: Option<String>,
    pub rel: Option<String>,
}

/// A person of a podcast or an episode (`podcast:person`, iTunes author/owner).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonRecord {
    pub podcast_id: Uuid,
    /// `None` for a channel-level person.
    pub episode_id: Option<Uuid>,
    pub name: String,
    /// `host`, `guest` or `unknown` (Podcasting 2.0 roles other than these map to
    /// `unknown` here; the raw role is kept in `role`).
    pub person_type: String,
    pub role: Option<String>,
    pub group: Option<String>,
    pub image_url: Option<String>,
    pub href: Option<String>,
}

/// A sponsor or advertiser named in an episode's show notes ("sponsored by X",
/// "brought to you by X", "use code Y at x.com"), as found by `podlens-ingest`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SponsorMention {
    pub podcast_id: Uuid,
    pub episode_id: Uuid,
    /// The sponsor as named in the notes (a brand, not a sentence).
    pub name: String,
    /// A `SponsorType` wire value: `sponsor` for a sponsorship read, `advertiser`
    /// for an offer that names only a code and a site.
    pub sponsor_type: String,
    /// The sponsor's site or offer URL, when the notes give one.
    pub url: Option<String>,
    pub coupon_code: Option<String>,
    /// The line of the notes the sponsor was found in.
    pub snippet: String,
}

/// A transcript's text with its timed segments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptRecord {
    pub transcript_id: Uuid,
    pub episode_id: Uuid,
    pub podcast_id: Uuid,
    /// Where it came from: a URL or a file path.
    pub source: String,
    /// `vtt`, `srt`, `json`, `html`, `txt` or `md`.
    pub format: String,
    pub language: Option<String>,
    pub transcript_text: String,
    pub segments: Vec<TranscriptSegment>,
}

/// A timed piece of a transcript (a cue, or a speaker turn in untimed formats, where
/// the times are `None`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptSegment {
    pub start_second: Option<f64>,
    pub end_second: Option<f64>,
    pub speaker: Option<String>,
    pub text: String,
}

/// One fetch of one feed: the feed fetch log.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FeedFetchRecord {
    pub feed_url: String,
    pub podcast_id: Option<Uuid>,
    pub fetched_at: DateTime<Utc>,
    /// `ok`, `not-modified`, or the failure kind (`network`, `http-status`, `not-xml`,
    /// `not-a-feed`, `too-large`, `blocked`, `io`).
    pub outcome: String,
    pub http_status: Option<i64>,
    pub error: Option<String>,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    pub bytes: Option<i64>,
    pub episodes: Option<i64>,
    /// The SHA-256 of the feed's bytes as served (hex), when it answered with content
    /// or with the same bytes as before: a feed whose server ignores conditional GET is
    /// known unchanged by this alone, without parsing or writing anything.
    pub content_hash: Option<String>,
    /// The WebSub hub the feed declared when it was last read, with the topic to
    /// subscribe to: a server following a catalog subscribes without reading the feed.
    pub websub_hub: Option<String>,
    pub websub_topic: Option<String>,
}

/// A failed attempt to fetch the transcript an episode's feed links to: the
/// transcript retry ledger (`transcript_attempts`). A held transcript clears it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptAttempt {
    pub episode_id: Uuid,
    pub podcast_id: Uuid,
    /// The URL the feed declares (attempts restart when the feed names another),
    /// with the type and language it declares.
    pub url: String,
    pub mime_type: String,
    pub language: Option<String>,
    /// Failed attempts so far, this one included.
    pub attempts: u32,
    pub last_attempt_at: DateTime<Utc>,
    /// When a re-poll may try again; `None` once the attempts are used up.
    pub next_attempt_at: Option<DateTime<Utc>>,
    pub last_error: String,
}

/// What the catalog knows of an episode's declared transcript before a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum TranscriptStatus {
    /// The catalog holds the transcript fetched from `url`.
    Held { url: String },
    /// Fetching failed before.
    Failing(TranscriptAttempt),
}

/// The primary language subtag of a feed's language tag, lowercased (`en-US` → `en`):
/// what the language filter of a search matches and what the catalog's language
/// choices list.
pub fn primary_language(tag: &str) -> String {
    tag.trim()
        .split(['-', '_'])
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_and_distinct() {
        let a = podcast_id(None, "https://Example.com/feed.xml");
        assert_eq!(a, podcast_id(None, "https://example.com/feed.xml#top"));
        assert_eq!(a, podcast_id(Some("  "), "HTTPS://EXAMPLE.COM/feed.xml"));
        assert_ne!(a, podcast_id(None, "https://example.com/other.xml"));
        let guid = podcast_id(
            Some("917393e3-1b1e-5cef-ace4-edaa54e1f810"),
            "https://a/feed",
        );
        assert_eq!(
            guid,
            podcast_id(Some("917393E3-1B1E-5CEF-ACE4-EDAA54E1F810"), "https://b/f")
        );
        assert_ne!(episode_id(a, "ep-1"), episode_id(a, "ep-2"));
        assert_ne!(episode_id(a, "ep-1"), episode_id(guid, "ep-1"));
    }

    #[test]
    fn feed_schemes_are_read_as_http() {
        assert_eq!(
            normalize_feed_url("feed://example.com/rss"),
            "http://example.com/rss"
        );
        assert_eq!(
            normalize_feed_url("ITPC://example.com/rss/"),
            "http://example.com/rss"
        );
        assert_eq!(normalize_feed_url("not a url"), "not a url");
    }
}
