//! Hosts and guests of a podcast with their appearances, from `podcast:person` tags.

use chrono::{DateTime, Utc};
use serde::Serialize;
use uuid::Uuid;

use super::Snapshot;
use crate::DataError;
use crate::records::optional_time_at;

/// Which persons to summarise: appearances in episodes published at or after `since`,
/// and only persons whose type or raw role is `role` (case-insensitive).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PersonsQuery {
    pub since: Option<DateTime<Utc>>,
    pub role: Option<String>,
}

/// A person of a podcast and how often they appear. A channel-level person (not tied
/// to an item) appears in every episode of the window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonAppearance {
    pub name: String,
    /// `host`, `guest` or `unknown`.
    #[serde(rename = "type")]
    pub person_type: String,
    pub image_url: Option<String>,
    pub href: Option<String>,
    pub appearances_count: u64,
    pub most_recent_appearance_date: Option<DateTime<Utc>>,
    pub oldest_appearance_date: Option<DateTime<Utc>>,
}

/// The persons of a podcast over a window of its episodes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonsSummary {
    pub episodes_count: u64,
    pub episodes_with_guests_count: u64,
    pub most_recent_episode_date: Option<DateTime<Utc>>,
    pub oldest_episode_date: Option<DateTime<Utc>>,
    pub persons: Vec<PersonAppearance>,
}

const APPEARANCES_SQL: &str = r#"
WITH window_episodes AS (
    SELECT "episodeId", "episodeRssPublishedAt" AS published
    FROM episodes
    WHERE "podcastId" = $1
      AND ($2::BIGINT IS NULL OR "episodeRssPublishedAt" >= make_timestamptz($2::BIGINT))
),
appearances AS (
    SELECT p."name", p."personType", p."role", p."imageUrl", p."href", e."episodeId", e.published
    FROM persons p JOIN window_episodes e ON e."episodeId" = p."episodeId"
    WHERE p."podcastId" = $1
    UNION ALL
    SELECT p."name", p."personType", p."role", p."imageUrl", p."href", e."episodeId", e.published
    FROM persons p CROSS JOIN window_episodes e
    WHERE p."podcastId" = $1 AND p."episodeId" IS NULL
)
"#;

impl Snapshot {
    /// Hosts and guests of a podcast, most appearances first.
    pub fn podcast_persons(
        &self,
        podcast_id: Uuid,
        query: &PersonsQuery,
    ) -> Result<PersonsSummary, DataError> {
        let id = podcast_id.to_string();
        let since = query.since.map(|since| since.timestamp_micros());
        let role = query
            .role
            .as_deref()
            .map(|role| role.trim().to_lowercase())
            .filter(|role| !role.is_empty());
        self.with_connection(|connection| {
            let (episodes_count, newest, oldest, with_guests) = connection.query_row(
                &format!(
                    r#"{APPEARANCES_SQL}
                    SELECT (SELECT count(*) FROM window_episodes),
                           (SELECT epoch_us(max(published)) FROM window_episodes),
                           (SELECT epoch_us(min(published)) FROM window_episodes),
                           (SELECT count(DISTINCT "episodeId") FROM appearances
                            WHERE lower("personType") = 'guest')"#
                ),
                duckdb::params![id, since],
                |row| {
                    Ok((
                        row.get::<_, i64>(0)?,
                        optional_time_at(row, 1)?,
                        optional_time_at(row, 2)?,
                        row.get::<_, i64>(3)?,
                    ))
                },
            )?;
            let mut statement = connection.prepare(&format!(
                r#"{APPEARANCES_SQL}
                SELECT min("name"), lower(min("personType")), max("imageUrl"), max("href"),
                       count(DISTINCT "episodeId") AS appearances,
                       epoch_us(max(published)) AS newest, epoch_us(min(published))
                FROM appearances
                WHERE $3::VARCHAR IS NULL OR lower("personType") = $3 OR lower("role") = $3
                GROUP BY lower(trim("name")), lower("personType")
                ORDER BY appearances DESC, newest DESC NULLS LAST, min("name")"#
            ))?;
            let persons = statement
                .query_map(duckdb::params![id, since, role], |row| {
                    Ok(PersonAppearance {
                        name: row.get(0)?,
                        person_type: row.get(1)?,
                        image_url: row.get(2)?,
                        href: row.get(3)?,
                        appearances_count: row.get::<_, i64>(4)?.unsigned_abs(),
                        most_recent_appearance_date: optional_time_at(row, 5)?,
                        oldest_appearance_date: optional_time_at(row, 6)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(PersonsSummary {
                episodes_count: episodes_count.unsigned_abs(),
                episodes_with_guests_count: with_guests.unsigned_abs(),
                most_recent_episode_date: newest,
                oldest_episode_date: oldest,
                persons,
            })
        })
    }
}
