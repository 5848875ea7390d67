//! `podlens generate`: a deterministic synthetic corpus for the demo, the tests and the
//! benchmarks. For a seed and options the output is byte-identical on every run and
//! machine: each podcast draws from its own random stream (seed, stream kind, index),
//! podcasts are written in parallel, and nothing reads the clock.
//!
//! Layout under the output directory:
//! - `feeds/<n>.xml`: RSS 2.0 with the iTunes and Podcasting 2.0 namespaces, n = 0..N-1;
//! - `transcripts/<n>/<episode>.vtt|txt`: transcripts linked from the feeds;
//! - `sites/<slug>/{index,about,contact}.html`, `robots.txt`, `sitemap.xml`, `cover.svg`;
//! - `audio/clip-<n>.wav`: a few short chimes the episodes' enclosures point at;
//! - `charts/<apple|spotify>/<country>/<category>/<YYYY-MM-DD>.json`;
//! - `feeds.opml` and `manifest.json` (options, counts, per-podcast ground truth).
//!
//! Memory grows with the number of podcasts (a few kilobytes of ground truth each),
//! never with episodes or transcripts, which are written as they are made.

mod audio;
mod charts;
mod episode;
mod feed;
mod links;
pub mod manifest;
mod names;
mod opml;
mod rng;
mod show;
mod site;
mod text;
mod themes;
mod transcript;
mod vocab;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use chrono::{DateTime, Duration, NaiveDate, Utc};
use rayon::prelude::*;

use manifest::{Counts, Manifest, ManifestOptions, PodcastTruth};
use show::Show;

pub use transcript::{MAX_TRANSCRIPT_MINUTES, WORDS_PER_MINUTE};

const STREAM_SHOW: u64 = 1;
const STREAM_EPISODE: u64 = 2;
const STREAM_TRANSCRIPT: u64 = 3;
const STREAM_SITE: u64 = 4;
const STREAM_CHARTS: u64 = 5;
const STREAM_REFERENCE: u64 = 6;

/// What to generate.
#[derive(Debug, Clone)]
pub struct GenerateOptions {
    pub podcasts: usize,
    pub seed: u64,
    pub out: PathBuf,
    /// Where the corpus will be served from; feed, transcript and site URLs start with it.
    pub base_url: String,
    /// Share of episodes with a transcript, 0 to 1.
    pub transcript_share: f64,
    /// Days of chart snapshots, ending on the reference date.
    pub chart_days: u32,
    /// The day the corpus is "as of" (its newest episodes and charts end there); `None`:
    /// a day derived from the seed, so the same options give the same bytes on any day.
    pub as_of: Option<chrono::NaiveDate>,
}

/// What was written.
#[derive(Debug, Clone, Default)]
pub struct GenerateSummary {
    pub podcasts: u64,
    pub episodes: u64,
    pub transcripts: u64,
    pub sites: u64,
    pub chart_snapshots: u64,
    pub bytes: u64,
    pub seconds: f64,
}

impl std::fmt::Display for GenerateSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "generated {} podcasts, {} episodes, {} transcripts, {} sites, {} chart snapshots, {:.1} MB in {:.1} s",
            self.podcasts,
            self.episodes,
            self.transcripts,
            self.sites,
            self.chart_snapshots,
            self.bytes as f64 / 1_000_000.0,
            self.seconds
        )
    }
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    #[error("invalid option: {0}")]
    InvalidOption(String),
    #[error("output directory {0} is not empty and holds no earlier corpus (no manifest.json)")]
    OutputNotEmpty(PathBuf),
    #[error("cannot write {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot serialize {path}: {source}")]
    Json {
        path: PathBuf,
        source: serde_json::Error,
    },
}

fn io_error(path: &Path, source: std::io::Error) -> GenerateError {
    GenerateError::Io {
        path: path.to_owned(),
        source,
    }
}

/// The values every part of the generator shares.
#[derive(Debug, Clone)]
pub struct Context {
    pub seed: u64,
    /// Without a trailing slash.
    pub base_url: String,
    /// Noon UTC of the day the corpus is "as of": derived from the seed, or the day
    /// [`GenerateOptions::as_of`] names (the demo's: today), never the clock itself.
    pub reference: DateTime<Utc>,
    pub transcript_share: f64,
}

impl Context {
    pub fn new(seed: u64, base_url: &str, transcript_share: f64) -> Context {
        let offset_days = rng::derive_seed(&[seed, STREAM_REFERENCE]) % 730;
        let epoch = NaiveDate::from_ymd_opt(2024, 1, 1)
            .and_then(|day| day.and_hms_opt(12, 0, 0))
            .map(|naive| naive.and_utc())
            .unwrap_or_default();
        Context {
            seed,
            base_url: base_url.trim_end_matches('/').to_string(),
            reference: epoch + Duration::days(offset_days as i64),
            transcript_share,
        }
    }
}

/// Generates the corpus; `on_podcast` is called once per podcast written (from worker
/// threads), for progress reporting.
pub fn generate(
    options: &GenerateOptions,
    on_podcast: &(dyn Fn() + Sync),
) -> Result<GenerateSummary, GenerateError> {
    let started = Instant::now();
    validate(options)?;
    prepare_output(&options.out)?;
    let mut context = Context::new(options.seed, &options.base_url, options.transcript_share);
    if let Some(noon) = options.as_of.and_then(|day| day.and_hms_opt(12, 0, 0)) {
        context.reference = noon.and_utc();
    }
    for directory in ["feeds", "transcripts", "sites", "charts"] {
        let path = options.out.join(directory);
        std::fs::create_dir_all(&path).map_err(|source| io_error(&path, source))?;
    }
    audio::write_clips(&options.out)?;

    let truths: Vec<(PodcastTruth, f64)> = (0..options.podcasts)
        .into_par_iter()
        .map(|index| {
            let written = write_podcast(&context, &options.out, index);
            on_podcast();
            written
        })
        .collect::<Result<_, _>>()?;

    let entrants: Vec<charts::Entrant> = truths
        .iter()
        .map(|(truth, popularity)| entrant(&context, truth, *popularity))
        .collect();
    let chart_snapshots = if options.chart_days > 0 {
        charts::write_all(&context, &options.out, &entrants, options.chart_days)?
    } else {
        0
    };
    drop(entrants);
    let truths: Vec<PodcastTruth> = truths.into_iter().map(|(truth, _)| truth).collect();
    write_opml(&options.out, &truths)?;

    let counts = Counts {
        podcasts: truths.len() as u64,
        episodes: truths.iter().map(|t| u64::from(t.episodes)).sum(),
        transcripts: truths.iter().map(|t| u64::from(t.transcripts)).sum(),
        sites: truths.len() as u64,
        chart_snapshots,
        well_formed_feeds: truths.iter().filter(|t| t.well_formed).count() as u64,
        malformed_feeds: truths.iter().filter(|t| !t.well_formed).count() as u64,
        latin1_feeds: truths.iter().filter(|t| t.encoding != "UTF-8").count() as u64,
        feeds_with_broken_dates: truths.iter().filter(|t| t.broken_dates > 0).count() as u64,
    };
    let mut summary = GenerateSummary {
        podcasts: counts.podcasts,
        episodes: counts.episodes,
        transcripts: counts.transcripts,
        sites: counts.sites,
        chart_snapshots,
        ..GenerateSummary::default()
    };
    let manifest = Manifest {
        format_version: 1,
        options: ManifestOptions {
            podcasts: options.podcasts,
            seed: options.seed,
            base_url: &context.base_url,
            transcript_share: options.transcript_share,
            chart_days: options.chart_days,
        },
        reference_date: context.reference.format("%Y-%m-%d").to_string(),
        counts,
        podcasts: &truths,
    };
    write_manifest(&options.out, &manifest)?;
    summary.bytes =
        directory_bytes(&options.out).map_err(|source| io_error(&options.out, source))?;
    summary.seconds = started.elapsed().as_secs_f64();
    tracing::info!(
        podcasts = summary.podcasts,
        episodes = summary.episodes,
        "corpus generated"
    );
    Ok(summary)
}

fn validate(options: &GenerateOptions) -> Result<(), GenerateError> {
    if options.podcasts == 0 {
        return Err(GenerateError::InvalidOption(
            "--podcasts must be at least 1".into(),
        ));
    }
    if !(0.0..=1.0).contains(&options.transcript_share) {
        return Err(GenerateError::InvalidOption(
            "--transcript-share must be between 0 and 1".into(),
        ));
    }
    let base = options.base_url.as_str();
    let valid_base = (base.starts_with("http://") || base.starts_with("https://"))
        && !base.contains(|c: char| c.is_whitespace() || matches!(c, '"' | '<' | '>' | '&' | '\''));
    if !valid_base {
        return Err(GenerateError::InvalidOption(format!(
            "--base-url must be an http(s) URL without spaces, quotes or markup characters, got {base:?}"
        )));
    }
    Ok(())
}

/// Creates the output directory; an earlier corpus in it is replaced, anything else
/// in a non-empty directory is an error.
fn prepare_output(out: &Path) -> Result<(), GenerateError> {
    let mut entries = match std::fs::read_dir(out) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return std::fs::create_dir_all(out).map_err(|source| io_error(out, source));
        }
        Err(source) => return Err(io_error(out, source)),
    };
    if entries.next().is_none() {
        return Ok(());
    }
    if !out.join("manifest.json").is_file() {
        return Err(GenerateError::OutputNotEmpty(out.to_owned()));
    }
    for directory in ["feeds", "transcripts", "sites", "charts"] {
        let path = out.join(directory);
        if path.is_dir() {
            std::fs::remove_dir_all(&path).map_err(|source| io_error(&path, source))?;
        }
    }
    for file in ["feeds.opml", "manifest.json"] {
        let path = out.join(file);
        std::fs::remove_file(&path).map_err(|source| io_error(&path, source))?;
    }
    Ok(())
}

/// Writes podcast `index`'s feed, transcripts and site; returns its ground truth and
/// chart popularity.
fn write_podcast(
    context: &Context,
    out: &Path,
    index: usize,
) -> Result<(PodcastTruth, f64), GenerateError> {
    let show = Show::generate(context, index);
    let (feed_bytes, stats) = feed::render(context, &show);
    let feed_path = out.join("feeds").join(format!("{index}.xml"));
    std::fs::write(&feed_path, feed_bytes).map_err(|source| io_error(&feed_path, source))?;

    if !stats.transcripts.is_empty() {
        let directory = out.join("transcripts").join(index.to_string());
        std::fs::create_dir_all(&directory).map_err(|source| io_error(&directory, source))?;
        for episode in &stats.transcripts {
            let path = directory.join(format!(
                "{}.{}",
                episode.number,
                show.transcript_format.extension()
            ));
            let text = transcript::render(context, &show, episode);
            std::fs::write(&path, text).map_err(|source| io_error(&path, source))?;
        }
    }

    let site_directory = out.join("sites").join(&show.slug);
    std::fs::create_dir_all(&site_directory).map_err(|source| io_error(&site_directory, source))?;
    for (name, contents) in site::render(context, &show) {
        let path = site_directory.join(name);
        std::fs::write(&path, contents).map_err(|source| io_error(&path, source))?;
    }
    Ok((PodcastTruth::new(context, &show, &stats), show.popularity))
}

fn entrant(context: &Context, truth: &PodcastTruth, popularity: f64) -> charts::Entrant {
    let parse = |text: &str| {
        DateTime::parse_from_rfc3339(text)
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or(context.reference)
    };
    charts::Entrant {
        title: truth.title.clone(),
        author: truth.author.clone(),
        feed_url: truth.feed_url.clone(),
        apple_id: truth.apple_id,
        spotify_id: truth.spotify_id.clone(),
        category_slug: vocab::category_by_name(truth.category).map_or("", |category| category.slug),
        language: truth.language,
        popularity,
        first_published: parse(&truth.first_published),
        last_published: parse(&truth.last_published),
    }
}

fn write_opml(out: &Path, truths: &[PodcastTruth]) -> Result<(), GenerateError> {
    let path = out.join("feeds.opml");
    let file = File::create(&path).map_err(|source| io_error(&path, source))?;
    let mut writer = BufWriter::new(file);
    let outlines = truths.iter().map(|truth| opml::Outline {
        title: &truth.title,
        feed_url: &truth.feed_url,
        site_url: &truth.site_url,
    });
    opml::write(&mut writer, "Podlens synthetic corpus", outlines)
        .and_then(|()| writer.flush())
        .map_err(|source| io_error(&path, source))
}

fn write_manifest(out: &Path, manifest: &Manifest<'_>) -> Result<(), GenerateError> {
    let path = out.join("manifest.json");
    let file = File::create(&path).map_err(|source| io_error(&path, source))?;
    let mut writer = BufWriter::new(file);
    serde_json::to_writer_pretty(&mut writer, manifest).map_err(|source| GenerateError::Json {
        path: path.clone(),
        source,
    })?;
    writer
        .write_all(b"\n")
        .and_then(|()| writer.flush())
        .map_err(|source| io_error(&path, source))
}

fn directory_bytes(path: &Path) -> std::io::Result<u64> {
    let mut total = 0;
    let mut pending = vec![path.to_owned()];
    while let Some(directory) = pending.pop() {
        for entry in std::fs::read_dir(&directory)? {
            let entry = entry?;
            let file_type = entry.file_type()?;
            if file_type.is_dir() {
                pending.push(entry.path());
            } else {
                total += entry.metadata()?.len();
            }
        }
    }
    Ok(total)
}
