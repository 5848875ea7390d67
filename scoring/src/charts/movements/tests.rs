use chrono::NaiveTime;

use super::*;
use crate::charts::SnapshotEntry;

fn snapshot(frequency: ChartFrequency, at: &str, shows: &[&str]) -> ChartSnapshotRecord {
    let captured_at = NaiveDateTime::parse_from_str(at, "%Y-%m-%d %H:%M").unwrap_or_else(|_| {
        NaiveDate::parse_from_str(at, "%Y-%m-%d")
            .unwrap()
            .and_time(NaiveTime::MIN)
    });
    ChartSnapshotRecord {
        chart_type: ChartType::Apple,
        frequency,
        country: "us".into(),
        category: "comedy".into(),
        chart_date: captured_at.date(),
        captured_at,
        entries: shows
            .iter()
            .enumerate()
            .map(|(slot, id)| SnapshotEntry {
                position: slot as u32 + 1,
                podcast_on_chart_id: (*id).into(),
                title: id.to_uppercase(),
                creator: None,
                image_url: None,
                feed_url: None,
            })
            .collect(),
    }
}

fn row<'a>(rows: &'a [ChartRow], date: &str, id: &str) -> &'a ChartRow {
    let date = NaiveDate::parse_from_str(date, "%Y-%m-%d").unwrap();
    rows.iter()
        .find(|row| row.chart_date == date && row.podcast_on_chart_id == id)
        .unwrap()
}

#[test]
fn daily_sequence_with_entries_exits_and_a_gap() {
    let daily = ChartFrequency::Daily;
    let rows = compute_movements(&[
        snapshot(daily, "2026-01-01", &["a", "b", "c"]),
        snapshot(daily, "2026-01-02", &["b", "a", "d"]),
        snapshot(daily, "2026-01-03", &["b", "a", "c"]),
        // 2026-01-04 missing: the next day has no previous snapshot.
        snapshot(daily, "2026-01-05", &["b", "c", "a"]),
        snapshot(daily, "2026-01-06", &["c", "b", "a"]),
    ]);
    assert_eq!(rows.len(), 15);
    let first = row(&rows, "2026-01-01", "a");
    assert_eq!(
        (
            first.movement,
            first.previous_position,
            first.days_in_chart,
            first.streak
        ),
        (ChartMovement::Unknown, None, 1, 1)
    );
    let a2 = row(&rows, "2026-01-02", "a");
    assert_eq!(
        (a2.movement, a2.previous_position, a2.position_change),
        (ChartMovement::Down, Some(1), Some(-1))
    );
    let b2 = row(&rows, "2026-01-02", "b");
    assert_eq!(
        (b2.movement, b2.position_change, b2.streak),
        (ChartMovement::Up, Some(1), 2)
    );
    assert_eq!(
        row(&rows, "2026-01-02", "d").movement,
        ChartMovement::Entered
    );
    let c3 = row(&rows, "2026-01-03", "c");
    assert_eq!(
        (c3.movement, c3.days_in_chart, c3.streak),
        (ChartMovement::Entered, 2, 1)
    );
    assert_eq!(
        row(&rows, "2026-01-03", "a").movement,
        ChartMovement::Unchanged
    );
    let b5 = row(&rows, "2026-01-05", "b");
    assert_eq!(
        (
            b5.movement,
            b5.previous_position,
            b5.days_in_chart,
            b5.streak
        ),
        (ChartMovement::Unknown, None, 4, 1)
    );
    let c6 = row(&rows, "2026-01-06", "c");
    assert_eq!(
        (c6.movement, c6.position_change, c6.days_in_chart, c6.streak),
        (ChartMovement::Up, Some(1), 4, 2)
    );
    assert_eq!(change_status(c6.movement), "up");
    assert_eq!(change_status(ChartMovement::Entered), "new");
    assert_eq!(change_status(ChartMovement::Unchanged), "same");
}

#[test]
fn frequencies_are_separate_series_and_hours_share_a_day() {
    let rows = compute_movements(&[
        snapshot(ChartFrequency::Hourly, "2026-01-01 10:00", &["a", "b"]),
        snapshot(ChartFrequency::Hourly, "2026-01-01 11:00", &["b", "a"]),
        snapshot(ChartFrequency::Daily, "2026-01-01", &["a"]),
        snapshot(ChartFrequency::Daily, "2026-01-02", &["a"]),
    ]);
    let hourly: Vec<&ChartRow> = rows
        .iter()
        .filter(|r| r.key.frequency == ChartFrequency::Hourly)
        .collect();
    let last_a = hourly
        .iter()
        .rev()
        .find(|r| r.podcast_on_chart_id == "a")
        .unwrap();
    assert_eq!(
        (last_a.movement, last_a.days_in_chart, last_a.streak),
        (ChartMovement::Down, 1, 2)
    );
    let daily: Vec<&ChartRow> = rows
        .iter()
        .filter(|r| r.key.frequency == ChartFrequency::Daily)
        .collect();
    assert_eq!(daily.len(), 2);
    assert_eq!(daily[1].movement, ChartMovement::Unchanged);
    assert_eq!(daily[1].days_in_chart, 2);
}
