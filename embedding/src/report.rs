//! The quality report of the static model against exact MPNet (`podlens model eval`,
//! benches/embedding): agreement of every weighting recipe on a transcript evaluation set
//! (the built recipe and those measured against it, such as "all-but-the-top", which
//! only this report applies), and throughput of both models, as Markdown tables.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use super::build::{RAW_VECTORS_FILE, TEACHER_VECTORS_FILE, read_raw_vectors};
use super::error::{EmbeddingError, EmbeddingResult};
use super::eval::{self, EvalSet};
use super::fit::{FitOptions, fit_table, teacher_vectors, training_texts};
use super::frequency::TokenFrequencies;
use super::mpnet::MpnetModel;
use super::static_model::{StaticModel, apply_recipe, sha256_hex};

/// What the report compares, and on what.
#[derive(Debug, Clone)]
pub struct QualityOptions {
    pub mpnet_dir: PathBuf,
    /// A folder written by [`super::build_static_model`] (it keeps the raw token vectors).
    pub static_dir: PathBuf,
    pub transcripts: PathBuf,
    /// Where token frequencies are counted, as for the build.
    pub frequency_paths: Vec<PathBuf>,
    pub passages: usize,
    pub queries: usize,
    pub words: usize,
    pub query_words: usize,
    /// JSON file caching the exact vectors of the evaluation set between runs.
    pub exact_cache: Option<PathBuf>,
    /// Real text to fit the table to (the evaluation set left out), and the numbers of
    /// passages to fit on, one report row each (none when either is empty).
    pub fit_paths: Vec<PathBuf>,
    pub fit_sizes: Vec<usize>,
}

impl QualityOptions {
    /// 300 passages of 100 words, 100 queries of 12 words.
    pub fn new(mpnet_dir: PathBuf, static_dir: PathBuf, transcripts: PathBuf) -> Self {
        Self {
            mpnet_dir,
            static_dir,
            transcripts,
            frequency_paths: Vec::new(),
            passages: 300,
            queries: 100,
            words: 100,
            query_words: 12,
            exact_cache: None,
            fit_paths: Vec::new(),
            fit_sizes: Vec::new(),
        }
    }
}

/// Weighting recipes compared: name, SIF constant, centring, top components removed.
const RECIPES: &[(&str, Option<f64>, bool, usize)] = &[
    ("uniform weights", None, false, 0),
    ("uniform, centred", None, true, 0),
    ("SIF a=1e-3", Some(1e-3), false, 0),
    ("SIF a=1e-4, centred", Some(1e-4), true, 0),
    ("SIF a=1e-3, centred", Some(1e-3), true, 0),
    ("SIF a=1e-2, centred", Some(1e-2), true, 0),
    (
        "SIF a=1e-3, centred, top 2 components removed",
        Some(1e-3),
        true,
        2,
    ),
    (
        "SIF a=1e-3, centred, top 8 components removed",
        Some(1e-3),
        true,
        8,
    ),
    (
        "SIF a=1e-3, centred, top 24 components removed",
        Some(1e-3),
        true,
        24,
    ),
    (
        "SIF a=1e-4, centred, top 8 components removed",
        Some(1e-4),
        true,
        8,
    ),
];

/// Runs the comparison and returns the Markdown report.
pub fn quality_report(options: &QualityOptions) -> EmbeddingResult<String> {
    let set = eval::transcript_eval_set(
        &options.transcripts,
        options.words,
        options.passages,
        options.queries,
        options.query_words,
    )?;
    let built = StaticModel::load(&options.static_dir)?;
    let manifest = built
        .manifest()
        .ok_or_else(|| EmbeddingError::MissingFile(options.static_dir.join("manifest.json")))?
        .clone();
    let raw_path = options.static_dir.join(RAW_VECTORS_FILE);
    let raw = read_raw_vectors(&raw_path, &manifest.source_sha256)
        .ok_or_else(|| EmbeddingError::MissingFile(raw_path.clone()))?;
    let exact = exact_vectors(&options.mpnet_dir, &set, options.exact_cache.as_deref())?;
    let (exact_passages, exact_queries) = exact.vectors.split_at(set.passages.len());
    let frequencies = if options.frequency_paths.is_empty() {
        TokenFrequencies::empty(built.tokenizer().vocab_size())
    } else {
        TokenFrequencies::count_paths(built.tokenizer(), &options.frequency_paths)?
    };

    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} passages of {} words and {} queries (the first {} words of other passages) from {}; \
         token frequencies from {} tokens in {} files.\n",
        set.passages.len(),
        options.words,
        set.queries.len(),
        options.query_words,
        options.transcripts.display(),
        frequencies.total,
        frequencies.files
    );
    out.push_str("| static model recipe | pairwise Spearman | query Spearman | recall@10 |\n");
    out.push_str("|---|---:|---:|---:|\n");
    for (name, sif_a, center, components) in RECIPES {
        let weights = sif_a.map(|a| frequencies.sif_weights(a));
        let mut table = apply_recipe(
            &raw,
            manifest.dim,
            &frequencies.counts,
            weights.as_deref(),
            *center,
        );
        remove_top_components(&mut table, manifest.dim, &frequencies.counts, *components);
        let model = StaticModel::from_parts(built.tokenizer().clone(), table, manifest.dim)?;
        agreement_row(&mut out, name, &model, &set, exact_passages, exact_queries);
    }
    let built_name = format!(
        "as built: SIF {:?}, centred {}, {}",
        manifest.recipe.sif_a,
        manifest.recipe.center,
        match &manifest.fit {
            Some(fit) => format!("fitted on {} passages", fit.texts),
            None => "not fitted".to_owned(),
        }
    );
    agreement_row(
        &mut out,
        &built_name,
        &built,
        &set,
        exact_passages,
        exact_queries,
    );

    if !options.fit_paths.is_empty() && !options.fit_sizes.is_empty() {
        fit_rows(
            &mut out,
            options,
            &built,
            &manifest.source_sha256,
            &raw,
            &frequencies,
            &set,
            (exact_passages, exact_queries),
        )?;
    }

    let passage_tokens: usize = set
        .passages
        .iter()
        .map(|p| built.tokenizer().pieces(p).len())
        .sum();
    let started = Instant::now();
    let mut rounds = 0;
    while started.elapsed().as_secs_f64() < 2.0 || rounds == 0 {
        for passage in &set.passages {
            std::hint::black_box(built.embed(passage));
        }
        rounds += 1;
    }
    let static_rate = (passage_tokens * rounds) as f64 / started.elapsed().as_secs_f64();
    out.push_str("\n| model | tokens/s |\n|---|---:|\n");
    let _ = writeln!(out, "| static, 1 thread | {static_rate:.0} |");
    match exact.tokens_per_second {
        Some(rate) => {
            let _ = writeln!(
                out,
                "| exact MPNet, {} threads | {rate:.0} |",
                rayon::current_num_threads()
            );
        }
        None => out.push_str("| exact MPNet | (vectors from the cache) |\n"),
    }
    Ok(out)
}

/// Rows of the table fitted to growing numbers of passages (SIF a = 1e-3, centred, as
/// the build does), with the mean cosine on the passages each fit held out.
#[allow(clippy::too_many_arguments)]
fn fit_rows(
    out: &mut String,
    options: &QualityOptions,
    built: &StaticModel,
    source_sha256: &str,
    raw: &[f32],
    frequencies: &TokenFrequencies,
    set: &EvalSet,
    (exact_passages, exact_queries): (&[Vec<f32>], &[Vec<f32>]),
) -> EmbeddingResult<()> {
    let dim = built.dim();
    let texts = training_texts(&options.fit_paths, &set.texts())?;
    let largest = options
        .fit_sizes
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .min(texts.len());
    let mpnet = MpnetModel::load(&options.mpnet_dir)?;
    let teacher = teacher_vectors(
        &mpnet,
        source_sha256,
        &texts,
        largest,
        &options.static_dir.join(TEACHER_VECTORS_FILE),
        &|_, _| {},
    )?;
    drop(mpnet);
    let base = apply_recipe(raw, dim, &frequencies.counts, None, true);
    let weights = frequencies.sif_weights(super::frequency::DEFAULT_SIF_A);
    let _ = writeln!(
        out,
        "\nFitted to exact MPNet (`FitOptions::default()`): {} training passages from {} \
         (100 words, and the 12-word opening of every second one; any passage sharing eight \
         words with the evaluation set left out), 10% of each fit's passages held out to \
         choose the epoch.\n",
        texts.len(),
        options
            .fit_paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(" and ")
    );
    out.push_str(
        "| fitted on | held-out cosine | seconds | pairwise Spearman | query Spearman | recall@10 |\n",
    );
    out.push_str("|---|---|---:|---:|---:|---:|\n");
    for size in options.fit_sizes.iter().map(|s| (*s).min(largest)) {
        let (table, report) = fit_table(
            built.tokenizer(),
            &base,
            dim,
            &weights,
            &texts[..size],
            &teacher[..size * dim],
            &FitOptions::default(),
        )?;
        let model = StaticModel::from_parts(built.tokenizer().clone(), table, dim)?;
        let mut row = String::new();
        agreement_row(&mut row, "", &model, set, exact_passages, exact_queries);
        let _ = writeln!(
            out,
            "| {size} passages | {:.3} → {:.3} | {:.0} {}",
            report.held_out_cosine_before,
            report.held_out_cosine_after,
            report.seconds,
            row.trim_end().trim_start_matches("| "),
        );
    }
    Ok(())
}

fn agreement_row(
    out: &mut String,
    name: &str,
    model: &StaticModel,
    set: &EvalSet,
    exact_passages: &[Vec<f32>],
    exact_queries: &[Vec<f32>],
) {
    let passages: Vec<&str> = set.passages.iter().map(String::as_str).collect();
    let queries: Vec<&str> = set.queries.iter().map(String::as_str).collect();
    let approx_passages = model.embed_batch(&passages);
    let approx_queries = model.embed_batch(&queries);
    let result = eval::agreement(
        exact_passages,
        exact_queries,
        &approx_passages,
        &approx_queries,
        10,
    );
    let _ = writeln!(
        out,
        "| {name} | {:.3} | {:.3} | {:.3} |",
        result.pairwise_spearman, result.query_spearman, result.recall_at_k
    );
}

struct ExactVectors {
    vectors: Vec<Vec<f32>>,
    tokens_per_second: Option<f64>,
}

/// Exact vectors of the passages then the queries, from the cache when it matches.
fn exact_vectors(
    mpnet_dir: &Path,
    set: &EvalSet,
    cache: Option<&Path>,
) -> EmbeddingResult<ExactVectors> {
    let texts = set.texts();
    let key = sha256_hex(texts.join("\n").as_bytes());
    if let Some(path) = cache
        && let Ok(text) = std::fs::read_to_string(path)
        && let Ok((cached_key, vectors)) = serde_json::from_str::<(String, Vec<Vec<f32>>)>(&text)
        && cached_key == key
        && vectors.len() == texts.len()
    {
        return Ok(ExactVectors {
            vectors,
            tokens_per_second: None,
        });
    }
    let model = MpnetModel::load(mpnet_dir)?;
    let tokens: usize = texts
        .iter()
        .map(|t| model.tokenizer().encode(t).len())
        .sum();
    let started = Instant::now();
    let vectors = model.embed_batch(&texts)?;
    let tokens_per_second = tokens as f64 / started.elapsed().as_secs_f64();
    tracing::info!(
        tokens,
        tokens_per_second,
        "exact vectors of the evaluation set"
    );
    if let Some(path) = cache {
        let text = serde_json::to_string(&(key, &vectors))
            .map_err(|error| EmbeddingError::invalid(path, error.to_string()))?;
        std::fs::write(path, text).map_err(|error| EmbeddingError::io(path, error))?;
    }
    Ok(ExactVectors {
        vectors,
        tokens_per_second: Some(tokens_per_second),
    })
}

/// Removes from every row its part along the `components` directions in which the
/// table's rows vary most (weighted by the tokens' observed frequency, uniform when
/// nothing was counted): "all-but-the-top" post-processing. Those directions are shared
/// by most texts (length, register, frequent words) and crowd out what tells texts
/// apart. Found by subspace iteration on the rows, without forming the covariance.
fn remove_top_components(table: &mut [f32], dim: usize, counts: &[u64], components: usize) {
    let rows = table.len() / dim;
    if components == 0 || rows == 0 {
        return;
    }
    let components = components.min(dim);
    let total: u64 = counts.iter().sum();
    let weight = |row: usize| -> f64 {
        if total == 0 {
            1.0 / rows as f64
        } else {
            counts.get(row).copied().unwrap_or(0) as f64 / total as f64
        }
    };
    // A fixed, deterministic start: the builds stay reproducible.
    let mut basis: Vec<Vec<f64>> = (0..components)
        .map(|c| {
            (0..dim)
                .map(|i| (((i * 7919 + c * 104_729) % 1009) as f64 / 1009.0) - 0.5)
                .collect()
        })
        .collect();
    orthonormalize(&mut basis);
    for _ in 0..40 {
        // next = Σ_rows w · row (rowᵀ basis), for every basis vector at once.
        let next = table
            .par_chunks_exact(dim)
            .enumerate()
            .fold(
                || vec![vec![0.0_f64; dim]; components],
                |mut acc, (row, vector)| {
                    let w = weight(row);
                    if w > 0.0 {
                        for (sum, direction) in acc.iter_mut().zip(&basis) {
                            let along: f64 = vector
                                .iter()
                                .zip(direction)
                                .map(|(v, d)| f64::from(*v) * d)
                                .sum::<f64>()
                                * w;
                            for (s, v) in sum.iter_mut().zip(vector) {
                                *s += along * f64::from(*v);
                            }
                        }
                    }
                    acc
                },
            )
            .reduce(
                || vec![vec![0.0_f64; dim]; components],
                |mut a, b| {
                    for (x, y) in a.iter_mut().zip(b) {
                        for (p, q) in x.iter_mut().zip(y) {
                            *p += q;
                        }
                    }
                    a
                },
            );
        basis = next;
        orthonormalize(&mut basis);
    }
    table.par_chunks_exact_mut(dim).for_each(|vector| {
        for direction in &basis {
            let along: f64 = vector
                .iter()
                .zip(direction)
                .map(|(v, d)| f64::from(*v) * d)
                .sum();
            for (v, d) in vector.iter_mut().zip(direction) {
                *v -= (along * d) as f32;
            }
        }
    });
}

/// Gram-Schmidt, in place; a vector that vanishes stays zero.
fn orthonormalize(basis: &mut [Vec<f64>]) {
    for i in 0..basis.len() {
        let (done, rest) = basis.split_at_mut(i);
        let vector = &mut rest[0];
        for previous in done.iter() {
            let along: f64 = vector.iter().zip(previous).map(|(a, b)| a * b).sum();
            for (v, p) in vector.iter_mut().zip(previous) {
                *v -= along * p;
            }
        }
        let norm = vector.iter().map(|v| v * v).sum::<f64>().sqrt();
        if norm > 0.0 {
            for v in vector.iter_mut() {
                *v /= norm;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows that all lean along one shared direction (each with its mirror, so the
    /// direction is exactly the strongest one), plus a little of their own: once the
    /// top component is removed, no row has anything left along that direction, and
    /// what told the rows apart is kept.
    #[test]
    fn the_shared_direction_is_removed_and_the_rest_kept() {
        let dim = 6;
        let shared = [0.6_f32, 0.8, 0.0, 0.0, 0.0, 0.0];
        let own = [
            [0.0_f32, 0.0, 0.3, 0.0, 0.0, 0.0],
            [0.0, 0.0, 0.3, 0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.2, 0.0, 0.1],
            [0.0, 0.0, 0.0, 0.2, 0.0, 0.1],
        ];
        let scale = [3.0_f32, -3.0, 2.5, -2.5];
        let mut table: Vec<f32> = own
            .iter()
            .zip(scale)
            .flat_map(|(row, s)| row.iter().zip(shared).map(move |(o, d)| o + s * d))
            .collect();
        remove_top_components(&mut table, dim, &[1, 1, 1, 1], 1);
        for (row, expected) in table.chunks_exact(dim).zip(&own) {
            let along: f32 = row.iter().zip(shared).map(|(v, d)| v * d).sum();
            assert!(along.abs() < 1e-4, "{row:?}");
            for (v, e) in row.iter().zip(expected) {
                assert!((v - e).abs() < 1e-4, "{row:?} vs {expected:?}");
            }
        }
    }
}
