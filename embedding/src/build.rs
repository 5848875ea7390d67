//! Distilling the static model from MPNet (`podlens model build`): every vocabulary token is
//! run through the exact encoder once as `<s> token </s>` (mean-pooled, normalised), the
//! raw vectors are cached, then weighted by the tokens' frequency in real podcast text and
//! centred ([`StaticRecipe`]), and the folder is written with a sha256-pinned manifest.
//! A folder already built from the same source weights and recipe is reused as is.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use safetensors::{Dtype, SafeTensors, tensor::TensorView};

use super::error::{EmbeddingError, EmbeddingResult};
use super::frequency::{TokenFrequencies, read_texts};
use super::mpnet::{MpnetEncoder, MpnetModel};
use super::static_model::{
    FitSummary, MANIFEST_FILE, StaticManifest, StaticModel, StaticRecipe, apply_recipe, read_json,
};

/// Cache of the raw (unweighted) per-token vectors inside the output folder.
pub const RAW_VECTORS_FILE: &str = "raw-token-vectors.safetensors";
/// Beside the vocabulary models: every token they distilled, with its vector.
pub const TOKEN_CACHE_FILE: &str = "distilled-tokens.safetensors";
/// Cache of the exact vectors of the fit's passages inside the output folder.
pub const TEACHER_VECTORS_FILE: &str = "teacher-vectors.bin";
/// Format version written into manifests.
const FORMAT_VERSION: u32 = 1;
/// Tokens per packed MPNet batch during distillation (three rows each).
const TOKENS_PER_BATCH: usize = 512;
/// Vocabulary models kept in their cache (each about 90 MB: a full-vocabulary table):
/// the most recently used; a catalog whose words changed builds a new one.
pub const KEEP_VOCABULARY_MODELS: usize = 4;

/// What `podlens model build` needs.
#[derive(Debug, Clone)]
pub struct StaticBuildOptions {
    /// The all-mpnet-base-v2 folder (scripts/install-model.sh).
    pub mpnet_dir: PathBuf,
    /// Where the static model folder is written.
    pub out_dir: PathBuf,
    /// Files or folders of real text to count token frequencies on.
    pub frequency_paths: Vec<PathBuf>,
    /// Files or folders of real text whose passages the table is fitted to
    /// (`recipe.fit_texts` of them; nothing is fitted when empty).
    pub fit_paths: Vec<PathBuf>,
    /// Texts the fit must never see (an evaluation set): passages sharing a run of eight
    /// words with one of them are left out.
    pub fit_exclude: Vec<String>,
    pub recipe: StaticRecipe,
    /// Rebuild even when the folder already matches.
    pub force: bool,
}

/// What a build did.
#[derive(Debug, Clone)]
pub struct StaticBuildReport {
    pub manifest: StaticManifest,
    /// True when an existing folder matched and nothing was rebuilt.
    pub reused: bool,
    /// True when the raw token vectors came from the cache.
    pub raw_vectors_cached: bool,
    pub distill_seconds: f64,
    /// Time spent running the fit's passages through MPNet (0 when cached or not fitted).
    pub teacher_seconds: f64,
    pub total_seconds: f64,
}

/// The slow steps of a build, for progress reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildStep {
    /// Vocabulary tokens through MPNet.
    Distill,
    /// The fit's passages through MPNet.
    Teacher,
}

/// sha256 of a file, streamed.
pub fn file_sha256(path: &Path) -> EmbeddingResult<String> {
    use sha2::{Digest, Sha256};
    let mut file = std::fs::File::open(path).map_err(|error| EmbeddingError::io(path, error))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0_u8; 1 << 20];
    loop {
        let read = file
            .read(&mut buffer)
            .map_err(|error| EmbeddingError::io(path, error))?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// Builds (or reuses) the static model folder; `progress(done, total)` follows distillation.
pub fn build_static_model(
    options: &StaticBuildOptions,
    progress: &(dyn Fn(BuildStep, usize, usize) + Sync),
) -> EmbeddingResult<StaticBuildReport> {
    let started = Instant::now();
    let weights_path = options.mpnet_dir.join("model.safetensors");
    if !weights_path.exists() {
        return Err(EmbeddingError::MissingFile(weights_path));
    }
    let source_sha256 = file_sha256(&weights_path)?;
    if !options.force
        && let Some(manifest) = matching_manifest(&options.out_dir, &source_sha256, &options.recipe)
    {
        return Ok(StaticBuildReport {
            manifest,
            reused: true,
            raw_vectors_cached: true,
            distill_seconds: 0.0,
            teacher_seconds: 0.0,
            total_seconds: started.elapsed().as_secs_f64(),
        });
    }
    let mpnet = MpnetModel::load(&options.mpnet_dir)?;
    let dim = mpnet.encoder().config().hidden_size;
    let distill_started = Instant::now();
    let raw_path = options.out_dir.join(RAW_VECTORS_FILE);
    let (raw, raw_vectors_cached) = match read_raw_vectors(&raw_path, &source_sha256) {
        Some(raw) => (raw, true),
        None => {
            let vocab: Vec<u32> = (0..mpnet.tokenizer().vocab_size() as u32).collect();
            let raw = distill_token_vectors(&mpnet, &vocab, &|done, total| {
                progress(BuildStep::Distill, done, total);
            })?;
            write_raw_vectors(&raw_path, &raw, vocab.len(), dim, &source_sha256)?;
            (raw, false)
        }
    };
    let distill_seconds = distill_started.elapsed().as_secs_f64();
    // Each root's texts, read once: the fit's passages are cut from them too when it
    // reads the same files (the default).
    let read_roots = |roots: &[PathBuf]| {
        roots
            .iter()
            .map(|root| read_texts(std::slice::from_ref(root)))
            .collect::<EmbeddingResult<Vec<_>>>()
    };
    let frequency_texts = read_roots(&options.frequency_paths)?;
    let frequencies = TokenFrequencies::count_texts(
        mpnet.tokenizer(),
        frequency_texts.par_iter().flatten().map(String::as_str),
    )
    .of_files(frequency_texts.iter().map(Vec::len).sum());
    let weights = options.recipe.sif_a.map(|a| frequencies.sif_weights(a));
    let teacher_started = Instant::now();
    let mut teacher_seconds = 0.0;
    let (table, fit) = if options.recipe.fit_texts > 0 && !options.fit_paths.is_empty() {
        let exclude: Vec<&str> = options.fit_exclude.iter().map(String::as_str).collect();
        let fit_texts = if options.fit_paths == options.frequency_paths {
            frequency_texts
        } else {
            read_roots(&options.fit_paths)?
        };
        let texts = super::fit::training_texts_of(&fit_texts, &exclude);
        drop(fit_texts);
        let teacher = super::fit::teacher_vectors(
            &mpnet,
            &source_sha256,
            &texts,
            options.recipe.fit_texts,
            &options.out_dir.join(TEACHER_VECTORS_FILE),
            &|done, total| progress(BuildStep::Teacher, done, total),
        )?;
        teacher_seconds = teacher_started.elapsed().as_secs_f64();
        let base = apply_recipe(&raw, dim, &frequencies.counts, None, options.recipe.center);
        let start_weights = weights.unwrap_or_else(|| vec![1.0; mpnet.tokenizer().vocab_size()]);
        let (table, report) = super::fit::fit_table(
            mpnet.tokenizer(),
            &base,
            dim,
            &start_weights,
            &texts,
            &teacher,
            &super::fit::FitOptions::default(),
        )?;
        let summary = FitSummary {
            texts: report.texts,
            held_out_texts: report.held_out_texts,
            held_out_cosine_before: report.held_out_cosine_before,
            held_out_cosine_after: report.held_out_cosine_after,
        };
        (table, Some(summary))
    } else {
        let table = apply_recipe(
            &raw,
            dim,
            &frequencies.counts,
            weights.as_deref(),
            options.recipe.center,
        );
        (table, None)
    };
    let model = StaticModel::from_parts(mpnet.tokenizer().clone(), table, dim)?;
    let (table_sha256, vocab_sha256) = model.save_table(&options.out_dir)?;
    let manifest = StaticManifest {
        format: FORMAT_VERSION,
        source_model: "sentence-transformers/all-mpnet-base-v2".to_owned(),
        source_sha256,
        table_sha256,
        vocab_sha256,
        vocab_size: model.tokenizer().vocab_size(),
        dim,
        recipe: options.recipe,
        frequency_tokens: frequencies.total,
        frequency_files: frequencies.files,
        fit,
    };
    let manifest_path = options.out_dir.join(MANIFEST_FILE);
    let text = serde_json::to_string_pretty(&manifest)
        .map_err(|error| EmbeddingError::invalid(&manifest_path, error.to_string()))?;
    std::fs::write(&manifest_path, text)
        .map_err(|error| EmbeddingError::io(&manifest_path, error))?;
    tracing::info!(dir = %options.out_dir.display(), distill_seconds, "static model written");
    Ok(StaticBuildReport {
        manifest,
        reused: false,
        raw_vectors_cached,
        distill_seconds,
        teacher_seconds,
        total_seconds: started.elapsed().as_secs_f64(),
    })
}

/// Builds (or reuses) a static model over the vocabulary of `texts` only: each token the
/// texts use is run through MPNet, weighted and centred by its count in the same texts
/// (the recipe of [`build_static_model`]); every other row is zero. Minutes instead of
/// the full vocabulary's half hour, for small catalogs and tests; the folder is written
/// under `cache_root/<hash of weights, vocabulary and counts>` and reused when present.
pub fn build_vocabulary_model(
    mpnet_dir: &Path,
    texts: &[&str],
    cache_root: &Path,
) -> EmbeddingResult<PathBuf> {
    use super::frequency::TokenFrequencies;
    use super::tokenizer::WordPieceTokenizer;
    let weights_path = mpnet_dir.join("model.safetensors");
    if !weights_path.exists() {
        return Err(EmbeddingError::MissingFile(weights_path));
    }
    let tokenizer = WordPieceTokenizer::from_vocab_file(&mpnet_dir.join("vocab.txt"))?;
    let frequencies = TokenFrequencies::count_texts(&tokenizer, texts.to_vec());
    let ids: Vec<u32> = (0..tokenizer.vocab_size() as u32)
        .filter(|id| frequencies.counts[*id as usize] > 0 && *id != tokenizer.unknown_id())
        .collect();
    let source_sha256 = file_sha256(&weights_path)?;
    // no fit: a few minutes at most, for small catalogs and tests
    let recipe = StaticRecipe {
        fit_texts: 0,
        ..StaticRecipe::default()
    };
    let key = super::static_model::sha256_hex(
        format!("{source_sha256}:{recipe:?}:{:?}", frequencies.counts).as_bytes(),
    );
    let dir = cache_root.join(&key[..16]);
    if StaticModel::load(&dir).is_ok() {
        mark_used(&dir);
        return Ok(dir);
    }
    let raw = vocabulary_token_vectors(
        mpnet_dir,
        &ids,
        tokenizer.vocab_size(),
        &source_sha256,
        &cache_root.join(TOKEN_CACHE_FILE),
    )?;
    let dim = raw.len() / tokenizer.vocab_size();
    let weights = recipe.sif_a.map(|a| frequencies.sif_weights(a));
    let table = apply_recipe(
        &raw,
        dim,
        &frequencies.counts,
        weights.as_deref(),
        recipe.center,
    );
    let model = StaticModel::from_parts(tokenizer, table, dim)?;
    let staging = cache_root.join(format!(".{}.tmp", &key[..16]));
    let _ = std::fs::remove_dir_all(&staging);
    let (table_sha256, vocab_sha256) = model.save_table(&staging)?;
    let manifest = StaticManifest {
        format: FORMAT_VERSION,
        source_model: format!(
            "sentence-transformers/all-mpnet-base-v2 ({} tokens of a corpus vocabulary)",
            ids.len()
        ),
        source_sha256,
        table_sha256,
        vocab_sha256,
        vocab_size: model.tokenizer().vocab_size(),
        dim,
        recipe,
        frequency_tokens: frequencies.total,
        frequency_files: frequencies.files,
        fit: None,
    };
    let manifest_path = staging.join(MANIFEST_FILE);
    let text = serde_json::to_string_pretty(&manifest)
        .map_err(|error| EmbeddingError::invalid(&manifest_path, error.to_string()))?;
    std::fs::write(&manifest_path, text)
        .map_err(|error| EmbeddingError::io(&manifest_path, error))?;
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::rename(&staging, &dir).map_err(|error| EmbeddingError::io(&dir, error))?;
    prune_vocabulary_models(cache_root, KEEP_VOCABULARY_MODELS);
    Ok(dir)
}

/// The MPNet vectors of `ids`, in a table of `vocab_size` rows (zero elsewhere). A
/// token's vector does not depend on the corpus that asks for it, so every token distilled
/// is kept in `cache` (its ids and vectors, for one source model): a vocabulary model of
/// another corpus (the demo on another port, a corpus with new words) distils only the
/// tokens the cache lacks. A cache that cannot be read or written costs time, not the
/// model.
fn vocabulary_token_vectors(
    mpnet_dir: &Path,
    ids: &[u32],
    vocab_size: usize,
    source_sha256: &str,
    cache: &Path,
) -> EmbeddingResult<Vec<f32>> {
    let mut kept = read_token_cache(cache, source_sha256, vocab_size).unwrap_or_default();
    let missing = |kept: &TokenCache| -> Vec<u32> {
        ids.iter()
            .copied()
            .filter(|id| !kept.row_of.contains_key(id))
            .collect()
    };
    let mut new_ids = missing(&kept);
    if !new_ids.is_empty() || kept.dim == 0 {
        let mpnet = MpnetModel::load(mpnet_dir)?;
        let dim = mpnet.encoder().config().hidden_size;
        if kept.dim != dim {
            kept = TokenCache {
                dim,
                ..TokenCache::default()
            };
            new_ids = missing(&kept);
        }
        let rows = distill_token_vectors(&mpnet, &new_ids, &|_, _| {})?;
        for (id, row) in new_ids.iter().zip(rows.chunks_exact(dim)) {
            kept.row_of.insert(*id, kept.ids.len());
            kept.ids.push(*id);
            kept.raw.extend_from_slice(row);
        }
        if !new_ids.is_empty()
            && let Err(error) = write_token_cache(cache, &kept, source_sha256)
        {
            tracing::warn!(path = %cache.display(), %error, "cannot keep the distilled token vectors");
        }
    }
    let dim = kept.dim;
    let mut raw = vec![0.0_f32; vocab_size * dim];
    for id in ids {
        let row = kept.row_of[id];
        raw[*id as usize * dim..][..dim].copy_from_slice(&kept.raw[row * dim..][..dim]);
    }
    Ok(raw)
}

/// The distilled tokens kept beside the vocabulary models: ids, and a row of `dim`
/// values each.
#[derive(Default)]
struct TokenCache {
    dim: usize,
    ids: Vec<u32>,
    raw: Vec<f32>,
    row_of: HashMap<u32, usize>,
}

/// The token cache, when made from the same source weights, with one row per id and
/// every id in the vocabulary.
fn read_token_cache(path: &Path, source_sha256: &str, vocab_size: usize) -> Option<TokenCache> {
    let bytes = read_of_source(path, source_sha256)?;
    let tensors = SafeTensors::deserialize(&bytes).ok()?;
    let (ids, raw) = (tensors.tensor("ids").ok()?, tensors.tensor("raw").ok()?);
    let [rows, dim] = raw.shape() else {
        return None;
    };
    if ids.dtype() != Dtype::U32 || raw.dtype() != Dtype::F32 || ids.shape() != [*rows] {
        return None;
    }
    let ids: Vec<u32> = ids
        .data()
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    if *dim == 0 || ids.iter().any(|id| *id as usize >= vocab_size) {
        return None;
    }
    Some(TokenCache {
        dim: *dim,
        row_of: ids.iter().enumerate().map(|(row, id)| (*id, row)).collect(),
        raw: super::linalg::f32s_from_le(raw.data()),
        ids,
    })
}

fn write_token_cache(path: &Path, kept: &TokenCache, source_sha256: &str) -> EmbeddingResult<()> {
    let id_bytes: Vec<u8> = kept.ids.iter().flat_map(|id| id.to_le_bytes()).collect();
    let raw_bytes: Vec<u8> = kept.raw.iter().flat_map(|v| v.to_le_bytes()).collect();
    write_of_source(
        path,
        vec![
            ("ids", Dtype::U32, vec![kept.ids.len()], id_bytes),
            ("raw", Dtype::F32, vec![kept.ids.len(), kept.dim], raw_bytes),
        ],
        source_sha256,
    )
}

/// The bytes of a safetensors file made from the source weights `source_sha256` (its
/// metadata says so), `None` for any other file or none.
fn read_of_source(path: &Path, source_sha256: &str) -> Option<Vec<u8>> {
    let bytes = std::fs::read(path).ok()?;
    let (_, metadata) = SafeTensors::read_metadata(&bytes).ok()?;
    (metadata.metadata().as_ref()?.get("source_sha256")? == source_sha256).then_some(bytes)
}

/// Writes `tensors` (name, type, shape, little-endian bytes) to a safetensors file that
/// names the source weights, through a file of its own renamed over `path`: a reader
/// never sees half a file, and of two writers at once the last one wins.
fn write_of_source(
    path: &Path,
    tensors: Vec<(&str, Dtype, Vec<usize>, Vec<u8>)>,
    source_sha256: &str,
) -> EmbeddingResult<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|error| EmbeddingError::io(dir, error))?;
    let invalid =
        |error: safetensors::SafeTensorError| EmbeddingError::invalid(path, error.to_string());
    let views = tensors
        .iter()
        .map(|(name, dtype, shape, bytes)| {
            TensorView::new(*dtype, shape.clone(), bytes).map(|view| (*name, view))
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(invalid)?;
    let metadata = HashMap::from([("source_sha256".to_owned(), source_sha256.to_owned())]);
    let serialized = safetensors::serialize(views, Some(metadata)).map_err(invalid)?;
    let mut file =
        tempfile::NamedTempFile::new_in(dir).map_err(|error| EmbeddingError::io(dir, error))?;
    std::io::Write::write_all(&mut file, &serialized)
        .map_err(|error| EmbeddingError::io(path, error))?;
    file.persist(path)
        .map_err(|error| EmbeddingError::io(path, error.error))?;
    Ok(())
}

/// Marks a cached vocabulary model as just used (its manifest's modification time).
fn mark_used(dir: &Path) {
    let manifest = dir.join(MANIFEST_FILE);
    let touched = std::fs::File::options()
        .append(true)
        .open(&manifest)
        .and_then(|file| file.set_modified(std::time::SystemTime::now()));
    if let Err(error) = touched {
        tracing::debug!(path = %manifest.display(), %error, "cannot mark a vocabulary model used");
    }
}

/// Removes all but the `keep` most recently used vocabulary models under `cache_root`
/// (folders with a manifest; anything else is left alone). A model another process is
/// reading stays readable until it closes it.
fn prune_vocabulary_models(cache_root: &Path, keep: usize) {
    let Ok(entries) = std::fs::read_dir(cache_root) else {
        return;
    };
    let mut models: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            !path
                .file_name()
                .is_some_and(|name| name.to_string_lossy().starts_with('.'))
        })
        .filter_map(|path| {
            let used = std::fs::metadata(path.join(MANIFEST_FILE))
                .ok()?
                .modified()
                .ok()?;
            Some((used, path))
        })
        .collect();
    models.sort_by_key(|(used, _)| std::cmp::Reverse(*used));
    for (_, path) in models.into_iter().skip(keep) {
        if let Err(error) = std::fs::remove_dir_all(&path) {
            tracing::warn!(path = %path.display(), %error, "cannot remove an old vocabulary model");
        }
    }
}

fn matching_manifest(
    dir: &Path,
    source_sha256: &str,
    recipe: &StaticRecipe,
) -> Option<StaticManifest> {
    let manifest: StaticManifest = read_json(&dir.join(MANIFEST_FILE)).ok()?;
    if manifest.source_sha256 != source_sha256 || manifest.recipe != *recipe {
        return None;
    }
    // loading verifies the table's sha256
    StaticModel::load(dir).ok()?;
    Some(manifest)
}

/// Raw vectors of `ids`: each run through MPNet alone as `<s> id </s>`, mean-pooled and
/// normalised; `[ids.len(), dim]` row-major.
pub fn distill_token_vectors(
    mpnet: &MpnetModel,
    ids: &[u32],
    progress: &(dyn Fn(usize, usize) + Sync),
) -> EmbeddingResult<Vec<f32>> {
    let (start, end) = mpnet.tokenizer().boundary_ids();
    let encoder: &MpnetEncoder = mpnet.encoder();
    let mut raw = Vec::with_capacity(ids.len() * encoder.config().hidden_size);
    let mut done = 0;
    for chunk in ids.chunks(TOKENS_PER_BATCH) {
        let sequences: Vec<Vec<u32>> = chunk.iter().map(|id| vec![start, *id, end]).collect();
        for vector in encoder.pooled(&sequences)? {
            raw.extend(vector);
        }
        done += chunk.len();
        progress(done, ids.len());
    }
    Ok(raw)
}

fn write_raw_vectors(
    path: &Path,
    raw: &[f32],
    rows: usize,
    dim: usize,
    source_sha256: &str,
) -> EmbeddingResult<()> {
    let bytes: Vec<u8> = raw.iter().flat_map(|v| v.to_le_bytes()).collect();
    write_of_source(
        path,
        vec![("raw", Dtype::F32, vec![rows, dim], bytes)],
        source_sha256,
    )
}

/// The cached raw vectors, when they were made from the same source weights.
pub fn read_raw_vectors(path: &Path, source_sha256: &str) -> Option<Vec<f32>> {
    let bytes = read_of_source(path, source_sha256)?;
    let tensors = SafeTensors::deserialize(&bytes).ok()?;
    let view = tensors.tensor("raw").ok()?;
    if view.dtype() != Dtype::F32 {
        return None;
    }
    Some(super::linalg::f32s_from_le(view.data()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vocabulary_cache_keeps_the_most_recently_used_models() {
        let root = tempfile::tempdir().expect("temp dir");
        let base = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        for (index, name) in ["a", "b", "c", "d", "e", "f"].iter().enumerate() {
            let dir = root.path().join(name);
            std::fs::create_dir(&dir).expect("model dir");
            let manifest = std::fs::File::create(dir.join(MANIFEST_FILE)).expect("manifest");
            // "a" used longest ago, "f" last
            manifest
                .set_modified(base + std::time::Duration::from_secs(60 * index as u64))
                .expect("mtime");
        }
        // a staging folder and a folder without a manifest are not models
        std::fs::create_dir(root.path().join(".0123.tmp")).expect("staging");
        std::fs::create_dir(root.path().join("notes")).expect("other");
        // "b" is used again: it becomes the newest
        mark_used(&root.path().join("b"));
        prune_vocabulary_models(root.path(), 4);
        let mut left: Vec<String> = std::fs::read_dir(root.path())
            .expect("read")
            .map(|entry| {
                entry
                    .expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        left.sort();
        assert_eq!(left, [".0123.tmp", "b", "d", "e", "f", "notes"]);
    }
}
