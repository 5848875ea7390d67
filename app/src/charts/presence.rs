//! A catalog podcast's positions on every chart on one day, and its presence on every
//! chart it is or was on: now, dropped in the last 30 days, or older, with weekly
//! best-rank cells.

use std::collections::{BTreeMap, HashMap};

use chrono::{Duration, NaiveDate};
use podlens_data::ChartPositionRow;
use podlens_data::snapshot::ChartKey;
use podlens_model::catalog::PodcastRecord;
use podlens_model::entities::{ChartAppearance, ChartOptions, PodcastChartsResponse};
use podlens_model::enums::{ChartDayStatus, ChartType};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ChartQuery, all_time, average, parse_chart_type, parse_date};
use crate::catalog::CatalogReader;
use crate::error::AppResult;

/// Weekly cells of a chart presence window.
const PRESENCE_WEEKS: i64 = 14;
/// A chart left within this many days counts as recently dropped.
const DROPPED_DAYS: i64 = 30;

/// Which of a podcast's chart positions to list.
#[derive(Debug, Clone, Default)]
pub struct PodcastChartFilter {
    pub chart_type: Option<ChartType>,
    pub country: Option<String>,
    pub category: Option<String>,
    /// The day; default the latest day the podcast charted (on the filtered charts).
    pub date: Option<NaiveDate>,
}

/// A podcast's positions on one day, best first, at most `limit` of them, with the
/// number of charts it was on that day.
pub fn podcast_chart_positions(
    catalog: &CatalogReader,
    record: &PodcastRecord,
    filter: &PodcastChartFilter,
    limit: usize,
) -> AppResult<(Vec<ChartAppearance>, u32)> {
    let (start, end) = all_time();
    let rows = catalog.snapshot()?.chart_positions_of(
        Some(record.podcast_id),
        None,
        filter.chart_type.map(ChartType::as_str),
        start,
        end,
    )?;
    let country = filter.country.as_deref().map(str::to_lowercase);
    let category = filter.category.as_deref().map(str::to_lowercase);
    let matching: Vec<&ChartPositionRow> = rows
        .iter()
        .filter(|row| country.as_ref().is_none_or(|c| &row.country == c))
        .filter(|row| category.as_ref().is_none_or(|c| &row.category == c))
        .collect();
    let day = filter
        .date
        .or_else(|| matching.iter().map(|row| row.chart_date).max());
    let mut on_day: Vec<&ChartPositionRow> = matching
        .into_iter()
        .filter(|row| Some(row.chart_date) == day)
        .collect();
    on_day.sort_by_key(|row| {
        (
            row.position,
            row.chart_type.clone(),
            row.country.clone(),
            row.category.clone(),
        )
    });
    let positions = on_day
        .iter()
        .take(limit)
        .filter_map(|row| {
            Some(ChartAppearance {
                chart_date: row.chart_date,
                chart_type: ChartType::parse(&row.chart_type)?,
                country: row.country.clone(),
                category: row.category.clone(),
                position: row.position,
            })
        })
        .collect();
    Ok((positions, on_day.len() as u32))
}

/// A podcast's positions on every chart on one day (default: the latest day it
/// charted), optionally of one chart type, category or country.
pub fn podcast_charts(
    catalog: &CatalogReader,
    id_or_slug: &str,
    query: &ChartQuery,
) -> AppResult<PodcastChartsResponse> {
    let chart_type = query
        .chart_type
        .as_deref()
        .map(parse_chart_type)
        .transpose()?;
    let date = parse_date(query.date.as_deref(), "date")?;
    let limit = query.limit.unwrap_or(100).clamp(1, 1000);
    let positions_limit = query.positions_limit()?;
    let record = catalog.podcast(id_or_slug)?;
    let filter = PodcastChartFilter {
        chart_type,
        country: query.country.clone(),
        category: query.category.clone(),
        date,
    };
    let (positions, total_charts) = podcast_chart_positions(catalog, &record, &filter, limit)?;
    Ok(PodcastChartsResponse {
        podcast: catalog.podcast_summary(&record)?,
        options: ChartOptions {
            chart_type,
            category: query.category.clone(),
            country: query.country.clone(),
            positions_limit,
            compare: None,
            limit: query.limit.map(|l| l as u32),
            date,
        },
        total_charts,
        positions,
    })
}

/// The query of a podcast's chart presence.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PresenceQuery {
    end_date: Option<String>,
}

/// One chart's presence entry and whether it is on now (with its position).
fn chart_presence(
    key: &ChartKey,
    dates: &[NaiveDate],
    mine: &[&ChartPositionRow],
    weeks: &[(NaiveDate, NaiveDate)],
    end: NaiveDate,
) -> Option<(Value, Option<u32>)> {
    let captures: Vec<NaiveDate> = dates.iter().copied().filter(|d| *d <= end).collect();
    let latest_capture = *captures.last()?;
    let seen: Vec<&&ChartPositionRow> = mine.iter().filter(|row| row.chart_date <= end).collect();
    let last_seen = seen.last()?;
    let first_seen = seen.first()?;
    let on_now = last_seen.chart_date == latest_capture;
    let state = if on_now {
        "on_now"
    } else if (end - last_seen.chart_date).num_days() <= DROPPED_DAYS {
        "dropped_30d"
    } else {
        "older"
    };
    let previous_capture = captures.iter().rev().nth(1).copied();
    let previous = previous_capture
        .and_then(|day| seen.iter().find(|row| row.chart_date == day))
        .map(|row| json!({"date": row.chart_date, "position": row.position}));
    let (change_kind, change) = match (on_now, previous_capture, &previous) {
        (false, _, _) => ("off", None),
        (true, None, _) => ("unknown", None),
        (true, Some(_), Some(before)) => {
            let before = before["position"].as_i64().unwrap_or_default();
            let delta = before - i64::from(last_seen.position);
            (if delta == 0 { "unchanged" } else { "moved" }, Some(delta))
        }
        (true, Some(day), None) => {
            let earlier = seen.iter().any(|row| row.chart_date < day);
            (if earlier { "back" } else { "new" }, None)
        }
    };
    let window_start = weeks.first().map_or(end, |(start, _)| *start);
    let in_window: Vec<&&&ChartPositionRow> = seen
        .iter()
        .filter(|row| row.chart_date >= window_start)
        .collect();
    let cells: Vec<Value> = weeks
        .iter()
        .map(|(start, stop)| {
            let best = in_window
                .iter()
                .filter(|row| row.chart_date >= *start && row.chart_date <= *stop)
                .map(|row| row.position)
                .min();
            let captured = captures.iter().any(|d| d >= start && d <= stop);
            let status = match (best, captured) {
                (Some(_), _) => ChartDayStatus::Observed,
                (None, true) => ChartDayStatus::OffChart,
                (None, false) => ChartDayStatus::NoChart,
            };
            json!({"best": best, "status": status})
        })
        .collect();
    let weeks_on = cells.iter().filter(|c| c["status"] == "observed").count();
    let weeks_captured = cells.iter().filter(|c| c["status"] != "no_chart").count();
    let positions: Vec<u32> = in_window.iter().map(|row| row.position).collect();
    let best_all = seen
        .iter()
        .min_by_key(|row| (row.position, row.chart_date))?;
    let value = json!({
        "chartType": key.chart_type,
        "country": key.country,
        "category": key.category,
        "state": state,
        "latestCaptureDate": latest_capture,
        "lastSeen": {"date": last_seen.chart_date, "position": last_seen.position},
        "previous": previous,
        "changeKind": change_kind,
        "change": change,
        "weeks": cells,
        "weeksOn": weeks_on,
        "weeksCaptured": weeks_captured,
        "capturesInWindow": captures.iter().filter(|d| **d >= window_start).count(),
        "daysOnChartInWindow": positions.len(),
        "bestInWindow": positions.iter().min(),
        "averageInWindow": average(&positions),
        "bestAllTime": {"date": best_all.chart_date, "position": best_all.position},
        "firstSeenDate": first_seen.chart_date,
    });
    Some((value, on_now.then_some(last_seen.position)))
}

/// Every chart a podcast is or was on: now, dropped in the last 30 days, or older,
/// with 14 weekly best-rank cells ending on `endDate` (default: the latest chart day).
pub fn podcast_presence(
    catalog: &CatalogReader,
    id_or_slug: &str,
    query: &PresenceQuery,
) -> AppResult<Value> {
    let end_date = parse_date(query.end_date.as_deref(), "endDate")?;
    let record = catalog.podcast(id_or_slug)?;
    let snapshot = catalog.snapshot()?;
    let (start, last) = all_time();
    let rows = snapshot.chart_positions_of(Some(record.podcast_id), None, None, start, last)?;
    let mut by_chart: BTreeMap<ChartKey, Vec<&ChartPositionRow>> = BTreeMap::new();
    for row in &rows {
        let key = ChartKey {
            chart_type: row.chart_type.clone(),
            country: row.country.clone(),
            category: row.category.clone(),
        };
        by_chart.entry(key).or_default().push(row);
    }
    let mut chart_dates = BTreeMap::new();
    for key in by_chart.keys() {
        chart_dates.insert(key.clone(), snapshot.chart_dates(key)?);
    }
    let latest_chart_date = chart_dates
        .values()
        .filter_map(|dates| dates.last())
        .max()
        .copied();
    let end = end_date
        .or(latest_chart_date)
        .unwrap_or_else(|| chrono::Utc::now().date_naive());
    let weeks: Vec<(NaiveDate, NaiveDate)> = (0..PRESENCE_WEEKS)
        .rev()
        .map(|back| {
            let stop = end - Duration::days(7 * back);
            (stop - Duration::days(6), stop)
        })
        .collect();
    let mut charts = Vec::new();
    let mut on_now: Vec<(&ChartKey, u32)> = Vec::new();
    for (key, mine) in &by_chart {
        let dates = chart_dates.get(key).map(Vec::as_slice).unwrap_or(&[]);
        if let Some((value, now)) = chart_presence(key, dates, mine, &weeks, end) {
            if let Some(position) = now {
                on_now.push((key, position));
            }
            charts.push(value);
        }
    }
    let count_state = |name: &str| charts.iter().filter(|c| c["state"] == name).count();
    let mut countries: HashMap<&str, usize> = HashMap::new();
    for (key, _) in &on_now {
        *countries.entry(key.country.as_str()).or_default() += 1;
    }
    let home_country = countries
        .iter()
        .max_by_key(|(country, count)| (**count, std::cmp::Reverse(**country)))
        .map(|(country, _)| (*country).to_owned());
    let summary = json!({
        "onNow": on_now.len(),
        "markets": countries.len(),
        "onNowByPlatform": {
            "apple": on_now.iter().filter(|(key, _)| key.chart_type == "apple").count(),
            "spotify": on_now.iter().filter(|(key, _)| key.chart_type == "spotify").count(),
        },
        "droppedOff30d": count_state("dropped_30d"),
        "older": count_state("older"),
        "top10Now": on_now.iter().filter(|(_, position)| *position <= 10).count(),
    });
    Ok(json!({
        "presence": {
            "window": {
                "startDate": weeks.first().map(|(start, _)| *start),
                "endDate": end,
                "weeks": weeks.iter().map(|(start, stop)| json!({"startDate": start, "endDate": stop, "isPartial": false})).collect::<Vec<_>>(),
            },
            "latestChartDate": latest_chart_date,
            "homeCountry": home_country,
            "summary": summary,
            "charts": charts,
        }
    }))
}
