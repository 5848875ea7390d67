//! The server's queries over the Parquet snapshots, against hand-built catalogs with
//! the expected answers computed here from the records themselves.

mod common;

use chrono::Duration;
use podlens_data::snapshot::{DirectoryQuery, EpisodesQuery, LatestEpisodesQuery, PersonsQuery};
use podlens_data::{Catalog, Snapshot};
use podlens_model::catalog::{EpisodeRecord, FeedBatch};
use uuid::Uuid;

use common::{base_time, feed, person, transcript};

struct Fixture {
    _dir: tempfile::TempDir,
    catalog: Catalog,
    snapshot: Snapshot,
    feeds: Vec<FeedBatch>,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    let titles = [
        "Alpha Hour",
        "ápple talk",
        "42 Answers",
        "  \"Beta\" Cast",
        "alpine",
        "Zebra",
        "Show Six",
    ];
    let mut feeds: Vec<FeedBatch> = titles
        .iter()
        .enumerate()
        .map(|(i, title)| {
            let mut batch = feed(i, 3 + i);
            batch.podcast.podcast_rss_title = (*title).to_owned();
            // Episodes of different podcasts interleave in time.
            for episode in &mut batch.episodes {
                let published = episode.episode_rss_published_at.unwrap();
                episode.episode_rss_published_at =
                    Some(published - Duration::minutes(i as i64 * 13));
            }
            batch
        })
        .collect();
    // A scheduled episode in the future, and one without a date.
    feeds[0].episodes[0].episode_rss_published_at = Some(base_time() + Duration::days(3));
    feeds[0].episodes[1].episode_rss_published_at = None;
    feeds[5].podcast.podcast_blocked = true;
    let guest_podcast = feeds[2].podcast.clone();
    let guest_episodes: Vec<EpisodeRecord> = feeds[2].episodes.clone();
    for episode in &guest_episodes[..2] {
        feeds[2]
            .persons
            .push(person(&guest_podcast, Some(episode), "Grace", "guest"));
    }
    feeds[2].persons.push(person(
        &guest_podcast,
        Some(&guest_episodes[4]),
        "Linus",
        "guest",
    ));
    catalog.upsert_feeds(&feeds).unwrap();
    for episode in [
        &feeds[1].episodes[0],
        &feeds[1].episodes[2],
        &feeds[3].episodes[1],
    ] {
        catalog.upsert_transcript(&transcript(episode, 3)).unwrap();
    }
    catalog.export_parquet().unwrap();
    let snapshot = Snapshot::open(&catalog.parquet_dir()).unwrap();
    Fixture {
        _dir: dir,
        catalog,
        snapshot,
        feeds,
    }
}

/// Episodes as stored: the transcripts added in the fixture mark their episodes.
fn stored_episodes(fixture: &Fixture) -> Vec<EpisodeRecord> {
    fixture
        .feeds
        .iter()
        .flat_map(|f| {
            fixture
                .catalog
                .episodes_of_podcast(f.podcast.podcast_id)
                .unwrap()
        })
        .collect()
}

#[test]
fn podcasts_are_found_by_every_identifier() {
    let fixture = fixture();
    let snapshot = &fixture.snapshot;
    let wanted = fixture
        .catalog
        .podcast(fixture.feeds[3].podcast.podcast_id)
        .unwrap()
        .unwrap();
    assert_eq!(
        snapshot.podcast_by_id(wanted.podcast_id).unwrap().as_ref(),
        Some(&wanted)
    );
    assert_eq!(
        snapshot
            .podcast_by_slug(&wanted.podcast_slug)
            .unwrap()
            .as_ref(),
        Some(&wanted)
    );
    assert_eq!(
        snapshot
            .podcast_by_apple_id(wanted.apple_id.as_deref().unwrap())
            .unwrap()
            .as_ref(),
        Some(&wanted)
    );
    assert_eq!(
        snapshot
            .podcast_by_spotify_id(wanted.spotify_id.as_deref().unwrap())
            .unwrap()
            .as_ref(),
        Some(&wanted)
    );
    assert_eq!(
        snapshot
            .podcast_by_id_or_slug(&wanted.podcast_id.to_string())
            .unwrap()
            .as_ref(),
        Some(&wanted)
    );
    assert_eq!(
        snapshot
            .podcast_by_id_or_slug(&wanted.podcast_slug)
            .unwrap()
            .as_ref(),
        Some(&wanted)
    );
    let loose_url = format!(
        "{}/",
        wanted
            .podcast_rss_feed_url
            .replace("https://", "HTTP://")
            .to_uppercase()
    );
    assert_eq!(
        snapshot
            .podcast_by_feed_url(&wanted.podcast_rss_feed_url)
            .unwrap()
            .as_ref(),
        Some(&wanted)
    );
    assert_eq!(
        snapshot.podcast_by_feed_url(&loose_url).unwrap().as_ref(),
        Some(&wanted)
    );
    assert_eq!(snapshot.podcast_by_id(Uuid::nil()).unwrap(), None);
    assert_eq!(snapshot.podcast_by_slug("no-such-show").unwrap(), None);

    let ids = vec![
        fixture.feeds[4].podcast.podcast_id,
        Uuid::nil(),
        fixture.feeds[0].podcast.podcast_id,
        fixture.feeds[4].podcast.podcast_id,
    ];
    let found: Vec<Uuid> = snapshot
        .podcasts_by_ids(&ids)
        .unwrap()
        .iter()
        .map(|p| p.podcast_id)
        .collect();
    assert_eq!(found, vec![ids[0], ids[2]]);
}

#[test]
fn a_podcasts_episodes_page_newest_first_with_filters() {
    let fixture = fixture();
    let podcast = &fixture.feeds[1].podcast;
    let mut all: Vec<EpisodeRecord> = stored_episodes(&fixture)
        .into_iter()
        .filter(|e| e.podcast_id == podcast.podcast_id)
        .collect();
    all.sort_by_key(|e| std::cmp::Reverse(e.episode_rss_published_at));

    let page = fixture
        .snapshot
        .podcast_episodes(
            podcast.podcast_id,
            &EpisodesQuery {
                has_transcript: None,
                skip: 1,
                limit: 2,
            },
        )
        .unwrap();
    assert_eq!(page.total_episodes, all.len() as u64);
    assert_eq!(page.total_transcripts, 2);
    assert_eq!(page.episodes, all[1..3].to_vec());

    let transcribed = fixture
        .snapshot
        .podcast_episodes(
            podcast.podcast_id,
            &EpisodesQuery {
                has_transcript: Some(true),
                ..Default::default()
            },
        )
        .unwrap();
    let expected: Vec<EpisodeRecord> = all
        .iter()
        .filter(|e| e.episode_has_transcript)
        .cloned()
        .collect();
    assert_eq!(transcribed.total_matching, expected.len() as u64);
    assert_eq!(transcribed.episodes, expected);

    let huge = fixture
        .snapshot
        .podcast_episodes(
            podcast.podcast_id,
            &EpisodesQuery {
                has_transcript: None,
                skip: 0,
                limit: 10_000,
            },
        )
        .unwrap();
    assert_eq!(huge.episodes.len(), all.len().min(100));

    let one = &all[2];
    assert_eq!(
        fixture
            .snapshot
            .episode_by_id(one.episode_id)
            .unwrap()
            .as_ref(),
        Some(one)
    );
    assert_eq!(fixture.snapshot.episode_by_id(Uuid::nil()).unwrap(), None);
}

#[test]
fn latest_episodes_follow_their_filters() {
    let fixture = fixture();
    let now = base_time() + Duration::hours(1);
    let podcasts: Vec<_> = fixture
        .feeds
        .iter()
        .map(|f| {
            fixture
                .catalog
                .podcast(f.podcast.podcast_id)
                .unwrap()
                .unwrap()
        })
        .collect();
    let expect = |query: &LatestEpisodesQuery| -> Vec<(Uuid, Vec<Uuid>)> {
        let mut episodes: Vec<EpisodeRecord> = stored_episodes(&fixture)
            .into_iter()
            .filter(|e| e.episode_rss_published_at.is_some_and(|at| at <= query.now))
            .filter(|e| {
                query
                    .has_transcript
                    .is_none_or(|want| e.episode_has_transcript == want)
            })
            .filter(|e| {
                let podcast = podcasts
                    .iter()
                    .find(|p| p.podcast_id == e.podcast_id)
                    .unwrap();
                let language = podcast.rss_language.clone().unwrap_or_default();
                let language_ok = query.language.as_ref().is_none_or(|want| {
                    language == *want || language.starts_with(&format!("{want}-"))
                });
                let image_ok = !query.podcast_image_required || podcast.podcast_image_url.is_some();
                language_ok && image_ok
            })
            .collect();
        episodes.sort_by_key(|e| std::cmp::Reverse(e.episode_rss_published_at));
        episodes.truncate(query.limit as usize);
        let mut grouped: Vec<(Uuid, Vec<Uuid>)> = Vec::new();
        for episode in episodes {
            match grouped.iter_mut().find(|(id, _)| *id == episode.podcast_id) {
                Some((_, ids)) => ids.push(episode.episode_id),
                None => grouped.push((episode.podcast_id, vec![episode.episode_id])),
            }
        }
        grouped
    };
    let actual = |query: &LatestEpisodesQuery| -> Vec<(Uuid, Vec<Uuid>)> {
        fixture
            .snapshot
            .latest_episodes(query)
            .unwrap()
            .into_iter()
            .map(|group| {
                (
                    group.podcast.podcast_id,
                    group.episodes.iter().map(|e| e.episode_id).collect(),
                )
            })
            .collect()
    };
    let queries = [
        LatestEpisodesQuery {
            now,
            ..Default::default()
        },
        LatestEpisodesQuery {
            now,
            limit: 7,
            ..Default::default()
        },
        LatestEpisodesQuery {
            now,
            language: None,
            ..Default::default()
        },
        LatestEpisodesQuery {
            now,
            has_transcript: Some(true),
            language: None,
            ..Default::default()
        },
        LatestEpisodesQuery {
            now,
            podcast_image_required: true,
            ..Default::default()
        },
    ];
    for query in &queries {
        let expected = expect(query);
        assert!(!expected.is_empty(), "{query:?}");
        assert_eq!(actual(query), expected, "{query:?}");
    }
    // Every fixture podcast is filed under Technology; none under Comedy.
    let comedy = LatestEpisodesQuery {
        now,
        categories: vec!["Comedy".to_owned()],
        ..Default::default()
    };
    assert!(actual(&comedy).is_empty());
    let technology = LatestEpisodesQuery {
        now,
        categories: vec!["TECHNOLOGY".to_owned()],
        ..Default::default()
    };
    assert_eq!(actual(&technology), expect(&queries[0]));
    let total: usize = fixture
        .snapshot
        .latest_episodes(&queries[2])
        .unwrap()
        .iter()
        .map(|g| g.episodes.len())
        .sum();
    assert!(total <= 150);
}

#[test]
fn latest_podcasts_by_last_episode() {
    let fixture = fixture();
    let mut with_transcripts: Vec<Uuid> = [1, 3]
        .iter()
        .map(|&i| fixture.feeds[i].podcast.podcast_id)
        .collect();
    // Same lastEpisodeDate everywhere in the fixture: ties are broken by id.
    with_transcripts.sort();
    let found: Vec<Uuid> = fixture
        .snapshot
        .latest_podcasts(Some(true), 10)
        .unwrap()
        .iter()
        .map(|p| p.podcast_id)
        .collect();
    assert_eq!(found, with_transcripts);
    let all = fixture.snapshot.latest_podcasts(None, 100).unwrap();
    assert_eq!(
        all.len(),
        fixture.feeds.len() - 1,
        "the blocked podcast is not listed"
    );
}

#[test]
fn transcripts_come_with_their_segments() {
    let fixture = fixture();
    let episode = &fixture.feeds[1].episodes[2];
    let expected = transcript(episode, 3);
    assert_eq!(
        fixture
            .snapshot
            .transcript_by_episode(episode.episode_id)
            .unwrap(),
        Some(expected)
    );
    assert_eq!(
        fixture
            .snapshot
            .transcript_by_episode(fixture.feeds[1].episodes[1].episode_id)
            .unwrap(),
        None
    );
    // The catalog reads the same transcript (the feed scheduler indexes it from there).
    assert_eq!(
        fixture
            .catalog
            .transcript_of_episode(episode.episode_id)
            .unwrap(),
        Some(transcript(episode, 3))
    );
    assert_eq!(
        fixture
            .catalog
            .transcript_of_episode(fixture.feeds[1].episodes[1].episode_id)
            .unwrap(),
        None
    );
}

#[test]
fn the_directory_lists_titles_by_first_letter() {
    let fixture = fixture();
    let titles = |letter: &str, skip: u64, limit: Option<u64>| -> (u64, Vec<String>) {
        let page = fixture
            .snapshot
            .directory(&DirectoryQuery {
                letter: letter.to_owned(),
                skip,
                limit,
            })
            .unwrap();
        (
            page.total,
            page.podcasts
                .into_iter()
                .map(|p| p.podcast_rss_title)
                .collect(),
        )
    };
    assert_eq!(
        titles("a", 0, None),
        (
            3,
            vec![
                "Alpha Hour".to_owned(),
                "alpine".to_owned(),
                "ápple talk".to_owned()
            ]
        )
    );
    assert_eq!(titles("A", 1, Some(1)), (3, vec!["alpine".to_owned()]));
    assert_eq!(
        titles("b", 0, None),
        (1, vec!["  \"Beta\" Cast".to_owned()])
    );
    assert_eq!(titles("#", 0, None), (1, vec!["42 Answers".to_owned()]));
    assert_eq!(
        titles("z", 0, None),
        (0, vec![]),
        "the blocked podcast is not listed"
    );
    assert!(
        fixture
            .snapshot
            .directory(&DirectoryQuery {
                letter: "ab".to_owned(),
                skip: 0,
                limit: None
            })
            .is_err()
    );
}

#[test]
fn persons_count_their_appearances() {
    let fixture = fixture();
    let batch = &fixture.feeds[2];
    let summary = fixture
        .snapshot
        .podcast_persons(batch.podcast.podcast_id, &PersonsQuery::default())
        .unwrap();
    let dates: Vec<_> = batch
        .episodes
        .iter()
        .filter_map(|e| e.episode_rss_published_at)
        .collect();
    assert_eq!(summary.episodes_count, batch.episodes.len() as u64);
    assert_eq!(summary.episodes_with_guests_count, 3);
    assert_eq!(
        summary.most_recent_episode_date,
        dates.iter().max().copied()
    );
    assert_eq!(summary.oldest_episode_date, dates.iter().min().copied());
    let rows: Vec<(String, String, u64)> = summary
        .persons
        .iter()
        .map(|p| (p.name.clone(), p.person_type.clone(), p.appearances_count))
        .collect();
    assert_eq!(
        rows,
        vec![
            (
                "Ada".to_owned(),
                "host".to_owned(),
                batch.episodes.len() as u64
            ),
            ("Grace".to_owned(), "guest".to_owned(), 2),
            ("Linus".to_owned(), "guest".to_owned(), 1),
        ]
    );
    let grace = &summary.persons[1];
    assert_eq!(
        grace.most_recent_appearance_date,
        batch.episodes[0].episode_rss_published_at
    );
    assert_eq!(
        grace.oldest_appearance_date,
        batch.episodes[1].episode_rss_published_at
    );

    let since = batch.episodes[1].episode_rss_published_at;
    let recent_guests = fixture
        .snapshot
        .podcast_persons(
            batch.podcast.podcast_id,
            &PersonsQuery {
                since,
                role: Some("Guest".to_owned()),
            },
        )
        .unwrap();
    assert_eq!(recent_guests.episodes_count, 2);
    let names: Vec<_> = recent_guests
        .persons
        .iter()
        .map(|p| (p.name.as_str(), p.appearances_count))
        .collect();
    assert_eq!(names, vec![("Grace", 2)]);
}

#[test]
fn a_new_export_is_seen_and_a_missing_one_reads_empty() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    let snapshot = Snapshot::open(&catalog.parquet_dir()).unwrap();
    assert_eq!(snapshot.latest_podcasts(None, 10).unwrap(), vec![]);
    assert_eq!(snapshot.podcast_by_slug("show-0").unwrap(), None);

    let first = feed(0, 2);
    catalog.upsert_feed(&first).unwrap();
    catalog.export_parquet().unwrap();
    assert!(snapshot.refresh_if_changed().unwrap());
    assert!(!snapshot.refresh_if_changed().unwrap());
    assert_eq!(
        snapshot
            .podcast_by_slug("show-0")
            .unwrap()
            .map(|p| p.podcast_id),
        Some(first.podcast.podcast_id)
    );

    let mut renamed = first.clone();
    renamed.podcast.podcast_rss_title = "Renamed".to_owned();
    catalog.upsert_feed(&renamed).unwrap();
    catalog.export_parquet().unwrap();
    snapshot.refresh().unwrap();
    assert_eq!(
        snapshot
            .podcast_by_slug("show-0")
            .unwrap()
            .unwrap()
            .podcast_rss_title,
        "Renamed"
    );
}

#[test]
fn a_snapshot_serves_queries_from_many_threads() {
    let fixture = fixture();
    let snapshot = std::sync::Arc::new(fixture.snapshot);
    let ids: Vec<Uuid> = fixture.feeds.iter().map(|f| f.podcast.podcast_id).collect();
    let handles: Vec<_> = ids
        .iter()
        .map(|&id| {
            let snapshot = snapshot.clone();
            std::thread::spawn(move || snapshot.podcast_by_id(id).unwrap().map(|p| p.podcast_id))
        })
        .collect();
    let found: Vec<Option<Uuid>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(found, ids.into_iter().map(Some).collect::<Vec<_>>());
}

#[test]
fn in_memory_tables_answer_as_the_views_over_the_files_do() {
    // The default snapshot loads these small files into memory; the other reads every
    // file through views. Both must answer every query alike.
    let fixture = fixture();
    let views = Snapshot::open_materializing(&fixture.catalog.parquet_dir(), 0).unwrap();
    let both = [&fixture.snapshot, &views];
    let answers = |snapshot: &Snapshot| -> Vec<String> {
        let mut out = vec![format!(
            "{:?}",
            snapshot.latest_podcasts(None, 100).unwrap()
        )];
        for batch in &fixture.feeds {
            let id = batch.podcast.podcast_id;
            out.push(format!("{:?}", snapshot.podcast_by_id(id).unwrap()));
            out.push(format!(
                "{:?}",
                snapshot
                    .podcast_by_slug(&batch.podcast.podcast_slug)
                    .unwrap()
            ));
            let page = EpisodesQuery {
                has_transcript: None,
                skip: 0,
                limit: 100,
            };
            out.push(format!(
                "{:?}",
                snapshot.podcast_episodes(id, &page).unwrap()
            ));
            out.push(format!(
                "{:?}",
                snapshot
                    .podcast_persons(id, &PersonsQuery::default())
                    .unwrap()
            ));
        }
        for letter in ["a", "z", "#"] {
            out.push(format!(
                "{:?}",
                snapshot
                    .directory(&DirectoryQuery {
                        letter: letter.to_owned(),
                        skip: 0,
                        limit: None,
                    })
                    .unwrap()
            ));
        }
        out
    };
    let [in_memory, over_files] = both.map(answers);
    assert!(in_memory.len() > 20);
    assert_eq!(in_memory, over_files);
}

#[test]
fn transcripts_unavailable_counts_declared_transcripts_the_catalog_does_not_hold() {
    let fixture = fixture();
    let feeds = &fixture.feeds;
    // The fixture attaches these transcripts; one of them its feed declares.
    let held = [
        feeds[1].episodes[0].episode_id,
        feeds[1].episodes[2].episode_id,
        feeds[3].episodes[1].episode_id,
    ];
    assert!(
        feeds
            .iter()
            .flat_map(|f| &f.episodes)
            .any(|e| held.contains(&e.episode_id) && !e.episode_transcript_urls.is_empty())
    );
    let mut total = 0;
    for feed in feeds {
        let expected = feed
            .episodes
            .iter()
            .filter(|e| !e.episode_transcript_urls.is_empty() && !held.contains(&e.episode_id))
            .count() as u64;
        let counted = fixture
            .snapshot
            .transcripts_unavailable(feed.podcast.podcast_id)
            .unwrap();
        assert_eq!(counted, expected, "{}", feed.podcast.podcast_rss_title);
        total += expected;
    }
    assert!(total > 0);
}

/// A crawl of `site` that found `emails` and one `(kind, url, occurrences)` social each.
fn crawl(
    site: &str,
    emails: &[&str],
    socials: &[(podlens_model::SocialKind, &str, u64)],
) -> podlens_model::entities::WebsiteCrawlResult {
    use podlens_model::entities::{CrawlContactPage, CrawlSocial, CrawlStats, WebsiteCrawlResult};
    WebsiteCrawlResult {
        emails: emails.iter().map(|e| (*e).to_owned()).collect(),
        contact_pages: vec![CrawlContactPage {
            url: format!("{site}/contact"),
            emails: emails.iter().map(|e| (*e).to_owned()).collect(),
            ..CrawlContactPage::default()
        }],
        socials: socials
            .iter()
            .map(|(kind, url, occurrences)| CrawlSocial {
                kind: *kind,
                url: (*url).to_owned(),
                occurrences: *occurrences,
                pages: vec![site.to_owned()],
            })
            .collect(),
        stats: CrawlStats {
            base_url: site.to_owned(),
            pages_crawled: 3,
            ..CrawlStats::default()
        },
        ..WebsiteCrawlResult::default()
    }
}

#[test]
fn enrichment_is_read_per_podcast_and_follows_a_new_export() {
    use podlens_model::SocialKind;
    let mut fixture = fixture();
    let [first, second] = [0, 3].map(|i| fixture.feeds[i].podcast.podcast_id);
    let at = base_time();
    let first_crawl = crawl(
        "https://first.example",
        &["zoe@first.example", "ann@first.example"],
        &[
            (SocialKind::Instagram, "https://instagram.com/first", 2),
            (SocialKind::Twitter, "https://x.com/first", 7),
        ],
    );
    fixture
        .catalog
        .store_crawl_result(first, &first_crawl, at)
        .unwrap();
    fixture
        .catalog
        .store_crawl_result(
            second,
            &crawl("https://second.example", &["bo@second.example"], &[]),
            at,
        )
        .unwrap();
    fixture.catalog.export_parquet().unwrap();
    fixture.snapshot.refresh().unwrap();
    let snapshot = &fixture.snapshot;

    // Emails in order of address, each with the page it was found on.
    let contacts = snapshot.podcast_contacts(first).unwrap();
    let emails: Vec<(&str, Option<&str>)> = contacts
        .iter()
        .map(|c| (c.value.as_str(), c.page_url.as_deref()))
        .collect();
    assert_eq!(
        emails,
        [
            ("ann@first.example", Some("https://first.example/contact")),
            ("zoe@first.example", Some("https://first.example/contact")),
        ]
    );
    // The profile linked more often first.
    let socials: Vec<(String, u64)> = snapshot
        .podcast_social_links(first)
        .unwrap()
        .into_iter()
        .map(|link| (link.url, link.occurrences))
        .collect();
    assert_eq!(
        socials,
        [
            ("https://x.com/first".to_owned(), 7),
            ("https://instagram.com/first".to_owned(), 2)
        ]
    );
    assert_eq!(
        snapshot.website_crawl(first).unwrap(),
        Some((first_crawl, at))
    );
    // Another podcast's enrichment is its own; a podcast without any has none.
    assert_eq!(snapshot.podcast_contacts(second).unwrap().len(), 1);
    assert!(snapshot.podcast_social_links(second).unwrap().is_empty());
    let plain = fixture.feeds[1].podcast.podcast_id;
    assert!(snapshot.podcast_contacts(plain).unwrap().is_empty());
    assert_eq!(snapshot.website_crawl(plain).unwrap(), None);

    // A new crawl replaces the old one's contacts once it is exported.
    let recrawl = crawl("https://first.example", &["new@first.example"], &[]);
    fixture
        .catalog
        .store_crawl_result(first, &recrawl, at + Duration::days(1))
        .unwrap();
    assert_eq!(
        snapshot.podcast_contacts(first).unwrap().len(),
        2,
        "not exported yet"
    );
    fixture.catalog.export_parquet().unwrap();
    fixture.snapshot.refresh().unwrap();
    let snapshot = &fixture.snapshot;
    let emails: Vec<String> = snapshot
        .podcast_contacts(first)
        .unwrap()
        .into_iter()
        .map(|c| c.value)
        .collect();
    assert_eq!(emails, ["new@first.example"]);
    assert!(snapshot.podcast_social_links(first).unwrap().is_empty());
    assert_eq!(
        snapshot.website_crawl(first).unwrap().map(|(_, at)| at),
        Some(at + Duration::days(1))
    );
}
