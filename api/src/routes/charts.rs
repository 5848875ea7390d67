//! Apple and Spotify charts from the imported snapshots: chart types' countries and
//! categories, a chart on a day with its movements against one or seven days
//! earlier, availability, movers, rank history, and one podcast's appearances and
//! history. A chart day is the latest capture of that day.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use chrono::{Duration, NaiveDate};
use podlens_data::ChartPositionRow;
use podlens_data::snapshot::ChartKey;
use podlens_model::entities::{
    ChartAppearance, ChartCategoriesResponse, ChartCountriesResponse, ChartHeader,
    ChartHistoryWindow, ChartOptions, ChartPosition, ChartResponse, ChartWithPositions,
    PodcastChartsResponse, PodcastOnChart, PodcastSummary,
};
use podlens_model::enums::{
    ChartCompare, ChartComparisonStatus, ChartComparisonUnavailableReason, ChartCoverageStatus,
    ChartDayCoverage, ChartDayStatus, ChartMovement, ChartType,
};
use serde::Deserialize;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiQuery;
use crate::routes::lookup;
use crate::routes::podcast_details::{score_summary, summary_with_score};
use crate::state::{AppState, blocking};
use podlens_app::convert;

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

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/charts", get(chart))
        .route("/api/v1/charts/latest", get(latest))
        .route("/api/v1/charts/availability", get(availability))
        .route("/api/v1/charts/movement", get(movement))
        .route("/api/v1/charts/history", get(history))
        .route("/api/v1/charts/podcast-appearances", get(appearances))
        .route("/api/v1/charts/podcast-history", get(podcast_history))
        .route("/api/v1/charts/{chartType}/categories", get(categories))
        .route("/api/v1/charts/{chartType}/countries", get(countries))
        .route(
            "/api/v1/podcasts/{podcastIdOrSlug}/charts",
            get(podcast_charts),
        )
        .route(
            "/api/v1/podcasts/{podcastIdOrSlug}/charts/presence",
            get(podcast_presence),
        )
}

/// The query parameters the chart routes share (each route reads its own).
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

fn parse_chart_type(value: &str) -> ApiResult<ChartType> {
    ChartType::parse(value.trim()).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "chartType must be apple or spotify, got \"{value}\""
        ))
    })
}

fn parse_date(value: Option<&str>, name: &str) -> ApiResult<Option<NaiveDate>> {
    value
        .map(|text| {
            NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d").map_err(|_| {
                ApiError::BadRequest(format!(
                    "{name} must be a date (YYYY-MM-DD), got \"{text}\""
                ))
            })
        })
        .transpose()
}

fn parse_compare(value: Option<&str>) -> ApiResult<ChartCompare> {
    match value {
        None => Ok(ChartCompare::OneDay),
        Some(text) => ChartCompare::parse(text.trim()).ok_or_else(|| {
            ApiError::BadRequest(format!("compare must be 1d or 7d, got \"{text}\""))
        }),
    }
}

impl ChartQuery {
    /// `positionsLimit` (the SDK sends a number, possibly with a fraction); NaN,
    /// infinite and negative values are refused rather than read as no limit.
    fn positions_limit(&self) -> ApiResult<Option<u32>> {
        match self.positions_limit {
            Some(limit) if !limit.is_finite() || limit < 0.0 => Err(ApiError::BadRequest(format!(
                "positionsLimit must be a number of at least 0, got {limit}"
            ))),
            limit => Ok(limit.map(|limit| limit.min(f64::from(u32::MAX)) as u32)),
        }
    }

    /// The chart named: chart type (default apple), country (default us) and category
    /// (default top podcasts), lower-cased as stored.
    fn key(&self) -> ApiResult<(ChartType, ChartKey)> {
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
    state: &AppState,
    rows: &[&ChartPositionRow],
) -> ApiResult<HashMap<Uuid, PodcastSummary>> {
    let ids: Vec<Uuid> = rows
        .iter()
        .filter_map(|row| row.podcast_id)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let snapshot = state.catalog.snapshot()?;
    let scores = snapshot.authority_scores(&ids)?;
    Ok(snapshot
        .podcasts_by_ids(&ids)?
        .iter()
        .map(|record| {
            let mut summary = convert::podcast_summary(record);
            summary.authority_score = scores.get(&record.podcast_id).map(score_summary);
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

/// The chart of `date` (or its latest day) with positions, movements and 30 days of
/// history; `None` when the chart has no snapshot that day.
fn chart_on(
    state: &AppState,
    chart_type: ChartType,
    key: &ChartKey,
    date: Option<NaiveDate>,
    compare: ChartCompare,
    positions_limit: Option<u32>,
) -> ApiResult<Option<ChartWithPositions>> {
    let snapshot = state.catalog.snapshot()?;
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
    let summaries = summaries(state, &today)?;
    let limit = positions_limit.map_or(usize::MAX, |limit| limit as usize);
    let positions = today
        .iter()
        .take(limit)
        .map(|row| {
            let previous = compared
                .available
                .then(|| window.position_on(compared.requested, &row.podcast_on_chart_id))
                .flatten();
            let movement = match (compared.available, previous) {
                (false, _) => ChartMovement::Unknown,
                (true, None) => ChartMovement::Entered,
                (true, Some(before)) if before > row.position => ChartMovement::Up,
                (true, Some(before)) if before < row.position => ChartMovement::Down,
                (true, Some(_)) => ChartMovement::Unchanged,
            };
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
                movement,
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

/// A chart on a day (default: its latest day) with movements.
#[utoipa::path(get, path = "/api/v1/charts", tag = "charts",
    params(("chartType" = Option<String>, Query, description = "apple (default) or spotify"),
           ("category" = Option<String>, Query, description = "Default: top podcasts"),
           ("country" = Option<String>, Query, description = "ISO code, default us"),
           ("positionsLimit" = Option<u32>, Query), ("compare" = Option<String>, Query, description = "1d (default) or 7d"),
           ("date" = Option<String>, Query, description = "YYYY-MM-DD")),
    responses((status = 200, description = "The chart, or null when it has no snapshot that day")))]
pub async fn chart(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ChartQuery>,
) -> ApiResult<Envelope<ChartResponse>> {
    chart_response(state, query, true).await
}

/// A chart's latest day.
#[utoipa::path(get, path = "/api/v1/charts/latest", tag = "charts",
    params(("chartType" = Option<String>, Query), ("category" = Option<String>, Query),
           ("country" = Option<String>, Query), ("positionsLimit" = Option<u32>, Query),
           ("compare" = Option<String>, Query)),
    responses((status = 200, description = "The latest chart")))]
pub async fn latest(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ChartQuery>,
) -> ApiResult<Envelope<ChartResponse>> {
    chart_response(state, query, false).await
}

/// The chart of `query` on its `date` when `dated` and given, else on its latest day,
/// with the options echoed.
async fn chart_response(
    state: AppState,
    query: ChartQuery,
    dated: bool,
) -> ApiResult<Envelope<ChartResponse>> {
    let positions_limit = query.positions_limit()?;
    let (chart_type, key) = query.key()?;
    let date = if dated {
        parse_date(query.date.as_deref(), "date")?
    } else {
        None
    };
    let compare = parse_compare(query.compare.as_deref())?;
    blocking(move || {
        let chart = chart_on(&state, chart_type, &key, date, compare, positions_limit)?;
        Ok(Envelope(ChartResponse {
            options: query.options(chart_type, date, positions_limit),
            chart,
        }))
    })
    .await
}

/// Which days a chart has: earliest, latest, and the neighbours of a date.
#[utoipa::path(get, path = "/api/v1/charts/availability", tag = "charts",
    params(("chartType" = Option<String>, Query), ("category" = Option<String>, Query),
           ("country" = Option<String>, Query), ("date" = Option<String>, Query)),
    responses((status = 200, description = "The chart's available days")))]
pub async fn availability(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ChartQuery>,
) -> ApiResult<Envelope<Value>> {
    let (chart_type, key) = query.key()?;
    let date = parse_date(query.date.as_deref(), "date")?;
    blocking(move || {
        let dates = state.catalog.snapshot()?.chart_dates(&key)?;
        let selected = date.or_else(|| dates.last().copied());
        let previous = selected.and_then(|day| dates.iter().rev().find(|d| **d < day).copied());
        let next = selected.and_then(|day| dates.iter().find(|d| **d > day).copied());
        Ok(Envelope(json!({
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
        })))
    })
    .await
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
#[utoipa::path(get, path = "/api/v1/charts/movement", tag = "charts",
    params(("chartType" = Option<String>, Query), ("category" = Option<String>, Query),
           ("country" = Option<String>, Query), ("date" = Option<String>, Query),
           ("compare" = Option<String>, Query), ("limit" = Option<usize>, Query)),
    responses((status = 200, description = "The chart's movers")))]
pub async fn movement(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ChartQuery>,
) -> ApiResult<Envelope<Value>> {
    let (chart_type, key) = query.key()?;
    let date = parse_date(query.date.as_deref(), "date")?;
    let compare = parse_compare(query.compare.as_deref())?;
    let limit = query.limit.unwrap_or(DEFAULT_MOVERS).clamp(1, MAX_MOVERS);
    blocking(move || {
        let options = json!({"chartType": chart_type, "category": query.category,
            "country": query.country, "date": date, "compare": query.compare, "limit": query.limit});
        let Some(chart) = chart_on(&state, chart_type, &key, date, compare, None)? else {
            return Ok(Envelope(json!({"options": options, "movement": null})));
        };
        let header = &chart.chart;
        let rows = state.catalog.snapshot()?.chart_positions(
            &key,
            header.requested_compare_date,
            header.chart_date,
        )?;
        let window = ChartWindow::new(&rows);
        let today = window.days.get(&header.chart_date).cloned().unwrap_or_default();
        let before = window
            .days
            .get(&header.requested_compare_date)
            .cloned()
            .unwrap_or_default();
        let mut all: Vec<&ChartPositionRow> = today.clone();
        all.extend(before.iter().copied());
        let summaries = summaries(&state, &all)?;
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
        let header_value = serde_json::to_value(header).map_err(ApiError::internal)?;
        let mut chart_header = header_value;
        if let Some(object) = chart_header.as_object_mut() {
            object.remove("historyWindow");
        }
        Ok(Envelope(json!({
            "options": options,
            "movement": {
                "chart": chart_header,
                "climbers": mover_list(available, climbers, limit),
                "fallers": mover_list(available, fallers, limit),
                "newEntries": mover_list(available, entries, limit),
                "droppedOff": mover_list(available, dropped, limit),
            }
        })))
    })
    .await
}

/// Ranks of a chart's podcasts (those on its end day) over the days before.
#[utoipa::path(get, path = "/api/v1/charts/history", tag = "charts",
    params(("chartType" = Option<String>, Query), ("category" = Option<String>, Query),
           ("country" = Option<String>, Query), ("endDate" = Option<String>, Query),
           ("days" = Option<i64>, Query), ("rows" = Option<usize>, Query)),
    responses((status = 200, description = "The rank history")))]
pub async fn history(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ChartQuery>,
) -> ApiResult<Envelope<Value>> {
    let (chart_type, key) = query.key()?;
    let end_date = parse_date(query.end_date.as_deref(), "endDate")?;
    let days = query.days.unwrap_or(DEFAULT_HISTORY_DAYS);
    if !(1..=MAX_HISTORY_DAYS).contains(&days) {
        return Err(ApiError::BadRequest(format!(
            "days must be between 1 and {MAX_HISTORY_DAYS}"
        )));
    }
    let wanted_rows = query
        .rows
        .unwrap_or(DEFAULT_HISTORY_ROWS)
        .clamp(1, MAX_HISTORY_ROWS);
    blocking(move || {
        let options = json!({"chartType": chart_type, "category": query.category,
            "country": query.country, "endDate": end_date, "days": query.days, "rows": query.rows});
        let snapshot = state.catalog.snapshot()?;
        let dates = snapshot.chart_dates(&key)?;
        let Some(end) = end_date.or_else(|| dates.last().copied()) else {
            return Ok(Envelope(json!({"options": options, "history": null})));
        };
        let start = end - Duration::days(days - 1);
        let rows = snapshot.chart_positions(&key, start, end)?;
        let window = ChartWindow::new(&rows);
        let calendar: Vec<NaiveDate> = (0..days).map(|d| start + Duration::days(d)).collect();
        let end_rows: Vec<&ChartPositionRow> = window.days.get(&end).cloned().unwrap_or_default();
        let shown: Vec<&ChartPositionRow> = end_rows.iter().take(wanted_rows).copied().collect();
        let summaries = summaries(&state, &shown)?;
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
        Ok(Envelope(json!({
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
        })))
    })
    .await
}

/// Who a podcast-chart call is about: a catalog podcast or a platform id.
struct Charted {
    podcast: Option<PodcastSummary>,
    podcast_id: Option<Uuid>,
    platform_id: Option<String>,
}

fn charted(state: &AppState, query: &ChartQuery) -> ApiResult<Charted> {
    let identity_type =
        query
            .identity_type
            .as_deref()
            .unwrap_or(if query.podcast_id_or_slug.is_some() {
                "podcast"
            } else {
                "platform"
            });
    match identity_type {
        "podcast" => {
            let id = query.podcast_id_or_slug.as_deref().ok_or_else(|| {
                ApiError::BadRequest(
                    "podcastIdOrSlug is required when identityType is podcast".into(),
                )
            })?;
            let record = lookup::podcast_by_id_or_slug(state, id)?;
            Ok(Charted {
                podcast_id: Some(record.podcast_id),
                podcast: Some(summary_with_score(state, &record)?),
                platform_id: None,
            })
        }
        "platform" => {
            let platform_id = query
                .platform_id
                .as_deref()
                .map(str::trim)
                .filter(|id| !id.is_empty())
                .ok_or_else(|| {
                    ApiError::BadRequest(
                        "platformId is required when identityType is platform".into(),
                    )
                })?;
            Ok(Charted {
                podcast: None,
                podcast_id: None,
                platform_id: Some(platform_id.to_owned()),
            })
        }
        other => Err(ApiError::BadRequest(format!(
            "identityType must be podcast or platform, got \"{other}\""
        ))),
    }
}

fn identity_of(charted: &Charted, chart_type: ChartType, rows: &[ChartPositionRow]) -> Value {
    match &charted.podcast {
        Some(summary) => json!({"type": "podcast", "podcastId": summary.id, "slug": summary.slug}),
        None => json!({"type": "platform", "chartType": chart_type,
            "platformId": charted.platform_id.clone().or_else(|| rows.first().map(|r| r.podcast_on_chart_id.clone())).unwrap_or_default()}),
    }
}

fn on_chart(rows: &[ChartPositionRow]) -> Value {
    rows.last().map_or(Value::Null, |row| {
        json!({"platformId": row.podcast_on_chart_id, "title": row.title,
               "creator": row.creator, "imageUrl": row.image_url})
    })
}

/// All-time bounds for a podcast's chart rows.
fn all_time() -> (NaiveDate, NaiveDate) {
    let first = NaiveDate::from_ymd_opt(1900, 1, 1).unwrap_or_default();
    let last = NaiveDate::from_ymd_opt(2999, 12, 31).unwrap_or_default();
    (first, last)
}

/// Every chart a podcast is on, on one day (default: the latest day it charted).
#[utoipa::path(get, path = "/api/v1/charts/podcast-appearances", tag = "charts",
    params(("identityType" = Option<String>, Query, description = "podcast or platform"),
           ("podcastIdOrSlug" = Option<String>, Query), ("platformId" = Option<String>, Query),
           ("chartType" = Option<String>, Query), ("date" = Option<String>, Query),
           ("limit" = Option<usize>, Query)),
    responses((status = 200, description = "The podcast's chart appearances"),
              (status = 404, description = "Unknown podcast")))]
pub async fn appearances(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ChartQuery>,
) -> ApiResult<Envelope<Value>> {
    let chart_type = parse_chart_type(query.chart_type.as_deref().unwrap_or("apple"))?;
    let date = parse_date(query.date.as_deref(), "date")?;
    let limit = query.limit.unwrap_or(MAX_MOVERS).clamp(1, 1000);
    blocking(move || {
        let who = charted(&state, &query)?;
        let (start, end) = all_time();
        let rows = state.catalog.snapshot()?.chart_positions_of(
            who.podcast_id,
            who.platform_id.as_deref(),
            Some(chart_type.as_str()),
            start,
            end,
        )?;
        let day = date.or_else(|| rows.iter().map(|row| row.chart_date).max());
        let mut on_day: Vec<&ChartPositionRow> = rows
            .iter()
            .filter(|row| Some(row.chart_date) == day)
            .collect();
        on_day.sort_by_key(|row| (row.position, row.country.clone(), row.category.clone()));
        let items: Vec<ChartAppearance> = on_day
            .iter()
            .take(limit)
            .map(|row| ChartAppearance {
                chart_date: row.chart_date,
                chart_type,
                country: row.country.clone(),
                category: row.category.clone(),
                position: row.position,
            })
            .collect();
        Ok(Envelope(json!({
            "appearances": {
                "podenginePodcast": who.podcast,
                "podcastOnChart": on_chart(&rows),
                "identity": identity_of(&who, chart_type, &rows),
                "chartType": chart_type,
                "date": day.map(|d| d.to_string()).unwrap_or_else(|| date.map(|d| d.to_string()).unwrap_or_default()),
                "totalCount": on_day.len(),
                "appearances": items,
            }
        })))
    })
    .await
}

fn range_days(range: &str) -> Option<i64> {
    match range {
        "30d" => Some(30),
        "90d" => Some(90),
        "14w" => Some(98),
        "6m" => Some(182),
        "1y" => Some(365),
        "all" => None,
        _ => None,
    }
}

/// One podcast's positions on one chart over a range, with streak and stats.
#[utoipa::path(get, path = "/api/v1/charts/podcast-history", tag = "charts",
    params(("identityType" = Option<String>, Query), ("podcastIdOrSlug" = Option<String>, Query),
           ("platformId" = Option<String>, Query), ("chartType" = Option<String>, Query),
           ("category" = Option<String>, Query), ("country" = Option<String>, Query),
           ("range" = Option<String>, Query, description = "30d (default), 90d, 14w, 6m, 1y, all"),
           ("date" = Option<String>, Query)),
    responses((status = 200, description = "The podcast's chart history"),
              (status = 404, description = "Unknown podcast")))]
pub async fn podcast_history(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ChartQuery>,
) -> ApiResult<Envelope<Value>> {
    let (chart_type, key) = query.key()?;
    let end_date = parse_date(query.date.as_deref(), "date")?;
    let range = query.range.clone().unwrap_or_else(|| "30d".into());
    if range != "all" && range_days(&range).is_none() {
        return Err(ApiError::BadRequest(format!(
            "range must be one of 30d, 90d, 14w, 6m, 1y, all, got \"{range}\""
        )));
    }
    blocking(move || {
        let who = charted(&state, &query)?;
        let snapshot = state.catalog.snapshot()?;
        let dates = snapshot.chart_dates(&key)?;
        let (Some(earliest), Some(latest)) = (dates.first().copied(), dates.last().copied()) else {
            return Err(ApiError::NotFound(format!(
                "No {} chart for {} in {}",
                chart_type.as_str(),
                key.category,
                key.country
            )));
        };
        let end = end_date.unwrap_or(latest);
        let start = match range_days(&range) {
            Some(days) => end - Duration::days(days - 1),
            None => earliest.min(end),
        };
        let chart_rows = snapshot.chart_positions(&key, start, end)?;
        let window = ChartWindow::new(&chart_rows);
        let mine: Vec<ChartPositionRow> = chart_rows
            .iter()
            .filter(|row| match (who.podcast_id, who.platform_id.as_deref()) {
                (Some(id), _) => row.podcast_id == Some(id),
                (None, Some(platform)) => row.podcast_on_chart_id == platform,
                _ => false,
            })
            .cloned()
            .collect();
        let by_day: HashMap<NaiveDate, u32> =
            mine.iter().map(|row| (row.chart_date, row.position)).collect();
        let calendar: Vec<NaiveDate> = start.iter_days().take_while(|d| *d <= end).collect();
        let status = |day: &NaiveDate| match (window.days.contains_key(day), by_day.get(day)) {
            (false, _) => (None, ChartDayStatus::NoChart),
            (true, Some(position)) => (Some(*position), ChartDayStatus::Observed),
            (true, None) => (None, ChartDayStatus::OffChart),
        };
        let statuses: Vec<(NaiveDate, Option<u32>, ChartDayStatus)> = calendar
            .iter()
            .map(|day| {
                let (position, day_status) = status(day);
                (*day, position, day_status)
            })
            .collect();
        let observed: Vec<u32> = statuses.iter().filter_map(|(_, p, _)| *p).collect();
        let chart_days = statuses.iter().filter(|(_, _, s)| *s != ChartDayStatus::NoChart).count();
        // The streak: consecutive charted days ending on the end day (days without a
        // chart neither break nor extend it).
        let mut streak_days = 0usize;
        let mut streak_start = None;
        let mut bounded = false;
        for (day, _, state) in statuses.iter().rev() {
            match state {
                ChartDayStatus::Observed => {
                    streak_days += 1;
                    streak_start = Some(*day);
                }
                ChartDayStatus::NoChart => bounded = true,
                _ => break,
            }
        }
        let end_status = statuses.last().map_or(ChartDayStatus::NoChart, |(_, _, s)| *s);
        let series = if calendar.len() <= 90 {
            let points: Vec<Value> = statuses
                .iter()
                .map(|(day, position, day_status)| {
                    json!({"date": day, "position": position, "status": day_status,
                           "chartCoverage": day_coverage(window.days.get(day))})
                })
                .collect();
            json!({"resolution": "daily", "points": points})
        } else {
            let buckets: Vec<Value> = statuses
                .chunks(7)
                .map(|week| {
                    let positions: Vec<u32> = week.iter().filter_map(|(_, p, _)| *p).collect();
                    let missing: Vec<String> = week.iter().filter(|(_, _, s)| *s == ChartDayStatus::NoChart).map(|(d, _, _)| d.to_string()).collect();
                    let charted_days = week.iter().filter(|(_, _, s)| *s != ChartDayStatus::NoChart).count();
                    json!({
                        "startDate": week.first().map(|(d, _, _)| d),
                        "endDate": week.last().map(|(d, _, _)| d),
                        "isPartial": week.len() < 7,
                        "calendarDays": week.len(),
                        "bestPosition": positions.iter().min(),
                        "averagePosition": (!positions.is_empty()).then(|| positions.iter().map(|p| f64::from(*p)).sum::<f64>() / positions.len() as f64),
                        "daysCharted": positions.len(),
                        "chartDays": charted_days,
                        "offChartDays": charted_days - positions.len(),
                        "unknownDays": 0,
                        "hasCoverageGaps": !missing.is_empty(),
                        "missingDates": missing,
                    })
                })
                .collect();
            json!({"resolution": "weekly", "buckets": buckets})
        };
        Ok(Envelope(json!({
            "history": {
                "podenginePodcast": who.podcast,
                "podcastOnChart": on_chart(&mine),
                "identity": identity_of(&who, chart_type, &mine),
                "chart": {"chartType": chart_type, "category": key.category, "country": key.country,
                          "earliestChartDate": earliest, "latestChartDate": latest},
                "range": {"range": range, "startDate": start, "endDate": end},
                "stats": {
                    "bestPosition": observed.iter().min(),
                    "averagePositionWhenCharting": (!observed.is_empty()).then(|| observed.iter().map(|p| f64::from(*p)).sum::<f64>() / observed.len() as f64),
                    "daysOnChart": observed.len(),
                    "chartDays": chart_days,
                    "offChartDays": chart_days - observed.len(),
                    "unknownDays": 0,
                    "missingDays": calendar.len() - chart_days,
                    "calendarDays": calendar.len(),
                    "firstSeenDate": mine.first().map(|row| row.chart_date),
                    "lastSeenDate": mine.last().map(|row| row.chart_date),
                    "streak": {
                        "days": (end_status == ChartDayStatus::Observed).then_some(streak_days),
                        "endDateStatus": end_status,
                        "startDate": streak_start.filter(|_| end_status == ChartDayStatus::Observed),
                        "boundedByMissingCoverage": bounded,
                    },
                },
                "series": series,
            }
        })))
    })
    .await
}

/// The categories a chart type has snapshots for.
#[utoipa::path(get, path = "/api/v1/charts/{chartType}/categories", tag = "charts",
    params(("chartType" = String, Path, description = "apple or spotify")),
    responses((status = 200, description = "The categories"), (status = 400, description = "Unknown chart type")))]
pub async fn categories(
    State(state): State<AppState>,
    Path(chart_type): Path<String>,
) -> ApiResult<Envelope<ChartCategoriesResponse>> {
    let categories = chart_key_values(state, &chart_type, |key| key.category).await?;
    Ok(Envelope(ChartCategoriesResponse { categories }))
}

/// The countries a chart type has snapshots for.
#[utoipa::path(get, path = "/api/v1/charts/{chartType}/countries", tag = "charts",
    params(("chartType" = String, Path, description = "apple or spotify")),
    responses((status = 200, description = "The countries"), (status = 400, description = "Unknown chart type")))]
pub async fn countries(
    State(state): State<AppState>,
    Path(chart_type): Path<String>,
) -> ApiResult<Envelope<ChartCountriesResponse>> {
    let countries = chart_key_values(state, &chart_type, |key| key.country).await?;
    Ok(Envelope(ChartCountriesResponse { countries }))
}

/// One field of every chart a chart type has snapshots for, distinct and sorted.
async fn chart_key_values(
    state: AppState,
    chart_type: &str,
    field: fn(ChartKey) -> String,
) -> ApiResult<Vec<String>> {
    let chart_type = parse_chart_type(chart_type)?;
    blocking(move || {
        let keys = state
            .catalog
            .snapshot()?
            .chart_keys(Some(chart_type.as_str()))?;
        let values: BTreeSet<String> = keys.into_iter().map(field).collect();
        Ok(values.into_iter().collect())
    })
    .await
}

/// A podcast's positions on every chart on one day (default: the latest day it
/// charted), optionally of one chart type, category or country.
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/charts", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path, description = "Podcast id or slug"),
           ("chartType" = Option<String>, Query), ("category" = Option<String>, Query),
           ("country" = Option<String>, Query), ("limit" = Option<usize>, Query),
           ("date" = Option<String>, Query)),
    responses((status = 200, description = "The podcast's chart positions"), (status = 404, description = "Unknown podcast")))]
pub async fn podcast_charts(
    State(state): State<AppState>,
    Path(id_or_slug): Path<String>,
    ApiQuery(query): ApiQuery<ChartQuery>,
) -> ApiResult<Envelope<PodcastChartsResponse>> {
    let chart_type = query
        .chart_type
        .as_deref()
        .map(parse_chart_type)
        .transpose()?;
    let date = parse_date(query.date.as_deref(), "date")?;
    let limit = query.limit.unwrap_or(100).clamp(1, 1000);
    let positions_limit = query.positions_limit()?;
    blocking(move || {
        let record = lookup::podcast_by_id_or_slug(&state, &id_or_slug)?;
        let filter = PodcastChartFilter {
            chart_type,
            country: query.country.clone(),
            category: query.category.clone(),
            date,
        };
        let (positions, total_charts) = podcast_chart_positions(&state, &record, &filter, limit)?;
        Ok(Envelope(PodcastChartsResponse {
            podcast: summary_with_score(&state, &record)?,
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
        }))
    })
    .await
}

/// Which of a podcast's chart positions to list.
#[derive(Debug, Clone, Default)]
pub(crate) struct PodcastChartFilter {
    pub chart_type: Option<ChartType>,
    pub country: Option<String>,
    pub category: Option<String>,
    /// The day; default the latest day the podcast charted (on the filtered charts).
    pub date: Option<NaiveDate>,
}

/// A podcast's positions on one day, best first, at most `limit` of them, with the
/// number of charts it was on that day.
pub(crate) fn podcast_chart_positions(
    state: &AppState,
    record: &podlens_model::catalog::PodcastRecord,
    filter: &PodcastChartFilter,
    limit: usize,
) -> ApiResult<(Vec<ChartAppearance>, u32)> {
    let (start, end) = all_time();
    let rows = state.catalog.snapshot()?.chart_positions_of(
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

/// Weekly cells of a chart presence window.
const PRESENCE_WEEKS: i64 = 14;
/// A chart left within this many days counts as recently dropped.
const DROPPED_DAYS: i64 = 30;

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
        "averageInWindow": (!positions.is_empty()).then(|| positions.iter().map(|p| f64::from(*p)).sum::<f64>() / positions.len() as f64),
        "bestAllTime": {"date": best_all.chart_date, "position": best_all.position},
        "firstSeenDate": first_seen.chart_date,
    });
    Some((value, on_now.then_some(last_seen.position)))
}

/// Every chart a podcast is or was on: now, dropped in the last 30 days, or older,
/// with 14 weekly best-rank cells ending on `endDate` (default: the latest chart day).
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/charts/presence", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path, description = "Podcast id or slug"),
           ("endDate" = Option<String>, Query, description = "YYYY-MM-DD")),
    responses((status = 200, description = "The podcast's chart presence"), (status = 404, description = "Unknown podcast")))]
pub async fn podcast_presence(
    State(state): State<AppState>,
    Path(id_or_slug): Path<String>,
    ApiQuery(query): ApiQuery<PresenceQuery>,
) -> ApiResult<Envelope<Value>> {
    let end_date = parse_date(query.end_date.as_deref(), "endDate")?;
    blocking(move || {
        let record = lookup::podcast_by_id_or_slug(&state, &id_or_slug)?;
        let snapshot = state.catalog.snapshot()?;
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
        let latest_chart_date = chart_dates.values().filter_map(|dates| dates.last()).max().copied();
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
        Ok(Envelope(json!({
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
        })))
    })
    .await
}
