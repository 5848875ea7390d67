//! A stored document as a hit: a podcast's or an episode's fields as search answers them, and
//! documents found by their id.

use tantivy::collector::TopDocs;
use tantivy::query::TermQuery;
use tantivy::schema::document::DocumentDeserialize;
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{Searcher, Term};
use uuid::Uuid;

use crate::error::Result;
use crate::results::{EpisodeHit, PodcastHit};
use crate::shard::OpenGeneration;
use crate::stored::StoredFields;

pub(crate) fn podcast_hit(
    generation: &OpenGeneration,
    mut doc: StoredFields,
    score: f32,
) -> PodcastHit {
    let fields = &generation.schemas.podcasts;
    PodcastHit {
        podcast_id: doc.uuid(fields.ids.id).unwrap_or_default(),
        founded_date: doc.date(fields.founded_date),
        last_episode_date: doc.date(fields.last_episode_date),
        total_episodes: doc.u64(fields.total_episodes).unwrap_or_default(),
        slug: doc.take_text(fields.slug).unwrap_or_default(),
        title: doc.take_text(fields.title_stored).unwrap_or_default(),
        author: doc.take_text(fields.author),
        description: doc.take_text(fields.description_stored),
        image_url: doc.take_text(fields.image_url),
        language: doc.take_text(fields.language_tag),
        genres: doc.take_texts(fields.genres),
        host_names: doc.take_texts(fields.host_names),
        score,
        explanation: None,
        stored: true,
    }
}

impl OpenGeneration {
    /// The podcast hits (stored fields, score 0) of the podcasts `ids` this generation
    /// holds, in the order of `ids`; ids it lacks are left out.
    pub fn podcast_hits(&self, ids: &[Uuid]) -> Result<Vec<PodcastHit>> {
        let every: Vec<usize> = (0..self.shards.len()).collect();
        podcasts_by_id(self, &every, ids)
    }
}

/// The episode hit stored as `doc`, with the first `transcript_start_chars` characters
/// of its transcript when asked for (cut after a word, from the start the document
/// keeps).
pub(crate) fn episode_hit(
    generation: &OpenGeneration,
    mut doc: StoredFields,
    score: f32,
    transcript_start_chars: Option<usize>,
) -> EpisodeHit {
    let fields = &generation.schemas.episodes;
    EpisodeHit {
        episode_id: doc.uuid(fields.ids.id).unwrap_or_default(),
        podcast_id: doc.uuid(fields.podcast_id).unwrap_or_default(),
        transcript_id: doc.uuid(fields.transcript_id),
        published_at: doc.date(fields.published_at),
        first_seen_at: doc.date(fields.first_seen_at),
        duration_seconds: doc.u64(fields.duration_seconds),
        has_transcript: doc.bool(fields.has_transcript).unwrap_or(false),
        transcript_start: transcript_start_chars.and_then(|chars| {
            doc.text(fields.transcript_start)
                .map(|start| cut_at_word(start, chars))
        }),
        podcast_title: doc.take_text(fields.podcast_title_stored),
        slug: doc.take_text(fields.slug).unwrap_or_default(),
        title: doc.take_text(fields.title_stored).unwrap_or_default(),
        description: doc.take_text(fields.description_stored),
        enclosure_url: doc.take_text(fields.enclosure_url),
        image_url: doc.take_text(fields.image_url),
        web_url: doc.take_text(fields.web_url),
        score,
        snippets: Vec::new(),
        explanation: None,
    }
}

/// The first `chars` characters of `text`, cut after the last whole word (with "…"
/// when cut).
fn cut_at_word(text: &str, chars: usize) -> String {
    let text = text.trim();
    let Some((end, _)) = text.char_indices().nth(chars) else {
        return text.to_owned();
    };
    let head = &text[..end];
    let head = head
        .rsplit_once(char::is_whitespace)
        .map_or(head, |(words, _)| words);
    format!("{}…", head.trim_end())
}

pub(crate) fn find_doc<D: DocumentDeserialize>(
    searcher: &Searcher,
    field: Field,
    id: &str,
) -> Result<Option<D>> {
    let query = TermQuery::new(Term::from_field_text(field, id), IndexRecordOption::Basic);
    let top = searcher.search(&query, &TopDocs::with_limit(1).order_by_score())?;
    match top.first() {
        Some((_, address)) => Ok(Some(searcher.doc(*address)?)),
        None => Ok(None),
    }
}

/// The podcasts `ids` that the open shards `selected` of `generation` hold.
pub(crate) fn podcasts_by_id(
    generation: &OpenGeneration,
    selected: &[usize],
    ids: &[Uuid],
) -> Result<Vec<PodcastHit>> {
    let field = generation.schemas.podcasts.ids.id;
    let mut hits = Vec::new();
    for id in ids {
        for at in selected {
            let shard = &generation.shards[*at];
            if let Some(doc) = find_doc(&shard.podcasts, field, &id.to_string())? {
                hits.push(podcast_hit(generation, doc, 0.0));
                break;
            }
        }
    }
    Ok(hits)
}
