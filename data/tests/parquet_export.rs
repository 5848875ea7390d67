//! The Parquet snapshot contract: file names, column names (the records' serde names),
//! column types, and values read back equal to what was stored.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use podlens_data::{Catalog, snapshot};
use podlens_model::catalog::{EpisodeRecord, TranscriptRecord};

use common::{feed, person, transcript};

/// The rows of `sql` (over Parquet files) as DuckDB answers them, in order.
fn query<T>(sql: &str, row: impl FnMut(&duckdb::Row<'_>) -> duckdb::Result<T>) -> Vec<T> {
    let connection = duckdb::Connection::open_in_memory().unwrap();
    let mut statement = connection.prepare(sql).unwrap();
    statement
        .query_map([], row)
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
}

/// Column names and types of a Parquet file, as DuckDB reads them.
fn parquet_columns(path: &Path) -> Vec<(String, String)> {
    query(
        &format!("DESCRIBE SELECT * FROM read_parquet('{}')", path.display()),
        |row| Ok((row.get(0)?, row.get(1)?)),
    )
}

fn serde_names<T: serde::Serialize>(record: &T) -> BTreeSet<String> {
    match serde_json::to_value(record).unwrap() {
        serde_json::Value::Object(map) => map.keys().cloned().collect(),
        other => panic!("not an object: {other}"),
    }
}

fn names(columns: &[(String, String)]) -> BTreeSet<String> {
    columns.iter().map(|(name, _)| name.clone()).collect()
}

fn type_of<'a>(columns: &'a [(String, String)], name: &str) -> &'a str {
    columns
        .iter()
        .find(|(column, _)| column == name)
        .map(|(_, t)| t.as_str())
        .unwrap()
}

struct Exported {
    _dir: tempfile::TempDir,
    parquet: std::path::PathBuf,
    feeds: Vec<podlens_model::catalog::FeedBatch>,
    transcript: TranscriptRecord,
}

fn export() -> Exported {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    let mut feeds: Vec<_> = (0..3).map(|i| feed(i, 4 + i)).collect();
    let guest_episode = feeds[1].episodes[0].clone();
    let guest_podcast = feeds[1].podcast.clone();
    feeds[1].persons.push(person(
        &guest_podcast,
        Some(&guest_episode),
        "Grace",
        "guest",
    ));
    catalog.upsert_feeds(&feeds).unwrap();
    let transcript = transcript(&feeds[0].episodes[1], 5);
    catalog.upsert_transcript(&transcript).unwrap();
    catalog
        .record_fetch(&podlens_model::catalog::FeedFetchRecord {
            feed_url: feeds[0].podcast.podcast_rss_feed_url.clone(),
            fetched_at: common::base_time(),
            outcome: "ok".to_owned(),
            ..Default::default()
        })
        .unwrap();
    let summary = catalog.export_parquet().unwrap();
    assert_eq!(summary.podcasts, 3);
    assert_eq!(summary.episodes, 4 + 5 + 6);
    assert_eq!(summary.persons, 4);
    assert_eq!(
        (
            summary.transcripts,
            summary.transcript_segments,
            summary.feed_fetches
        ),
        (1, 5, 1)
    );
    Exported {
        parquet: summary.parquet_dir.clone(),
        _dir: dir,
        feeds,
        transcript,
    }
}

#[test]
fn snapshot_files_are_published_without_leftovers() {
    let exported = export();
    let mut files: Vec<String> = std::fs::read_dir(&exported.parquet)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "authority_scores.parquet",
            "chart_positions.parquet",
            "episode_sponsors.parquet",
            "episodes.parquet",
            "feed_fetches.parquet",
            "persons.parquet",
            "platform_lookups.parquet",
            "podcast_contacts.parquet",
            "podcast_social_links.parquet",
            "podcasts.parquet",
            "transcript_segments.parquet",
            "transcripts.parquet",
            "website_crawls.parquet",
        ],
        "the catalog and enrichment tables, and no temporary files"
    );
}

#[test]
fn columns_are_the_api_field_names() {
    let exported = export();
    let podcasts = parquet_columns(&exported.parquet.join("podcasts.parquet"));
    assert_eq!(names(&podcasts), serde_names(&exported.feeds[0].podcast));
    for contract in [
        "podcastId",
        "podcastRssTitle",
        "podcastRssFeedUrl",
        "rssLanguage",
    ] {
        assert!(names(&podcasts).contains(contract), "{contract}");
    }
    assert_eq!(type_of(&podcasts, "podcastId"), "VARCHAR");
    assert_eq!(type_of(&podcasts, "updatedAt"), "TIMESTAMP WITH TIME ZONE");
    assert_eq!(type_of(&podcasts, "rssCategories"), "VARCHAR[]");

    let episodes = parquet_columns(&exported.parquet.join("episodes.parquet"));
    let mut expected = serde_names(&exported.feeds[0].episodes[0]);
    expected.insert("episodeRemovedFromFeedAt".to_owned());
    assert_eq!(names(&episodes), expected);
    for contract in [
        "episodeId",
        "episodeRssTitle",
        "episodeEnclosureUrl",
        "episodeRssPublishedAt",
        "episodeDurationSeconds",
    ] {
        assert!(names(&episodes).contains(contract), "{contract}");
    }
    assert_eq!(
        type_of(&episodes, "episodeRssPublishedAt"),
        "TIMESTAMP WITH TIME ZONE"
    );
    assert_eq!(type_of(&episodes, "episodeDurationSeconds"), "BIGINT");
    assert_eq!(type_of(&episodes, "transcriptId"), "VARCHAR");

    let persons = parquet_columns(&exported.parquet.join("persons.parquet"));
    assert_eq!(names(&persons), serde_names(&exported.feeds[0].persons[0]));

    let transcripts = parquet_columns(&exported.parquet.join("transcripts.parquet"));
    let mut expected = serde_names(&exported.transcript);
    expected.remove("segments");
    assert_eq!(names(&transcripts), expected);

    let segments = parquet_columns(&exported.parquet.join("transcript_segments.parquet"));
    let segment_names: Vec<&str> = segments.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        segment_names,
        [
            "transcriptId",
            "episodeId",
            "podcastId",
            "segmentIndex",
            "startSecond",
            "endSecond",
            "speaker",
            "text"
        ]
    );

    let fetches = parquet_columns(&exported.parquet.join("feed_fetches.parquet"));
    assert_eq!(
        names(&fetches),
        serde_names(&podlens_model::catalog::FeedFetchRecord::default())
    );
}

#[test]
fn values_read_back_equal_to_what_was_stored() {
    let exported = export();
    let mut podcasts: Vec<_> = exported.feeds.iter().map(|f| f.podcast.clone()).collect();
    // totalTranscripts of the first podcast now counts its stored transcript.
    podcasts[0].total_transcripts = 1;
    podcasts.sort_by_key(|p| p.podcast_id);
    assert_eq!(
        snapshot::read_podcasts(&exported.parquet).unwrap(),
        podcasts
    );

    let mut expected: Vec<EpisodeRecord> = exported
        .feeds
        .iter()
        .flat_map(|f| f.episodes.clone())
        .collect();
    for episode in &mut expected {
        if episode.episode_id == exported.transcript.episode_id {
            episode.episode_has_transcript = true;
            episode.transcript_id = Some(exported.transcript.transcript_id);
        }
    }
    expected.sort_by(|a, b| {
        a.podcast_id
            .cmp(&b.podcast_id)
            .then(b.episode_rss_published_at.cmp(&a.episode_rss_published_at))
    });
    let mut streamed = Vec::new();
    let mut batches = 0;
    let total = snapshot::for_each_episode_batch::<podlens_data::DataError, _>(
        &exported.parquet,
        4,
        |batch| {
            assert!(batch.len() <= 4);
            batches += 1;
            streamed.extend_from_slice(batch);
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(total, expected.len() as u64);
    assert!(batches >= expected.len().div_ceil(4));
    assert_eq!(streamed, expected);
    assert_eq!(
        snapshot::read_episodes(&exported.parquet).unwrap(),
        expected
    );

    assert_eq!(
        snapshot::read_transcripts(&exported.parquet).unwrap(),
        vec![exported.transcript.clone()]
    );
    let mut persons: Vec<_> = exported
        .feeds
        .iter()
        .flat_map(|f| f.persons.clone())
        .collect();
    let mut read = snapshot::read_persons(&exported.parquet).unwrap();
    persons.sort_by(|a, b| (a.podcast_id, &a.name).cmp(&(b.podcast_id, &b.name)));
    read.sort_by(|a, b| (a.podcast_id, &a.name).cmp(&(b.podcast_id, &b.name)));
    assert_eq!(read, persons);
}

#[test]
fn a_reader_stops_at_the_first_error_of_its_visitor() {
    #[derive(Debug)]
    enum VisitError {
        Data,
        Stop,
    }
    impl From<podlens_data::DataError> for VisitError {
        fn from(_: podlens_data::DataError) -> Self {
            VisitError::Data
        }
    }
    let exported = export();
    let mut seen = 0;
    let result = snapshot::for_each_episode_batch(&exported.parquet, 2, |_| {
        seen += 1;
        Err(VisitError::Stop)
    });
    assert!(matches!(result, Err(VisitError::Stop)));
    assert_eq!(seen, 1);
    let missing = snapshot::read_podcasts(Path::new("/nonexistent/podlens/parquet"));
    assert!(
        missing
            .unwrap_err()
            .to_string()
            .contains("snapshot file missing")
    );
}

/// Every row of a Parquet file as text, in file order.
fn rows_in_order(path: &Path) -> Vec<String> {
    query(
        &format!(
            "SELECT CAST(t AS VARCHAR) FROM read_parquet('{}') AS t",
            path.display()
        ),
        |row| row.get(0),
    )
}

#[test]
fn a_snapshot_sorted_in_parts_is_the_snapshot_sorted_at_once() {
    let exported = export();
    let files: Vec<std::path::PathBuf> = std::fs::read_dir(&exported.parquet)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    let whole: Vec<Vec<String>> = files.iter().map(|path| rows_in_order(path)).collect();
    let catalog = Catalog::open(exported._dir.path()).unwrap();
    // Parts of 2 rows: episodes (15 rows of 3 podcasts) in one part per podcast, the
    // transcript's 5 segments in one part (one transcript).
    let summary = catalog.export_parquet_in_parts(2).unwrap();
    assert_eq!((summary.episodes, summary.transcript_segments), (15, 5));
    for (path, rows) in files.iter().zip(&whole) {
        assert_eq!(&rows_in_order(path), rows, "{}", path.display());
    }
    let leftovers: Vec<String> = std::fs::read_dir(&exported.parquet)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}
