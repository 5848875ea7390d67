//! Partitions of a catalog built apart and merged (a cluster's batch): the merged
//! snapshot holds what one catalog holding every feed holds, and a podcast two
//! partitions both hold from one feed (a partition merged again) is the later one's,
//! whole. Two feeds naming one `podcast:guid` are `shared_podcast_guid.rs`'s.

mod common;

use std::path::{Path, PathBuf};

use podlens_data::Catalog;
use podlens_model::catalog::FeedBatch;

use common::{feed, person, transcript};

/// Rows of `sql` (over Parquet files), in order.
fn count(sql: &str) -> u64 {
    let connection = duckdb::Connection::open_in_memory().unwrap();
    connection.query_row(sql, [], |row| row.get(0)).unwrap()
}

/// A catalog of `feeds` (the first feed's second episode transcribed), exported.
fn exported(dir: &Path, feeds: &[FeedBatch]) -> PathBuf {
    let mut catalog = Catalog::open(dir).unwrap();
    catalog.upsert_feeds(feeds).unwrap();
    catalog
        .upsert_transcript(&transcript(&feeds[0].episodes[1], 3))
        .unwrap();
    catalog.export_parquet().unwrap().parquet_dir
}

const TABLES: &[&str] = &[
    "podcasts",
    "episodes",
    "persons",
    "transcripts",
    "transcript_segments",
];

#[test]
fn merged_partitions_hold_what_one_catalog_of_every_feed_holds() {
    let dir = tempfile::tempdir().unwrap();
    let mut feeds: Vec<FeedBatch> = (0..4).map(|i| feed(i, 3 + i)).collect();
    let host = feeds[2].podcast.clone();
    feeds[2]
        .persons
        .push(person(&host, None, "Ada Lovelace", "host"));
    let first = exported(&dir.path().join("first"), &feeds[..2]);
    let second = exported(&dir.path().join("second"), &feeds[2..]);

    let whole_dir = dir.path().join("whole");
    let mut whole = Catalog::open(&whole_dir).unwrap();
    whole.upsert_feeds(&feeds).unwrap();
    whole
        .upsert_transcript(&transcript(&feeds[0].episodes[1], 3))
        .unwrap();
    whole
        .upsert_transcript(&transcript(&feeds[2].episodes[1], 3))
        .unwrap();
    let whole = whole.export_parquet().unwrap().parquet_dir;

    let mut merged = Catalog::open(&dir.path().join("merged")).unwrap();
    let a = merged.merge_snapshot(&first).unwrap();
    let b = merged.merge_snapshot(&second).unwrap();
    assert_eq!(
        (a.podcasts, a.replaced, b.podcasts, b.replaced),
        (2, 0, 2, 0)
    );
    let merged = merged.export_parquet().unwrap().parquet_dir;

    for table in TABLES {
        let whole = whole.join(format!("{table}.parquet"));
        let merged = merged.join(format!("{table}.parquet"));
        let rows = count(&format!(
            "SELECT count(*) FROM read_parquet('{}')",
            whole.display()
        ));
        assert!(
            rows > 0,
            "{table} is empty: the comparison would prove nothing"
        );
        for (left, right) in [(&whole, &merged), (&merged, &whole)] {
            let differing = count(&format!(
                "SELECT count(*) FROM (SELECT * FROM read_parquet('{}') EXCEPT ALL SELECT * FROM read_parquet('{}'))",
                left.display(),
                right.display()
            ));
            assert_eq!(
                differing,
                0,
                "{table}: {} has rows {} lacks",
                left.display(),
                right.display()
            );
        }
    }
}

#[test]
fn a_podcast_two_partitions_hold_from_one_feed_is_the_later_partitions_whole() {
    let dir = tempfile::tempdir().unwrap();
    let earlier = feed(0, 5);
    // The same feed read again, with fewer episodes.
    let mut later = feed(0, 2);
    later.podcast.podcast_rss_title = "The Later Feed's Title".to_owned();
    let first = exported(&dir.path().join("first"), &[earlier]);
    let second = exported(&dir.path().join("second"), &[later.clone()]);

    let mut merged = Catalog::open(&dir.path().join("merged")).unwrap();
    merged.merge_snapshot(&first).unwrap();
    let summary = merged.merge_snapshot(&second).unwrap();
    assert_eq!((summary.podcasts, summary.replaced), (1, 1));
    let parquet = merged.export_parquet().unwrap().parquet_dir;
    let file = |table: &str| {
        parquet
            .join(format!("{table}.parquet"))
            .display()
            .to_string()
    };
    assert_eq!(
        count(&format!(
            r#"SELECT count(*) FROM read_parquet('{}') WHERE "podcastRssTitle" = 'The Later Feed''s Title'"#,
            file("podcasts")
        )),
        1
    );
    assert_eq!(
        count(&format!(
            "SELECT count(*) FROM read_parquet('{}')",
            file("podcasts")
        )),
        1
    );
    assert_eq!(
        count(&format!(
            "SELECT count(*) FROM read_parquet('{}')",
            file("episodes")
        )),
        2
    );
    // Both partitions transcribed the second episode: one transcript, the later one's.
    assert_eq!(
        count(&format!(
            "SELECT count(*) FROM read_parquet('{}')",
            file("transcripts")
        )),
        1
    );
}

#[test]
fn a_folder_without_a_snapshot_is_refused_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut merged = Catalog::open(&dir.path().join("merged")).unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let error = merged.merge_snapshot(&empty).unwrap_err().to_string();
    assert!(error.contains("not a catalog snapshot"), "{error}");
    assert_eq!(merged.counts().unwrap().podcasts, 0);
}
