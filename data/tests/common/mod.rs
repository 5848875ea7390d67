//! Hand-built catalog records for the tests.
#![allow(dead_code)]

use chrono::{DateTime, Duration, TimeZone, Utc};
use podlens_model::catalog::{
    EpisodeRecord, FeedBatch, PersonRecord, PodcastRecord, TranscriptLink, TranscriptRecord,
    TranscriptSegment, episode_id, podcast_id, transcript_id,
};

pub fn base_time() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2024, 3, 1, 12, 0, 0).single().unwrap()
}

pub fn podcast(index: usize) -> PodcastRecord {
    let feed_url = format!(
        "https://feeds.host{}.example.com/show-{index}.xml",
        index % 3
    );
    let id = podcast_id(None, &feed_url);
    PodcastRecord {
        podcast_id: id,
        podcast_slug: format!("show-{index}"),
        podcast_guid: None,
        podcast_rss_feed_url: feed_url,
        podcast_rss_title: format!("Show {index}"),
        podcast_rss_author: Some(format!("Author {index}")),
        podcast_rss_description: Some(format!("<p>About show {index}</p>")),
        podcast_rss_description_no_html: Some(format!("About show {index}")),
        podcast_website_url: Some(format!("https://show{index}.example.org/")),
        podcast_image_url: index
            .is_multiple_of(2)
            .then(|| format!("https://img.example.com/{index}.jpg")),
        rss_language: Some(if index % 4 == 3 {
            "de".to_owned()
        } else {
            "en-us".to_owned()
        }),
        rss_categories: vec!["Technology".to_owned(), "News".to_owned()],
        podcast_podlens_genres: vec!["technology".to_owned()],
        podcast_keywords: vec!["rust".to_owned(), format!("k{index}")],
        explicit_rss: index % 5 == 4,
        podcast_owner_name: Some("Owner".to_owned()),
        podcast_owner_email: Some(format!("owner{index}@example.com")),
        podcast_host_names: vec!["Ada".to_owned()],
        podcast_has_guests: true,
        podcast_type: Some("episodic".to_owned()),
        podcast_medium: Some("podcast".to_owned()),
        podcast_locked: false,
        podcast_blocked: false,
        podcast_complete: false,
        podcast_location: None,
        podcast_funding_urls: vec![],
        podcast_has_value: false,
        apple_id: Some(format!("{}", 1_000_000 + index)),
        spotify_id: Some(format!("sp{index}")),
        founded_date: Some(base_time() - Duration::days(400)),
        last_episode_date: Some(base_time()),
        total_episodes: 0,
        total_transcripts: 0,
        update_frequency: Some("weekly".to_owned()),
        rss_generator: Some("Example Host".to_owned()),
        rss_tags: vec!["itunes:author".to_owned(), "podcast:guid".to_owned()],
        updated_at: base_time(),
    }
}

pub fn episode(podcast: &PodcastRecord, number: usize) -> EpisodeRecord {
    let id = episode_id(podcast.podcast_id, &format!("guid-{number}"));
    EpisodeRecord {
        episode_id: id,
        podcast_id: podcast.podcast_id,
        episode_slug: format!("episode-{number}"),
        episode_guid: Some(format!("guid-{number}")),
        episode_rss_title: format!("{} episode {number}", podcast.podcast_rss_title),
        episode_rss_description: Some(format!("<b>Episode</b> {number}")),
        episode_rss_description_no_html: Some(format!("Episode {number}")),
        episode_enclosure_url: Some(format!("https://cdn.example.com/{id}.mp3")),
        episode_enclosure_type: Some("audio/mpeg".to_owned()),
        episode_enclosure_length: Some(1_000_000 + number as i64),
        episode_image_url: None,
        episode_web_url: Some(format!("https://example.org/e/{number}")),
        episode_rss_published_at: Some(base_time() - Duration::hours(7 * number as i64)),
        episode_duration_seconds: Some(600 + number as i64),
        episode_season: Some(1),
        episode_number: Some(number as i64),
        episode_type: Some("full".to_owned()),
        episode_explicit: Some(number % 7 == 6),
        episode_keywords: vec![format!("kw{number}")],
        episode_transcript_urls: if number.is_multiple_of(3) {
            vec![TranscriptLink {
                url: format!("https://cdn.example.com/{id}.vtt"),
                mime_type: "text/vtt".to_owned(),
                language: Some("en".to_owned()),
                rel: None,
            }]
        } else {
            vec![]
        },
        episode_chapters_url: None,
        episode_rss_tags: if number.is_multiple_of(2) {
            vec!["podcast:season".to_owned()]
        } else {
            vec![]
        },
        episode_has_transcript: false,
        transcript_id: None,
        episode_podcast_title_denormalized: podcast.podcast_rss_title.clone(),
        episode_created_at: base_time(),
        episode_updated_at: base_time(),
    }
}

pub fn person(
    podcast: &PodcastRecord,
    episode: Option<&EpisodeRecord>,
    name: &str,
    kind: &str,
) -> PersonRecord {
    PersonRecord {
        podcast_id: podcast.podcast_id,
        episode_id: episode.map(|episode| episode.episode_id),
        name: name.to_owned(),
        person_type: kind.to_owned(),
        role: Some(kind.to_owned()),
        group: Some("cast".to_owned()),
        image_url: Some(format!("https://img.example.com/{name}.png")),
        href: None,
    }
}

/// A feed with `episodes` episodes numbered 1..=episodes and one host at channel level.
pub fn feed(index: usize, episodes: usize) -> FeedBatch {
    let mut podcast = podcast(index);
    podcast.total_episodes = episodes as i64;
    let episodes: Vec<EpisodeRecord> = (1..=episodes).map(|n| episode(&podcast, n)).collect();
    let persons = vec![person(&podcast, None, "Ada", "host")];
    FeedBatch {
        podcast,
        episodes,
        persons,
        ..FeedBatch::default()
    }
}

pub fn transcript(episode: &EpisodeRecord, segments: usize) -> TranscriptRecord {
    let source = format!("https://cdn.example.com/{}.vtt", episode.episode_id);
    let segments: Vec<TranscriptSegment> = (0..segments)
        .map(|i| TranscriptSegment {
            start_second: Some(i as f64 * 2.5),
            end_second: Some(i as f64 * 2.5 + 2.0),
            speaker: i.is_multiple_of(2).then(|| "Ada".to_owned()),
            text: format!("line {i}"),
        })
        .collect();
    TranscriptRecord {
        transcript_id: transcript_id(episode.episode_id, &source),
        episode_id: episode.episode_id,
        podcast_id: episode.podcast_id,
        source,
        format: "vtt".to_owned(),
        language: Some("en".to_owned()),
        transcript_text: segments
            .iter()
            .map(|s| s.text.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        segments,
    }
}
