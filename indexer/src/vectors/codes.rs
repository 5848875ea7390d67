//! Sign codes: one bit per dimension of every row of a shard, set when the row's value
//! exceeds the shard's mean in that dimension, packed into u64 words (768 dimensions are
//! 12 words, 96 bytes a row against the int8 row's 768). The Hamming distance between a
//! query's code and a row's estimates their angle (a bit differs with probability
//! angle / π for centred vectors), so a scan of XOR and `count_ones` over the codes picks
//! the few hundred rows worth scoring exactly with the int8 dot product.
//!
//! ```text
//! <index>/gen-<n>/shard-<i>/codes.bin    magic, dim, rows, words, mean, codes (little endian)
//! ```
//!
//! The mean is an exact integer sum (fixed point) over the shard's podcast, description
//! and chunk rows, so it depends on which rows the shard holds, not on their order: an
//! incremental update and a full build of the same catalog write the same mean and the
//! same code for every row. Centroids are derived rows and zero rows carry no direction;
//! neither is counted in the mean (both still get codes).

use std::fs;
use std::io::{BufWriter, Write};
use std::path::Path;

use crate::error::{IndexError, Result};

/// File of a shard's sign codes, beside `vectors.bin`.
pub const CODES_FILE: &str = "codes.bin";
const MAGIC: &[u8; 8] = b"PLSGN001";
const HEADER_BYTES: usize = 8 + 4 + 8 + 4;
/// Fixed-point unit of the mean's integer sums.
const FIXED_ONE: f64 = (1_u64 << 40) as f64;

/// The sign codes of a shard's rows and the mean they are taken around.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SignCodes {
    dim: usize,
    words: usize,
    mean: Vec<f32>,
    bits: Vec<u64>,
}

/// Words of a code of `dim` dimensions.
pub fn words_for(dim: usize) -> usize {
    dim.div_ceil(64)
}

/// Sets bit `i` of `code` for every dimension where `value(i) > mean[i]`.
fn encode_into(code: &mut [u64], mean: &[f32], value: impl Fn(usize) -> f32) {
    code.iter_mut().for_each(|word| *word = 0);
    for (i, m) in mean.iter().enumerate() {
        if value(i) > *m {
            code[i / 64] |= 1 << (i % 64);
        }
    }
}

impl SignCodes {
    /// Codes of the int8 rows with these `scales`, whose values `row_values` gives (each
    /// byte an `i8`); `in_mean` says which rows the mean is taken over.
    pub fn build<'a>(
        dim: usize,
        scales: &[f32],
        row_values: impl Fn(usize) -> &'a [u8],
        in_mean: impl Fn(usize) -> bool,
    ) -> SignCodes {
        let rows = scales.len();
        let mut sums = vec![0_i128; dim];
        let mut counted = 0_u64;
        for (row, scale) in scales.iter().enumerate() {
            if *scale == 0.0 || !scale.is_finite() || !in_mean(row) {
                continue;
            }
            // the row's scale in fixed point: the products and their sum are exact integers
            let fixed = (f64::from(*scale) * FIXED_ONE).round() as i128;
            for (sum, value) in sums.iter_mut().zip(row_values(row)) {
                *sum += i128::from(*value as i8) * fixed;
            }
            counted += 1;
        }
        let mean: Vec<f32> = sums
            .iter()
            .map(|sum| {
                if counted == 0 {
                    0.0
                } else {
                    (*sum as f64 / counted as f64 / FIXED_ONE) as f32
                }
            })
            .collect();
        let words = words_for(dim);
        let mut bits = vec![0_u64; rows * words];
        for (row, code) in bits.chunks_exact_mut(words.max(1)).enumerate().take(rows) {
            let (values, scale) = (row_values(row), scales[row]);
            encode_into(code, &mean, |i| f32::from(values[i] as i8) * scale);
        }
        SignCodes {
            dim,
            words,
            mean,
            bits,
        }
    }

    pub fn rows(&self) -> usize {
        self.bits.len().checked_div(self.words).unwrap_or(0)
    }

    pub fn words(&self) -> usize {
        self.words
    }

    pub fn mean(&self) -> &[f32] {
        &self.mean
    }

    /// The code of row `row`.
    pub fn code(&self, row: usize) -> &[u64] {
        &self.bits[row * self.words..(row + 1) * self.words]
    }

    /// The code of an f32 query vector around this shard's mean.
    pub fn encode(&self, vector: &[f32]) -> Vec<u64> {
        let mut code = vec![0_u64; self.words];
        encode_into(&mut code, &self.mean, |i| {
            vector.get(i).copied().unwrap_or(0.0)
        });
        code
    }

    /// The Hamming distance of every row's code to `query`, in row order.
    pub fn distances(&self, query: &[u64]) -> Vec<u16> {
        let mut out = Vec::with_capacity(self.rows());
        if self.words == 12 {
            let query: &[u64; 12] = query.try_into().unwrap_or(&[0; 12]);
            out.extend(self.bits.chunks_exact(12).map(|code| {
                let code: &[u64; 12] = code.try_into().unwrap_or(&[0; 12]);
                hamming_12(code, query)
            }));
        } else if self.words > 0 {
            out.extend(
                self.bits
                    .chunks_exact(self.words)
                    .map(|code| hamming(code, query)),
            );
        }
        out
    }

    /// The Hamming distance of the listed rows' codes to `query`, in list order.
    pub fn distances_of(&self, rows: &[usize], query: &[u64]) -> Vec<u16> {
        rows.iter()
            .map(|row| hamming(self.code(*row), query))
            .collect()
    }

    /// Writes the codes (synced) to `dir/codes.bin`.
    pub(crate) fn write(&self, dir: &Path) -> Result<()> {
        let path = dir.join(CODES_FILE);
        let file = fs::File::create(&path).map_err(|e| IndexError::io(&path, e))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        let write = |out: &mut BufWriter<fs::File>| -> std::io::Result<()> {
            out.write_all(MAGIC)?;
            out.write_all(&(self.dim as u32).to_le_bytes())?;
            out.write_all(&(self.rows() as u64).to_le_bytes())?;
            out.write_all(&(self.words as u32).to_le_bytes())?;
            for value in &self.mean {
                out.write_all(&value.to_le_bytes())?;
            }
            for word in &self.bits {
                out.write_all(&word.to_le_bytes())?;
            }
            out.flush()?;
            out.get_ref().sync_all()
        };
        write(&mut out).map_err(|e| IndexError::io(&path, e))
    }

    /// Reads `dir/codes.bin`, checked against the shard's `dim` and row count; `None`
    /// when the shard has no codes file (a generation written before codes existed).
    pub(crate) fn read(dir: &Path, dim: usize, rows: usize) -> Result<Option<SignCodes>> {
        let path = dir.join(CODES_FILE);
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(IndexError::io(&path, error)),
        };
        let bad = |reason: &str| IndexError::BadManifest {
            path: path.clone(),
            reason: reason.to_owned(),
        };
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err(bad("not a sign code file"));
        }
        let u32_at = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let mut count = [0_u8; 8];
        count.copy_from_slice(&bytes[12..20]);
        let (file_dim, file_rows, words) = (
            u32_at(8) as usize,
            u64::from_le_bytes(count) as usize,
            u32_at(20) as usize,
        );
        if file_dim != dim || file_rows != rows || words != words_for(dim) {
            return Err(bad("the sign codes do not match the shard's vectors"));
        }
        let expected = HEADER_BYTES + dim * 4 + rows * words * 8;
        if bytes.len() != expected {
            return Err(bad("truncated sign code file"));
        }
        let body = &bytes[HEADER_BYTES..];
        let mean = body[..dim * 4]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        let bits = body[dim * 4..]
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
            .collect();
        Ok(Some(SignCodes {
            dim,
            words,
            mean,
            bits,
        }))
    }
}

/// Hamming distance of two 768-bit codes: a fixed-length loop the compiler unrolls and
/// vectorises.
#[inline]
fn hamming_12(a: &[u64; 12], b: &[u64; 12]) -> u16 {
    let mut total = 0_u32;
    for i in 0..12 {
        total += (a[i] ^ b[i]).count_ones();
    }
    total as u16
}

#[inline]
fn hamming(a: &[u64], b: &[u64]) -> u16 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x ^ y).count_ones())
        .sum::<u32>() as u16
}

/// The positions (into `distances`) of the `wanted` smallest distances that `accept`
/// admits, found by counting distances rather than sorting: every position at the
/// cut-off distance is kept too, so the set never depends on the order of the rows.
/// When too few of the nearest are admitted, the band widens (doubling) until `wanted`
/// are found or every position was looked at. Returns the positions and whether every
/// position was looked at.
pub fn nearest_positions(
    distances: &[u16],
    wanted: usize,
    mut accept: impl FnMut(usize) -> bool,
) -> (Vec<usize>, bool) {
    let Some(max) = distances.iter().max().map(|d| usize::from(*d)) else {
        return (Vec::new(), true);
    };
    let mut histogram = vec![0_usize; max + 1];
    for d in distances {
        histogram[usize::from(*d)] += 1;
    }
    let mut kept = Vec::with_capacity(wanted + wanted / 4);
    // positions with a distance in (below, cutoff] are examined in each round
    let mut below: Option<usize> = None;
    let mut target = wanted.max(1);
    loop {
        let mut seen = 0;
        let mut cutoff = max;
        for (d, count) in histogram.iter().enumerate() {
            seen += count;
            if seen >= target {
                cutoff = d;
                break;
            }
        }
        for (position, d) in distances.iter().enumerate() {
            let d = usize::from(*d);
            if d <= cutoff && below.is_none_or(|b| d > b) && accept(position) {
                kept.push(position);
            }
        }
        if kept.len() >= wanted || cutoff == max {
            return (kept, cutoff == max);
        }
        below = Some(cutoff);
        target = target.saturating_mul(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hamming_of_twelve_words_equals_the_bit_count() {
        let a: [u64; 12] = std::array::from_fn(|i| (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let b: [u64; 12] =
            std::array::from_fn(|i| (i as u64 + 3).wrapping_mul(0xBF58_476D_1CE4_E5B9));
        let mut differing = 0;
        for bit in 0..768 {
            let (w, s) = (bit / 64, bit % 64);
            if (a[w] >> s) & 1 != (b[w] >> s) & 1 {
                differing += 1;
            }
        }
        assert_eq!(hamming_12(&a, &b), differing);
        assert_eq!(hamming(&a, &b), differing);
        assert_eq!(hamming_12(&a, &a), 0);
    }

    /// Codes of row-major int8 `values`.
    fn build(
        dim: usize,
        values: &[i8],
        scales: &[f32],
        in_mean: impl Fn(usize) -> bool,
    ) -> SignCodes {
        let bytes: Vec<u8> = values.iter().map(|v| *v as u8).collect();
        SignCodes::build(
            dim,
            scales,
            |row| &bytes[row * dim..(row + 1) * dim],
            in_mean,
        )
    }

    #[test]
    fn the_mean_ignores_row_order_and_centroids_and_codes_follow_it() {
        // three rows of 3 dimensions, the last one excluded from the mean
        let values: Vec<i8> = vec![127, 0, -127, 0, 127, 0, 127, 127, 127];
        let scales = vec![0.01, 0.02, 0.5];
        let codes = build(3, &values, &scales, |row| row != 2);
        // mean = ((1.27 + 0) / 2, (0 + 2.54) / 2, (-1.27 + 0) / 2)
        let mean = codes.mean();
        assert!(
            (mean[0] - 0.635).abs() < 1e-6 && (mean[1] - 1.27).abs() < 1e-6,
            "{mean:?}"
        );
        assert!((mean[2] + 0.635).abs() < 1e-6);
        assert_eq!(codes.code(0), &[0b001]);
        assert_eq!(codes.code(1), &[0b110]);
        assert_eq!(codes.code(2), &[0b111]);
        let swapped_values: Vec<i8> = [&values[3..6], &values[..3], &values[6..]].concat();
        let swapped = build(3, &swapped_values, &[0.02, 0.01, 0.5], |row| row != 2);
        assert_eq!(swapped.mean(), codes.mean());
        assert_eq!(swapped.code(0), codes.code(1));
        // no row counted (all zero): the mean is zero and codes are the plain signs
        let zero = build(3, &[0, 0, 0, -5, 5, 0], &[0.0, 0.1], |row| row == 0);
        assert_eq!(zero.mean(), &[0.0, 0.0, 0.0]);
        assert_eq!(zero.code(1), &[0b010]);
        assert_eq!(zero.encode(&[0.5, -0.5, 0.0]), vec![0b001]);
    }

    #[test]
    fn nearest_positions_keep_ties_and_widen_past_refused_rows() {
        let distances = [5_u16, 1, 3, 3, 9, 0, 3, 7];
        let (all, complete) = nearest_positions(&distances, 3, |_| true);
        // 0 and 1, then every 3 (the cut-off distance)
        assert_eq!(all, vec![1, 2, 3, 5, 6]);
        assert!(!complete);
        let (odd, _) = nearest_positions(&distances, 2, |p| p % 2 == 1);
        assert_eq!(odd, vec![1, 5]);
        // the two nearest are refused: the band widens to distance 3
        let (even, complete) = nearest_positions(&distances, 2, |p| p % 2 == 0);
        assert_eq!(even, vec![2, 6]);
        assert!(!complete);
        let (none, complete) = nearest_positions(&distances, 2, |_| false);
        assert!(none.is_empty() && complete);
        assert_eq!(nearest_positions(&[], 4, |_| true), (Vec::new(), true));
        let (everything, complete) = nearest_positions(&distances, 100, |_| true);
        assert_eq!(everything.len(), distances.len());
        assert!(complete);
    }

    #[test]
    fn codes_round_trip_and_refuse_a_mismatch_or_truncation() {
        let dir = tempfile::tempdir().unwrap();
        let values: Vec<i8> = (0..130 * 4).map(|i| ((i * 37) % 255 - 127) as i8).collect();
        let codes = build(130, &values, &[0.01, 0.02, 0.0, 0.03], |_| true);
        assert_eq!(codes.words(), 3);
        codes.write(dir.path()).unwrap();
        assert_eq!(SignCodes::read(dir.path(), 130, 4).unwrap(), Some(codes));
        assert!(SignCodes::read(dir.path(), 130, 5).is_err());
        assert!(SignCodes::read(dir.path(), 64, 4).is_err());
        let path = dir.path().join(CODES_FILE);
        let bytes = fs::read(&path).unwrap();
        fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        assert!(SignCodes::read(dir.path(), 130, 4).is_err());
        assert_eq!(
            SignCodes::read(&dir.path().join("absent"), 130, 4).unwrap(),
            None
        );
    }
}
