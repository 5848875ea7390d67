//! `upsert_transcripts`: transcripts with their segments, and their episodes and
//! podcasts marked as transcribed, many in one transaction.

use std::collections::HashMap;

use duckdb::{Connection, params};
use podlens_model::catalog::TranscriptRecord;

use super::Catalog;
use super::staging::{SEGMENT_STAGE, TRANSCRIPT_STAGE, column_list, converted_columns};
use crate::DataError;

impl Catalog {
    /// Stores many transcripts at once (one transaction; the last of repeated ids
    /// wins), as [`Catalog::upsert_transcript`] does for one. Bulk ingest writes
    /// transcripts this way: a transaction per transcript costs more than its rows.
    pub fn upsert_transcripts(
        &mut self,
        transcripts: &[TranscriptRecord],
    ) -> Result<(), DataError> {
        upsert_transcripts(&mut self.connection, transcripts)
    }
}

pub(crate) fn upsert_transcript(
    connection: &mut Connection,
    transcript: &TranscriptRecord,
) -> Result<(), DataError> {
    upsert_transcripts(connection, std::slice::from_ref(transcript))
}

pub(crate) fn upsert_transcripts(
    connection: &mut Connection,
    transcripts: &[TranscriptRecord],
) -> Result<(), DataError> {
    if transcripts.is_empty() {
        return Ok(());
    }
    // The last version of each transcript id, in first-seen order.
    let mut latest: HashMap<uuid::Uuid, usize> = HashMap::with_capacity(transcripts.len());
    for (position, transcript) in transcripts.iter().enumerate() {
        latest.insert(transcript.transcript_id, position);
    }
    let transaction = connection.transaction()?;
    transaction.execute_batch("DELETE FROM stage_transcripts; DELETE FROM stage_segments")?;
    {
        let mut staged =
            transaction.appender_to_catalog_and_db("stage_transcripts", "temp", "main")?;
        let mut segments =
            transaction.appender_to_catalog_and_db("stage_segments", "temp", "main")?;
        for (position, transcript) in transcripts.iter().enumerate() {
            if latest.get(&transcript.transcript_id) != Some(&position) {
                continue;
            }
            let transcript_id = transcript.transcript_id.to_string();
            let episode_id = transcript.episode_id.to_string();
            let podcast_id = transcript.podcast_id.to_string();
            let order = i64::try_from(position).unwrap_or(i64::MAX);
            staged.append_row(params![
                transcript_id,
                episode_id,
                podcast_id,
                transcript.source,
                transcript.format,
                transcript.language,
                transcript.transcript_text,
                order,
            ])?;
            for (index, segment) in transcript.segments.iter().enumerate() {
                let index = i64::try_from(index).unwrap_or(i64::MAX);
                segments.append_row(params![
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
        }
        staged.flush()?;
        segments.flush()?;
    }
    transaction.execute(
        &format!(
            "INSERT OR REPLACE INTO transcripts ({}) SELECT {} FROM stage_transcripts s",
            column_list(TRANSCRIPT_STAGE),
            converted_columns(TRANSCRIPT_STAGE, "s", &[])
        ),
        [],
    )?;
    transaction.execute(
        r#"DELETE FROM transcript_segments
           WHERE "transcriptId" IN (SELECT CAST("transcriptId" AS UUID) FROM stage_transcripts)"#,
        [],
    )?;
    transaction.execute(
        &format!(
            "INSERT INTO transcript_segments ({}) SELECT {} FROM stage_segments s",
            column_list(SEGMENT_STAGE),
            converted_columns(SEGMENT_STAGE, "s", &[])
        ),
        [],
    )?;
    // An episode with several transcripts in the batch points at the last one stored.
    transaction.execute(
        r#"UPDATE episodes SET "episodeHasTranscript" = true, "transcriptId" = s."transcriptId"
           FROM (SELECT CAST("episodeId" AS UUID) AS "episodeId",
                        CAST(arg_max("transcriptId", "stageOrder") AS UUID) AS "transcriptId"
                 FROM stage_transcripts GROUP BY 1) s
           WHERE episodes."episodeId" = s."episodeId""#,
        [],
    )?;
    transaction.execute(
        r#"UPDATE podcasts SET "totalTranscripts" = coalesce(c.transcribed, 0)
           FROM (SELECT p."podcastId", count(e."episodeId") AS transcribed
                 FROM (SELECT DISTINCT CAST("podcastId" AS UUID) AS "podcastId" FROM stage_transcripts) p
                 LEFT JOIN episodes e
                        ON e."podcastId" = p."podcastId" AND e."episodeHasTranscript"
                 GROUP BY 1) c
           WHERE podcasts."podcastId" = c."podcastId""#,
        [],
    )?;
    transaction.commit()?;
    Ok(())
}
