//! Chart snapshot files: one chart (type, country, category) on one date (or hour),
//! `{"chartType", "country", "category", "chartDate", "frequency"?, "capturedAt"?,
//! "positions": [{"position", "appleId"?, "spotifyId"?, "podcastOnChartId"?, "title",
//! "creator"?, "imageUrl"?, "feedUrl"?}]}` — the shape `podlens generate` writes
//! under `charts/<type>/<country>/<category>/<date>.json`.

use std::path::{Path, PathBuf};

use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
use podlens_model::enums::{ChartFrequency, ChartType};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::ScoringError;

/// One ranked show of a snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotEntry {
    pub position: u32,
    /// The show's id on the chart's platform (Apple id or Spotify show id).
    pub podcast_on_chart_id: String,
    pub title: String,
    pub creator: Option<String>,
    pub image_url: Option<String>,
    pub feed_url: Option<String>,
}

/// A parsed snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartSnapshotRecord {
    pub chart_type: ChartType,
    pub frequency: ChartFrequency,
    /// Lowercase ISO 3166-1 alpha-2.
    pub country: String,
    /// The spec's category name (`top podcasts`, `true crime`, …) or a subcategory.
    pub category: String,
    pub chart_date: NaiveDate,
    /// When the snapshot was taken; midnight of `chart_date` for daily and weekly files.
    pub captured_at: NaiveDateTime,
    pub entries: Vec<SnapshotEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawSnapshot {
    chart_type: String,
    country: String,
    category: String,
    chart_date: NaiveDate,
    #[serde(default)]
    frequency: Option<String>,
    #[serde(default)]
    captured_at: Option<NaiveDateTime>,
    positions: Vec<Value>,
}

/// Parses one snapshot file's contents.
pub fn read_snapshot_file(path: &Path, bytes: &[u8]) -> Result<ChartSnapshotRecord, ScoringError> {
    let fail = |message: String| ScoringError::Chart {
        path: path.to_path_buf(),
        message,
    };
    let raw: RawSnapshot =
        serde_json::from_slice(bytes).map_err(|error| fail(error.to_string()))?;
    let chart_type = ChartType::parse(&raw.chart_type.to_ascii_lowercase())
        .ok_or_else(|| fail(format!("unknown chart type {:?}", raw.chart_type)))?;
    let frequency = match raw.frequency.as_deref() {
        None => ChartFrequency::Daily,
        Some(text) => ChartFrequency::parse(&text.to_ascii_lowercase())
            .ok_or_else(|| fail(format!("unknown frequency {text:?}")))?,
    };
    let country = raw.country.trim().to_ascii_lowercase();
    if country.len() != 2 || !country.chars().all(|c| c.is_ascii_alphabetic()) {
        return Err(fail(format!(
            "country {:?} is not a two-letter code",
            raw.country
        )));
    }
    let category = raw.category.trim().to_lowercase();
    if category.is_empty() {
        return Err(fail("empty category".into()));
    }
    let mut entries = Vec::with_capacity(raw.positions.len());
    for position in &raw.positions {
        entries.push(read_entry(position, chart_type).map_err(fail)?);
    }
    entries.sort_by_key(|entry| entry.position);
    Ok(ChartSnapshotRecord {
        chart_type,
        frequency,
        country,
        category,
        chart_date: raw.chart_date,
        captured_at: raw
            .captured_at
            .unwrap_or_else(|| raw.chart_date.and_time(NaiveTime::MIN)),
        entries,
    })
}

fn read_entry(value: &Value, chart_type: ChartType) -> Result<SnapshotEntry, String> {
    let position = value
        .get("position")
        .and_then(Value::as_u64)
        .and_then(|p| u32::try_from(p).ok())
        .filter(|&p| p > 0)
        .ok_or("a position without a positive \"position\"")?;
    let platform_field = match chart_type {
        ChartType::Apple => "appleId",
        ChartType::Spotify => "spotifyId",
    };
    let id = [platform_field, "podcastOnChartId"]
        .iter()
        .find_map(|field| match value.get(*field) {
            Some(Value::String(text)) if !text.is_empty() => Some(text.clone()),
            Some(Value::Number(number)) => Some(number.to_string()),
            _ => None,
        })
        .ok_or_else(|| format!("position {position} has no {platform_field}"))?;
    let text = |field: &str| value.get(field).and_then(Value::as_str).map(str::to_owned);
    Ok(SnapshotEntry {
        position,
        podcast_on_chart_id: id,
        title: text("title").unwrap_or_default(),
        creator: text("creator"),
        image_url: text("imageUrl"),
        feed_url: text("feedUrl"),
    })
}

/// Reads every `*.json` under `dir` (recursively) as a snapshot, in path order.
pub fn read_snapshot_dir(dir: &Path) -> Result<Vec<ChartSnapshotRecord>, ScoringError> {
    let mut files = Vec::new();
    collect_json(dir, &mut files)?;
    files.sort();
    files
        .iter()
        .map(|path| {
            let bytes = std::fs::read(path).map_err(|error| ScoringError::io(path, error))?;
            read_snapshot_file(path, &bytes)
        })
        .collect()
}

fn collect_json(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), ScoringError> {
    let entries = std::fs::read_dir(dir).map_err(|error| ScoringError::io(dir, error))?;
    for entry in entries {
        let path = entry.map_err(|error| ScoringError::io(dir, error))?.path();
        if path.is_dir() {
            collect_json(&path, files)?;
        } else if path.extension().is_some_and(|ext| ext == "json") {
            files.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_generator_shape_and_rejects_bad_files() {
        let bytes = br#"{"chartType":"apple","country":"US","category":"True Crime","chartDate":"2026-01-05",
            "positions":[{"position":2,"appleId":222,"title":"B","creator":"b","feedUrl":"f"},
                         {"position":1,"appleId":111,"title":"A","creator":"a","feedUrl":"f"}]}"#;
        let snapshot = read_snapshot_file(Path::new("x.json"), bytes).unwrap();
        assert_eq!(snapshot.country, "us");
        assert_eq!(snapshot.category, "true crime");
        assert_eq!(snapshot.frequency, ChartFrequency::Daily);
        assert_eq!(snapshot.entries[0].podcast_on_chart_id, "111");
        assert_eq!(snapshot.entries[1].position, 2);
        for bad in [
            &br#"{"chartType":"deezer","country":"us","category":"x","chartDate":"2026-01-05","positions":[]}"#[..],
            br#"{"chartType":"apple","country":"usa","category":"x","chartDate":"2026-01-05","positions":[]}"#,
            br#"{"chartType":"apple","country":"us","category":"x","chartDate":"2026-01-05","positions":[{"position":1,"title":"no id"}]}"#,
            b"not json",
        ] {
            assert!(read_snapshot_file(Path::new("bad.json"), bad).is_err());
        }
    }
}
