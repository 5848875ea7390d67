//! The background jobs `podlens serve` runs on an interval: matching alerts against
//! the catalog (new episodes and transcripts included as soon as the snapshot and the
//! index are republished), sending alert deliveries (at once at start, which resumes
//! those a crash interrupted) and working through transcription requests.

use serde::Serialize;

use super::alerts::{AlertRunReport, run_alerts};
use super::transcriptions::run_transcriptions;
use crate::error::ApiResult;
use crate::state::AppState;

/// What one pass of the jobs did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobsReport {
    pub alerts: AlertRunReport,
    pub transcription_requests_created: u64,
}

/// One pass of every job.
pub fn run_jobs(state: &AppState) -> ApiResult<JobsReport> {
    let transcription_requests_created = run_transcriptions(state)?;
    let alerts = run_alerts(state)?;
    Ok(JobsReport {
        alerts,
        transcription_requests_created,
    })
}

/// Runs [`run_jobs`] every `interval` on the blocking pool.
pub fn spawn_background_jobs(state: AppState, interval: std::time::Duration) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(interval);
        loop {
            ticker.tick().await;
            let job_state = state.clone();
            match tokio::task::spawn_blocking(move || run_jobs(&job_state)).await {
                Ok(Ok(report)) => tracing::debug!(?report, "background jobs ran"),
                Ok(Err(error)) => tracing::debug!(%error, "background jobs skipped"),
                Err(error) => tracing::warn!(%error, "background jobs failed"),
            }
            // Alert deliveries are sent even when a job above failed: the first pass
            // after a start resumes the deliveries a crash interrupted.
            match super::delivery::deliver_pending(&state).await {
                Ok(report) => tracing::debug!(?report, "alert deliveries ran"),
                Err(error) => tracing::warn!(%error, "alert deliveries failed"),
            }
        }
    });
}
