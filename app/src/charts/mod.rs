//! Apple and Spotify charts from the imported snapshots: chart types' countries and
//! categories, a chart on a day with its movements against one or seven days
//! earlier, availability, movers and rank history (here), one podcast's appearances
//! and history (`podcast.rs`) and its presence on every chart (`presence.rs`). A chart
//! day is the latest capture of that day.

mod podcast;
mod presence;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chrono::{Datelike, Duration, NaiveDate};
use podlens_data::ChartPositionRow;
use podlens_data::snapshot::ChartKey;
use podlens_model::entities::{
    ChartHeader, ChartHistoryWindow, ChartOptions, ChartPosition, ChartResponse,
    ChartWithPositions, PodcastOnChart, PodcastSummary,
};
use podlens_model::enums::{
    ChartCompare, ChartComparisonStatus, ChartComparisonUnavailableReason, ChartCoverageStatus,
    ChartDayCoverage, ChartDayStatus, ChartMovement, ChartType,
};
use serde::Deserialize;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::catalog::CatalogReader;
use crate::convert;
use crate::error::{AppError, AppResult};

pub use podcast::{appearances, podcast_history};
pub use presence::{
    PodcastChartFilter, PresenceQuery, podcast_chart_positions, podcast_charts, podcast_presence,
};

/// Days of history a chart position carries (`history30d`).
const HISTORY_DAYS: i64 = 30;
/// Movers per list when no limit is given, and the most one call may ask for.
const DEFAULT_MOVERS: usize = 10;
const MAX_MOVERS: usize = 100;
/// Rows of a rank history when none is asked, and the most.
const DEFAULT_HISTORY_ROWS: usize = 50;
const MAX_HISTORY_ROWS: usize = 200;
/// Days of a rank history when none is asked, and the most.
const DEFAULT_HISTORY_DAYS: i64 = 14;
const MAX_HISTORY_DAYS: i64 = 90;

/// The query parameters the chart calls share (each call reads its own).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartQuery {
    chart_type: Option<String>,
    category: Option<String>,
    country: Option<String>,
    date: Option<String>,
    end_date: Option<String>,
    compare: Option<String>,
    positions_limit: Option<f64>,
    limit: Option<usize>,
    days: Option<i64>,
    rows: Option<usize>,
    identity_type: Option<String>,
    podcast_id_or_slug: Option<String>,
    platform_id: Option<String>,
    range: Option<String>,
}

fn parse_chart_type(value: &str) -> AppResult<ChartType> {
    ChartType::parse(value.trim()).ok_or_else(|| {
        AppError::Invalid(format!(
            "chartType must be apple or spotify, got \"{value}\""
        ))
    })
}

/// A chart date: `YYYY-MM-DD` in the years 1 to 9999. chrono reads years out to
/// ±262,143, where counting back a chart's window of days overflows (a panic, answered
/// 500 before); no chart lies out there.
fn parse_date(value: Option<&str>, name: &str) -> AppResult<Option<NaiveDate>> {
    value
        .map(|text| {
            let date = NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d").map_err(|_| {
                AppError::Invalid(format!(
                    "{name} must be a date (YYYY-MM-DD), got \"{text}\""
                ))
            })?;
            if !(1..=9999).contains(&date.year()) {
                return Err(AppError::Invalid(format!(
                    "{name} must be between 0001-01-01 and 9999-12-31, got \"{text}\""
                )));
            }
            Ok(date)
        })
        .transpose()
}

fn parse_compare(value: Option<&str>) -> AppResult<ChartCompare> {
    match value {
        None => Ok(ChartCompare::OneDay),
        Some(text) => ChartCompare::parse(text.trim())
            .ok_or_else(|| AppError::Invalid(format!("compare must be 1d or 7d, got \"{text}\""))),
    }
}

impl ChartQuery {
    /// `positionsLimit` (the SDK sends a number, possibly with a fraction); NaN,
    /// infinite and negative values are refused rather than read as no limit.
    fn positions_limit(&self) -> AppResult<Option<u32>> {
        match self.positions_limit {
            Some(limit) if !limit.is_finite() || limit < 0.0 => Err(AppError::Invalid(format!(
                "positionsLimit must be a number of at least 0, got {limit}"
            ))),
            limit => Ok(limit.map(|limit| limit.min(f64::from(u32::MAX)) as u32)),
        }
    }

    /// The chart named: chart type (default apple), country (default us) and category
    /// (default top podcasts), lower-cased as stored.
    fn key(&self) -> AppResult<(ChartType, ChartKey)> {
        let chart_type = parse_chart_type(self.chart_type.as_deref().unwrap_or("apple"))?;
        let key = ChartKey {
            chart_type: chart_type.as_str().to_owned(),
            country: self
                .country
                .as_deref()
                .unwrap_or("us")
                .trim()
                .to_lowercase(),
            category: self
                .category
                .as_deref()
                .unwrap_or("top podcasts")
                .trim()
                .to_lowercase(),
        };
        Ok((chart_type, key))
    }

    fn options(
        &self,
        chart_type: ChartType,
        date: Option<NaiveDate>,
        positions_limit: Option<u32>,
    ) -> ChartOptions {
        ChartOptions {
            chart_type: Some(chart_type),
            category: self.category.clone(),
            country: self.country.clone(),
            positions_limit,
            compare: self.compare.as_deref().and_then(ChartCompare::parse),
            limit: None,
            date,
        }
    }
}

fn compare_days(compare: ChartCompare) -> i64 {
    match compare {
        ChartCompare::SevenDays => 7,
        _ => 1,
    }
}

/// Summaries (with authority scores) of the catalog podcasts among `rows`.
fn summaries(
    catalog: &CatalogReader,
    rows: &[&ChartPositionRow],
) -> AppResult<HashMap<Uuid, PodcastSummary>> {
    let ids: Vec<Uuid> = rows
        .iter()
        .filter_map(|row| row.podcast_id)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let snapshot = catalog.snapshot()?;
    let scores = snapshot.authority_scores(&ids)?;
    Ok(snapshot
        .podcasts_by_ids(&ids)?
        .iter()
        .map(|record| {
            let mut summary = convert::podcast_summary(record);
            summary.authority_score = scores.get(&record.podcast_id).map(convert::score_summary);
            (record.podcast_id, summary)
        })
        .collect())
}

fn coverage_of(rows: &[&ChartPositionRow]) -> ChartCoverageStatus {
    if rows.iter().any(|row| row.podcast_id.is_none()) {
        ChartCoverageStatus::UnresolvedIdentities
    } else {
        ChartCoverageStatus::Complete
    }
}

fn day_coverage(rows: Option<&Vec<&ChartPositionRow>>) -> ChartDayCoverage {
    match rows {
        None => ChartDayCoverage::NoChart,
        Some(rows) => match coverage_of(rows) {
            ChartCoverageStatus::Complete => ChartDayCoverage::Complete,
            _ => ChartDayCoverage::UnresolvedIdentities,
        },
    }
}

fn identity(row: &ChartPositionRow, summaries: &HashMap<Uuid, PodcastSummary>) -> Value {
    match row.podcast_id.and_then(|id| summaries.get(&id)) {
        Some(summary) => json!({"type": "podcast", "podcastId": summary.id, "slug": summary.slug}),
        None => {
            json!({"type": "platform", "chartType": row.chart_type, "platformId": row.podcast_on_chart_id})
        }
    }
}

/// One chart's days in a window, by date, each day's rows by position.
struct ChartWindow<'a> {
    days: BTreeMap<NaiveDate, Vec<&'a ChartPositionRow>>,
}

impl<'a> ChartWindow<'a> {
    fn new(rows: &'a [ChartPositionRow]) -> Self {
        let mut days: BTreeMap<NaiveDate, Vec<&ChartPositionRow>> = BTreeMap::new();
        for row in rows {
            days.entry(row.chart_date).or_default().push(row);
        }
        ChartWindow { days }
    }

    fn position_on(&self, date: NaiveDate, platform_id: &str) -> Option<u32> {
        self.days.get(&date).and_then(|rows| {
            rows.iter()
                .find(|row| row.podcast_on_chart_id == platform_id)
                .map(|row| row.position)
        })
    }

    fn status_on(&self, date: NaiveDate, platform_id: &str) -> (Option<u32>, ChartDayStatus) {
        match self.days.get(&date) {
            None => (None, ChartDayStatus::NoChart),
            Some(_) => match self.position_on(date, platform_id) {
                Some(position) => (Some(position), ChartDayStatus::Observed),
                None => (None, ChartDayStatus::OffChart),
            },
        }
    }
}

/// The comparison of a chart day with the day `compare` earlier.
struct Comparison {
    requested: NaiveDate,
    available: bool,
}

fn comparison(window: &ChartWindow<'_>, date: NaiveDate, compare: ChartCompare) -> Comparison {
    let requested = date - Duration::days(compare_days(compare));
    Comparison {
        requested,
        available: window.days.contains_key(&requested),
    }
}

/// The movement of a position against the compared day's.
fn movement_of(available: bool, previous: Option<u32>, position: u32) -> ChartMovement {
    match (available, previous) {
        (false, _) => ChartMovement::Unknown,
        (true, None) => ChartMovement::Entered,
        (true, Some(before)) if before > position => ChartMovement::Up,
        (true, Some(before)) if before < position => ChartMovement::Down,
        (true, Some(_)) => ChartMovement::Unchanged,
    }
}

/// The chart of `date` (or its latest day) with positions, movements and 30 days of
/// history; `None` when the chart has no snapshot that day.
fn chart_on(
    catalog: &CatalogReader,
    chart_type: ChartType,
    key: &ChartKey,
    date: Option<NaiveDate>,
    compare: ChartCompare,
    positions_limit: Option<u32>,
) -> AppResult<Option<ChartWithPositions>> {
    let snapshot = catalog.snapshot()?;
    let dates = snapshot.chart_dates(key)?;
    let Some(date) = date.or_else(|| dates.last().copied()) else {
        return Ok(None);
    };
    if !dates.contains(&date) {
        return Ok(None);
    }
    let start = date - Duration::days(HISTORY_DAYS - 1);
    let rows = snapshot.chart_positions(key, start.min(date - Duration::days(7)), date)?;
    let window = ChartWindow::new(&rows);
    let today: Vec<&ChartPositionRow> = window.days.get(&date).cloned().unwrap_or_default();
    let compared = comparison(&window, date, compare);
    let compare_rows = window.days.get(&compared.requested);
    let history_dates: Vec<NaiveDate> = (0..HISTORY_DAYS)
        .map(|offset| start + Duration::days(offset))
        .collect();
    let summaries = summaries(catalog, &today)?;
    let limit = positions_limit.map_or(usize::MAX, |limit| limit as usize);
    let positions = today
        .iter()
        .take(limit)
        .map(|row| {
            let previous = compared
                .available
                .then(|| window.position_on(compared.requested, &row.podcast_on_chart_id))
                .flatten();
            let history: Vec<(Option<u32>, ChartDayStatus)> = history_dates
                .iter()
                .map(|day| window.status_on(*day, &row.podcast_on_chart_id))
                .collect();
            ChartPosition {
                position: row.position,
                estimated_monthly_listeners: None,
                estimated_monthly_listeners_bucket: None,
                podcast_on_chart: PodcastOnChart {
                    podcast_on_chart_id: row.podcast_on_chart_id.clone(),
                    title: row.title.clone(),
                    creator: row.creator.clone(),
                    image_url: row.image_url.clone(),
                },
                podengine_podcast: row.podcast_id.and_then(|id| summaries.get(&id).cloned()),
                previous_position: previous,
                position_change: previous.map(|before| before as i32 - row.position as i32),
                is_new: compared.available.then_some(previous.is_none()),
                movement: movement_of(compared.available, previous, row.position),
                peak_position30d: history.iter().filter_map(|(position, _)| *position).min(),
                days_charted30d: history
                    .iter()
                    .filter(|(position, _)| position.is_some())
                    .count() as u32,
                charts_in_window30d: history
                    .iter()
                    .filter(|(_, status)| *status != ChartDayStatus::NoChart)
                    .count() as u32,
                unknown_days30d: 0,
                history30d: history.iter().map(|(position, _)| *position).collect(),
                history30d_status: history.into_iter().map(|(_, status)| status).collect(),
            }
        })
        .collect();
    Ok(Some(ChartWithPositions {
        chart: ChartHeader {
            chart_type,
            category: key.category.clone(),
            country: key.country.clone(),
            chart_date: date,
            total_positions: today.len() as u32,
            unresolved_positions: today.iter().filter(|row| row.podcast_id.is_none()).count()
                as u32,
            observed_depth: today.iter().map(|row| row.position).max().unwrap_or(0),
            coverage_status: coverage_of(&today),
            compare,
            requested_compare_date: compared.requested,
            compare_chart_date: compared.available.then_some(compared.requested),
            comparison_status: if compared.available {
                ChartComparisonStatus::Available
            } else {
                ChartComparisonStatus::Unavailable
            },
            comparison_unavailable_reason: (!compared.available)
                .then_some(ChartComparisonUnavailableReason::NoEarlierChart),
            compare_chart_observed_depth: compare_rows
                .map(|rows| rows.iter().map(|row| row.position).max().unwrap_or(0)),
            compare_chart_coverage_status: compare_rows.map(|rows| coverage_of(rows)),
            entry_exit_confirmable: compared.available,
            history_window: ChartHistoryWindow {
                coverage: history_dates
                    .iter()
                    .map(|day| day_coverage(window.days.get(day)))
                    .collect(),
                dates: history_dates,
            },
        },
        positions,
    }))
}

/// The chart `query` names on its `date` when `dated` and given, else on its latest
/// day, with the options echoed.
pub fn chart(catalog: &CatalogReader, query: &ChartQuery, dated: bool) -> AppResult<ChartResponse> {
    let positions_limit = query.positions_limit()?;
    let (chart_type, key) = query.key()?;
    let date = if dated {
        parse_date(query.date.as_deref(), "date")?
    } else {
        None
    };
    let compare = parse_compare(query.compare.as_deref())?;
    let chart = chart_on(catalog, chart_type, &key, date, compare, positions_limit)?;
    Ok(ChartResponse {
        options: query.options(chart_type, date, positions_limit),
        chart,
    })
}

/// Which days a chart has: earliest, latest, and the neighbours of a date.
pub fn availability(catalog: &CatalogReader, query: &ChartQuery) -> AppResult<Value> {
    let (chart_type, key) = query.key()?;
    let date = parse_date(query.date.as_deref(), "date")?;
    let dates = catalog.snapshot()?.chart_dates(&key)?;
    let selected = date.or_else(|| dates.last().copied());
    let previous = selected.and_then(|day| dates.iter().rev().find(|d| **d < day).copied());
    let next = selected.and_then(|day| dates.iter().find(|d| **d > day).copied());
    Ok(json!({
        "options": {"chartType": chart_type, "category": query.category,
                    "country": query.country, "date": date},
        "availability": {
            "earliestChartDate": dates.first(),
            "latestChartDate": dates.last(),
            "selectedDate": selected,
            "selectedDateAvailable": selected.is_some_and(|day| dates.contains(&day)),
            "previousChartDate": previous,
            "nextChartDate": next,
        }
    }))
}

fn mover(
    row: &ChartPositionRow,
    position: Option<u32>,
    previous: Option<u32>,
    summaries: &HashMap<Uuid, PodcastSummary>,
) -> Value {
    json!({
        "podenginePodcast": row.podcast_id.and_then(|id| summaries.get(&id)),
        "identity": identity(row, summaries),
        "title": row.title,
        "creator": row.creator,
        "imageUrl": row.image_url,
        "position": position,
        "previousPosition": previous,
        "positionChange": position.zip(previous).map(|(now, before)| before as i64 - now as i64),
    })
}

fn mover_list(available: bool, mut items: Vec<(i64, Value)>, limit: usize) -> Value {
    items.sort_by_key(|(order, _)| *order);
    let total = items.len();
    json!({
        "status": if available { "available" } else { "unavailable" },
        "unavailableReason": if available { Value::Null } else { json!("no_earlier_chart") },
        "totalCount": if available { total } else { 0 },
        "items": if available {
            items.into_iter().take(limit).map(|(_, item)| item).collect::<Vec<_>>()
        } else {
            Vec::new()
        },
    })
}

/// A chart's climbers, fallers, new entries and drop-offs against 1 or 7 days earlier.
pub fn movement(catalog: &CatalogReader, query: &ChartQuery) -> AppResult<Value> {
    let (chart_type, key) = query.key()?;
    let date = parse_date(query.date.as_deref(), "date")?;
    let compare = parse_compare(query.compare.as_deref())?;
    let limit = query.limit.unwrap_or(DEFAULT_MOVERS).clamp(1, MAX_MOVERS);
    let options = json!({"chartType": chart_type, "category": query.category,
        "country": query.country, "date": date, "compare": query.compare, "limit": query.limit});
    let Some(chart) = chart_on(catalog, chart_type, &key, date, compare, None)? else {
        return Ok(json!({"options": options, "movement": null}));
    };
    let header = &chart.chart;
    let rows = catalog.snapshot()?.chart_positions(
        &key,
        header.requested_compare_date,
        header.chart_date,
    )?;
    let window = ChartWindow::new(&rows);
    let today = window
        .days
        .get(&header.chart_date)
        .cloned()
        .unwrap_or_default();
    let before = window
        .days
        .get(&header.requested_compare_date)
        .cloned()
        .unwrap_or_default();
    let mut all: Vec<&ChartPositionRow> = today.clone();
    all.extend(before.iter().copied());
    let summaries = summaries(catalog, &all)?;
    let available = header.comparison_status == ChartComparisonStatus::Available;
    let (mut climbers, mut fallers, mut entries, mut dropped) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for row in &today {
        let previous = window.position_on(header.requested_compare_date, &row.podcast_on_chart_id);
        let item = mover(row, Some(row.position), previous, &summaries);
        match previous {
            None => entries.push((i64::from(row.position), item)),
            Some(earlier) if earlier > row.position => {
                climbers.push((i64::from(row.position) - i64::from(earlier), item))
            }
            Some(earlier) if earlier < row.position => {
                fallers.push((i64::from(earlier) - i64::from(row.position), item))
            }
            Some(_) => {}
        }
    }
    for row in &before {
        if window
            .position_on(header.chart_date, &row.podcast_on_chart_id)
            .is_none()
        {
            dropped.push((
                i64::from(row.position),
                mover(row, None, Some(row.position), &summaries),
            ));
        }
    }
    let mut chart_header = serde_json::to_value(header).map_err(AppError::internal)?;
    if let Some(object) = chart_header.as_object_mut() {
        object.remove("historyWindow");
    }
    Ok(json!({
        "options": options,
        "movement": {
            "chart": chart_header,
            "climbers": mover_list(available, climbers, limit),
            "fallers": mover_list(available, fallers, limit),
            "newEntries": mover_list(available, entries, limit),
            "droppedOff": mover_list(available, dropped, limit),
        }
    }))
}

/// Ranks of a chart's podcasts (those on its end day) over the days before.
pub fn history(catalog: &CatalogReader, query: &ChartQuery) -> AppResult<Value> {
    let (chart_type, key) = query.key()?;
    let end_date = parse_date(query.end_date.as_deref(), "endDate")?;
    let days = query.days.unwrap_or(DEFAULT_HISTORY_DAYS);
    if !(1..=MAX_HISTORY_DAYS).contains(&days) {
        return Err(AppError::Invalid(format!(
            "days must be between 1 and {MAX_HISTORY_DAYS}"
        )));
    }
    let wanted_rows = query
        .rows
        .unwrap_or(DEFAULT_HISTORY_ROWS)
        .clamp(1, MAX_HISTORY_ROWS);
    let options = json!({"chartType": chart_type, "category": query.category,
        "country": query.country, "endDate": end_date, "days": query.days, "rows": query.rows});
    let snapshot = catalog.snapshot()?;
    let dates = snapshot.chart_dates(&key)?;
    let Some(end) = end_date.or_else(|| dates.last().copied()) else {
        return Ok(json!({"options": options, "history": null}));
    };
    let start = end - Duration::days(days - 1);
    let rows = snapshot.chart_positions(&key, start, end)?;
    let window = ChartWindow::new(&rows);
    let calendar: Vec<NaiveDate> = (0..days).map(|d| start + Duration::days(d)).collect();
    let end_rows: Vec<&ChartPositionRow> = window.days.get(&end).cloned().unwrap_or_default();
    let shown: Vec<&ChartPositionRow> = end_rows.iter().take(wanted_rows).copied().collect();
    let summaries = summaries(catalog, &shown)?;
    let depth = |rows: &Vec<&ChartPositionRow>| rows.iter().map(|r| r.position).max().unwrap_or(0);
    let date_items: Vec<Value> = calendar
        .iter()
        .map(|day| {
            let rows = window.days.get(day);
            json!({
                "date": day,
                "coverage": day_coverage(rows),
                "observedDepth": rows.map(depth),
                "totalPositions": rows.map(Vec::len),
                "unresolvedPositions": rows.map(|rows| rows.iter().filter(|r| r.podcast_id.is_none()).count()),
            })
        })
        .collect();
    let row_items: Vec<Value> = shown
        .iter()
        .map(|row| {
            let ranks: Vec<(Option<u32>, ChartDayStatus)> = calendar
                .iter()
                .map(|day| window.status_on(*day, &row.podcast_on_chart_id))
                .collect();
            json!({
                "podenginePodcast": row.podcast_id.and_then(|id| summaries.get(&id)),
                "position": row.position,
                "identity": identity(row, &summaries),
                "platformId": row.podcast_on_chart_id,
                "title": row.title,
                "creator": row.creator,
                "imageUrl": row.image_url,
                "bestPosition": ranks.iter().filter_map(|(p, _)| *p).min(),
                "daysCharted": ranks.iter().filter(|(p, _)| p.is_some()).count(),
                "unknownDays": 0,
                "ranks": ranks.iter().map(|(position, status)| json!({"position": position, "status": status})).collect::<Vec<_>>(),
            })
        })
        .collect();
    let chart_days: Vec<&Vec<&ChartPositionRow>> = window.days.values().collect();
    let depths: Vec<u32> = chart_days.iter().map(|rows| depth(rows)).collect();
    let complete = chart_days
        .iter()
        .filter(|rows| rows.iter().all(|r| r.podcast_id.is_some()))
        .count();
    let end_available = window.days.contains_key(&end);
    Ok(json!({
        "options": options,
        "history": {
            "chart": {
                "chartType": chart_type, "category": key.category, "country": key.country,
                "startDate": start, "endDate": end, "days": days,
                "endDateStatus": if end_available { "available" } else { "no_chart" },
                "endChart": end_available.then(|| json!({
                    "totalPositions": end_rows.len(),
                    "unresolvedPositions": end_rows.iter().filter(|r| r.podcast_id.is_none()).count(),
                    "observedDepth": depth(&end_rows),
                    "coverageStatus": coverage_of(&end_rows),
                })),
                "requestedRows": wanted_rows,
                "actualRows": row_items.len(),
                "coverage": {
                    "calendarDays": days,
                    "chartDays": chart_days.len(),
                    "missingDays": days as usize - chart_days.len(),
                    "completeDays": complete,
                    "unresolvedIdentityDays": chart_days.len() - complete,
                    "incompleteDays": 0,
                    "minObservedDepth": depths.iter().min(),
                    "maxObservedDepth": depths.iter().max(),
                    "depthChanged": depths.iter().min() != depths.iter().max(),
                },
            },
            "dates": date_items,
            "rows": row_items,
        }
    }))
}

/// The categories a chart type has snapshots for, sorted.
pub fn categories(catalog: &CatalogReader, chart_type: &str) -> AppResult<Vec<String>> {
    chart_key_values(catalog, chart_type, |key| key.category)
}

/// The countries a chart type has snapshots for, sorted.
pub fn countries(catalog: &CatalogReader, chart_type: &str) -> AppResult<Vec<String>> {
    chart_key_values(catalog, chart_type, |key| key.country)
}

/// One field of every chart a chart type has snapshots for, distinct and sorted.
fn chart_key_values(
    catalog: &CatalogReader,
    chart_type: &str,
    field: fn(ChartKey) -> String,
) -> AppResult<Vec<String>> {
    let chart_type = parse_chart_type(chart_type)?;
    let keys = catalog.snapshot()?.chart_keys(Some(chart_type.as_str()))?;
    let values: BTreeSet<String> = keys.into_iter().map(field).collect();
    Ok(values.into_iter().collect())
}

/// The mean of some positions, none for none.
fn average(positions: &[u32]) -> Option<f64> {
    (!positions.is_empty())
        .then(|| positions.iter().map(|p| f64::from(*p)).sum::<f64>() / positions.len() as f64)
}

/// All-time bounds for a podcast's chart rows.
fn all_time() -> (NaiveDate, NaiveDate) {
    let first = NaiveDate::from_ymd_opt(1900, 1, 1).unwrap_or_default();
    let last = NaiveDate::from_ymd_opt(2999, 12, 31).unwrap_or_default();
    (first, last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_moves_against_the_compared_day_only_when_that_day_was_captured() {
        assert_eq!(movement_of(false, Some(3), 1), ChartMovement::Unknown);
        assert_eq!(movement_of(true, None, 1), ChartMovement::Entered);
        assert_eq!(movement_of(true, Some(3), 1), ChartMovement::Up);
        assert_eq!(movement_of(true, Some(1), 3), ChartMovement::Down);
        assert_eq!(movement_of(true, Some(2), 2), ChartMovement::Unchanged);
    }

    #[test]
    fn bad_chart_parameters_are_invalid_with_the_value_named() {
        let query = ChartQuery {
            chart_type: Some("deezer".into()),
            ..ChartQuery::default()
        };
        let error = query.key().unwrap_err().to_string();
        assert_eq!(error, "chartType must be apple or spotify, got \"deezer\"");
        let query = ChartQuery {
            positions_limit: Some(f64::NAN),
            ..ChartQuery::default()
        };
        assert!(matches!(query.positions_limit(), Err(AppError::Invalid(_))));
        assert!(matches!(
            parse_date(Some("2024-02-30"), "date"),
            Err(AppError::Invalid(message)) if message.contains("YYYY-MM-DD")
        ));
        // Years chrono reads but a chart's window cannot count back from.
        for far in [
            "-262143-01-01",
            "+262142-12-31",
            "0000-01-01",
            "10000-01-01",
        ] {
            assert!(
                matches!(parse_date(Some(far), "endDate"), Err(AppError::Invalid(_))),
                "{far}"
            );
        }
        assert_eq!(
            parse_date(Some("0001-01-01"), "date").unwrap(),
            NaiveDate::from_ymd_opt(1, 1, 1)
        );
        assert!(matches!(
            parse_compare(Some("30d")),
            Err(AppError::Invalid(_))
        ));
    }
}
