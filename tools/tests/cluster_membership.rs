//! A cluster as real processes on loopback: SeaweedFS (the object store), etcd (the
//! membership), three `podlens search-node --etcd --object-store` with empty data
//! directories and a `podlens serve --etcd` root. `podlens publish` uploads a generation
//! and records it in the metastore; each node pulls only the shards rendezvous hashing
//! gives it, and every shard is served by two nodes; the root answers exactly as one
//! node over the same data; a node killed with SIGKILL under a steady search load costs
//! no search, and its shards are pulled and served by two nodes again once its lease
//! expires; a node stopped with SIGTERM leaves at once.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use podlens_tools::generate::{GenerateOptions, generate};
use serde_json::{Value, json};

const SHARDS: u32 = 4;
const TOKEN: &str = "membership-secret";
/// The nodes' lease (`podlens_cluster::membership::LEASE_SECONDS`) and a margin.
const LEASE_AND_MARGIN: Duration = Duration::from_secs(10);

fn podlens(args: &[&str], data_dir: &Path) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_podlens"))
        .arg("--no-progress")
        .args(args)
        .arg("--data-dir")
        .arg(data_dir)
        .output()
        .expect("podlens runs");
    assert!(
        output.status.success(),
        "podlens {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8")
}

/// A catalog indexed in `SHARDS` shards with global statistics, and an admin key.
fn data_dir(root: &Path) -> (PathBuf, String) {
    let corpus = root.join("corpus");
    generate(
        &GenerateOptions {
            podcasts: 40,
            seed: 11,
            out: corpus.clone(),
            base_url: "http://127.0.0.1:9".into(),
            transcript_share: 0.0,
            chart_days: 1,
            as_of: None,
        },
        &|| {},
    )
    .expect("corpus generates");
    let data = root.join("data");
    let feeds = corpus.join("feeds");
    podlens(
        &["ingest", feeds.to_str().unwrap(), "--no-transcripts"],
        &data,
    );
    podlens(
        &[
            "index",
            "--shards",
            &SHARDS.to_string(),
            "--statistics",
            "--no-vectors",
        ],
        &data,
    );
    let created = podlens(
        &[
            "keys",
            "create",
            "--email",
            "owner@example.com",
            "--plan",
            "admin",
        ],
        &data,
    );
    let key = created.lines().last().expect("key line").trim().to_owned();
    (data, key)
}

const BUCKET: &str = "podlens";

/// The object store as the podlens processes reach it.
fn object_store_env(s3: &str) -> Vec<(&'static str, String)> {
    vec![
        ("AWS_ENDPOINT_URL", s3.to_owned()),
        ("AWS_ALLOW_HTTP", "true".into()),
        ("AWS_ACCESS_KEY_ID", "podlens".into()),
        ("AWS_SECRET_ACCESS_KEY", "podlens-secret".into()),
        ("AWS_REGION", "us-east-1".into()),
    ]
}

/// A process killed (SIGKILL) when dropped.
struct Process {
    child: Child,
    url: String,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `podlens <args>` and reads the address from its first line, which ends with it.
fn start(args: &[&str], data_dir: &Path, env: &[(&str, String)]) -> Process {
    let mut child = Command::new(env!("CARGO_BIN_EXE_podlens"))
        .arg("--no-progress")
        .args(args)
        .arg("--data-dir")
        .arg(data_dir)
        .envs(env.iter().map(|(name, value)| (name, value)))
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(data_dir.with_extension("log")).expect("log file"))
        .spawn()
        .expect("podlens starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("listening line");
    let url = line
        .split_whitespace()
        .last()
        .filter(|url| url.starts_with("http://"))
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    Process { child, url }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port()
}

/// etcd, as installed by `scripts/install-etcd.sh`, alone on loopback.
fn start_etcd(dir: &Path) -> Process {
    let (client, peer) = (free_port(), free_port());
    let client_url = format!("http://127.0.0.1:{client}");
    let peer_url = format!("http://127.0.0.1:{peer}");
    let child = Command::new("etcd")
        .args(["--name", "only", "--data-dir"])
        .arg(dir.join("etcd"))
        .args([
            "--listen-client-urls",
            &client_url,
            "--advertise-client-urls",
            &client_url,
            "--listen-peer-urls",
            &peer_url,
            "--initial-advertise-peer-urls",
            &peer_url,
            "--initial-cluster",
            &format!("only={peer_url}"),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("etcd is installed (scripts/install-etcd.sh)");
    Process {
        child,
        url: client_url,
    }
}

/// SeaweedFS (`scripts/install-seaweedfs.sh`) on loopback: master, volume server, filer
/// and S3 gateway in one process, with the bucket made. Its S3 endpoint is `url`.
async fn start_seaweedfs(dir: &Path) -> Process {
    let weed = std::env::var_os("PODLENS_SEAWEEDFS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").expect("HOME"))
                .join(".cache/podlens-tools/seaweedfs-4.48")
        })
        .join("bin/weed");
    assert!(
        weed.is_file(),
        "SeaweedFS is not installed at {}: run scripts/install-seaweedfs.sh",
        weed.display()
    );
    let data = dir.join("seaweedfs");
    std::fs::create_dir_all(&data).unwrap();
    let config = dir.join("s3.json");
    std::fs::write(
        &config,
        json!({"identities": [{"name": "podlens",
            "credentials": [{"accessKey": "podlens", "secretKey": "podlens-secret"}],
            "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]})
        .to_string(),
    )
    .unwrap();
    let ports: Vec<u16> = (0..8).map(|_| free_port()).collect();
    let child = Command::new(&weed)
        .arg("server")
        .arg(format!("-dir={}", data.display()))
        .args(["-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-filer", "-s3"])
        .arg(format!("-master.port={}", ports[0]))
        .arg(format!("-master.port.grpc={}", ports[1]))
        .arg(format!("-volume.port={}", ports[2]))
        .arg(format!("-volume.port.grpc={}", ports[3]))
        .arg(format!("-filer.port={}", ports[4]))
        .arg(format!("-filer.port.grpc={}", ports[5]))
        .arg(format!("-s3.port={}", ports[6]))
        .arg(format!("-s3.port.grpc={}", ports[7]))
        .args(["-s3.port.iceberg=0", "-s3.port.lance=0", "-volume.max=4"])
        // Below its free-space floor (1% of the disk by default) a volume server turns
        // read-only and every upload times out; this test stores megabytes.
        .arg("-volume.minFreeSpace=256MiB")
        .arg("-master.volumeSizeLimitMB=64")
        .arg(format!("-s3.config={}", config.display()))
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join("seaweedfs.out")).unwrap())
        .spawn()
        .expect("weed starts");
    let process = Process {
        child,
        url: format!("http://127.0.0.1:{}", ports[6]),
    };
    // The bucket is a folder of the filer's /buckets.
    let http = reqwest::Client::builder().no_proxy().build().unwrap();
    let up = Instant::now();
    let mut made = false;
    loop {
        // 201 made, 409 made before
        made = made
            || http
                .post(format!("http://127.0.0.1:{}/buckets/{BUCKET}/", ports[4]))
                .send()
                .await
                .is_ok_and(|response| {
                    response.status().is_success() || response.status().as_u16() == 409
                });
        let s3_up = http.get(&process.url).send().await.is_ok();
        if made && s3_up {
            break;
        }
        assert!(
            up.elapsed() < Duration::from_secs(60),
            "SeaweedFS did not start: {}",
            std::fs::read_to_string(dir.join("seaweedfs.out")).unwrap_or_default()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    process
}

/// The shards whose files are in a node's data directory.
fn shards_on_disk(data_dir: &Path) -> Vec<u32> {
    let mut shards: Vec<u32> = std::fs::read_dir(data_dir.join("index"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().starts_with("gen-"))
        .flat_map(|generation| {
            std::fs::read_dir(generation.path())
                .into_iter()
                .flatten()
                .flatten()
        })
        .filter_map(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .strip_prefix("shard-")
                .and_then(|number| number.parse().ok())
        })
        .collect();
    shards.sort_unstable();
    shards.dedup();
    shards
}

/// The members etcd lists under `podlens/nodes/`, read through etcd's own JSON
/// gateway: node name → the shards of its newest generation.
async fn members(http: &reqwest::Client, etcd: &str) -> Option<BTreeMap<String, Vec<u32>>> {
    let body = json!({
        "key": STANDARD.encode("podlens/nodes/"),
        "range_end": STANDARD.encode("podlens/nodes0"),
    });
    let response = http
        .post(format!("{etcd}/v3/kv/range"))
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .ok()?;
    let answer: Value = serde_json::from_slice(&response.bytes().await.ok()?).ok()?;
    let mut members = BTreeMap::new();
    for kv in answer["kvs"].as_array().cloned().unwrap_or_default() {
        let value = STANDARD.decode(kv["value"].as_str()?).ok()?;
        let status: Value = serde_json::from_slice(&value).ok()?;
        let shards = status["generations"]
            .as_array()
            .and_then(|generations| generations.last())
            .map(|newest| {
                newest["shards"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_u64)
                    .map(|shard| shard as u32)
                    .collect()
            })
            .unwrap_or_default();
        members.insert(status["node"].as_str()?.to_owned(), shards);
    }
    Some(members)
}

/// How many listed nodes serve each shard.
fn replicas(members: &BTreeMap<String, Vec<u32>>) -> Vec<usize> {
    (0..SHARDS)
        .map(|shard| {
            members
                .values()
                .filter(|shards| shards.contains(&shard))
                .count()
        })
        .collect()
}

/// The last lines of every process's log under `dir`, for a failure's message.
fn logs(dir: &Path) -> String {
    let mut text = String::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|extension| extension == "log") {
            let content = std::fs::read_to_string(&path).unwrap_or_default();
            let lines: Vec<&str> = content.lines().collect();
            text.push_str(&format!("\n== {}\n", path.display()));
            text.push_str(&lines[lines.len().saturating_sub(12)..].join("\n"));
        }
    }
    text
}

/// Waits until etcd lists exactly `names`, each shard served by `copies` of them.
async fn settle(
    http: &reqwest::Client,
    etcd: &str,
    names: &[&str],
    copies: usize,
    dir: &Path,
) -> (BTreeMap<String, Vec<u32>>, Duration) {
    let started = Instant::now();
    let wanted: BTreeSet<&str> = names.iter().copied().collect();
    let mut last = None;
    while started.elapsed() < Duration::from_secs(30) {
        if let Some(members) = members(http, etcd).await {
            let listed: BTreeSet<&str> = members.keys().map(String::as_str).collect();
            // Settled: every shard on `copies` nodes, and each node serving exactly the
            // shards rendezvous hashing gives it among the live nodes (while a node joins,
            // the others may still hold every copy).
            if listed == wanted
                && replicas(&members).iter().all(|count| *count == copies)
                && as_assigned(&members, &wanted, copies)
            {
                return (members, started.elapsed());
            }
            last = Some(members);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!(
        "etcd never listed {names:?} with {copies} copies of every shard: last {last:?}{}",
        logs(dir)
    );
}

/// Whether each member serves exactly its rendezvous shards among `names`.
fn as_assigned(
    members: &BTreeMap<String, Vec<u32>>,
    names: &BTreeSet<&str>,
    copies: usize,
) -> bool {
    let shards = members.values().flatten().max().map_or(0, |last| last + 1);
    members.iter().all(|(name, served)| {
        let expected: Vec<u32> = (0..shards)
            .filter(|shard| {
                podlens_cluster::view::ranked(names.iter().copied(), *shard)
                    .iter()
                    .take(copies)
                    .any(|node| node == name)
            })
            .collect();
        let mut served = served.clone();
        served.sort_unstable();
        served == expected
    })
}

/// A search answer without its id, timings and cursor (signed with a key of each
/// server's own; each side pages on with its own, so the next pages compare them).
fn comparable(mut value: Value) -> Value {
    if let Some(object) = value.as_object_mut() {
        object.retain(|name, _| {
            let name = name.to_lowercase();
            name != "searchid"
                && name != "cursor"
                && !name.contains("took")
                && !name.contains("time")
        });
        for (_, inner) in object.iter_mut() {
            *inner = comparable(inner.take());
        }
    } else if let Some(array) = value.as_array_mut() {
        for inner in array.iter_mut() {
            *inner = comparable(inner.take());
        }
    }
    value
}

/// A search for `word`, five hits a page, from `cursor` when given.
fn search_body(kind: &str, word: &str, cursor: Option<&str>) -> Value {
    let targets = if kind == "podcasts" {
        json!(["podcast-title", "podcast-description"])
    } else {
        json!(["episode-title", "episode-description"])
    };
    let mut body = json!({
        "searchTerms": [{"searchTerm": word, "searchType": "text",
            "searchTargets": targets,
            "searchTermOptions": {"matchMode": "optional"}}],
        "pageSize": 5,
    });
    if let Some(cursor) = cursor {
        body["cursor"] = json!(cursor);
    }
    body
}

async fn search(
    http: &reqwest::Client,
    base: &str,
    key: &str,
    kind: &str,
    body: &Value,
) -> (u16, Value) {
    let response = http
        .post(format!("{base}/api/v1/search/{kind}"))
        .header("authorization", key)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .expect("the API answers");
    let status = response.status().as_u16();
    let bytes = response.bytes().await.expect("body");
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// Words of the catalog's podcast titles and descriptions.
fn words(data_dir: &Path) -> Vec<String> {
    let podcasts = podlens_data::snapshot::read_podcasts(&data_dir.join(podlens_data::PARQUET_DIR))
        .expect("snapshot reads");
    let mut words: Vec<String> = podcasts
        .iter()
        .take(12)
        .filter_map(|podcast| {
            podcast
                .podcast_rss_title
                .split_whitespace()
                .max_by_key(|word| word.len())
                .map(|word| {
                    word.trim_matches(|c: char| !c.is_alphanumeric())
                        .to_lowercase()
                })
        })
        .collect();
    words.sort();
    words.dedup();
    words
}

/// Every search of `words` (podcasts and episodes, the first two pages) through the
/// root and through the single node answers alike.
async fn same_answers(
    http: &reqwest::Client,
    root: &str,
    single: &str,
    key: &str,
    single_key: &str,
    words: &[String],
) -> u64 {
    let mut hits = 0;
    for word in words {
        for kind in ["podcasts", "episodes"] {
            let mut cursors: (Option<String>, Option<String>) = (None, None);
            for page in 1..=2 {
                if page > 1 && cursors.1.is_none() {
                    break;
                }
                let body = search_body(kind, word, cursors.0.as_deref());
                let (status, theirs) = search(http, root, key, kind, &body).await;
                assert_eq!(status, 200, "root: {kind} {body}: {theirs}");
                let body = search_body(kind, word, cursors.1.as_deref());
                let (status, ours) = search(http, single, single_key, kind, &body).await;
                assert_eq!(status, 200, "single node: {kind} {body}: {ours}");
                hits += ours["data"]["result"]["hitsReturned"].as_u64().unwrap_or(0);
                cursors = (
                    theirs["data"]["cursor"].as_str().map(str::to_owned),
                    ours["data"]["cursor"].as_str().map(str::to_owned),
                );
                assert_eq!(
                    comparable(theirs["data"].clone()),
                    comparable(ours["data"].clone()),
                    "{kind} {body}"
                );
            }
        }
    }
    hits
}

/// Searches through `root` until `stop`: how many, which failed, the slowest.
async fn steady_load(
    http: reqwest::Client,
    root: String,
    key: String,
    words: Vec<String>,
    stop: Arc<AtomicBool>,
) -> (usize, Vec<String>, Duration) {
    let (mut done, mut failed, mut slowest) = (0, Vec::new(), Duration::ZERO);
    while !stop.load(Ordering::Relaxed) {
        let word = &words[done % words.len()];
        let kind = if done % 2 == 0 {
            "podcasts"
        } else {
            "episodes"
        };
        let started = Instant::now();
        let (status, answer) =
            search(&http, &root, &key, kind, &search_body(kind, word, None)).await;
        slowest = slowest.max(started.elapsed());
        if status != 200 {
            failed.push(format!("{status}: {answer}"));
        }
        done += 1;
    }
    (done, failed, slowest)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn search_nodes_keep_every_shard_on_two_nodes_through_etcd_and_a_killed_node_costs_no_search()
{
    let root_dir = tempfile::tempdir().expect("tempdir");
    let (data, key) = data_dir(root_dir.path());
    // One node over the same catalog and generation, for the expected answers.
    let single_dir = root_dir.path().join("single");
    let copied = Command::new("cp")
        .arg("-a")
        .arg(&data)
        .arg(&single_dir)
        .status()
        .expect("cp runs");
    assert!(copied.success());
    let single = start(&["serve", "--port", "0"], &single_dir, &[]);

    // The generation goes to the object store and the metastore (the data directory's
    // application database here; PostgreSQL in a cluster).
    let seaweedfs = start_seaweedfs(root_dir.path()).await;
    let s3 = object_store_env(&seaweedfs.url);
    let store_url = format!("s3://{BUCKET}/cluster");
    let published = Command::new(env!("CARGO_BIN_EXE_podlens"))
        .args([
            "--no-progress",
            "publish",
            "--object-store",
            &store_url,
            "--data-dir",
        ])
        .arg(&data)
        .envs(s3.iter().map(|(name, value)| (name, value)))
        .output()
        .expect("podlens publish runs");
    assert!(
        published.status.success(),
        "publish: {}",
        String::from_utf8_lossy(&published.stderr)
    );
    let said = String::from_utf8_lossy(&published.stdout);
    assert!(said.contains("published index generation"), "{said}");
    let metastore = format!("sqlite://{}", data.join("app.sqlite3").display());

    let etcd = start_etcd(root_dir.path());
    let http = reqwest::Client::builder().no_proxy().build().unwrap();
    let up = Instant::now();
    while reqwest::get(format!("{}/health", etcd.url)).await.is_err() {
        assert!(up.elapsed() < Duration::from_secs(20), "etcd starts");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Each search node starts with an empty data directory of its own.
    let node = |name: &str| {
        start(
            &[
                "search-node",
                "--port",
                "0",
                "--name",
                name,
                "--etcd",
                &etcd.url,
                "--cluster-token",
                TOKEN,
                "--object-store",
                &store_url,
                "--database-url",
                &metastore,
            ],
            &root_dir.path().join(name),
            &s3,
        )
    };
    let mut nodes = vec![node("node-a"), node("node-b"), node("node-c")];
    let (members, _) = settle(
        &http,
        &etcd.url,
        &["node-a", "node-b", "node-c"],
        2,
        root_dir.path(),
    )
    .await;
    for (name, shards) in &members {
        assert!(!shards.is_empty(), "{name} serves some shard: {members:?}");
        assert_eq!(
            &shards_on_disk(&root_dir.path().join(name)),
            shards,
            "{name} pulled only the shards it serves"
        );
    }
    // `podlens status` shows the metastore's generation and the cluster as etcd lists it.
    let status = podlens(&["status", "--json", "--etcd", &etcd.url], &data);
    let status: Value = serde_json::from_str(&status).expect("status is JSON");
    assert_eq!(status["metastore"]["shards"], SHARDS, "{status}");
    assert_eq!(status["metastore"]["location"], store_url.as_str());
    let owners = status["cluster"]["shardOwners"].as_array().expect("owners");
    assert_eq!(owners.len(), SHARDS as usize, "{status}");
    for (shard, nodes) in owners.iter().enumerate() {
        let nodes: BTreeSet<&str> = nodes
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let expected: BTreeSet<&str> = members
            .iter()
            .filter(|(_, shards)| shards.contains(&(shard as u32)))
            .map(|(name, _)| name.as_str())
            .collect();
        assert_eq!(nodes, expected, "shard {shard}");
    }

    let api = start(
        &[
            "serve",
            "--port",
            "0",
            "--etcd",
            &etcd.url,
            "--cluster-token",
            TOKEN,
        ],
        &data,
        &[],
    );

    let words = words(&data);
    assert!(words.len() >= 5, "{words:?}");
    let up = Instant::now();
    loop {
        let (status, _) = search(
            &http,
            &api.url,
            &key,
            "podcasts",
            &search_body("podcasts", &words[0], None),
        )
        .await;
        if status == 200 {
            break;
        }
        assert!(
            up.elapsed() < Duration::from_secs(20),
            "the root sees every shard: {status}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let hits = same_answers(&http, &api.url, &single.url, &key, &key, &words).await;
    assert!(hits > 20, "the searches find something: {hits}");

    // SIGKILL under load: the lease expires, the survivors take the node's shards.
    let stop = Arc::new(AtomicBool::new(false));
    let load = tokio::spawn(steady_load(
        http.clone(),
        api.url.clone(),
        key.clone(),
        words.clone(),
        stop.clone(),
    ));
    tokio::time::sleep(Duration::from_millis(500)).await;
    drop(nodes.remove(0));
    let (members, took) = settle(&http, &etcd.url, &["node-b", "node-c"], 2, root_dir.path()).await;
    assert!(took < LEASE_AND_MARGIN, "shards moved in {took:?}");
    assert_eq!(members["node-b"], (0..SHARDS).collect::<Vec<_>>());
    tokio::time::sleep(Duration::from_millis(500)).await;
    stop.store(true, Ordering::Relaxed);
    let (done, failed, slowest) = load.await.unwrap();
    println!(
        "through a SIGKILL: {done} searches, {} failed, the slowest {slowest:?}; shards moved in {took:?}",
        failed.len()
    );
    assert!(done > 20, "the load ran: {done}");
    assert!(
        failed.is_empty(),
        "{} of {done} searches failed: {failed:?}",
        failed.len()
    );
    assert!(
        slowest < Duration::from_secs(1),
        "the slowest search during the failover took {slowest:?}"
    );
    same_answers(&http, &api.url, &single.url, &key, &key, &words).await;

    // SIGTERM: the node gives its lease back and leaves at once.
    let leaving = nodes.remove(0);
    let terminated = Command::new("kill")
        .args(["-TERM", &leaving.child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(terminated.success());
    let (_, took) = settle(&http, &etcd.url, &["node-c"], 1, root_dir.path()).await;
    assert!(
        took < Duration::from_secs(3),
        "a stopped node left in {took:?}"
    );
    drop(leaving);
    same_answers(&http, &api.url, &single.url, &key, &key, &words).await;
    drop(seaweedfs);
}
