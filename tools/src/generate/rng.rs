//! The generator's random numbers: xoshiro256** seeded through SplitMix64.
//!
//! The corpus must be byte-identical for a given seed across releases, so the
//! generator carries its own small, fully specified generator and distributions
//! instead of depending on a crate whose streams may change between versions.

/// One step of SplitMix64: a good 64-bit mixer, used to derive seeds.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A seed for an independent stream named by `parts` (e.g. seed, stream kind, index).
pub fn derive_seed(parts: &[u64]) -> u64 {
    let mut state = 0x0005_eed0_f90d_1e45_u64;
    let mut out = 0;
    for part in parts {
        state ^= *part;
        out = splitmix64(&mut state);
        state = out;
    }
    out
}

/// xoshiro256**: fast, small state, good statistical quality.
#[derive(Debug, Clone)]
pub struct Rng {
    state: [u64; 4],
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut mixer = seed;
        let state = [
            splitmix64(&mut mixer),
            splitmix64(&mut mixer),
            splitmix64(&mut mixer),
            splitmix64(&mut mixer),
        ];
        Rng { state }
    }

    /// A stream for the named parts, independent of every other stream.
    pub fn for_stream(parts: &[u64]) -> Rng {
        Rng::new(derive_seed(parts))
    }

    pub fn next_u64(&mut self) -> u64 {
        let result = self.state[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let shifted = self.state[1] << 17;
        self.state[2] ^= self.state[0];
        self.state[3] ^= self.state[1];
        self.state[1] ^= self.state[2];
        self.state[0] ^= self.state[3];
        self.state[2] ^= shifted;
        self.state[3] = self.state[3].rotate_left(45);
        result
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in `0..bound` (0 when `bound` is 0), without modulo bias worth noting
    /// (Lemire's multiply-shift).
    pub fn below(&mut self, bound: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u64
    }

    /// Uniform in `low..=high`.
    pub fn between(&mut self, low: u64, high: u64) -> u64 {
        if high <= low {
            return low;
        }
        low + self.below(high - low + 1)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// A standard normal variate (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.unit();
        let u2 = self.unit();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// A log-normal variate with the given log-space mean and deviation.
    pub fn lognormal(&mut self, mu: f64, sigma: f64) -> f64 {
        (mu + sigma * self.normal()).exp()
    }

    /// One element of a non-empty slice, uniformly.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    /// One element of a non-empty `(item, weight)` table, proportionally to weight.
    pub fn weighted<'a, T>(&mut self, table: &'a [(T, u32)]) -> &'a T {
        let total: u64 = table.iter().map(|(_, weight)| u64::from(*weight)).sum();
        let mut target = self.below(total);
        for (item, weight) in table {
            let weight = u64::from(*weight);
            if target < weight {
                return item;
            }
            target -= weight;
        }
        &table[table.len() - 1].0
    }

    /// `count` distinct indices below `len`, in increasing order.
    pub fn sample_indices(&mut self, len: usize, count: usize) -> Vec<usize> {
        let mut indices: Vec<usize> = (0..len).collect();
        let count = count.min(len);
        for slot in 0..count {
            let other = slot + self.below((len - slot) as u64) as usize;
            indices.swap(slot, other);
        }
        indices.truncate(count);
        indices.sort_unstable();
        indices
    }

    /// A string of `len` characters drawn from `alphabet` (ASCII).
    pub fn string_from(&mut self, alphabet: &[u8], len: usize) -> String {
        (0..len).map(|_| char::from(*self.pick(alphabet))).collect()
    }

    /// `len` decimal digits, the first one non-zero.
    pub fn digits(&mut self, len: usize) -> String {
        let mut text = String::with_capacity(len);
        for position in 0..len {
            let digit = if position == 0 {
                self.between(1, 9)
            } else {
                self.below(10)
            };
            text.push(char::from(b'0' + digit as u8));
        }
        text
    }
}

pub const BASE62: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
pub const LOWER_ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_streams_differ() {
        let first: Vec<u64> = (0..5).map(|_| Rng::new(7).next_u64()).collect();
        assert!(first.windows(2).all(|pair| pair[0] == pair[1]));
        assert_ne!(
            Rng::for_stream(&[1, 2]).next_u64(),
            Rng::for_stream(&[1, 3]).next_u64()
        );
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = Rng::new(1);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let value = rng.below(7) as usize;
            seen[value] = true;
        }
        assert!(seen.iter().all(|hit| *hit));
        assert_eq!(rng.below(0), 0);
    }

    #[test]
    fn normal_has_unit_moments() {
        let mut rng = Rng::new(3);
        let samples: Vec<f64> = (0..20_000).map(|_| rng.normal()).collect();
        let mean = samples.iter().sum::<f64>() / samples.len() as f64;
        let variance =
            samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / samples.len() as f64;
        assert!(mean.abs() < 0.03, "mean {mean}");
        assert!((variance - 1.0).abs() < 0.05, "variance {variance}");
    }

    #[test]
    fn weighted_follows_weights() {
        let mut rng = Rng::new(9);
        let table = [("a", 9), ("b", 1)];
        let hits = (0..10_000).filter(|_| *rng.weighted(&table) == "a").count();
        assert!((8_700..9_300).contains(&hits), "{hits}");
    }

    #[test]
    fn sample_indices_are_distinct_and_sorted() {
        let mut rng = Rng::new(5);
        let picked = rng.sample_indices(25, 8);
        assert_eq!(picked.len(), 8);
        assert!(picked.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(picked.iter().all(|index| *index < 25));
    }
}
