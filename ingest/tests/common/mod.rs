//! What the fetch tests share: a store that keeps everything in memory.

#![allow(dead_code)]

use podlens_ingest::IngestError;
use podlens_ingest::fetch::FeedStore;
use podlens_model::catalog::{FeedBatch, FeedFetchRecord, TranscriptAttempt, TranscriptRecord};
use uuid::Uuid;

/// Everything an ingest run stored, in memory.
#[derive(Default)]
pub struct MemoryStore {
    pub batches: Vec<FeedBatch>,
    pub transcripts: Vec<TranscriptRecord>,
    pub fetches: Vec<FeedFetchRecord>,
    pub moved: Vec<(Uuid, String)>,
    pub failed_transcripts: Vec<TranscriptAttempt>,
}

impl FeedStore for MemoryStore {
    fn upsert_feed(&mut self, batch: &FeedBatch) -> Result<(), IngestError> {
        self.batches.push(batch.clone());
        Ok(())
    }
    fn upsert_transcript(&mut self, transcript: &TranscriptRecord) -> Result<(), IngestError> {
        self.transcripts.push(transcript.clone());
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
        self.failed_transcripts.push(attempt.clone());
        Ok(())
    }
}

impl MemoryStore {
    pub fn fetch_for(&self, suffix: &str) -> &FeedFetchRecord {
        self.fetches
            .iter()
            .find(|fetch| fetch.feed_url.ends_with(suffix))
            .unwrap_or_else(|| panic!("no fetch for {suffix}: {:#?}", self.fetches))
    }
}
