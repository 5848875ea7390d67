//! Quality of an approximate embedding model against the exact one, on real transcripts:
//! transcripts are cleaned (timestamps, speaker markup) and cut into passages of about 100
//! words; the short opening of other passages serves as queries. Two figures:
//! - Spearman rank correlation of the cosine similarities of all passage pairs (does the
//!   approximate model order pairs like the exact one?), and of query–passage similarities
//!   per query (averaged);
//! - recall@10: the share of the exact top-10 passages of each query that the approximate
//!   top-10 also returns.

use std::path::Path;

use super::error::{EmbeddingError, EmbeddingResult};
use super::linalg::dot;

/// Passages and queries cut from transcripts.
#[derive(Debug, Clone, Default)]
pub struct EvalSet {
    pub passages: Vec<String>,
    pub queries: Vec<String>,
}

impl EvalSet {
    /// Every text of the set: the passages, then the queries.
    pub fn texts(&self) -> Vec<&str> {
        self.passages
            .iter()
            .chain(&self.queries)
            .map(String::as_str)
            .collect()
    }
}

/// Reads every `.txt` and `.md` transcript under `dir` (sorted), and takes `passages`
/// passages of `words` words and `queries` queries (the first `query_words` words of
/// passages not in the passage set), spread evenly over the whole text.
pub fn transcript_eval_set(
    dir: &Path,
    words: usize,
    passages: usize,
    queries: usize,
    query_words: usize,
) -> EmbeddingResult<EvalSet> {
    let chunks = transcript_chunks(dir, words)?;
    let wanted = passages + queries;
    if chunks.len() < wanted || wanted == 0 {
        return Err(EmbeddingError::InvalidInput(format!(
            "{} passages of {words} words in {}, {wanted} wanted",
            chunks.len(),
            dir.display()
        )));
    }
    let mut set = EvalSet::default();
    for index in 0..wanted {
        let chunk = &chunks[index * chunks.len() / wanted];
        if index % (wanted / queries.max(1)).max(1) == 0 && set.queries.len() < queries {
            let opening: Vec<&str> = chunk.split_whitespace().take(query_words).collect();
            set.queries.push(opening.join(" "));
        } else if set.passages.len() < passages {
            set.passages.push(chunk.clone());
        } else {
            let opening: Vec<&str> = chunk.split_whitespace().take(query_words).collect();
            set.queries.push(opening.join(" "));
        }
    }
    Ok(set)
}

/// Every `.txt` and `.md` transcript under `dir` (in path order), cleaned and cut into
/// consecutive passages of `words` words.
fn transcript_chunks(dir: &Path, words: usize) -> EmbeddingResult<Vec<String>> {
    let mut files = Vec::new();
    collect_transcripts(dir, &mut files)?;
    files.sort();
    let mut chunks = Vec::new();
    for path in &files {
        let text =
            std::fs::read_to_string(path).map_err(|error| EmbeddingError::io(path, error))?;
        chunks.extend(chunk_words(&clean_transcript(&text), words));
    }
    Ok(chunks)
}

fn collect_transcripts(dir: &Path, files: &mut Vec<std::path::PathBuf>) -> EmbeddingResult<()> {
    let entries = std::fs::read_dir(dir).map_err(|error| EmbeddingError::io(dir, error))?;
    for entry in entries {
        let path = entry
            .map_err(|error| EmbeddingError::io(dir, error))?
            .path();
        if path.is_dir() {
            collect_transcripts(&path, files)?;
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("txt" | "md")
        ) {
            files.push(path);
        }
    }
    Ok(())
}

/// Drops `hh:mm:ss` timestamps, `[hh:mm]` markers, markdown emphasis and escapes.
pub fn clean_transcript(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        let bare: String = word.chars().filter(|c| !matches!(c, '*' | '\\')).collect();
        let stripped = bare.trim_matches(|c| matches!(c, '[' | ']' | ':'));
        if stripped.is_empty() || is_timestamp(stripped) {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&bare);
    }
    out
}

fn is_timestamp(word: &str) -> bool {
    let parts: Vec<&str> = word.split(':').collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 2 && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Consecutive passages of `words` words (a shorter tail is dropped).
pub fn chunk_words(text: &str, words: usize) -> Vec<String> {
    let all: Vec<&str> = text.split_whitespace().collect();
    all.chunks(words.max(1))
        .filter(|c| c.len() == words.max(1))
        .map(|c| c.join(" "))
        .collect()
}

/// Spearman's rank correlation (average ranks for ties); 0 for fewer than 2 values.
pub fn spearman(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() || a.len() < 2 {
        return 0.0;
    }
    pearson(&ranks(a), &ranks(b))
}

fn ranks(values: &[f32]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|x, y| values[*x].total_cmp(&values[*y]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        let average = (start + end - 1) as f64 / 2.0 + 1.0;
        for index in &order[start..end] {
            ranks[*index] = average;
        }
        start = end;
    }
    ranks
}

fn pearson(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    let mean_a = a.iter().sum::<f64>() / n;
    let mean_b = b.iter().sum::<f64>() / n;
    let (mut covariance, mut var_a, mut var_b) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        covariance += (x - mean_a) * (y - mean_b);
        var_a += (x - mean_a) * (x - mean_a);
        var_b += (y - mean_b) * (y - mean_b);
    }
    if var_a == 0.0 || var_b == 0.0 {
        return 0.0;
    }
    covariance / (var_a * var_b).sqrt()
}

/// Indices of the `k` highest scores, best first (ties by lower index).
pub fn top_k(scores: &[f32], k: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|x, y| scores[*y].total_cmp(&scores[*x]).then(x.cmp(y)));
    order.truncate(k);
    order
}

/// Share of `exact` found in `approximate` (both top-k lists).
pub fn recall(exact: &[usize], approximate: &[usize]) -> f64 {
    if exact.is_empty() {
        return 1.0;
    }
    let found = exact.iter().filter(|i| approximate.contains(i)).count();
    found as f64 / exact.len() as f64
}

/// How an approximate model's similarities compare with the exact model's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Agreement {
    /// Spearman over all passage pairs.
    pub pairwise_spearman: f64,
    /// Mean over queries of Spearman over the query's passage similarities.
    pub query_spearman: f64,
    /// Mean recall@k of the approximate top-k against the exact top-k.
    pub recall_at_k: f64,
    pub k: usize,
    pub pairs: usize,
    pub queries: usize,
}

/// Compares approximate with exact vectors (all unit length) of the same passages/queries.
pub fn agreement(
    exact_passages: &[Vec<f32>],
    exact_queries: &[Vec<f32>],
    approx_passages: &[Vec<f32>],
    approx_queries: &[Vec<f32>],
    k: usize,
) -> Agreement {
    let mut exact_pairs = Vec::new();
    let mut approx_pairs = Vec::new();
    for i in 0..exact_passages.len() {
        for j in i + 1..exact_passages.len() {
            exact_pairs.push(dot(&exact_passages[i], &exact_passages[j]));
            approx_pairs.push(dot(&approx_passages[i], &approx_passages[j]));
        }
    }
    let mut query_spearman = 0.0;
    let mut recall_sum = 0.0;
    for (exact_query, approx_query) in exact_queries.iter().zip(approx_queries) {
        let exact_scores: Vec<f32> = exact_passages.iter().map(|p| dot(exact_query, p)).collect();
        let approx_scores: Vec<f32> = approx_passages
            .iter()
            .map(|p| dot(approx_query, p))
            .collect();
        query_spearman += spearman(&exact_scores, &approx_scores);
        recall_sum += recall(&top_k(&exact_scores, k), &top_k(&approx_scores, k));
    }
    let queries = exact_queries.len().min(approx_queries.len());
    let per_query = |sum: f64| {
        if queries == 0 {
            0.0
        } else {
            sum / queries as f64
        }
    };
    Agreement {
        pairwise_spearman: spearman(&exact_pairs, &approx_pairs),
        query_spearman: per_query(query_spearman),
        recall_at_k: per_query(recall_sum),
        k,
        pairs: exact_pairs.len(),
        queries,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_of_monotone_and_reversed_orders() {
        let a = [1.0, 2.0, 3.0, 4.0];
        assert!((spearman(&a, &[10.0, 20.0, 35.0, 100.0]) - 1.0).abs() < 1e-12);
        assert!((spearman(&a, &[4.0, 3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
        // textbook example with a tie: ranks (1, 2.5, 2.5, 4) against (1, 2, 3, 4)
        let rho = spearman(&[1.0, 2.0, 2.0, 3.0], &a);
        assert!((rho - 0.948_683).abs() < 1e-5, "{rho}");
    }

    #[test]
    fn recall_counts_shared_members() {
        assert_eq!(recall(&[1, 2, 3, 4], &[4, 3, 9, 8]), 0.5);
        assert_eq!(top_k(&[0.1, 0.9, 0.5, 0.9], 3), vec![1, 3, 2]);
    }

    #[test]
    fn cleaning_drops_timestamps_and_markup() {
        let cleaned = clean_transcript("00:00:06 Hello, and **Tim Smith:** \\[01:46\\] where");
        assert_eq!(cleaned, "Hello, and Tim Smith: where");
        assert_eq!(chunk_words("a b c d e", 2), vec!["a b", "c d"]);
    }
}
