//! A [`FeedStore`] that keeps what a run read in memory, for a caller that writes it
//! later in one go (the server's feed scheduler and refreshes) or only looks at it.

use podlens_model::catalog::{FeedBatch, FeedFetchRecord, TranscriptAttempt, TranscriptRecord};
use uuid::Uuid;

use super::run::FeedStore;
use crate::error::IngestError;

/// Everything an ingest run stored, in memory.
#[derive(Debug, Default)]
pub struct CollectedFeeds {
    pub batches: Vec<FeedBatch>,
    pub transcripts: Vec<TranscriptRecord>,
    pub transcript_failures: Vec<TranscriptAttempt>,
    pub fetches: Vec<FeedFetchRecord>,
    /// Feeds that moved for good: the podcast and its new address.
    pub moved: Vec<(Uuid, String)>,
}

impl FeedStore for CollectedFeeds {
    fn upsert_feed(&mut self, batch: &FeedBatch) -> Result<(), IngestError> {
        self.batches.push(batch.clone());
        Ok(())
    }

    fn upsert_feed_owned(&mut self, batch: FeedBatch) -> Result<(), IngestError> {
        self.batches.push(batch);
        Ok(())
    }

    fn upsert_transcript(&mut self, transcript: &TranscriptRecord) -> Result<(), IngestError> {
        self.transcripts.push(transcript.clone());
        Ok(())
    }

    fn upsert_transcript_owned(&mut self, transcript: TranscriptRecord) -> Result<(), IngestError> {
        self.transcripts.push(transcript);
        Ok(())
    }

    fn record_fetch(&mut self, fetch: &FeedFetchRecord) -> Result<(), IngestError> {
        self.fetches.push(fetch.clone());
        Ok(())
    }

    fn update_feed_url(&mut self, podcast_id: Uuid, new_url: &str) -> Result<(), IngestError> {
        self.moved.push((podcast_id, new_url.to_owned()));
        Ok(())
    }

    fn record_transcript_failure(
        &mut self,
        attempt: &TranscriptAttempt,
    ) -> Result<(), IngestError> {
        self.transcript_failures.push(attempt.clone());
        Ok(())
    }
}
