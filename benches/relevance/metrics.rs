//! Ranking metrics over graded judgments (0, 1, 2), with a bootstrap over queries.
//!
//! - nDCG@10 with gains 2^grade − 1, the ideal ranking taken from every judged
//!   document of the query;
//! - MRR: 1 / rank of the first result with grade ≥ 1 (0 when none in the top 100);
//! - recall@100: the share of the query's grade ≥ 1 documents in the top 100;
//! - zero results: no result at all.
//!
//! A document counts once: a later copy of the same show (or an unjudged document)
//! gains nothing.

use std::collections::{HashMap, HashSet};

use crate::random::Random;

pub type Grades = HashMap<String, u8>;

fn gain(grade: u8) -> f64 {
    f64::from((1u32 << grade) - 1)
}

fn discount(rank: usize) -> f64 {
    1.0 / ((rank as f64) + 2.0).log2()
}

/// The ranking with repeats (by `identity`) removed from the gains: repeated entries stay
/// in place with no gain.
pub fn gains(ranked: &[String], grades: &Grades, identity: &dyn Fn(&str) -> String) -> Vec<u8> {
    let mut seen = HashSet::new();
    ranked
        .iter()
        .map(|key| {
            let show = identity(key);
            if !seen.insert(show.clone()) {
                return 0;
            }
            grades.get(&show).copied().unwrap_or(0)
        })
        .collect()
}

pub fn ndcg(gained: &[u8], grades: &Grades, k: usize) -> f64 {
    let dcg: f64 = gained
        .iter()
        .take(k)
        .enumerate()
        .map(|(rank, grade)| gain(*grade) * discount(rank))
        .sum();
    let mut ideal: Vec<u8> = grades.values().copied().filter(|g| *g > 0).collect();
    ideal.sort_unstable_by(|a, b| b.cmp(a));
    let best: f64 = ideal
        .iter()
        .take(k)
        .enumerate()
        .map(|(rank, grade)| gain(*grade) * discount(rank))
        .sum();
    if best == 0.0 { 0.0 } else { dcg / best }
}

pub fn reciprocal_rank(gained: &[u8]) -> f64 {
    gained
        .iter()
        .position(|grade| *grade > 0)
        .map_or(0.0, |rank| 1.0 / (rank as f64 + 1.0))
}

pub fn recall(gained: &[u8], grades: &Grades, k: usize) -> f64 {
    let relevant = grades.values().filter(|g| **g > 0).count();
    if relevant == 0 {
        return 0.0;
    }
    gained.iter().take(k).filter(|g| **g > 0).count() as f64 / relevant as f64
}

pub fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// The 95% bootstrap interval of the mean (2,000 resamples of the queries).
pub fn bootstrap_interval(values: &[f64], seed: u64) -> (f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let mut random = Random::new(seed);
    let mut means: Vec<f64> = (0..2000)
        .map(|_| {
            let total: f64 = (0..values.len())
                .map(|_| values[random.below(values.len() as u64) as usize])
                .sum();
            total / values.len() as f64
        })
        .collect();
    means.sort_by(f64::total_cmp);
    (means[50], means[1949])
}

/// A paired comparison of two systems' per-query values: the mean difference, its 95%
/// bootstrap interval, and wins / ties / losses of the first.
pub struct Paired {
    pub difference: f64,
    pub interval: (f64, f64),
    pub wins: usize,
    pub ties: usize,
    pub losses: usize,
}

pub fn paired(ours: &[f64], theirs: &[f64], seed: u64) -> Paired {
    let differences: Vec<f64> = ours.iter().zip(theirs).map(|(a, b)| a - b).collect();
    let wins = differences.iter().filter(|d| **d > 1e-9).count();
    let losses = differences.iter().filter(|d| **d < -1e-9).count();
    Paired {
        difference: mean(&differences),
        interval: bootstrap_interval(&differences, seed),
        wins,
        ties: differences.len() - wins - losses,
        losses,
    }
}
