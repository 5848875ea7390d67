//! The published curves that turn each input into 0–100. Every curve is
//! monotone (non-decreasing in "more is better" inputs, non-increasing in
//! posting interval and chart position) and clamped to 0..=100.

/// `100 × min(1, x / full)`: linear up to `full`.
pub fn linear(x: f64, full: f64) -> f64 {
    if !x.is_finite() || x <= 0.0 {
        return 0.0;
    }
    (100.0 * x / full).min(100.0)
}

/// `100 × min(1, log10(1 + n) / log10(1 + full))`: each tenfold counts the same,
/// reaching 100 at `full`.
pub fn log_scale(n: f64, full: f64) -> f64 {
    if !n.is_finite() || n <= 0.0 {
        return 0.0;
    }
    (100.0 * (1.0 + n).log10() / (1.0 + full).log10()).min(100.0)
}

/// `100` when true, `0` when false.
pub fn flag(value: bool) -> f64 {
    if value { 100.0 } else { 0.0 }
}

/// Posting interval in days: 100 up to weekly, then `100 × 7 / days`.
pub fn posting_interval(days: f64) -> f64 {
    if !days.is_finite() {
        return 0.0;
    }
    if days <= 7.0 {
        100.0
    } else {
        100.0 * 7.0 / days
    }
}

/// Best chart position `p` (1 is the top): `100 × (1 − ln p / ln 201)`, 0 from 201 on.
pub fn chart_position(position: u32) -> f64 {
    if position == 0 {
        return 100.0;
    }
    (100.0 * (1.0 - f64::from(position).ln() / 201f64.ln())).clamp(0.0, 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curve_anchors() {
        assert_eq!(linear(900.0, 1_800.0), 50.0);
        assert_eq!(linear(4_000.0, 1_800.0), 100.0);
        assert!((log_scale(999.0, 999_999.0) - 50.0).abs() < 1e-9);
        assert_eq!(log_scale(0.0, 10.0), 0.0);
        assert_eq!(posting_interval(3.0), 100.0);
        assert_eq!(posting_interval(14.0), 50.0);
        assert_eq!(chart_position(1), 100.0);
        assert!(chart_position(10) > chart_position(100));
        assert_eq!(chart_position(1_000), 0.0);
    }
}
