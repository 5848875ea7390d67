//! Staging tables for bulk upserts. Records are appended (DuckDB's appender) into
//! temporary tables of plain types — ids as text, timestamps as epoch microseconds,
//! lists as JSON text — and moved into the catalog's tables with one typed
//! `INSERT OR REPLACE … SELECT` per table.

use chrono::{DateTime, Utc};
use duckdb::Connection;

use crate::DataError;

/// How a staged column is typed in the staging table and converted into the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Text,
    Uuid,
    Time,
    List,
    Links,
    Int,
    Bool,
    Double,
}

impl Kind {
    fn staging_type(self) -> &'static str {
        match self {
            Kind::Text | Kind::Uuid | Kind::List | Kind::Links => "VARCHAR",
            Kind::Time | Kind::Int => "BIGINT",
            Kind::Bool => "BOOLEAN",
            Kind::Double => "DOUBLE",
        }
    }

    /// The SQL turning the staged `column` of `alias` into the catalog's type.
    pub(crate) fn convert(self, alias: &str, column: &str) -> String {
        let source = format!("{alias}.\"{column}\"");
        match self {
            Kind::Text | Kind::Int | Kind::Bool | Kind::Double => source,
            Kind::Uuid => format!("CAST({source} AS UUID)"),
            Kind::Time => format!("make_timestamptz({source})"),
            Kind::List => format!("coalesce(CAST({source}::JSON AS VARCHAR[]), [])"),
            Kind::Links => format!(
                "coalesce(from_json({source}, '[{{\"url\":\"VARCHAR\",\"mimeType\":\"VARCHAR\",\"language\":\"VARCHAR\",\"rel\":\"VARCHAR\"}}]'), [])"
            ),
        }
    }
}

use Kind::{Bool, Double, Int, Links, List, Text, Time, Uuid};

pub(crate) const PODCAST_STAGE: &[(&str, Kind)] = &[
    ("podcastId", Uuid),
    ("podcastSlug", Text),
    ("podcastGuid", Text),
    ("podcastRssFeedUrl", Text),
    ("podcastRssTitle", Text),
    ("podcastRssAuthor", Text),
    ("podcastRssDescription", Text),
    ("podcastRssDescriptionNoHtml", Text),
    ("podcastWebsiteUrl", Text),
    ("podcastImageUrl", Text),
    ("rssLanguage", Text),
    ("rssCategories", List),
    ("podcastPodlensGenres", List),
    ("podcastKeywords", List),
    ("explicitRss", Bool),
    ("podcastOwnerName", Text),
    ("podcastOwnerEmail", Text),
    ("podcastHostNames", List),
    ("podcastHasGuests", Bool),
    ("podcastType", Text),
    ("podcastMedium", Text),
    ("podcastLocked", Bool),
    ("podcastBlocked", Bool),
    ("podcastComplete", Bool),
    ("podcastLocation", Text),
    ("podcastFundingUrls", List),
    ("podcastHasValue", Bool),
    ("appleId", Text),
    ("spotifyId", Text),
    ("foundedDate", Time),
    ("lastEpisodeDate", Time),
    ("totalEpisodes", Int),
    ("totalTranscripts", Int),
    ("updateFrequency", Text),
    ("rssGenerator", Text),
    ("rssTags", List),
    ("updatedAt", Time),
];

pub(crate) const EPISODE_STAGE: &[(&str, Kind)] = &[
    ("episodeId", Uuid),
    ("podcastId", Uuid),
    ("episodeSlug", Text),
    ("episodeGuid", Text),
    ("episodeRssTitle", Text),
    ("episodeRssDescription", Text),
    ("episodeRssDescriptionNoHtml", Text),
    ("episodeEnclosureUrl", Text),
    ("episodeEnclosureType", Text),
    ("episodeEnclosureLength", Int),
    ("episodeImageUrl", Text),
    ("episodeWebUrl", Text),
    ("episodeRssPublishedAt", Time),
    ("episodeDurationSeconds", Int),
    ("episodeSeason", Int),
    ("episodeNumber", Int),
    ("episodeType", Text),
    ("episodeExplicit", Bool),
    ("episodeKeywords", List),
    ("episodeTranscriptUrls", Links),
    ("episodeChaptersUrl", Text),
    ("episodeRssTags", List),
    ("episodeHasTranscript", Bool),
    ("transcriptId", Uuid),
    ("episodePodcastTitleDenormalized", Text),
    ("episodeCreatedAt", Time),
    ("episodeUpdatedAt", Time),
];

pub(crate) const PERSON_STAGE: &[(&str, Kind)] = &[
    ("podcastId", Uuid),
    ("episodeId", Uuid),
    ("name", Text),
    ("personType", Text),
    ("role", Text),
    ("group", Text),
    ("imageUrl", Text),
    ("href", Text),
];

pub(crate) const SEGMENT_STAGE: &[(&str, Kind)] = &[
    ("transcriptId", Uuid),
    ("episodeId", Uuid),
    ("podcastId", Uuid),
    ("segmentIndex", Int),
    ("startSecond", Double),
    ("endSecond", Double),
    ("speaker", Text),
    ("text", Text),
];

pub(crate) const TRANSCRIPT_STAGE: &[(&str, Kind)] = &[
    ("transcriptId", Uuid),
    ("episodeId", Uuid),
    ("podcastId", Uuid),
    ("source", Text),
    ("format", Text),
    ("language", Text),
    ("transcriptText", Text),
];

pub(crate) const FETCH_STAGE: &[(&str, Kind)] = &[
    ("feedUrl", Text),
    ("podcastId", Uuid),
    ("fetchedAt", Time),
    ("outcome", Text),
    ("httpStatus", Int),
    ("error", Text),
    ("etag", Text),
    ("lastModified", Text),
    ("bytes", Int),
    ("episodes", Int),
    ("contentHash", Text),
    ("websubHub", Text),
    ("websubTopic", Text),
];

pub(crate) const FEED_STATE_STAGE: &[(&str, Kind)] = &[
    ("feedUrl", Text),
    ("podcastId", Uuid),
    ("etag", Text),
    ("lastModified", Text),
    ("lastOutcome", Text),
    ("lastFetchedAt", Time),
    ("lastSuccessAt", Time),
    ("consecutiveFailures", Int),
    ("contentHash", Text),
    ("websubHub", Text),
    ("websubTopic", Text),
];

/// Names of the staging tables, each with its columns.
pub(crate) const STAGES: &[(&str, &[(&str, Kind)])] = &[
    ("stage_podcasts", PODCAST_STAGE),
    ("stage_episodes", EPISODE_STAGE),
    ("stage_persons", PERSON_STAGE),
    ("stage_segments", SEGMENT_STAGE),
    ("stage_transcripts", TRANSCRIPT_STAGE),
    ("stage_fetches", FETCH_STAGE),
    ("stage_feed_states", FEED_STATE_STAGE),
];

/// Creates the (connection-local, temporary) staging tables. Each has a trailing
/// `stageOrder` column so that the last of duplicated keys wins.
pub(crate) fn create_staging_tables(connection: &Connection) -> Result<(), DataError> {
    for (table, columns) in STAGES {
        let definitions: Vec<String> = columns
            .iter()
            .map(|(name, kind)| format!("\"{name}\" {}", kind.staging_type()))
            .collect();
        connection.execute_batch(&format!(
            "CREATE OR REPLACE TEMP TABLE {table} ({}, \"stageOrder\" BIGINT)",
            definitions.join(", ")
        ))?;
    }
    Ok(())
}

/// `"a", "b", …` for an `INSERT INTO table (…)` column list.
pub(crate) fn column_list(columns: &[(&str, Kind)]) -> String {
    columns
        .iter()
        .map(|(name, _)| format!("\"{name}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The converting select expressions of a stage, with `overrides` replacing the
/// expressions of the named columns.
pub(crate) fn converted_columns(
    columns: &[(&str, Kind)],
    alias: &str,
    overrides: &[(&str, &str)],
) -> String {
    columns
        .iter()
        .map(|(name, kind)| {
            overrides
                .iter()
                .find(|(column, _)| column == name)
                .map(|(_, expression)| (*expression).to_owned())
                .unwrap_or_else(|| kind.convert(alias, name))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub(crate) fn micros(time: &DateTime<Utc>) -> i64 {
    time.timestamp_micros()
}

pub(crate) fn optional_micros(time: &Option<DateTime<Utc>>) -> Option<i64> {
    time.as_ref().map(micros)
}

pub(crate) fn json_list<T: serde::Serialize>(values: &T) -> Result<String, DataError> {
    serde_json::to_string(values).map_err(|error| DataError::InvalidValue {
        column: "list".to_owned(),
        message: error.to_string(),
    })
}
