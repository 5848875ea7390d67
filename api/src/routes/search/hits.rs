//! The wire form of search hits: typed records that borrow the engine's hits and the
//! snapshot's podcast records, serialised once, in the blocking task that builds them.
//! A page of a hundred hits is about 180 KB of JSON; building it as `serde_json::Value`
//! maps copied every string of every hit twice and cost as much as the search itself.

use chrono::{DateTime, Utc};
use podlens_data::snapshot::AuthorityScoreRow;
use podlens_indexer::{EpisodeHit, PodcastHit, TranscriptSnippet};
use podlens_model::Plan;
use podlens_model::catalog::PodcastRecord;
use podlens_model::plans::PodcastExtraField;
use serde::Serialize;
use serde_json::value::RawValue;
use uuid::Uuid;

/// A hit serialised to JSON text, ready to be written into the response as it is.
pub type WireHit = Box<RawValue>;

/// The podcast fields every hit carries (both modes), as the SDK requires them. The
/// plan's extra fields are written only when the plan has them and the snapshot has the
/// podcast's record (`null` inside them when the record lacks the value).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PodcastFields<'a> {
    podcast_id: Uuid,
    podcast_slug: &'a str,
    podcast_rss_title: &'a str,
    podcast_rss_title_latest: &'a str,
    podcast_rss_description: Option<&'a str>,
    podcast_rss_description_no_html: Option<&'a str>,
    podcast_rss_author: Option<&'a str>,
    podcast_image_url: Option<&'a str>,
    podcast_website_url: Option<&'a str>,
    podcast_rss_feed_url: Option<&'a str>,
    podcast_host_names: Option<&'a [String]>,
    rss_language: Option<&'a str>,
    rss_categories: Option<&'a [String]>,
    founded_date: Option<DateTime<Utc>>,
    last_episode_date: Option<DateTime<Utc>>,
    update_frequency: Option<&'a str>,
    total_episodes: Option<i64>,
    total_transcripts: Option<i64>,
    transcription_mode: &'static str,
    podcast_authority_score_total: Option<f64>,
    podcast_authority_score_quality: Option<f64>,
    podcast_authority_score_social: Option<f64>,
    podcast_authority_score_youtube: Option<f64>,
    podcast_authority_score_engagement: Option<f64>,
    youtube_channel_count: Option<u64>,
    youtube_total_subscribers: Option<u64>,
    youtube_total_videos: Option<u64>,
    youtube_total_views: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    apple_id: Option<Option<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spotify_id: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    podcast_has_guests: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    podcast_emails: Option<&'a [String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    podcast_podlens_genres: Option<&'a [String]>,
}

/// What a hit knows of its podcast when the snapshot has no record of it (the index and
/// the snapshot disagree for a moment while a generation is switched).
#[derive(Default)]
struct Fallback<'a> {
    title: &'a str,
    slug: &'a str,
    image_url: Option<&'a str>,
    language: Option<&'a str>,
    founded_date: Option<DateTime<Utc>>,
    last_episode_date: Option<DateTime<Utc>>,
}

impl<'a> PodcastFields<'a> {
    fn new(
        podcast_id: Uuid,
        record: Option<&'a PodcastRecord>,
        score: Option<&AuthorityScoreRow>,
        plan: Plan,
        fallback: Fallback<'a>,
    ) -> PodcastFields<'a> {
        let title = record.map_or(fallback.title, |r| r.podcast_rss_title.as_str());
        let extras = plan.podcast_extra_fields();
        let has = |field: PodcastExtraField| record.filter(|_| extras.contains(&field));
        PodcastFields {
            podcast_id,
            podcast_slug: record.map_or(fallback.slug, |r| r.podcast_slug.as_str()),
            podcast_rss_title: title,
            podcast_rss_title_latest: title,
            podcast_rss_description: record.and_then(|r| r.podcast_rss_description.as_deref()),
            podcast_rss_description_no_html: record
                .and_then(|r| r.podcast_rss_description_no_html.as_deref()),
            podcast_rss_author: record.and_then(|r| r.podcast_rss_author.as_deref()),
            podcast_image_url: match record {
                Some(r) => r.podcast_image_url.as_deref(),
                None => fallback.image_url,
            },
            podcast_website_url: record.and_then(|r| r.podcast_website_url.as_deref()),
            podcast_rss_feed_url: record.map(|r| r.podcast_rss_feed_url.as_str()),
            podcast_host_names: record.map(|r| r.podcast_host_names.as_slice()),
            rss_language: match record {
                Some(r) => r.rss_language.as_deref(),
                None => fallback.language,
            },
            rss_categories: record.map(|r| r.rss_categories.as_slice()),
            founded_date: match record {
                Some(r) => r.founded_date,
                None => fallback.founded_date,
            },
            last_episode_date: match record {
                Some(r) => r.last_episode_date,
                None => fallback.last_episode_date,
            },
            update_frequency: record.and_then(|r| r.update_frequency.as_deref()),
            total_episodes: record.map(|r| r.total_episodes),
            total_transcripts: record.map(|r| r.total_transcripts),
            transcription_mode: "none",
            podcast_authority_score_total: score.map(|s| s.authority_score),
            podcast_authority_score_quality: score.map(|s| s.quality_score),
            podcast_authority_score_social: score.map(|s| s.social_score),
            podcast_authority_score_youtube: score.map(|s| s.youtube_score),
            podcast_authority_score_engagement: score.map(|s| s.engagement_score),
            youtube_channel_count: None,
            youtube_total_subscribers: None,
            youtube_total_videos: None,
            youtube_total_views: None,
            apple_id: has(PodcastExtraField::AppleId)
                .map(|r| r.apple_id.as_deref().and_then(|id| id.parse::<u64>().ok())),
            spotify_id: has(PodcastExtraField::AppleId).map(|r| r.spotify_id.as_deref()),
            podcast_has_guests: has(PodcastExtraField::Guests).map(|r| r.podcast_has_guests),
            podcast_emails: has(PodcastExtraField::PrimaryContact)
                .map(|r| r.podcast_owner_email.as_slice()),
            podcast_podlens_genres: has(PodcastExtraField::Genres)
                .map(|r| r.podcast_podlens_genres.as_slice()),
        }
    }
}

/// A podcast hit: its podcast's fields and the score.
#[derive(Serialize)]
struct WirePodcastHit<'a> {
    #[serde(flatten)]
    podcast: PodcastFields<'a>,
    score: f64,
}

/// The matching passage of a semantic episode hit, with its place in the audio.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Passage<'a> {
    chunk_id: &'a str,
    text: &'a str,
    start_second: Option<f64>,
    end_second: Option<f64>,
}

/// An episode hit: its podcast's fields, then the episode's.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct WireEpisodeHit<'a> {
    #[serde(flatten)]
    podcast: PodcastFields<'a>,
    episode_id: Uuid,
    episode_slug: &'a str,
    episode_rss_title: &'a str,
    episode_rss_description: Option<&'a str>,
    episode_enclosure_url: &'a str,
    episode_image_url: Option<&'a str>,
    episode_web_url: Option<&'a str>,
    episode_rss_published_at: DateTime<Utc>,
    episode_duration_seconds: Option<u64>,
    episode_has_transcript: bool,
    episode_podcast_title_denormalized: Option<&'a str>,
    transcript_id: Option<Uuid>,
    transcript_text_snippet: Option<&'a str>,
    transcript_highlights: Highlights<'a>,
    score: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    match_snippet: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    passage: Option<Passage<'a>>,
}

/// Passages as their HTML (matches in `<em>`), the `transcriptHighlights` of a hit.
struct Highlights<'a>(&'a [TranscriptSnippet]);

impl Serialize for Highlights<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|snippet| snippet.html.as_str()))
    }
}

/// How an episode hit's transcript passages are returned.
#[derive(Debug, Clone, Copy, Default)]
pub struct Snippets {
    /// `includeMatchSnippet`: the best passage as `matchSnippet`, and as the one entry of
    /// `transcriptHighlights`.
    pub match_snippet: bool,
    /// A semantic search: the best passage as `passage`, with its text and timestamps.
    pub passage: bool,
}

/// The podcast hit on the wire.
pub fn podcast_hit(
    hit: &PodcastHit,
    record: Option<&PodcastRecord>,
    score: Option<&AuthorityScoreRow>,
    plan: Plan,
) -> serde_json::Result<WireHit> {
    let fallback = Fallback {
        title: &hit.title,
        slug: &hit.slug,
        image_url: hit.image_url.as_deref(),
        language: hit.language.as_deref(),
        founded_date: hit.founded_date,
        last_episode_date: hit.last_episode_date,
    };
    serde_json::value::to_raw_value(&WirePodcastHit {
        podcast: PodcastFields::new(hit.podcast_id, record, score, plan, fallback),
        score: f64::from(hit.score),
    })
}

/// The episode hit on the wire; `published_at` is the episode's date (the engine keeps
/// none for undated items, and the caller looks up when the catalog first saw them).
pub fn episode_hit(
    hit: &EpisodeHit,
    published_at: DateTime<Utc>,
    record: Option<&PodcastRecord>,
    score: Option<&AuthorityScoreRow>,
    plan: Plan,
    snippets: Snippets,
) -> serde_json::Result<WireHit> {
    let fallback = Fallback {
        title: hit.podcast_title.as_deref().unwrap_or_default(),
        ..Fallback::default()
    };
    // The best matching passage, matches in <em>; absent for a search without a
    // transcript term or an episode without a matching passage.
    let best = hit.snippets.first();
    let highlights = if snippets.match_snippet {
        hit.snippets.get(..1).unwrap_or_default()
    } else {
        &hit.snippets
    };
    serde_json::value::to_raw_value(&WireEpisodeHit {
        podcast: PodcastFields::new(hit.podcast_id, record, score, plan, fallback),
        episode_id: hit.episode_id,
        episode_slug: &hit.slug,
        episode_rss_title: &hit.title,
        episode_rss_description: hit.description.as_deref(),
        episode_enclosure_url: hit.enclosure_url.as_deref().unwrap_or_default(),
        episode_image_url: hit.image_url.as_deref(),
        episode_web_url: hit.web_url.as_deref(),
        episode_rss_published_at: published_at,
        episode_duration_seconds: hit.duration_seconds,
        episode_has_transcript: hit.has_transcript,
        episode_podcast_title_denormalized: hit.podcast_title.as_deref(),
        transcript_id: hit.transcript_id,
        transcript_text_snippet: hit.transcript_start.as_deref(),
        transcript_highlights: Highlights(highlights),
        score: f64::from(hit.score),
        match_snippet: best
            .filter(|_| snippets.match_snippet)
            .map(|snippet| snippet.html.as_str()),
        passage: best.filter(|_| snippets.passage).map(|snippet| Passage {
            chunk_id: &snippet.chunk_id,
            text: &snippet.fragment,
            start_second: snippet.start_second,
            end_second: snippet.end_second,
        }),
    })
}
