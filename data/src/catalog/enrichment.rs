//! Enrichment tables: website crawl results with the contacts and socials they
//! found, authority scores, review and follower lookups, and chart positions with
//! their movements, sponsors named in show notes. Written by `podlens crawl` and
//! `podlens score`; every table is
//! created on first use and every write is an idempotent replace of its keys.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use duckdb::{Connection, params};
use podlens_model::entities::{AuthorityScoreDetails, WebsiteCrawlResult};
use uuid::Uuid;

use super::Catalog;
use crate::DataError;
use crate::records::uuid_at;

pub(crate) const ENRICHMENT_TABLES: &str = r#"
CREATE TABLE IF NOT EXISTS website_crawls (
    "podcastId" UUID PRIMARY KEY,
    "baseUrl" VARCHAR NOT NULL,
    "crawledAt" TIMESTAMPTZ NOT NULL,
    "pagesCrawled" BIGINT NOT NULL,
    "errors" BIGINT NOT NULL,
    "result" VARCHAR NOT NULL
);
CREATE TABLE IF NOT EXISTS podcast_contacts (
    "podcastId" UUID NOT NULL,
    "contactType" VARCHAR NOT NULL,
    "value" VARCHAR NOT NULL,
    "source" VARCHAR NOT NULL,
    "pageUrl" VARCHAR,
    PRIMARY KEY ("podcastId", "contactType", "value", "source")
);
CREATE TABLE IF NOT EXISTS podcast_social_links (
    "podcastId" UUID NOT NULL,
    "socialMediaType" VARCHAR NOT NULL,
    "url" VARCHAR NOT NULL,
    "source" VARCHAR NOT NULL,
    "occurrences" BIGINT NOT NULL,
    PRIMARY KEY ("podcastId", "url", "source")
);
CREATE TABLE IF NOT EXISTS authority_scores (
    "podcastId" UUID PRIMARY KEY,
    "podcastAuthorityScore" DOUBLE NOT NULL,
    "qualityScore" DOUBLE NOT NULL,
    "qualityWeight" DOUBLE NOT NULL,
    "socialScore" DOUBLE NOT NULL,
    "socialWeight" DOUBLE NOT NULL,
    "youtubeScore" DOUBLE NOT NULL,
    "youtubeWeight" DOUBLE NOT NULL,
    "engagementScore" DOUBLE NOT NULL,
    "engagementWeight" DOUBLE NOT NULL,
    "coverage" DOUBLE NOT NULL,
    "details" VARCHAR NOT NULL,
    "calculatedAt" TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS platform_lookups (
    "platform" VARCHAR NOT NULL,
    "lookupKey" VARCHAR NOT NULL,
    "podcastId" UUID,
    "rating" DOUBLE,
    "ratingsCount" BIGINT,
    "wilsonScore" DOUBLE,
    "followers" BIGINT,
    "following" BIGINT,
    "posts" BIGINT,
    "likes" BIGINT,
    "subscribers" BIGINT,
    "views" BIGINT,
    "plays" BIGINT,
    PRIMARY KEY ("platform", "lookupKey")
);
CREATE TABLE IF NOT EXISTS chart_positions (
    "chartType" VARCHAR NOT NULL,
    "frequency" VARCHAR NOT NULL,
    "country" VARCHAR NOT NULL,
    "category" VARCHAR NOT NULL,
    "chartDate" DATE NOT NULL,
    "capturedAt" TIMESTAMP NOT NULL,
    "position" INTEGER NOT NULL,
    "podcastOnChartId" VARCHAR NOT NULL,
    "podcastId" UUID,
    "title" VARCHAR NOT NULL,
    "creator" VARCHAR,
    "imageUrl" VARCHAR,
    "feedUrl" VARCHAR,
    "previousPosition" INTEGER,
    "positionChange" INTEGER,
    "movement" VARCHAR NOT NULL,
    "daysInChart" INTEGER NOT NULL,
    "streak" INTEGER NOT NULL,
    PRIMARY KEY ("chartType", "frequency", "country", "category", "capturedAt", "position")
);
CREATE TABLE IF NOT EXISTS episode_sponsors (
    "podcastId" UUID NOT NULL,
    "episodeId" UUID NOT NULL,
    "name" VARCHAR NOT NULL,
    "sponsorType" VARCHAR NOT NULL,
    "url" VARCHAR,
    "couponCode" VARCHAR,
    "snippet" VARCHAR NOT NULL
);
"#;

/// One platform lookup (ratings, followers) as stored.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlatformLookupRow {
    pub platform: String,
    pub lookup_key: String,
    pub podcast_id: Option<Uuid>,
    pub rating: Option<f64>,
    pub ratings_count: Option<u64>,
    pub wilson_score: Option<f64>,
    pub followers: Option<u64>,
    pub following: Option<u64>,
    pub posts: Option<u64>,
    pub likes: Option<u64>,
    pub subscribers: Option<u64>,
    pub views: Option<u64>,
    pub plays: Option<u64>,
}

/// One chart position with its movement, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChartPositionRow {
    pub chart_type: String,
    pub frequency: String,
    pub country: String,
    pub category: String,
    pub chart_date: NaiveDate,
    pub captured_at: NaiveDateTime,
    pub position: u32,
    pub podcast_on_chart_id: String,
    pub podcast_id: Option<Uuid>,
    pub title: String,
    pub creator: Option<String>,
    pub image_url: Option<String>,
    pub feed_url: Option<String>,
    pub previous_position: Option<u32>,
    pub position_change: Option<i32>,
    pub movement: String,
    pub days_in_chart: u32,
    pub streak: u32,
}

/// A podcast's website and the ids a chart or lookup may name it by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodcastLinks {
    pub podcast_id: Uuid,
    pub feed_url: String,
    pub website_url: Option<String>,
    pub location: Option<String>,
    pub apple_id: Option<String>,
    pub spotify_id: Option<String>,
}

pub(crate) fn ensure_tables(connection: &Connection) -> Result<(), DataError> {
    connection.execute_batch(ENRICHMENT_TABLES)?;
    Ok(())
}

fn to_i64(value: Option<u64>) -> Option<i64> {
    value.map(|v| i64::try_from(v).unwrap_or(i64::MAX))
}

impl Catalog {
    /// Every podcast's website, location and directory ids.
    pub fn podcast_links(&self) -> Result<Vec<PodcastLinks>, DataError> {
        let mut statement = self.connection.prepare(
            r#"SELECT "podcastId"::VARCHAR, "podcastRssFeedUrl", "podcastWebsiteUrl", "podcastLocation", "appleId", "spotifyId"
               FROM podcasts ORDER BY "podcastId""#,
        )?;
        let rows = statement.query_map([], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, Option<String>>(2)?,
                row.get::<_, Option<String>>(3)?,
                row.get::<_, Option<String>>(4)?,
                row.get::<_, Option<String>>(5)?,
            ))
        })?;
        let mut links = Vec::new();
        for row in rows {
            let (id, feed_url, website_url, location, apple_id, spotify_id) = row?;
            let podcast_id = Uuid::parse_str(&id).map_err(|error| DataError::InvalidValue {
                column: "podcastId".into(),
                message: error.to_string(),
            })?;
            links.push(PodcastLinks {
                podcast_id,
                feed_url,
                website_url,
                location,
                apple_id,
                spotify_id,
            });
        }
        Ok(links)
    }

    /// Stores a podcast's latest crawl and merges its emails, phones and socials
    /// into the podcast's contacts and social links with source `website`.
    pub fn store_crawl_result(
        &mut self,
        podcast_id: Uuid,
        result: &WebsiteCrawlResult,
        crawled_at: DateTime<Utc>,
    ) -> Result<(), DataError> {
        ensure_tables(&self.connection)?;
        let json = serde_json::to_string(result)
            .map_err(|error| DataError::InvalidArgument(error.to_string()))?;
        let transaction = self.connection.transaction()?;
        let id = podcast_id.to_string();
        transaction.execute(
            r#"INSERT OR REPLACE INTO website_crawls VALUES (?::UUID, ?, ?, ?, ?, ?)"#,
            params![
                id,
                result.stats.base_url,
                crawled_at,
                to_i64(Some(result.stats.pages_crawled)),
                to_i64(Some(result.stats.errors)),
                json
            ],
        )?;
        transaction.execute(
            r#"DELETE FROM podcast_contacts WHERE "podcastId" = ?::UUID AND "source" = 'website'"#,
            [&id],
        )?;
        transaction.execute(
            r#"DELETE FROM podcast_social_links WHERE "podcastId" = ?::UUID AND "source" = 'website'"#,
            [&id],
        )?;
        let page_of = |value: &str, emails: bool| {
            result
                .contact_pages
                .iter()
                .find(|page| {
                    if emails {
                        page.emails.iter().any(|e| e == value)
                    } else {
                        page.phones.iter().any(|p| p == value)
                    }
                })
                .map(|page| page.url.clone())
        };
        for (kind, values) in [("email", &result.emails), ("phone", &result.phone_numbers)] {
            for value in values {
                transaction.execute(
                    r#"INSERT OR REPLACE INTO podcast_contacts VALUES (?::UUID, ?, ?, 'website', ?)"#,
                    params![id, kind, value, page_of(value, kind == "email")],
                )?;
            }
        }
        for social in &result.socials {
            transaction.execute(
                r#"INSERT OR REPLACE INTO podcast_social_links VALUES (?::UUID, ?, ?, 'website', ?)"#,
                params![id, social.kind.as_str(), social.url, to_i64(Some(social.occurrences))],
            )?;
        }
        transaction.commit()?;
        Ok(())
    }

    /// The stored crawl result of a podcast.
    pub fn crawl_result(&self, podcast_id: Uuid) -> Result<Option<WebsiteCrawlResult>, DataError> {
        ensure_tables(&self.connection)?;
        let mut statement = self
            .connection
            .prepare(r#"SELECT "result" FROM website_crawls WHERE "podcastId" = ?::UUID"#)?;
        let mut rows = statement.query([podcast_id.to_string()])?;
        let Some(row) = rows.next()? else {
            return Ok(None);
        };
        let json: String = row.get(0)?;
        parse_crawl_result(&json).map(Some)
    }

    /// Every stored crawl result by podcast, in one query (for jobs that look at every
    /// podcast).
    pub fn crawl_results(&self) -> Result<HashMap<Uuid, WebsiteCrawlResult>, DataError> {
        ensure_tables(&self.connection)?;
        let mut statement = self
            .connection
            .prepare(r#"SELECT "podcastId"::VARCHAR, "result" FROM website_crawls"#)?;
        let mut rows = statement.query([])?;
        let mut results = HashMap::new();
        while let Some(row) = rows.next()? {
            let id = uuid_at(row, 0)?;
            let json: String = row.get(1)?;
            results.insert(id, parse_crawl_result(&json)?);
        }
        Ok(results)
    }

    /// Stores authority scores (replacing earlier ones of the same podcasts).
    pub fn store_scores(
        &mut self,
        scores: &[(AuthorityScoreDetails, f64)],
    ) -> Result<(), DataError> {
        ensure_tables(&self.connection)?;
        let transaction = self.connection.transaction()?;
        // Appended to a staging table and swapped in with two set statements: one
        // INSERT OR REPLACE per podcast costs a statement plan each (minutes at 50k).
        transaction.execute_batch(
            r#"CREATE TEMP TABLE IF NOT EXISTS stage_scores AS SELECT * FROM authority_scores LIMIT 0;
               DELETE FROM stage_scores;"#,
        )?;
        {
            let mut appender =
                transaction.appender_to_catalog_and_db("stage_scores", "temp", "main")?;
            // A podcast scored twice in one call keeps its last score.
            let mut seen = HashSet::new();
            for (details, coverage) in scores.iter().rev() {
                if !seen.insert(details.podcast_id.as_str()) {
                    continue;
                }
                let json = serde_json::to_string(details)
                    .map_err(|error| DataError::InvalidArgument(error.to_string()))?;
                let parts = details.sub_scores;
                appender.append_row(params![
                    details.podcast_id,
                    details.final_score,
                    parts.quality.score,
                    parts.quality.weight,
                    parts.social.score,
                    parts.social.weight,
                    parts.youtube.score,
                    parts.youtube.weight,
                    parts.engagement.score,
                    parts.engagement.weight,
                    coverage,
                    json,
                    details.calculated_at
                ])?;
            }
            appender.flush()?;
        }
        transaction.execute_batch(
            r#"DELETE FROM authority_scores WHERE "podcastId" IN (SELECT "podcastId" FROM stage_scores);
               INSERT INTO authority_scores SELECT * FROM stage_scores;
               DELETE FROM stage_scores;"#,
        )?;
        transaction.commit()?;
        Ok(())
    }

    /// The stored score details of a podcast.
    pub fn authority_score(
        &self,
        podcast_id: Uuid,
    ) -> Result<Option<AuthorityScoreDetails>, DataError> {
        ensure_tables(&self.connection)?;
        let mut statement = self
            .connection
            .prepare(r#"SELECT "details" FROM authority_scores WHERE "podcastId" = ?::UUID"#)?;
        let mut rows = statement.query([podcast_id.to_string()])?;
        let Some(row) = rows.next()? else {
            return Ok(None);
        };
        let json: String = row.get(0)?;
        serde_json::from_str(&json)
            .map(Some)
            .map_err(|error| DataError::InvalidValue {
                column: "details".into(),
                message: error.to_string(),
            })
    }

    /// Stores platform lookups (ratings, followers), replacing rows of the same keys.
    pub fn store_lookups(&mut self, rows: &[PlatformLookupRow]) -> Result<(), DataError> {
        ensure_tables(&self.connection)?;
        let transaction = self.connection.transaction()?;
        for row in rows {
            transaction.execute(
                r#"INSERT OR REPLACE INTO platform_lookups VALUES (?, ?, ?::UUID, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"#,
                params![
                    row.platform,
                    row.lookup_key,
                    row.podcast_id.map(|id| id.to_string()),
                    row.rating,
                    to_i64(row.ratings_count),
                    row.wilson_score,
                    to_i64(row.followers),
                    to_i64(row.following),
                    to_i64(row.posts),
                    to_i64(row.likes),
                    to_i64(row.subscribers),
                    to_i64(row.views),
                    to_i64(row.plays)
                ],
            )?;
        }
        transaction.commit()?;
        Ok(())
    }

    /// Replaces the stored chart positions with `rows` (movements are computed over
    /// whole series, so the import is complete each time).
    pub fn import_charts(&mut self, rows: &[ChartPositionRow]) -> Result<u64, DataError> {
        ensure_tables(&self.connection)?;
        let transaction = self.connection.transaction()?;
        transaction.execute("DELETE FROM chart_positions", [])?;
        {
            let mut appender = transaction.appender("chart_positions")?;
            for row in rows {
                appender.append_row(params![
                    row.chart_type,
                    row.frequency,
                    row.country,
                    row.category,
                    row.chart_date,
                    row.captured_at,
                    row.position,
                    row.podcast_on_chart_id,
                    row.podcast_id.map(|id| id.to_string()),
                    row.title,
                    row.creator,
                    row.image_url,
                    row.feed_url,
                    row.previous_position,
                    row.position_change,
                    row.movement,
                    row.days_in_chart,
                    row.streak
                ])?;
            }
            appender.flush()?;
        }
        transaction.commit()?;
        Ok(rows.len() as u64)
    }

    /// Counts of the enrichment tables: crawls, contacts, social links, scores,
    /// lookups, chart positions.
    pub fn enrichment_counts(&self) -> Result<[u64; 6], DataError> {
        ensure_tables(&self.connection)?;
        let mut counts = [0u64; 6];
        let tables = [
            "website_crawls",
            "podcast_contacts",
            "podcast_social_links",
            "authority_scores",
            "platform_lookups",
            "chart_positions",
        ];
        for (slot, table) in tables.iter().enumerate() {
            let count: i64 =
                self.connection
                    .query_row(&format!("SELECT count(*) FROM {table}"), [], |row| {
                        row.get(0)
                    })?;
            counts[slot] = u64::try_from(count).unwrap_or(0);
        }
        Ok(counts)
    }
}

fn parse_crawl_result(json: &str) -> Result<WebsiteCrawlResult, DataError> {
    serde_json::from_str(json).map_err(|error| DataError::InvalidValue {
        column: "result".into(),
        message: error.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use podlens_model::SocialKind;
    use podlens_model::entities::{
        AuthoritySubScores, CrawlContactPage, CrawlSocial, CrawlStats, WeightedScore,
    };

    #[test]
    fn crawl_results_scores_and_charts_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let mut catalog = Catalog::open(dir.path()).unwrap();
        let podcast_id = Uuid::from_u128(7);
        let result = WebsiteCrawlResult {
            emails: vec!["a@show.example".into()],
            phone_numbers: vec!["+12125550123".into()],
            contact_pages: vec![CrawlContactPage {
                url: "https://show.example/contact".into(),
                has_form: true,
                emails: vec!["a@show.example".into()],
                phones: vec![],
                title: Some("Contact".into()),
            }],
            socials: vec![CrawlSocial {
                kind: SocialKind::Twitter,
                url: "https://x.com/show".into(),
                occurrences: 2,
                pages: vec!["https://show.example/".into()],
            }],
            stats: CrawlStats {
                base_url: "https://show.example/".into(),
                pages_crawled: 2,
                ..CrawlStats::default()
            },
            ..WebsiteCrawlResult::default()
        };
        let now = Utc::now();
        catalog
            .store_crawl_result(podcast_id, &result, now)
            .unwrap();
        catalog
            .store_crawl_result(podcast_id, &result, now)
            .unwrap();
        assert_eq!(catalog.crawl_result(podcast_id).unwrap(), Some(result));
        let part = |score| WeightedScore {
            score,
            weight: 0.25,
        };
        let details = AuthorityScoreDetails {
            podcast_id: podcast_id.to_string(),
            calculated_at: now,
            final_score: 50.0,
            sub_scores: AuthoritySubScores {
                quality: part(20.0),
                social: part(40.0),
                youtube: part(60.0),
                engagement: part(80.0),
            },
            inputs: Default::default(),
        };
        catalog.store_scores(&[(details.clone(), 0.5)]).unwrap();
        let stored = catalog.authority_score(podcast_id).unwrap().unwrap();
        assert_eq!(stored.final_score, details.final_score);
        // A later run replaces the score; within one call the last score of a podcast wins.
        let rescored = |score: f64| AuthorityScoreDetails {
            final_score: score,
            ..details.clone()
        };
        catalog
            .store_scores(&[(rescored(61.0), 0.5), (rescored(62.0), 0.5)])
            .unwrap();
        let stored = catalog.authority_score(podcast_id).unwrap().unwrap();
        assert_eq!(stored.final_score, 62.0);
        assert_eq!(catalog.enrichment_counts().unwrap()[3], 1);
        let day = NaiveDate::from_ymd_opt(2026, 1, 2).unwrap();
        let row = ChartPositionRow {
            chart_type: "apple".into(),
            frequency: "daily".into(),
            country: "us".into(),
            category: "comedy".into(),
            chart_date: day,
            captured_at: day.and_hms_opt(0, 0, 0).unwrap(),
            position: 1,
            podcast_on_chart_id: "123".into(),
            podcast_id: Some(podcast_id),
            title: "Show".into(),
            creator: None,
            image_url: None,
            feed_url: None,
            previous_position: Some(3),
            position_change: Some(2),
            movement: "up".into(),
            days_in_chart: 2,
            streak: 2,
        };
        assert_eq!(
            catalog.import_charts(std::slice::from_ref(&row)).unwrap(),
            1
        );
        assert_eq!(catalog.import_charts(&[row]).unwrap(), 1);
        catalog
            .store_lookups(&[PlatformLookupRow {
                platform: "apple".into(),
                lookup_key: "123".into(),
                rating: Some(4.5),
                ..PlatformLookupRow::default()
            }])
            .unwrap();
        // crawls, contacts (email + phone), socials, scores, lookups, chart positions
        assert_eq!(catalog.enrichment_counts().unwrap(), [1, 2, 1, 1, 1, 1]);
    }
}
