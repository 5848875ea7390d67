//! `upsert_transcripts`: transcripts with their segments, and their episodes and
//! podcasts marked as transcribed, many in one transaction.

use std::collections::HashMap;

use duckdb::{Connection, params};
use podlens_model::catalog::{TranscriptAttempt, TranscriptRecord, TranscriptStatus};
use uuid::Uuid;

use super::Catalog;
use super::staging::{SEGMENT_STAGE, TRANSCRIPT_STAGE, column_list, converted_columns};
use crate::DataError;
use crate::records::{optional_time_at, time_at, uuid_at};

impl Catalog {
    /// The transcript of an episode with its segments in order (the one the episode
    /// points to when it has several), as the snapshot's lookup reads it.
    pub fn transcript_of_episode(
        &self,
        episode_id: Uuid,
    ) -> Result<Option<TranscriptRecord>, DataError> {
        crate::records::transcript_of_episode(&self.connection, episode_id)
    }

    /// Stores many transcripts at once (one transaction; the last of repeated ids
    /// wins), as [`Catalog::upsert_transcript`] does for one. Bulk ingest writes
    /// transcripts this way: a transaction per transcript costs more than its rows.
    pub fn upsert_transcripts(
        &mut self,
        transcripts: &[TranscriptRecord],
    ) -> Result<(), DataError> {
        upsert_transcripts(&mut self.connection, transcripts)
    }

    /// Records failed fetches of declared transcripts in the retry ledger (the
    /// latest attempt of an episode replaces the one before).
    pub fn record_transcript_failures(
        &mut self,
        attempts: &[TranscriptAttempt],
    ) -> Result<(), DataError> {
        if attempts.is_empty() {
            return Ok(());
        }
        let transaction = self.connection.transaction()?;
        {
            let mut insert = transaction.prepare(
                r#"INSERT OR REPLACE INTO transcript_attempts
                   ("episodeId", "podcastId", "url", "mimeType", "language", "attempts",
                    "lastAttemptAt", "nextAttemptAt", "lastError")
                   VALUES (?, ?, ?, ?, ?, ?, make_timestamptz(?), make_timestamptz(?), ?)"#,
            )?;
            for attempt in attempts {
                insert.execute(params![
                    attempt.episode_id.to_string(),
                    attempt.podcast_id.to_string(),
                    attempt.url,
                    attempt.mime_type,
                    attempt.language,
                    i64::from(attempt.attempts),
                    attempt.last_attempt_at.timestamp_micros(),
                    attempt.next_attempt_at.map(|at| at.timestamp_micros()),
                    attempt.last_error,
                ])?;
            }
        }
        transaction.commit()?;
        Ok(())
    }

    /// What an ingest run needs to know of declared transcripts: the episodes whose
    /// transcript the catalog holds (with the URL it came from) and the failing ones.
    pub fn transcript_statuses(&self) -> Result<Vec<(Uuid, TranscriptStatus)>, DataError> {
        let mut held = self.connection.prepare(
            r#"SELECT e."episodeId"::VARCHAR, t."source"
               FROM episodes e JOIN transcripts t ON t."transcriptId" = e."transcriptId"
               WHERE e."episodeHasTranscript""#,
        )?;
        let mut statuses = held
            .query_map([], |row| {
                Ok((
                    uuid_at(row, 0)?,
                    TranscriptStatus::Held { url: row.get(1)? },
                ))
            })?
            .collect::<duckdb::Result<Vec<_>>>()?;
        let mut failing = self.connection.prepare(
            r#"SELECT "episodeId"::VARCHAR, "podcastId"::VARCHAR, "url", "mimeType", "language",
                      "attempts", epoch_us("lastAttemptAt"), epoch_us("nextAttemptAt"), "lastError"
               FROM transcript_attempts"#,
        )?;
        let rows = failing.query_map([], |row| {
            let attempts: i64 = row.get(5)?;
            let attempt = TranscriptAttempt {
                episode_id: uuid_at(row, 0)?,
                podcast_id: uuid_at(row, 1)?,
                url: row.get(2)?,
                mime_type: row.get(3)?,
                language: row.get(4)?,
                attempts: u32::try_from(attempts).unwrap_or(u32::MAX),
                last_attempt_at: time_at(row, 6)?,
                next_attempt_at: optional_time_at(row, 7)?,
                last_error: row.get(8)?,
            };
            Ok((attempt.episode_id, TranscriptStatus::Failing(attempt)))
        })?;
        for row in rows {
            statuses.push(row?);
        }
        Ok(statuses)
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
    transaction.execute(
        r#"DELETE FROM transcript_attempts
           WHERE "episodeId" IN (SELECT CAST("episodeId" AS UUID) FROM stage_transcripts)"#,
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
