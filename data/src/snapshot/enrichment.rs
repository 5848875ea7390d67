//! Enrichment over the snapshot views: contacts and social links with their
//! sources, the latest website crawl, authority scores, platform lookups and chart
//! positions (one capture per chart and day: the latest of that day).

use std::collections::HashMap;

use chrono::{DateTime, NaiveDate, Utc};
use duckdb::{Connection, Row, ToSql};
use podlens_model::entities::{AuthorityScoreDetails, WebsiteCrawlResult};
use uuid::Uuid;

use super::Snapshot;
use crate::DataError;
use crate::catalog::{ChartPositionRow, PlatformLookupRow};
use crate::records::{optional_uuid_at, uuid_at};

/// One contact (email or phone) of a podcast and where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactRow {
    /// `email` or `phone`.
    pub contact_type: String,
    pub value: String,
    /// `website`, `rss`, …
    pub source: String,
    /// The page the contact was found on, when known.
    pub page_url: Option<String>,
}

/// One social profile link of a podcast and where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SocialLinkRow {
    pub social_media_type: String,
    pub url: String,
    pub source: String,
    pub occurrences: u64,
}

/// The stored authority score of a podcast (the compact form search hits and podcast
/// summaries carry).
#[derive(Debug, Clone, PartialEq)]
pub struct AuthorityScoreRow {
    pub podcast_id: Uuid,
    pub authority_score: f64,
    pub quality_score: f64,
    pub social_score: f64,
    pub youtube_score: f64,
    pub engagement_score: f64,
    /// Share of the inputs that were known, 0 to 1.
    pub coverage: f64,
    pub calculated_at: DateTime<Utc>,
}

/// One chart: its platform, country and category.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChartKey {
    pub chart_type: String,
    pub country: String,
    pub category: String,
}

/// Positions of the latest capture of each chart day (`frequency` and hourly captures
/// collapse to one snapshot per day).
const DAILY_POSITIONS: &str = r#"(SELECT * FROM chart_positions
    QUALIFY "capturedAt" = max("capturedAt") OVER (PARTITION BY "chartType", "country", "category", "chartDate"))"#;

const CHART_COLUMNS: &str = r#""chartType", "frequency", "country", "category", "chartDate", "capturedAt",
    "position", "podcastOnChartId", "podcastId", "title", "creator", "imageUrl", "feedUrl",
    "previousPosition", "positionChange", "movement", "daysInChart", "streak""#;

fn to_u32(value: i64) -> u32 {
    u32::try_from(value.max(0)).unwrap_or(u32::MAX)
}

fn to_u64(value: i64) -> u64 {
    u64::try_from(value.max(0)).unwrap_or(0)
}

fn chart_row(row: &Row<'_>) -> duckdb::Result<ChartPositionRow> {
    Ok(ChartPositionRow {
        chart_type: row.get(0)?,
        frequency: row.get(1)?,
        country: row.get(2)?,
        category: row.get(3)?,
        chart_date: row.get(4)?,
        captured_at: row.get(5)?,
        position: to_u32(row.get(6)?),
        podcast_on_chart_id: row.get(7)?,
        podcast_id: optional_uuid_at(row, 8)?,
        title: row.get(9)?,
        creator: row.get(10)?,
        image_url: row.get(11)?,
        feed_url: row.get(12)?,
        previous_position: row.get::<_, Option<i64>>(13)?.map(to_u32),
        position_change: row
            .get::<_, Option<i64>>(14)?
            .map(|v| i32::try_from(v).unwrap_or(0)),
        movement: row.get(15)?,
        days_in_chart: to_u32(row.get(16)?),
        streak: to_u32(row.get(17)?),
    })
}

fn query_chart_rows(
    connection: &Connection,
    condition: &str,
    params: &[&dyn ToSql],
) -> Result<Vec<ChartPositionRow>, DataError> {
    let mut statement = connection.prepare(&format!(
        r#"SELECT {CHART_COLUMNS} FROM {DAILY_POSITIONS} WHERE {condition}
           ORDER BY "chartType", "country", "category", "chartDate", "position""#
    ))?;
    let rows = statement
        .query_map(params, chart_row)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

fn json_error(column: &str, error: serde_json::Error) -> DataError {
    DataError::InvalidValue {
        column: column.into(),
        message: error.to_string(),
    }
}

impl Snapshot {
    /// The contacts of a podcast, emails first, in a stable order.
    pub fn podcast_contacts(&self, podcast_id: Uuid) -> Result<Vec<ContactRow>, DataError> {
        Ok(self.points().contacts(podcast_id))
    }

    /// The social profile links of a podcast, most often linked first.
    pub fn podcast_social_links(&self, podcast_id: Uuid) -> Result<Vec<SocialLinkRow>, DataError> {
        Ok(self.points().social_links(podcast_id))
    }

    /// The latest website crawl of a podcast.
    pub fn website_crawl(
        &self,
        podcast_id: Uuid,
    ) -> Result<Option<(WebsiteCrawlResult, DateTime<Utc>)>, DataError> {
        let points = self.points();
        let Some((json, crawled_at)) = points.website_crawl(podcast_id) else {
            return Ok(None);
        };
        let result = serde_json::from_str(json).map_err(|e| json_error("result", e))?;
        Ok(Some((result, *crawled_at)))
    }

    /// The authority scores of the podcasts among `ids` that have one.
    pub fn authority_scores(
        &self,
        ids: &[Uuid],
    ) -> Result<HashMap<Uuid, AuthorityScoreRow>, DataError> {
        Ok(self.points().authority_scores(ids))
    }

    /// The full score details of a podcast (sub-scores, weights and inputs).
    pub fn authority_score_details(
        &self,
        podcast_id: Uuid,
    ) -> Result<Option<AuthorityScoreDetails>, DataError> {
        self.with_connection(|connection| {
            let mut statement = connection
                .prepare(r#"SELECT "details" FROM authority_scores WHERE "podcastId" = ?"#)?;
            let mut rows = statement.query([podcast_id.to_string()])?;
            let Some(row) = rows.next()? else {
                return Ok(None);
            };
            let json: String = row.get(0)?;
            serde_json::from_str(&json)
                .map(Some)
                .map_err(|e| json_error("details", e))
        })
    }

    /// The platform lookups (ratings, followers, plays) of a podcast.
    pub fn platform_lookups(&self, podcast_id: Uuid) -> Result<Vec<PlatformLookupRow>, DataError> {
        self.with_connection(|connection| {
            let mut statement = connection.prepare(
                r#"SELECT "platform", "lookupKey", "podcastId", "rating", "ratingsCount", "wilsonScore",
                          "followers", "following", "posts", "likes", "subscribers", "views", "plays"
                   FROM platform_lookups WHERE "podcastId" = ? ORDER BY "platform", "lookupKey""#,
            )?;
            let count = |row: &Row<'_>, index: usize| -> duckdb::Result<Option<u64>> {
                Ok(row.get::<_, Option<i64>>(index)?.map(to_u64))
            };
            let rows = statement
                .query_map([podcast_id.to_string()], |row| {
                    Ok(PlatformLookupRow {
                        platform: row.get(0)?,
                        lookup_key: row.get(1)?,
                        podcast_id: optional_uuid_at(row, 2)?,
                        rating: row.get(3)?,
                        ratings_count: count(row, 4)?,
                        wilson_score: row.get(5)?,
                        followers: count(row, 6)?,
                        following: count(row, 7)?,
                        posts: count(row, 8)?,
                        likes: count(row, 9)?,
                        subscribers: count(row, 10)?,
                        views: count(row, 11)?,
                        plays: count(row, 12)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
    }

    /// Every chart with positions, optionally of one platform.
    pub fn chart_keys(&self, chart_type: Option<&str>) -> Result<Vec<ChartKey>, DataError> {
        self.with_connection(|connection| {
            let mut statement = connection.prepare(
                r#"SELECT DISTINCT "chartType", "country", "category" FROM chart_positions
                   WHERE ?::VARCHAR IS NULL OR "chartType" = ?::VARCHAR
                   ORDER BY "chartType", "country", "category""#,
            )?;
            let rows = statement
                .query_map([chart_type, chart_type], |row| {
                    Ok(ChartKey {
                        chart_type: row.get(0)?,
                        country: row.get(1)?,
                        category: row.get(2)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
    }

    /// The days a chart has a snapshot, oldest first.
    pub fn chart_dates(&self, key: &ChartKey) -> Result<Vec<NaiveDate>, DataError> {
        self.with_connection(|connection| {
            let mut statement = connection.prepare(
                r#"SELECT DISTINCT "chartDate" FROM chart_positions
                   WHERE "chartType" = ? AND "country" = ? AND "category" = ? ORDER BY 1"#,
            )?;
            let rows = statement
                .query_map([&key.chart_type, &key.country, &key.category], |row| {
                    row.get(0)
                })?
                .collect::<Result<Vec<NaiveDate>, _>>()?;
            Ok(rows)
        })
    }

    /// A chart's positions from `start` to `end` (inclusive), by day then position.
    pub fn chart_positions(
        &self,
        key: &ChartKey,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<Vec<ChartPositionRow>, DataError> {
        self.with_connection(|connection| {
            query_chart_rows(
                connection,
                r#""chartType" = ? AND "country" = ? AND "category" = ? AND "chartDate" BETWEEN ? AND ?"#,
                &[
                    &key.chart_type,
                    &key.country,
                    &key.category,
                    &start,
                    &end,
                ],
            )
        })
    }

    /// Every position of one podcast (by catalog id) or one platform id, on any
    /// chart (optionally of one platform), from `start` to `end`.
    pub fn chart_positions_of(
        &self,
        podcast_id: Option<Uuid>,
        platform_id: Option<&str>,
        chart_type: Option<&str>,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<Vec<ChartPositionRow>, DataError> {
        let id = podcast_id.map(|id| id.to_string());
        self.with_connection(|connection| {
            query_chart_rows(
                connection,
                r#"(("podcastId" = ?::VARCHAR) OR ("podcastOnChartId" = ?::VARCHAR))
                   AND (?::VARCHAR IS NULL OR "chartType" = ?::VARCHAR)
                   AND "chartDate" BETWEEN ? AND ?"#,
                &[&id, &platform_id, &chart_type, &chart_type, &start, &end],
            )
        })
    }
}

/// What the search index carries from the enrichment for one podcast.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EnrichmentSignals {
    pub authority_score: Option<f64>,
    pub apple_rating: Option<f64>,
    pub apple_ratings_count: Option<u64>,
    pub spotify_rating: Option<f64>,
    pub spotify_ratings_count: Option<u64>,
    /// Countries of the charts the podcast is on, lower-case ISO codes.
    pub chart_countries: Vec<String>,
}

impl Snapshot {
    /// The enrichment of every podcast that has any, for the search index.
    pub fn enrichment_signals(&self) -> Result<HashMap<Uuid, EnrichmentSignals>, DataError> {
        self.with_connection(|connection| {
            let mut signals: HashMap<Uuid, EnrichmentSignals> = HashMap::new();
            let mut statement = connection
                .prepare(r#"SELECT "podcastId", "podcastAuthorityScore" FROM authority_scores"#)?;
            let scores = statement
                .query_map([], |row| Ok((uuid_at(row, 0)?, row.get::<_, f64>(1)?)))?
                .collect::<Result<Vec<_>, _>>()?;
            for (id, score) in scores {
                signals.entry(id).or_default().authority_score = Some(score);
            }
            let mut statement = connection.prepare(
                r#"SELECT "podcastId", "platform", "rating", "ratingsCount" FROM platform_lookups
                   WHERE "podcastId" IS NOT NULL AND "platform" IN ('apple', 'spotify')"#,
            )?;
            let ratings = statement
                .query_map([], |row| {
                    Ok((
                        uuid_at(row, 0)?,
                        row.get::<_, String>(1)?,
                        row.get::<_, Option<f64>>(2)?,
                        row.get::<_, Option<i64>>(3)?.map(to_u64),
                    ))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            for (id, platform, rating, count) in ratings {
                let entry = signals.entry(id).or_default();
                if platform == "apple" {
                    entry.apple_rating = rating;
                    entry.apple_ratings_count = count;
                } else {
                    entry.spotify_rating = rating;
                    entry.spotify_ratings_count = count;
                }
            }
            let mut statement = connection.prepare(
                r#"SELECT DISTINCT "podcastId", "country" FROM chart_positions
                   WHERE "podcastId" IS NOT NULL ORDER BY 1, 2"#,
            )?;
            let countries = statement
                .query_map([], |row| Ok((uuid_at(row, 0)?, row.get::<_, String>(1)?)))?
                .collect::<Result<Vec<_>, _>>()?;
            for (id, country) in countries {
                signals.entry(id).or_default().chart_countries.push(country);
            }
            Ok(signals)
        })
    }
}
