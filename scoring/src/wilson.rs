//! Wilson score lower bounds: how good a rating is at least, given how many
//! people gave it. A 5.0 from three listeners ranks below a 4.8 from three thousand.

/// z for a two-sided 95 % confidence interval.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// The lower bound of the Wilson score interval for `positive` successes out of
/// `total` trials at confidence `z`; 0 when there are no trials. `positive` may be
/// fractional (star ratings count as partial successes) and is clamped to `0..=total`.
pub fn wilson_lower_bound(positive: f64, total: f64, z: f64) -> f64 {
    if total.is_nan() || total <= 0.0 || !total.is_finite() || !positive.is_finite() {
        return 0.0;
    }
    let p = (positive / total).clamp(0.0, 1.0);
    let z2 = z * z;
    let center = p + z2 / (2.0 * total);
    let margin = z * ((p * (1.0 - p) + z2 / (4.0 * total)) / total).sqrt();
    ((center - margin) / (1.0 + z2 / total)).clamp(0.0, 1.0)
}

/// The Wilson lower bound (95 %) of an average star rating (1 to 5) given by
/// `count` ratings: each rating counts as `(stars - 1) / 4` of a success, so 5 stars
/// is a full success and 1 star none. `None` without a rating or ratings.
pub fn rating_wilson_score(rating: Option<f64>, count: Option<u64>) -> Option<f64> {
    let rating = rating.filter(|r| r.is_finite())?;
    let count = count.filter(|&c| c > 0)? as f64;
    let share = ((rating - 1.0) / 4.0).clamp(0.0, 1.0);
    Some(wilson_lower_bound(share * count, count, Z_95))
}

/// The Wilson lower bound (95 %) from the number of ratings per star
/// (`counts[0]` one star … `counts[4]` five stars), as Apple publishes them.
pub fn star_counts_wilson_score(counts: [u64; 5]) -> Option<f64> {
    let total: u64 = counts.iter().sum();
    if total == 0 {
        return None;
    }
    let positive: f64 = counts
        .iter()
        .enumerate()
        .map(|(stars_minus_one, &count)| count as f64 * stars_minus_one as f64 / 4.0)
        .sum();
    Some(wilson_lower_bound(positive, total as f64, Z_95))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn hand_computed_values() {
        // p = 0.8, n = 10, z = 1.96: (0.8 + 0.19208 - 1.96 * sqrt(0.016 + 0.009604)) / 1.38416
        assert!(close(wilson_lower_bound(8.0, 10.0, 1.96), 0.490_157));
        // p = 1, n = 1: 1 / (1 + z²) = 1 / 4.8416
        assert!(close(wilson_lower_bound(1.0, 1.0, 1.96), 0.206_543));
        // p = 0.5, n = 100: (0.5 + 0.019208 - 1.96 * sqrt(0.0025 + 0.00009604)) / 1.038416
        assert!(close(wilson_lower_bound(50.0, 100.0, 1.96), 0.403_831));
        assert_eq!(wilson_lower_bound(0.0, 0.0, 1.96), 0.0);
        assert_eq!(wilson_lower_bound(0.0, 10.0, 1.96), 0.0);
    }

    #[test]
    fn more_ratings_at_the_same_average_rank_higher() {
        let few = rating_wilson_score(Some(5.0), Some(3)).unwrap();
        let many = rating_wilson_score(Some(4.8), Some(3_000)).unwrap();
        assert!(many > few);
        assert_eq!(rating_wilson_score(Some(4.0), Some(0)), None);
        assert_eq!(rating_wilson_score(None, Some(10)), None);
    }

    #[test]
    fn star_counts_match_the_average_rating_form() {
        // 10 ratings: 8 five-star, 2 one-star → 8 successes of 10.
        let stars = star_counts_wilson_score([2, 0, 0, 0, 8]).unwrap();
        assert!(close(stars, wilson_lower_bound(8.0, 10.0, Z_95)));
        // Average 4.2 over 10 ratings is also 8 successes of 10.
        assert!(close(
            rating_wilson_score(Some(4.2), Some(10)).unwrap(),
            stars
        ));
        assert_eq!(star_counts_wilson_score([0; 5]), None);
    }
}
