//! Two feeds that declare one `podcast:guid` are one podcast: one record, from the feed
//! whose newest episode is the newest (then more episodes, then the URL that sorts
//! first), and the episodes of both, whatever order the feeds are stored, read again or
//! merged in. The feeds are RSS text read by the ingest's parser; what the catalog
//! should hold is written out by hand below.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use chrono::{DateTime, TimeZone, Utc};
use podlens_data::{Catalog, FeedState};
use podlens_model::catalog::{EpisodeRecord, FeedBatch, FeedFetchRecord, PodcastRecord};
use uuid::Uuid;

const GUID: &str = "5c8f1e3a-7b2d-5e4f-9a61-0d3c2b1a4e57";
/// The feed whose newest episode (15 January) is the newest.
const HOME: &str = "https://feeds.harbour-lights.example/show.xml";
/// A mirror whose newest episode is a bonus of 10 January.
const MIRROR: &str = "https://mirror.example.net/harbour-lights.rss";

struct Item<'a> {
    guid: &'a str,
    title: &'a str,
    date: &'a str,
}

fn rss(title: &str, items: &[Item<'_>]) -> String {
    let items: String = items
        .iter()
        .map(|item| {
            format!(
                r#"<item><title>{}</title><guid isPermaLink="false">{}</guid><pubDate>{}</pubDate>
                   <enclosure url="https://media.example/{}.mp3" type="audio/mpeg" length="1000"/>
                   <description>About {}.</description></item>"#,
                item.title, item.guid, item.date, item.guid, item.title
            )
        })
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
     xmlns:podcast="https://podcastindex.org/namespace/1.0">
<channel><title>{title}</title><link>https://harbour-lights.example/</link>
<description>Stories from the harbour.</description><language>en</language>
<itunes:author>Harbour Lights Collective</itunes:author>
<podcast:guid>{GUID}</podcast:guid>
{items}
</channel></rss>"#
    )
}

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2024, 2, 1, 9, 0, 0).single().unwrap()
}

fn read(url: &str, text: &str) -> FeedBatch {
    let feed = podlens_ingest::parse_feed(text.as_bytes(), None).expect("the feed parses");
    podlens_ingest::normalize(&feed, url, now())
}

fn home() -> FeedBatch {
    read(
        HOME,
        &rss(
            "Harbour Lights",
            &[
                Item {
                    guid: "hl-003",
                    title: "The Lighthouse Keeper",
                    date: "Mon, 15 Jan 2024 06:00:00 GMT",
                },
                Item {
                    guid: "hl-002",
                    title: "Fog Signals",
                    date: "Mon, 08 Jan 2024 06:00:00 GMT",
                },
                Item {
                    guid: "hl-001",
                    title: "First Light",
                    date: "Mon, 01 Jan 2024 06:00:00 GMT",
                },
            ],
        ),
    )
}

fn mirror_with(bonus_title: &str, fog_title: &str) -> FeedBatch {
    read(
        MIRROR,
        &rss(
            "Harbour Lights (mirror)",
            &[
                Item {
                    guid: "hl-bonus",
                    title: bonus_title,
                    date: "Wed, 10 Jan 2024 06:00:00 GMT",
                },
                Item {
                    guid: "hl-002",
                    title: fog_title,
                    date: "Mon, 08 Jan 2024 06:00:00 GMT",
                },
                Item {
                    guid: "hl-001",
                    title: "First Light [mirror]",
                    date: "Mon, 01 Jan 2024 06:00:00 GMT",
                },
            ],
        ),
    )
}

fn mirror() -> FeedBatch {
    mirror_with("Bonus: The Tide Tables", "Fog Signals [mirror]")
}

/// The fetch the ingest logs for a feed it stored.
fn fetched(batch: &FeedBatch) -> FeedFetchRecord {
    FeedFetchRecord {
        feed_url: batch.podcast.podcast_rss_feed_url.clone(),
        podcast_id: Some(batch.podcast.podcast_id),
        fetched_at: now(),
        outcome: "ok".to_owned(),
        http_status: Some(200),
        episodes: Some(batch.episodes.len() as i64),
        ..FeedFetchRecord::default()
    }
}

/// How a feed reaches the catalog.
#[derive(Debug, Clone, Copy)]
enum Write {
    /// `podlens ingest`: one upsert per group of feeds.
    Batch,
    /// A server's re-read feed: the rows that changed.
    Changes,
}

fn store(catalog: &mut Catalog, batch: &FeedBatch, write: Write) {
    match write {
        Write::Batch => catalog.upsert_feed(batch).unwrap(),
        Write::Changes => {
            catalog.store_feed_changes(batch).unwrap();
        }
    }
    catalog.record_fetch(&fetched(batch)).unwrap();
}

/// What the catalog holds of the podcast: its record, its episodes, their ids no longer
/// in the podcast's feed, its persons.
type Held = (
    PodcastRecord,
    Vec<EpisodeRecord>,
    Vec<Uuid>,
    Vec<podlens_model::catalog::PersonRecord>,
);

fn held(catalog: &Catalog, podcast_id: Uuid) -> Held {
    (
        catalog.podcast(podcast_id).unwrap().expect("one podcast"),
        catalog.episodes_of_podcast(podcast_id).unwrap(),
        catalog.removed_episode_ids(podcast_id).unwrap(),
        catalog.persons_of_podcast(podcast_id).unwrap(),
    )
}

fn titles(episodes: &[EpisodeRecord]) -> BTreeSet<(String, String)> {
    episodes
        .iter()
        .map(|episode| {
            (
                episode.episode_guid.clone().unwrap_or_default(),
                episode.episode_rss_title.clone(),
            )
        })
        .collect()
}

fn pairs(pairs: &[(&str, &str)]) -> BTreeSet<(String, String)> {
    pairs
        .iter()
        .map(|(guid, title)| ((*guid).to_owned(), (*title).to_owned()))
        .collect()
}

fn guid_of(episodes: &[EpisodeRecord], id: Uuid) -> String {
    episodes
        .iter()
        .find(|episode| episode.episode_id == id)
        .and_then(|episode| episode.episode_guid.clone())
        .unwrap_or_default()
}

/// The home feed's record and the union of both feeds' episodes, the mirror's bonus
/// marked as not in the podcast's feed.
fn assert_home_keeps_the_record(catalog: &Catalog, (podcast, episodes, removed, _): &Held) {
    assert_eq!(catalog.podcast_ids().unwrap().len(), 1);
    assert_eq!(podcast.podcast_rss_feed_url, HOME);
    assert_eq!(podcast.podcast_rss_title, "Harbour Lights");
    assert_eq!(podcast.total_episodes, 3);
    assert_eq!(
        podcast.last_episode_date,
        Utc.with_ymd_and_hms(2024, 1, 15, 6, 0, 0).single()
    );
    assert_eq!(
        titles(episodes),
        pairs(&[
            ("hl-001", "First Light"),
            ("hl-002", "Fog Signals"),
            ("hl-003", "The Lighthouse Keeper"),
            ("hl-bonus", "Bonus: The Tide Tables"),
        ])
    );
    let removed: Vec<String> = removed.iter().map(|id| guid_of(episodes, *id)).collect();
    assert_eq!(removed, ["hl-bonus"]);
}

/// The mirror is known as a feed of the podcast: polled, its fetches logged.
fn assert_the_mirror_is_an_alternate_feed(catalog: &Catalog, podcast_id: Uuid) {
    let polled: Vec<FeedState> = catalog.feeds_to_poll().unwrap();
    let urls: BTreeSet<(&str, Option<Uuid>)> = polled
        .iter()
        .map(|feed| (feed.feed_url.as_str(), feed.podcast_id))
        .collect();
    assert_eq!(
        urls,
        BTreeSet::from([(HOME, Some(podcast_id)), (MIRROR, Some(podcast_id))])
    );
    assert!(!catalog.fetches_of_feed(MIRROR).unwrap().is_empty());
}

#[test]
fn two_feeds_sharing_a_podcast_guid_keep_one_record_whatever_order_they_are_stored_in() {
    let podcast_id = home().podcast.podcast_id;
    assert_eq!(mirror().podcast.podcast_id, podcast_id, "one podcast id");
    let mut outcomes = Vec::new();
    for write in [Write::Batch, Write::Changes] {
        for first_home in [true, false] {
            let dir = tempfile::tempdir().unwrap();
            let mut catalog = Catalog::open(dir.path()).unwrap();
            let order = if first_home {
                [home(), mirror()]
            } else {
                [mirror(), home()]
            };
            for batch in &order {
                store(&mut catalog, batch, write);
            }
            let stored = held(&catalog, podcast_id);
            assert_home_keeps_the_record(&catalog, &stored);
            assert_the_mirror_is_an_alternate_feed(&catalog, podcast_id);

            // The mirror read again, changed: its bonus follows it, the record and the
            // episodes both feeds list stay the home feed's.
            store(
                &mut catalog,
                &mirror_with("Bonus: The Tide Tables, remastered", "Fog Signals [fixed]"),
                write,
            );
            let again = held(&catalog, podcast_id);
            assert_eq!(
                again.0, stored.0,
                "{write:?}: the record is the home feed's"
            );
            assert_eq!(again.3, stored.3, "{write:?}: so are the persons");
            assert_eq!(
                titles(&again.1),
                pairs(&[
                    ("hl-001", "First Light"),
                    ("hl-002", "Fog Signals"),
                    ("hl-003", "The Lighthouse Keeper"),
                    ("hl-bonus", "Bonus: The Tide Tables, remastered"),
                ])
            );
            assert_eq!(again.2, stored.2);
            // Unchanged, it writes nothing.
            let unchanged = catalog
                .store_feed_changes(&mirror_with(
                    "Bonus: The Tide Tables, remastered",
                    "Fog Signals [fixed]",
                ))
                .unwrap();
            assert!(unchanged.is_empty(), "{unchanged:?}");
            outcomes.push((write, first_home, stored));
        }
    }
    for (write, first_home, stored) in &outcomes[1..] {
        assert_eq!(
            stored, &outcomes[0].2,
            "{write:?}, home first: {first_home}"
        );
    }
}

#[test]
fn two_feeds_sharing_a_podcast_guid_in_one_upsert_keep_one_record_in_either_order() {
    let podcast_id = home().podcast.podcast_id;
    let mut outcomes = Vec::new();
    for batches in [[home(), mirror()], [mirror(), home()]] {
        let dir = tempfile::tempdir().unwrap();
        let mut catalog = Catalog::open(dir.path()).unwrap();
        let summary = catalog.upsert_feeds(&batches).unwrap();
        assert_eq!(summary.alternate_feeds, 1);
        let stored = held(&catalog, podcast_id);
        assert_home_keeps_the_record(&catalog, &stored);
        outcomes.push(stored);
    }
    assert_eq!(outcomes[0], outcomes[1]);
}

#[test]
fn an_alternate_feed_that_publishes_the_newest_episode_takes_the_record_over() {
    let podcast_id = home().podcast.podcast_id;
    for write in [Write::Batch, Write::Changes] {
        let dir = tempfile::tempdir().unwrap();
        let mut catalog = Catalog::open(dir.path()).unwrap();
        store(&mut catalog, &home(), write);
        store(&mut catalog, &mirror(), write);
        // The show moved to the mirror: a new episode there, after the home feed's last.
        let moved = read(
            MIRROR,
            &rss(
                "Harbour Lights",
                &[
                    Item {
                        guid: "hl-004",
                        title: "New Moorings",
                        date: "Mon, 22 Jan 2024 06:00:00 GMT",
                    },
                    Item {
                        guid: "hl-bonus",
                        title: "Bonus: The Tide Tables",
                        date: "Wed, 10 Jan 2024 06:00:00 GMT",
                    },
                ],
            ),
        );
        store(&mut catalog, &moved, write);
        // The home feed read again, unchanged, no longer keeps it.
        store(&mut catalog, &home(), write);
        let (podcast, episodes, removed, _) = held(&catalog, podcast_id);
        assert_eq!(podcast.podcast_rss_feed_url, MIRROR, "{write:?}");
        assert_eq!(podcast.total_episodes, 2);
        assert_eq!(
            titles(&episodes),
            pairs(&[
                ("hl-001", "First Light"),
                ("hl-002", "Fog Signals"),
                ("hl-003", "The Lighthouse Keeper"),
                ("hl-004", "New Moorings"),
                ("hl-bonus", "Bonus: The Tide Tables"),
            ]),
            "{write:?}"
        );
        let removed: BTreeSet<String> = removed.iter().map(|id| guid_of(&episodes, *id)).collect();
        assert_eq!(
            removed,
            BTreeSet::from(["hl-001", "hl-002", "hl-003"].map(str::to_owned)),
            "{write:?}"
        );
    }
}

#[test]
fn two_feeds_sharing_a_podcast_guid_and_their_newest_episode_keep_the_url_that_sorts_first() {
    let items = [Item {
        guid: "tie-1",
        title: "Even",
        date: "Mon, 01 Jan 2024 06:00:00 GMT",
    }];
    let first = read("https://a.example/feed", &rss("At A", &items));
    let second = read("https://b.example/feed", &rss("At B", &items));
    for order in [[&first, &second], [&second, &first]] {
        let dir = tempfile::tempdir().unwrap();
        let mut catalog = Catalog::open(dir.path()).unwrap();
        for batch in order {
            catalog.upsert_feed(batch).unwrap();
        }
        let podcast = catalog.podcast(first.podcast.podcast_id).unwrap().unwrap();
        assert_eq!(podcast.podcast_rss_title, "At A");
    }
}

/// A catalog of `feeds`, each fetch logged, with `transcribed` episodes (by item guid)
/// transcribed; exported.
fn partition(dir: &Path, feeds: &[FeedBatch], transcribed: &[&str]) -> PathBuf {
    let mut catalog = Catalog::open(dir).unwrap();
    for batch in feeds {
        store(&mut catalog, batch, Write::Batch);
        for episode in &batch.episodes {
            if transcribed.contains(&episode.episode_guid.as_deref().unwrap_or_default()) {
                catalog
                    .upsert_transcript(&common::transcript(episode, 2))
                    .unwrap();
            }
        }
    }
    catalog.export_parquet().unwrap().parquet_dir
}

/// Rows of `table` in `left`'s snapshot that `right`'s lacks, when the time an episode
/// left its podcast's feed is read as whether it did.
fn differing(left: &Path, right: &Path, table: &str) -> u64 {
    let connection = duckdb::Connection::open_in_memory().unwrap();
    let select = |dir: &Path| {
        let file = format!("'{}'", dir.join(format!("{table}.parquet")).display());
        if table == "episodes" {
            format!(
                r#"SELECT * REPLACE ("episodeRemovedFromFeedAt" IS NOT NULL AS "episodeRemovedFromFeedAt") FROM read_parquet({file})"#
            )
        } else {
            format!("SELECT * FROM read_parquet({file})")
        }
    };
    connection
        .query_row(
            &format!(
                "SELECT count(*) FROM ({} EXCEPT ALL {})",
                select(left),
                select(right)
            ),
            [],
            |row| row.get(0),
        )
        .unwrap()
}

#[test]
fn partitions_holding_two_feeds_of_one_podcast_guid_merge_as_one_catalog_of_both_in_either_order() {
    let dir = tempfile::tempdir().unwrap();
    let with_home = partition(&dir.path().join("home"), &[home()], &["hl-002"]);
    let with_mirror = partition(&dir.path().join("mirror"), &[mirror()], &["hl-bonus"]);
    let whole = partition(
        &dir.path().join("whole"),
        &[home(), mirror()],
        &["hl-002", "hl-bonus"],
    );
    let podcast_id = home().podcast.podcast_id;
    let mut merged_dirs = Vec::new();
    for (name, order) in [
        ("home-first", [&with_home, &with_mirror]),
        ("mirror-first", [&with_mirror, &with_home]),
    ] {
        let mut merged = Catalog::open(&dir.path().join(name)).unwrap();
        let summaries: Vec<_> = order
            .iter()
            .map(|partition| merged.merge_snapshot(partition).unwrap())
            .collect();
        assert_eq!(summaries[1].replaced, 1, "{name}");
        let kept_by_catalog = u64::from(name == "home-first");
        assert_eq!(summaries[1].alternate_feeds, kept_by_catalog, "{name}");
        let stored = held(&merged, podcast_id);
        assert_home_keeps_the_record(&merged, &stored);
        let transcribed: BTreeSet<String> = stored
            .1
            .iter()
            .filter(|episode| episode.episode_has_transcript)
            .filter_map(|episode| episode.episode_guid.clone())
            .collect();
        assert_eq!(
            transcribed,
            BTreeSet::from(["hl-002", "hl-bonus"].map(str::to_owned)),
            "{name}"
        );
        assert_eq!(merged.fetches_of_feed(MIRROR).unwrap().len(), 1, "{name}");
        assert_eq!(merged.fetches_of_feed(HOME).unwrap().len(), 1, "{name}");
        merged_dirs.push(merged.export_parquet().unwrap().parquet_dir);
    }
    for table in [
        "podcasts",
        "episodes",
        "persons",
        "transcripts",
        "transcript_segments",
        "feed_fetches",
    ] {
        for merged in &merged_dirs {
            for (left, right) in [(&whole, merged), (merged, &whole)] {
                assert_eq!(
                    differing(left, right, table),
                    0,
                    "{table}: {} has rows {} lacks",
                    left.display(),
                    right.display()
                );
            }
        }
    }
}
