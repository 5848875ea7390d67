//! Catalog records (what the batch jobs store) into the wire entities of
//! `podlens_model::entities` (what the SDK validates). Values the catalog does not
//! hold yet are the entities' empty values (`null`, `[]`, `0`), never invented.

use podlens_model::Plan;
use podlens_model::catalog::{EpisodeRecord, PodcastRecord};
use podlens_model::entities::{
    Episode, Podcast, PodcastDirectoryLinks, PodcastStats, PodcastSummary, TranscriptionMode,
};
use podlens_model::enums::UpdateFrequency;

/// The summary form of a podcast.
pub fn podcast_summary(record: &PodcastRecord) -> PodcastSummary {
    PodcastSummary {
        author: record.podcast_rss_author.clone(),
        authority_score: None,
        genres: record.podcast_podlens_genres.clone(),
        id: record.podcast_id.to_string(),
        image_url: record.podcast_image_url.clone(),
        language: record.rss_language.clone().unwrap_or_default(),
        last_episode_published_at: record.last_episode_date,
        slug: record.podcast_slug.clone(),
        title: record.podcast_rss_title.clone(),
        title_latest: record.podcast_rss_title.clone(),
    }
}

/// The Apple Podcasts id as the wire's integer; 0 when the podcast is not listed.
pub fn apple_id_number(record: &PodcastRecord) -> u64 {
    record
        .apple_id
        .as_deref()
        .and_then(|id| id.trim().parse().ok())
        .unwrap_or(0)
}

/// The full form of a podcast as `plan` may see it: the feed's owner email is an RSS
/// primary contact, shown from the individual plan up (SPEC §6).
pub fn podcast_full(record: &PodcastRecord, plan: Plan) -> Podcast {
    let owner_email = record
        .podcast_owner_email
        .clone()
        .filter(|_| plan.sees_rss_primary_contacts());
    let mut directory_links = PodcastDirectoryLinks::default();
    if let Some(apple_id) = record.apple_id.as_deref() {
        directory_links.apple = Some(format!("https://podcasts.apple.com/podcast/id{apple_id}"));
    }
    if let Some(spotify_id) = record.spotify_id.as_deref() {
        directory_links.spotify = Some(format!("https://open.spotify.com/show/{spotify_id}"));
    }
    Podcast {
        summary: podcast_summary(record),
        apple_id: apple_id_number(record),
        blocked: None,
        description: record.podcast_rss_description.clone(),
        emails: owner_email.iter().cloned().collect(),
        explicit_rss: Some(record.explicit_rss),
        host_names: Some(record.podcast_host_names.clone()),
        ignore: false,
        ignore_reason: None,
        is_claimed: false,
        podcast_affiliation: None,
        podcast_directory_links: directory_links,
        podcast_has_guests: Some(record.podcast_has_guests),
        podcast_has_sponsors: None,
        podcast_locations: record
            .podcast_location
            .clone()
            .map(|location| vec![location]),
        primary_contact_email: owner_email,
        rss_feed_url: record.podcast_rss_feed_url.clone(),
        social_media_links: Vec::new(),
        spotify_id: record.spotify_id.clone(),
        stats: PodcastStats {
            download_count: 0,
            episode_count: u64::try_from(record.total_episodes).unwrap_or(0),
            latest_published_at: record.last_episode_date,
            first_episode_published_at: record.founded_date,
            transcripts_count: u64::try_from(record.total_transcripts).unwrap_or(0),
            // Counted from the episodes by `podcast_details`.
            transcripts_unavailable: 0,
            update_frequency: update_frequency(record),
        },
        title_latest_cleaned: None,
        transcription_mode: TranscriptionMode::None,
        website_url: record.podcast_website_url.clone(),
        audience_estimate: None,
    }
}

fn update_frequency(record: &PodcastRecord) -> UpdateFrequency {
    record
        .update_frequency
        .as_deref()
        .and_then(UpdateFrequency::parse)
        .unwrap_or(UpdateFrequency::Stale)
}

/// The wire form of an episode of the podcast whose slug is `podcast_slug`.
pub fn episode(record: &EpisodeRecord, podcast_slug: &str) -> Episode {
    Episode {
        deep_analysis_requested_at: None,
        description: record.episode_rss_description.clone(),
        duration_seconds: record
            .episode_duration_seconds
            .and_then(|seconds| u64::try_from(seconds).ok()),
        enclosure_url: record.episode_enclosure_url.clone().unwrap_or_default(),
        episode_id: record.episode_id.to_string(),
        episode_guests_and_hosts: None,
        episode_slug: record.episode_slug.clone(),
        episode_short_description: None,
        episode_sponsors: None,
        has_transcript: record.episode_has_transcript,
        has_video: record
            .episode_enclosure_type
            .as_deref()
            .is_some_and(|mime| mime.starts_with("video/")),
        video_url: None,
        image_url: record.episode_image_url.clone(),
        episode_thumbnail_rss_url: record.episode_image_url.clone(),
        podcast_id: record.podcast_id.to_string(),
        podcast_slug: podcast_slug.to_owned(),
        published_at: record
            .episode_rss_published_at
            .unwrap_or(record.episode_created_at),
        title: record.episode_rss_title.clone(),
        transcript_id: record.transcript_id.map(|id| id.to_string()),
        transcription_requested_at: None,
        audience_estimate: None,
        youtube_episode_details: None,
        apple_podcasts_url: None,
        author: None,
    }
}

/// The compact score a podcast summary carries.
pub fn score_summary(
    row: &podlens_data::snapshot::AuthorityScoreRow,
) -> podlens_model::entities::AuthorityScoreSummary {
    podlens_model::entities::AuthorityScoreSummary {
        calculated_at: row.calculated_at,
        authority_score: row.authority_score,
        quality_score: row.quality_score,
        youtube_score: row.youtube_score,
        social_score: row.social_score,
        engagement_score: row.engagement_score,
    }
}
