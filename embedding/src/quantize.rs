//! Symmetric int8 quantisation of embedding vectors for per-shard storage: each vector
//! keeps one f32 scale, components are rounded to `round(x / scale)` in −127..=127, so the
//! error of each component is at most `scale / 2` (`scale = max |x| / 127`).

/// A vector quantised to int8 with its scale.
#[derive(Debug, Clone, PartialEq)]
pub struct QuantizedVector {
    pub values: Vec<i8>,
    pub scale: f32,
}

impl QuantizedVector {
    /// The approximate f32 vector.
    pub fn dequantize(&self) -> Vec<f32> {
        dequantize_i8(&self.values, self.scale)
    }
}

/// Quantises `vector` symmetrically; non-finite components are stored as 0.
pub fn quantize_i8(vector: &[f32]) -> (Vec<i8>, f32) {
    let max = vector
        .iter()
        .filter(|v| v.is_finite())
        .fold(0.0_f32, |max, v| max.max(v.abs()));
    if max == 0.0 {
        return (vec![0; vector.len()], 0.0);
    }
    let scale = max / 127.0;
    let values = vector
        .iter()
        .map(|v| {
            if v.is_finite() {
                (v / scale).round().clamp(-127.0, 127.0) as i8
            } else {
                0
            }
        })
        .collect();
    (values, scale)
}

/// The f32 values an int8 vector stands for.
pub fn dequantize_i8(values: &[i8], scale: f32) -> Vec<f32> {
    values.iter().map(|v| f32::from(*v) * scale).collect()
}

/// Exact integer dot product of two int8 vectors (no scales applied).
pub fn dot_i8(a: &[i8], b: &[i8]) -> i32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| i32::from(*x) * i32::from(*y))
        .sum()
}

/// Approximate dot product of the f32 vectors two quantised vectors stand for.
pub fn dot_quantized(a: &QuantizedVector, b: &QuantizedVector) -> f32 {
    dot_i8(&a.values, &b.values) as f32 * a.scale * b.scale
}

/// Approximate dot product of an f32 query with a quantised vector (asymmetric: the
/// query keeps full precision).
pub fn dot_f32_i8(query: &[f32], values: &[i8], scale: f32) -> f32 {
    query
        .iter()
        .zip(values)
        .map(|(q, v)| q * f32::from(*v))
        .sum::<f32>()
        * scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_and_non_finite_vectors_quantise_to_zero() {
        assert_eq!(quantize_i8(&[0.0, 0.0]), (vec![0, 0], 0.0));
        let (values, scale) = quantize_i8(&[f32::NAN, 1.0, f32::INFINITY]);
        assert_eq!(values, vec![0, 127, 0]);
        assert!((scale - 1.0 / 127.0).abs() < 1e-9);
    }

    #[test]
    fn dot_i8_is_exact() {
        assert_eq!(
            dot_i8(&[127, -127, 3], &[127, 127, -2]),
            127 * 127 - 127 * 127 - 6
        );
    }
}
