//! The one table: engines side by side, then the ratios the targets are stated in.

use std::time::Duration;

use crate::catalog::Catalog;
use crate::queries::{BenchQuery, Kind};

pub struct EngineResult {
    name: &'static str,
    build_seconds: f64,
    bytes: u64,
    counts: Vec<u64>,
    /// Per query, one latency per timed round.
    latencies: Vec<Vec<Duration>>,
}

impl EngineResult {
    pub fn new(
        name: &'static str,
        build_seconds: f64,
        bytes: u64,
        counts: Vec<u64>,
        latencies: Vec<Vec<Duration>>,
    ) -> EngineResult {
        EngineResult {
            name,
            build_seconds,
            bytes,
            counts,
            latencies,
        }
    }

    /// Milliseconds of every timed run of the queries `select` keeps, sorted.
    fn samples(&self, queries: &[BenchQuery], select: impl Fn(&BenchQuery) -> bool) -> Vec<f64> {
        let mut samples: Vec<f64> = queries
            .iter()
            .zip(&self.latencies)
            .filter(|(query, _)| select(query))
            .flat_map(|(_, runs)| runs.iter().map(|run| run.as_secs_f64() * 1e3))
            .collect();
        samples.sort_by(f64::total_cmp);
        samples
    }
}

/// Nearest-rank percentile of sorted samples.
pub fn percentile(sorted: &[f64], fraction: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = (fraction * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn mean(samples: &[f64]) -> f64 {
    samples.iter().sum::<f64>() / samples.len().max(1) as f64
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "unknown".into())
}

fn ms(value: f64) -> String {
    if value >= 100.0 {
        format!("{value:.0}")
    } else if value >= 10.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    }
}

fn ratio(value: f64) -> String {
    if !value.is_finite() {
        return "–".into();
    }
    if value >= 10.0 {
        format!("{value:.0}×")
    } else {
        format!("{value:.2}×")
    }
}

pub struct Report {
    header: Vec<String>,
    notes: Vec<String>,
    queries: Vec<BenchQuery>,
    engines: Vec<EngineResult>,
    episode_count: usize,
}

impl Report {
    pub fn new(catalog: &Catalog, queries: &[BenchQuery], rounds: usize) -> Report {
        let words: usize = catalog
            .transcripts
            .iter()
            .map(|t| t.transcript_text.split_whitespace().count())
            .sum();
        let header = vec![
            format!(
                "catalog: {} podcasts, {} episodes, {} with a transcript ({} words on average); \
                 vocabulary {} words, Zipf",
                catalog.podcasts.len(),
                catalog.episodes.len(),
                catalog.transcripts.len(),
                words / catalog.transcripts.len().max(1),
                catalog.vocabulary.words.len(),
            ),
            format!(
                "queries: {} ({}), top {}, {rounds} timed passes, each after a warm-up pass, \
                 one query at a time from one client thread, the engines taking turns (their \
                 order rotated from one round to the next)",
                queries.len(),
                Kind::ALL
                    .iter()
                    .map(|kind| format!(
                        "{} {}",
                        queries.iter().filter(|q| q.kind == *kind).count(),
                        kind.label()
                    ))
                    .collect::<Vec<_>>()
                    .join(", "),
                crate::queries::PAGE_SIZE,
            ),
            "semantics: a query's words are any of them in every engine (Podlens: the text as \
             one optional term, as the API builds it for a search box); a phrase's words in \
             order"
                .to_owned(),
            format!(
                "machine: {} cores, load average at start {}",
                std::thread::available_parallelism()
                    .map(|n| n.get())
                    .unwrap_or(1),
                load_average()
            ),
        ];
        Report {
            header,
            notes: Vec::new(),
            queries: queries.to_vec(),
            engines: Vec::new(),
            episode_count: catalog.episodes.len(),
        }
    }

    pub fn add(&mut self, engine: EngineResult) {
        self.engines.push(engine);
    }

    pub fn note(&mut self, note: &str) {
        self.notes.push(note.to_owned());
    }

    fn engine(&self, name: &str) -> Option<&EngineResult> {
        self.engines.iter().find(|engine| engine.name == name)
    }

    /// The catalog, the queries, the machine and the notes.
    pub fn print_header(&self) {
        for line in &self.header {
            println!("{line}");
        }
        println!("load average at end {}", load_average());
        for note in &self.notes {
            println!("{note}");
        }
    }

    pub fn print(&self) {
        self.print_header();
        println!();
        let podlens = self.engine("podlens");
        let tantivy = self.engine("tantivy");
        let fts5 = self.engine("sqlite fts5");
        let postgres = self.engine("postgres fts");
        // Ratios: peer ÷ Podlens for the SQL engines (how many times faster Podlens is),
        // Podlens ÷ tantivy for the baseline (how many times slower Podlens is).
        let ratios = |value: &dyn Fn(&EngineResult) -> f64| -> Vec<String> {
            let of = |peer: Option<&EngineResult>, inverse: bool| match (podlens, peer) {
                (Some(podlens), Some(peer)) if inverse => ratio(value(podlens) / value(peer)),
                (Some(podlens), Some(peer)) => ratio(value(peer) / value(podlens)),
                _ => "–".into(),
            };
            vec![of(fts5, false), of(postgres, false), of(tantivy, true)]
        };
        let mut columns = vec!["measure".to_owned()];
        columns.extend(self.engines.iter().map(|engine| engine.name.to_owned()));
        columns.extend(
            ["fts5 ÷ podlens", "postgres ÷ podlens", "podlens ÷ tantivy"].map(str::to_owned),
        );
        let mut rows: Vec<Vec<String>> = Vec::new();
        let mut row = |label: &str, cells: Vec<String>, ratios: Vec<String>| {
            let mut line = vec![label.to_owned()];
            line.extend(cells);
            line.extend(ratios);
            rows.push(line);
        };
        let cells = |format: &dyn Fn(&EngineResult) -> String| -> Vec<String> {
            self.engines.iter().map(format).collect()
        };
        row(
            "build, s",
            cells(&|e| format!("{:.0}", e.build_seconds)),
            ratios(&|e| e.build_seconds),
        );
        let documents = self.episode_count;
        row(
            "build, episodes/s",
            cells(&|e| format!("{:.0}", documents as f64 / e.build_seconds)),
            vec!["".into(); 3],
        );
        row(
            "index on disk, MiB",
            cells(&|e| format!("{:.0}", e.bytes as f64 / (1 << 20) as f64)),
            ratios(&|e| e.bytes as f64),
        );
        let queries = &self.queries;
        for kind in Kind::ALL {
            let p50 =
                move |e: &EngineResult| percentile(&e.samples(queries, |q| q.kind == kind), 0.5);
            let p99 =
                move |e: &EngineResult| percentile(&e.samples(queries, |q| q.kind == kind), 0.99);
            let average = move |e: &EngineResult| mean(&e.samples(queries, |q| q.kind == kind));
            let label = format!("{} p50 / p99 / mean, ms", kind.label());
            let three =
                |e: &EngineResult| format!("{} / {} / {}", ms(p50(e)), ms(p99(e)), ms(average(e)));
            let r50 = ratios(&p50);
            let r99 = ratios(&p99);
            let rmean = ratios(&average);
            let joined = r50
                .iter()
                .zip(&r99)
                .zip(&rmean)
                .map(|((a, b), c)| format!("{a} / {b} / {c}"))
                .collect();
            row(&label, cells(&three), joined);
        }
        let all = |e: &EngineResult| e.samples(queries, |_| true);
        let p50 = |e: &EngineResult| percentile(&all(e), 0.5);
        let p99 = |e: &EngineResult| percentile(&all(e), 0.99);
        let average = |e: &EngineResult| mean(&all(e));
        row("all p50, ms", cells(&|e| ms(p50(e))), ratios(&p50));
        row("all p99, ms", cells(&|e| ms(p99(e))), ratios(&p99));
        row("all mean, ms", cells(&|e| ms(average(e))), ratios(&average));
        let agree = |e: &EngineResult| match podlens {
            Some(podlens) => e
                .counts
                .iter()
                .zip(&podlens.counts)
                .filter(|(a, b)| a == b)
                .count(),
            None => 0,
        };
        row(
            "result counts equal to podlens's",
            cells(&|e| format!("{}/{}", agree(e), self.queries.len())),
            vec!["".into(); 3],
        );

        println!("| {} |", columns.join(" | "));
        println!(
            "|{}",
            columns
                .iter()
                .enumerate()
                .map(|(i, _)| if i == 0 { " --- |" } else { " ---: |" })
                .collect::<String>()
        );
        for line in rows {
            println!("| {} |", line.join(" | "));
        }
        self.print_targets();
        self.print_same_work();
        self.print_agreement();
    }

    /// The targets: Podlens keyword p50 within 1.5× of raw tantivy's, at least 10×
    /// FTS5's; hybrid p50 under 10 ms.
    fn print_targets(&self) {
        let queries = &self.queries;
        let p50 = |name: &str, select: &dyn Fn(&BenchQuery) -> bool| {
            self.engine(name)
                .map(|engine| percentile(&engine.samples(queries, select), 0.5))
        };
        let all = |_: &BenchQuery| true;
        let mut lines: Vec<[String; 3]> = Vec::new();
        let met = |ok: bool| if ok { "yes" } else { "**no**" }.to_owned();
        for (ours, peer) in [("podlens", "tantivy"), ("podlens, no snippets", "tantivy")] {
            if let (Some(a), Some(b)) = (p50(ours, &all), p50(peer, &all)) {
                lines.push([
                    format!("{ours} p50 within 1.5× of {peer}'s"),
                    format!("{} ÷ {} ms = {}", ms(a), ms(b), ratio(a / b)),
                    met(a / b <= 1.5),
                ]);
            }
        }
        for (peer, ours) in [
            ("sqlite fts5", "podlens"),
            ("sqlite fts5", "podlens, no snippets"),
            ("sqlite fts5, snippets", "podlens"),
        ] {
            if let (Some(a), Some(b)) = (p50(peer, &all), p50(ours, &all)) {
                lines.push([
                    format!("{ours} ≥ 10× {peer} at p50"),
                    format!("{} ÷ {} ms = {}", ms(a), ms(b), ratio(a / b)),
                    met(a / b >= 10.0),
                ]);
            }
        }
        let relevance = |query: &BenchQuery| !query.by_date;
        for (label, select) in [
            ("all queries", &all as &dyn Fn(&BenchQuery) -> bool),
            ("relevance-sorted queries", &relevance),
        ] {
            if let Some(value) = p50("podlens hybrid", select) {
                lines.push([
                    format!("podlens hybrid p50 < 10 ms ({label})"),
                    format!("{} ms", ms(value)),
                    met(value < 10.0),
                ]);
            }
        }
        if lines.is_empty() {
            return;
        }
        println!();
        println!("Targets:");
        println!();
        println!("| target | measured | met? |");
        println!("| --- | ---: | --- |");
        for [target, measured, verdict] in lines {
            println!("| {target} | {measured} | {verdict} |");
        }
    }

    /// Podlens against FTS5 doing the same work: the page's ids and the total, or those
    /// and the hits' transcript snippets.
    fn print_same_work(&self) {
        let pairs = [
            (
                "sqlite fts5",
                "podlens, no snippets",
                "fts5 ÷ podlens, both without snippets",
            ),
            (
                "sqlite fts5, snippets",
                "podlens",
                "fts5 ÷ podlens, both with snippets",
            ),
        ];
        let pairs: Vec<(&EngineResult, &EngineResult, &str)> = pairs
            .iter()
            .filter_map(|(peer, ours, label)| {
                Some((self.engine(peer)?, self.engine(ours)?, *label))
            })
            .collect();
        if pairs.is_empty() {
            return;
        }
        let queries = &self.queries;
        println!();
        println!("Same work on both sides:");
        println!();
        let mut header = vec!["measure".to_owned()];
        header.extend(pairs.iter().map(|(_, _, label)| (*label).to_owned()));
        println!("| {} |", header.join(" | "));
        println!("| --- |{}", " ---: |".repeat(pairs.len()));
        let line = |label: String, select: &dyn Fn(&BenchQuery) -> bool, at: Option<f64>| {
            let value = |engine: &EngineResult| {
                let samples = engine.samples(queries, select);
                match at {
                    Some(fraction) => percentile(&samples, fraction),
                    None => mean(&samples),
                }
            };
            let cells: Vec<String> = pairs
                .iter()
                .map(|(peer, ours, _)| ratio(value(peer) / value(ours)))
                .collect();
            println!("| {label} | {} |", cells.join(" | "));
        };
        for kind in Kind::ALL {
            line(
                format!("{} p50", kind.label()),
                &|q| q.kind == kind,
                Some(0.5),
            );
        }
        line("all p50".into(), &|_| true, Some(0.5));
        line("all p99".into(), &|_| true, Some(0.99));
        line("all mean".into(), &|_| true, None);
    }

    fn print_agreement(&self) {
        let all_agree = (0..self.queries.len())
            .filter(|&index| {
                self.engines
                    .windows(2)
                    .all(|pair| pair[0].counts[index] == pair[1].counts[index])
            })
            .count();
        println!();
        println!(
            "queries on which every engine returns the same total: {all_agree}/{}",
            self.queries.len()
        );
        let mut shown = 0;
        for (index, query) in self.queries.iter().enumerate() {
            let counts: Vec<u64> = self.engines.iter().map(|e| e.counts[index]).collect();
            if counts.windows(2).all(|pair| pair[0] == pair[1]) {
                continue;
            }
            if shown == 20 {
                println!("  …");
                break;
            }
            shown += 1;
            let listed: Vec<String> = self
                .engines
                .iter()
                .map(|e| format!("{} {}", e.name, e.counts[index]))
                .collect();
            println!("  differs: {} — {}", query.describe(), listed.join(", "));
        }
        let totals: Vec<u64> = match self.engines.first() {
            Some(engine) => {
                let mut totals = engine.counts.clone();
                totals.sort_unstable();
                totals
            }
            None => Vec::new(),
        };
        if !totals.is_empty() {
            println!(
                "matches per query (first engine): min {}, median {}, max {}",
                totals[0],
                totals[totals.len() / 2],
                totals[totals.len() - 1]
            );
        }
    }
}

/// The podcast search table (`crate::shows`): each way's latency over the search-box
/// queries, p50 and p99 of every timed run, and by query kind.
pub fn print_shows(results: &[EngineResult], queries: &[BenchQuery], notes: &[String]) {
    println!();
    println!(
        "podcast search at this scale ({} search-box queries, relevance order fused with \
         vectors, top {}):",
        queries.len(),
        crate::queries::PAGE_SIZE
    );
    for note in notes {
        println!("{note}");
    }
    println!();
    let kinds = [Kind::Term, Kind::TwoWords, Kind::ThreeWords];
    let mut header = vec![
        "way".to_owned(),
        "p50 ms".into(),
        "p99 ms".into(),
        "mean ms".into(),
    ];
    header.extend(kinds.iter().map(|kind| format!("{} p50", kind.label())));
    header.push("totals as static".into());
    println!("| {} |", header.join(" | "));
    println!("|{}", "---|".repeat(header.len()));
    let reference = results.first();
    for result in results {
        let all = result.samples(queries, |_| true);
        let mut cells = vec![
            result.name.to_owned(),
            ms(percentile(&all, 0.5)),
            ms(percentile(&all, 0.99)),
            ms(mean(&all)),
        ];
        for kind in kinds {
            let samples = result.samples(queries, |query| query.kind == kind);
            cells.push(ms(percentile(&samples, 0.5)));
        }
        let same = reference.map_or(0, |reference| {
            reference
                .counts
                .iter()
                .zip(&result.counts)
                .filter(|(a, b)| a == b)
                .count()
        });
        cells.push(format!("{same}/{}", queries.len()));
        println!("| {} |", cells.join(" | "));
    }
}
