//! A small catalog built through the real pipeline: corpus feeds parsed and
//! normalised by `podlens-ingest`, stored and exported by `podlens-data`, indexed by
//! `podlens-indexer`, plus one real transcript attached to one episode.

use std::path::{Path, PathBuf};

use chrono::Utc;
use podlens_data::Catalog;
use podlens_data::snapshot::{read_episodes, read_podcasts, read_transcripts};
use podlens_indexer::{BuildOptions, IndexSource, build_generation};
use podlens_model::catalog::{EpisodeRecord, FeedBatch, PodcastRecord, TranscriptRecord};

#[path = "enrichment_fixture.rs"]
pub mod enrichment;

/// Feeds of the corpus the fixture ingests (real feeds, varied shapes).
pub const FIXTURE_FEEDS: &[&str] = &[
    "feed-rs_rss_2.0_nightvale.xml",
    "feed-rs_rss_2.0_bbc.xml",
    "feed-rs_rss_2.0_anchorfm.xml",
    "feed-rs_rss_2.0_spreaker.xml",
    "gnome-podcasts_2018-01-20-LinuxUnplugged.xml",
    "gnome-podcasts_2018-01-20-Intercepted.xml",
    // Sponsorship reads in its show notes ("brought to you by …, offer code …").
    "gnome-podcasts_2018-01-20-StealTheStars.xml",
];

/// The transcript attached to the first episode of the first feed.
pub const FIXTURE_TRANSCRIPT: &str = "podcast_search_test_transcript.vtt";

pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

/// What the fixture holds, for tests to derive expectations from.
#[derive(Debug, Clone)]
pub struct Fixture {
    pub batches: Vec<FeedBatch>,
    pub transcript_episode_id: uuid::Uuid,
    pub transcript_podcast_id: uuid::Uuid,
    pub enrichment: enrichment::EnrichmentFixture,
}

/// Builds the catalog, its Parquet snapshot and an index generation in `data_dir`.
pub fn build_fixture(data_dir: &Path) -> Fixture {
    let corpus = corpus_dir();
    let now = Utc::now();
    let batches: Vec<FeedBatch> = FIXTURE_FEEDS
        .iter()
        .map(|name| {
            let path = corpus.join("feeds").join(name);
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let parsed =
                podlens_ingest::parse_feed(&bytes, None).unwrap_or_else(|e| panic!("{name}: {e}"));
            podlens_ingest::normalize(&parsed, &format!("https://feeds.example.test/{name}"), now)
        })
        .collect();
    let mut catalog = Catalog::open(data_dir).expect("catalog opens");
    catalog.upsert_feeds(&batches).expect("feeds stored");

    let first = &batches[0];
    let episode = first.episodes.first().expect("first feed has episodes");
    let transcript_path = corpus.join("transcripts").join(FIXTURE_TRANSCRIPT);
    let text = std::fs::read_to_string(&transcript_path).expect("transcript readable");
    let format = podlens_ingest::transcript::sniff_format(&text);
    let parsed = podlens_ingest::transcript::parse_transcript(&text, format).expect("parses");
    let record = podlens_ingest::transcript::transcript_record(
        first.podcast.podcast_id,
        episode.episode_id,
        FIXTURE_TRANSCRIPT,
        format,
        Some("en".into()),
        parsed,
    );
    catalog
        .upsert_transcript(&record)
        .expect("transcript stored");
    let podcast_ids: Vec<_> = batches.iter().map(|b| b.podcast.podcast_id).collect();
    let mentions: Vec<_> = batches
        .iter()
        .flat_map(|batch| &batch.episodes)
        .flat_map(podlens_ingest::sponsors::episode_sponsor_mentions)
        .collect();
    catalog
        .store_sponsor_mentions(&podcast_ids, &mentions)
        .expect("sponsor mentions stored");
    let enrichment = enrichment::add_enrichment(&mut catalog, data_dir, &batches);
    catalog.export_parquet().expect("parquet exported");

    index_snapshot(
        data_dir,
        &BuildOptions {
            shards: Some(2),
            ..BuildOptions::default()
        },
    );
    Fixture {
        transcript_episode_id: episode.episode_id,
        transcript_podcast_id: first.podcast.podcast_id,
        enrichment,
        batches,
    }
}

/// Builds and publishes an index generation in `data_dir/index` from the data
/// directory's Parquet snapshot, as `podlens index` does.
pub fn index_snapshot(data_dir: &Path, options: &BuildOptions) -> podlens_indexer::Manifest {
    let parquet = data_dir.join(podlens_data::PARQUET_DIR);
    let podcasts = read_podcasts(&parquet).expect("podcasts read back");
    let episodes = read_episodes(&parquet).expect("episodes read back");
    let transcripts = read_transcripts(&parquet).expect("transcripts read back");
    index_records(
        &data_dir.join("index"),
        &podcasts,
        &episodes,
        &transcripts,
        options,
    )
}

/// Builds and publishes an index generation in `index_dir` from these records.
pub fn index_records(
    index_dir: &Path,
    podcasts: &[PodcastRecord],
    episodes: &[EpisodeRecord],
    transcripts: &[TranscriptRecord],
    options: &BuildOptions,
) -> podlens_indexer::Manifest {
    let source = IndexSource {
        podcasts,
        episodes,
        transcripts,
        persons: &[],
        signals: None,
    };
    build_generation(index_dir, source, options).expect("index built")
}

/// The all-mpnet-base-v2 directory: `PODLENS_MODEL_DIR`, else where
/// `scripts/install-model.sh` puts it.
pub fn mpnet_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("PODLENS_MODEL_DIR") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME").unwrap_or_default();
    Path::new(&home).join(".cache/podlens-models/all-mpnet-base-v2")
}

/// Whether all-mpnet-base-v2 is installed. A test that needs it prints why it skips and
/// passes when it is not, or fails when `PODLENS_REQUIRE_MODEL` is set (CI).
pub fn mpnet_installed() -> bool {
    if mpnet_dir().join("model.safetensors").exists() {
        return true;
    }
    assert!(
        std::env::var_os("PODLENS_REQUIRE_MODEL").is_none(),
        "PODLENS_REQUIRE_MODEL is set: all-mpnet-base-v2 is not installed"
    );
    eprintln!("skipping: all-mpnet-base-v2 is not installed (scripts/install-model.sh)");
    false
}

/// Index options with two shards and vectors from a static table distilled from MPNet
/// over `texts` (cached under `~/.cache/podlens-models/test-tables`).
pub fn vector_build_options(texts: &[String]) -> BuildOptions {
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let home = std::env::var_os("HOME").unwrap_or_default();
    let cache = Path::new(&home).join(".cache/podlens-models/test-tables");
    let model_dir =
        podlens_indexer::embedding::build_vocabulary_model(&mpnet_dir(), &texts, &cache).unwrap();
    BuildOptions {
        shards: Some(2),
        vectors: Some(podlens_indexer::VectorModel::load(&model_dir).unwrap()),
        ..BuildOptions::default()
    }
}
