//! Catalog records as tantivy documents.

use std::collections::HashMap;

use podlens_model::catalog::{EpisodeRecord, PersonRecord, PodcastRecord, TranscriptRecord};
use serde::{Deserialize, Serialize};
use tantivy::TantivyDocument;
use uuid::Uuid;

use crate::analysis::LanguageFamily;
use crate::chunking::TranscriptChunk;
use crate::schema::{ChunkSchema, EpisodeSchema, PodcastSchema, id_halves, title_sort_words};

/// Podcast signals that come from outside the feed (charts, reviews, scoring). Absent
/// values leave the fast field empty, so filters on them do not match and sorts put
/// them with the nulls.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PodcastSignals {
    pub apple_rating: Option<f64>,
    pub apple_ratings_count: Option<u64>,
    pub spotify_rating: Option<f64>,
    pub spotify_ratings_count: Option<u64>,
    pub authority_score: Option<f64>,
    /// ISO alpha-2 codes, any case.
    pub countries: Vec<String>,
}

/// Everything an index build reads: the catalog's records (and optional signals).
#[derive(Debug, Clone, Copy, Default)]
pub struct IndexSource<'a> {
    pub podcasts: &'a [PodcastRecord],
    pub episodes: &'a [EpisodeRecord],
    pub transcripts: &'a [TranscriptRecord],
    /// The feeds' people (`podcast:person`, by podcast and episode): searchable names.
    pub persons: &'a [PersonRecord],
    pub signals: Option<&'a HashMap<Uuid, PodcastSignals>>,
}

/// Episodes a podcast's document describes, newest first.
pub const EPISODES_IN_PODCAST_TEXT: usize = 300;
/// Characters of each episode's description in its podcast's document.
pub const EPISODE_DESCRIPTION_CHARS: usize = 300;

/// What an episode adds to its podcast's document.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EpisodeText {
    pub title: String,
    pub description: Option<String>,
    pub keywords: Vec<String>,
    pub people: Vec<String>,
    /// Seconds since the epoch, for newest first.
    pub published: Option<i64>,
}

impl EpisodeText {
    pub fn of(episode: &EpisodeRecord, people: Vec<String>) -> EpisodeText {
        EpisodeText {
            title: episode.episode_rss_title.clone(),
            description: episode.episode_rss_description_no_html.clone(),
            keywords: episode.episode_keywords.clone(),
            people,
            published: episode
                .episode_rss_published_at
                .map(|date| date.timestamp()),
        }
    }
}

/// A podcast's document beyond its catalog record: the names its feed declares and its
/// episodes' text. Kept in the document (as JSON, with the record and signals) so an
/// update rebuilds it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StoredPodcast {
    pub podcast: PodcastRecord,
    pub signals: Option<PodcastSignals>,
    /// Names of the show (not of single episodes).
    pub people: Vec<String>,
}

/// The show's names: author, owner, hosts and channel-level people, each once.
pub fn podcast_people(podcast: &PodcastRecord, persons: &[&PersonRecord]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let candidates = podcast
        .podcast_rss_author
        .iter()
        .chain(podcast.podcast_owner_name.iter())
        .chain(podcast.podcast_host_names.iter())
        .chain(
            persons
                .iter()
                .filter(|person| person.episode_id.is_none())
                .map(|person| &person.name),
        );
    for name in candidates {
        let name = name.trim();
        if !name.is_empty() && !names.iter().any(|seen| seen.eq_ignore_ascii_case(name)) {
            names.push(name.to_owned());
        }
    }
    names
}

/// The text of a podcast's episodes, newest first, at most [`EPISODES_IN_PODCAST_TEXT`]
/// of them: each title, the first [`EPISODE_DESCRIPTION_CHARS`] characters of its
/// description, its keywords and its people.
pub fn episodes_text(episodes: &mut [EpisodeText]) -> (usize, String) {
    newest_first(episodes);
    let mut text = String::new();
    for episode in episodes.iter().take(EPISODES_IN_PODCAST_TEXT) {
        text.push_str(&episode.title);
        text.push_str(".\n");
        if let Some(description) = &episode.description {
            text.push_str(first_chars(description, EPISODE_DESCRIPTION_CHARS));
            text.push('\n');
        }
        for word in episode.keywords.iter().chain(&episode.people) {
            text.push_str(word);
            text.push_str(", ");
        }
        text.push('\n');
    }
    (episodes.len(), text)
}

/// Puts a podcast's episodes newest first (then by title), the order its episodes' text
/// and its language detection read them in.
pub fn newest_first(episodes: &mut [EpisodeText]) {
    episodes.sort_by(|a, b| b.published.cmp(&a.published).then(a.title.cmp(&b.title)));
}

/// The first `count` characters of `text` (all of it when shorter).
pub(crate) fn first_chars(text: &str, count: usize) -> &str {
    text.char_indices()
        .nth(count)
        .map_or(text, |(at, _)| &text[..at])
}

/// The language tag the show's feed declares, trimmed; `None` when it declares none.
pub fn declared_language(podcast: &PodcastRecord) -> Option<&str> {
    podcast
        .rss_language
        .as_deref()
        .map(str::trim)
        .filter(|tag| !tag.is_empty())
}

/// The primary subtag of a language tag, lowercased (`en-US` → `en`).
pub use podlens_model::catalog::primary_language;

fn add_opt_text(doc: &mut TantivyDocument, field: tantivy::schema::Field, value: Option<&str>) {
    if let Some(value) = value.filter(|value| !value.is_empty()) {
        doc.add_text(field, value);
    }
}

/// The podcast's document: its record, signals and names, and the text of its episodes;
/// its text in the fields of `language`, the one it is searched in
/// (`crate::text_language`).
pub fn podcast_document(
    schema: &PodcastSchema,
    stored: &StoredPodcast,
    episodes: usize,
    episodes_text: &str,
    language: Option<&str>,
) -> TantivyDocument {
    let podcast = &stored.podcast;
    let signals = stored.signals.as_ref();
    let mut doc = TantivyDocument::default();
    let (hi, lo) = id_halves(podcast.podcast_id);
    doc.add_text(schema.ids.id, podcast.podcast_id.to_string());
    doc.add_u64(schema.ids.id_hi, hi);
    doc.add_u64(schema.ids.id_lo, lo);
    let family = LanguageFamily::from_language_tag(language);
    doc.add_text(schema.title.field(family), &podcast.podcast_rss_title);
    doc.add_text(schema.title_words, &podcast.podcast_rss_title);
    doc.add_text(schema.title_exact, &podcast.podcast_rss_title);
    doc.add_text(schema.title_stored, &podcast.podcast_rss_title);
    let description = podcast.podcast_rss_description_no_html.as_deref();
    add_opt_text(&mut doc, schema.description.field(family), description);
    add_opt_text(&mut doc, schema.description_stored, description);
    add_opt_text(
        &mut doc,
        schema.author,
        podcast.podcast_rss_author.as_deref(),
    );
    for name in &podcast.podcast_host_names {
        add_opt_text(&mut doc, schema.host_names, Some(name));
    }
    for name in &stored.people {
        add_opt_text(&mut doc, schema.people, Some(name));
    }
    for keyword in &podcast.podcast_keywords {
        add_opt_text(&mut doc, schema.keywords, Some(keyword));
    }
    for category in &podcast.rss_categories {
        add_opt_text(&mut doc, schema.categories, Some(category));
    }
    add_opt_text(
        &mut doc,
        schema.episodes_text.field(family),
        Some(episodes_text),
    );
    if let Ok(record) = serde_json::to_string(stored) {
        doc.add_text(schema.record, record);
    }
    doc.add_f64(
        schema.text_quality,
        crate::quality::text_quality(podcast)
            * crate::quality::consistency(podcast, episodes, episodes_text),
    );
    doc.add_text(schema.slug, &podcast.podcast_slug);
    add_opt_text(
        &mut doc,
        schema.image_url,
        podcast.podcast_image_url.as_deref(),
    );
    if let Some(tag) = declared_language(podcast) {
        doc.add_text(schema.language_tag, tag.to_ascii_lowercase());
    }
    if let Some(tag) = language {
        doc.add_text(schema.language, primary_language(tag));
        doc.add_text(schema.searched_language, tag);
    }
    for genre in &podcast.podcast_podlens_genres {
        add_opt_text(&mut doc, schema.genres, Some(&genre.trim().to_lowercase()));
    }
    doc.add_bool(schema.explicit, podcast.explicit_rss);
    doc.add_bool(schema.has_transcript, podcast.total_transcripts > 0);
    if let Some(date) = podcast.founded_date {
        doc.add_i64(schema.founded_date, date.timestamp());
    }
    if let Some(date) = podcast.last_episode_date {
        doc.add_i64(schema.last_episode_date, date.timestamp());
    }
    doc.add_u64(schema.total_episodes, podcast.total_episodes.max(0) as u64);
    doc.add_u64(
        schema.total_transcripts,
        podcast.total_transcripts.max(0) as u64,
    );
    let (sort_hi, sort_lo) = title_sort_words(&podcast.podcast_rss_title);
    doc.add_u64(schema.title_sort_hi, sort_hi);
    doc.add_u64(schema.title_sort_lo, sort_lo);
    if let Some(signals) = signals {
        if let Some(value) = signals.apple_rating {
            doc.add_f64(schema.apple_rating, value);
        }
        if let Some(value) = signals.apple_ratings_count {
            doc.add_u64(schema.apple_ratings_count, value);
        }
        if let Some(value) = signals.spotify_rating {
            doc.add_f64(schema.spotify_rating, value);
        }
        if let Some(value) = signals.spotify_ratings_count {
            doc.add_u64(schema.spotify_ratings_count, value);
        }
        if let Some(value) = signals.authority_score {
            doc.add_f64(schema.authority_score, value);
        }
        for country in &signals.countries {
            doc.add_text(schema.countries, country.to_ascii_lowercase());
        }
    }
    doc
}

/// The episode's document; `transcript` chunks are indexed (not stored) in the
/// transcript field of their family.
pub fn episode_document(
    schema: &EpisodeSchema,
    episode: &EpisodeRecord,
    people: &[String],
    language: Option<&str>,
    explicit_podcast: bool,
    transcript: Option<(&TranscriptRecord, &[TranscriptChunk])>,
) -> TantivyDocument {
    let mut doc = TantivyDocument::default();
    let (hi, lo) = id_halves(episode.episode_id);
    doc.add_text(schema.ids.id, episode.episode_id.to_string());
    doc.add_u64(schema.ids.id_hi, hi);
    doc.add_u64(schema.ids.id_lo, lo);
    doc.add_text(schema.podcast_id, episode.podcast_id.to_string());
    let family = LanguageFamily::from_language_tag(language);
    doc.add_text(schema.title.field(family), &episode.episode_rss_title);
    doc.add_text(schema.title_stored, &episode.episode_rss_title);
    let description = episode.episode_rss_description_no_html.as_deref();
    add_opt_text(&mut doc, schema.description.field(family), description);
    add_opt_text(&mut doc, schema.description_stored, description);
    for keyword in &episode.episode_keywords {
        add_opt_text(&mut doc, schema.keywords, Some(keyword));
    }
    for name in people {
        add_opt_text(&mut doc, schema.people, Some(name));
    }
    doc.add_text(schema.slug, &episode.episode_slug);
    add_opt_text(
        &mut doc,
        schema.podcast_title_stored,
        Some(&episode.episode_podcast_title_denormalized),
    );
    add_opt_text(
        &mut doc,
        schema.enclosure_url,
        episode.episode_enclosure_url.as_deref(),
    );
    add_opt_text(
        &mut doc,
        schema.image_url,
        episode.episode_image_url.as_deref(),
    );
    add_opt_text(&mut doc, schema.web_url, episode.episode_web_url.as_deref());
    let transcript_id = transcript
        .map(|(record, _)| record.transcript_id)
        .or(episode.transcript_id);
    if let Some(id) = transcript_id {
        doc.add_text(schema.transcript_id, id.to_string());
    }
    if let Some(date) = episode.episode_rss_published_at {
        doc.add_i64(schema.published_at, date.timestamp());
    }
    doc.add_i64(schema.first_seen_at, episode.episode_created_at.timestamp());
    if let Some(seconds) = episode.episode_duration_seconds {
        doc.add_u64(schema.duration_seconds, seconds.max(0) as u64);
    }
    let has_transcript = episode.episode_has_transcript || transcript.is_some();
    doc.add_bool(schema.has_transcript, has_transcript);
    let explicit = episode.episode_explicit.unwrap_or(explicit_podcast);
    doc.add_bool(schema.explicit, explicit);
    let (sort_hi, sort_lo) = title_sort_words(&episode.episode_rss_title);
    doc.add_u64(schema.title_sort_hi, sort_hi);
    doc.add_u64(schema.title_sort_lo, sort_lo);
    if let Some((record, chunks)) = transcript {
        if let Some(first) = chunks.iter().find(|chunk| chunk.ordinal == 0) {
            let start: String = first
                .text
                .trim()
                .chars()
                .take(crate::schema::TRANSCRIPT_START_STORED)
                .collect();
            doc.add_text(schema.transcript_start, start);
        }
        let family = transcript_family(record, language);
        for chunk in chunks {
            doc.add_text(schema.transcript.field(family), &chunk.text);
        }
    }
    doc
}

/// A transcript's own language wins over its podcast's.
pub fn transcript_family(
    record: &TranscriptRecord,
    podcast_language: Option<&str>,
) -> LanguageFamily {
    LanguageFamily::from_language_tag(record.language.as_deref().or(podcast_language))
}

/// The stored, timed chunk documents of one transcript.
pub fn chunk_documents(
    schema: &ChunkSchema,
    record: &TranscriptRecord,
    family: LanguageFamily,
    chunks: &[TranscriptChunk],
) -> Vec<TantivyDocument> {
    chunks
        .iter()
        .map(|chunk| chunk_document(schema, record, family, chunk))
        .collect()
}

fn chunk_document(
    schema: &ChunkSchema,
    record: &TranscriptRecord,
    family: LanguageFamily,
    chunk: &TranscriptChunk,
) -> TantivyDocument {
    let mut doc = TantivyDocument::default();
    doc.add_text(
        schema.chunk_id,
        format!("{}:{}", record.transcript_id, chunk.ordinal),
    );
    doc.add_text(schema.episode_id, record.episode_id.to_string());
    doc.add_text(schema.podcast_id, record.podcast_id.to_string());
    doc.add_text(schema.text.field(family), &chunk.text);
    doc.add_text(schema.text_stored, &chunk.text);
    doc.add_u64(schema.family, family.index() as u64);
    doc.add_u64(schema.ordinal, chunk.ordinal);
    if let Some(start) = chunk.start_second {
        doc.add_f64(schema.start_second, start);
    }
    if let Some(end) = chunk.end_second {
        doc.add_f64(schema.end_second, end);
    }
    doc
}
