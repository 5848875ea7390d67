//! Fitting the static table to MPNet's embeddings of whole passages (the idea of
//! model2vec's tokenlearn): the distilled rows embed each token alone, so a text's sum of
//! rows only roughly follows what MPNet makes of the text. Here real podcast text is run
//! through exact MPNet once ([`teacher_vectors`], cached), and the table is then fitted so
//! that the normalised sum of a text's rows points where MPNet's vector does
//! ([`fit_table`]).
//!
//! The fitted rows are `row[t] = w[t] · base[t] · M + Δ[t]`: a per-token weight `w`
//! (starting at the SIF weight), one linear map `M` shared by every token (starting at the
//! identity), and a per-token correction `Δ` held near zero by an L2 penalty. The map and
//! the weights generalise to tokens the training text never shows; the corrections only
//! move tokens it does. Training maximises the mean cosine between each text's static and
//! exact vectors with Adam, and stops at the best cosine on texts held out from training.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use super::error::{EmbeddingError, EmbeddingResult};
use super::eval::{chunk_words, clean_transcript};
use super::linalg::{self, MatRef};
use super::mpnet::MpnetModel;
use super::tokenizer::WordPieceTokenizer;

/// Words per training passage.
const TRAINING_WORDS: usize = 100;
/// Words of the query-like opening taken from every second transcript passage.
const OPENING_WORDS: usize = 12;
/// Texts per teacher batch (written to the cache after each).
const TEACHER_BATCH: usize = 32;
/// Words per run compared when leaving evaluation text out.
const SHINGLE_WORDS: usize = 8;

/// Training texts for the fit, in a fixed shuffled order (so any prefix is a fair sample):
/// the text of every file under each of `roots` (markup removed, cleaned as transcripts
/// are) cut into 100-word passages, plus the 12-word opening of every second passage (the
/// length of a typed query). Each root gives as many passages as the smallest one that
/// has any, so a large folder of feeds does not drown a small one of transcripts. A
/// passage sharing any run of eight words with one of `exclude` (an evaluation set) is
/// left out, so a fit never sees the text it is judged on.
pub fn training_texts(roots: &[PathBuf], exclude: &[&str]) -> EmbeddingResult<Vec<String>> {
    let per_root = roots
        .iter()
        .map(|root| super::frequency::read_texts(std::slice::from_ref(root)))
        .collect::<EmbeddingResult<Vec<_>>>()?;
    Ok(training_texts_of(&per_root, exclude))
}

/// [`training_texts`] of texts already read, one list per root.
pub(crate) fn training_texts_of(per_root: &[Vec<String>], exclude: &[&str]) -> Vec<String> {
    let excluded: HashSet<String> = exclude.iter().flat_map(|text| shingles(text)).collect();
    let mut per_root: Vec<Vec<(String, Option<String>)>> = per_root
        .iter()
        .enumerate()
        .map(|(index, root)| {
            let mut texts = Vec::new();
            for text in root {
                let text = clean_transcript(text);
                let words: Vec<&str> = text.split_whitespace().filter(|w| !is_cue(w)).collect();
                for (position, passage) in chunk_words(&words.join(" "), TRAINING_WORDS)
                    .into_iter()
                    .enumerate()
                {
                    if !excluded.is_empty()
                        && shingles(&passage).any(|shingle| excluded.contains(&shingle))
                    {
                        continue;
                    }
                    let opening = (position % 2 == 0).then(|| {
                        let words: Vec<&str> =
                            passage.split_whitespace().take(OPENING_WORDS).collect();
                        words.join(" ")
                    });
                    texts.push((passage, opening));
                }
            }
            shuffle(&mut texts, 0x5eed_0000 + index as u64);
            texts
        })
        .collect();
    let share = per_root
        .iter()
        .map(Vec::len)
        .filter(|len| *len > 0)
        .min()
        .unwrap_or(0);
    let mut texts: Vec<String> = Vec::new();
    for root in &mut per_root {
        for (passage, opening) in root.drain(..).take(share) {
            texts.push(passage);
            texts.extend(opening);
        }
    }
    shuffle(&mut texts, 0x7ea_c4e5);
    texts
}

/// A caption cue's timing (`00:01:02.500`, `00:01:02,500`, `-->`), not text.
fn is_cue(word: &str) -> bool {
    word == "-->"
        || word.contains(':')
            && word.bytes().any(|b| b.is_ascii_digit())
            && word
                .bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b':' | b'.' | b','))
}

/// Runs of eight words with a letter, lowercased (a text shorter than that is one run).
fn shingles(text: &str) -> impl Iterator<Item = String> {
    let words: Vec<String> = text
        .split_whitespace()
        .filter(|word| word.chars().any(char::is_alphabetic))
        .map(str::to_lowercase)
        .collect();
    let width = SHINGLE_WORDS.min(words.len()).max(1);
    let runs: Vec<String> = words.windows(width).map(|w| w.join(" ")).collect();
    runs.into_iter()
}

/// Fisher–Yates with a fixed xorshift stream: the same order on every machine.
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed | 1;
    for index in (1..items.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        items.swap(index, (state % (index as u64 + 1)) as usize);
    }
}

/// Bytes of a text's key in the teacher cache.
const KEY_BYTES: usize = 32;

fn text_key(text: &str) -> [u8; KEY_BYTES] {
    Sha256::digest(text.as_bytes()).into()
}

/// Exact MPNet vectors of the first `count` of `texts` (`[count, 768]`, unit length).
/// Every vector is appended to `cache` as soon as it is computed, keyed by the text's
/// sha256, so an interrupted run resumes where it stopped and any later list of texts
/// reuses the vectors of the texts it shares. The cache is bound to the source weights by
/// its header; a cache of other weights is started afresh. `progress(done, count)` follows
/// the encoding.
pub fn teacher_vectors(
    model: &MpnetModel,
    source_sha256: &str,
    texts: &[String],
    count: usize,
    cache: &Path,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> EmbeddingResult<Vec<f32>> {
    let dim = model.encoder().config().hidden_size;
    cached_vectors(
        &|batch| model.embed_batch(batch),
        dim,
        source_sha256,
        &texts[..count.min(texts.len())],
        cache,
        progress,
    )
}

/// An encoder of texts into vectors.
type Encode<'a> = dyn Fn(&[&str]) -> EmbeddingResult<Vec<Vec<f32>>> + 'a;

/// Cached vectors by the sha256 of their text.
type TeacherCache = HashMap<[u8; KEY_BYTES], Vec<f32>>;

/// The cache of [`teacher_vectors`] around any encoder of `dim`-dimension vectors.
fn cached_vectors(
    encode: &Encode<'_>,
    dim: usize,
    source_sha256: &str,
    texts: &[String],
    cache: &Path,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> EmbeddingResult<Vec<f32>> {
    let header = format!("podlens teacher vectors 2\nsource {source_sha256}\ndim {dim}\n");
    let (mut cached, records) = read_teacher_cache(cache, &header, dim).unwrap_or_default();
    let missing: Vec<&str> = {
        let mut seen = HashSet::new();
        texts
            .iter()
            .filter(|text| !cached.contains_key(&text_key(text)) && seen.insert(text.as_str()))
            .map(String::as_str)
            .collect()
    };
    if !missing.is_empty() {
        let mut file = if cached.is_empty() {
            let mut file =
                std::fs::File::create(cache).map_err(|error| EmbeddingError::io(cache, error))?;
            file.write_all(header.as_bytes())
                .map_err(|error| EmbeddingError::io(cache, error))?;
            file
        } else {
            // cut a torn last record off before appending after it
            let whole = header.len() + records * (KEY_BYTES + dim * 4);
            let file = std::fs::OpenOptions::new()
                .append(true)
                .open(cache)
                .map_err(|error| EmbeddingError::io(cache, error))?;
            file.set_len(whole as u64)
                .map_err(|error| EmbeddingError::io(cache, error))?;
            file
        };
        let have = texts.len() - missing.len();
        progress(have, texts.len());
        for (index, batch) in missing.chunks(TEACHER_BATCH).enumerate() {
            let encoded = encode(batch)?;
            let mut bytes = Vec::with_capacity(encoded.len() * (KEY_BYTES + dim * 4));
            for (text, vector) in batch.iter().zip(encoded) {
                let key = text_key(text);
                bytes.extend_from_slice(&key);
                for value in &vector {
                    bytes.extend_from_slice(&value.to_le_bytes());
                }
                cached.insert(key, vector);
            }
            file.write_all(&bytes)
                .map_err(|error| EmbeddingError::io(cache, error))?;
            progress(have + (index * TEACHER_BATCH + batch.len()), texts.len());
        }
    }
    progress(texts.len(), texts.len());
    let mut vectors = Vec::with_capacity(texts.len() * dim);
    for text in texts {
        match cached.get(&text_key(text)) {
            Some(vector) => vectors.extend_from_slice(vector),
            None => {
                return Err(EmbeddingError::InvalidInput(
                    "a teacher vector went missing from the cache".to_owned(),
                ));
            }
        }
    }
    Ok(vectors)
}

/// The cached vectors by text key, and the number of whole records; a torn last record
/// (an interrupted write) is ignored.
fn read_teacher_cache(path: &Path, header: &str, dim: usize) -> Option<(TeacherCache, usize)> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .read_to_end(&mut bytes)
        .ok()?;
    let body = bytes.strip_prefix(header.as_bytes())?;
    let record = KEY_BYTES + dim * 4;
    let records = body.len() / record;
    let vectors = body
        .chunks_exact(record)
        .map(|record| {
            let mut key = [0_u8; KEY_BYTES];
            key.copy_from_slice(&record[..KEY_BYTES]);
            (key, linalg::f32s_from_le(&record[KEY_BYTES..]))
        })
        .collect();
    Some((vectors, records))
}

/// How [`fit_table`] trains.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FitOptions {
    /// Passes over the training texts, at most.
    pub epochs: usize,
    /// Texts per Adam step.
    pub batch: usize,
    pub learning_rate: f32,
    /// L2 penalty on the per-token corrections `Δ`.
    pub correction_penalty: f32,
    /// Share of the texts held out to choose the epoch.
    pub held_out: f64,
}

impl Default for FitOptions {
    fn default() -> Self {
        Self {
            epochs: 30,
            batch: 256,
            learning_rate: 1e-3,
            correction_penalty: 1e-4,
            held_out: 0.1,
        }
    }
}

/// What a fit did: mean cosine between static and exact vectors before and after.
#[derive(Debug, Clone, PartialEq)]
pub struct FitReport {
    pub texts: usize,
    pub held_out_texts: usize,
    pub held_out_cosine_before: f64,
    pub held_out_cosine_after: f64,
    /// Epoch whose parameters were kept (1-based; 0 when none improved).
    pub best_epoch: usize,
    pub seconds: f64,
}

/// A text as the static model sees it: distinct word pieces and their counts.
struct Bag {
    ids: Vec<u32>,
    counts: Vec<f32>,
}

fn bag(tokenizer: &WordPieceTokenizer, text: &str) -> Bag {
    let mut counts: BTreeMap<u32, f32> = BTreeMap::new();
    let unknown = tokenizer.unknown_id();
    tokenizer.for_each_piece(text, |id| {
        if id != unknown {
            *counts.entry(id).or_default() += 1.0;
        }
        true
    });
    Bag {
        ids: counts.keys().copied().collect(),
        counts: counts.values().copied().collect(),
    }
}

/// The trained parameters.
#[derive(Clone)]
struct Params {
    map: Vec<f32>,
    weights: Vec<f32>,
    corrections: Vec<f32>,
}

/// Adam's moment estimates for one parameter block.
struct Moments {
    first: Vec<f32>,
    second: Vec<f32>,
}

impl Moments {
    fn new(len: usize) -> Self {
        Self {
            first: vec![0.0; len],
            second: vec![0.0; len],
        }
    }

    /// One Adam step on `values[range]` from `gradient` (same length as the range).
    fn step(&mut self, values: &mut [f32], offset: usize, gradient: &[f32], rate: f32, step: i32) {
        const BETA1: f32 = 0.9;
        const BETA2: f32 = 0.999;
        let correction1 = 1.0 - BETA1.powi(step);
        let correction2 = 1.0 - BETA2.powi(step);
        for (index, g) in gradient.iter().enumerate() {
            let at = offset + index;
            let m = &mut self.first[at];
            let v = &mut self.second[at];
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            values[at] -= rate * (*m / correction1) / ((*v / correction2).sqrt() + 1e-8);
        }
    }
}

/// Fits table rows `w[t] · base[t] · M + Δ[t]` (see the module documentation) to exact
/// vectors: `base` is `[vocab, dim]` (the centred distilled vectors), `weights` the
/// starting per-token weights, `teacher` the unit vectors of `texts` (`[n, dim]`, n may be
/// fewer than the texts). Returns the fitted table and what the fit did.
pub fn fit_table(
    tokenizer: &WordPieceTokenizer,
    base: &[f32],
    dim: usize,
    weights: &[f32],
    texts: &[String],
    teacher: &[f32],
    options: &FitOptions,
) -> EmbeddingResult<(Vec<f32>, FitReport)> {
    let started = std::time::Instant::now();
    let vocab = weights.len();
    if base.len() != vocab * dim || dim == 0 {
        return Err(EmbeddingError::InvalidInput(format!(
            "a base table of {} values for {vocab} tokens of {dim} dimensions",
            base.len()
        )));
    }
    let count = (teacher.len() / dim).min(texts.len());
    let bags: Vec<Bag> = texts[..count]
        .par_iter()
        .map(|text| bag(tokenizer, text))
        .collect();
    let held_out = ((count as f64 * options.held_out).round() as usize).min(count);
    let train = count - held_out;
    let (train_bags, held_bags) = bags.split_at(train);
    let (train_teacher, held_teacher) = teacher[..count * dim].split_at(train * dim);
    let mut params = Params {
        map: identity(dim),
        weights: weights.to_vec(),
        corrections: vec![0.0; vocab * dim],
    };
    let held_out_cosine_before = mean_cosine(&params, base, dim, held_bags, held_teacher);
    let mut best = (held_out_cosine_before, 0, params.clone());
    let mut map_moments = Moments::new(dim * dim);
    let mut weight_moments = Moments::new(vocab);
    let mut correction_moments = Moments::new(params.corrections.len());
    let mut step = 0;
    let batch = options.batch.max(1);
    for epoch in 1..=options.epochs {
        for start in (0..train).step_by(batch) {
            let end = (start + batch).min(train);
            step += 1;
            let gradients = batch_gradients(
                &params,
                base,
                dim,
                &train_bags[start..end],
                &train_teacher[start * dim..end * dim],
            );
            let rate = options.learning_rate;
            map_moments.step(&mut params.map, 0, &gradients.map, rate, step);
            for (id, gradient) in &gradients.weights {
                weight_moments.step(&mut params.weights, *id as usize, &[*gradient], rate, step);
            }
            for (id, gradient) in &gradients.corrections {
                let offset = *id as usize * dim;
                let penalised: Vec<f32> = gradient
                    .iter()
                    .zip(&params.corrections[offset..offset + dim])
                    .map(|(g, c)| g + 2.0 * options.correction_penalty * c)
                    .collect();
                correction_moments.step(&mut params.corrections, offset, &penalised, rate, step);
            }
        }
        let held = mean_cosine(&params, base, dim, held_bags, held_teacher);
        tracing::debug!(epoch, held_out_cosine = held, "static table fit");
        if held > best.0 {
            best = (held, epoch, params.clone());
        }
    }
    let (held_out_cosine_after, best_epoch, params) = best;
    let table = fitted_rows(&params, base, dim);
    Ok((
        table,
        FitReport {
            texts: count,
            held_out_texts: held_out,
            held_out_cosine_before,
            held_out_cosine_after,
            best_epoch,
            seconds: started.elapsed().as_secs_f64(),
        },
    ))
}

fn identity(dim: usize) -> Vec<f32> {
    let mut map = vec![0.0; dim * dim];
    for index in 0..dim {
        map[index * dim + index] = 1.0;
    }
    map
}

/// `u = Σ c·w[t]·base[t]` and `d = Σ c·Δ[t]` of each text, row-major `[n, dim]`.
fn sums(params: &Params, base: &[f32], dim: usize, bags: &[Bag]) -> (Vec<f32>, Vec<f32>) {
    let mut weighted = vec![0.0_f32; bags.len() * dim];
    let mut corrected = vec![0.0_f32; bags.len() * dim];
    weighted
        .par_chunks_mut(dim)
        .zip(corrected.par_chunks_mut(dim))
        .zip(bags)
        .for_each(|((u, d), bag)| {
            for (id, count) in bag.ids.iter().zip(&bag.counts) {
                let row = *id as usize * dim;
                let scale = count * params.weights[*id as usize];
                for (value, b) in u.iter_mut().zip(&base[row..row + dim]) {
                    *value += scale * b;
                }
                for (value, c) in d.iter_mut().zip(&params.corrections[row..row + dim]) {
                    *value += count * c;
                }
            }
        });
    (weighted, corrected)
}

/// Static vectors (unnormalised) of `bags`: `u · M + d`.
fn static_vectors(params: &Params, base: &[f32], dim: usize, bags: &[Bag]) -> (Vec<f32>, Vec<f32>) {
    let (weighted, mut out) = sums(params, base, dim, bags);
    if !bags.is_empty() {
        linalg::gemm(
            1.0,
            MatRef::dense(&weighted, bags.len(), dim),
            MatRef::dense(&params.map, dim, dim),
            1.0,
            &mut out,
            dim,
            1,
        );
    }
    (weighted, out)
}

fn mean_cosine(params: &Params, base: &[f32], dim: usize, bags: &[Bag], teacher: &[f32]) -> f64 {
    if bags.is_empty() {
        return 0.0;
    }
    let (_, vectors) = static_vectors(params, base, dim, bags);
    let total: f64 = vectors
        .par_chunks(dim)
        .zip(teacher.par_chunks(dim))
        .map(|(s, y)| {
            let norm = linalg::dot(s, s).sqrt();
            if norm > 0.0 {
                f64::from(linalg::dot(s, y) / norm)
            } else {
                0.0
            }
        })
        .sum();
    total / bags.len() as f64
}

/// Gradients of the batch's loss (minus its mean cosine); the per-token ones for the
/// tokens of the batch only.
struct Gradients {
    map: Vec<f32>,
    weights: HashMap<u32, f32>,
    corrections: HashMap<u32, Vec<f32>>,
}

fn batch_gradients(
    params: &Params,
    base: &[f32],
    dim: usize,
    bags: &[Bag],
    teacher: &[f32],
) -> Gradients {
    let n = bags.len();
    let (weighted, vectors) = static_vectors(params, base, dim, bags);
    // g = −(1/n) ∂cos/∂s = −(1/n) (y − cos·ŝ) / |s|
    let mut outer = vec![0.0_f32; n * dim];
    outer
        .par_chunks_mut(dim)
        .zip(vectors.par_chunks(dim))
        .zip(teacher.par_chunks(dim))
        .for_each(|((g, s), y)| {
            let norm = linalg::dot(s, s).sqrt();
            if norm == 0.0 {
                return;
            }
            let cosine = linalg::dot(s, y) / norm;
            for ((value, s), y) in g.iter_mut().zip(s).zip(y) {
                *value = -(y - cosine * s / norm) / norm / n as f32;
            }
        });
    // ∂/∂M = uᵀ g
    let map = product(
        MatRef::dense_transposed(&weighted, n, dim),
        MatRef::dense(&outer, n, dim),
    );
    // h = g · Mᵀ, so ∂/∂w[t] = Σ c · base[t] · h
    let pulled = product(
        MatRef::dense(&outer, n, dim),
        MatRef::dense_transposed(&params.map, dim, dim),
    );
    let mut weights: HashMap<u32, f32> = HashMap::new();
    let mut corrections: HashMap<u32, Vec<f32>> = HashMap::new();
    for (index, bag) in bags.iter().enumerate() {
        let h = &pulled[index * dim..(index + 1) * dim];
        let g = &outer[index * dim..(index + 1) * dim];
        for (id, count) in bag.ids.iter().zip(&bag.counts) {
            let row = *id as usize * dim;
            *weights.entry(*id).or_default() += count * linalg::dot(&base[row..row + dim], h);
            let sum = corrections.entry(*id).or_insert_with(|| vec![0.0; dim]);
            for (value, g) in sum.iter_mut().zip(g) {
                *value += count * g;
            }
        }
    }
    Gradients {
        map,
        weights,
        corrections,
    }
}

/// `a · b` as a new dense row-major matrix.
fn product(a: MatRef<'_>, b: MatRef<'_>) -> Vec<f32> {
    let mut out = vec![0.0_f32; a.rows * b.cols];
    linalg::gemm(1.0, a, b, 0.0, &mut out, b.cols, 1);
    out
}

/// The table: `w[t] · base[t] · M + Δ[t]` for every token.
fn fitted_rows(params: &Params, base: &[f32], dim: usize) -> Vec<f32> {
    let vocab = params.weights.len();
    let mut scaled = base.to_vec();
    scaled
        .par_chunks_mut(dim)
        .zip(&params.weights)
        .for_each(|(row, weight)| row.iter_mut().for_each(|v| *v *= weight));
    let mut table = params.corrections.clone();
    linalg::gemm(
        1.0,
        MatRef::dense(&scaled, vocab, dim),
        MatRef::dense(&params.map, dim, dim),
        1.0,
        &mut table,
        dim,
        1,
    );
    table
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// A deterministic stream of values in [-1, 1).
    fn noise(seed: u64, len: usize) -> Vec<f32> {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 40) as f32 / (1_u64 << 23) as f32 - 1.0
            })
            .collect()
    }

    fn words_tokenizer(words: usize) -> WordPieceTokenizer {
        let mut tokens: Vec<String> = ["<s>", "</s>", "[UNK]"].map(String::from).to_vec();
        tokens.extend((0..words).map(|w| format!("w{w}")));
        WordPieceTokenizer::from_tokens(tokens).unwrap()
    }

    #[test]
    fn a_fit_recovers_a_table_hidden_behind_a_linear_map() {
        // Teacher vectors come from rows the fit never sees: every base row sent through
        // a fixed random map. Texts are random bags of 3 to 10 words; 10% are held out.
        let dim = 16;
        let words = 60;
        let tokenizer = words_tokenizer(words);
        let vocab = tokenizer.vocab_size();
        let base = noise(1, vocab * dim);
        let hidden_map = noise(2, dim * dim);
        let truth = product(
            MatRef::dense(&base, vocab, dim),
            MatRef::dense(&hidden_map, dim, dim),
        );
        let picks = noise(3, 2_000 * 10);
        let texts: Vec<String> = (0..2_000)
            .map(|t| {
                let length = 3 + (picks[t * 10].abs() * 8.0) as usize;
                (0..length)
                    .map(|i| format!("w{}", ((picks[t * 10 + i] + 1.0) * 29.99) as usize))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let mut teacher = Vec::new();
        for text in &texts {
            let mut sum = vec![0.0_f32; dim];
            tokenizer.for_each_piece(text, |id| {
                linalg::add_assign(&mut sum, &truth[id as usize * dim..][..dim]);
                true
            });
            linalg::l2_normalize(&mut sum);
            teacher.extend(sum);
        }
        let options = FitOptions {
            epochs: 60,
            batch: 64,
            learning_rate: 1e-2,
            ..FitOptions::default()
        };
        let weights = vec![1.0; vocab];
        let (table, report) =
            fit_table(&tokenizer, &base, dim, &weights, &texts, &teacher, &options).unwrap();
        assert_eq!((report.texts, report.held_out_texts), (2_000, 200));
        assert!(report.held_out_cosine_before < 0.5, "{report:?}");
        assert!(report.held_out_cosine_after > 0.95, "{report:?}");
        assert!(report.best_epoch > 0);
        // the table is what the report measured: the held-out texts embed as the teacher's
        let model = crate::StaticModel::from_parts(tokenizer.clone(), table, dim).unwrap();
        let mean: f64 = texts[1_800..]
            .iter()
            .zip(teacher[1_800 * dim..].chunks_exact(dim))
            .map(|(text, exact)| f64::from(linalg::dot(&model.embed(text), exact)))
            .sum::<f64>()
            / 200.0;
        assert!((mean - report.held_out_cosine_after).abs() < 1e-3, "{mean}");
    }

    #[test]
    fn gradients_match_finite_differences_of_the_loss() {
        let dim = 5;
        let tokenizer = words_tokenizer(6);
        let vocab = tokenizer.vocab_size();
        let base = noise(5, vocab * dim);
        let texts = ["w0 w1 w1", "w2 w3", "w4 w5 w0", "w3"];
        let bags: Vec<Bag> = texts.iter().map(|t| bag(&tokenizer, t)).collect();
        let mut teacher = noise(6, texts.len() * dim);
        teacher.chunks_exact_mut(dim).for_each(linalg::l2_normalize);
        let mut params = Params {
            map: noise(7, dim * dim),
            weights: noise(8, vocab).iter().map(|w| 1.0 + w / 2.0).collect(),
            corrections: noise(9, vocab * dim).iter().map(|c| c / 4.0).collect(),
        };
        // the loss in f64 from scratch: minus the mean cosine of (Σ c·(w·base·M + Δ)) and y
        let loss = |params: &Params| -> f64 {
            let mut total = 0.0;
            for (bag, y) in bags.iter().zip(teacher.chunks_exact(dim)) {
                let mut s = vec![0.0_f64; dim];
                for (id, count) in bag.ids.iter().zip(&bag.counts) {
                    let t = *id as usize;
                    for (j, value) in s.iter_mut().enumerate() {
                        let mapped: f64 = (0..dim)
                            .map(|k| {
                                f64::from(params.weights[t] * base[t * dim + k])
                                    * f64::from(params.map[k * dim + j])
                            })
                            .sum();
                        *value += f64::from(*count)
                            * (mapped + f64::from(params.corrections[t * dim + j]));
                    }
                }
                let norm = s.iter().map(|v| v * v).sum::<f64>().sqrt();
                let dot: f64 = s.iter().zip(y).map(|(a, b)| a * f64::from(*b)).sum();
                total += dot / norm;
            }
            -total / bags.len() as f64
        };
        let gradients = batch_gradients(&params, &base, dim, &bags, &teacher);
        let step = 1e-3_f32;
        let numeric = |params: &mut Params, pick: &dyn Fn(&mut Params) -> &mut f32| {
            let start = *pick(params);
            *pick(params) = start + step;
            let up = loss(params);
            *pick(params) = start - step;
            let down = loss(params);
            *pick(params) = start;
            (up - down) / (2.0 * f64::from(step))
        };
        for at in [0, 7, 24] {
            let expected = numeric(&mut params, &|p| &mut p.map[at]);
            let got = f64::from(gradients.map[at]);
            assert!(
                (expected - got).abs() < 1e-3,
                "map[{at}]: {expected} vs {got}"
            );
        }
        for (id, got) in &gradients.weights {
            let id = *id as usize;
            let expected = numeric(&mut params, &|p| &mut p.weights[id]);
            assert!(
                (expected - f64::from(*got)).abs() < 1e-3,
                "w[{id}]: {expected} vs {got}"
            );
        }
        assert_eq!(gradients.weights.len(), 6, "every word piece of the texts");
        for (id, got) in &gradients.corrections {
            for j in [0, 3] {
                let at = *id as usize * dim + j;
                let expected = numeric(&mut params, &|p| &mut p.corrections[at]);
                let got = f64::from(got[j]);
                assert!(
                    (expected - got).abs() < 1e-3,
                    "Δ[{id}][{j}]: {expected} vs {got}"
                );
            }
        }
    }

    #[test]
    fn a_fit_without_texts_keeps_the_starting_rows() {
        let tokenizer = words_tokenizer(4);
        let base = noise(4, tokenizer.vocab_size() * 8);
        let weights: Vec<f32> = (0..tokenizer.vocab_size()).map(|i| i as f32).collect();
        let (table, report) = fit_table(
            &tokenizer,
            &base,
            8,
            &weights,
            &[],
            &[],
            &FitOptions::default(),
        )
        .unwrap();
        assert_eq!(report.texts, 0);
        for (row, (fitted, start)) in table.chunks(8).zip(base.chunks(8)).enumerate() {
            for (f, s) in fitted.iter().zip(start) {
                assert!((f - s * row as f32).abs() < 1e-6);
            }
        }
    }

    /// A stand-in encoder: the vector of a text is its length, then zeros.
    fn counting_encoder(calls: &AtomicUsize) -> impl Fn(&[&str]) -> EmbeddingResult<Vec<Vec<f32>>> {
        move |batch| {
            calls.fetch_add(batch.len(), Ordering::SeqCst);
            Ok(batch
                .iter()
                .map(|text| vec![text.len() as f32, 0.0, 0.0])
                .collect())
        }
    }

    #[test]
    fn teacher_vectors_resume_and_are_reused_by_any_list_of_the_same_texts() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("teacher.bin");
        let texts: Vec<String> = (0..70).map(|i| "x".repeat(i + 1)).collect();
        let calls = AtomicUsize::new(0);
        let encode = counting_encoder(&calls);
        let first = cached_vectors(&encode, 3, "abc", &texts[..40], &cache, &|_, _| {}).unwrap();
        assert_eq!(calls.load(Ordering::SeqCst), 40);
        assert_eq!(first.len(), 40 * 3);
        assert_eq!(first[39 * 3], 40.0);
        // a torn record at the end (an interrupted write) is cut off, its text re-encoded
        let length = std::fs::metadata(&cache).unwrap().len();
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&cache)
            .unwrap();
        file.set_len(length - 5).unwrap();
        // another order, a duplicate, and 30 new texts: only the new ones and the torn one
        let mut others: Vec<String> = texts.iter().rev().cloned().collect();
        others.push(texts[0].clone());
        let second = cached_vectors(&encode, 3, "abc", &others, &cache, &|_, _| {}).unwrap();
        assert_eq!(calls.load(Ordering::SeqCst), 40 + 31);
        let lengths: Vec<f32> = second.chunks(3).map(|v| v[0]).collect();
        let expected: Vec<f32> = others.iter().map(|t| t.len() as f32).collect();
        assert_eq!(lengths, expected);
        // everything cached now; other source weights start afresh
        cached_vectors(&encode, 3, "abc", &texts, &cache, &|_, _| {}).unwrap();
        assert_eq!(calls.load(Ordering::SeqCst), 71);
        cached_vectors(&encode, 3, "def", &texts[..5], &cache, &|_, _| {}).unwrap();
        assert_eq!(calls.load(Ordering::SeqCst), 76);
    }

    #[test]
    fn training_texts_leave_out_the_evaluation_text_and_share_the_roots() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("transcripts");
        let large = dir.path().join("feeds");
        std::fs::create_dir_all(&small).unwrap();
        std::fs::create_dir_all(&large).unwrap();
        let word_run = |prefix: &str, n: usize| {
            (0..n)
                .map(|i| format!("{prefix}{i}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        // 4 passages of transcript (one of them is judged), 20 of feeds in markup
        std::fs::write(small.join("a.txt"), word_run("t", 400)).unwrap();
        std::fs::write(
            large.join("f.xml"),
            format!(
                "<rss><description>{}</description></rss>",
                word_run("f", 2_000)
            ),
        )
        .unwrap();
        // the judged text overlaps the second passage by eight words only
        let judged = word_run("t", 108);
        let judged = judged.split(' ').skip(100).collect::<Vec<_>>().join(" ");
        let texts = training_texts(&[small, large], &[judged.as_str()]).unwrap();
        let passages: Vec<&String> = texts
            .iter()
            .filter(|t| t.split(' ').count() == 100)
            .collect();
        let openings = texts.len() - passages.len();
        assert_eq!(
            passages.len(),
            6,
            "3 transcript passages left, as many of the feeds"
        );
        assert!(passages.iter().all(|p| !p.contains("t100 ")));
        assert_eq!(passages.iter().filter(|p| p.starts_with('t')).count(), 3);
        assert!(passages.iter().all(|p| !p.contains('<')));
        assert!((2..=4).contains(&openings), "{openings}");
        assert!(
            texts
                .iter()
                .filter(|t| t.split(' ').count() == OPENING_WORDS)
                .all(|o| passages.iter().any(|p| p.starts_with(o.as_str())))
        );
        // the same inputs give the same order
        assert_eq!(
            texts,
            training_texts(
                &[dir.path().join("transcripts"), dir.path().join("feeds")],
                &[judged.as_str()]
            )
            .unwrap()
        );
    }
}
