//! The RSS public stats (`/api/v1/rss/stats/public/podcast2`), computed in SQL over the
//! `podcasts` and `episodes` relations of either the catalog or a snapshot: how often
//! each feed tag occurs at podcast and at episode level, which hosting providers serve
//! the most feeds, and which podcasts implement the most Podcasting 2.0 tags.
//!
//! A podcast's host is its hosting provider: the registrable domain of its feed URL
//! (`feeds.buzzsprout.com` → `buzzsprout.com`), or its `<generator>` when the feed URL
//! has no host.

use duckdb::Connection;
use serde::{Deserialize, Serialize};

use crate::DataError;

/// The response body of the RSS public stats.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RssPublicStats {
    pub podcast2_stats: Podcast2Stats,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Podcast2Stats {
    pub podcast_level_stats: LevelStats,
    pub episode_level_stats: LevelStats,
    pub top_podcast2_podcasts: Vec<TopPodcast2Podcast>,
    pub top_hosts: Vec<TopHost>,
    pub top_hosts_with_podcast2_transcripts: Vec<TopHostWithTranscripts>,
    pub top_hosts_with_podcast2_stats: Vec<TopHostWithPodcast2Stats>,
}

/// Tag frequencies at one level. `total_rss_feeds` counts the podcasts (podcast level)
/// or the episodes (episode level) the percentages are relative to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LevelStats {
    pub total_rss_feeds: u64,
    pub field_frequency: Vec<FieldFrequency>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldFrequency {
    pub field: String,
    pub frequency: u64,
    /// 0–100, two decimals.
    pub percentage: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopPodcast2Podcast {
    pub podcast_id: String,
    pub host: String,
    pub podcast_slug: String,
    pub podcast_image_url: Option<String>,
    pub rss_feed_url: String,
    pub num_podcast20_fields: u64,
    pub implemented_fields: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopHost {
    pub host: String,
    pub total_podcasts: u64,
    /// Share of all podcasts, 0–100.
    pub percentage: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopHostWithTranscripts {
    pub host: String,
    pub total_podcasts: u64,
    pub num_podcasts_with_transcripts: u64,
    /// Share of the host's podcasts with transcripts, 0–100.
    pub percentage: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopHostWithPodcast2Stats {
    pub host: String,
    pub total_podcasts: u64,
    pub average_num_podcast2_fields: f64,
}

/// Per-podcast facts: host, tags at podcast level, and the Podcasting 2.0 tags used
/// anywhere in the feed.
const PODCAST_FACTS_SQL: &str = r#"
CREATE OR REPLACE TEMP TABLE rss_stats_episode_tags AS
SELECT "podcastId"::VARCHAR AS podcast_id,
       list_distinct(list_concat(
           coalesce("episodeRssTags", []),
           CASE WHEN len("episodeTranscriptUrls") > 0 THEN ['podcast:transcript'] ELSE [] END,
           CASE WHEN "episodeChaptersUrl" IS NOT NULL THEN ['podcast:chapters'] ELSE [] END)) AS tags
FROM episodes;

CREATE OR REPLACE TEMP TABLE rss_stats_podcasts AS
WITH named AS (
    SELECT "podcastId"::VARCHAR AS podcast_id, "podcastSlug" AS slug, "podcastImageUrl" AS image_url,
           "podcastRssFeedUrl" AS feed_url, "rssGenerator" AS generator,
           list_distinct(coalesce("rssTags", [])) AS tags,
           regexp_extract(lower(trim("podcastRssFeedUrl")),
                          '^[a-z][a-z0-9+.-]*://(?:[^@/]*@)?([^/:?#]+)', 1) AS fqdn
    FROM podcasts
), split AS (
    SELECT *, string_split(rtrim(fqdn, '.'), '.') AS labels FROM named
), hosted AS (
    SELECT *,
        CASE
            WHEN fqdn = '' THEN coalesce(nullif(lower(trim(generator)), ''), 'unknown')
            WHEN regexp_matches(fqdn, '^[0-9.]+$') THEN fqdn
            WHEN len(labels) >= 3 AND len(labels[-1]) = 2
                 AND labels[-2] IN ('co', 'com', 'org', 'net', 'ac', 'gov', 'edu', 'ne', 'or')
                THEN array_to_string(labels[-3:], '.')
            WHEN len(labels) >= 2 THEN array_to_string(labels[-2:], '.')
            ELSE fqdn
        END AS host
    FROM split
), episode_fields AS (
    SELECT podcast_id, list(DISTINCT tag) AS tags
    FROM (SELECT podcast_id, unnest(tags) AS tag FROM rss_stats_episode_tags)
    GROUP BY podcast_id
)
SELECT h.podcast_id, h.slug, h.image_url, h.feed_url, h.host, h.tags,
       list_sort(list_distinct(list_filter(list_concat(h.tags, coalesce(e.tags, [])),
                                           t -> starts_with(t, 'podcast:')))) AS podcast2_fields
FROM hosted h LEFT JOIN episode_fields e ON e.podcast_id = h.podcast_id;
"#;

fn field_frequency(connection: &Connection, table: &str) -> Result<LevelStats, DataError> {
    let total: i64 = connection.query_row(&format!("SELECT count(*) FROM {table}"), [], |row| {
        row.get(0)
    })?;
    let mut statement = connection.prepare(&format!(
        "SELECT tag, count(*) AS frequency,
                round(100.0::DOUBLE * count(*) / (SELECT count(*) FROM {table}), 2)::DOUBLE
         FROM (SELECT unnest(tags) AS tag FROM {table})
         GROUP BY tag ORDER BY frequency DESC, tag"
    ))?;
    let field_frequency = statement
        .query_map([], |row| {
            Ok(FieldFrequency {
                field: row.get(0)?,
                frequency: row.get::<_, i64>(1)?.unsigned_abs(),
                percentage: row.get(2)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(LevelStats {
        total_rss_feeds: total.unsigned_abs(),
        field_frequency,
    })
}

/// Computes the stats; each top list holds at most `top` entries.
pub(crate) fn compute(connection: &Connection, top: u64) -> Result<RssPublicStats, DataError> {
    connection.execute_batch(PODCAST_FACTS_SQL)?;
    let result = compute_from_facts(connection, i64::try_from(top).unwrap_or(i64::MAX));
    connection.execute_batch(
        "DROP TABLE IF EXISTS rss_stats_podcasts; DROP TABLE IF EXISTS rss_stats_episode_tags;",
    )?;
    result
}

fn compute_from_facts(connection: &Connection, top: i64) -> Result<RssPublicStats, DataError> {
    let podcast_level_stats = field_frequency(connection, "rss_stats_podcasts")?;
    let episode_level_stats = field_frequency(connection, "rss_stats_episode_tags")?;

    let mut statement = connection.prepare(
        "SELECT podcast_id, host, slug, image_url, feed_url, len(podcast2_fields),
                to_json(podcast2_fields)::VARCHAR
         FROM rss_stats_podcasts WHERE len(podcast2_fields) > 0
         ORDER BY len(podcast2_fields) DESC, slug, podcast_id LIMIT ?",
    )?;
    let top_podcast2_podcasts = statement
        .query_map([top], |row| {
            Ok(TopPodcast2Podcast {
                podcast_id: row.get(0)?,
                host: row.get(1)?,
                podcast_slug: row.get(2)?,
                podcast_image_url: row.get(3)?,
                rss_feed_url: row.get(4)?,
                num_podcast20_fields: row.get::<_, i64>(5)?.unsigned_abs(),
                implemented_fields: crate::records::json_at(row, 6)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;

    let mut statement = connection.prepare(
        "SELECT host, count(*) AS total,
                round(100.0::DOUBLE * count(*) / (SELECT count(*) FROM rss_stats_podcasts), 2)::DOUBLE
         FROM rss_stats_podcasts GROUP BY host ORDER BY total DESC, host LIMIT ?",
    )?;
    let top_hosts = statement
        .query_map([top], |row| {
            Ok(TopHost {
                host: row.get(0)?,
                total_podcasts: row.get::<_, i64>(1)?.unsigned_abs(),
                percentage: row.get(2)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;

    let mut statement = connection.prepare(
        "SELECT host, count(*) AS total,
                count(*) FILTER (WHERE list_contains(podcast2_fields, 'podcast:transcript')) AS with_transcripts,
                round(100.0::DOUBLE * with_transcripts / count(*), 2)::DOUBLE
         FROM rss_stats_podcasts GROUP BY host HAVING with_transcripts > 0
         ORDER BY with_transcripts DESC, total DESC, host LIMIT ?",
    )?;
    let top_hosts_with_podcast2_transcripts = statement
        .query_map([top], |row| {
            Ok(TopHostWithTranscripts {
                host: row.get(0)?,
                total_podcasts: row.get::<_, i64>(1)?.unsigned_abs(),
                num_podcasts_with_transcripts: row.get::<_, i64>(2)?.unsigned_abs(),
                percentage: row.get(3)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;

    let mut statement = connection.prepare(
        "SELECT host, count(*) AS total, round(avg(len(podcast2_fields)), 2)::DOUBLE AS average
         FROM rss_stats_podcasts GROUP BY host
         ORDER BY total DESC, average DESC, host LIMIT ?",
    )?;
    let top_hosts_with_podcast2_stats = statement
        .query_map([top], |row| {
            Ok(TopHostWithPodcast2Stats {
                host: row.get(0)?,
                total_podcasts: row.get::<_, i64>(1)?.unsigned_abs(),
                average_num_podcast2_fields: row.get(2)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;

    Ok(RssPublicStats {
        podcast2_stats: Podcast2Stats {
            podcast_level_stats,
            episode_level_stats,
            top_podcast2_podcasts,
            top_hosts,
            top_hosts_with_podcast2_transcripts,
            top_hosts_with_podcast2_stats,
        },
    })
}
