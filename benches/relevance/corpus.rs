//! The judged catalog: every real feed at the top of ../shared/corpus/feeds, parsed and
//! normalised by podlens-ingest, plus two podcasts made of the corpus's real transcripts
//! (Talk Python To Me and The Changelog, one episode per transcript file, titled by the
//! file name).
//!
//! Judgments name shows by feed file and episodes by `file::guid` (the item's title
//! when it has no guid), so they do not depend on Podlens's ids.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use podlens_indexer::PodcastSignals;
use podlens_model::catalog::{EpisodeRecord, PersonRecord, PodcastRecord, TranscriptRecord};
use uuid::Uuid;

#[derive(Debug, Default)]
pub struct Corpus {
    pub podcasts: Vec<PodcastRecord>,
    pub episodes: Vec<EpisodeRecord>,
    pub transcripts: Vec<TranscriptRecord>,
    pub persons: Vec<PersonRecord>,
    pub signals: HashMap<Uuid, PodcastSignals>,
    /// Podcast id → the feed file it came from.
    pub podcast_key: HashMap<Uuid, String>,
    /// Episode id → `file::guid`.
    pub episode_key: HashMap<Uuid, String>,
    /// Feed file → the show it is a copy of (the first file with the same normalised
    /// title and website): dated snapshots of one show count as one show.
    pub show_of: HashMap<String, String>,
}

pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

/// A fixed clock, so recency and age are the same in every run.
pub fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-01T00:00:00Z")
        .map(|date| date.with_timezone(&Utc))
        .unwrap_or_default()
}

fn fold(text: &str) -> String {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn episode_key(file: &str, episode: &EpisodeRecord) -> String {
    let item = episode
        .episode_guid
        .as_deref()
        .filter(|guid| !guid.trim().is_empty())
        .unwrap_or(&episode.episode_rss_title);
    format!("{file}::{}", item.trim())
}

pub fn load() -> Corpus {
    let corpus = corpus_dir();
    let now = now();
    let mut out = Corpus::default();
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus.join("feeds"))
        .expect("corpus feeds")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| {
            path.is_file()
                && path
                    .extension()
                    .is_some_and(|extension| extension == "xml" || extension == "rss")
        })
        .collect();
    files.sort();
    let mut shows: HashMap<(String, String), String> = HashMap::new();
    for path in files {
        let file = path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let Ok(parsed) = podlens_ingest::parse_feed(&bytes, None) else {
            eprintln!("skipping {file}: does not parse");
            continue;
        };
        let batch =
            podlens_ingest::normalize(&parsed, &format!("https://feeds.example.test/{file}"), now);
        let identity = (
            fold(&batch.podcast.podcast_rss_title),
            batch
                .podcast
                .podcast_website_url
                .as_deref()
                .map(fold)
                .unwrap_or_default(),
        );
        let show = shows
            .entry(identity)
            .or_insert_with(|| file.clone())
            .clone();
        out.show_of.insert(file.clone(), show);
        if out.podcast_key.contains_key(&batch.podcast.podcast_id) {
            // The same podcast:guid as a feed already loaded: one podcast.
            continue;
        }
        add_batch(
            &mut out,
            &file,
            batch.podcast,
            batch.episodes,
            batch.persons,
            now,
        );
    }
    for (name, prefix, description) in [
        (
            "Talk Python To Me",
            "talkpython",
            "Talk Python To Me is a weekly podcast hosted by developer and entrepreneur Michael Kennedy. We dive deep into the popular packages and software developers, data scientists, and incredible hobbyists doing amazing things with Python.",
        ),
        (
            "The Changelog",
            "changelog",
            "Software's best weekly news brief, deep technical interviews and talk show about open source and the people who make it.",
        ),
    ] {
        transcript_podcast(&mut out, &corpus, name, prefix, description, now);
    }
    out
}

fn add_batch(
    out: &mut Corpus,
    file: &str,
    podcast: PodcastRecord,
    episodes: Vec<EpisodeRecord>,
    persons: Vec<PersonRecord>,
    now: DateTime<Utc>,
) {
    let inputs = podlens_scoring::authority::feed_inputs(&podcast, &episodes, now);
    let authority = podlens_scoring::authority_score(&inputs).map(|score| score.final_score);
    out.signals.insert(
        podcast.podcast_id,
        PodcastSignals {
            authority_score: authority,
            ..PodcastSignals::default()
        },
    );
    out.podcast_key.insert(podcast.podcast_id, file.to_owned());
    for episode in &episodes {
        out.episode_key
            .insert(episode.episode_id, episode_key(file, episode));
    }
    out.podcasts.push(podcast);
    out.episodes.extend(episodes);
    out.persons.extend(persons);
}

/// A podcast of the transcripts `transcripts/<prefix>/<prefix>_*`: one episode per
/// transcript (a timed `.vtt` preferred to the same episode's `.txt`).
fn transcript_podcast(
    out: &mut Corpus,
    corpus: &Path,
    name: &str,
    prefix: &str,
    description: &str,
    now: DateTime<Utc>,
) {
    let dir = corpus.join("transcripts").join(prefix);
    let mut by_stem: std::collections::BTreeMap<String, PathBuf> = Default::default();
    for path in std::fs::read_dir(&dir)
        .expect("corpus transcripts")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
    {
        let Some(stem) = path.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
            continue;
        };
        let timed = path.extension().is_some_and(|e| e == "vtt");
        if timed || !by_stem.contains_key(&stem) {
            by_stem.insert(stem, path);
        }
    }
    let file = format!("{prefix}.transcripts");
    let podcast_id =
        podlens_model::catalog::podcast_id(None, &format!("https://feeds.example.test/{file}"));
    let mut episodes = Vec::new();
    let mut transcripts = Vec::new();
    for (number, (stem, path)) in by_stem.iter().enumerate() {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let format = podlens_ingest::transcript::sniff_format(&text);
        let Ok(parsed) = podlens_ingest::transcript::parse_transcript(&text, format) else {
            continue;
        };
        let title = episode_title(stem, prefix);
        let episode_id = podlens_model::catalog::episode_id(podcast_id, stem);
        let source = path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let record = podlens_ingest::transcript::transcript_record(
            podcast_id,
            episode_id,
            &source,
            format,
            Some("en".into()),
            parsed,
        );
        let published = now - chrono::Duration::days(7 * (by_stem.len() - number) as i64);
        episodes.push(EpisodeRecord {
            episode_id,
            podcast_id,
            episode_slug: format!("{prefix}-{number}"),
            episode_guid: Some(stem.clone()),
            episode_rss_title: title,
            episode_rss_published_at: Some(published),
            episode_has_transcript: true,
            transcript_id: Some(record.transcript_id),
            episode_podcast_title_denormalized: name.to_owned(),
            episode_created_at: now,
            episode_updated_at: now,
            ..EpisodeRecord::default()
        });
        transcripts.push(record);
    }
    let podcast = PodcastRecord {
        podcast_id,
        podcast_slug: prefix.to_owned(),
        podcast_rss_feed_url: format!("https://feeds.example.test/{file}"),
        podcast_rss_title: name.to_owned(),
        podcast_rss_description_no_html: Some(description.to_owned()),
        rss_language: Some("en".into()),
        podcast_podlens_genres: vec!["technology".into()],
        total_episodes: episodes.len() as i64,
        total_transcripts: transcripts.len() as i64,
        last_episode_date: episodes.last().and_then(|e| e.episode_rss_published_at),
        founded_date: episodes.first().and_then(|e| e.episode_rss_published_at),
        updated_at: now,
        ..PodcastRecord::default()
    };
    out.show_of.insert(file.clone(), file.clone());
    out.transcripts.extend(transcripts);
    add_batch(out, &file, podcast, episodes, Vec::new(), now);
}

/// `talkpython_014_Converting_Patreon.com_to_Python_3` → "Converting Patreon.com to Python 3".
fn episode_title(stem: &str, prefix: &str) -> String {
    let rest = stem
        .strip_prefix(prefix)
        .unwrap_or(stem)
        .trim_start_matches('_');
    // changelog_<show>__<episode>: the episode part
    let rest = rest.split_once("__").map_or(rest, |(_, episode)| episode);
    let rest = rest
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_start_matches('_');
    let title = rest
        .split(['_', '-'])
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    if title.is_empty() {
        stem.to_owned()
    } else {
        title
    }
}
