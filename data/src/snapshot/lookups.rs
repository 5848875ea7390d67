//! Podcast, episode and transcript lookups over the snapshot views.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use duckdb::{Connection, ToSql};
use podlens_model::catalog::{EpisodeRecord, PodcastRecord, TranscriptRecord};
use serde::Serialize;
use uuid::Uuid;

use super::Snapshot;
use crate::DataError;
use crate::records::{EPISODE_COLUMNS, PODCAST_COLUMNS, episode_from_row, podcast_from_row};

/// Most episodes one page of a podcast's episodes may hold.
pub const MAX_EPISODES_PAGE: u64 = 100;
/// How many episodes "latest episodes" returns at most.
pub const MAX_LATEST_EPISODES: u64 = 150;
/// Podcasts per directory page when the caller gives no limit.
pub const DEFAULT_DIRECTORY_LIMIT: u64 = 100;
/// Most podcasts one directory page may hold.
pub const MAX_DIRECTORY_LIMIT: u64 = 1000;

/// Which episodes of a podcast to list: newest first, `skip` then at most `limit`
/// (capped at [`MAX_EPISODES_PAGE`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpisodesQuery {
    pub has_transcript: Option<bool>,
    pub skip: u64,
    pub limit: u64,
}

impl Default for EpisodesQuery {
    fn default() -> Self {
        Self {
            has_transcript: None,
            skip: 0,
            limit: MAX_EPISODES_PAGE,
        }
    }
}

/// A page of a podcast's episodes with the podcast's totals.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EpisodePage {
    /// Every stored episode of the podcast.
    pub total_episodes: u64,
    /// Stored episodes with a transcript.
    pub total_transcripts: u64,
    /// Episodes matching the query's filter (before `skip`/`limit`).
    pub total_matching: u64,
    pub episodes: Vec<EpisodeRecord>,
}

/// Filters of "latest episodes". `categories` match a podcast's feed categories or
/// genres (case-insensitive); `language` matches the feed language or its region
/// variants (`en` matches `en-us`); `None` means any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LatestEpisodesQuery {
    pub categories: Vec<String>,
    pub podcast_image_required: bool,
    pub has_transcript: Option<bool>,
    pub language: Option<String>,
    pub exclude_explicit: bool,
    /// At most [`MAX_LATEST_EPISODES`].
    pub limit: u64,
    /// Episodes published after this moment are not "latest" yet (scheduled items).
    pub now: DateTime<Utc>,
}

impl Default for LatestEpisodesQuery {
    fn default() -> Self {
        Self {
            categories: Vec::new(),
            podcast_image_required: false,
            has_transcript: None,
            language: Some("en".to_owned()),
            exclude_explicit: false,
            limit: MAX_LATEST_EPISODES,
            now: Utc::now(),
        }
    }
}

/// A podcast with some of its episodes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastEpisodes {
    pub podcast: PodcastRecord,
    pub episodes: Vec<EpisodeRecord>,
}

/// Podcasts whose title starts with `letter` (`a`–`z`, accents ignored; `#` for
/// everything else), by title. Blocked podcasts are not listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirectoryQuery {
    pub letter: String,
    pub skip: u64,
    /// Defaults to [`DEFAULT_DIRECTORY_LIMIT`], at most [`MAX_DIRECTORY_LIMIT`].
    pub limit: Option<u64>,
}

/// One page of the directory.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DirectoryPage {
    pub letter: String,
    pub total: u64,
    pub skip: u64,
    pub limit: u64,
    pub podcasts: Vec<PodcastRecord>,
}

fn to_i64(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

fn json_text_list(values: &[String]) -> String {
    serde_json::to_string(values).unwrap_or_else(|_| "[]".to_owned())
}

fn query_podcasts(
    connection: &Connection,
    condition: &str,
    params: &[&dyn ToSql],
) -> Result<Vec<PodcastRecord>, DataError> {
    let mut statement = connection.prepare(&format!(
        "SELECT {PODCAST_COLUMNS} FROM podcasts WHERE {condition}"
    ))?;
    let podcasts = statement
        .query_map(params, podcast_from_row)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(podcasts)
}

fn query_episodes(
    connection: &Connection,
    tail: &str,
    params: &[&dyn ToSql],
) -> Result<Vec<EpisodeRecord>, DataError> {
    let mut statement =
        connection.prepare(&format!("SELECT {EPISODE_COLUMNS} FROM episodes {tail}"))?;
    let episodes = statement
        .query_map(params, episode_from_row)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(episodes)
}

impl Snapshot {
    pub fn podcast_by_id(&self, podcast_id: Uuid) -> Result<Option<PodcastRecord>, DataError> {
        Ok(self.points().podcast_by_id(podcast_id))
    }

    pub fn podcast_by_slug(&self, slug: &str) -> Result<Option<PodcastRecord>, DataError> {
        Ok(self.points().podcast_by_slug(slug))
    }

    pub fn podcast_by_apple_id(&self, apple_id: &str) -> Result<Option<PodcastRecord>, DataError> {
        Ok(self.points().podcast_by_apple_id(apple_id.trim()))
    }

    pub fn podcast_by_spotify_id(
        &self,
        spotify_id: &str,
    ) -> Result<Option<PodcastRecord>, DataError> {
        Ok(self.points().podcast_by_spotify_id(spotify_id.trim()))
    }

    /// A podcast by id (UUID text) or else by slug, as `{podcastIdOrSlug}` paths need.
    pub fn podcast_by_id_or_slug(
        &self,
        id_or_slug: &str,
    ) -> Result<Option<PodcastRecord>, DataError> {
        match Uuid::parse_str(id_or_slug.trim()) {
            Ok(id) => match self.podcast_by_id(id)? {
                Some(podcast) => Ok(Some(podcast)),
                None => self.podcast_by_slug(id_or_slug),
            },
            Err(_) => self.podcast_by_slug(id_or_slug),
        }
    }

    /// A podcast by feed URL: exactly as stored, else ignoring scheme, case and a
    /// trailing slash.
    pub fn podcast_by_feed_url(&self, feed_url: &str) -> Result<Option<PodcastRecord>, DataError> {
        Ok(self.points().podcast_by_feed_url(feed_url.trim()))
    }

    /// The podcasts and authority scores of the current relations, to read in place.
    pub fn podcasts_view(&self) -> super::points::PodcastsView {
        super::points::PodcastsView(self.points())
    }

    /// The catalog's languages and genres with their podcast counts, for the search
    /// form's pick-lists (computed when the snapshot is loaded).
    pub fn search_facets(&self) -> super::points::SearchFacets {
        self.points().search_facets()
    }

    /// The podcasts among `ids` that exist, in the order of `ids` (duplicates once).
    pub fn podcasts_by_ids(&self, ids: &[Uuid]) -> Result<Vec<PodcastRecord>, DataError> {
        Ok(self.points().podcasts_by_ids(ids))
    }

    /// One page of a podcast's episodes, newest first.
    pub fn podcast_episodes(
        &self,
        podcast_id: Uuid,
        query: &EpisodesQuery,
    ) -> Result<EpisodePage, DataError> {
        let id = podcast_id.to_string();
        let limit = to_i64(query.limit.min(MAX_EPISODES_PAGE));
        let skip = to_i64(query.skip);
        let filter = match query.has_transcript {
            Some(true) => r#"AND "episodeHasTranscript""#,
            Some(false) => r#"AND NOT "episodeHasTranscript""#,
            None => "",
        };
        self.with_connection(|connection| {
            let (total_episodes, total_transcripts, total_matching): (i64, i64, i64) = connection
                .query_row(
                &format!(
                    r#"SELECT count(*), count(*) FILTER (WHERE "episodeHasTranscript"),
                                  count(*) FILTER (WHERE true {filter})
                           FROM episodes WHERE "podcastId" = ?"#
                ),
                [&id],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
            )?;
            let episodes = query_episodes(
                connection,
                &format!(
                    r#"WHERE "podcastId" = ? {filter}
                       ORDER BY "episodeRssPublishedAt" DESC NULLS LAST, "episodeId"
                       LIMIT ? OFFSET ?"#
                ),
                &[&id, &limit, &skip],
            )?;
            Ok(EpisodePage {
                total_episodes: total_episodes.unsigned_abs(),
                total_transcripts: total_transcripts.unsigned_abs(),
                total_matching: total_matching.unsigned_abs(),
                episodes,
            })
        })
    }

    /// How many of a podcast's episodes (still in its feed) link a transcript the
    /// catalog does not hold.
    pub fn transcripts_unavailable(&self, podcast_id: Uuid) -> Result<u64, DataError> {
        Ok(self.points().transcripts_unavailable(podcast_id))
    }

    /// A podcast's newest `limit` episodes (any number, unlike a page), newest first.
    pub fn podcast_episodes_newest(
        &self,
        podcast_id: Uuid,
        limit: u64,
    ) -> Result<Vec<EpisodeRecord>, DataError> {
        let id = podcast_id.to_string();
        let limit = to_i64(limit);
        self.with_connection(|connection| {
            query_episodes(
                connection,
                r#"WHERE "podcastId" = ?
                   ORDER BY "episodeRssPublishedAt" DESC NULLS LAST, "episodeId" LIMIT ?"#,
                &[&id, &limit],
            )
        })
    }

    /// The publication dates of a podcast's episodes (those that have one).
    pub fn episode_dates(&self, podcast_id: Uuid) -> Result<Vec<DateTime<Utc>>, DataError> {
        let id = podcast_id.to_string();
        self.with_connection(|connection| {
            let mut statement = connection.prepare(
                r#"SELECT epoch_us("episodeRssPublishedAt") FROM episodes
                   WHERE "podcastId" = ? AND "episodeRssPublishedAt" IS NOT NULL"#,
            )?;
            let dates = statement
                .query_map([&id], |row| crate::records::time_at(row, 0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(dates)
        })
    }

    pub fn episode_by_id(&self, episode_id: Uuid) -> Result<Option<EpisodeRecord>, DataError> {
        let id = episode_id.to_string();
        self.with_connection(|connection| {
            let mut episodes =
                query_episodes(connection, r#"WHERE "episodeId" = ? LIMIT 1"#, &[&id])?;
            Ok(episodes.pop())
        })
    }

    /// The newest episodes matching `query` (at most [`MAX_LATEST_EPISODES`]), grouped
    /// by podcast; podcasts come in the order of their newest listed episode.
    pub fn latest_episodes(
        &self,
        query: &LatestEpisodesQuery,
    ) -> Result<Vec<PodcastEpisodes>, DataError> {
        let mut podcast_conditions = vec!["true".to_owned()];
        let mut params: Vec<Box<dyn ToSql>> = Vec::new();
        if query.podcast_image_required {
            podcast_conditions.push(r#"coalesce(trim("podcastImageUrl"), '') <> ''"#.to_owned());
        }
        if let Some(language) = query
            .language
            .as_deref()
            .map(str::trim)
            .filter(|l| !l.is_empty())
        {
            podcast_conditions.push(
                r#"(lower("rssLanguage") = ? OR starts_with(lower("rssLanguage"), ? || '-'))"#
                    .to_owned(),
            );
            params.push(Box::new(language.to_lowercase()));
            params.push(Box::new(language.to_lowercase()));
        }
        let categories: Vec<String> = query
            .categories
            .iter()
            .map(|category| category.trim().to_lowercase())
            .filter(|category| !category.is_empty())
            .collect();
        if !categories.is_empty() {
            podcast_conditions.push(
                r#"list_has_any(list_transform(list_concat("rssCategories", "podcastPodlensGenres"), c -> lower(c)),
                                CAST(?::JSON AS VARCHAR[]))"#
                    .to_owned(),
            );
            params.push(Box::new(json_text_list(&categories)));
        }
        if query.exclude_explicit {
            podcast_conditions.push(r#"NOT "explicitRss""#.to_owned());
        }
        let mut episode_conditions = vec![
            r#""episodeRssPublishedAt" IS NOT NULL"#.to_owned(),
            r#""episodeRssPublishedAt" <= make_timestamptz(?)"#.to_owned(),
        ];
        params.push(Box::new(query.now.timestamp_micros()));
        match query.has_transcript {
            Some(true) => episode_conditions.push(r#""episodeHasTranscript""#.to_owned()),
            Some(false) => episode_conditions.push(r#"NOT "episodeHasTranscript""#.to_owned()),
            None => {}
        }
        if query.exclude_explicit {
            episode_conditions.push(r#"NOT coalesce("episodeExplicit", false)"#.to_owned());
        }
        params.push(Box::new(to_i64(query.limit.min(MAX_LATEST_EPISODES))));
        let tail = format!(
            r#"WHERE "podcastId" IN (SELECT "podcastId" FROM podcasts WHERE {})
                 AND {}
               ORDER BY "episodeRssPublishedAt" DESC, "episodeId"
               LIMIT ?"#,
            podcast_conditions.join(" AND "),
            episode_conditions.join(" AND ")
        );
        let episodes = self.with_connection(|connection| {
            let params: Vec<&dyn ToSql> = params.iter().map(|param| param.as_ref()).collect();
            query_episodes(connection, &tail, &params)
        })?;
        self.group_by_podcast(episodes)
    }

    fn group_by_podcast(
        &self,
        episodes: Vec<EpisodeRecord>,
    ) -> Result<Vec<PodcastEpisodes>, DataError> {
        let mut order: Vec<Uuid> = Vec::new();
        let mut grouped: HashMap<Uuid, Vec<EpisodeRecord>> = HashMap::new();
        for episode in episodes {
            let entry = grouped.entry(episode.podcast_id).or_default();
            if entry.is_empty() {
                order.push(episode.podcast_id);
            }
            entry.push(episode);
        }
        let podcasts = self.podcasts_by_ids(&order)?;
        Ok(podcasts
            .into_iter()
            .map(|podcast| PodcastEpisodes {
                episodes: grouped.remove(&podcast.podcast_id).unwrap_or_default(),
                podcast,
            })
            .collect())
    }

    /// Podcasts by their latest episode, newest first; `has_transcripts` keeps only
    /// podcasts with (or without) transcripts.
    pub fn latest_podcasts(
        &self,
        has_transcripts: Option<bool>,
        limit: u64,
    ) -> Result<Vec<PodcastRecord>, DataError> {
        let filter = match has_transcripts {
            Some(true) => r#""totalTranscripts" > 0"#,
            Some(false) => r#""totalTranscripts" = 0"#,
            None => "true",
        };
        let limit = to_i64(limit.min(MAX_DIRECTORY_LIMIT));
        self.with_connection(|connection| {
            query_podcasts(
                connection,
                &format!(
                    r#"{filter} AND "lastEpisodeDate" IS NOT NULL AND NOT "podcastBlocked"
                       ORDER BY "lastEpisodeDate" DESC, "podcastId" LIMIT ?"#
                ),
                &[&limit],
            )
        })
    }

    /// The transcript of an episode with its segments in order (the one the episode
    /// points to when it has several).
    pub fn transcript_by_episode(
        &self,
        episode_id: Uuid,
    ) -> Result<Option<TranscriptRecord>, DataError> {
        self.with_connection(|connection| {
            crate::records::transcript_of_episode(connection, episode_id)
        })
    }

    /// One page of the podcast directory.
    pub fn directory(&self, query: &DirectoryQuery) -> Result<DirectoryPage, DataError> {
        let letter = query.letter.trim().to_lowercase();
        let first_letter = r#"lower(strip_accents(left(ltrim(regexp_replace("podcastRssTitle", '^[^\pL\pN]+', '')), 1)))"#;
        let is_letter = letter.len() == 1 && letter.chars().all(|c| c.is_ascii_lowercase());
        let condition = if is_letter {
            format!("{first_letter} = ?")
        } else if letter == "#" || letter == "0-9" {
            format!("NOT regexp_matches({first_letter}, '^[a-z]') AND ? IS NOT NULL")
        } else {
            return Err(DataError::InvalidArgument(format!(
                "directory letter must be a-z or #, got {:?}",
                query.letter
            )));
        };
        let limit = query
            .limit
            .unwrap_or(DEFAULT_DIRECTORY_LIMIT)
            .clamp(1, MAX_DIRECTORY_LIMIT);
        let condition = format!(r#"NOT "podcastBlocked" AND {condition}"#);
        self.with_connection(|connection| {
            let total: i64 = connection.query_row(
                &format!("SELECT count(*) FROM podcasts WHERE {condition}"),
                [&letter],
                |row| row.get(0),
            )?;
            let podcasts = query_podcasts(
                connection,
                &format!(
                    r#"{condition} ORDER BY lower("podcastRssTitle"), "podcastId" LIMIT ? OFFSET ?"#
                ),
                &[&letter, &to_i64(limit), &to_i64(query.skip)],
            )?;
            Ok(DirectoryPage {
                letter: letter.clone(),
                total: total.unsigned_abs(),
                skip: query.skip,
                limit,
                podcasts,
            })
        })
    }
}
