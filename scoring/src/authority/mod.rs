//! The authority score: 0–100 from four weighted sub-scores — quality, social,
//! YouTube and engagement — each the weighted mean of its inputs mapped through the
//! published curves of [`curves`]. The tables below are the whole method; they are
//! written out in `docs/authority-score.md` and returned with every score.
//!
//! A missing input is unknown, not zero: it is left out and the weights of the
//! inputs that are known are rescaled to add up to one. A sub-score with no known
//! input gets weight 0 and its weight goes to the others in proportion. So a show
//! without a YouTube channel is scored on what is known about it, and
//! [`AuthorityScore::coverage`] says how much of the method's weight had data.

pub mod curves;
mod from_catalog;

pub use from_catalog::{FULL_SHOW_NOTES_CHARS, feed_inputs};

use chrono::{DateTime, Utc};
use podlens_model::entities::{
    AuthorityInputs, AuthorityScoreDetails, AuthoritySubScores, WeightedScore,
};
use serde::Serialize;

use crate::wilson::rating_wilson_score;

/// The four sub-scores and their published weights (they add up to 1).
pub const SUB_SCORE_WEIGHTS: [(SubScore, f64); 4] = [
    (SubScore::Quality, 0.40),
    (SubScore::Social, 0.25),
    (SubScore::Youtube, 0.15),
    (SubScore::Engagement, 0.20),
];

/// One of the four parts of the score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SubScore {
    Quality,
    Social,
    Youtube,
    Engagement,
}

/// An input, its sub-score, its weight within the sub-score and its curve.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InputRule {
    /// The input's name in `AuthorityInputs` (camelCase, as on the wire).
    pub input: &'static str,
    pub sub_score: SubScore,
    pub weight: f64,
    /// The curve, as written in the documentation.
    pub formula: &'static str,
}

const fn rule(
    input: &'static str,
    sub_score: SubScore,
    weight: f64,
    formula: &'static str,
) -> InputRule {
    InputRule {
        input,
        sub_score,
        weight,
        formula,
    }
}

/// Every input's rule. Within a sub-score the weights add up to 1.
pub const INPUT_RULES: &[InputRule] = &[
    rule(
        "guestAcceptance",
        SubScore::Quality,
        0.10,
        "100 if the show accepts guests, else 0",
    ),
    rule(
        "postingIntervalDays",
        SubScore::Quality,
        0.15,
        "100 up to 7 days, then 100 × 7 / days",
    ),
    rule(
        "averageEpisodeLengthSeconds",
        SubScore::Quality,
        0.10,
        "100 × min(1, seconds / 1800)",
    ),
    rule(
        "hasThumbnails",
        SubScore::Quality,
        0.10,
        "100 if episodes have artwork, else 0",
    ),
    rule(
        "episodeCount",
        SubScore::Quality,
        0.20,
        "100 × min(1, log10(1 + n) / log10(201))",
    ),
    rule(
        "ageDays",
        SubScore::Quality,
        0.15,
        "100 × min(1, days / 1095)",
    ),
    rule(
        "showNotesQuality",
        SubScore::Quality,
        0.20,
        "100 × quality (0 to 1)",
    ),
    rule(
        "feedSocialLinks",
        SubScore::Social,
        0.15,
        "100 × min(1, links / 5)",
    ),
    rule(
        "websiteLinks",
        SubScore::Social,
        0.15,
        "100 × min(1, links / 5)",
    ),
    rule(
        "followerCount",
        SubScore::Social,
        0.70,
        "100 × min(1, log10(1 + n) / log10(1 + 10^6))",
    ),
    rule(
        "youtubeSubscribers",
        SubScore::Youtube,
        0.50,
        "100 × min(1, log10(1 + n) / log10(1 + 10^6))",
    ),
    rule(
        "youtubeViews",
        SubScore::Youtube,
        0.50,
        "100 × min(1, log10(1 + n) / log10(1 + 10^8))",
    ),
    rule(
        "reviewCount",
        SubScore::Engagement,
        0.25,
        "100 × min(1, log10(1 + n) / log10(1 + 10^4))",
    ),
    rule(
        "rating",
        SubScore::Engagement,
        0.25,
        "100 × Wilson 95% lower bound of (rating − 1) / 4 over reviewCount ratings (0 with no ratings); 100 × rating / 5 when the count is unknown",
    ),
    rule(
        "bestChartPosition",
        SubScore::Engagement,
        0.30,
        "100 × (1 − ln(position) / ln(201)), 0 from 201",
    ),
    rule(
        "castboxPlays",
        SubScore::Engagement,
        0.10,
        "100 × min(1, log10(1 + n) / log10(1 + 10^7))",
    ),
    rule(
        "castboxSubscribers",
        SubScore::Engagement,
        0.10,
        "100 × min(1, log10(1 + n) / log10(1 + 10^5))",
    ),
];

/// One input's part in a score.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InputComponent {
    pub input: &'static str,
    pub sub_score: SubScore,
    /// The input through its curve, 0 to 100; `None` when the input is missing.
    pub value: Option<f64>,
    /// Its weight within the sub-score after rescaling over the known inputs.
    pub effective_weight: f64,
}

/// A computed score with everything needed to explain it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthorityScore {
    /// 0 to 100.
    pub final_score: f64,
    pub sub_scores: AuthoritySubScores,
    pub components: Vec<InputComponent>,
    /// Share (0 to 1) of the method's weight that rests on known inputs.
    pub coverage: f64,
}

impl AuthorityScore {
    /// The details the API serves.
    pub fn details(
        &self,
        podcast_id: &str,
        inputs: &AuthorityInputs,
        calculated_at: DateTime<Utc>,
    ) -> AuthorityScoreDetails {
        AuthorityScoreDetails {
            podcast_id: podcast_id.to_owned(),
            calculated_at,
            final_score: self.final_score,
            sub_scores: self.sub_scores,
            inputs: inputs.clone(),
        }
    }
}

/// Each input through its curve; `None` when unknown.
fn input_values(inputs: &AuthorityInputs) -> [Option<f64>; 17] {
    let count = |n: Option<u64>| n.map(|n| n as f64);
    let rating = inputs.rating.filter(|r| r.is_finite()).map(|rating| {
        match (
            inputs.review_count,
            rating_wilson_score(Some(rating), inputs.review_count),
        ) {
            (Some(_), Some(bound)) => 100.0 * bound,
            // No ratings behind the average: nothing to vouch for it.
            (Some(_), None) => 0.0,
            (None, _) => 100.0 * (rating / 5.0).clamp(0.0, 1.0),
        }
    });
    [
        inputs.guest_acceptance.map(curves::flag),
        inputs.posting_interval_days.map(curves::posting_interval),
        inputs
            .average_episode_length_seconds
            .map(|s| curves::linear(s, 1_800.0)),
        inputs.has_thumbnails.map(curves::flag),
        count(inputs.episode_count).map(|n| curves::log_scale(n, 200.0)),
        count(inputs.age_days).map(|d| curves::linear(d, 1_095.0)),
        inputs.show_notes_quality.map(|q| curves::linear(q, 1.0)),
        count(inputs.feed_social_links).map(|n| curves::linear(n, 5.0)),
        count(inputs.website_links).map(|n| curves::linear(n, 5.0)),
        count(inputs.follower_count).map(|n| curves::log_scale(n, 1e6)),
        count(inputs.youtube_subscribers).map(|n| curves::log_scale(n, 1e6)),
        count(inputs.youtube_views).map(|n| curves::log_scale(n, 1e8)),
        count(inputs.review_count).map(|n| curves::log_scale(n, 1e4)),
        rating,
        inputs.best_chart_position.map(curves::chart_position),
        count(inputs.castbox_plays).map(|n| curves::log_scale(n, 1e7)),
        count(inputs.castbox_subscribers).map(|n| curves::log_scale(n, 1e5)),
    ]
}

/// Scores `inputs`; `None` when not a single input is known.
pub fn authority_score(inputs: &AuthorityInputs) -> Option<AuthorityScore> {
    let values = input_values(inputs);
    let mut components = Vec::with_capacity(INPUT_RULES.len());
    let mut sub_values = [(0.0f64, 0.0f64); 4];
    for (rule, value) in INPUT_RULES.iter().zip(values) {
        let slot = sub_index(rule.sub_score);
        if let Some(value) = value {
            sub_values[slot].0 += rule.weight * value.clamp(0.0, 100.0);
            sub_values[slot].1 += rule.weight;
        }
        components.push(InputComponent {
            input: rule.input,
            sub_score: rule.sub_score,
            value,
            effective_weight: 0.0,
        });
    }
    for component in &mut components {
        let known = sub_values[sub_index(component.sub_score)].1;
        if component.value.is_some() && known > 0.0 {
            let rule_weight = INPUT_RULES
                .iter()
                .find(|rule| rule.input == component.input)
                .map_or(0.0, |rule| rule.weight);
            component.effective_weight = rule_weight / known;
        }
    }
    let known_weight: f64 = SUB_SCORE_WEIGHTS
        .iter()
        .filter(|(sub, _)| sub_values[sub_index(*sub)].1 > 0.0)
        .map(|(_, weight)| weight)
        .sum();
    if known_weight <= 0.0 {
        return None;
    }
    let part = |sub: SubScore| {
        let (sum, weight) = sub_values[sub_index(sub)];
        let base = SUB_SCORE_WEIGHTS[sub_index(sub)].1;
        if weight > 0.0 {
            WeightedScore {
                score: (sum / weight).clamp(0.0, 100.0),
                weight: base / known_weight,
            }
        } else {
            WeightedScore {
                score: 0.0,
                weight: 0.0,
            }
        }
    };
    let sub_scores = AuthoritySubScores {
        quality: part(SubScore::Quality),
        social: part(SubScore::Social),
        youtube: part(SubScore::Youtube),
        engagement: part(SubScore::Engagement),
    };
    let coverage: f64 = SUB_SCORE_WEIGHTS
        .iter()
        .map(|(sub, weight)| weight * sub_values[sub_index(*sub)].1)
        .sum();
    Some(AuthorityScore {
        final_score: sub_scores.weighted_total().clamp(0.0, 100.0),
        sub_scores,
        components,
        coverage: coverage.clamp(0.0, 1.0),
    })
}

fn sub_index(sub: SubScore) -> usize {
    match sub {
        SubScore::Quality => 0,
        SubScore::Social => 1,
        SubScore::Youtube => 2,
        SubScore::Engagement => 3,
    }
}

#[cfg(test)]
mod tests;
