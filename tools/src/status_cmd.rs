//! `podlens status --data-dir DIR`: what an operator needs to know about a data
//! directory, read from plain files so it works while `podlens serve` runs over it: the
//! published index generation and its age, the catalog snapshot's age, the background
//! jobs' last pass (queues included) and their recent failures; the newest generation the
//! metastore lists (`podlens publish`), and with `--etcd` a cluster's live search nodes
//! and the shards each serves.

use std::path::Path;
use std::time::SystemTime;

use anyhow::Context;
use chrono::{DateTime, Utc};
use podlens_app::workflows::job_log;

use crate::config::Config;

/// Flags of `podlens status`.
#[derive(Debug, clap::Args)]
pub struct StatusArgs {
    /// Recent job failures to show.
    #[arg(long, default_value_t = 10)]
    pub failures: usize,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
    /// A cluster's etcd endpoints (comma-separated): its live search nodes and their
    /// shards are shown.
    #[arg(long, env = "PODLENS_ETCD", value_delimiter = ',', value_name = "URLS")]
    pub etcd: Vec<String>,
    /// The prefix of the cluster's keys in etcd.
    #[arg(long, env = "PODLENS_ETCD_PREFIX", default_value = "podlens")]
    pub etcd_prefix: String,
}

/// A cluster's live search nodes, as etcd lists them.
fn cluster_members(
    endpoints: &[String],
    prefix: &str,
) -> anyhow::Result<Vec<podlens_cluster::NodeStatus>> {
    let etcd = podlens_cluster::membership::Etcd::new(endpoints, prefix)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let mut members = runtime.block_on(etcd.members())?;
    members.sort_by(|a, b| a.node.cmp(&b.node));
    Ok(members)
}

/// Shard → the nodes serving it, from the members' newest generations.
fn shard_owners(members: &[podlens_cluster::NodeStatus]) -> (u32, Vec<Vec<String>>) {
    let count = members
        .iter()
        .filter_map(|member| member.generations.last())
        .map(|generation| generation.shard_count)
        .max()
        .unwrap_or(0);
    let mut owners = vec![Vec::new(); count as usize];
    for member in members {
        if let Some(newest) = member.generations.last() {
            for shard in &newest.shards {
                if let Some(list) = owners.get_mut(*shard as usize) {
                    list.push(member.node.clone());
                }
            }
        }
    }
    (count, owners)
}

/// Prints the status of the data directory.
pub fn run(config: &Config, args: StatusArgs) -> anyhow::Result<()> {
    let data_dir = config.data_dir();
    anyhow::ensure!(
        data_dir.is_dir(),
        "no data directory at {}",
        data_dir.display()
    );
    let now = Utc::now();
    // Loaded as search would load it: the engine and the model, checked.
    let encoder = podlens_indexer::embedding::Encoder::load(
        &podlens_indexer::embedding::Encoder::default_dir(),
    )
    .map_err(|error| error.to_string());
    let manifest = podlens_indexer::read_manifest(&data_dir.join("index"))
        .with_context(|| format!("cannot read the index manifest in {}", data_dir.display()))?;
    let snapshot_at = modified(&data_dir.join("parquet").join("podcasts.parquet"));
    let last_pass = job_log::read_last_pass(&data_dir);
    let failures = job_log::read_failures(&data_dir, args.failures);
    // The scheduler's state lives in the application store, which the CLI opens
    // beside a running server.
    // Status only reads: a data directory without its store yet is not given one.
    let location = config.store_location();
    let schedule = match &location {
        podlens_store::Location::DataDir(dir)
            if !dir.join(podlens_store::APP_DATABASE_FILE).is_file() =>
        {
            Ok(podlens_store::ScheduleSummary::default())
        }
        _ => podlens_store::Database::open(&location)
            .and_then(|database| database.wait(database.schedule_summary(now)))
            .map_err(|error| error.to_string()),
    };
    let published = match &location {
        podlens_store::Location::DataDir(dir)
            if !dir.join(podlens_store::APP_DATABASE_FILE).is_file() =>
        {
            Ok(None)
        }
        _ => podlens_store::Database::open(&location)
            .and_then(|database| database.wait(database.newest_generation()))
            .map_err(|error| error.to_string()),
    };
    let members = (!args.etcd.is_empty()).then(|| {
        cluster_members(&args.etcd, &args.etcd_prefix).map_err(|error| format!("{error:#}"))
    });
    if args.json {
        let document = serde_json::json!({
            "metastore": match &published {
                Ok(Some(p)) => serde_json::json!({
                    "generation": p.generation,
                    "shards": p.shards,
                    "replicas": p.replicas,
                    "location": p.location,
                    "statistics": p.statistics,
                    "createdAt": p.created_at,
                }),
                Ok(None) => serde_json::Value::Null,
                Err(error) => serde_json::json!({ "error": error }),
            },
            "cluster": match &members {
                None => serde_json::Value::Null,
                Some(Ok(members)) => serde_json::json!({
                    "searchNodes": members.iter().map(|member| serde_json::json!({
                        "name": member.node,
                        "url": member.url,
                        "generations": member.generations.iter().map(|g| serde_json::json!({
                            "generation": g.generation,
                            "shards": g.shards,
                        })).collect::<Vec<_>>(),
                    })).collect::<Vec<_>>(),
                    "shardOwners": shard_owners(members).1,
                }),
                Some(Err(error)) => serde_json::json!({ "error": error }),
            },
            "dataDir": data_dir,
            "index": manifest.as_ref().map(|m| serde_json::json!({
                "generation": m.generation,
                "publishedAt": m.published_at,
                "podcasts": m.podcasts,
                "episodes": m.episodes,
                "shards": m.shards,
                "vectors": m.vectors.as_ref().map(|v| v.count),
                "showVectors": m.encoder.as_ref().map(|v| v.count),
            })),
            "encoder": match &encoder {
                Ok(encoder) => serde_json::json!({
                    "dir": encoder.dir(),
                    "modelSha256": encoder.model_sha256(),
                }),
                Err(error) => serde_json::json!({ "error": error }),
            },
            "snapshotWrittenAt": snapshot_at,
            "jobs": last_pass,
            "scheduler": match &schedule {
                Ok(s) => serde_json::json!({
                    "feeds": s.feeds,
                    "due": s.due,
                    "failing": s.failing,
                    "oldestDueAt": s.oldest_due_at,
                    "nextPollAt": s.next_poll_at,
                    "lastPolledAt": s.last_polled_at,
                    "activeWebSubSubscriptions": s.active_subscriptions,
                }),
                Err(error) => serde_json::json!({ "error": error }),
            },
            "recentFailures": failures,
        });
        println!("{}", serde_json::to_string_pretty(&document)?);
        return Ok(());
    }
    println!("data directory  {}", data_dir.display());
    match &encoder {
        Ok(encoder) => println!(
            "encoder         multilingual-e5-small in {}{}",
            encoder.dir().display(),
            match manifest.as_ref().and_then(|m| m.encoder.as_ref()) {
                Some(shows) if shows.model_sha256 == encoder.model_sha256() =>
                    format!(": the index has {} show vectors from it", shows.count),
                Some(_) =>
                    ": the index's show vectors come from another model (run `podlens index`)"
                        .to_owned(),
                None => ": the index has no show vectors (run `podlens index`)".to_owned(),
            }
        ),
        Err(error) => println!(
            "encoder         not available ({error}): podcast search fuses with the static vectors; scripts/install-encoder.sh installs it"
        ),
    }
    match &manifest {
        Some(m) => {
            let age = DateTime::parse_from_rfc3339(&m.published_at)
                .map(|at| age(now, at.with_timezone(&Utc)))
                .unwrap_or_else(|_| "unknown age".to_owned());
            println!(
                "index           generation {} published {} ({age}): {} podcasts, {} episodes, {} shards, {}",
                m.generation,
                m.published_at,
                m.podcasts,
                m.episodes,
                m.shards,
                match &m.vectors {
                    Some(vectors) => format!("{} vectors", vectors.count),
                    None => "no vectors (semantic search off; run `podlens model build`, then `podlens index`)".to_owned(),
                }
            );
        }
        None => println!("index           none published (run `podlens index`)"),
    }
    match snapshot_at {
        Some(at) => println!(
            "catalog         snapshot written {} ({}) by the last ingest, crawl or score",
            at.to_rfc3339(),
            age(now, at)
        ),
        None => println!("catalog         no snapshot (run `podlens ingest`)"),
    }
    match &schedule {
        Ok(s) if s.feeds == 0 => println!(
            "scheduler       no feeds followed yet (`podlens serve` follows the catalog's feeds)"
        ),
        Ok(s) => println!(
            "scheduler       {} feeds followed, {} due now{}, {} failing; last poll {}, next {}; {} WebSub subscriptions active",
            s.feeds,
            s.due,
            s.oldest_due_at
                .map(|at| format!(
                    " (the oldest {} behind)",
                    age(now, at).trim_end_matches(" ago")
                ))
                .unwrap_or_default(),
            s.failing,
            s.last_polled_at
                .map(|at| age(now, at))
                .unwrap_or_else(|| "never".to_owned()),
            s.next_poll_at
                .map(|at| at.to_rfc3339())
                .unwrap_or_else(|| "-".to_owned()),
            s.active_subscriptions
        ),
        Err(error) => println!("scheduler       unknown: {error}"),
    }
    match &last_pass {
        Some(pass) => println!(
            "jobs            last pass {} ({} ms): {} alerts run, {} new matches, {} transcription requests created, {} queued; deliveries {} sent, {} retrying, {} failed; {} failures",
            pass.finished_at
                .map(|at| format!("{} ({})", at.to_rfc3339(), age(now, at)))
                .unwrap_or_else(|| "never".to_owned()),
            pass.duration_ms,
            pass.alerts_run,
            pass.new_matches,
            pass.transcription_requests_created,
            pass.transcriptions_queued,
            pass.deliveries_sent,
            pass.deliveries_retrying,
            pass.deliveries_failed,
            pass.failures
        ),
        None => println!("jobs            no pass yet (they run inside `podlens serve`)"),
    }
    match &published {
        Ok(Some(p)) => println!(
            "metastore       generation {} published to {} {} ({}): {} shards, {} replicas each{}",
            p.generation,
            p.location,
            p.created_at.to_rfc3339(),
            age(now, p.created_at),
            p.shards,
            p.replicas,
            if p.statistics {
                ", global statistics"
            } else {
                ""
            }
        ),
        Ok(None) => {}
        Err(error) => println!("metastore       unknown: {error}"),
    }
    match &members {
        None => {}
        Some(Err(error)) => println!("cluster         unknown: {error}"),
        Some(Ok(members)) => {
            let (count, owners) = shard_owners(members);
            let unserved: Vec<usize> = owners
                .iter()
                .enumerate()
                .filter(|(_, nodes)| nodes.is_empty())
                .map(|(shard, _)| shard)
                .collect();
            let fewest = owners.iter().map(Vec::len).min().unwrap_or(0);
            println!(
                "cluster         {} search nodes live; {count} shards, {}; API nodes of a cluster poll no feeds (generations come from `podlens publish`)",
                members.len(),
                if count == 0 {
                    "none served".to_owned()
                } else if unserved.is_empty() {
                    format!("each on at least {fewest} nodes")
                } else {
                    format!("shards {unserved:?} on no node: searches fail until one serves them")
                }
            );
            for member in members {
                let newest = member.generations.last();
                println!(
                    "  {} {} generation {} shards {:?}",
                    member.node,
                    member.url,
                    newest.map_or("-".to_owned(), |g| g.generation.to_string()),
                    newest.map(|g| g.shards.clone()).unwrap_or_default()
                );
            }
        }
    }
    if failures.is_empty() {
        println!("failures        none recorded");
    } else {
        println!("failures        the {} most recent:", failures.len());
        for failure in &failures {
            println!(
                "  {} {} team {} {}: {}",
                failure.at.to_rfc3339(),
                failure.job,
                failure.team_id.as_deref().unwrap_or("-"),
                failure.subject.as_deref().unwrap_or("-"),
                failure.error
            );
        }
    }
    Ok(())
}

fn modified(path: &Path) -> Option<DateTime<Utc>> {
    let time: SystemTime = std::fs::metadata(path).ok()?.modified().ok()?;
    Some(time.into())
}

/// `3 h 12 min ago`, `45 s ago`.
fn age(now: DateTime<Utc>, at: DateTime<Utc>) -> String {
    let seconds = (now - at).num_seconds().max(0);
    match seconds {
        0..60 => format!("{seconds} s ago"),
        60..3600 => format!("{} min ago", seconds / 60),
        3600..86400 => format!("{} h {} min ago", seconds / 3600, seconds % 3600 / 60),
        _ => format!("{} days ago", seconds / 86400),
    }
}
