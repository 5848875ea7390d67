use proptest::prelude::*;

use super::*;

fn full_inputs() -> AuthorityInputs {
    AuthorityInputs {
        guest_acceptance: Some(true),
        posting_interval_days: Some(7.0),
        average_episode_length_seconds: Some(2_400.0),
        has_thumbnails: Some(true),
        episode_count: Some(150),
        age_days: Some(800),
        show_notes_quality: Some(0.6),
        feed_social_links: Some(3),
        website_links: Some(4),
        follower_count: Some(25_000),
        youtube_views: Some(1_000_000),
        youtube_subscribers: Some(10_000),
        review_count: Some(400),
        rating: Some(4.7),
        best_chart_position: Some(35),
        castbox_plays: Some(50_000),
        castbox_subscribers: Some(2_000),
    }
}

#[test]
fn weights_add_up_to_one() {
    let total: f64 = SUB_SCORE_WEIGHTS.iter().map(|(_, w)| w).sum();
    assert!((total - 1.0).abs() < 1e-12);
    for (sub, _) in SUB_SCORE_WEIGHTS {
        let within: f64 = INPUT_RULES
            .iter()
            .filter(|r| r.sub_score == sub)
            .map(|r| r.weight)
            .sum();
        assert!(
            (within - 1.0).abs() < 1e-12,
            "{sub:?} weights add up to {within}"
        );
    }
    assert_eq!(INPUT_RULES.len(), 17);
}

#[test]
fn hand_computed_score_of_a_show_known_only_by_its_feed() {
    // Quality only: episodes 200 → 100, interval 14 days → 50, thumbnails → 100.
    let inputs = AuthorityInputs {
        episode_count: Some(200),
        posting_interval_days: Some(14.0),
        has_thumbnails: Some(true),
        ..AuthorityInputs::default()
    };
    let score = authority_score(&inputs).unwrap();
    // (0.20 × 100 + 0.15 × 50 + 0.10 × 100) / 0.45 = 37.5 / 0.45
    let expected = 37.5 / 0.45;
    assert!(
        (score.final_score - expected).abs() < 1e-9,
        "{}",
        score.final_score
    );
    assert_eq!(score.sub_scores.quality.weight, 1.0);
    assert_eq!(score.sub_scores.youtube.weight, 0.0);
    assert!((score.coverage - 0.40 * 0.45).abs() < 1e-12);
}

#[test]
fn missing_youtube_is_not_zero_reach() {
    let mut without = full_inputs();
    without.youtube_views = None;
    without.youtube_subscribers = None;
    let mut zero = full_inputs();
    zero.youtube_views = Some(0);
    zero.youtube_subscribers = Some(0);
    let without = authority_score(&without).unwrap();
    let zero = authority_score(&zero).unwrap();
    assert!(without.final_score > zero.final_score);
    assert_eq!(without.sub_scores.youtube.weight, 0.0);
    let weights = without.sub_scores;
    let total = weights.quality.weight + weights.social.weight + weights.engagement.weight;
    assert!((total - 1.0).abs() < 1e-12);
}

#[test]
fn nothing_known_gives_no_score() {
    assert_eq!(authority_score(&AuthorityInputs::default()), None);
}

#[test]
fn details_carry_inputs_and_sub_scores() {
    let inputs = full_inputs();
    let score = authority_score(&inputs).unwrap();
    let at = chrono::DateTime::parse_from_rfc3339("2026-01-02T03:04:05Z")
        .unwrap()
        .to_utc();
    let details = score.details("p1", &inputs, at);
    assert_eq!(details.final_score, score.final_score);
    assert!((details.sub_scores.weighted_total() - details.final_score).abs() < 1e-9);
    assert_eq!(details.inputs, inputs);
}

fn optional<T: std::fmt::Debug + Clone>(
    strategy: impl Strategy<Value = T>,
) -> impl Strategy<Value = Option<T>> {
    prop::option::weighted(0.7, strategy)
}

prop_compose! {
    fn any_inputs()(
        guest in optional(any::<bool>()),
        interval in optional(0.0f64..400.0),
        length in optional(0.0f64..10_000.0),
        thumbs in optional(any::<bool>()),
        episodes in optional(0u64..5_000),
        age in optional(0u64..10_000),
        notes in optional(0.0f64..1.0),
        feed_links in optional(0u64..30),
        site_links in optional(0u64..30),
        followers in optional(0u64..100_000_000),
        views in optional(0u64..10_000_000_000),
        subscribers in optional(0u64..100_000_000),
        reviews in optional(0u64..1_000_000),
        rating in optional(1.0f64..5.0),
        chart in optional(1u32..400),
        plays in optional(0u64..100_000_000),
        castbox_subscribers in optional(0u64..10_000_000),
    ) -> AuthorityInputs {
        AuthorityInputs {
            guest_acceptance: guest, posting_interval_days: interval,
            average_episode_length_seconds: length, has_thumbnails: thumbs,
            episode_count: episodes, age_days: age, show_notes_quality: notes,
            feed_social_links: feed_links, website_links: site_links, follower_count: followers,
            youtube_views: views, youtube_subscribers: subscribers, review_count: reviews,
            rating, best_chart_position: chart, castbox_plays: plays,
            castbox_subscribers,
        }
    }
}

/// The input improved by `step` (in its "better" direction), if it is known.
fn improved(inputs: &AuthorityInputs, which: usize, step: u64) -> Option<AuthorityInputs> {
    let mut better = inputs.clone();
    let grow = |value: &mut Option<u64>| value.as_mut().map(|v| *v = v.saturating_add(step));
    let fstep = step as f64;
    let changed = match which {
        0 => better.guest_acceptance.as_mut().map(|v| *v = true),
        1 => better
            .posting_interval_days
            .as_mut()
            .map(|v| *v = (*v - fstep).max(0.0)),
        2 => better
            .average_episode_length_seconds
            .as_mut()
            .map(|v| *v += fstep),
        3 => better.has_thumbnails.as_mut().map(|v| *v = true),
        4 => grow(&mut better.episode_count),
        5 => grow(&mut better.age_days),
        6 => better
            .show_notes_quality
            .as_mut()
            .map(|v| *v = (*v + fstep / 100.0).min(1.0)),
        7 => grow(&mut better.feed_social_links),
        8 => grow(&mut better.website_links),
        9 => grow(&mut better.follower_count),
        10 => grow(&mut better.youtube_views),
        11 => grow(&mut better.youtube_subscribers),
        12 => grow(&mut better.review_count),
        13 => better
            .rating
            .as_mut()
            .map(|v| *v = (*v + fstep / 100.0).min(5.0)),
        14 => better
            .best_chart_position
            .as_mut()
            .map(|v| *v = v.saturating_sub(step as u32).max(1)),
        15 => grow(&mut better.castbox_plays),
        _ => grow(&mut better.castbox_subscribers),
    };
    changed.map(|()| better)
}

proptest! {
    #[test]
    fn bounded_and_stable(inputs in any_inputs()) {
        let first = authority_score(&inputs);
        let second = authority_score(&inputs.clone());
        prop_assert_eq!(&first, &second);
        if let Some(score) = first {
            prop_assert!((0.0..=100.0).contains(&score.final_score));
            for part in [score.sub_scores.quality, score.sub_scores.social, score.sub_scores.youtube, score.sub_scores.engagement] {
                prop_assert!((0.0..=100.0).contains(&part.score));
                prop_assert!((0.0..=1.0).contains(&part.weight));
            }
            let weights = score.sub_scores;
            let total = weights.quality.weight + weights.social.weight + weights.youtube.weight + weights.engagement.weight;
            prop_assert!((total - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn monotone_in_each_input(inputs in any_inputs(), which in 0usize..17, step in 1u64..100_000) {
        if let (Some(before), Some(better)) = (authority_score(&inputs), improved(&inputs, which, step)) {
            let after = authority_score(&better).unwrap();
            prop_assert!(after.final_score >= before.final_score - 1e-9,
                "input {} improved by {} lowered the score {} -> {}", which, step, before.final_score, after.final_score);
        }
    }

    #[test]
    fn small_changes_move_the_score_a_little(inputs in any_inputs()) {
        // Stability: past a hundred, one more follower or review never moves the score
        // by more than a point.
        if let Some(before) = authority_score(&inputs) {
            let counts = [(9usize, inputs.follower_count), (12, inputs.review_count)];
            for (which, count) in counts {
                if count.is_some_and(|n| n >= 100)
                    && let Some(better) = improved(&inputs, which, 1)
                {
                    let after = authority_score(&better).unwrap();
                    prop_assert!((after.final_score - before.final_score).abs() <= 1.0);
                }
            }
        }
    }
}
