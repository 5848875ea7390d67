//! Previous position, change, movement, days in chart and streaks, per series.

use std::collections::{BTreeMap, HashMap};

use chrono::{NaiveDate, NaiveDateTime, TimeDelta};
use podlens_model::enums::{ChartFrequency, ChartMovement, ChartType};
use serde::Serialize;

use super::ChartSnapshotRecord;

/// One chart series: snapshots of the same chart at one frequency.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartKey {
    pub chart_type: ChartType,
    pub frequency: ChartFrequency,
    pub country: String,
    pub category: String,
}

/// One position of one snapshot with its movement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartRow {
    #[serde(flatten)]
    pub key: ChartKey,
    pub chart_date: NaiveDate,
    pub captured_at: NaiveDateTime,
    pub position: u32,
    pub podcast_on_chart_id: String,
    pub title: String,
    pub creator: Option<String>,
    pub image_url: Option<String>,
    pub feed_url: Option<String>,
    /// The position in the series' previous snapshot, when the show was on it.
    pub previous_position: Option<u32>,
    /// `previous − current`: positive when the show climbed.
    pub position_change: Option<i32>,
    pub movement: ChartMovement,
    /// Distinct dates so far (this one included) on which the show was on this chart.
    pub days_in_chart: u32,
    /// Consecutive snapshots so far (this one included) with the show on the chart.
    pub streak: u32,
}

/// The spec's change status for a movement: up, down, new, same (or unknown).
pub fn change_status(movement: ChartMovement) -> &'static str {
    match movement {
        ChartMovement::Up => "up",
        ChartMovement::Down => "down",
        ChartMovement::Entered => "new",
        ChartMovement::Unchanged => "same",
        ChartMovement::Unknown => "unknown",
    }
}

/// The longest gap between two snapshots of a series that still makes the
/// earlier one "the previous snapshot": one period, with half a period of slack.
fn previous_window(frequency: ChartFrequency) -> TimeDelta {
    match frequency {
        ChartFrequency::Hourly => TimeDelta::minutes(90),
        ChartFrequency::Daily => TimeDelta::hours(36),
        ChartFrequency::Weekly => TimeDelta::days(10),
    }
}

#[derive(Debug, Clone, Copy)]
struct ShowState {
    snapshot: usize,
    position: u32,
    date: NaiveDate,
    days: u32,
    streak: u32,
}

/// Rows of every snapshot, series by series in key order, snapshots in time order.
/// Two snapshots of one series at the same time: the later in `snapshots` wins.
pub fn compute_movements(snapshots: &[ChartSnapshotRecord]) -> Vec<ChartRow> {
    let mut series: BTreeMap<ChartKey, BTreeMap<NaiveDateTime, &ChartSnapshotRecord>> =
        BTreeMap::new();
    for snapshot in snapshots {
        let key = ChartKey {
            chart_type: snapshot.chart_type,
            frequency: snapshot.frequency,
            country: snapshot.country.clone(),
            category: snapshot.category.clone(),
        };
        series
            .entry(key)
            .or_default()
            .insert(snapshot.captured_at, snapshot);
    }
    let mut rows = Vec::new();
    for (key, by_time) in series {
        let window = previous_window(key.frequency);
        let mut shows: HashMap<&str, ShowState> = HashMap::new();
        let mut previous_time: Option<NaiveDateTime> = None;
        for (index, (captured_at, snapshot)) in by_time.iter().enumerate() {
            let has_previous = previous_time.is_some_and(|time| *captured_at - time <= window);
            for entry in &snapshot.entries {
                let known = shows.get(entry.podcast_on_chart_id.as_str()).copied();
                let on_previous =
                    has_previous && known.is_some_and(|state| state.snapshot + 1 == index);
                let previous_position = if on_previous {
                    known.map(|state| state.position)
                } else {
                    None
                };
                let movement = match previous_position {
                    _ if !has_previous => ChartMovement::Unknown,
                    None => ChartMovement::Entered,
                    Some(previous) if previous > entry.position => ChartMovement::Up,
                    Some(previous) if previous < entry.position => ChartMovement::Down,
                    Some(_) => ChartMovement::Unchanged,
                };
                let days = match known {
                    Some(state) if state.date == snapshot.chart_date => state.days,
                    Some(state) => state.days + 1,
                    None => 1,
                };
                let streak = match known {
                    Some(state) if on_previous => state.streak + 1,
                    _ => 1,
                };
                shows.insert(
                    &entry.podcast_on_chart_id,
                    ShowState {
                        snapshot: index,
                        position: entry.position,
                        date: snapshot.chart_date,
                        days,
                        streak,
                    },
                );
                rows.push(ChartRow {
                    key: key.clone(),
                    chart_date: snapshot.chart_date,
                    captured_at: *captured_at,
                    position: entry.position,
                    podcast_on_chart_id: entry.podcast_on_chart_id.clone(),
                    title: entry.title.clone(),
                    creator: entry.creator.clone(),
                    image_url: entry.image_url.clone(),
                    feed_url: entry.feed_url.clone(),
                    previous_position,
                    position_change: previous_position
                        .map(|previous| i64::from(previous) - i64::from(entry.position))
                        .and_then(|change| i32::try_from(change).ok()),
                    movement,
                    days_in_chart: days,
                    streak,
                });
            }
            previous_time = Some(*captured_at);
        }
    }
    rows
}

#[cfg(test)]
mod tests;
