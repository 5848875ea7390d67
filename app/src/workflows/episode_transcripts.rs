//! An episode's transcript as its endpoints hand it out: free previews, and downloads
//! (whole text, timestamps, a `txt` or `vtt` file) charged as one transcript download
//! each, found first so a missing transcript costs nothing.

use std::sync::Arc;

use podlens_model::catalog::TranscriptRecord;
use podlens_model::enums::TranscriptFormat;
use podlens_model::validation::parse_transcript_format;

use crate::accounts::UsageCounter;
use crate::accounts::metering::{Charge, Metering, Requester};
use crate::catalog::CatalogReader;
use crate::error::{AppError, AppResult};
use crate::runtime::blocking;
use crate::transcripts;

/// A transcript as a file to download.
#[derive(Debug, Clone, PartialEq)]
pub struct TranscriptFile {
    pub body: String,
    /// `text/plain` or `text/vtt`, with the charset.
    pub content_type: &'static str,
    /// `transcript-<episode id>.txt` (or `.vtt`).
    pub file_name: String,
}

/// The episodes' transcripts.
#[derive(Clone)]
pub struct EpisodeTranscripts {
    pub catalog: Arc<CatalogReader>,
    pub metering: Metering,
}

impl EpisodeTranscripts {
    /// What `shape` makes of the transcript of `episode_id` (400 for a malformed id,
    /// 404 for an unknown episode or one without a transcript), off the async runtime
    /// (a transcript can be long); not charged.
    pub async fn preview<T, F>(&self, episode_id: String, shape: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(TranscriptRecord) -> T + Send + 'static,
    {
        let catalog = self.catalog.clone();
        blocking(move || Ok(shape(transcript_of(&catalog, &episode_id)?))).await
    }

    /// The transcript of `episode_id`, charged to `requester` as one transcript
    /// download once it is found.
    pub async fn download(
        &self,
        requester: &Requester,
        episode_id: String,
    ) -> AppResult<(Charge, TranscriptRecord)> {
        let transcript = self.preview(episode_id, |transcript| transcript).await?;
        let charge = self
            .metering
            .charge(requester, UsageCounter::TranscriptDownload)
            .await?;
        Ok((charge, transcript))
    }

    /// The transcript of `episode_id` as a file in `format` (`txt` by default, or
    /// `vtt` for a transcript with timing), as `requester`'s plan allows; charged as
    /// one transcript download once the file is written.
    pub async fn file(
        &self,
        requester: &Requester,
        episode_id: String,
        format: Option<&str>,
    ) -> AppResult<(Charge, TranscriptFile)> {
        let format = parse_transcript_format(format)?;
        if !requester.plan.transcript_formats().contains(&format) {
            return Err(AppError::Forbidden(format!(
                "Transcript downloads in {format} format are not included in the {} plan",
                requester.plan
            )));
        }
        let file = self
            .preview(episode_id, move |transcript| file_of(&transcript, format))
            .await??;
        let charge = self
            .metering
            .charge(requester, UsageCounter::TranscriptDownload)
            .await?;
        Ok((charge, file))
    }
}

fn transcript_of(catalog: &CatalogReader, episode_id: &str) -> AppResult<TranscriptRecord> {
    let record = catalog.episode(episode_id)?;
    catalog
        .snapshot()?
        .transcript_by_episode(record.episode_id)?
        .ok_or_else(|| AppError::NotFound(format!("Episode {episode_id} has no transcript")))
}

/// `transcript` written in `format`.
fn file_of(transcript: &TranscriptRecord, format: TranscriptFormat) -> AppResult<TranscriptFile> {
    let (body, content_type, extension) = match format {
        TranscriptFormat::Txt => (
            transcript.transcript_text.clone(),
            "text/plain; charset=utf-8",
            "txt",
        ),
        _ => (
            transcripts::to_vtt(transcript).ok_or_else(|| {
                AppError::Invalid("This transcript has no timing; download it in txt format".into())
            })?,
            "text/vtt; charset=utf-8",
            "vtt",
        ),
    };
    Ok(TranscriptFile {
        body,
        content_type,
        file_name: format!("transcript-{}.{extension}", transcript.episode_id),
    })
}
