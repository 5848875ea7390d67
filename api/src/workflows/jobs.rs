//! The background jobs `podlens serve` runs on an interval: matching alerts against
//! the catalog (new episodes and transcripts included as soon as the snapshot and the
//! index are republished), sending alert deliveries (at once at start, which resumes
//! those a crash interrupted) and working through transcription requests.

use std::time::Instant;

use serde::Serialize;

use super::alerts::{AlertRunReport, run_alerts};
use super::job_log::{self, JobFailure, LastPass};
use super::transcriptions::run_transcriptions;
use crate::state::AppState;

/// What one pass of the jobs did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobsReport {
    pub alerts: AlertRunReport,
    pub transcription_requests_created: u64,
    pub transcriptions_queued: u64,
    /// What failed, each job and each alert on its own: the rest of the pass ran.
    pub failures: Vec<JobFailure>,
}

/// One pass of every job: a failing job (or alert, or request) is recorded and logged
/// at warn with its team, and the others still run. The pass's summary and failures are
/// written to the data directory's `jobs/` for `podlens status`.
pub fn run_jobs(state: &AppState) -> JobsReport {
    let started = Instant::now();
    let mut report = JobsReport::default();
    match run_transcriptions(state) {
        Ok(transcriptions) => {
            report.transcription_requests_created = transcriptions.created;
            report.transcriptions_queued = transcriptions.queued;
            report.failures.extend(transcriptions.failures);
        }
        Err(error) => report
            .failures
            .push(JobFailure::new("transcriptions", None, None, &error)),
    }
    match run_alerts(state) {
        Ok(mut alerts) => {
            report.failures.append(&mut alerts.failures);
            report.alerts = alerts;
        }
        Err(error) => report
            .failures
            .push(JobFailure::new("alerts", None, None, &error)),
    }
    for failure in &report.failures {
        failure.log();
    }
    crate::telemetry::record_job_pass(started.elapsed().as_secs_f64(), &report.failures);
    let pass = LastPass {
        finished_at: Some(chrono::Utc::now()),
        duration_ms: started.elapsed().as_millis() as u64,
        alerts_run: report.alerts.alerts_run,
        new_matches: report.alerts.new_matches,
        transcription_requests_created: report.transcription_requests_created,
        transcriptions_queued: report.transcriptions_queued,
        deliveries_sent: report.alerts.deliveries.sent,
        deliveries_retrying: report.alerts.deliveries.retrying,
        deliveries_failed: report.alerts.deliveries.failed,
        failures: report.failures.len() as u64,
    };
    if let Err(error) = job_log::record_failures(&state.data_dir, &report.failures)
        .and_then(|()| job_log::write_last_pass(&state.data_dir, &pass))
    {
        tracing::warn!(%error, "cannot record the background jobs' pass");
    }
    report
}

/// Runs [`run_jobs`] every `interval` on the blocking pool.
pub fn spawn_background_jobs(state: AppState, interval: std::time::Duration) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(interval);
        loop {
            ticker.tick().await;
            let job_state = state.clone();
            match tokio::task::spawn_blocking(move || run_jobs(&job_state)).await {
                Ok(report) => tracing::debug!(?report, "background jobs ran"),
                Err(error) => tracing::error!(%error, "background jobs panicked"),
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
