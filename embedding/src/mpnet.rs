//! The exact all-mpnet-base-v2 sentence encoder: MPNet (a BERT-like encoder whose attention
//! adds a learned, bucketed relative position bias shared by all layers), mean pooling over
//! the tokens, L2 normalisation — as sentence-transformers runs it. Used for evaluation, for
//! distilling the static model, and where a catalog is small enough to afford it.
//!
//! Sequences are packed without padding: linear layers run over the rows of all sequences
//! at once, attention runs per sequence, so a batch of 3-token sequences costs 3 rows each.

use std::path::Path;

use rayon::prelude::*;
use safetensors::{Dtype, SafeTensors};
use serde::Deserialize;

use super::error::{EmbeddingError, EmbeddingResult};
use super::linalg::{self, MatRef};
use super::tokenizer::WordPieceTokenizer;

/// Rows per packed forward batch of [`MpnetModel::embed_batch`].
const ROWS_PER_BATCH: usize = 2048;

/// The fields of the model's `config.json` the encoder needs.
#[derive(Debug, Clone, Deserialize)]
pub struct MpnetConfig {
    pub hidden_size: usize,
    pub num_attention_heads: usize,
    pub num_hidden_layers: usize,
    pub intermediate_size: usize,
    pub vocab_size: usize,
    pub max_position_embeddings: usize,
    pub pad_token_id: u32,
    pub layer_norm_eps: f32,
    #[serde(default = "default_buckets")]
    pub relative_attention_num_buckets: usize,
}

fn default_buckets() -> usize {
    32
}

/// Distance beyond which relative positions share the last bucket (HF MPNet's fixed value).
const RELATIVE_MAX_DISTANCE: usize = 128;

#[derive(Debug)]
struct Dense {
    weight: Vec<f32>,
    bias: Vec<f32>,
    in_dim: usize,
}

impl Dense {
    fn apply(&self, x: &[f32]) -> Vec<f32> {
        linalg::linear(x, self.in_dim, &self.weight, &self.bias)
    }
}

#[derive(Debug)]
struct Norm {
    weight: Vec<f32>,
    bias: Vec<f32>,
}

#[derive(Debug)]
struct Layer {
    query: Dense,
    key: Dense,
    value: Dense,
    attention_out: Dense,
    attention_norm: Norm,
    intermediate: Dense,
    output: Dense,
    output_norm: Norm,
}

/// MPNet's weights.
#[derive(Debug)]
pub struct MpnetEncoder {
    config: MpnetConfig,
    word_embeddings: Vec<f32>,
    position_embeddings: Vec<f32>,
    embedding_norm: Norm,
    layers: Vec<Layer>,
    /// `[buckets, heads]`.
    relative_attention_bias: Vec<f32>,
}

struct TensorReader<'a> {
    tensors: SafeTensors<'a>,
    path: &'a Path,
}

impl TensorReader<'_> {
    fn read(&self, name: &str, shape: &[usize]) -> EmbeddingResult<Vec<f32>> {
        let view = self
            .tensors
            .tensor(name)
            .map_err(|_| EmbeddingError::invalid(self.path, format!("no tensor {name}")))?;
        if view.dtype() != Dtype::F32 || view.shape() != shape {
            return Err(EmbeddingError::invalid(
                self.path,
                format!(
                    "tensor {name} is {:?} {:?}, expected F32 {shape:?}",
                    view.dtype(),
                    view.shape()
                ),
            ));
        }
        Ok(linalg::f32s_from_le(view.data()))
    }

    fn dense(&self, prefix: &str, out_dim: usize, in_dim: usize) -> EmbeddingResult<Dense> {
        Ok(Dense {
            weight: self.read(&format!("{prefix}.weight"), &[out_dim, in_dim])?,
            bias: self.read(&format!("{prefix}.bias"), &[out_dim])?,
            in_dim,
        })
    }

    fn norm(&self, prefix: &str, dim: usize) -> EmbeddingResult<Norm> {
        Ok(Norm {
            weight: self.read(&format!("{prefix}.weight"), &[dim])?,
            bias: self.read(&format!("{prefix}.bias"), &[dim])?,
        })
    }
}

impl MpnetEncoder {
    /// Loads `config.json` and `model.safetensors` from a model folder.
    pub fn load(dir: &Path) -> EmbeddingResult<Self> {
        let config_path = dir.join("config.json");
        let weights_path = dir.join("model.safetensors");
        for path in [&config_path, &weights_path] {
            if !path.exists() {
                return Err(EmbeddingError::MissingFile(path.clone()));
            }
        }
        let config_text = std::fs::read_to_string(&config_path)
            .map_err(|error| EmbeddingError::io(&config_path, error))?;
        let config: MpnetConfig = serde_json::from_str(&config_text)
            .map_err(|error| EmbeddingError::invalid(&config_path, error.to_string()))?;
        if config.num_attention_heads == 0
            || !config
                .hidden_size
                .is_multiple_of(config.num_attention_heads)
            || config.relative_attention_num_buckets < 4
        {
            return Err(EmbeddingError::invalid(
                &config_path,
                "inconsistent dimensions",
            ));
        }
        let bytes = std::fs::read(&weights_path)
            .map_err(|error| EmbeddingError::io(&weights_path, error))?;
        let tensors = SafeTensors::deserialize(&bytes)
            .map_err(|error| EmbeddingError::invalid(&weights_path, error.to_string()))?;
        let reader = TensorReader {
            tensors,
            path: &weights_path,
        };
        Self::from_tensors(&reader, config)
    }

    fn from_tensors(reader: &TensorReader<'_>, config: MpnetConfig) -> EmbeddingResult<Self> {
        let hidden = config.hidden_size;
        let inner = config.intermediate_size;
        let mut layers = Vec::with_capacity(config.num_hidden_layers);
        for index in 0..config.num_hidden_layers {
            let p = format!("encoder.layer.{index}");
            layers.push(Layer {
                query: reader.dense(&format!("{p}.attention.attn.q"), hidden, hidden)?,
                key: reader.dense(&format!("{p}.attention.attn.k"), hidden, hidden)?,
                value: reader.dense(&format!("{p}.attention.attn.v"), hidden, hidden)?,
                attention_out: reader.dense(&format!("{p}.attention.attn.o"), hidden, hidden)?,
                attention_norm: reader.norm(&format!("{p}.attention.LayerNorm"), hidden)?,
                intermediate: reader.dense(&format!("{p}.intermediate.dense"), inner, hidden)?,
                output: reader.dense(&format!("{p}.output.dense"), hidden, inner)?,
                output_norm: reader.norm(&format!("{p}.output.LayerNorm"), hidden)?,
            });
        }
        Ok(Self {
            word_embeddings: reader.read(
                "embeddings.word_embeddings.weight",
                &[config.vocab_size, hidden],
            )?,
            position_embeddings: reader.read(
                "embeddings.position_embeddings.weight",
                &[config.max_position_embeddings, hidden],
            )?,
            embedding_norm: reader.norm("embeddings.LayerNorm", hidden)?,
            relative_attention_bias: reader.read(
                "encoder.relative_attention_bias.weight",
                &[
                    config.relative_attention_num_buckets,
                    config.num_attention_heads,
                ],
            )?,
            layers,
            config,
        })
    }

    /// The model's configuration.
    pub fn config(&self) -> &MpnetConfig {
        &self.config
    }

    /// Longest sequence (special tokens included) the position table allows.
    pub fn max_sequence_len(&self) -> usize {
        self.config.max_position_embeddings - self.config.pad_token_id as usize - 1
    }

    /// Mean-pooled, L2-normalised sentence vectors of token-id sequences (each already
    /// wrapped in `<s> … </s>`), all run as one packed batch.
    pub fn pooled(&self, sequences: &[Vec<u32>]) -> EmbeddingResult<Vec<Vec<f32>>> {
        self.validate(sequences)?;
        let hidden = self.config.hidden_size;
        let states = self.forward(sequences);
        let mut pooled = Vec::with_capacity(sequences.len());
        let mut offset = 0;
        for sequence in sequences {
            let rows = &states[offset * hidden..(offset + sequence.len()) * hidden];
            let mut mean = vec![0.0_f32; hidden];
            for row in rows.chunks_exact(hidden) {
                linalg::add_assign(&mut mean, row);
            }
            for value in &mut mean {
                *value /= sequence.len() as f32;
            }
            linalg::l2_normalize(&mut mean);
            pooled.push(mean);
            offset += sequence.len();
        }
        Ok(pooled)
    }

    fn validate(&self, sequences: &[Vec<u32>]) -> EmbeddingResult<()> {
        let max_len = self.max_sequence_len();
        for sequence in sequences {
            if sequence.is_empty() || sequence.len() > max_len {
                return Err(EmbeddingError::InvalidInput(format!(
                    "sequence of {} tokens, the model takes 1 to {max_len}",
                    sequence.len()
                )));
            }
            if let Some(id) = sequence
                .iter()
                .find(|id| **id as usize >= self.config.vocab_size)
            {
                return Err(EmbeddingError::InvalidInput(format!(
                    "token id {id} outside the vocabulary of {}",
                    self.config.vocab_size
                )));
            }
        }
        Ok(())
    }

    /// Last hidden states of all sequences, rows packed one sequence after another.
    fn forward(&self, sequences: &[Vec<u32>]) -> Vec<f32> {
        let hidden = self.config.hidden_size;
        let first_position = self.config.pad_token_id as usize + 1;
        let total_rows: usize = sequences.iter().map(Vec::len).sum();
        let mut x = Vec::with_capacity(total_rows * hidden);
        for sequence in sequences {
            for (index, id) in sequence.iter().enumerate() {
                let word = &self.word_embeddings[*id as usize * hidden..][..hidden];
                let position =
                    &self.position_embeddings[(first_position + index) * hidden..][..hidden];
                x.extend(word.iter().zip(position).map(|(w, p)| w + p));
            }
        }
        let norm = &self.embedding_norm;
        linalg::layer_norm(&mut x, &norm.weight, &norm.bias, self.config.layer_norm_eps);
        let lengths: Vec<usize> = sequences.iter().map(Vec::len).collect();
        for layer in &self.layers {
            x = self.layer_forward(layer, x, &lengths);
        }
        x
    }

    fn layer_forward(&self, layer: &Layer, x: Vec<f32>, lengths: &[usize]) -> Vec<f32> {
        let eps = self.config.layer_norm_eps;
        let query = layer.query.apply(&x);
        let key = layer.key.apply(&x);
        let value = layer.value.apply(&x);
        let context = self.attention(&query, &key, &value, lengths);
        let mut attended = layer.attention_out.apply(&context);
        linalg::add_assign(&mut attended, &x);
        let norm = &layer.attention_norm;
        linalg::layer_norm(&mut attended, &norm.weight, &norm.bias, eps);
        let mut inner = layer.intermediate.apply(&attended);
        linalg::gelu(&mut inner);
        let mut out = layer.output.apply(&inner);
        linalg::add_assign(&mut out, &attended);
        let norm = &layer.output_norm;
        linalg::layer_norm(&mut out, &norm.weight, &norm.bias, eps);
        out
    }

    /// Multi-head self-attention with the relative position bias, per sequence.
    fn attention(&self, query: &[f32], key: &[f32], value: &[f32], lengths: &[usize]) -> Vec<f32> {
        let hidden = self.config.hidden_size;
        let mut context = vec![0.0_f32; query.len()];
        let mut slices = Vec::with_capacity(lengths.len());
        let mut rest = context.as_mut_slice();
        let mut offset = 0;
        for length in lengths {
            let (head, tail) = rest.split_at_mut(length * hidden);
            slices.push((offset, *length, head));
            rest = tail;
            offset += length * hidden;
        }
        slices.into_par_iter().for_each(|(offset, length, out)| {
            let span = offset..offset + length * hidden;
            self.sequence_attention(
                &query[span.clone()],
                &key[span.clone()],
                &value[span],
                length,
                out,
            );
        });
        context
    }

    fn sequence_attention(&self, q: &[f32], k: &[f32], v: &[f32], length: usize, out: &mut [f32]) {
        let hidden = self.config.hidden_size;
        let heads = self.config.num_attention_heads;
        let head_dim = hidden / heads;
        let scale = 1.0 / (head_dim as f32).sqrt();
        let buckets = self.relative_buckets(length);
        let mut scores = vec![0.0_f32; length * length];
        for head in 0..heads {
            let column = head * head_dim;
            let q_head = MatRef {
                data: &q[column..],
                rows: length,
                cols: head_dim,
                row_stride: hidden,
                col_stride: 1,
            };
            let k_head_t = MatRef {
                data: &k[column..],
                rows: head_dim,
                cols: length,
                row_stride: 1,
                col_stride: hidden,
            };
            linalg::gemm(scale, q_head, k_head_t, 0.0, &mut scores, length, 1);
            for (i, row) in scores.chunks_exact_mut(length).enumerate() {
                for (j, score) in row.iter_mut().enumerate() {
                    let bucket = buckets[j + length - 1 - i];
                    *score += self.relative_attention_bias[bucket * heads + head];
                }
                linalg::softmax(row);
            }
            let probabilities = MatRef::dense(&scores, length, length);
            let v_head = MatRef {
                data: &v[column..],
                rows: length,
                cols: head_dim,
                row_stride: hidden,
                col_stride: 1,
            };
            linalg::gemm(
                1.0,
                probabilities,
                v_head,
                0.0,
                &mut out[column..],
                hidden,
                1,
            );
        }
    }

    /// Bucket of each relative position `j - i` from `-(length-1)` to `length-1`, indexed
    /// by `j - i + length - 1`.
    fn relative_buckets(&self, length: usize) -> Vec<usize> {
        let buckets = self.config.relative_attention_num_buckets;
        (0..2 * length - 1)
            .map(|index| relative_position_bucket(index as i64 - (length as i64 - 1), buckets))
            .collect()
    }
}

/// HF MPNet's bidirectional bucketing of a relative position (`key − query`), computed in
/// f32 like the reference so bucket boundaries fall on the same distances.
pub fn relative_position_bucket(relative_position: i64, num_buckets: usize) -> usize {
    let half = num_buckets / 2;
    let mut bucket = 0;
    let n = -relative_position;
    if n < 0 {
        bucket += half;
    }
    let n = n.unsigned_abs() as usize;
    let max_exact = half / 2;
    if n < max_exact {
        return bucket + n;
    }
    let log_ratio = (n as f32 / max_exact as f32).ln();
    let log_range = (RELATIVE_MAX_DISTANCE as f64 / max_exact as f64).ln() as f32;
    let large = max_exact + (log_ratio / log_range * (half - max_exact) as f32) as usize;
    bucket + large.min(half - 1)
}

/// The exact sentence encoder: tokenizer plus MPNet weights.
#[derive(Debug)]
pub struct MpnetModel {
    tokenizer: WordPieceTokenizer,
    encoder: MpnetEncoder,
}

impl MpnetModel {
    /// Loads an all-mpnet-base-v2 folder (`vocab.txt`, `config.json`, `model.safetensors`).
    pub fn load(dir: &Path) -> EmbeddingResult<Self> {
        let tokenizer = WordPieceTokenizer::from_vocab_file(&dir.join("vocab.txt"))?;
        let encoder = MpnetEncoder::load(dir)?;
        if tokenizer.vocab_size() != encoder.config().vocab_size {
            return Err(EmbeddingError::invalid(
                dir,
                "vocab.txt and config.json disagree on the vocabulary size",
            ));
        }
        Ok(Self { tokenizer, encoder })
    }

    /// The tokenizer.
    pub fn tokenizer(&self) -> &WordPieceTokenizer {
        &self.tokenizer
    }

    /// The encoder.
    pub fn encoder(&self) -> &MpnetEncoder {
        &self.encoder
    }

    /// The unit-length sentence embedding of `text` (truncated to 384 tokens).
    pub fn embed(&self, text: &str) -> EmbeddingResult<Vec<f32>> {
        let mut vectors = self.encoder.pooled(&[self.tokenizer.encode(text)])?;
        Ok(vectors.pop().unwrap_or_default())
    }

    /// Embeddings of many texts, packed into batches of about 2,048 tokens.
    pub fn embed_batch(&self, texts: &[&str]) -> EmbeddingResult<Vec<Vec<f32>>> {
        let sequences: Vec<Vec<u32>> = texts.iter().map(|t| self.tokenizer.encode(t)).collect();
        let mut vectors = Vec::with_capacity(texts.len());
        let mut batch: Vec<Vec<u32>> = Vec::new();
        let mut rows = 0;
        for sequence in sequences {
            if rows + sequence.len() > ROWS_PER_BATCH && !batch.is_empty() {
                vectors.extend(self.encoder.pooled(&batch)?);
                batch.clear();
                rows = 0;
            }
            rows += sequence.len();
            batch.push(sequence);
        }
        if !batch.is_empty() {
            vectors.extend(self.encoder.pooled(&batch)?);
        }
        Ok(vectors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_follow_the_reference_scheme() {
        // exact buckets for distances under 8, direction in the upper half
        assert_eq!(relative_position_bucket(0, 32), 0);
        assert_eq!(relative_position_bucket(-3, 32), 3);
        assert_eq!(relative_position_bucket(3, 32), 19);
        // logarithmic beyond: 8 + floor(ln(n/8) / ln(16) · 8)
        assert_eq!(relative_position_bucket(-16, 32), 10);
        assert_eq!(relative_position_bucket(-32, 32), 12);
        assert_eq!(relative_position_bucket(-64, 32), 14);
        assert_eq!(relative_position_bucket(-127, 32), 15);
        assert_eq!(relative_position_bucket(500, 32), 31);
    }
}
