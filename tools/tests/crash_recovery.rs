//! Crashes for real: `podlens ingest` and `podlens index` run as child processes and are
//! killed with SIGKILL part-way, at fractions of the time an uninterrupted run takes.
//! After each kill the data directory must be consistent (the catalog opens, every
//! episode belongs to a stored podcast, the snapshot reads whole, the published index
//! generation opens and answers as before), and a rerun must reach exactly the state of
//! an uninterrupted run.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use podlens_data::Catalog;
use podlens_data::snapshot::{read_episodes, read_podcasts};
use podlens_indexer::{
    IndexReaderHandle, MatchMode, SearchMode, SearchRequest, SearchTerm, Target,
};
use podlens_tools::generate::{GenerateOptions, generate};

const PODCASTS: usize = 120;
/// Where in an uninterrupted run's duration each kill lands.
const KILL_AT: [f64; 4] = [0.15, 0.4, 0.65, 0.9];

fn podlens(data_dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_podlens"));
    command
        .arg("--no-progress")
        .args(args)
        .arg("--data-dir")
        .arg(data_dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

/// Runs to the end; returns how long it took.
fn run(data_dir: &Path, args: &[&str]) -> Duration {
    let started = Instant::now();
    let status = podlens(data_dir, args).status().expect("podlens runs");
    assert!(status.success(), "podlens {args:?} failed");
    started.elapsed()
}

/// Starts, waits `after`, then kills with SIGKILL; returns whether it was still running.
fn run_and_kill(data_dir: &Path, args: &[&str], after: Duration) -> bool {
    let mut child = podlens(data_dir, args).spawn().expect("podlens starts");
    std::thread::sleep(after);
    let running = child.try_wait().expect("status").is_none();
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    running
}

fn corpus(dir: &Path) -> PathBuf {
    let out = dir.join("corpus");
    generate(
        &GenerateOptions {
            podcasts: PODCASTS,
            seed: 11,
            out: out.clone(),
            base_url: "http://127.0.0.1:9".into(),
            transcript_share: 0.0,
            chart_days: 1,
            as_of: None,
        },
        &|| {},
    )
    .expect("corpus generates");
    out.join("feeds")
}

/// Podcast ids and episode ids in the catalog, after checking that it opens and that
/// every episode belongs to a stored podcast.
fn catalog_state(data_dir: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let catalog = Catalog::open(data_dir).expect("the catalog opens after a crash");
    let counts = catalog.counts().expect("counts");
    let mut podcasts = BTreeSet::new();
    let mut episodes = BTreeSet::new();
    catalog
        .for_each_podcast_with_episodes(
            |podcast, its_episodes| -> Result<(), podlens_data::DataError> {
                podcasts.insert(podcast.podcast_id.to_string());
                for episode in its_episodes {
                    assert_eq!(episode.podcast_id, podcast.podcast_id);
                    episodes.insert(episode.episode_id.to_string());
                }
                Ok(())
            },
        )
        .expect("podcasts read");
    assert_eq!(podcasts.len() as u64, counts.podcasts);
    assert_eq!(
        episodes.len() as u64,
        counts.episodes,
        "episodes without a stored podcast"
    );
    (podcasts, episodes)
}

/// When a snapshot exists, it reads whole and agrees with itself.
fn snapshot_reads_whole(data_dir: &Path) {
    let parquet = data_dir.join(podlens_data::PARQUET_DIR);
    if !parquet.join("podcasts.parquet").exists() {
        return;
    }
    let podcasts = read_podcasts(&parquet).expect("podcasts snapshot reads");
    let episodes = read_episodes(&parquet).expect("episodes snapshot reads");
    let ids: BTreeSet<_> = podcasts.iter().map(|p| p.podcast_id).collect();
    assert!(episodes.iter().all(|e| ids.contains(&e.podcast_id)));
}

#[test]
fn ingest_killed_part_way_keeps_the_catalog_consistent_and_a_rerun_completes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let feeds = corpus(dir.path());
    let feeds = feeds.to_str().expect("utf-8 path");
    let args = ["ingest", feeds, "--no-transcripts"];

    let reference = dir.path().join("reference");
    let whole = run(&reference, &args);
    let expected = catalog_state(&reference);
    assert!(
        expected.0.len() > PODCASTS / 2,
        "the reference ingest stored podcasts"
    );

    let crashed = dir.path().join("crashed");
    let mut partial = 0;
    for fraction in KILL_AT {
        let was_running = run_and_kill(&crashed, &args, whole.mul_f64(fraction));
        let (podcasts, episodes) = catalog_state(&crashed);
        snapshot_reads_whole(&crashed);
        // What a crash leaves is a part of what a whole run stores, never something else.
        assert!(podcasts.is_subset(&expected.0));
        assert!(episodes.is_subset(&expected.1));
        if was_running && podcasts.len() < expected.0.len() {
            partial += 1;
        }
    }
    assert!(partial > 0, "no kill landed part-way through an ingest");
    run(&crashed, &args);
    assert_eq!(catalog_state(&crashed), expected);
    snapshot_reads_whole(&crashed);
}

fn probe(term: &str) -> SearchRequest {
    SearchRequest {
        mode: Some(SearchMode::Episodes),
        terms: vec![SearchTerm {
            text: term.to_owned(),
            targets: vec![Target::EpisodeTitle, Target::EpisodeDescription],
            match_mode: MatchMode::Must,
            phrase: false,
            slop: 0,
            fuzzy: false,
        }],
        page_size: 20,
        ..SearchRequest::default()
    }
}

/// Episode ids of the first page of a few searches on the published generation.
fn answers(index: &Path) -> Vec<Vec<String>> {
    let handle = IndexReaderHandle::open(index).expect("the published generation opens");
    ["interview", "story", "music", "health"]
        .iter()
        .map(
            |term| match handle.search(&probe(term)).expect("search").hits {
                podlens_indexer::Hits::Episodes(hits) => {
                    hits.iter().map(|h| h.episode_id.to_string()).collect()
                }
                podlens_indexer::Hits::Podcasts(_) => panic!("episode search answered podcasts"),
            },
        )
        .collect()
}

/// Generation directories on disk.
fn generations(index: &Path) -> BTreeSet<String> {
    std::fs::read_dir(index)
        .expect("index dir")
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("gen-"))
        .collect()
}

#[test]
fn index_killed_part_way_leaves_the_previous_generation_serving() {
    let dir = tempfile::tempdir().expect("temp dir");
    let feeds = corpus(dir.path());
    let data = dir.path().join("data");
    run(
        &data,
        &["ingest", feeds.to_str().expect("utf-8"), "--no-transcripts"],
    );
    let index = data.join("index");
    let args = ["index", "--no-vectors"];
    let whole = run(&data, &args);
    let before = answers(&index);
    assert!(
        before.iter().any(|page| !page.is_empty()),
        "the probes find episodes"
    );

    let mut interrupted = 0;
    for fraction in KILL_AT {
        if run_and_kill(&data, &args, whole.mul_f64(fraction)) {
            interrupted += 1;
        }
        // The catalog did not change, so whichever generation is published answers alike.
        assert_eq!(answers(&index), before);
    }
    assert!(
        interrupted > 0,
        "no kill landed part-way through an index build"
    );
    run(&data, &args);
    assert_eq!(answers(&index), before);
    // Unpublished directories of the killed builds are gone after the next publish.
    let published = serde_json::from_slice::<serde_json::Value>(
        &std::fs::read(index.join(podlens_indexer::generation::MANIFEST_FILE)).expect("manifest"),
    )
    .expect("manifest is JSON")["generation"]
        .as_u64()
        .expect("generation number");
    let on_disk = generations(&index);
    assert!(on_disk.contains(&format!("gen-{published}")), "{on_disk:?}");
    assert!(
        on_disk.len() <= 2,
        "unpublished generations were left behind: {on_disk:?}"
    );
}
