//! The static embedding model: a `[vocab, 768]` table of weighted token vectors distilled
//! from MPNet. A text's embedding is the L2-normalised sum of its word pieces' rows
//! (`[UNK]` skipped), so embedding costs one tokenization and a few vector additions.
//!
//! On disk (a model2vec-style folder): `model.safetensors` (tensor `embeddings`, F32),
//! `vocab.txt`, and `manifest.json`, which pins the table's sha256; [`StaticModel::load`]
//! refuses a table whose hash differs.

use std::path::Path;

use rayon::prelude::*;
use safetensors::{Dtype, SafeTensors, tensor::TensorView};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::error::{EmbeddingError, EmbeddingResult};
use super::linalg;
use super::tokenizer::WordPieceTokenizer;

/// File of the table in a static model folder.
pub const TABLE_FILE: &str = "model.safetensors";
/// File of the manifest in a static model folder.
pub const MANIFEST_FILE: &str = "manifest.json";
/// File of the vocabulary in a static model folder.
pub const VOCAB_FILE: &str = "vocab.txt";
/// Name of the table tensor.
const TABLE_TENSOR: &str = "embeddings";

/// How a static table was made, and the hashes that pin it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StaticManifest {
    /// Format version of the folder.
    pub format: u32,
    /// Name of the model the table was distilled from.
    pub source_model: String,
    /// sha256 of the source model's `model.safetensors`.
    pub source_sha256: String,
    /// sha256 of this folder's `model.safetensors`.
    pub table_sha256: String,
    /// sha256 of this folder's `vocab.txt`.
    pub vocab_sha256: String,
    pub vocab_size: usize,
    pub dim: usize,
    /// The recipe: token weighting and centering.
    pub recipe: StaticRecipe,
    /// Tokens and files the frequencies were counted on.
    pub frequency_tokens: u64,
    pub frequency_files: usize,
    /// The fit to exact MPNet vectors of real passages, when the recipe asks for one.
    #[serde(default)]
    pub fit: Option<FitSummary>,
}

/// How raw per-token MPNet vectors become table rows.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StaticRecipe {
    /// SIF constant `a` of the weights `a / (a + p)`; `None` weighs all tokens equally.
    pub sif_a: Option<f64>,
    /// Subtract the frequency-weighted mean token vector (the direction all tokens share).
    pub center: bool,
    /// Passages of real text run through MPNet to fit the table to (0: not fitted; see
    /// `fit.rs`).
    #[serde(default)]
    pub fit_texts: usize,
}

/// Passages the table is fitted to by default.
pub const DEFAULT_FIT_TEXTS: usize = 1_000;

impl Default for StaticRecipe {
    fn default() -> Self {
        Self {
            sif_a: Some(super::frequency::DEFAULT_SIF_A),
            center: true,
            fit_texts: DEFAULT_FIT_TEXTS,
        }
    }
}

/// What fitting the table did (in the manifest).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FitSummary {
    /// Passages the table was fitted to, and of them held out to choose the epoch.
    pub texts: usize,
    pub held_out_texts: usize,
    /// Mean cosine between static and exact vectors of the held-out passages.
    pub held_out_cosine_before: f64,
    pub held_out_cosine_after: f64,
}

/// Table rows from raw token vectors: `row = weight · (vector − mean)`, where the mean is
/// weighted by the tokens' observed frequency (uniform when nothing was counted).
pub fn apply_recipe(
    raw: &[f32],
    dim: usize,
    counts: &[u64],
    weights: Option<&[f32]>,
    center: bool,
) -> Vec<f32> {
    let mut mean = vec![0.0_f64; dim];
    if center {
        let total: u64 = counts.iter().sum();
        let rows = raw.len() / dim;
        for (row, vector) in raw.chunks_exact(dim).enumerate() {
            let share = if total == 0 {
                1.0 / rows as f64
            } else {
                counts.get(row).copied().unwrap_or(0) as f64 / total as f64
            };
            if share > 0.0 {
                for (m, v) in mean.iter_mut().zip(vector) {
                    *m += share * f64::from(*v);
                }
            }
        }
    }
    let mut table = Vec::with_capacity(raw.len());
    for (row, vector) in raw.chunks_exact(dim).enumerate() {
        let weight = weights.and_then(|w| w.get(row)).copied().unwrap_or(1.0);
        table.extend(
            vector
                .iter()
                .zip(&mean)
                .map(|(v, m)| weight * (v - *m as f32)),
        );
    }
    table
}

/// The static embedding model.
#[derive(Debug)]
pub struct StaticModel {
    tokenizer: WordPieceTokenizer,
    table: Vec<f32>,
    dim: usize,
    manifest: Option<StaticManifest>,
}

impl StaticModel {
    /// A model from a tokenizer and its `[vocab, dim]` table.
    pub fn from_parts(
        tokenizer: WordPieceTokenizer,
        table: Vec<f32>,
        dim: usize,
    ) -> EmbeddingResult<Self> {
        if dim == 0 || table.len() != tokenizer.vocab_size() * dim {
            return Err(EmbeddingError::InvalidInput(format!(
                "table of {} values does not hold {} rows of {dim}",
                table.len(),
                tokenizer.vocab_size()
            )));
        }
        Ok(Self {
            tokenizer,
            table,
            dim,
            manifest: None,
        })
    }

    /// Loads a static model folder, checking the table against the manifest's sha256.
    pub fn load(dir: &Path) -> EmbeddingResult<Self> {
        let manifest_path = dir.join(MANIFEST_FILE);
        let table_path = dir.join(TABLE_FILE);
        for path in [&manifest_path, &table_path] {
            if !path.exists() {
                return Err(EmbeddingError::MissingFile(path.clone()));
            }
        }
        let manifest: StaticManifest = read_json(&manifest_path)?;
        let bytes =
            std::fs::read(&table_path).map_err(|error| EmbeddingError::io(&table_path, error))?;
        let actual = sha256_hex(&bytes);
        if actual != manifest.table_sha256 {
            return Err(EmbeddingError::ChecksumMismatch {
                path: table_path,
                expected: manifest.table_sha256,
                actual,
            });
        }
        let tensors = SafeTensors::deserialize(&bytes)
            .map_err(|error| EmbeddingError::invalid(&table_path, error.to_string()))?;
        let view = tensors
            .tensor(TABLE_TENSOR)
            .map_err(|_| EmbeddingError::invalid(&table_path, "no embeddings tensor"))?;
        if view.dtype() != Dtype::F32 || view.shape() != [manifest.vocab_size, manifest.dim] {
            return Err(EmbeddingError::invalid(
                &table_path,
                format!("embeddings tensor is {:?} {:?}", view.dtype(), view.shape()),
            ));
        }
        let table = linalg::f32s_from_le(view.data());
        let tokenizer = WordPieceTokenizer::from_vocab_file(&dir.join(VOCAB_FILE))?;
        let mut model = Self::from_parts(tokenizer, table, manifest.dim)?;
        model.manifest = Some(manifest);
        Ok(model)
    }

    /// Writes `model.safetensors` and `vocab.txt` into `dir`; returns their sha256s
    /// (table, vocabulary) for the manifest.
    pub fn save_table(&self, dir: &Path) -> EmbeddingResult<(String, String)> {
        std::fs::create_dir_all(dir).map_err(|error| EmbeddingError::io(dir, error))?;
        let bytes: Vec<u8> = self.table.iter().flat_map(|v| v.to_le_bytes()).collect();
        let shape = vec![self.tokenizer.vocab_size(), self.dim];
        let view = TensorView::new(Dtype::F32, shape, &bytes)
            .map_err(|error| EmbeddingError::InvalidInput(error.to_string()))?;
        let table_path = dir.join(TABLE_FILE);
        let serialized = safetensors::serialize([(TABLE_TENSOR, view)], None)
            .map_err(|error| EmbeddingError::invalid(&table_path, error.to_string()))?;
        std::fs::write(&table_path, &serialized)
            .map_err(|error| EmbeddingError::io(&table_path, error))?;
        let vocab_path = dir.join(VOCAB_FILE);
        let mut vocab = String::new();
        for id in 0..self.tokenizer.vocab_size() {
            vocab.push_str(self.tokenizer.token(id as u32).unwrap_or_default());
            vocab.push('\n');
        }
        std::fs::write(&vocab_path, vocab.as_bytes())
            .map_err(|error| EmbeddingError::io(&vocab_path, error))?;
        Ok((sha256_hex(&serialized), sha256_hex(vocab.as_bytes())))
    }

    /// The manifest the model was loaded with, if any.
    pub fn manifest(&self) -> Option<&StaticManifest> {
        self.manifest.as_ref()
    }

    /// The tokenizer.
    pub fn tokenizer(&self) -> &WordPieceTokenizer {
        &self.tokenizer
    }

    /// Dimension of the vectors.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The table row of a token.
    pub fn row(&self, id: u32) -> Option<&[f32]> {
        self.table
            .get(id as usize * self.dim..(id as usize + 1) * self.dim)
    }

    /// The unit-length embedding of `text`; the zero vector when it has no known token.
    pub fn embed(&self, text: &str) -> Vec<f32> {
        let mut sum = vec![0.0_f32; self.dim];
        let unknown = self.tokenizer.unknown_id();
        self.tokenizer.for_each_piece(text, |id| {
            if id != unknown
                && let Some(row) = self.row(id)
            {
                linalg::add_assign(&mut sum, row);
            }
            true
        });
        linalg::l2_normalize(&mut sum);
        sum
    }

    /// Embeddings of many texts, in parallel.
    pub fn embed_batch(&self, texts: &[&str]) -> Vec<Vec<f32>> {
        texts.par_iter().map(|text| self.embed(text)).collect()
    }
}

/// Lowercase hex sha256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub(crate) fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> EmbeddingResult<T> {
    let text = std::fs::read_to_string(path).map_err(|error| EmbeddingError::io(path, error))?;
    serde_json::from_str(&text).map_err(|error| EmbeddingError::invalid(path, error.to_string()))
}
