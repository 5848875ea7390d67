//! The same show published twice appears once in search.
//!
//! Two podcasts of a build are one show when they share a `podcast:guid`, a feed URL
//! (scheme, `www.` and a trailing slash aside), or a title and a website (folded). The
//! copy kept is the one with the latest episode (then the most episodes, then the
//! smallest id); the others are left out of the index, with their episodes that the kept
//! copy also has (same guid or title). A copy's other episodes stay searchable.

use std::collections::{HashMap, HashSet};

use podlens_model::catalog::{EpisodeRecord, PodcastRecord};
use uuid::Uuid;

fn normalised_url(url: &str) -> Option<String> {
    let url = url.trim().to_lowercase();
    let url = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
    let url = url.strip_prefix("www.").unwrap_or(url);
    let url = url.trim_end_matches('/');
    (!url.is_empty()).then(|| url.to_owned())
}

fn folded(text: &str) -> String {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The identities a podcast shares with its copies.
fn identities(podcast: &PodcastRecord) -> Vec<String> {
    let mut keys = Vec::new();
    if let Some(guid) = podcast
        .podcast_guid
        .as_deref()
        .map(str::trim)
        .filter(|g| !g.is_empty())
    {
        keys.push(format!("guid:{}", guid.to_lowercase()));
    }
    if let Some(url) = normalised_url(&podcast.podcast_rss_feed_url) {
        keys.push(format!("feed:{url}"));
    }
    let title = folded(&podcast.podcast_rss_title);
    if let Some(site) = podcast
        .podcast_website_url
        .as_deref()
        .and_then(normalised_url)
        && !title.is_empty()
    {
        keys.push(format!("site:{title}|{site}"));
    }
    keys
}

fn find(parent: &mut [usize], mut at: usize) -> usize {
    while parent[at] != at {
        parent[at] = parent[parent[at]];
        at = parent[at];
    }
    at
}

/// Copy → the podcast kept in its place, for every podcast that is a copy.
pub fn copies(podcasts: &[PodcastRecord]) -> HashMap<Uuid, Uuid> {
    let mut parent: Vec<usize> = (0..podcasts.len()).collect();
    let mut first_with: HashMap<String, usize> = HashMap::new();
    for (index, podcast) in podcasts.iter().enumerate() {
        for key in identities(podcast) {
            match first_with.get(&key) {
                Some(&other) => {
                    let (a, b) = (find(&mut parent, index), find(&mut parent, other));
                    parent[a] = b;
                }
                None => {
                    first_with.insert(key, index);
                }
            }
        }
    }
    let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
    for index in 0..podcasts.len() {
        let root = find(&mut parent, index);
        groups.entry(root).or_default().push(index);
    }
    let mut out = HashMap::new();
    for members in groups.values().filter(|members| members.len() > 1) {
        let kept = members
            .iter()
            .copied()
            .max_by(|&a, &b| {
                let (a, b) = (&podcasts[a], &podcasts[b]);
                a.last_episode_date
                    .cmp(&b.last_episode_date)
                    .then(a.total_episodes.cmp(&b.total_episodes))
                    .then(b.podcast_id.cmp(&a.podcast_id))
            })
            .unwrap_or(members[0]);
        for &member in members.iter().filter(|&&member| member != kept) {
            out.insert(podcasts[member].podcast_id, podcasts[kept].podcast_id);
        }
    }
    out
}

fn episode_identity(episode: &EpisodeRecord) -> String {
    match episode
        .episode_guid
        .as_deref()
        .map(str::trim)
        .filter(|g| !g.is_empty())
    {
        Some(guid) => format!("guid:{guid}"),
        None => format!("title:{}", folded(&episode.episode_rss_title)),
    }
}

/// The episodes of copies that their kept podcast also has (by guid, else title).
pub fn copied_episodes(episodes: &[EpisodeRecord], copies: &HashMap<Uuid, Uuid>) -> HashSet<Uuid> {
    if copies.is_empty() {
        return HashSet::new();
    }
    let kept: HashSet<Uuid> = copies.values().copied().collect();
    let mut kept_episodes: HashMap<Uuid, HashSet<String>> = HashMap::new();
    for episode in episodes.iter().filter(|e| kept.contains(&e.podcast_id)) {
        kept_episodes
            .entry(episode.podcast_id)
            .or_default()
            .insert(episode_identity(episode));
    }
    episodes
        .iter()
        .filter(|episode| {
            copies.get(&episode.podcast_id).is_some_and(|kept| {
                kept_episodes
                    .get(kept)
                    .is_some_and(|identities| identities.contains(&episode_identity(episode)))
            })
        })
        .map(|episode| episode.episode_id)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{TimeZone, Utc};

    fn podcast(
        id: u128,
        title: &str,
        feed: &str,
        site: Option<&str>,
        latest: u32,
    ) -> PodcastRecord {
        PodcastRecord {
            podcast_id: Uuid::from_u128(id),
            podcast_rss_title: title.into(),
            podcast_rss_feed_url: feed.into(),
            podcast_website_url: site.map(str::to_owned),
            last_episode_date: Some(Utc.with_ymd_and_hms(2024, 1, latest, 0, 0, 0).unwrap()),
            ..PodcastRecord::default()
        }
    }

    #[test]
    fn copies_by_guid_feed_url_or_title_and_site_keep_the_newest() {
        let mut guid_a = podcast(1, "A", "https://a.example/1", None, 1);
        guid_a.podcast_guid = Some("G".into());
        let mut guid_b = podcast(2, "A renamed", "https://b.example/2", None, 5);
        guid_b.podcast_guid = Some("g".into());
        let feed_a = podcast(3, "Feed", "https://www.feed.example/rss/", None, 9);
        let feed_b = podcast(4, "Feed again", "http://feed.example/rss", None, 2);
        let site_a = podcast(
            5,
            "The Show!",
            "https://x.example/a",
            Some("https://show.example"),
            3,
        );
        let site_b = podcast(
            6,
            "the show",
            "https://y.example/b",
            Some("show.example/"),
            4,
        );
        let other = podcast(
            7,
            "The Show",
            "https://z.example/c",
            Some("https://other.example"),
            8,
        );
        let found = copies(&[guid_a, guid_b, feed_a, feed_b, site_a, site_b, other]);
        let expected: HashMap<Uuid, Uuid> = [(1, 2), (4, 3), (5, 6)]
            .into_iter()
            .map(|(copy, kept)| (Uuid::from_u128(copy), Uuid::from_u128(kept)))
            .collect();
        assert_eq!(found, expected);
    }
}
