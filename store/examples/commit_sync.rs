//! What syncing every commit costs the application store: write transactions as the
//! services make them (`BEGIN IMMEDIATE` on the one writer connection, an advisory-style
//! team lock, one insert, commit) on a data directory's SQLite file, once with each
//! `synchronous` setting. Prints commits per second and latency percentiles.
//!
//! `cargo run --release -p podlens-store --example commit_sync -- [COMMITS] [DIR]`
//! (DIR: where the database file is made, default a temporary directory; give one on
//! the disk the data directory lives on).

use std::time::{Duration, Instant};

use podlens_store::{Database, Location};

fn percentile(sorted: &[Duration], fraction: f64) -> f64 {
    let index = ((sorted.len() as f64 - 1.0) * fraction).round() as usize;
    sorted[index].as_secs_f64() * 1000.0
}

fn main() {
    let mut args = std::env::args().skip(1);
    let commits: usize = args
        .next()
        .map(|text| text.parse().expect("COMMITS is a number"))
        .unwrap_or(2000);
    let parent = args.next().map(std::path::PathBuf::from);
    println!("| synchronous | commits | commits/s | p50 ms | p90 ms | p99 ms |");
    println!("|---|---:|---:|---:|---:|---:|");
    for setting in ["NORMAL", "FULL"] {
        let dir = match &parent {
            Some(parent) => tempfile::tempdir_in(parent),
            None => tempfile::tempdir(),
        }
        .expect("a temporary directory");
        let database =
            Database::open(&Location::DataDir(dir.path().to_path_buf())).expect("the store opens");
        database
            .wait(
                sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
                    "PRAGMA synchronous = {setting}"
                )))
                .execute(database.writer()),
            )
            .expect("pragma");
        let mut latencies = Vec::with_capacity(commits);
        let started = Instant::now();
        for n in 0..commits {
            let began = Instant::now();
            database
                .wait(async {
                    let mut transaction = database.begin_write().await?;
                    database.lock(&mut transaction, "bench:team").await?;
                    sqlx::query("INSERT INTO teams VALUES ($1, $2, $3, $4)")
                        .bind(format!("team-{n}"))
                        .bind("Bench")
                        .bind("business")
                        .bind("2026-01-01T00:00:00.000000Z")
                        .execute(&mut *transaction)
                        .await?;
                    transaction.commit().await?;
                    Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
                })
                .expect("a commit");
            latencies.push(began.elapsed());
        }
        let elapsed = started.elapsed().as_secs_f64();
        latencies.sort();
        println!(
            "| {setting} | {commits} | {:.0} | {:.2} | {:.2} | {:.2} |",
            commits as f64 / elapsed,
            percentile(&latencies, 0.5),
            percentile(&latencies, 0.9),
            percentile(&latencies, 0.99)
        );
    }
}
