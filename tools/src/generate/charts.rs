//! Apple and Spotify chart snapshots: for every chart type, country, category and day,
//! the ranked shows. A show's daily score is its popularity, a fixed per-country
//! affinity and a slowly drifting (AR(1)) daily term, so positions move a little each
//! day, shows climb and fall, new shows enter once they exist and stale ones sink.

use std::io::Write;
use std::path::Path;

use chrono::{DateTime, Duration, Utc};
use rayon::prelude::*;
use serde::Serialize;

use super::rng::Rng;
use super::{Context, GenerateError, STREAM_CHARTS, io_error};

/// What the charts need to know about a show.
#[derive(Debug, Clone)]
pub struct Entrant {
    pub title: String,
    pub author: String,
    pub feed_url: String,
    pub apple_id: Option<u64>,
    pub spotify_id: Option<String>,
    pub category_slug: &'static str,
    pub language: &'static str,
    pub popularity: f64,
    pub first_published: DateTime<Utc>,
    pub last_published: DateTime<Utc>,
}

/// Chart countries with the languages their charts draw from.
pub const COUNTRIES: &[(&str, &[&str])] = &[
    ("us", &["en", "es"]),
    ("gb", &["en"]),
    ("ca", &["en", "fr"]),
    ("au", &["en"]),
    ("de", &["de"]),
    ("fr", &["fr"]),
    ("br", &["pt"]),
    ("jp", &["ja"]),
];

/// Chart categories: (spec name, directory slug, category slug it draws from or `None`
/// for every category).
pub const CATEGORIES: &[(&str, &str, Option<&str>)] = &[
    ("top podcasts", "top-podcasts", None),
    ("comedy", "comedy", Some("comedy")),
    ("news", "news", Some("news")),
    ("true crime", "true-crime", Some("true-crime")),
    ("business", "business", Some("business")),
    (
        "society & culture",
        "society-and-culture",
        Some("society-and-culture"),
    ),
    ("sports", "sports", Some("sports")),
    ("technology", "technology", Some("technology")),
    (
        "health & fitness",
        "health-and-fitness",
        Some("health-and-fitness"),
    ),
];

pub const CHART_TYPES: &[&str] = &["apple", "spotify"];

/// Positions a chart holds: Apple ranks 200 overall and 100 per category, Spotify 200
/// overall and 50 per category.
fn depth(chart_type: &str, overall: bool) -> usize {
    match (chart_type, overall) {
        (_, true) => 200,
        ("apple", false) => 100,
        _ => 50,
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Snapshot<'a> {
    chart_type: &'a str,
    country: &'a str,
    category: &'a str,
    chart_date: String,
    positions: Vec<Position<'a>>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Position<'a> {
    position: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    apple_id: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spotify_id: Option<&'a str>,
    title: &'a str,
    creator: &'a str,
    feed_url: &'a str,
}

/// Writes every snapshot under `out/charts/`; returns how many files were written.
pub fn write_all(
    context: &Context,
    out: &Path,
    entrants: &[Entrant],
    days: u32,
) -> Result<u64, GenerateError> {
    let charts: Vec<(usize, usize, usize)> = (0..CHART_TYPES.len())
        .flat_map(|t| {
            (0..COUNTRIES.len()).flat_map(move |c| (0..CATEGORIES.len()).map(move |k| (t, c, k)))
        })
        .collect();
    let written: Result<Vec<u64>, GenerateError> = charts
        .par_iter()
        .map(|&(t, c, k)| write_chart(context, out, entrants, days, t, c, k))
        .collect();
    Ok(written?.into_iter().sum())
}

fn write_chart(
    context: &Context,
    out: &Path,
    entrants: &[Entrant],
    days: u32,
    type_index: usize,
    country_index: usize,
    category_index: usize,
) -> Result<u64, GenerateError> {
    let chart_type = CHART_TYPES[type_index];
    let (country, languages) = COUNTRIES[country_index];
    let (category_name, category_dir, category_filter) = CATEGORIES[category_index];
    let mut rng = Rng::for_stream(&[
        context.seed,
        STREAM_CHARTS,
        type_index as u64,
        country_index as u64,
        category_index as u64,
    ]);
    let eligible: Vec<&Entrant> = entrants
        .iter()
        .filter(|entrant| match chart_type {
            "apple" => entrant.apple_id.is_some(),
            _ => entrant.spotify_id.is_some(),
        })
        .filter(|entrant| category_filter.is_none_or(|slug| entrant.category_slug == slug))
        .filter(|entrant| languages.contains(&entrant.language) || entrant.language == "en")
        .collect();
    // Fixed per-show affinity: shows in the country's languages rank higher; English
    // shows also chart abroad, lower.
    let affinity: Vec<f64> = eligible
        .iter()
        .map(|entrant| {
            let home = if languages.contains(&entrant.language) {
                0.0
            } else {
                -2.0
            };
            home + 0.5 * rng.normal()
        })
        .collect();
    let persistence: f64 = 0.9;
    let daily_sigma = 0.35 * (1.0 - persistence * persistence).sqrt();
    let mut drift: Vec<f64> = eligible.iter().map(|_| 0.35 * rng.normal()).collect();
    let directory = out
        .join("charts")
        .join(chart_type)
        .join(country)
        .join(category_dir);
    std::fs::create_dir_all(&directory).map_err(|source| io_error(&directory, source))?;
    let capacity = depth(chart_type, category_filter.is_none());
    let mut written = 0;
    for day in 0..days {
        let chart_day = context.reference - Duration::days(i64::from(days - 1 - day));
        let mut scored: Vec<(f64, usize)> = Vec::with_capacity(eligible.len());
        for (slot, entrant) in eligible.iter().enumerate() {
            drift[slot] = persistence * drift[slot] + daily_sigma * rng.normal();
            if entrant.first_published > chart_day {
                continue;
            }
            let idle_days = (chart_day - entrant.last_published).num_days().max(0) as f64;
            let staleness = if idle_days > 45.0 {
                1.5 + idle_days / 365.0
            } else {
                0.0
            };
            let score = entrant.popularity.ln() + affinity[slot] + drift[slot] - staleness;
            scored.push((score, slot));
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.truncate(capacity);
        if scored.is_empty() {
            continue;
        }
        let snapshot = Snapshot {
            chart_type,
            country,
            category: category_name,
            chart_date: chart_day.format("%Y-%m-%d").to_string(),
            positions: scored
                .iter()
                .enumerate()
                .map(|(rank, (_, slot))| {
                    let entrant = eligible[*slot];
                    Position {
                        position: rank + 1,
                        apple_id: if chart_type == "apple" {
                            entrant.apple_id
                        } else {
                            None
                        },
                        spotify_id: if chart_type == "spotify" {
                            entrant.spotify_id.as_deref()
                        } else {
                            None
                        },
                        title: &entrant.title,
                        creator: &entrant.author,
                        feed_url: &entrant.feed_url,
                    }
                })
                .collect(),
        };
        let path = directory.join(format!("{}.json", snapshot.chart_date));
        let mut bytes = serde_json::to_vec(&snapshot).map_err(|source| GenerateError::Json {
            path: path.clone(),
            source,
        })?;
        let _ = bytes.write_all(b"\n");
        std::fs::write(&path, bytes).map_err(|source| io_error(&path, source))?;
        written += 1;
    }
    Ok(written)
}
