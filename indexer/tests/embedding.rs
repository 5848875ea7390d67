//! Embedding models against independent references: token ids from the reference
//! `tokenizers` library and sentence vectors from a separate NumPy implementation of
//! all-mpnet-base-v2 (benches/embedding/reference.py wrote both fixtures), the static
//! model's on-disk round trip and checksum pinning, and the int8 error bound.
//!
//! Tests that need the installed model (scripts/install-model.sh, run by scripts/setup.sh)
//! print why and pass when it is absent, or fail when `PODLENS_REQUIRE_MODEL` is set (CI).

#[path = "common/mpnet.rs"]
mod mpnet;

use mpnet::{installed, mpnet_dir};

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use podlens_indexer::embedding::{
    EmbeddingError, MANIFEST_FILE, MpnetModel, QuantizedVector, StaticManifest, StaticModel,
    StaticRecipe, TABLE_FILE, WordPieceTokenizer, apply_recipe, cosine, distill_token_vectors, dot,
    dot_quantized, quantize_i8,
};
use serde::Deserialize;

fn mpnet() -> &'static MpnetModel {
    static MODEL: OnceLock<MpnetModel> = OnceLock::new();
    MODEL.get_or_init(|| MpnetModel::load(&mpnet_dir()).expect("installed model loads"))
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/embedding_fixtures")
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

#[derive(Deserialize)]
struct TokenizerFixture {
    max_seq_length: usize,
    corpus_lines: Vec<CorpusLine>,
    edge_cases: Vec<EdgeCase>,
}

#[derive(Deserialize)]
struct CorpusLine {
    file: String,
    line: usize,
    ids: Vec<u32>,
}

#[derive(Deserialize)]
struct EdgeCase {
    text: String,
    ids: Vec<u32>,
}

#[derive(Deserialize)]
struct VectorFixture {
    sentences: Vec<ReferenceSentence>,
}

#[derive(Deserialize)]
struct ReferenceSentence {
    text: String,
    ids: Vec<u32>,
    vector: Vec<f32>,
}

fn read_fixture<T: serde::de::DeserializeOwned>(name: &str) -> T {
    let text = std::fs::read_to_string(fixtures().join(name)).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn token_ids_match_the_reference_tokenizer_on_transcript_lines() {
    if !installed() {
        return;
    }
    let tokenizer = mpnet().tokenizer();
    let fixture: TokenizerFixture = read_fixture("tokenizer_ids.json");
    assert_eq!(
        fixture.max_seq_length,
        podlens_indexer::embedding::MAX_SEQUENCE_TOKENS
    );
    assert!(fixture.corpus_lines.len() > 100);
    for case in &fixture.corpus_lines {
        let text = std::fs::read_to_string(corpus().join(&case.file)).unwrap();
        let line = text.split('\n').nth(case.line - 1).unwrap();
        assert_eq!(
            tokenizer.encode(line),
            case.ids,
            "{}:{}",
            case.file,
            case.line
        );
    }
}

#[test]
fn token_ids_match_the_reference_tokenizer_on_edge_cases() {
    if !installed() {
        return;
    }
    let tokenizer = mpnet().tokenizer();
    let fixture: TokenizerFixture = read_fixture("tokenizer_ids.json");
    for case in &fixture.edge_cases {
        assert_eq!(tokenizer.encode(&case.text), case.ids, "{:?}", case.text);
    }
}

#[test]
fn exact_mpnet_matches_the_numpy_reference() {
    if !installed() {
        return;
    }
    let model = mpnet();
    let fixture: VectorFixture = read_fixture("mpnet_vectors.json");
    let texts: Vec<&str> = fixture.sentences.iter().map(|s| s.text.as_str()).collect();
    let vectors = model.embed_batch(&texts).unwrap();
    for (reference, vector) in fixture.sentences.iter().zip(&vectors) {
        assert_eq!(model.tokenizer().encode(&reference.text), reference.ids);
        assert_eq!(vector.len(), 768);
        assert!((dot(vector, vector) - 1.0).abs() < 1e-4);
        let similarity = cosine(vector, &reference.vector);
        assert!(
            similarity > 0.999,
            "{}: cosine {similarity}",
            reference.text
        );
    }
    // one at a time gives the same vectors as the packed batch
    let single = model.embed(texts[2]).unwrap();
    assert!(cosine(&single, &vectors[2]) > 0.99999);
}

#[test]
fn a_single_token_static_vector_is_the_exact_embedding_of_that_token() {
    if !installed() {
        return;
    }
    let model = mpnet();
    let tokenizer = model.tokenizer();
    let words = ["podcast", "guitar", "election", "sourdough"];
    let ids: Vec<u32> = words.iter().flat_map(|w| tokenizer.pieces(w)).collect();
    let raw = distill_token_vectors(model, &ids, &|_, _| {}).unwrap();
    let mut table = vec![0.0_f32; tokenizer.vocab_size() * 768];
    for (index, id) in ids.iter().enumerate() {
        table[*id as usize * 768..][..768].copy_from_slice(&raw[index * 768..][..768]);
    }
    let static_model = StaticModel::from_parts(tokenizer.clone(), table, 768).unwrap();
    for word in words.iter().filter(|w| tokenizer.pieces(w).len() == 1) {
        let exact = model.embed(word).unwrap();
        let approximate = static_model.embed(word);
        assert!(cosine(&exact, &approximate) > 0.9999, "{word}");
    }
}

fn tiny_tokenizer() -> WordPieceTokenizer {
    let tokens = [
        "<s>", "<pad>", "</s>", "[UNK]", "the", "show", "talk", "##s", "python", ".",
    ];
    WordPieceTokenizer::from_tokens(tokens.iter().map(|t| (*t).to_owned()).collect()).unwrap()
}

/// Deterministic pseudo-random values in [-1, 1) (64-bit LCG).
fn pseudo_random(count: usize, seed: u64) -> Vec<f32> {
    let mut state = seed;
    (0..count)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

fn write_model(dir: &Path, model: &StaticModel) -> StaticManifest {
    let (table_sha256, vocab_sha256) = model.save_table(dir).unwrap();
    let manifest = StaticManifest {
        format: 1,
        source_model: "test".to_owned(),
        source_sha256: "0".repeat(64),
        table_sha256,
        vocab_sha256,
        vocab_size: model.tokenizer().vocab_size(),
        dim: model.dim(),
        recipe: StaticRecipe::default(),
        frequency_tokens: 0,
        frequency_files: 0,
        fit: None,
    };
    std::fs::write(
        dir.join(MANIFEST_FILE),
        serde_json::to_string(&manifest).unwrap(),
    )
    .unwrap();
    manifest
}

#[test]
fn static_model_round_trips_through_its_folder() {
    let dim = 16;
    let tokenizer = tiny_tokenizer();
    let table = pseudo_random(tokenizer.vocab_size() * dim, 7);
    let model = StaticModel::from_parts(tokenizer, table, dim).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let manifest = write_model(dir.path(), &model);
    let loaded = StaticModel::load(dir.path()).unwrap();
    assert_eq!(loaded.manifest(), Some(&manifest));
    for text in ["the show talks python.", "Python", "nothing known here"] {
        assert_eq!(loaded.embed(text), model.embed(text), "{text}");
    }
    // the embedding is the normalised sum of the rows, computed here by hand
    let mut expected = vec![0.0_f32; dim];
    for id in [4_u32, 5, 6, 7] {
        for (e, v) in expected.iter_mut().zip(model.row(id).unwrap()) {
            *e += v;
        }
    }
    assert!(cosine(&expected, &model.embed("the show talks")) > 0.99999);
}

#[test]
fn static_model_refuses_a_table_whose_sha256_differs_from_the_manifest() {
    let dim = 8;
    let tokenizer = tiny_tokenizer();
    let table = pseudo_random(tokenizer.vocab_size() * dim, 11);
    let model = StaticModel::from_parts(tokenizer, table, dim).unwrap();
    let dir = tempfile::tempdir().unwrap();
    write_model(dir.path(), &model);
    let table_path = dir.path().join(TABLE_FILE);
    let mut bytes = std::fs::read(&table_path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&table_path, bytes).unwrap();
    let error = StaticModel::load(dir.path()).unwrap_err();
    assert!(
        matches!(error, EmbeddingError::ChecksumMismatch { .. }),
        "{error}"
    );
    let missing = StaticModel::load(&dir.path().join("absent")).unwrap_err();
    assert!(
        matches!(missing, EmbeddingError::MissingFile(_)),
        "{missing}"
    );
}

#[test]
fn static_embeddings_are_unit_length_symmetric_and_bounded() {
    let dim = 32;
    let tokenizer = tiny_tokenizer();
    let model = StaticModel::from_parts(tokenizer, pseudo_random(10 * dim, 3), dim).unwrap();
    let texts = ["the show", "python talks", "the python show.", "talk"];
    let vectors = model.embed_batch(&texts);
    for (text, vector) in texts.iter().zip(&vectors) {
        assert!((dot(vector, vector) - 1.0).abs() < 1e-5, "{text}");
        assert_eq!(vector, &model.embed(text));
    }
    for a in &vectors {
        for b in &vectors {
            let similarity = cosine(a, b);
            assert!((similarity - cosine(b, a)).abs() < 1e-6);
            assert!((-1.0001..=1.0001).contains(&similarity));
        }
    }
    // no known token: the zero vector, similar to nothing
    let empty = model.embed("zzz qqq");
    assert!(empty.iter().all(|v| *v == 0.0));
    assert_eq!(cosine(&empty, &vectors[0]), 0.0);
}

#[test]
fn centering_removes_the_frequency_weighted_mean() {
    let dim = 4;
    let raw = pseudo_random(3 * dim, 5);
    let counts = [1_u64, 3, 0];
    let table = apply_recipe(&raw, dim, &counts, None, true);
    // the frequency-weighted mean of the centred rows is zero
    for column in 0..dim {
        let mean: f32 = (0..3)
            .map(|row| table[row * dim + column] * counts[row] as f32)
            .sum();
        assert!(mean.abs() < 1e-5);
    }
    let weighted = apply_recipe(&raw, dim, &counts, Some(&[0.5, 1.0, 2.0]), false);
    assert!((weighted[2 * dim] - 2.0 * raw[2 * dim]).abs() < 1e-6);
}

#[test]
fn int8_quantisation_stays_within_half_a_step() {
    for seed in 0..20 {
        let a = pseudo_random(768, seed);
        let b = pseudo_random(768, seed + 100);
        let (values, scale) = quantize_i8(&a);
        let quantized_a = QuantizedVector { values, scale };
        let restored = quantized_a.dequantize();
        for (x, y) in a.iter().zip(&restored) {
            assert!((x - y).abs() <= scale / 2.0 + 1e-6);
        }
        let (values, scale_b) = quantize_i8(&b);
        let quantized_b = QuantizedVector {
            values,
            scale: scale_b,
        };
        // |a·b − â·b̂| ≤ Σ |a_i| e_b + |b_i| e_a + e_a e_b with e = scale / 2
        let (error_a, error_b) = (scale / 2.0, scale_b / 2.0);
        let bound: f32 = a
            .iter()
            .zip(&b)
            .map(|(x, y)| x.abs() * error_b + y.abs() * error_a + error_a * error_b)
            .sum();
        let error = (dot(&a, &b) - dot_quantized(&quantized_a, &quantized_b)).abs();
        assert!(
            error <= bound * 1.001 + 1e-4,
            "seed {seed}: {error} > {bound}"
        );
    }
}

/// A vocabulary model built with the distilled-token cache of another corpus (its tokens
/// taken from the cache, only the new ones distilled) equals one built from nothing.
#[test]
fn a_vocabulary_model_from_the_token_cache_equals_one_distilled_afresh() {
    if !installed() {
        return;
    }
    use podlens_indexer::embedding::{TOKEN_CACHE_FILE, build_vocabulary_model};
    let first = ["gardening for beginners", "compost and soil"];
    let second = [
        "gardening for beginners",
        "soil, seeds and the history of tomatoes",
    ];
    // How many tokens a cache holds: the length of its `ids` tensor, read from the
    // safetensors header (8 bytes of length, then JSON).
    let kept = |root: &Path| -> u64 {
        let bytes =
            std::fs::read(root.join(TOKEN_CACHE_FILE)).expect("the distilled tokens are kept");
        let length = u64::from_le_bytes(bytes[..8].try_into().expect("header length")) as usize;
        let header: serde_json::Value =
            serde_json::from_slice(&bytes[8..8 + length]).expect("header");
        header["ids"]["shape"][0].as_u64().expect("ids shape")
    };
    let warm = tempfile::tempdir().expect("temp dir");
    build_vocabulary_model(&mpnet_dir(), &first, warm.path()).expect("first model");
    let kept_after_first = kept(warm.path());
    let from_cache = build_vocabulary_model(&mpnet_dir(), &second, warm.path()).expect("model");
    let cold = tempfile::tempdir().expect("temp dir");
    let afresh = build_vocabulary_model(&mpnet_dir(), &second, cold.path()).expect("model");
    // The warm cache holds the first corpus's tokens and the second's: more than either
    // corpus alone (a cache that was not read would hold the second's only).
    assert!(
        kept(warm.path()) > kept_after_first,
        "the second corpus's new tokens join the cache"
    );
    assert!(
        kept(warm.path()) > kept(cold.path()),
        "the first corpus's tokens stay in the cache"
    );
    let (a, b) = (
        StaticModel::load(&from_cache).expect("loads"),
        StaticModel::load(&afresh).expect("loads"),
    );
    for text in second.iter().chain(&["tomatoes", "history of soil"]) {
        let (x, y) = (a.embed(text), b.embed(text));
        assert_eq!(x.len(), y.len());
        let worst = x
            .iter()
            .zip(&y)
            .map(|(p, q)| (p - q).abs())
            .fold(0.0_f32, f32::max);
        assert!(worst <= 1e-6, "{text}: vectors differ by {worst}");
    }
    // A cache that is not one (truncated) is distilled around, not trusted.
    std::fs::write(warm.path().join(TOKEN_CACHE_FILE), b"not a cache").expect("write");
    let third = ["history podcasts about soil"];
    let rebuilt = build_vocabulary_model(&mpnet_dir(), &third, warm.path()).expect("model");
    let colder = tempfile::tempdir().expect("temp dir");
    let fresh = build_vocabulary_model(&mpnet_dir(), &third, colder.path()).expect("model");
    let (x, y) = (
        StaticModel::load(&rebuilt).expect("loads").embed(third[0]),
        StaticModel::load(&fresh).expect("loads").embed(third[0]),
    );
    assert!(x.iter().zip(&y).all(|(p, q)| (p - q).abs() <= 1e-6));
}
