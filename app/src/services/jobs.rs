//! The background jobs `podlens serve` runs on an interval: matching alerts against
//! the catalog (new episodes and transcripts included as soon as the snapshot and the
//! index are republished), sending alert deliveries (at once at start, which resumes
//! those a crash interrupted) and working through transcription requests. With several
//! nodes on one store, only the leader runs them; every node applies the catalog
//! changes the others made ([`crate::cluster`]).

use std::time::Instant;

use serde::Serialize;

use super::App;
use crate::cluster::{CatalogChange, LoggedChange};
use crate::error::{AppError, AppResult};
use crate::workflows::alerts::{AlertRunReport, run_enabled_alerts};
use crate::workflows::delivery::{DeliveryReport, deliver_pending};
use crate::workflows::job_log::{self, JobFailure, LastPass};
use crate::workflows::transcriptions::run_transcriptions;

/// What one pass of the jobs did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobsReport {
    pub alerts: AlertRunReport,
    /// The delivery pass that followed the alerts.
    pub deliveries: DeliveryReport,
    pub transcription_requests_created: u64,
    pub transcriptions_queued: u64,
    /// What failed, each job and each alert on its own: the rest of the pass ran.
    pub failures: Vec<JobFailure>,
}

/// One pass of every job: a failing job (or alert, or request) is recorded and logged
/// at warn with its team, and the others still run. The pass's summary and failures are
/// written to the data directory's `jobs/` for `podlens status`.
pub async fn run_jobs(state: &App) -> JobsReport {
    let started = Instant::now();
    let mut report = JobsReport::default();
    match run_transcriptions(&state.transcriptions()).await {
        Ok(transcriptions) => {
            report.transcription_requests_created = transcriptions.created;
            report.transcriptions_queued = transcriptions.queued;
            report.failures.extend(transcriptions.failures);
        }
        Err(error) => report
            .failures
            .push(JobFailure::new("transcriptions", None, None, &error)),
    }
    match run_alerts(state).await {
        Ok((mut alerts, deliveries)) => {
            report.failures.append(&mut alerts.failures);
            report.alerts = alerts;
            report.deliveries = deliveries;
        }
        Err(error) => report
            .failures
            .push(JobFailure::new("alerts", None, None, &error)),
    }
    for failure in &report.failures {
        failure.log();
    }
    record_job_pass(started.elapsed().as_secs_f64(), &report.failures);
    let pass = LastPass {
        finished_at: Some(chrono::Utc::now()),
        duration_ms: started.elapsed().as_millis() as u64,
        alerts_run: report.alerts.alerts_run,
        new_matches: report.alerts.new_matches,
        transcription_requests_created: report.transcription_requests_created,
        transcriptions_queued: report.transcriptions_queued,
        deliveries_sent: report.deliveries.sent,
        deliveries_retrying: report.deliveries.retrying,
        deliveries_failed: report.deliveries.failed,
        failures: report.failures.len() as u64,
    };
    if let Err(error) = job_log::record_failures(&state.data_dir, &report.failures)
        .and_then(|()| job_log::write_last_pass(&state.data_dir, &pass))
    {
        tracing::warn!(%error, "cannot record the background jobs' pass");
    }
    report
}

/// The alerts job: runs every enabled alert of every team, then a pass of the
/// delivery worker (the new matches' deliveries and any retry that is due). A failing
/// delivery pass is one more failure of the report.
pub async fn run_alerts(state: &App) -> AppResult<(AlertRunReport, DeliveryReport)> {
    let mut alerts = run_enabled_alerts(&state.alert_runs()).await?;
    let deliveries = match deliver_pending(&state.delivery_passes()).await {
        Ok(deliveries) => deliveries,
        Err(error) => {
            alerts
                .failures
                .push(JobFailure::new("deliveries", None, None, &error));
            DeliveryReport::default()
        }
    };
    Ok((alerts, deliveries))
}

/// Applies the catalog changes other nodes logged since this node's position (a
/// refreshed feed, a stored transcript — see [`crate::cluster`]), in order, and
/// publishes them: a new snapshot, and an incremental index generation for
/// transcripts. A change that cannot be applied stops the pass where it is; the next
/// pass tries it again. Returns how many changes were applied.
pub async fn apply_changes(state: &App) -> AppResult<usize> {
    let data_dir = state.data_dir.clone();
    let mut position =
        crate::runtime::blocking(move || crate::cluster::applied_position(&data_dir)).await?;
    let mut applied = 0;
    loop {
        let changes = state.cluster.changes_after(position).await?;
        if changes.is_empty() {
            break;
        }
        // A batch is applied on a blocking thread (the catalog's writes), in order.
        let batch = state.clone();
        let (reached, own_applied) = crate::runtime::blocking(move || {
            let mut applied = 0;
            let mut reached = position;
            for logged in changes {
                // This node's own changes are applied again too, in log order: another
                // node's change to the same podcast may sit between its write and its
                // record, and only the log's order is the same on every node.
                apply_change(&batch, &logged).map_err(|error| {
                    AppError::Internal(format!("catalog change {}: {error}", logged.seq))
                })?;
                if !logged.own {
                    applied += 1;
                }
                reached = logged.seq;
                crate::cluster::save_position(&batch.data_dir, reached)?;
            }
            Ok((reached, applied))
        })
        .await?;
        position = reached;
        applied += own_applied;
    }
    if applied > 0 {
        let catalog = state.catalog.clone();
        crate::runtime::blocking(move || Ok(catalog.snapshot()?.refresh()?)).await?;
    }
    Ok(applied)
}

fn apply_change(state: &App, logged: &LoggedChange) -> AppResult<()> {
    match &logged.change {
        change @ (CatalogChange::Feed { .. } | CatalogChange::Blocked { .. }) => {
            crate::refresh::apply_feed_change(&state.refresher, &state.catalog, change)?;
        }
        CatalogChange::Transcript {
            episode,
            transcript,
        } => {
            crate::workflows::speech_worker::store(&state.catalog_writes(), transcript)?;
            // This node queued its own transcript for its index when it made it.
            if logged.own {
                return Ok(());
            }
            state.speech.index_updates.submit(
                &state.data_dir,
                &state.catalog,
                (**episode).clone(),
                (**transcript).clone(),
            );
        }
    }
    Ok(())
}

/// What a node does every [`crate::cluster::TICK`]: asks for the leadership, applies
/// the other nodes' catalog changes and, while it leads, sends due alert deliveries
/// and runs [`run_jobs`] every `interval` (at once when it starts or takes over;
/// taking over also resumes interrupted guest-profile pipelines). A follower runs none
/// of the leader's jobs.
pub fn spawn_background_jobs(state: App, interval: std::time::Duration) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(crate::cluster::TICK);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut last_jobs: Option<Instant> = None;
        // Whether this node resumed interrupted pipelines since it last took the lead
        // (at start, for a node that leads from the first tick).
        let mut resumed = false;
        loop {
            ticker.tick().await;
            let (leading, _) = state.cluster.check_leadership().await;
            match apply_changes(&state).await {
                Ok(0) => {}
                Ok(applied) => tracing::info!(applied, "applied other nodes' catalog changes"),
                Err(error) => {
                    tracing::warn!(%error, "cannot apply other nodes' catalog changes; trying again")
                }
            }
            if !leading {
                last_jobs = None;
                resumed = false;
                continue;
            }
            if !resumed {
                resumed = true;
                let resume_state = state.clone();
                if let Err(error) =
                    tokio::spawn(async move { resume_state.guest_pipeline().resume().await }).await
                {
                    tracing::error!(%error, "resuming guest-profile pipelines panicked");
                }
            }
            if last_jobs.is_none_or(|at| at.elapsed() >= interval) {
                last_jobs = Some(Instant::now());
                let job_state = state.clone();
                // A task of its own: a panic in a job is reported, and the tick goes on.
                match tokio::spawn(async move { run_jobs(&job_state).await }).await {
                    Ok(report) => tracing::debug!(?report, "background jobs ran"),
                    Err(error) => tracing::error!(%error, "background jobs panicked"),
                }
                if let Err(error) = state
                    .cluster
                    .prune(chrono::Utc::now() - crate::cluster::CHANGE_RETENTION)
                    .await
                {
                    tracing::warn!(%error, "cannot prune the catalog change log");
                }
            }
            // Alert deliveries are sent even when a job above failed: the first pass
            // after a start resumes the deliveries a crash interrupted. Deliveries due
            // from alerts made on other nodes go out within a tick.
            match deliver_pending(&state.delivery_passes()).await {
                Ok(report) => tracing::debug!(?report, "alert deliveries ran"),
                Err(error) => tracing::warn!(%error, "alert deliveries failed"),
            }
        }
    });
}

/// Counts one pass of the background jobs and its failures.
pub fn record_job_pass(seconds: f64, failures: &[JobFailure]) {
    metrics::counter!("podlens_job_passes_total").increment(1);
    metrics::histogram!("podlens_job_pass_duration_seconds").record(seconds);
    for failure in failures {
        metrics::counter!("podlens_job_failures_total", "job" => failure.job.clone()).increment(1);
    }
}
