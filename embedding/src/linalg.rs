//! Dense f32 kernels for the encoder: strided matrix products (matrixmultiply's sgemm
//! behind a bounds-checked safe wrapper), layer norm, GELU, softmax, and vector helpers.

use rayon::prelude::*;

/// A read-only strided view of a row-major buffer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MatRef<'a> {
    pub data: &'a [f32],
    pub rows: usize,
    pub cols: usize,
    pub row_stride: usize,
    pub col_stride: usize,
}

impl<'a> MatRef<'a> {
    /// A dense `rows × cols` matrix stored row by row.
    pub fn dense(data: &'a [f32], rows: usize, cols: usize) -> Self {
        Self {
            data,
            rows,
            cols,
            row_stride: cols,
            col_stride: 1,
        }
    }

    /// The transpose of a dense `rows × cols` matrix, without copying.
    pub fn dense_transposed(data: &'a [f32], rows: usize, cols: usize) -> Self {
        Self {
            data,
            rows: cols,
            cols: rows,
            row_stride: 1,
            col_stride: cols,
        }
    }

    fn fits(&self) -> bool {
        fits(
            self.data.len(),
            self.rows,
            self.cols,
            self.row_stride,
            self.col_stride,
        )
    }
}

fn fits(len: usize, rows: usize, cols: usize, row_stride: usize, col_stride: usize) -> bool {
    if rows == 0 || cols == 0 {
        return true;
    }
    let last = (rows - 1).checked_mul(row_stride).and_then(|r| {
        (cols - 1)
            .checked_mul(col_stride)
            .and_then(|c| r.checked_add(c))
    });
    matches!(last, Some(index) if index < len)
}

/// `out = alpha · a · b + beta · out`, where `out` is `a.rows × b.cols` with the given
/// strides. Panics on shape or bounds mismatch (a programming error, never input-driven).
#[allow(unsafe_code)]
pub(crate) fn gemm(
    alpha: f32,
    a: MatRef<'_>,
    b: MatRef<'_>,
    beta: f32,
    out: &mut [f32],
    out_row_stride: usize,
    out_col_stride: usize,
) {
    assert_eq!(a.cols, b.rows, "inner dimensions differ");
    assert!(a.fits() && b.fits(), "operand view exceeds its buffer");
    assert!(
        fits(out.len(), a.rows, b.cols, out_row_stride, out_col_stride),
        "output view exceeds its buffer"
    );
    let strides = [
        a.row_stride,
        a.col_stride,
        b.row_stride,
        b.col_stride,
        out_row_stride,
        out_col_stride,
    ];
    assert!(
        strides.iter().all(|s| isize::try_from(*s).is_ok()),
        "stride too large"
    );
    // SAFETY: every element sgemm reads or writes lies inside the three slices (checked by
    // `fits` above); `out` is a unique borrow, so it aliases neither operand.
    unsafe {
        matrixmultiply::sgemm(
            a.rows,
            a.cols,
            b.cols,
            alpha,
            a.data.as_ptr(),
            a.row_stride as isize,
            a.col_stride as isize,
            b.data.as_ptr(),
            b.row_stride as isize,
            b.col_stride as isize,
            beta,
            out.as_mut_ptr(),
            out_row_stride as isize,
            out_col_stride as isize,
        );
    }
}

/// The fewest rows a parallel task of [`linear`] takes.
const LINEAR_MIN_ROWS_PER_TASK: usize = 32;

/// `y = x · Wᵀ + b` for `x` of `rows × in_dim`, `W` of `out_dim × in_dim` (PyTorch layout).
pub(crate) fn linear(x: &[f32], in_dim: usize, weight: &[f32], bias: &[f32]) -> Vec<f32> {
    let out_dim = bias.len();
    let rows = x.len() / in_dim;
    let mut out = vec![0.0_f32; rows * out_dim];
    let weight_t = MatRef::dense_transposed(weight, out_dim, in_dim);
    // One task per thread: every task packs the whole weight matrix again (a strided
    // read of all of it), so many small tasks spend more time packing than multiplying.
    let per_task = rows
        .div_ceil(rayon::current_num_threads())
        .max(LINEAR_MIN_ROWS_PER_TASK);
    out.par_chunks_mut(per_task * out_dim)
        .zip(x.par_chunks(per_task * in_dim))
        .for_each(|(out_chunk, x_chunk)| {
            for row in out_chunk.chunks_mut(out_dim) {
                row.copy_from_slice(bias);
            }
            let chunk_rows = x_chunk.len() / in_dim;
            let a = MatRef::dense(x_chunk, chunk_rows, in_dim);
            gemm(1.0, a, weight_t, 1.0, out_chunk, out_dim, 1);
        });
    out
}

/// In-place layer norm over each row of width `weight.len()`.
pub(crate) fn layer_norm(x: &mut [f32], weight: &[f32], bias: &[f32], eps: f32) {
    let width = weight.len();
    x.par_chunks_mut(width).for_each(|row| {
        let mean = row.iter().sum::<f32>() / width as f32;
        let variance = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / width as f32;
        let inverse = 1.0 / (variance + eps).sqrt();
        for ((value, w), b) in row.iter_mut().zip(weight).zip(bias) {
            *value = (*value - mean) * inverse * w + b;
        }
    });
}

/// Exact (erf) GELU, in place.
pub(crate) fn gelu(x: &mut [f32]) {
    x.par_chunks_mut(4096).for_each(|chunk| {
        for value in chunk {
            *value = 0.5 * *value * (1.0 + libm::erff(*value * std::f32::consts::FRAC_1_SQRT_2));
        }
    });
}

/// Numerically stable softmax of one row, in place.
pub(crate) fn softmax(row: &mut [f32]) {
    let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for value in row.iter_mut() {
        *value = (*value - max).exp();
        sum += *value;
    }
    for value in row.iter_mut() {
        *value /= sum;
    }
}

/// Little-endian `f32` values (a safetensors F32 tensor, a vector cache record); a
/// trailing partial value is ignored.
pub(crate) fn f32s_from_le(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// `a += b` element-wise.
pub(crate) fn add_assign(a: &mut [f32], b: &[f32]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// Dot product.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Scales `v` to unit length; a zero vector stays zero.
pub fn l2_normalize(v: &mut [f32]) {
    let norm = dot(v, v).sqrt();
    if norm > 0.0 && norm.is_finite() {
        for value in v.iter_mut() {
            *value /= norm;
        }
    }
}

/// Cosine similarity; 0 when either vector is zero.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let denominator = (dot(a, a) * dot(b, b)).sqrt();
    if denominator > 0.0 {
        dot(a, b) / denominator
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_matches_a_plain_loop() {
        let (rows, in_dim, out_dim) = (70, 5, 3);
        let x: Vec<f32> = (0..rows * in_dim).map(|i| (i % 7) as f32 - 3.0).collect();
        let w: Vec<f32> = (0..out_dim * in_dim)
            .map(|i| (i % 5) as f32 * 0.5)
            .collect();
        let b = vec![1.0, -2.0, 0.25];
        let y = linear(&x, in_dim, &w, &b);
        for r in 0..rows {
            for o in 0..out_dim {
                let expected: f32 = b[o]
                    + (0..in_dim)
                        .map(|i| x[r * in_dim + i] * w[o * in_dim + i])
                        .sum::<f32>();
                assert!((y[r * out_dim + o] - expected).abs() < 1e-4);
            }
        }
    }

    #[test]
    fn softmax_sums_to_one_and_layer_norm_centres() {
        let mut row = vec![1.0, 2.0, 3.0, 1000.0];
        softmax(&mut row);
        assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        let mut x = vec![1.0, 2.0, 3.0, 4.0];
        layer_norm(&mut x, &[1.0; 4], &[0.0; 4], 1e-5);
        assert!(x.iter().sum::<f32>().abs() < 1e-5);
        assert!((dot(&x, &x) / 4.0 - 1.0).abs() < 1e-3);
    }

    #[test]
    #[should_panic(expected = "exceeds")]
    fn gemm_refuses_views_past_the_buffer() {
        let a = [1.0; 4];
        let mut out = [0.0; 4];
        let view = MatRef::dense(&a, 3, 2);
        gemm(1.0, view, MatRef::dense(&a, 2, 2), 0.0, &mut out, 2, 1);
    }
}
