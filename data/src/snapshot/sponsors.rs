//! Sponsors of a podcast over a window of its episodes, and the sponsors and people
//! of each episode, from the `episode_sponsors` and `persons` snapshots.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::Serialize;
use uuid::Uuid;

use super::Snapshot;
use crate::DataError;
use crate::records::{optional_time_at, uuid_at};

/// Which episodes a sponsor summary covers: those published at or after `since`
/// when given, else the `latest` newest episodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SponsorWindow {
    Since(DateTime<Utc>),
    Latest(u64),
}

/// A sponsor of a podcast and the episodes of the window it was heard in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SponsorAppearance {
    /// The name as most recently written.
    pub name: String,
    /// `sponsor` when any episode reads it as a sponsorship, else `advertiser`.
    pub sponsor_type: String,
    pub url: Option<String>,
    pub appearances_count: u64,
    pub most_recent_appearance_date: Option<DateTime<Utc>>,
    pub oldest_appearance_date: Option<DateTime<Utc>>,
}

/// The sponsors of a podcast over a window of its episodes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SponsorsSummary {
    pub episodes_count: u64,
    pub episodes_with_sponsors_count: u64,
    pub most_recent_episode_date: Option<DateTime<Utc>>,
    pub oldest_episode_date: Option<DateTime<Utc>>,
    pub sponsors: Vec<SponsorAppearance>,
}

/// A person named in one episode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpisodePersonRow {
    pub episode_id: Uuid,
    pub name: String,
    pub person_type: String,
    pub image_url: Option<String>,
}

const WINDOW_SQL: &str = r#"
WITH window_episodes AS (
    SELECT "episodeId", "episodeRssPublishedAt" AS published
    FROM episodes
    WHERE "podcastId" = $1
      AND ($2::BIGINT IS NULL OR "episodeRssPublishedAt" >= make_timestamptz($2::BIGINT))
    ORDER BY "episodeRssPublishedAt" DESC NULLS LAST, "episodeId"
    LIMIT $3
),
mentions AS (
    SELECT s."name", s."sponsorType", s."url", e."episodeId", e.published
    FROM episode_sponsors s JOIN window_episodes e ON e."episodeId" = s."episodeId"
    WHERE s."podcastId" = $1
)
"#;

impl Snapshot {
    /// The sponsors of a podcast over `window`, most appearances first.
    pub fn podcast_sponsors(
        &self,
        podcast_id: Uuid,
        window: SponsorWindow,
    ) -> Result<SponsorsSummary, DataError> {
        let id = podcast_id.to_string();
        let (since, latest) = match window {
            SponsorWindow::Since(since) => (Some(since.timestamp_micros()), i64::MAX),
            SponsorWindow::Latest(count) => (None, i64::try_from(count).unwrap_or(i64::MAX)),
        };
        self.with_connection(|connection| {
            let (episodes_count, newest, oldest, with_sponsors) = connection.query_row(
                &format!(
                    r#"{WINDOW_SQL}
                    SELECT (SELECT count(*) FROM window_episodes),
                           (SELECT epoch_us(max(published)) FROM window_episodes),
                           (SELECT epoch_us(min(published)) FROM window_episodes),
                           (SELECT count(DISTINCT "episodeId") FROM mentions)"#
                ),
                duckdb::params![id, since, latest],
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
                r#"{WINDOW_SQL}
                SELECT arg_max("name", coalesce(epoch_us(published), 0)),
                       CASE WHEN bool_or("sponsorType" = 'sponsor') THEN 'sponsor'
                            ELSE min("sponsorType") END,
                       arg_max("url", coalesce(epoch_us(published), 0)),
                       count(DISTINCT "episodeId") AS appearances,
                       epoch_us(max(published)) AS newest, epoch_us(min(published))
                FROM mentions
                GROUP BY lower("name")
                ORDER BY appearances DESC, newest DESC NULLS LAST, lower("name")"#
            ))?;
            let sponsors = statement
                .query_map(duckdb::params![id, since, latest], |row| {
                    Ok(SponsorAppearance {
                        name: row.get(0)?,
                        sponsor_type: row.get(1)?,
                        url: row.get(2)?,
                        appearances_count: row.get::<_, i64>(3)?.unsigned_abs(),
                        most_recent_appearance_date: optional_time_at(row, 4)?,
                        oldest_appearance_date: optional_time_at(row, 5)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(SponsorsSummary {
                episodes_count: episodes_count.unsigned_abs(),
                episodes_with_sponsors_count: with_sponsors.unsigned_abs(),
                most_recent_episode_date: newest,
                oldest_episode_date: oldest,
                sponsors,
            })
        })
    }

    /// The sponsor names of each episode of a podcast, in the order found.
    pub fn episode_sponsor_names(
        &self,
        podcast_id: Uuid,
    ) -> Result<HashMap<Uuid, Vec<String>>, DataError> {
        let id = podcast_id.to_string();
        self.with_connection(|connection| {
            let mut statement = connection.prepare(
                r#"SELECT "episodeId", "name" FROM episode_sponsors
                   WHERE "podcastId" = ? ORDER BY "episodeId", "name""#,
            )?;
            let mut names: HashMap<Uuid, Vec<String>> = HashMap::new();
            let rows = statement.query_map([&id], |row| Ok((uuid_at(row, 0)?, row.get(1)?)))?;
            for row in rows {
                let (episode_id, name): (Uuid, String) = row?;
                names.entry(episode_id).or_default().push(name);
            }
            Ok(names)
        })
    }

    /// The people named in each episode of a podcast (episode-level `podcast:person`).
    pub fn episode_people(&self, podcast_id: Uuid) -> Result<Vec<EpisodePersonRow>, DataError> {
        let id = podcast_id.to_string();
        self.with_connection(|connection| {
            let mut statement = connection.prepare(
                r#"SELECT "episodeId", min("name"), lower(min("personType")), max("imageUrl")
                   FROM persons WHERE "podcastId" = ? AND "episodeId" IS NOT NULL
                   GROUP BY "episodeId", lower(trim("name")), lower("personType")
                   ORDER BY "episodeId", lower(min("personType")) DESC, min("name")"#,
            )?;
            let rows = statement
                .query_map([&id], |row| {
                    Ok(EpisodePersonRow {
                        episode_id: uuid_at(row, 0)?,
                        name: row.get(1)?,
                        person_type: row.get(2)?,
                        image_url: row.get(3)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
    }
}
