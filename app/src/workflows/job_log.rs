//! What the background jobs did, for an operator: the last pass (`jobs/last-pass.json`)
//! and the recent failures (`jobs/failures.jsonl`, the newest [`KEPT_FAILURES`]) in the
//! data directory. Plain files, so `podlens status` reads them while `podlens serve`
//! holds the app database.

use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// Failures kept in `jobs/failures.jsonl`.
pub const KEPT_FAILURES: usize = 200;

/// One job (or one alert, one transcription request) that failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobFailure {
    pub at: DateTime<Utc>,
    /// `transcriptions`, `alert`, `deliveries`, …
    pub job: String,
    pub team_id: Option<String>,
    /// What it was working on: an alert id, a request id, a podcast id.
    pub subject: Option<String>,
    pub error: String,
}

impl JobFailure {
    pub fn new(
        job: &str,
        team_id: Option<&str>,
        subject: Option<&str>,
        error: &dyn std::fmt::Display,
    ) -> Self {
        JobFailure {
            at: Utc::now(),
            job: job.to_owned(),
            team_id: team_id.map(str::to_owned),
            subject: subject.map(str::to_owned),
            error: error.to_string(),
        }
    }

    /// Logs the failure at warn with its job, team and subject.
    pub fn log(&self) {
        tracing::warn!(
            job = %self.job,
            team = self.team_id.as_deref().unwrap_or("-"),
            subject = self.subject.as_deref().unwrap_or("-"),
            error = %self.error,
            "background job failed"
        );
    }
}

/// The summary of the last pass of the jobs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LastPass {
    pub finished_at: Option<DateTime<Utc>>,
    pub duration_ms: u64,
    pub alerts_run: u64,
    pub new_matches: u64,
    pub transcription_requests_created: u64,
    /// Transcription requests waiting for the worker after the pass.
    pub transcriptions_queued: u64,
    pub deliveries_sent: u64,
    pub deliveries_retrying: u64,
    pub deliveries_failed: u64,
    pub failures: u64,
}

fn jobs_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("jobs")
}

/// Appends `failures`, keeping the newest [`KEPT_FAILURES`].
pub fn record_failures(data_dir: &Path, failures: &[JobFailure]) -> std::io::Result<()> {
    if failures.is_empty() {
        return Ok(());
    }
    let dir = jobs_dir(data_dir);
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("failures.jsonl");
    let mut kept = read_failures(data_dir, KEPT_FAILURES);
    kept.extend(failures.iter().cloned());
    let start = kept.len().saturating_sub(KEPT_FAILURES);
    let mut text = Vec::new();
    for failure in &kept[start..] {
        serde_json::to_writer(&mut text, failure)?;
        text.push(b'\n');
    }
    write_atomically(&path, &text)
}

/// The newest `limit` recorded failures, oldest first (none when the file is missing;
/// unreadable lines are skipped).
pub fn read_failures(data_dir: &Path, limit: usize) -> Vec<JobFailure> {
    let Ok(text) = std::fs::read_to_string(jobs_dir(data_dir).join("failures.jsonl")) else {
        return Vec::new();
    };
    let all: Vec<JobFailure> = text
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect();
    all[all.len().saturating_sub(limit)..].to_vec()
}

/// Writes the summary of the pass that just ended.
pub fn write_last_pass(data_dir: &Path, pass: &LastPass) -> std::io::Result<()> {
    let dir = jobs_dir(data_dir);
    std::fs::create_dir_all(&dir)?;
    write_atomically(
        &dir.join("last-pass.json"),
        &serde_json::to_vec_pretty(pass)?,
    )
}

/// The last pass, when the jobs have run in this data directory.
pub fn read_last_pass(data_dir: &Path) -> Option<LastPass> {
    let text = std::fs::read(jobs_dir(data_dir).join("last-pass.json")).ok()?;
    serde_json::from_slice(&text).ok()
}

fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let partial = path.with_extension("partial");
    {
        let mut file = std::fs::File::create(&partial)?;
        file.write_all(bytes)?;
        file.sync_all()?;
    }
    std::fs::rename(&partial, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_keep_the_newest_and_survive_a_bad_line() {
        let dir = tempfile::tempdir().unwrap();
        for round in 0..3 {
            let batch: Vec<JobFailure> = (0..90)
                .map(|i| {
                    JobFailure::new(
                        "alert",
                        Some("team"),
                        Some(&format!("{round}-{i}")),
                        &"boom",
                    )
                })
                .collect();
            record_failures(dir.path(), &batch).unwrap();
        }
        let kept = read_failures(dir.path(), usize::MAX);
        assert_eq!(kept.len(), KEPT_FAILURES);
        assert_eq!(kept.last().unwrap().subject.as_deref(), Some("2-89"));
        assert_eq!(kept[0].subject.as_deref(), Some("0-70"));
        let path = dir.path().join("jobs/failures.jsonl");
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("not json\n");
        std::fs::write(&path, text).unwrap();
        assert_eq!(read_failures(dir.path(), 5).len(), 5);
    }
}
