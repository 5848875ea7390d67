//! One podcast on the charts: every chart it is on on one day, and its positions on
//! one chart over a range, with its streak and statistics. The podcast is a catalog
//! podcast (id or slug) or a platform's own id for a show the catalog does not hold.

use std::collections::HashMap;

use chrono::{Duration, NaiveDate};
use podlens_data::ChartPositionRow;
use podlens_model::entities::{ChartAppearance, PodcastSummary};
use podlens_model::enums::{ChartDayStatus, ChartType};
use serde_json::{Value, json};
use uuid::Uuid;

use super::{
    ChartQuery, ChartWindow, MAX_MOVERS, all_time, average, day_coverage, parse_chart_type,
    parse_date,
};
use crate::catalog::CatalogReader;
use crate::error::{AppError, AppResult};

/// Who a podcast-chart call is about: a catalog podcast or a platform id.
struct Charted {
    podcast: Option<PodcastSummary>,
    podcast_id: Option<Uuid>,
    platform_id: Option<String>,
}

fn charted(catalog: &CatalogReader, query: &ChartQuery) -> AppResult<Charted> {
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
                AppError::Invalid("podcastIdOrSlug is required when identityType is podcast".into())
            })?;
            let record = catalog.podcast(id)?;
            Ok(Charted {
                podcast_id: Some(record.podcast_id),
                podcast: Some(catalog.podcast_summary(&record)?),
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
                    AppError::Invalid("platformId is required when identityType is platform".into())
                })?;
            Ok(Charted {
                podcast: None,
                podcast_id: None,
                platform_id: Some(platform_id.to_owned()),
            })
        }
        other => Err(AppError::Invalid(format!(
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

/// Every chart a podcast is on, on one day (default: the latest day it charted).
pub fn appearances(catalog: &CatalogReader, query: &ChartQuery) -> AppResult<Value> {
    let chart_type = parse_chart_type(query.chart_type.as_deref().unwrap_or("apple"))?;
    let date = parse_date(query.date.as_deref(), "date")?;
    let limit = query.limit.unwrap_or(MAX_MOVERS).clamp(1, 1000);
    let who = charted(catalog, query)?;
    let (start, end) = all_time();
    let rows = catalog.snapshot()?.chart_positions_of(
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
    Ok(json!({
        "appearances": {
            "podenginePodcast": who.podcast,
            "podcastOnChart": on_chart(&rows),
            "identity": identity_of(&who, chart_type, &rows),
            "chartType": chart_type,
            "date": day.map(|d| d.to_string()).unwrap_or_else(|| date.map(|d| d.to_string()).unwrap_or_default()),
            "totalCount": on_day.len(),
            "appearances": items,
        }
    }))
}

fn range_days(range: &str) -> Option<i64> {
    match range {
        "30d" => Some(30),
        "90d" => Some(90),
        "14w" => Some(98),
        "6m" => Some(182),
        "1y" => Some(365),
        _ => None,
    }
}

/// The consecutive charted days ending on the range's last day (days without a chart
/// neither break nor extend it): its length, first day, and whether a day without a
/// chart bounds it.
fn streak(
    statuses: &[(NaiveDate, Option<u32>, ChartDayStatus)],
) -> (usize, Option<NaiveDate>, bool) {
    let mut days = 0usize;
    let mut start = None;
    let mut bounded = false;
    for (day, _, status) in statuses.iter().rev() {
        match status {
            ChartDayStatus::Observed => {
                days += 1;
                start = Some(*day);
            }
            ChartDayStatus::NoChart => bounded = true,
            _ => break,
        }
    }
    (days, start, bounded)
}

/// Weekly buckets of a long range's days.
fn weekly_buckets(statuses: &[(NaiveDate, Option<u32>, ChartDayStatus)]) -> Vec<Value> {
    statuses
        .chunks(7)
        .map(|week| {
            let positions: Vec<u32> = week.iter().filter_map(|(_, p, _)| *p).collect();
            let missing: Vec<String> = week
                .iter()
                .filter(|(_, _, s)| *s == ChartDayStatus::NoChart)
                .map(|(d, _, _)| d.to_string())
                .collect();
            let charted_days = week
                .iter()
                .filter(|(_, _, s)| *s != ChartDayStatus::NoChart)
                .count();
            json!({
                "startDate": week.first().map(|(d, _, _)| d),
                "endDate": week.last().map(|(d, _, _)| d),
                "isPartial": week.len() < 7,
                "calendarDays": week.len(),
                "bestPosition": positions.iter().min(),
                "averagePosition": average(&positions),
                "daysCharted": positions.len(),
                "chartDays": charted_days,
                "offChartDays": charted_days - positions.len(),
                "unknownDays": 0,
                "hasCoverageGaps": !missing.is_empty(),
                "missingDates": missing,
            })
        })
        .collect()
}

/// One podcast's positions on one chart over a range, with streak and stats.
pub fn podcast_history(catalog: &CatalogReader, query: &ChartQuery) -> AppResult<Value> {
    let (chart_type, key) = query.key()?;
    let end_date = parse_date(query.date.as_deref(), "date")?;
    let range = query.range.clone().unwrap_or_else(|| "30d".into());
    if range != "all" && range_days(&range).is_none() {
        return Err(AppError::Invalid(format!(
            "range must be one of 30d, 90d, 14w, 6m, 1y, all, got \"{range}\""
        )));
    }
    let who = charted(catalog, query)?;
    let snapshot = catalog.snapshot()?;
    let dates = snapshot.chart_dates(&key)?;
    let (Some(earliest), Some(latest)) = (dates.first().copied(), dates.last().copied()) else {
        return Err(AppError::NotFound(format!(
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
    let by_day: HashMap<NaiveDate, u32> = mine
        .iter()
        .map(|row| (row.chart_date, row.position))
        .collect();
    let calendar: Vec<NaiveDate> = start.iter_days().take_while(|d| *d <= end).collect();
    let statuses: Vec<(NaiveDate, Option<u32>, ChartDayStatus)> = calendar
        .iter()
        .map(
            |day| match (window.days.contains_key(day), by_day.get(day)) {
                (false, _) => (*day, None, ChartDayStatus::NoChart),
                (true, Some(position)) => (*day, Some(*position), ChartDayStatus::Observed),
                (true, None) => (*day, None, ChartDayStatus::OffChart),
            },
        )
        .collect();
    let observed: Vec<u32> = statuses.iter().filter_map(|(_, p, _)| *p).collect();
    let chart_days = statuses
        .iter()
        .filter(|(_, _, s)| *s != ChartDayStatus::NoChart)
        .count();
    let (streak_days, streak_start, bounded) = streak(&statuses);
    let end_status = statuses
        .last()
        .map_or(ChartDayStatus::NoChart, |(_, _, s)| *s);
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
        json!({"resolution": "weekly", "buckets": weekly_buckets(&statuses)})
    };
    Ok(json!({
        "history": {
            "podenginePodcast": who.podcast,
            "podcastOnChart": on_chart(&mine),
            "identity": identity_of(&who, chart_type, &mine),
            "chart": {"chartType": chart_type, "category": key.category, "country": key.country,
                      "earliestChartDate": earliest, "latestChartDate": latest},
            "range": {"range": range, "startDate": start, "endDate": end},
            "stats": {
                "bestPosition": observed.iter().min(),
                "averagePositionWhenCharting": average(&observed),
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
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(n: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 3, n).unwrap()
    }

    #[test]
    fn a_streak_counts_charted_days_back_from_the_end_and_skips_days_without_a_chart() {
        use ChartDayStatus::{NoChart, Observed, OffChart};
        let statuses = [
            (day(1), Some(4), Observed),
            (day(2), None, OffChart),
            (day(3), Some(2), Observed),
            (day(4), None, NoChart),
            (day(5), Some(1), Observed),
        ];
        assert_eq!(streak(&statuses), (2, Some(day(3)), true));
        assert_eq!(streak(&statuses[..2]), (0, None, false));
        assert_eq!(average(&[1, 2, 6]), Some(3.0));
        assert_eq!(average(&[]), None);
    }
}
