//! `upsert_transcript`: a transcript with its segments, and the episode and podcast
//! marked as transcribed.

use duckdb::{Connection, params};
use podlens_model::catalog::TranscriptRecord;

use super::staging::{SEGMENT_STAGE, column_list, converted_columns};
use crate::DataError;

pub(crate) fn upsert_transcript(
    connection: &mut Connection,
    transcript: &TranscriptRecord,
) -> Result<(), DataError> {
    let transcript_id = transcript.transcript_id.to_string();
    let episode_id = transcript.episode_id.to_string();
    let podcast_id = transcript.podcast_id.to_string();
    let transaction = connection.transaction()?;
    transaction.execute(
        r#"INSERT OR REPLACE INTO transcripts
           ("transcriptId", "episodeId", "podcastId", "source", "format", "language", "transcriptText")
           VALUES (CAST(? AS UUID), CAST(? AS UUID), CAST(? AS UUID), ?, ?, ?, ?)"#,
        params![
            transcript_id,
            episode_id,
            podcast_id,
            transcript.source,
            transcript.format,
            transcript.language,
            transcript.transcript_text,
        ],
    )?;
    transaction.execute(
        r#"DELETE FROM transcript_segments WHERE "transcriptId" = CAST(? AS UUID)"#,
        [&transcript_id],
    )?;
    transaction.execute_batch("DELETE FROM stage_segments")?;
    {
        let mut appender =
            transaction.appender_to_catalog_and_db("stage_segments", "temp", "main")?;
        for (index, segment) in transcript.segments.iter().enumerate() {
            let index = i64::try_from(index).unwrap_or(i64::MAX);
            appender.append_row(params![
                transcript_id,
                episode_id,
                podcast_id,
                index,
                segment.start_second,
                segment.end_second,
                segment.speaker,
                segment.text,
                index,
            ])?;
        }
        appender.flush()?;
    }
    transaction.execute(
        &format!(
            "INSERT INTO transcript_segments ({}) SELECT {} FROM stage_segments s",
            column_list(SEGMENT_STAGE),
            converted_columns(SEGMENT_STAGE, "s", &[])
        ),
        [],
    )?;
    transaction.execute(
        r#"UPDATE episodes SET "episodeHasTranscript" = true, "transcriptId" = CAST(? AS UUID)
           WHERE "episodeId" = CAST(? AS UUID)"#,
        [&transcript_id, &episode_id],
    )?;
    transaction.execute(
        r#"UPDATE podcasts SET "totalTranscripts" = (
               SELECT count(*) FROM episodes
               WHERE "podcastId" = CAST(?1 AS UUID) AND "episodeHasTranscript")
           WHERE "podcastId" = CAST(?1 AS UUID)"#,
        [&podcast_id],
    )?;
    transaction.commit()?;
    Ok(())
}
