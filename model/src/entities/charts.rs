//! Apple and Spotify charts: the SDK's chart responses, the spec's chart
//! snapshot (as a provider hands it over) and the chart list response.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::{PodcastSummary, Timestamp};
use crate::enums::{
    ChartCompare, ChartComparisonStatus, ChartComparisonUnavailableReason, ChartCoverageStatus,
    ChartDayCoverage, ChartDayStatus, ChartMovement, ChartType, ListenersBucket,
};

/// The days around a chart and how complete each is.
/// SDK: `GetChartResponseChartChartHistoryWindow`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartHistoryWindow {
    pub dates: Vec<NaiveDate>,
    pub coverage: Vec<ChartDayCoverage>,
}

/// Which chart this is and how it compares with an earlier one.
/// SDK: `GetChartResponseChartChart`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartHeader {
    pub chart_type: ChartType,
    pub category: String,
    pub country: String,
    pub chart_date: NaiveDate,
    pub total_positions: u32,
    pub unresolved_positions: u32,
    pub observed_depth: u32,
    pub coverage_status: ChartCoverageStatus,
    pub compare: ChartCompare,
    pub requested_compare_date: NaiveDate,
    pub compare_chart_date: Option<NaiveDate>,
    pub comparison_status: ChartComparisonStatus,
    pub comparison_unavailable_reason: Option<ChartComparisonUnavailableReason>,
    pub compare_chart_observed_depth: Option<u32>,
    pub compare_chart_coverage_status: Option<ChartCoverageStatus>,
    pub entry_exit_confirmable: bool,
    pub history_window: ChartHistoryWindow,
}

/// The show as the chart provider names it.
/// SDK: `GetChartResponseChartPositionsItemPodcastOnChart`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastOnChart {
    pub podcast_on_chart_id: String,
    pub title: String,
    pub creator: Option<String>,
    pub image_url: Option<String>,
}

/// One position of a chart, the matched catalog podcast and its recent history.
/// SDK: `GetChartResponseChartPositionsItem`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartPosition {
    pub position: u32,
    pub estimated_monthly_listeners: Option<u64>,
    pub estimated_monthly_listeners_bucket: Option<ListenersBucket>,
    pub podcast_on_chart: PodcastOnChart,
    /// The matched catalog podcast. The key is the SDK's, so it keeps the
    /// upstream product's name.
    pub podengine_podcast: Option<PodcastSummary>,
    pub previous_position: Option<u32>,
    pub position_change: Option<i32>,
    pub is_new: Option<bool>,
    pub movement: ChartMovement,
    pub history30d: Vec<Option<u32>>,
    pub history30d_status: Vec<ChartDayStatus>,
    pub peak_position30d: Option<u32>,
    pub days_charted30d: u32,
    pub charts_in_window30d: u32,
    pub unknown_days30d: u32,
}

/// A chart with its positions. SDK: `GetChartResponseChart`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartWithPositions {
    pub chart: ChartHeader,
    pub positions: Vec<ChartPosition>,
}

/// The query a chart response echoes.
/// SDK: `GetChartResponseOptions`, `GetLatestChartResponseOptions`,
/// `GetPodcastChartsResponseOptions` (all fields optional with defaults).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartOptions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chart_type: Option<ChartType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub positions_limit: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare: Option<ChartCompare>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<NaiveDate>,
}

/// `GET /api/v1/charts` and `GET /api/v1/charts/latest`.
/// SDK: `GetChartResponse`, `GetLatestChartResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartResponse {
    pub options: ChartOptions,
    pub chart: Option<ChartWithPositions>,
}

/// A podcast's position on one chart on one day.
/// SDK: `GetPodcastChartAppearancesResponseAppearancesAppearancesItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartAppearance {
    pub chart_date: NaiveDate,
    pub chart_type: ChartType,
    pub country: String,
    pub category: String,
    pub position: u32,
}

/// `GET /api/v1/podcasts/{id}/charts`. SDK: `GetPodcastChartsResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastChartsResponse {
    pub podcast: PodcastSummary,
    pub options: ChartOptions,
    pub total_charts: u32,
    pub positions: Vec<ChartAppearance>,
}

/// `GET /api/v1/charts/{chartType}/categories`. SDK: `GetCategoriesByChartTypeResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChartCategoriesResponse {
    pub categories: Vec<String>,
}

/// `GET /api/v1/charts/{chartType}/countries`. SDK: `GetAvailableCountriesByChartTypeResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChartCountriesResponse {
    pub countries: Vec<String>,
}

/// One ranking in a provider's chart snapshot (SPEC.md §3 "chart response").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartRanking {
    pub date: NaiveDate,
    pub position: u32,
    pub previous_position: Option<u32>,
    /// The change status, in the SDK's movement values.
    pub change_status: ChartMovement,
    pub podcast_id: String,
    pub image: Option<String>,
    pub title: String,
}

/// One category of a chart snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartSnapshotCategory {
    pub title: String,
    pub parent_category: Option<String>,
    pub rankings: Vec<ChartRanking>,
}

/// One country of a chart snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartSnapshotCountry {
    pub code: String,
    pub name: String,
    pub categories: Vec<ChartSnapshotCategory>,
}

/// A chart as a provider hands it over: last updated, then countries, their
/// categories and rankings. Validation (exactly one country with exactly one
/// category and at least one ranking) belongs to the validation rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartSnapshot {
    pub last_updated: Timestamp,
    pub countries: Vec<ChartSnapshotCountry>,
}

/// One stored chart: type, category, country, date and positions, each
/// position with the show on the chart and the matched catalog podcast id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Chart {
    pub chart_type: ChartType,
    pub category: String,
    pub country: String,
    pub chart_date: NaiveDate,
    pub positions: Vec<ChartEntry>,
}

/// A position of a stored chart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartEntry {
    pub position: u32,
    pub podcast_on_chart: PodcastOnChart,
    /// Catalog id of the matched podcast, when one matched.
    pub podcast_id: Option<String>,
}

/// Podcasts referenced by a chart list.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChartListAdditionalEntities {
    pub podcasts: Vec<PodcastSummary>,
}

/// A chart list response: total, the charts, and the podcasts they reference
/// under `additional_entities.podcasts` (snake case, as the spec names it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChartListResponse {
    pub total: u64,
    pub entities: Vec<Chart>,
    pub additional_entities: ChartListAdditionalEntities,
}
