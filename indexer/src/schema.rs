//! The three schemas of a shard: podcasts, episodes, and transcript chunks.
//!
//! Text targets have positions (phrases, slop); every filter and sort is a fast field;
//! only what a hit returns is stored. Ids are raw indexed strings (exact lookups, deletes,
//! joins) and also split into two `u64` fast fields used as the global tie-break of every
//! sort, so paging across shards is a total order.

use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema, SchemaBuilder,
    TextFieldIndexing, TextOptions,
};

use crate::analysis::{EXACT_ANALYZER, LanguageFamily, PLAIN_ANALYZER};

/// One field per language family for a stemmed text target.
#[derive(Debug, Clone, Copy)]
pub struct FamilyFields {
    fields: [Field; 9],
}

impl FamilyFields {
    fn add(builder: &mut SchemaBuilder, base: &str) -> FamilyFields {
        FamilyFields::add_with(builder, base, text_with_positions)
    }

    fn add_with(
        builder: &mut SchemaBuilder,
        base: &str,
        options: fn(&str) -> TextOptions,
    ) -> FamilyFields {
        let fields = LanguageFamily::ALL.map(|family| {
            builder.add_text_field(
                &format!("{base}__{}", family.code()),
                options(family.analyzer_name()),
            )
        });
        FamilyFields { fields }
    }

    /// The field of one family.
    pub fn field(&self, family: LanguageFamily) -> Field {
        self.fields[family.index()]
    }

    /// Every family's field with its family.
    pub fn iter(&self) -> impl Iterator<Item = (LanguageFamily, Field)> + '_ {
        LanguageFamily::ALL.into_iter().zip(self.fields)
    }
}

fn text_with_positions(analyzer: &str) -> TextOptions {
    TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(analyzer)
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    )
}

fn exact_text() -> TextOptions {
    TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(EXACT_ANALYZER)
            .set_index_option(IndexRecordOption::Basic),
    )
}

/// Fields shared by every kind: the document's id and its tie-break halves.
#[derive(Debug, Clone, Copy)]
pub struct IdFields {
    pub id: Field,
    pub id_hi: Field,
    pub id_lo: Field,
}

impl IdFields {
    fn add(builder: &mut SchemaBuilder, name: &str) -> IdFields {
        IdFields {
            id: builder.add_text_field(name, STRING | STORED | FAST),
            id_hi: builder.add_u64_field("id_hi", FAST),
            id_lo: builder.add_u64_field("id_lo", FAST),
        }
    }
}

/// The podcasts index.
#[derive(Debug, Clone)]
pub struct PodcastSchema {
    pub schema: Schema,
    pub ids: IdFields,
    pub title: FamilyFields,
    pub description: FamilyFields,
    /// Unstemmed title words: autocomplete's `words[]` and prefix matching.
    pub title_words: Field,
    /// The whole title as one token: exact title lookups.
    pub title_exact: Field,
    pub author: Field,
    pub host_names: Field,
    /// Every name the feed declares for the show: author, owner, hosts and the
    /// channel's `podcast:person`s (unstemmed).
    pub people: Field,
    pub keywords: Field,
    /// The feed's iTunes categories (English words, whatever the feed's language).
    pub categories: Field,
    /// What the show's episodes are about: their titles, the start of their
    /// descriptions, their keywords and their people (see `documents::EpisodeText`).
    pub episodes_text: FamilyFields,
    pub slug: Field,
    pub title_stored: Field,
    pub description_stored: Field,
    /// The podcast's catalog record and signals as JSON, so an incremental update can
    /// rebuild the document when its episodes change.
    pub record: Field,
    pub image_url: Field,
    pub language: Field,
    pub language_tag: Field,
    /// The tag the podcast's text is indexed under (`crate::text_language`): the
    /// declared one, or the language its text is in.
    pub searched_language: Field,
    pub genres: Field,
    pub countries: Field,
    pub explicit: Field,
    pub has_transcript: Field,
    pub founded_date: Field,
    pub last_episode_date: Field,
    pub total_episodes: Field,
    pub total_transcripts: Field,
    pub title_sort_hi: Field,
    pub title_sort_lo: Field,
    pub apple_rating: Field,
    pub apple_ratings_count: Field,
    pub spotify_rating: Field,
    pub spotify_ratings_count: Field,
    pub authority_score: Field,
    /// How much the feed's own text looks like a real show's rather than a list of
    /// search words (1 real, down to 0.2 keyword-stuffed), see `quality`.
    pub text_quality: Field,
}

impl PodcastSchema {
    /// Builds the schema.
    pub fn new() -> PodcastSchema {
        let mut b = Schema::builder();
        let ids = IdFields::add(&mut b, "podcast_id");
        let title = FamilyFields::add(&mut b, "podcast_title");
        let description = FamilyFields::add(&mut b, "podcast_description");
        let episodes_text = FamilyFields::add_with(&mut b, "podcast_episodes", text_with_positions);
        PodcastSchema {
            ids,
            title,
            description,
            title_words: b.add_text_field("title_words", text_with_positions(PLAIN_ANALYZER)),
            title_exact: b.add_text_field("title_exact", exact_text()),
            author: b.add_text_field("author", text_with_positions(PLAIN_ANALYZER).set_stored()),
            host_names: b.add_text_field(
                "host_names",
                text_with_positions(PLAIN_ANALYZER).set_stored(),
            ),
            people: b.add_text_field("people", text_with_positions(PLAIN_ANALYZER)),
            keywords: b.add_text_field("keywords", text_with_positions(PLAIN_ANALYZER)),
            categories: b.add_text_field(
                "categories",
                text_with_positions(LanguageFamily::English.analyzer_name()),
            ),
            episodes_text,
            slug: b.add_text_field("slug", STORED),
            title_stored: b.add_text_field("title", STORED),
            description_stored: b.add_text_field("description", STORED),
            record: b.add_text_field("record", STORED),
            image_url: b.add_text_field("image_url", STORED),
            language: b.add_text_field("language", STRING | FAST),
            language_tag: b.add_text_field("language_tag", STORED),
            searched_language: b.add_text_field("searched_language", STORED),
            genres: b.add_text_field("genres", STRING | STORED),
            countries: b.add_text_field("countries", STRING),
            explicit: b.add_bool_field("explicit", INDEXED | FAST),
            has_transcript: b.add_bool_field("has_transcript", INDEXED | FAST),
            founded_date: b.add_i64_field("founded_date", FAST | STORED),
            last_episode_date: b.add_i64_field("last_episode_date", FAST | STORED),
            total_episodes: b.add_u64_field("total_episodes", FAST | STORED),
            total_transcripts: b.add_u64_field("total_transcripts", FAST),
            title_sort_hi: b.add_u64_field("title_sort_hi", FAST),
            title_sort_lo: b.add_u64_field("title_sort_lo", FAST),
            apple_rating: b.add_f64_field("apple_rating", FAST),
            apple_ratings_count: b.add_u64_field("apple_ratings_count", FAST),
            spotify_rating: b.add_f64_field("spotify_rating", FAST),
            spotify_ratings_count: b.add_u64_field("spotify_ratings_count", FAST),
            authority_score: b.add_f64_field("authority_score", FAST),
            text_quality: b.add_f64_field("text_quality", FAST),
            schema: b.build(),
        }
    }
}

impl Default for PodcastSchema {
    fn default() -> Self {
        PodcastSchema::new()
    }
}

/// How much of a transcript's start an episode document keeps: one character more than
/// the longest start a search returns, so cutting it at a word gives what cutting the
/// whole first chunk would.
pub const TRANSCRIPT_START_STORED: usize = crate::request::MAX_SNIPPET_CHARS + 1;

/// The episodes index. Transcript text is indexed here (one value per chunk, not stored)
/// so an episode matches transcript terms directly; the chunks index holds the stored,
/// timed chunks used for snippets.
#[derive(Debug, Clone)]
pub struct EpisodeSchema {
    pub schema: Schema,
    pub ids: IdFields,
    pub podcast_id: Field,
    pub title: FamilyFields,
    pub description: FamilyFields,
    pub transcript: FamilyFields,
    pub keywords: Field,
    /// The episode's `podcast:person`s (guests, hosts), unstemmed and stored.
    pub people: Field,
    pub slug: Field,
    pub title_stored: Field,
    pub description_stored: Field,
    pub podcast_title_stored: Field,
    pub enclosure_url: Field,
    pub image_url: Field,
    pub web_url: Field,
    pub transcript_id: Field,
    pub published_at: Field,
    /// When the catalog first saw the episode: the date a hit shows for an undated item.
    pub first_seen_at: Field,
    /// The start of the transcript's first chunk (trimmed, at most
    /// [`TRANSCRIPT_START_STORED`] characters): a hit's `transcript_start` is cut from it
    /// without reading the chunks index.
    pub transcript_start: Field,
    pub duration_seconds: Field,
    pub has_transcript: Field,
    pub explicit: Field,
    pub title_sort_hi: Field,
    pub title_sort_lo: Field,
}

impl EpisodeSchema {
    /// Builds the schema.
    pub fn new() -> EpisodeSchema {
        let mut b = Schema::builder();
        let ids = IdFields::add(&mut b, "episode_id");
        let podcast_id = b.add_text_field("podcast_id", STRING | STORED | FAST);
        let title = FamilyFields::add(&mut b, "episode_title");
        let description = FamilyFields::add(&mut b, "episode_description");
        let transcript = FamilyFields::add(&mut b, "transcript");
        EpisodeSchema {
            ids,
            podcast_id,
            title,
            description,
            transcript,
            // stored: an update rebuilds the podcast's episodes' text from them
            keywords: b
                .add_text_field("keywords", text_with_positions(PLAIN_ANALYZER).set_stored()),
            people: b.add_text_field("people", text_with_positions(PLAIN_ANALYZER).set_stored()),
            slug: b.add_text_field("slug", STORED),
            title_stored: b.add_text_field("title", STORED),
            description_stored: b.add_text_field("description", STORED),
            podcast_title_stored: b.add_text_field("podcast_title", STORED),
            enclosure_url: b.add_text_field("enclosure_url", STORED),
            image_url: b.add_text_field("image_url", STORED),
            web_url: b.add_text_field("web_url", STORED),
            transcript_id: b.add_text_field("transcript_id", STORED),
            published_at: b.add_i64_field("published_at", FAST | STORED),
            first_seen_at: b.add_i64_field("first_seen_at", STORED),
            transcript_start: b.add_text_field("transcript_start", STORED),
            duration_seconds: b.add_u64_field("duration_seconds", FAST | STORED),
            has_transcript: b.add_bool_field("has_transcript", INDEXED | FAST | STORED),
            explicit: b.add_bool_field("explicit", INDEXED | FAST),
            title_sort_hi: b.add_u64_field("title_sort_hi", FAST),
            title_sort_lo: b.add_u64_field("title_sort_lo", FAST),
            schema: b.build(),
        }
    }
}

impl Default for EpisodeSchema {
    fn default() -> Self {
        EpisodeSchema::new()
    }
}

/// The transcript chunks index: one document per timed chunk, stored for snippets.
///
/// `chunk_id` (`<transcriptId>:<ordinal>`) also keys the chunk's vector in the shard's
/// vector store (`crate::vectors`).
#[derive(Debug, Clone)]
pub struct ChunkSchema {
    pub schema: Schema,
    pub chunk_id: Field,
    pub episode_id: Field,
    pub podcast_id: Field,
    pub text: FamilyFields,
    pub text_stored: Field,
    pub family: Field,
    pub ordinal: Field,
    pub start_second: Field,
    pub end_second: Field,
}

impl ChunkSchema {
    /// Builds the schema.
    pub fn new() -> ChunkSchema {
        let mut b = Schema::builder();
        let chunk_id = b.add_text_field("chunk_id", STRING | STORED);
        let episode_id = b.add_text_field("episode_id", STRING | STORED | FAST);
        let podcast_id = b.add_text_field("podcast_id", STRING);
        let text = FamilyFields::add(&mut b, "chunk_text");
        ChunkSchema {
            chunk_id,
            episode_id,
            podcast_id,
            text,
            text_stored: b.add_text_field("text", STORED),
            family: b.add_u64_field("family", STORED),
            ordinal: b.add_u64_field("ordinal", STORED | FAST),
            start_second: b.add_f64_field("start_second", STORED),
            end_second: b.add_f64_field("end_second", STORED),
            schema: b.build(),
        }
    }
}

impl Default for ChunkSchema {
    fn default() -> Self {
        ChunkSchema::new()
    }
}

/// A UUID as the two halves stored in `id_hi` / `id_lo`.
pub fn id_halves(id: uuid::Uuid) -> (u64, u64) {
    let value = id.as_u128();
    ((value >> 64) as u64, value as u64)
}

/// The UUID from its halves.
pub fn id_from_halves(hi: u64, lo: u64) -> uuid::Uuid {
    uuid::Uuid::from_u128((u128::from(hi) << 64) | u128::from(lo))
}

/// The first 16 bytes of a title's sort form as two big-endian words, so integer order
/// is byte order of the folded title (exact for titles that differ in their first 16
/// folded bytes; later ties fall to the id).
pub fn title_sort_words(title: &str) -> (u64, u64) {
    let form = crate::analysis::title_sort_form(title);
    let mut bytes = [0u8; 16];
    for (slot, byte) in bytes.iter_mut().zip(form.bytes()) {
        *slot = byte;
    }
    let mut hi = [0u8; 8];
    let mut lo = [0u8; 8];
    hi.copy_from_slice(&bytes[..8]);
    lo.copy_from_slice(&bytes[8..]);
    (u64::from_be_bytes(hi), u64::from_be_bytes(lo))
}

/// Index kinds, as directory names inside a shard.
pub(crate) const PODCASTS: &str = "podcasts";

pub(crate) const EPISODES: &str = "episodes";

pub(crate) const CHUNKS: &str = "chunks";

/// The shard of a podcast: every episode and chunk of a podcast lives in its shard.
pub fn shard_of(podcast_id: uuid::Uuid, shards: u32) -> u32 {
    (podcast_id.as_u128() % u128::from(shards.max(1))) as u32
}

/// The three schemas of a shard.
#[derive(Debug, Clone, Default)]
pub struct Schemas {
    pub podcasts: PodcastSchema,
    pub episodes: EpisodeSchema,
    pub chunks: ChunkSchema,
}

/// Which index of a shard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum IndexKind {
    Podcasts,
    Episodes,
}

impl From<crate::request::SearchMode> for IndexKind {
    fn from(mode: crate::request::SearchMode) -> IndexKind {
        match mode {
            crate::request::SearchMode::Podcasts => IndexKind::Podcasts,
            crate::request::SearchMode::Episodes => IndexKind::Episodes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_halves_round_trip() {
        let id = uuid::Uuid::from_u128(0x0123_4567_89ab_cdef_fedc_ba98_7654_3210);
        let (hi, lo) = id_halves(id);
        assert_eq!(id_from_halves(hi, lo), id);
    }

    #[test]
    fn title_words_follow_folded_byte_order() {
        let mut titles = ["Zebra talk", "apple pie", "Äpfel", "apple", "B"];
        titles.sort_by_key(|title| title_sort_words(title));
        assert_eq!(titles, ["Äpfel", "apple", "apple pie", "B", "Zebra talk"]);
    }

    #[test]
    fn schemas_build() {
        assert!(
            PodcastSchema::new()
                .schema
                .get_field("podcast_title__en")
                .is_ok()
        );
        assert!(
            EpisodeSchema::new()
                .schema
                .get_field("transcript__xx")
                .is_ok()
        );
        assert!(
            ChunkSchema::new()
                .schema
                .get_field("chunk_text__de")
                .is_ok()
        );
    }
}
