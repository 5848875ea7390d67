//! From a parsed feed to the catalog's records: stable ids, slugs, sanitized and
//! plain-text descriptions, dates and durations, hosts and guests, genres, stats and
//! the update frequency.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use podlens_model::catalog::{
    self, EpisodeRecord, FeedBatch, FeedPolling, PersonRecord, PodcastRecord, TranscriptLink,
};
use uuid::Uuid;

use crate::dates::parse_date;
use crate::duration::parse_duration;
use crate::feed::{Channel, Enclosure, Item, ParsedFeed, Person, TranscriptTag};
use crate::frequency::update_frequency;
use crate::schedule;
use crate::text::{html_to_text, sanitize_html, slug_for};

/// Normalises `feed`, read from `feed_url`, as of `now` (used for timestamps and
/// for the staleness of the update frequency). Items marked `itunes:block` are left
/// out; items repeating an earlier item's id are kept once (the first).
pub fn normalize(feed: &ParsedFeed, feed_url: &str, now: DateTime<Utc>) -> FeedBatch {
    let podcast_id = catalog::podcast_id(feed.channel.podcast_guid.as_deref(), feed_url);
    normalize_with_id(feed, feed_url, podcast_id, now)
}

/// As [`normalize`], with the podcast id given: the catalog's id of a feed whose URL
/// has moved stays the id it was first stored under.
pub fn normalize_with_id(
    feed: &ParsedFeed,
    feed_url: &str,
    podcast_id: Uuid,
    now: DateTime<Utc>,
) -> FeedBatch {
    let channel = &feed.channel;
    let title = channel.title.clone().unwrap_or_default();
    let mut seen = HashSet::new();
    let episodes: Vec<EpisodeRecord> = feed
        .items
        .iter()
        .filter(|item| !item.itunes_block)
        .map(|item| episode_record(item, podcast_id, &title, now))
        .filter(|episode| seen.insert(episode.episode_id))
        .collect();
    let persons = person_records(channel, &feed.items, &episodes, podcast_id);
    let podcast = podcast_record(feed, feed_url, podcast_id, &episodes, &persons, now);
    FeedBatch {
        podcast,
        episodes,
        persons,
        polling: feed_polling(channel, feed_url),
    }
}

/// What the channel says about following it: its WebSub hub and topic, its declared
/// publishing period, whether it is complete.
fn feed_polling(channel: &Channel, feed_url: &str) -> FeedPolling {
    let declared_rule = channel
        .update_frequency
        .as_ref()
        .and_then(|tag| tag.rrule.as_deref())
        .and_then(schedule::rrule_period);
    let declared_syndication = channel.sy_update_period.as_deref().and_then(|period| {
        schedule::syndication_period(period, channel.sy_update_frequency.as_deref())
    });
    let hub = channel
        .hub_url
        .as_deref()
        .map(str::trim)
        .filter(|hub| hub.starts_with("https://") || hub.starts_with("http://"))
        .map(str::to_owned);
    FeedPolling {
        topic: hub.as_ref().map(|_| {
            channel
                .self_url
                .as_deref()
                .map(str::trim)
                .filter(|url| url.starts_with("https://") || url.starts_with("http://"))
                .unwrap_or(feed_url)
                .to_owned()
        }),
        hub,
        declared_period_seconds: declared_rule.or(declared_syndication),
        complete: channel.itunes_complete
            || channel
                .update_frequency
                .as_ref()
                .is_some_and(|tag| tag.complete),
    }
}

fn podcast_record(
    feed: &ParsedFeed,
    feed_url: &str,
    podcast_id: Uuid,
    episodes: &[EpisodeRecord],
    persons: &[PersonRecord],
    now: DateTime<Utc>,
) -> PodcastRecord {
    let channel = &feed.channel;
    let title = channel.title.clone().unwrap_or_default();
    let description = channel
        .description
        .as_deref()
        .or(channel.summary.as_deref())
        .or(channel.subtitle.as_deref());
    let dates: Vec<DateTime<Utc>> = episodes
        .iter()
        .filter_map(|episode| episode.episode_rss_published_at)
        .collect();
    let categories = if channel.itunes_categories.is_empty() {
        &channel.categories
    } else {
        &channel.itunes_categories
    };
    let rss_categories = unique(categories.iter().map(|category| category.trim().to_owned()));
    let genres = unique(
        rss_categories
            .iter()
            .map(|category| category.to_lowercase()),
    );
    let host_names = unique(
        persons
            .iter()
            .filter(|person| person.episode_id.is_none() && person.person_type == "host")
            .map(|person| person.name.clone()),
    );
    let has_guests = persons.iter().any(|person| person.person_type == "guest");
    let (editor_email, editor_name) = split_email(channel.managing_editor.as_deref());
    PodcastRecord {
        podcast_id,
        podcast_slug: slug_for(&title, podcast_id, "podcast"),
        podcast_guid: channel.podcast_guid.clone(),
        podcast_rss_feed_url: feed_url.to_owned(),
        podcast_rss_title: title,
        podcast_rss_author: channel.author.clone().or(editor_name.clone()),
        podcast_rss_description: description.map(sanitize_html),
        podcast_rss_description_no_html: description.map(html_to_text),
        podcast_website_url: channel.link.clone(),
        podcast_image_url: channel
            .itunes_image
            .clone()
            .or_else(|| channel.image_url.clone())
            .or_else(|| channel.images.first().cloned()),
        rss_language: channel
            .language
            .as_deref()
            .map(|language| language.trim().to_lowercase()),
        rss_categories,
        podcast_podlens_genres: genres,
        podcast_keywords: unique(channel.keywords.iter().cloned()),
        explicit_rss: channel.explicit.unwrap_or(false),
        podcast_owner_name: channel.owner_name.clone().or(editor_name),
        podcast_owner_email: channel
            .owner_email
            .clone()
            .or(editor_email)
            .or_else(|| split_email(channel.web_master.as_deref()).0),
        podcast_host_names: host_names,
        podcast_has_guests: has_guests,
        podcast_type: channel
            .itunes_type
            .clone()
            .filter(|kind| kind == "episodic" || kind == "serial"),
        podcast_medium: channel.medium.clone(),
        podcast_locked: channel.locked.unwrap_or(false),
        podcast_blocked: is_blocked(channel),
        podcast_complete: channel.itunes_complete,
        podcast_location: channel
            .location
            .as_ref()
            .map(|location| location.name.clone()),
        podcast_funding_urls: unique(channel.funding.iter().map(|funding| funding.url.clone())),
        podcast_has_value: !channel.value.is_empty(),
        apple_id: channel.apple_id.clone(),
        spotify_id: None,
        founded_date: dates.iter().min().copied(),
        last_episode_date: dates.iter().max().copied(),
        total_episodes: episodes.len() as i64,
        total_transcripts: episodes
            .iter()
            .filter(|episode| episode.episode_has_transcript)
            .count() as i64,
        update_frequency: update_frequency(&dates, now).map(str::to_owned),
        rss_generator: channel.generator.clone(),
        rss_tags: channel.tags.iter().cloned().collect(),
        updated_at: now,
    }
}

/// Blocked for every platform: `itunes:block` yes, or a `podcast:block` yes without a
/// platform id.
pub fn is_blocked(channel: &Channel) -> bool {
    channel.itunes_block
        || channel
            .blocks
            .iter()
            .any(|(platform, blocked)| platform.is_none() && *blocked)
}

/// The key that identifies an item within its feed: guid, else enclosure URL, else
/// title and date.
pub fn item_key(item: &Item) -> String {
    if let Some(guid) = item
        .guid
        .as_deref()
        .map(str::trim)
        .filter(|guid| !guid.is_empty())
    {
        return guid.to_owned();
    }
    if let Some(enclosure) = primary_enclosure(item) {
        return enclosure.url.trim().to_owned();
    }
    format!(
        "{}|{}",
        item.title.as_deref().unwrap_or_default().trim(),
        item.pub_date.as_deref().unwrap_or_default().trim()
    )
}

/// The episode's media file: the first `<enclosure>`, else the first audio or video
/// `media:content`.
pub fn primary_enclosure(item: &Item) -> Option<&Enclosure> {
    item.enclosures.first().or_else(|| {
        item.media_contents
            .iter()
            .find(|content| {
                content
                    .mime_type
                    .as_deref()
                    .is_some_and(|kind| kind.starts_with("audio") || kind.starts_with("video"))
            })
            .or_else(|| item.media_contents.first())
    })
}

fn episode_record(
    item: &Item,
    podcast_id: Uuid,
    podcast_title: &str,
    now: DateTime<Utc>,
) -> EpisodeRecord {
    let episode_id = catalog::episode_id(podcast_id, &item_key(item));
    let title = item.title.clone().unwrap_or_default();
    let description = item
        .content_encoded
        .as_deref()
        .or(item.description.as_deref())
        .or(item.summary.as_deref())
        .or(item.subtitle.as_deref());
    let enclosure = primary_enclosure(item);
    let transcript_links: Vec<TranscriptLink> =
        item.transcripts.iter().map(transcript_link).collect();
    let preferred = preferred_transcript(&transcript_links);
    EpisodeRecord {
        episode_id,
        podcast_id,
        episode_slug: slug_for(&title, episode_id, "episode"),
        episode_guid: item.guid.as_deref().map(str::trim).map(str::to_owned),
        episode_rss_title: title,
        episode_rss_description: description.map(sanitize_html),
        episode_rss_description_no_html: description.map(html_to_text),
        episode_enclosure_url: enclosure.map(|enclosure| enclosure.url.clone()),
        episode_enclosure_type: enclosure.and_then(|enclosure| enclosure.mime_type.clone()),
        episode_enclosure_length: enclosure
            .and_then(|enclosure| enclosure.length.as_deref())
            .and_then(|length| length.trim().parse::<i64>().ok())
            .filter(|length| *length > 0),
        episode_image_url: item
            .itunes_image
            .clone()
            .or_else(|| item.media_thumbnail.clone())
            .or_else(|| item.images.first().cloned()),
        episode_web_url: item.link.clone(),
        episode_rss_published_at: item
            .pub_date
            .as_deref()
            .and_then(parse_date)
            .or_else(|| item.updated.as_deref().and_then(parse_date)),
        episode_duration_seconds: item.duration.as_deref().and_then(parse_duration),
        episode_season: parse_number(item.itunes_season.as_deref()).or_else(|| {
            parse_number(
                item.season
                    .as_ref()
                    .and_then(|season| season.number.as_deref()),
            )
        }),
        episode_number: parse_number(item.itunes_episode.as_deref()).or_else(|| {
            parse_number(
                item.episode
                    .as_ref()
                    .and_then(|episode| episode.number.as_deref()),
            )
        }),
        episode_type: item
            .episode_type
            .clone()
            .filter(|kind| matches!(kind.as_str(), "full" | "trailer" | "bonus")),
        episode_explicit: item.explicit,
        episode_keywords: unique(item.keywords.iter().cloned()),
        episode_rss_tags: item.tags.iter().cloned().collect(),
        episode_has_transcript: !transcript_links.is_empty(),
        transcript_id: preferred.map(|link| catalog::transcript_id(episode_id, &link.url)),
        episode_transcript_urls: transcript_links,
        episode_chapters_url: item.chapters.as_ref().map(|chapters| chapters.url.clone()),
        episode_podcast_title_denormalized: podcast_title.to_owned(),
        episode_created_at: now,
        episode_updated_at: now,
    }
}

/// Integer episode and season numbers; `3.0` reads as 3, anything else as `None`.
fn parse_number(value: Option<&str>) -> Option<i64> {
    let value = value?.trim();
    value
        .parse::<i64>()
        .ok()
        .or_else(|| {
            value
                .parse::<f64>()
                .ok()
                .filter(|n| n.fract() == 0.0 && n.abs() < 1e12)
                .map(|n| n as i64)
        })
        .filter(|number| *number >= 0)
}

fn transcript_link(tag: &TranscriptTag) -> TranscriptLink {
    TranscriptLink {
        url: tag.url.clone(),
        mime_type: tag
            .mime_type
            .clone()
            .unwrap_or_else(|| crate::transcript::mime_type_for_url(&tag.url).to_owned()),
        language: tag.language.clone(),
        rel: tag.rel.clone(),
    }
}

/// The transcript to store for an episode: the first of VTT, SRT, JSON, HTML, plain
/// text (in that order of preference) that is not a `rel="captions"`-only duplicate.
pub fn preferred_transcript(links: &[TranscriptLink]) -> Option<&TranscriptLink> {
    let rank =
        |link: &TranscriptLink| match crate::transcript::format_for(&link.mime_type, &link.url) {
            Some(crate::transcript::TranscriptFormat::Vtt) => 0,
            Some(crate::transcript::TranscriptFormat::Srt) => 1,
            Some(crate::transcript::TranscriptFormat::Json) => 2,
            Some(crate::transcript::TranscriptFormat::Html) => 3,
            Some(_) => 4,
            None => 5,
        };
    links.iter().min_by_key(|link| rank(link))
}

fn person_records(
    channel: &Channel,
    items: &[Item],
    episodes: &[EpisodeRecord],
    podcast_id: Uuid,
) -> Vec<PersonRecord> {
    let mut records: Vec<PersonRecord> = channel
        .persons
        .iter()
        .map(|person| person_record(person, podcast_id, None))
        .collect();
    if !records.iter().any(|record| record.person_type == "host")
        && let Some(author) = channel
            .author
            .as_deref()
            .map(str::trim)
            .filter(|a| !a.is_empty())
    {
        records.push(PersonRecord {
            podcast_id,
            episode_id: None,
            name: author.to_owned(),
            person_type: "host".to_owned(),
            ..PersonRecord::default()
        });
    }
    let kept: HashSet<Uuid> = episodes.iter().map(|episode| episode.episode_id).collect();
    for item in items.iter().filter(|item| !item.persons.is_empty()) {
        let episode_id = catalog::episode_id(podcast_id, &item_key(item));
        if !kept.contains(&episode_id) {
            continue;
        }
        for person in &item.persons {
            let record = person_record(person, podcast_id, Some(episode_id));
            if !records.contains(&record) {
                records.push(record);
            }
        }
    }
    records
}

fn person_record(person: &Person, podcast_id: Uuid, episode_id: Option<Uuid>) -> PersonRecord {
    // The Podcasting 2.0 default role is `host`.
    let role = person.role.clone();
    let person_type = match role.as_deref().unwrap_or("host") {
        "host" | "co-host" => "host",
        "guest" => "guest",
        _ => "unknown",
    };
    PersonRecord {
        podcast_id,
        episode_id,
        name: person.name.clone(),
        person_type: person_type.to_owned(),
        role,
        group: person.group.clone(),
        image_url: person.img.clone(),
        href: person.href.clone(),
    }
}

/// `jane@example.com (Jane Doe)` → (email, name).
fn split_email(value: Option<&str>) -> (Option<String>, Option<String>) {
    let Some(value) = value.map(str::trim).filter(|value| !value.is_empty()) else {
        return (None, None);
    };
    let email = value
        .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '<' | '>'))
        .find(|word| word.contains('@') && word.contains('.'))
        .map(|word| word.trim_matches(|c: char| !c.is_alphanumeric()).to_owned());
    let name = value
        .split_once('(')
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(name, _)| name.trim().to_owned())
        .filter(|name| !name.is_empty());
    (email, name)
}

fn unique(values: impl Iterator<Item = String>) -> Vec<String> {
    let mut seen = HashSet::new();
    values
        .filter(|value| !value.is_empty() && seen.insert(value.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn managing_editor_splits_into_email_and_name() {
        assert_eq!(
            split_email(Some("jane@example.com (Jane Doe)")),
            (
                Some("jane@example.com".to_owned()),
                Some("Jane Doe".to_owned())
            )
        );
        assert_eq!(split_email(Some("Jane Doe")), (None, None));
    }

    #[test]
    fn numbers_accept_whole_floats_only() {
        assert_eq!(parse_number(Some(" 12 ")), Some(12));
        assert_eq!(parse_number(Some("3.0")), Some(3));
        assert_eq!(parse_number(Some("3.5")), None);
        assert_eq!(parse_number(Some("-1")), None);
        assert_eq!(parse_number(Some("ten")), None);
    }
}
