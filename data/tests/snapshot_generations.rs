//! A snapshot is published as one swap: readers working while exports follow one another
//! see every file of one export, never the podcasts of one and the episodes of the next.
//! The snapshot's files used to be renamed into place one by one, so a reader between
//! two renames read a mix.

mod common;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use podlens_data::generations::published_dir;
use podlens_data::{Catalog, Snapshot};

use common::feed;

/// Every export of the test writes podcasts with this many episodes each, so a
/// consistent read has exactly this many episodes per podcast.
const EPISODES_PER_PODCAST: usize = 2;
const EXPORTS: usize = 24;

fn count(connection: &duckdb::Connection, file: &Path) -> duckdb::Result<u64> {
    connection.query_row(
        &format!("SELECT count(*) FROM read_parquet('{}')", file.display()),
        [],
        |row| row.get(0),
    )
}

/// Podcasts and episodes of the snapshot as a bulk reader (the indexer) reads them:
/// the link resolved once, then one file after the other.
fn bulk_read(parquet: &Path) -> duckdb::Result<(u64, u64)> {
    let connection = duckdb::Connection::open_in_memory()?;
    let dir = published_dir(parquet);
    let podcasts = count(&connection, &dir.join("podcasts.parquet"))?;
    // Give an export time to publish between the two reads.
    std::thread::sleep(Duration::from_millis(3));
    let episodes = count(&connection, &dir.join("episodes.parquet"))?;
    Ok((podcasts, episodes))
}

#[test]
fn readers_never_see_two_exports_mixed() {
    let dir = tempfile::tempdir().unwrap();
    let parquet = dir.path().join(podlens_data::PARQUET_DIR);
    let mut catalog = Catalog::open(dir.path()).unwrap();
    catalog.upsert_feed(&feed(0, EPISODES_PER_PODCAST)).unwrap();
    catalog.export_parquet().unwrap();
    let snapshot = Arc::new(Snapshot::open(&parquet).unwrap());
    let done = Arc::new(AtomicBool::new(false));

    // A bulk reader, a server refreshing its snapshot, and queries on that snapshot
    // while the refreshes run. Each answers how many consistent reads it made; a mix
    // fails it. A read may fail when its generation was removed (two publications
    // happened meanwhile), which is an error, not a mix.
    let bulk = {
        let (parquet, done) = (parquet.clone(), done.clone());
        std::thread::spawn(move || {
            let mut consistent = 0;
            while !done.load(Ordering::Acquire) {
                assert!(
                    parquet.join("podcasts.parquet").is_file(),
                    "the contract path is always there"
                );
                if let Ok((podcasts, episodes)) = bulk_read(&parquet) {
                    assert_eq!(
                        episodes,
                        podcasts * EPISODES_PER_PODCAST as u64,
                        "a bulk read mixed two exports"
                    );
                    consistent += 1;
                }
            }
            consistent
        })
    };
    let refresher = {
        let (snapshot, done) = (snapshot.clone(), done.clone());
        std::thread::spawn(move || {
            let mut refreshes = 0;
            while !done.load(Ordering::Acquire) {
                if snapshot.refresh().is_ok() {
                    refreshes += 1;
                }
            }
            refreshes
        })
    };
    let queries = {
        let (snapshot, done) = (snapshot.clone(), done.clone());
        std::thread::spawn(move || {
            let mut consistent = 0;
            while !done.load(Ordering::Acquire) {
                if let Ok(stats) = snapshot.rss_public_stats(1) {
                    let stats = stats.podcast2_stats;
                    assert_eq!(
                        stats.episode_level_stats.total_rss_feeds,
                        stats.podcast_level_stats.total_rss_feeds * EPISODES_PER_PODCAST as u64,
                        "a query on the refreshing snapshot mixed two exports"
                    );
                    consistent += 1;
                }
            }
            consistent
        })
    };

    for index in 1..EXPORTS {
        catalog
            .upsert_feed(&feed(index, EPISODES_PER_PODCAST))
            .unwrap();
        catalog.export_parquet().unwrap();
    }
    // Let the readers see the last export too.
    std::thread::sleep(Duration::from_millis(200));
    done.store(true, Ordering::Release);
    let bulk_reads = bulk.join().expect("bulk reader");
    let refreshes = refresher.join().expect("refresher");
    let query_reads = queries.join().expect("queries");
    assert!(bulk_reads > 0 && refreshes > 0 && query_reads > 0);

    // The last export is what every reader reads now.
    snapshot.refresh().unwrap();
    let stats = snapshot.rss_public_stats(1).unwrap().podcast2_stats;
    assert_eq!(stats.podcast_level_stats.total_rss_feeds, EXPORTS as u64);
    assert_eq!(
        bulk_read(&parquet).unwrap(),
        (EXPORTS as u64, (EXPORTS * EPISODES_PER_PODCAST) as u64)
    );
    // The published generation and the one it replaced are kept, nothing else.
    let mut entries: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.starts_with("parquet"))
        .collect();
    entries.sort();
    assert_eq!(
        entries,
        [
            "parquet".to_owned(),
            format!("parquet.{}", EXPORTS - 1),
            format!("parquet.{EXPORTS}"),
        ]
    );
}
