//! Vector top-10 over real-derived transcript-like chunks (768-d), side by side in one run:
//! brute-force f32 (the ground truth), brute-force int8 as the index stores it
//! (`podlens_indexer::vectors`, one store per shard searched in parallel), the index's
//! search (`ShardVectors::nearest`: Hamming scan over sign codes, the nearest R rows per
//! shard re-scored with int8) at several R, and an HNSW graph (hnsw_rs) at several search
//! widths. Reports recall@10 against f32 brute force, p50/p99 latency, build time and
//! memory, and writes benches/vectors/RESULTS.md.
//!
//! The vectors are real-derived: passages of 40–160 consecutive words cut at random
//! places from the real transcripts and feed texts of ../shared/corpus, embedded with
//! the static model (`podlens model build`); queries are 12-word windows cut the same way.
//!
//! Run: benches/vectors/run.sh (PODLENS_VECTORS=N to change the count,
//! PODLENS_SKIP_HNSW=1 to leave out the HNSW graph, whose build takes ~12 min at 1M).

use std::path::{Path, PathBuf};
use std::time::Instant;

use hnsw_rs::prelude::{Distance, Hnsw};
use podlens_indexer::embedding::{StaticModel, markup_to_text};
use podlens_indexer::vectors::{
    DEFAULT_RESCORE, QueryVector, RowSet, ShardVectors, VectorKey, VectorKind, top_k,
};
use rayon::prelude::*;
use uuid::Uuid;

const DIM: usize = 768;
const K: usize = 10;
const QUERIES: usize = 200;
/// Rows per shard the sign-code scan keeps for int8 re-scoring, measured side by side.
const RESCORE: &[usize] = &[10, 500, 1000, 2500, 5000, 10_000, 20_000];

fn cache_root() -> PathBuf {
    std::env::var_os("HOME")
        .map(|home| Path::new(&home).join(".cache/podlens-models"))
        .unwrap_or_else(|| PathBuf::from(".cache/podlens-models"))
}

/// splitmix64
struct Random(u64);
impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn words_of(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            words_of(&path, out);
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            let text = if path.extension().is_some_and(|e| e == "xml" || e == "html") {
                markup_to_text(&text)
            } else {
                text
            };
            out.extend(
                text.split_whitespace()
                    .filter(|w| {
                        !w.contains("-->")
                            && !w
                                .chars()
                                .all(|c| c.is_ascii_digit() || c == ':' || c == '.')
                    })
                    .map(str::to_owned),
            );
        }
    }
}

fn window(words: &[String], random: &mut Random, min: usize, max: usize) -> String {
    let len = min + random.below(max - min + 1);
    let start = random.below(words.len() - len);
    words[start..start + len].join(" ")
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0_f32; 16];
    let (ca, cb) = (a.chunks_exact(16), b.chunks_exact(16));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for (lane, (x, y)) in lanes.iter_mut().zip(x.iter().zip(y)) {
            *lane += x * y;
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// Cosine distance of unit vectors, for the HNSW graph.
#[derive(Clone, Copy, Default)]
struct CosineDistance;
impl Distance<f32> for CosineDistance {
    fn eval(&self, a: &[f32], b: &[f32]) -> f32 {
        (1.0 - dot(a, b)).max(0.0)
    }
}

fn peak_rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

struct Row {
    method: String,
    recall: f64,
    p50: f64,
    p99: f64,
    build_s: f64,
    memory_mb: f64,
}

fn measure(
    name: &str,
    truth: &[Vec<usize>],
    build_s: f64,
    memory_mb: f64,
    mut search: impl FnMut(usize) -> Vec<usize>,
) -> Row {
    let mut times = Vec::with_capacity(truth.len());
    let mut hits = 0;
    for (q, expected) in truth.iter().enumerate() {
        let started = Instant::now();
        let found = search(q);
        times.push(started.elapsed().as_secs_f64() * 1e3);
        hits += found.iter().filter(|id| expected.contains(id)).count();
    }
    times.sort_by(f64::total_cmp);
    let row = Row {
        method: name.to_owned(),
        recall: hits as f64 / (truth.len() * K) as f64,
        p50: percentile(&times, 0.5),
        p99: percentile(&times, 0.99),
        build_s,
        memory_mb,
    };
    eprintln!(
        "{:<40} recall@10 {:.3}  p50 {:.2} ms  p99 {:.2} ms",
        row.method, row.recall, row.p50, row.p99
    );
    row
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let corpus = std::env::var_os("PODLENS_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("../shared/corpus"));
    let static_dir = cache_root().join("static-mpnet-768");
    let Ok(model) = StaticModel::load(&static_dir) else {
        println!(
            "skipping: no static model in {} (run `podlens model build`)",
            static_dir.display()
        );
        return Ok(());
    };
    let count: usize = std::env::var("PODLENS_VECTORS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let threads = rayon::current_num_threads();
    let shards = threads.max(1);

    let mut words = Vec::new();
    words_of(&corpus.join("transcripts"), &mut words);
    words_of(&corpus.join("feeds"), &mut words);
    eprintln!("{} corpus words", words.len());

    // passages and their f32 vectors
    let started = Instant::now();
    let vectors: Vec<f32> = (0..count)
        .into_par_iter()
        .chunks(4096)
        .flat_map_iter(|ids| {
            let mut random = Random(0xC0FFEE ^ ids[0] as u64);
            let mut out = Vec::with_capacity(ids.len() * DIM);
            for _ in &ids {
                out.extend(model.embed(&window(&words, &mut random, 40, 160)));
            }
            out
        })
        .collect();
    let embed_s = started.elapsed().as_secs_f64();
    eprintln!("embedded {count} passages in {embed_s:.0} s");
    let mut random = Random(42);
    let queries: Vec<Vec<f32>> = (0..QUERIES)
        .map(|_| model.embed(&window(&words, &mut random, 12, 12)))
        .collect();
    let row = |i: usize| &vectors[i * DIM..(i + 1) * DIM];

    // ground truth: exact f32 brute force (parallel over the same shard split)
    let f32_search = |q: &[f32]| -> Vec<usize> {
        let per_shard: Vec<Vec<(f32, usize)>> = (0..shards)
            .into_par_iter()
            .map(|s| {
                let range = (s * count / shards)..((s + 1) * count / shards);
                top_k(range.map(|i| (dot(q, row(i)), i)), K)
            })
            .collect();
        top_k(per_shard.into_iter().flatten(), K)
            .into_iter()
            .map(|(_, i)| i)
            .collect()
    };
    let truth: Vec<Vec<usize>> = queries.iter().map(|q| f32_search(q)).collect();
    let mut rows = vec![measure(
        &format!("brute force f32 ({shards} shards in parallel)"),
        &truth,
        0.0,
        (count * DIM * 4) as f64 / 1e6,
        |q| f32_search(&queries[q]),
    )];

    // int8 stores as the index keeps them, one per shard
    let started = Instant::now();
    let stores: Vec<ShardVectors> = (0..shards)
        .into_par_iter()
        .map(|s| {
            let mut store = ShardVectors::new(DIM);
            for i in (s * count / shards)..((s + 1) * count / shards) {
                let key = VectorKey {
                    kind: VectorKind::Chunk,
                    podcast_id: Uuid::nil(),
                    episode_id: Uuid::from_u128(i as u128),
                    transcript_id: Uuid::nil(),
                    ordinal: 0,
                    start_second: f32::NAN,
                    end_second: f32::NAN,
                };
                store.push(key, row(i));
            }
            store
        })
        .collect();
    let int8_build = started.elapsed().as_secs_f64();
    let int8_search = |q: &QueryVector| -> Vec<usize> {
        let per_shard: Vec<Vec<(f32, usize)>> = stores
            .par_iter()
            .enumerate()
            .map(|(s, store)| {
                let base = s * count / shards;
                top_k((0..store.len()).map(|r| (q.score(store, r), base + r)), K)
            })
            .collect();
        top_k(per_shard.into_iter().flatten(), K)
            .into_iter()
            .map(|(_, i)| i)
            .collect()
    };
    let quantized: Vec<QueryVector> = queries.iter().map(|q| QueryVector::new(q)).collect();
    let int8_memory = (count * (DIM + 4 + 61)) as f64 / 1e6;
    rows.push(measure(
        &format!("brute force int8 ({shards} shards in parallel)"),
        &truth,
        int8_build,
        int8_memory,
        |q| int8_search(&quantized[q]),
    ));

    // the index's search: sign codes (built as writing a shard builds them), a Hamming
    // scan keeping the nearest R rows per shard, those re-scored with int8
    let mut stores = stores;
    let started = Instant::now();
    stores.par_iter_mut().for_each(ShardVectors::build_codes);
    let codes_build = int8_build + started.elapsed().as_secs_f64();
    let codes_memory = int8_memory + (count * DIM / 8) as f64 / 1e6;
    for &rescore in RESCORE {
        let name = if rescore == DEFAULT_RESCORE {
            format!("sign codes + int8 re-score R={rescore} per shard (index default)")
        } else {
            format!("sign codes + int8 re-score R={rescore} per shard")
        };
        rows.push(measure(&name, &truth, codes_build, codes_memory, |q| {
            let query = &quantized[q];
            let per_shard: Vec<Vec<(f32, usize)>> = stores
                .par_iter()
                .enumerate()
                .map(|(s, store)| {
                    let base = s * count / shards;
                    let found = store.nearest(query, RowSet::All, rescore, |_| true);
                    top_k(
                        found.rows.into_iter().map(|(score, r)| (score, base + r)),
                        K,
                    )
                })
                .collect();
            top_k(per_shard.into_iter().flatten(), K)
                .into_iter()
                .map(|(_, i)| i)
                .collect()
        }));
    }
    drop(stores);
    if std::env::var_os("PODLENS_SKIP_HNSW").is_some() {
        eprintln!("PODLENS_SKIP_HNSW set: no HNSW graph");
        return write_report(&repo, count, threads, &words, embed_s, &rows, false);
    }

    // HNSW (hnsw_rs) over the f32 vectors
    let (connections, ef_construction) = (16, 100);
    let started = Instant::now();
    let before = peak_rss_mb();
    let hnsw: Hnsw<f32, CosineDistance> =
        Hnsw::new(connections, count, 16, ef_construction, CosineDistance);
    let data: Vec<(&[f32], usize)> = (0..count).map(|i| (row(i), i)).collect();
    hnsw.parallel_insert_slice(&data);
    let hnsw_build = started.elapsed().as_secs_f64();
    let hnsw_memory = (count * DIM * 4) as f64 / 1e6 + (count * connections * 2 * 8) as f64 / 1e6;
    eprintln!(
        "hnsw built in {hnsw_build:.0} s (peak rss {:.0} MB before, {:.0} MB after)",
        before,
        peak_rss_mb()
    );
    for ef in [32, 64, 128, 256] {
        rows.push(measure(
            &format!("HNSW M={connections} efC={ef_construction} ef={ef} (1 thread)"),
            &truth,
            hnsw_build,
            hnsw_memory,
            |q| {
                hnsw.search(&queries[q], K, ef)
                    .into_iter()
                    .map(|n| n.d_id)
                    .collect()
            },
        ));
    }

    write_report(&repo, count, threads, &words, embed_s, &rows, true)
}

fn write_report(
    repo: &Path,
    count: usize,
    threads: usize,
    words: &[String],
    embed_s: f64,
    rows: &[Row],
    with_hnsw: bool,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut report = String::new();
    report.push_str(&format!(
        "# Vector search: top-10 over {count} chunks, brute force, sign codes{}\n\n",
        if with_hnsw { " and HNSW" } else { "" }
    ));
    report.push_str(&format!(
        "Written by `benches/vectors/run.sh` (`cargo bench -p podlens-indexer --bench vector_search`, release) on {threads} threads of a 2-core machine shared with concurrent compiles.\n\n"
    ));
    report.push_str(&format!(
        "{count} passages of 40–160 consecutive words cut at random from the real transcripts and feeds of ../shared/corpus ({} words), embedded with the static model (768-d) in {embed_s:.0} s; {QUERIES} queries of 12 words cut the same way. Ground truth: exact f32 cosine top-10. Peak RSS {:.0} MB.\n\n",
        words.len(),
        peak_rss_mb()
    ));
    report.push_str("| method | recall@10 | p50 ms | p99 ms | build s | memory MB |\n|---|---:|---:|---:|---:|---:|\n");
    for r in rows {
        report.push_str(&format!(
            "| {} | {:.3} | {:.2} | {:.2} | {:.0} | {:.0} |\n",
            r.method, r.recall, r.p50, r.p99, r.build_s, r.memory_mb
        ));
    }
    report.push_str("\nMemory: vectors (f32: 4 bytes per dimension; int8: 1 byte plus a 4-byte scale and a 61-byte key per row, as in `vectors.bin`; sign codes: 1 bit per dimension more, as in `codes.bin`) plus, for HNSW, an estimate of its links (2M per node on layer 0, 8 bytes each). Sign codes' build time is the int8 stores' plus computing the shard means and codes.\n");
    print!("{report}");
    let out = repo.join("benches/vectors/RESULTS.md");
    std::fs::write(&out, &report)?;
    eprintln!("wrote {}", out.display());
    Ok(())
}
