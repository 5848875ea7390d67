//! Token frequencies of real podcast text (transcripts, feed titles and descriptions), the
//! weights of the static model: a token's SIF weight is `a / (a + p(token))` with `p` the
//! add-one smoothed relative frequency, so frequent, low-content pieces ("the", ",", "##s")
//! count little in a text's average and rare, topical pieces count fully.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::error::{EmbeddingError, EmbeddingResult};
use super::tokenizer::WordPieceTokenizer;

/// The SIF smoothing constant (Arora et al., 2017).
pub const DEFAULT_SIF_A: f64 = 1e-3;

/// File names counted when walking a folder.
const TEXT_EXTENSIONS: &[&str] = &["txt", "md", "vtt", "srt", "json", "xml", "rss", "html"];

/// Occurrence counts of each vocabulary token.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenFrequencies {
    pub counts: Vec<u64>,
    pub total: u64,
    pub files: usize,
}

impl TokenFrequencies {
    /// No observations: every token gets the same weight.
    pub fn empty(vocab_size: usize) -> Self {
        Self {
            counts: vec![0; vocab_size],
            total: 0,
            files: 0,
        }
    }

    /// Counts the pieces of `texts`.
    pub fn count_texts<'a>(
        tokenizer: &WordPieceTokenizer,
        texts: impl IntoParallelIterator<Item = &'a str>,
    ) -> Self {
        let vocab = tokenizer.vocab_size();
        let counts = texts
            .into_par_iter()
            .fold(
                || vec![0_u64; vocab],
                |mut counts, text| {
                    tokenizer.for_each_piece(text, |id| {
                        counts[id as usize] += 1;
                        true
                    });
                    counts
                },
            )
            .reduce(
                || vec![0_u64; vocab],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    a
                },
            );
        let total = counts.iter().sum();
        Self {
            counts,
            total,
            files: 0,
        }
    }

    /// The same counts, said to come from `files` files.
    pub fn of_files(mut self, files: usize) -> Self {
        self.files = files;
        self
    }

    /// Counts every text file (see [`TEXT_EXTENSIONS`]) under the given files or folders;
    /// markup is reduced to its text first (twice: feeds carry escaped HTML).
    pub fn count_paths(tokenizer: &WordPieceTokenizer, roots: &[PathBuf]) -> EmbeddingResult<Self> {
        let texts = read_texts(roots)?;
        Ok(
            Self::count_texts(tokenizer, texts.par_iter().map(String::as_str))
                .of_files(texts.len()),
        )
    }

    /// SIF weight `a / (a + p)` of every token, `p = (count + 1) / (total + vocab)`.
    pub fn sif_weights(&self, a: f64) -> Vec<f32> {
        let denominator = (self.total + self.counts.len() as u64) as f64;
        self.counts
            .iter()
            .map(|count| {
                let p = (*count as f64 + 1.0) / denominator;
                (a / (a + p)) as f32
            })
            .collect()
    }
}

/// The text of every text file (by extension) under `roots`, markup removed, in path
/// order; files that cannot be read are left out.
pub fn read_texts(roots: &[PathBuf]) -> EmbeddingResult<Vec<String>> {
    let mut files = Vec::new();
    for root in roots {
        collect_files(root, &mut files)?;
    }
    files.sort();
    Ok(files
        .par_iter()
        .filter_map(|path| std::fs::read(path).ok())
        .map(|bytes| markup_to_text(&markup_to_text(&String::from_utf8_lossy(&bytes))))
        .collect())
}

fn collect_files(path: &Path, files: &mut Vec<PathBuf>) -> EmbeddingResult<()> {
    let metadata = std::fs::metadata(path).map_err(|error| EmbeddingError::io(path, error))?;
    if metadata.is_file() {
        files.push(path.to_path_buf());
        return Ok(());
    }
    let entries = std::fs::read_dir(path).map_err(|error| EmbeddingError::io(path, error))?;
    for entry in entries {
        let entry = entry.map_err(|error| EmbeddingError::io(path, error))?;
        let child = entry.path();
        if child.is_dir() {
            collect_files(&child, files)?;
        } else if child
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| TEXT_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
        {
            files.push(child);
        }
    }
    Ok(())
}

/// Drops tags (`<…>`) and decodes the common entities, keeping the text between.
pub fn markup_to_text(markup: &str) -> String {
    let mut text = String::with_capacity(markup.len());
    let mut in_tag = false;
    for character in markup.chars() {
        match character {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                text.push(' ');
            }
            _ if !in_tag => text.push(character),
            _ => {}
        }
    }
    if !text.contains('&') {
        return text;
    }
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&apos;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> WordPieceTokenizer {
        let tokens = ["<s>", "</s>", "[UNK]", "the", "show", "."];
        WordPieceTokenizer::from_tokens(tokens.iter().map(|t| (*t).to_owned()).collect()).unwrap()
    }

    #[test]
    fn frequent_tokens_weigh_less() {
        let frequencies = TokenFrequencies::count_texts(&tiny(), vec!["the the the show.", "the"]);
        assert_eq!(frequencies.counts[3], 4);
        assert_eq!(frequencies.total, 6);
        let weights = frequencies.sif_weights(DEFAULT_SIF_A);
        assert!(weights[3] < weights[4] && weights[4] < weights[0]);
    }

    #[test]
    fn markup_keeps_text_between_tags() {
        assert_eq!(
            markup_to_text("<p>Tom &amp; Jerry</p><br/>talk"),
            " Tom & Jerry  talk"
        );
    }
}
