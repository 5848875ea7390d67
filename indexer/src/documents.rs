//! Catalog records as tantivy documents.

use std::collections::HashMap;

use podlens_model::catalog::{EpisodeRecord, PodcastRecord, TranscriptRecord};
use tantivy::TantivyDocument;
use uuid::Uuid;

use crate::analysis::LanguageFamily;
use crate::chunking::TranscriptChunk;
use crate::schema::{ChunkSchema, EpisodeSchema, PodcastSchema, id_halves, title_sort_words};

/// Podcast signals that come from outside the feed (charts, reviews, scoring). Absent
/// values leave the fast field empty, so filters on them do not match and sorts put
/// them with the nulls.
#[derive(Debug, Clone, Default, PartialEq)]
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
#[derive(Debug, Clone, Copy)]
pub struct IndexSource<'a> {
    pub podcasts: &'a [PodcastRecord],
    pub episodes: &'a [EpisodeRecord],
    pub transcripts: &'a [TranscriptRecord],
    pub signals: Option<&'a HashMap<Uuid, PodcastSignals>>,
}

/// The primary subtag of a language tag, lowercased (`en-US` → `en`).
pub fn primary_language(tag: &str) -> String {
    tag.trim()
        .split(['-', '_'])
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase()
}

fn add_opt_text(doc: &mut TantivyDocument, field: tantivy::schema::Field, value: Option<&str>) {
    if let Some(value) = value.filter(|value| !value.is_empty()) {
        doc.add_text(field, value);
    }
}

/// The podcast's document.
pub fn podcast_document(
    schema: &PodcastSchema,
    podcast: &PodcastRecord,
    signals: Option<&PodcastSignals>,
) -> TantivyDocument {
    let mut doc = TantivyDocument::default();
    let (hi, lo) = id_halves(podcast.podcast_id);
    doc.add_text(schema.ids.id, podcast.podcast_id.to_string());
    doc.add_u64(schema.ids.id_hi, hi);
    doc.add_u64(schema.ids.id_lo, lo);
    let family = LanguageFamily::from_language_tag(podcast.rss_language.as_deref());
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
    for keyword in &podcast.podcast_keywords {
        add_opt_text(&mut doc, schema.keywords, Some(keyword));
    }
    doc.add_text(schema.slug, &podcast.podcast_slug);
    add_opt_text(
        &mut doc,
        schema.image_url,
        podcast.podcast_image_url.as_deref(),
    );
    if let Some(tag) = podcast
        .rss_language
        .as_deref()
        .filter(|tag| !tag.trim().is_empty())
    {
        doc.add_text(schema.language, primary_language(tag));
        doc.add_text(schema.language_tag, tag.trim().to_ascii_lowercase());
    }
    for genre in &podcast.podcast_podlens_genres {
        add_opt_text(&mut doc, schema.genres, Some(&genre.to_lowercase()));
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
