//! Bulk readers of the Parquet snapshots, for the indexer. Each call opens its own
//! in-memory DuckDB connection; episodes and transcripts are streamed in bounded
//! batches so memory stays flat on catalogs of millions of rows.

use std::path::{Path, PathBuf};

use duckdb::Connection;
use podlens_model::catalog::{EpisodeRecord, PersonRecord, PodcastRecord, TranscriptRecord};
use uuid::Uuid;

use crate::DataError;
use crate::catalog::sql_path;
use crate::records::{
    EPISODE_COLUMNS, PERSON_COLUMNS, PODCAST_COLUMNS, SEGMENT_COLUMNS, TRANSCRIPT_COLUMNS,
    episode_from_row, person_from_row, podcast_from_row, segment_from_row, transcript_from_row,
};

/// Episodes read per query when streaming: the episodes file is sorted by podcast, so
/// one query reads only the few row groups of its podcast range.
const EPISODES_PER_QUERY: u64 = 20_000;
/// Transcripts read per query when streaming.
const TRANSCRIPTS_PER_QUERY: usize = 500;

fn snapshot_file(parquet_dir: &Path, name: &str) -> Result<PathBuf, DataError> {
    let path = parquet_dir.join(format!("{name}.parquet"));
    if !path.is_file() {
        return Err(DataError::io(
            &path,
            std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "snapshot file missing (run an export first)",
            ),
        ));
    }
    Ok(path)
}

fn source(parquet_dir: &Path, name: &str) -> Result<String, DataError> {
    Ok(format!(
        "read_parquet({})",
        sql_path(&snapshot_file(parquet_dir, name)?)?
    ))
}

fn open() -> Result<Connection, DataError> {
    let connection = Connection::open_in_memory()?;
    connection.execute_batch("SET TimeZone = 'UTC'")?;
    Ok(connection)
}

/// Every podcast of the snapshot, by id.
pub fn read_podcasts(parquet_dir: &Path) -> Result<Vec<PodcastRecord>, DataError> {
    let connection = open()?;
    let mut statement = connection.prepare(&format!(
        r#"SELECT {PODCAST_COLUMNS} FROM {} ORDER BY "podcastId""#,
        source(parquet_dir, "podcasts")?
    ))?;
    let podcasts = statement
        .query_map([], podcast_from_row)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(podcasts)
}

/// Every person of the snapshot.
pub fn read_persons(parquet_dir: &Path) -> Result<Vec<PersonRecord>, DataError> {
    let connection = open()?;
    let mut statement = connection.prepare(&format!(
        r#"SELECT {PERSON_COLUMNS} FROM {}"#,
        source(parquet_dir, "persons")?
    ))?;
    let persons = statement
        .query_map([], person_from_row)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(persons)
}

/// Podcast id ranges `(first, last)` (inclusive, as text) of about `per_range` episodes.
fn podcast_ranges(
    connection: &Connection,
    episodes: &str,
    per_range: u64,
) -> Result<Vec<(String, String)>, DataError> {
    let mut statement = connection.prepare(&format!(
        r#"SELECT "podcastId", count(*) FROM {episodes} GROUP BY 1 ORDER BY 1"#
    ))?;
    let counts = statement
        .query_map([], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut ranges = Vec::new();
    let mut current: Option<(String, String, u64)> = None;
    for (podcast_id, count) in counts {
        let count = count.unsigned_abs();
        current = match current {
            Some((first, _, total)) if total < per_range => {
                Some((first, podcast_id, total + count))
            }
            Some((first, last, _)) => {
                ranges.push((first, last));
                Some((podcast_id.clone(), podcast_id, count))
            }
            None => Some((podcast_id.clone(), podcast_id, count)),
        };
    }
    ranges.extend(current.map(|(first, last, _)| (first, last)));
    Ok(ranges)
}

/// Streams every episode of the snapshot to `visit` in slices of at most `batch_size`
/// (a podcast's episodes arrive together, newest first, podcasts by id). Returns the
/// number of episodes read. `visit`'s error stops the stream and is returned.
pub fn for_each_episode_batch<E, F>(
    parquet_dir: &Path,
    batch_size: usize,
    mut visit: F,
) -> Result<u64, E>
where
    E: From<DataError>,
    F: FnMut(&[EpisodeRecord]) -> Result<(), E>,
{
    if batch_size == 0 {
        return Err(DataError::InvalidArgument("batch size must be at least 1".to_owned()).into());
    }
    let connection = open()?;
    let episodes = source(parquet_dir, "episodes")?;
    let per_query = EPISODES_PER_QUERY.max(u64::try_from(batch_size).unwrap_or(u64::MAX));
    let ranges = podcast_ranges(&connection, &episodes, per_query)?;
    let mut statement = connection
        .prepare(&format!(
            r#"SELECT {EPISODE_COLUMNS} FROM {episodes}
               WHERE "podcastId" BETWEEN ? AND ?
               ORDER BY "podcastId", "episodeRssPublishedAt" DESC NULLS LAST, "episodeId""#
        ))
        .map_err(DataError::from)?;
    let mut total: u64 = 0;
    for (first, last) in &ranges {
        let batch = statement
            .query_map([first, last], episode_from_row)
            .map_err(DataError::from)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(DataError::from)?;
        for chunk in batch.chunks(batch_size) {
            visit(chunk)?;
        }
        total += u64::try_from(batch.len()).unwrap_or(u64::MAX);
    }
    Ok(total)
}

/// Every episode of the snapshot (prefer [`for_each_episode_batch`] on big catalogs).
pub fn read_episodes(parquet_dir: &Path) -> Result<Vec<EpisodeRecord>, DataError> {
    let mut episodes = Vec::new();
    for_each_episode_batch::<DataError, _>(parquet_dir, 10_000, |batch| {
        episodes.extend_from_slice(batch);
        Ok(())
    })?;
    Ok(episodes)
}

/// Streams every transcript, with its segments in order, to `visit` (by transcript
/// id). Returns the number of transcripts read.
pub fn for_each_transcript<E, F>(parquet_dir: &Path, mut visit: F) -> Result<u64, E>
where
    E: From<DataError>,
    F: FnMut(&TranscriptRecord) -> Result<(), E>,
{
    let connection = open()?;
    let transcripts = source(parquet_dir, "transcripts")?;
    let segments = source(parquet_dir, "transcript_segments")?;
    let mut id_statement = connection
        .prepare(&format!(
            r#"SELECT "transcriptId" FROM {transcripts} ORDER BY 1"#
        ))
        .map_err(DataError::from)?;
    let ids = id_statement
        .query_map([], |row| row.get::<_, String>(0))
        .map_err(DataError::from)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(DataError::from)?;
    let mut transcript_statement = connection
        .prepare(&format!(
            r#"SELECT {TRANSCRIPT_COLUMNS} FROM {transcripts}
               WHERE "transcriptId" BETWEEN ? AND ? ORDER BY "transcriptId""#
        ))
        .map_err(DataError::from)?;
    let mut segment_statement = connection
        .prepare(&format!(
            r#"SELECT {SEGMENT_COLUMNS} FROM {segments}
               WHERE "transcriptId" BETWEEN ? AND ? ORDER BY "transcriptId", "segmentIndex""#
        ))
        .map_err(DataError::from)?;
    let mut total: u64 = 0;
    for chunk in ids.chunks(TRANSCRIPTS_PER_QUERY) {
        let (Some(first), Some(last)) = (chunk.first(), chunk.last()) else {
            continue;
        };
        let mut records = transcript_statement
            .query_map([first, last], transcript_from_row)
            .map_err(DataError::from)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(DataError::from)?;
        let segment_rows = segment_statement
            .query_map([first, last], segment_from_row)
            .map_err(DataError::from)?
            .collect::<Result<Vec<(Uuid, _)>, _>>()
            .map_err(DataError::from)?;
        let mut segment_rows = segment_rows.into_iter().peekable();
        for record in &mut records {
            // Both lists are sorted by transcript id: merge them.
            while segment_rows
                .peek()
                .is_some_and(|(id, _)| id.to_string() < record.transcript_id.to_string())
            {
                segment_rows.next();
            }
            while let Some((_, segment)) =
                segment_rows.next_if(|(id, _)| *id == record.transcript_id)
            {
                record.segments.push(segment);
            }
            visit(record)?;
            total += 1;
        }
    }
    Ok(total)
}

/// Every transcript with its segments (prefer [`for_each_transcript`] on big catalogs).
pub fn read_transcripts(parquet_dir: &Path) -> Result<Vec<TranscriptRecord>, DataError> {
    let mut transcripts = Vec::new();
    for_each_transcript::<DataError, _>(parquet_dir, |transcript| {
        transcripts.push(transcript.clone());
        Ok(())
    })?;
    Ok(transcripts)
}
