//! Podlens's `WordTokenizer` (words, and CJK text in pairs of characters) against
//! tantivy's `SimpleTokenizer`, side by side in one run, over the corpus's feeds and
//! transcripts: what splitting CJK text costs an index build, which tokenizes every
//! title, description and transcript once per field.
//!
//! Both run inside the same analyzer as the English fields (`RemoveLongFilter`,
//! `LowerCaser`, Snowball English, `AsciiFoldingFilter`) and alone. Texts are split by
//! whether they hold CJK characters, since only those tokenize differently.
//!
//! Run: `cargo bench --workspace --locked --bench tokenize`.

use std::path::Path;
use std::time::{Duration, Instant};

use podlens_indexer::analysis::{LanguageFamily, WordTokenizer};
use podlens_model::search::is_cjk;
use tantivy::tokenizer::{SimpleTokenizer, TextAnalyzer, TokenStream};

fn texts() -> Vec<String> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let mut texts = Vec::new();
    let mut stack = vec![corpus.join("feeds"), corpus.join("transcripts")];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            for entry in std::fs::read_dir(&path).expect("corpus folder").flatten() {
                stack.push(entry.path());
            }
        } else if let Ok(bytes) = std::fs::read(&path) {
            texts.push(String::from_utf8_lossy(&bytes).into_owned());
        }
    }
    texts
}

/// Tokens counted, and the best time of three passes over `texts`.
fn time(analyzer: &mut TextAnalyzer, texts: &[&str]) -> (usize, Duration) {
    let mut best = Duration::MAX;
    let mut tokens = 0;
    for _ in 0..3 {
        let start = Instant::now();
        tokens = 0;
        for text in texts {
            let mut stream = analyzer.token_stream(text);
            while stream.advance() {
                tokens += 1;
            }
        }
        best = best.min(start.elapsed());
    }
    (tokens, best)
}

fn main() {
    let texts = texts();
    let holds_cjk = |text: &&str| text.chars().any(is_cjk);
    let all: Vec<&str> = texts.iter().map(String::as_str).collect();
    let cjk: Vec<&str> = all.iter().copied().filter(holds_cjk).collect();
    let other: Vec<&str> = all
        .iter()
        .copied()
        .filter(|text| !holds_cjk(text))
        .collect();
    println!(
        "{} files of the corpus ({} MB); {} hold CJK characters ({} MB)",
        all.len(),
        all.iter().map(|text| text.len()).sum::<usize>() >> 20,
        cjk.len(),
        cjk.iter().map(|text| text.len()).sum::<usize>() >> 20,
    );
    println!();
    println!(
        "| texts | analyzer | SimpleTokenizer MB/s | WordTokenizer MB/s | tokens, Simple | tokens, Word |"
    );
    println!("|---|---|---:|---:|---:|---:|");
    for (label, set) in [("without CJK", &other), ("with CJK", &cjk)] {
        let megabytes = set.iter().map(|text| text.len()).sum::<usize>() as f64 / 1e6;
        for stemmed in [false, true] {
            let (mut simple, mut word) = if stemmed {
                let english = LanguageFamily::English;
                (
                    english.analyzer_with(SimpleTokenizer::default()),
                    english.analyzer(),
                )
            } else {
                (
                    TextAnalyzer::from(SimpleTokenizer::default()),
                    TextAnalyzer::from(WordTokenizer::default()),
                )
            };
            let (simple_tokens, simple_time) = time(&mut simple, set);
            let (word_tokens, word_time) = time(&mut word, set);
            println!(
                "| {label} | {} | {:.0} | {:.0} | {simple_tokens} | {word_tokens} |",
                if stemmed {
                    "English fields"
                } else {
                    "tokenizer alone"
                },
                megabytes / simple_time.as_secs_f64(),
                megabytes / word_time.as_secs_f64(),
            );
        }
    }
}
