//! Reading catalog rows back into the model's records. The same `SELECT` lists work on
//! the catalog's tables and on the Parquet snapshots, because both use the API field
//! names: ids are read as text, timestamps as epoch microseconds and lists as JSON.

use chrono::{DateTime, Utc};
use duckdb::Row;
use duckdb::types::Type;
use podlens_model::catalog::{
    EpisodeRecord, FeedFetchRecord, PersonRecord, PodcastRecord, TranscriptRecord,
    TranscriptSegment,
};
use serde::de::DeserializeOwned;
use uuid::Uuid;

/// Columns of a [`PodcastRecord`], in field order.
pub(crate) const PODCAST_COLUMNS: &str = r#""podcastId"::VARCHAR, "podcastSlug", "podcastGuid",
 "podcastRssFeedUrl", "podcastRssTitle", "podcastRssAuthor", "podcastRssDescription",
 "podcastRssDescriptionNoHtml", "podcastWebsiteUrl", "podcastImageUrl", "rssLanguage",
 to_json("rssCategories")::VARCHAR, to_json("podcastPodlensGenres")::VARCHAR,
 to_json("podcastKeywords")::VARCHAR, "explicitRss", "podcastOwnerName", "podcastOwnerEmail",
 to_json("podcastHostNames")::VARCHAR, "podcastHasGuests", "podcastType", "podcastMedium",
 "podcastLocked", "podcastBlocked", "podcastComplete", "podcastLocation",
 to_json("podcastFundingUrls")::VARCHAR, "podcastHasValue", "appleId", "spotifyId",
 epoch_us("foundedDate"), epoch_us("lastEpisodeDate"), "totalEpisodes", "totalTranscripts",
 "updateFrequency", "rssGenerator", to_json("rssTags")::VARCHAR, epoch_us("updatedAt")"#;

/// Columns of an [`EpisodeRecord`], in field order.
pub(crate) const EPISODE_COLUMNS: &str = r#""episodeId"::VARCHAR, "podcastId"::VARCHAR,
 "episodeSlug", "episodeGuid", "episodeRssTitle", "episodeRssDescription",
 "episodeRssDescriptionNoHtml", "episodeEnclosureUrl", "episodeEnclosureType",
 "episodeEnclosureLength", "episodeImageUrl", "episodeWebUrl", epoch_us("episodeRssPublishedAt"),
 "episodeDurationSeconds", "episodeSeason", "episodeNumber", "episodeType", "episodeExplicit",
 to_json("episodeKeywords")::VARCHAR, to_json("episodeTranscriptUrls")::VARCHAR,
 "episodeChaptersUrl", to_json("episodeRssTags")::VARCHAR, "episodeHasTranscript",
 "transcriptId"::VARCHAR, "episodePodcastTitleDenormalized", epoch_us("episodeCreatedAt"),
 epoch_us("episodeUpdatedAt")"#;

/// Columns of a [`PersonRecord`], in field order.
pub(crate) const PERSON_COLUMNS: &str = r#""podcastId"::VARCHAR, "episodeId"::VARCHAR, "name",
 "personType", "role", "group", "imageUrl", "href""#;

/// Columns of a [`TranscriptRecord`] without its segments, in field order.
pub(crate) const TRANSCRIPT_COLUMNS: &str = r#""transcriptId"::VARCHAR, "episodeId"::VARCHAR,
 "podcastId"::VARCHAR, "source", "format", "language", "transcriptText""#;

/// Columns of a [`TranscriptSegment`] preceded by its transcript id.
pub(crate) const SEGMENT_COLUMNS: &str =
    r#""transcriptId"::VARCHAR, "startSecond", "endSecond", "speaker", "text""#;

/// Columns of a [`FeedFetchRecord`], in field order.
pub(crate) const FETCH_COLUMNS: &str = r#""feedUrl", "podcastId"::VARCHAR, epoch_us("fetchedAt"),
 "outcome", "httpStatus", "error", "etag", "lastModified", "bytes", "episodes",
 "contentHash", "websubHub", "websubTopic""#;

fn conversion_error(index: usize, message: String) -> duckdb::Error {
    duckdb::Error::FromSqlConversionFailure(index, Type::Text, message.into())
}

pub(crate) fn uuid_at(row: &Row<'_>, index: usize) -> duckdb::Result<Uuid> {
    let text: String = row.get(index)?;
    Uuid::parse_str(&text).map_err(|error| conversion_error(index, format!("{text:?}: {error}")))
}

pub(crate) fn optional_uuid_at(row: &Row<'_>, index: usize) -> duckdb::Result<Option<Uuid>> {
    let text: Option<String> = row.get(index)?;
    text.map(|text| {
        Uuid::parse_str(&text)
            .map_err(|error| conversion_error(index, format!("{text:?}: {error}")))
    })
    .transpose()
}

pub(crate) fn time_from_micros(micros: i64) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp_micros(micros)
}

pub(crate) fn time_at(row: &Row<'_>, index: usize) -> duckdb::Result<DateTime<Utc>> {
    let micros: i64 = row.get(index)?;
    time_from_micros(micros)
        .ok_or_else(|| conversion_error(index, format!("timestamp {micros} out of range")))
}

pub(crate) fn optional_time_at(
    row: &Row<'_>,
    index: usize,
) -> duckdb::Result<Option<DateTime<Utc>>> {
    let micros: Option<i64> = row.get(index)?;
    micros
        .map(|micros| {
            time_from_micros(micros)
                .ok_or_else(|| conversion_error(index, format!("timestamp {micros} out of range")))
        })
        .transpose()
}

/// A JSON column (lists, structs); SQL NULL reads as the type's default.
pub(crate) fn json_at<T: DeserializeOwned + Default>(
    row: &Row<'_>,
    index: usize,
) -> duckdb::Result<T> {
    let text: Option<String> = row.get(index)?;
    match text {
        None => Ok(T::default()),
        Some(text) => serde_json::from_str(&text)
            .map_err(|error| conversion_error(index, format!("json: {error}"))),
    }
}

pub(crate) fn podcast_from_row(row: &Row<'_>) -> duckdb::Result<PodcastRecord> {
    Ok(PodcastRecord {
        podcast_id: uuid_at(row, 0)?,
        podcast_slug: row.get(1)?,
        podcast_guid: row.get(2)?,
        podcast_rss_feed_url: row.get(3)?,
        podcast_rss_title: row.get(4)?,
        podcast_rss_author: row.get(5)?,
        podcast_rss_description: row.get(6)?,
        podcast_rss_description_no_html: row.get(7)?,
        podcast_website_url: row.get(8)?,
        podcast_image_url: row.get(9)?,
        rss_language: row.get(10)?,
        rss_categories: json_at(row, 11)?,
        podcast_podlens_genres: json_at(row, 12)?,
        podcast_keywords: json_at(row, 13)?,
        explicit_rss: row.get(14)?,
        podcast_owner_name: row.get(15)?,
        podcast_owner_email: row.get(16)?,
        podcast_host_names: json_at(row, 17)?,
        podcast_has_guests: row.get(18)?,
        podcast_type: row.get(19)?,
        podcast_medium: row.get(20)?,
        podcast_locked: row.get(21)?,
        podcast_blocked: row.get(22)?,
        podcast_complete: row.get(23)?,
        podcast_location: row.get(24)?,
        podcast_funding_urls: json_at(row, 25)?,
        podcast_has_value: row.get(26)?,
        apple_id: row.get(27)?,
        spotify_id: row.get(28)?,
        founded_date: optional_time_at(row, 29)?,
        last_episode_date: optional_time_at(row, 30)?,
        total_episodes: row.get(31)?,
        total_transcripts: row.get(32)?,
        update_frequency: row.get(33)?,
        rss_generator: row.get(34)?,
        rss_tags: json_at(row, 35)?,
        updated_at: time_at(row, 36)?,
    })
}

pub(crate) fn episode_from_row(row: &Row<'_>) -> duckdb::Result<EpisodeRecord> {
    Ok(EpisodeRecord {
        episode_id: uuid_at(row, 0)?,
        podcast_id: uuid_at(row, 1)?,
        episode_slug: row.get(2)?,
        episode_guid: row.get(3)?,
        episode_rss_title: row.get(4)?,
        episode_rss_description: row.get(5)?,
        episode_rss_description_no_html: row.get(6)?,
        episode_enclosure_url: row.get(7)?,
        episode_enclosure_type: row.get(8)?,
        episode_enclosure_length: row.get(9)?,
        episode_image_url: row.get(10)?,
        episode_web_url: row.get(11)?,
        episode_rss_published_at: optional_time_at(row, 12)?,
        episode_duration_seconds: row.get(13)?,
        episode_season: row.get(14)?,
        episode_number: row.get(15)?,
        episode_type: row.get(16)?,
        episode_explicit: row.get(17)?,
        episode_keywords: json_at(row, 18)?,
        episode_transcript_urls: json_at(row, 19)?,
        episode_chapters_url: row.get(20)?,
        episode_rss_tags: json_at(row, 21)?,
        episode_has_transcript: row.get(22)?,
        transcript_id: optional_uuid_at(row, 23)?,
        episode_podcast_title_denormalized: row.get(24)?,
        episode_created_at: time_at(row, 25)?,
        episode_updated_at: time_at(row, 26)?,
    })
}

pub(crate) fn person_from_row(row: &Row<'_>) -> duckdb::Result<PersonRecord> {
    Ok(PersonRecord {
        podcast_id: uuid_at(row, 0)?,
        episode_id: optional_uuid_at(row, 1)?,
        name: row.get(2)?,
        person_type: row.get(3)?,
        role: row.get(4)?,
        group: row.get(5)?,
        image_url: row.get(6)?,
        href: row.get(7)?,
    })
}

/// A transcript without its segments (filled in by the caller).
pub(crate) fn transcript_from_row(row: &Row<'_>) -> duckdb::Result<TranscriptRecord> {
    Ok(TranscriptRecord {
        transcript_id: uuid_at(row, 0)?,
        episode_id: uuid_at(row, 1)?,
        podcast_id: uuid_at(row, 2)?,
        source: row.get(3)?,
        format: row.get(4)?,
        language: row.get(5)?,
        transcript_text: row.get(6)?,
        segments: Vec::new(),
    })
}

/// A segment with the id of its transcript.
pub(crate) fn segment_from_row(row: &Row<'_>) -> duckdb::Result<(Uuid, TranscriptSegment)> {
    Ok((
        uuid_at(row, 0)?,
        TranscriptSegment {
            start_second: row.get(1)?,
            end_second: row.get(2)?,
            speaker: row.get(3)?,
            text: row.get(4)?,
        },
    ))
}

pub(crate) fn fetch_from_row(row: &Row<'_>) -> duckdb::Result<FeedFetchRecord> {
    Ok(FeedFetchRecord {
        feed_url: row.get(0)?,
        podcast_id: optional_uuid_at(row, 1)?,
        fetched_at: time_at(row, 2)?,
        outcome: row.get(3)?,
        http_status: row.get(4)?,
        error: row.get(5)?,
        etag: row.get(6)?,
        last_modified: row.get(7)?,
        bytes: row.get(8)?,
        episodes: row.get(9)?,
        content_hash: row.get(10)?,
        websub_hub: row.get(11)?,
        websub_topic: row.get(12)?,
    })
}

/// The transcript of an episode with its segments in order (the one the episode points
/// to when it has several, else the longest), from the `transcripts`,
/// `transcript_segments` and `episodes` tables of `connection`: the catalog's (ids as
/// UUID) or a snapshot's (ids as text), so ids are compared as text.
pub(crate) fn transcript_of_episode(
    connection: &duckdb::Connection,
    episode_id: Uuid,
) -> Result<Option<TranscriptRecord>, crate::DataError> {
    let id = episode_id.to_string();
    let mut statement = connection.prepare(&format!(
        r#"SELECT {TRANSCRIPT_COLUMNS} FROM transcripts WHERE "episodeId"::VARCHAR = ?1
           ORDER BY ("transcriptId" IS NOT DISTINCT FROM
                     (SELECT "transcriptId" FROM episodes WHERE "episodeId"::VARCHAR = ?1 LIMIT 1)) DESC,
                    length("transcriptText") DESC, "transcriptId"
           LIMIT 1"#
    ))?;
    let mut transcripts = statement
        .query_map([&id], transcript_from_row)?
        .collect::<Result<Vec<_>, _>>()?;
    let Some(mut transcript) = transcripts.pop() else {
        return Ok(None);
    };
    let mut statement = connection.prepare(&format!(
        r#"SELECT {SEGMENT_COLUMNS} FROM transcript_segments
           WHERE "transcriptId"::VARCHAR = ? ORDER BY "segmentIndex""#
    ))?;
    transcript.segments = statement
        .query_map([transcript.transcript_id.to_string()], segment_from_row)?
        .map(|segment| segment.map(|(_, segment)| segment))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(transcript))
}
