//! Show vectors from the multilingual encoder, over real feeds of ../shared/corpus and
//! the real model (scripts/install-encoder.sh; without it these tests print why and
//! return, and fail when `PODLENS_REQUIRE_MODEL` is set, as scripts/test.sh does).
//!
//! Expectations come from the test's own computation: each show's text written here
//! from the feed's fields as docs/search.md describes it, embedded by the encoder
//! directly, and compared with the rows the index stored.

use std::path::Path;
use std::sync::Arc;

use chrono::Utc;
use podlens_indexer::embedding::{Encoder, EncoderInput, dot};
use podlens_indexer::generation::generation_dir;
use podlens_indexer::vectors::ShardVectors;
use podlens_indexer::{
    BuildOptions, Hits, IndexChanges, IndexReaderHandle, IndexSource, SearchMode, SearchRequest,
    SearchTerm, Target, build_generation, read_manifest, update_generation,
};
use podlens_model::catalog::{EpisodeRecord, PodcastRecord};
use uuid::Uuid;

const FEEDS: &[&str] = &[
    "feed-rs_rss_2.0_spiegel.xml",
    "feed-rs_rss_2.0_spreaker.xml",
    "feed-rs_rss_2.0_bbc.xml",
    "feed-rs_rss_2.0_nightvale.xml",
    "gnome-podcasts_2018-01-20-LinuxUnplugged.xml",
    "gnome-podcasts_2018-01-20-Intercepted.xml",
];

fn encoder() -> Option<Arc<Encoder>> {
    let encoder = Encoder::shared();
    if encoder.is_none() {
        let why = format!(
            "the encoder is not installed in {} (run scripts/install-encoder.sh)",
            Encoder::default_dir().display()
        );
        assert!(
            std::env::var_os("PODLENS_REQUIRE_MODEL").is_none(),
            "PODLENS_REQUIRE_MODEL is set: {why}"
        );
        eprintln!("skipping: {why}");
    }
    encoder
}

fn load() -> (Vec<PodcastRecord>, Vec<EpisodeRecord>) {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/feeds");
    let mut podcasts = Vec::new();
    let mut episodes = Vec::new();
    for name in FEEDS {
        let bytes = std::fs::read(corpus.join(name)).unwrap();
        let parsed = podlens_ingest::parse_feed(&bytes, None).unwrap();
        let batch = podlens_ingest::normalize(
            &parsed,
            &format!("https://feeds.example.test/{name}"),
            Utc::now(),
        );
        podcasts.push(batch.podcast);
        episodes.extend(batch.episodes.into_iter().take(10));
    }
    (podcasts, episodes)
}

fn build(dir: &Path, podcasts: &[PodcastRecord], episodes: &[EpisodeRecord], encoder: bool) {
    let source = IndexSource {
        podcasts,
        episodes,
        ..IndexSource::default()
    };
    let options = BuildOptions {
        shards: Some(2),
        encoder: if encoder { Encoder::shared() } else { None },
        ..BuildOptions::default()
    };
    build_generation(&dir.join("index"), source, &options).unwrap();
}

/// Every stored show vector of the published generation, by podcast.
fn stored_rows(index_dir: &Path) -> Vec<(Uuid, Vec<f32>)> {
    let manifest = read_manifest(index_dir).unwrap().unwrap();
    let gen_dir = generation_dir(index_dir, manifest.generation);
    let mut rows = Vec::new();
    for shard in 0..manifest.shards {
        let dir = gen_dir.join(format!("shard-{shard}")).join("encoder");
        let store = ShardVectors::read(&dir).unwrap().expect("show vectors");
        for (row, key) in store.keys().iter().enumerate() {
            rows.push((key.podcast_id, store.dequantized(row)));
        }
    }
    rows
}

/// A show's text as docs/search.md ("Show vectors") describes it, written here from
/// the record: the title (with its language for a show not in English), the categories,
/// the description.
fn expected_text(podcast: &PodcastRecord) -> String {
    let mut title = podcast.podcast_rss_title.trim().to_owned();
    match podcast.rss_language.as_deref().and_then(|l| l.get(..2)) {
        Some("de") => title.push_str(" (German-language podcast)"),
        Some("pl") => title.push_str(" (Polish-language podcast)"),
        _ => {}
    }
    let mut lines = vec![title];
    let mut categories: Vec<&str> = Vec::new();
    for category in &podcast.rss_categories {
        if !categories.iter().any(|c| c.eq_ignore_ascii_case(category)) {
            categories.push(category);
        }
    }
    if !categories.is_empty() {
        lines.push(categories.join(", "));
    }
    if let Some(description) = &podcast.podcast_rss_description_no_html {
        let description = description.split_whitespace().collect::<Vec<_>>().join(" ");
        if !description.is_empty() {
            lines.push(description);
        }
    }
    lines.join("\n")
}

fn search(handle: &IndexReaderHandle, text: &str, encoder: Option<&Encoder>) -> Vec<Uuid> {
    let mut request = SearchRequest {
        mode: Some(SearchMode::Podcasts),
        terms: vec![SearchTerm {
            text: text.into(),
            targets: vec![Target::PodcastTitle, Target::PodcastDescription],
            ..SearchTerm::default()
        }],
        ..SearchRequest::default()
    };
    if let Some(encoder) = encoder {
        request.encoded_query = Some(encoder.query(&request.encoder_text().unwrap()).unwrap());
    }
    match handle.search(&request).unwrap().hits {
        Hits::Podcasts(hits) => hits.into_iter().map(|hit| hit.podcast_id).collect(),
        Hits::Episodes(_) => unreachable!(),
    }
}

#[test]
fn each_show_has_the_vector_of_its_own_text() {
    let Some(encoder) = encoder() else { return };
    let (podcasts, episodes) = load();
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), &podcasts, &episodes, true);
    let index_dir = dir.path().join("index");
    let manifest = read_manifest(&index_dir).unwrap().unwrap();
    let shows = manifest
        .encoder
        .expect("the manifest lists the show vectors");
    assert_eq!(shows.count, podcasts.len() as u64);
    assert_eq!(shows.model_sha256, encoder.model_sha256());
    let rows = stored_rows(&index_dir);
    assert_eq!(rows.len(), podcasts.len());
    for podcast in &podcasts {
        let text = expected_text(podcast);
        let expected = encoder.passages(&[&text]).unwrap().remove(0);
        let (_, stored) = rows
            .iter()
            .find(|(id, _)| *id == podcast.podcast_id)
            .expect("a row per show");
        let cosine = dot(&expected, stored) / dot(stored, stored).sqrt();
        assert!(
            cosine > 0.995,
            "{}: stored vector at cosine {cosine} from its text's",
            podcast.podcast_rss_title
        );
    }
}

#[test]
fn a_smaller_text_window_embeds_the_start_of_each_shows_text() {
    let Some(encoder) = encoder() else { return };
    let (podcasts, episodes) = load();
    let dir = tempfile::tempdir().unwrap();
    let window = 12;
    let options = BuildOptions {
        shards: Some(2),
        encoder: Some(encoder.clone()),
        show_text_tokens: window,
        ..BuildOptions::default()
    };
    let source = IndexSource {
        podcasts: &podcasts,
        episodes: &episodes,
        ..IndexSource::default()
    };
    build_generation(&dir.path().join("index"), source, &options).unwrap();
    let rows = stored_rows(&dir.path().join("index"));
    assert_eq!(rows.len(), podcasts.len());
    for podcast in &podcasts {
        let text = expected_text(podcast);
        let start = encoder.cut(&text, EncoderInput::Passage, window);
        assert!(text.starts_with(start) && start.len() < text.len());
        assert!(encoder.token_count(start, EncoderInput::Passage) <= window);
        let (_, stored) = rows
            .iter()
            .find(|(id, _)| *id == podcast.podcast_id)
            .expect("a row per show");
        let cosine = |text: &str| {
            let expected = encoder.passages(&[text]).unwrap().remove(0);
            dot(&expected, stored) / dot(stored, stored).sqrt()
        };
        let (of_start, of_whole) = (cosine(start), cosine(&text));
        assert!(
            of_start > 0.995 && of_whole < of_start,
            "{}: stored vector at cosine {of_start} from its text's first {window} tokens, \
             {of_whole} from the whole text's",
            podcast.podcast_rss_title
        );
    }
}

#[test]
fn an_english_search_finds_a_german_show_through_the_encoder() {
    let Some(encoder) = encoder() else { return };
    let (podcasts, episodes) = load();
    let spiegel = podcasts[0].podcast_id;
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), &podcasts, &episodes, true);
    let handle = IndexReaderHandle::open(&dir.path().join("index")).unwrap();
    let query = "headlines of the day";
    // The keyword search alone finds nothing: no show holds these words.
    assert!(search(&handle, query, None).is_empty());
    let found = search(&handle, query, Some(&encoder));
    assert_eq!(
        found.first(),
        Some(&spiegel),
        "the German daily news show first"
    );
}

#[test]
fn an_update_embeds_changed_shows_and_keeps_the_others() {
    let Some(encoder) = encoder() else { return };
    let (mut podcasts, episodes) = load();
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), &podcasts, &episodes, true);
    let index_dir = dir.path().join("index");
    let before = stored_rows(&index_dir);

    let changed = &mut podcasts[2];
    changed.podcast_rss_description_no_html =
        Some("Gardening with tomatoes, compost and raised beds through the seasons".into());
    let changed = changed.clone();
    let options = BuildOptions {
        shards: Some(2),
        encoder: Encoder::shared(),
        ..BuildOptions::default()
    };
    let changes = IndexChanges {
        podcasts: std::slice::from_ref(&changed),
        deleted_podcasts: &[podcasts[3].podcast_id],
        ..IndexChanges::default()
    };
    let manifest = update_generation(&index_dir, changes, &options).unwrap();
    assert_eq!(manifest.encoder.expect("show vectors kept").count, 5);
    let after = stored_rows(&index_dir);
    assert_eq!(after.len(), 5, "the deleted show's row is gone");
    let expected = encoder
        .passages(&[&expected_text(&changed)])
        .unwrap()
        .remove(0);
    for (id, vector) in &after {
        if *id == changed.podcast_id {
            assert!(dot(&expected, vector) / dot(vector, vector).sqrt() > 0.995);
        } else {
            let (_, old) = before.iter().find(|(old, _)| old == id).unwrap();
            assert_eq!(old, vector, "an unchanged show keeps its row");
        }
    }

    // An update without the encoder cannot embed the changed shows: the generation is
    // published without show vectors rather than with stale ones.
    let without = BuildOptions {
        shards: Some(2),
        ..BuildOptions::default()
    };
    let manifest = update_generation(&index_dir, changes, &without).unwrap();
    assert!(manifest.encoder.is_none());
}

#[test]
fn a_semantic_podcast_search_ranks_the_show_vectors() {
    let Some(encoder) = encoder() else { return };
    let (podcasts, episodes) = load();
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), &podcasts, &episodes, true);
    let handle = IndexReaderHandle::open(&dir.path().join("index")).unwrap();
    let mut request = podlens_indexer::SemanticRequest {
        query: "the history of Lviv and its Polish songs".into(),
        mode: SearchMode::Podcasts,
        limit: 3,
        include_podcast_ids: Vec::new(),
        encoded_query: None,
    };
    // Without the encoder's vector a semantic search needs the static model, which this
    // generation lacks.
    assert!(handle.semantic_search(&request).is_err());
    request.encoded_query = Some(encoder.query(request.encoder_text().unwrap()).unwrap());
    let response = handle.semantic_search(&request).unwrap();
    let Hits::Podcasts(hits) = response.hits else {
        unreachable!()
    };
    assert_eq!(hits.len(), 3);
    assert_eq!(
        hits[0].podcast_id, podcasts[1].podcast_id,
        "the Polish show about Lwów first"
    );
    assert!(hits.windows(2).all(|pair| pair[0].score >= pair[1].score));
}

#[test]
fn related_podcasts_by_show_vectors_are_the_nearest_show_vectors() {
    if encoder().is_none() {
        return;
    }
    let (podcasts, episodes) = load();
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), &podcasts, &episodes, true);
    let index_dir = dir.path().join("index");
    let rows = stored_rows(&index_dir);
    let named = podcasts[1].podcast_id;
    let named_row = &rows.iter().find(|(id, _)| *id == named).expect("its row").1;
    // Every other show by the cosine of its stored vector with the named show's.
    let mut expected: Vec<(f32, Uuid)> = rows
        .iter()
        .filter(|(id, _)| *id != named)
        .map(|(id, row)| {
            let norm = (dot(row, row) * dot(named_row, named_row)).sqrt();
            (dot(row, named_row) / norm, *id)
        })
        .collect();
    expected.sort_by(|a, b| b.0.total_cmp(&a.0));
    let handle = IndexReaderHandle::open(&index_dir).unwrap();
    let related = podlens_indexer::related_podcasts_with(
        &handle.generation(),
        named,
        3,
        podlens_indexer::RelatedMethod::Shows,
    )
    .unwrap();
    let found: Vec<Uuid> = related.iter().map(|hit| hit.podcast_id).collect();
    let wanted: Vec<Uuid> = expected.iter().take(3).map(|(_, id)| *id).collect();
    assert_eq!(found, wanted);
    for (hit, (similarity, _)) in related.iter().zip(&expected) {
        assert!(
            (hit.score - similarity).abs() < 0.02,
            "{} {similarity}",
            hit.score
        );
    }
}
