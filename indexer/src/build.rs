//! Building generations: a full build from the catalog, sharded by podcast and built in
//! parallel, and incremental updates applied to a copy of the current generation.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use podlens_model::catalog::{EpisodeRecord, PersonRecord, PodcastRecord, TranscriptRecord};
use rayon::prelude::*;
use tantivy::indexer::NoMergePolicy;
use tantivy::schema::Schema;
use tantivy::{Index, IndexWriter, TantivyDocument, Term};
use uuid::Uuid;

use crate::analysis::register_analyzers;
use crate::chunking::chunk_transcript;
use crate::documents::{
    EpisodeText, IndexSource, PodcastSignals, StoredPodcast, chunk_documents, episode_document,
    episodes_text, podcast_document, podcast_people, transcript_family,
};
use crate::embedding::EMBEDDING_DIM;
use crate::error::{IndexError, Result};
use crate::generation::{
    EncoderManifest, Manifest, VectorsManifest, clone_index_dir, generation_dir, next_generation,
    publish, read_manifest, shard_dir, shard_index_dir,
};
use crate::schema::{CHUNKS, EPISODES, PODCASTS, Schemas, shard_of};
use crate::text_language::search_language;
use crate::vectors::shows::{ShowVectors, show_text};
use crate::vectors::{ShardVectors, VectorKind, VectorModel, podcast_text};

/// How to build.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Number of shards; default one per core.
    pub shards: Option<u32>,
    /// Indexing memory per index writer (one writer thread each), in bytes.
    pub writer_memory_bytes: usize,
    /// The static embedding model; `None` builds without vectors (semantic features are
    /// then unavailable on this generation).
    pub vectors: Option<VectorModel>,
    /// The multilingual encoder; `None` builds without show vectors (podcast search
    /// then fuses with the static centroids).
    pub encoder: Option<std::sync::Arc<crate::embedding::Encoder>>,
    /// Tokens the encoder reads of each show's text (`crate::vectors::shows::show_text`),
    /// its prefix and end tokens included: the model's window by default. A smaller
    /// window embeds a large catalog in less time (the time is about proportional to
    /// the tokens) from the title, language and categories first.
    pub show_text_tokens: usize,
    /// Also write the generation's global statistics (`crate::statistics`), which the
    /// search nodes of a cluster, each holding some shards, score with.
    pub statistics: bool,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            shards: None,
            writer_memory_bytes: 64 << 20,
            vectors: None,
            encoder: None,
            show_text_tokens: crate::vectors::shows::SHOW_TEXT_TOKENS,
            statistics: false,
        }
    }
}

#[derive(Default)]
struct ShardInput<'a> {
    podcasts: Vec<&'a PodcastRecord>,
    episodes: Vec<&'a EpisodeRecord>,
}

/// The feeds' people by podcast (channel level) and by episode.
#[derive(Default)]
struct People<'a> {
    by_podcast: HashMap<Uuid, Vec<&'a PersonRecord>>,
    by_episode: HashMap<Uuid, Vec<&'a PersonRecord>>,
}

impl<'a> People<'a> {
    fn of(persons: &'a [PersonRecord]) -> People<'a> {
        let mut people = People::default();
        for person in persons {
            match person.episode_id {
                Some(episode) => people.by_episode.entry(episode).or_default().push(person),
                None => people
                    .by_podcast
                    .entry(person.podcast_id)
                    .or_default()
                    .push(person),
            }
        }
        people
    }

    fn of_podcast(&self, podcast_id: Uuid) -> &[&'a PersonRecord] {
        self.by_podcast.get(&podcast_id).map_or(&[], Vec::as_slice)
    }

    /// An episode's people's names, each once.
    fn of_episode(&self, episode_id: Uuid) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for person in self.by_episode.get(&episode_id).into_iter().flatten() {
            let name = person.name.trim();
            if !name.is_empty() && !names.iter().any(|seen| seen == name) {
                names.push(name.to_owned());
            }
        }
        names
    }
}

/// Builds a complete new generation from `source` under `index_dir` and publishes it.
pub fn build_generation(
    index_dir: &Path,
    source: IndexSource<'_>,
    options: &BuildOptions,
) -> Result<Manifest> {
    std::fs::create_dir_all(index_dir).map_err(|e| IndexError::io(index_dir, e))?;
    let shards = options
        .shards
        .unwrap_or_else(|| rayon::current_num_threads() as u32)
        .max(1);
    let generation = next_generation(index_dir)?;
    let gen_dir = generation_dir(index_dir, generation);
    let schemas = Schemas::default();

    let podcasts_by_id: HashMap<Uuid, &PodcastRecord> =
        source.podcasts.iter().map(|p| (p.podcast_id, p)).collect();
    let transcripts_by_episode: HashMap<Uuid, &TranscriptRecord> = source
        .transcripts
        .iter()
        .map(|t| (t.episode_id, t))
        .collect();
    let people = People::of(source.persons);
    let copies = crate::dedup::copies(source.podcasts);
    let copied_episodes = crate::dedup::copied_episodes(source.episodes, &copies);
    if !copies.is_empty() {
        tracing::info!(
            podcasts = copies.len(),
            episodes = copied_episodes.len(),
            "copies of podcasts left out of the index"
        );
    }
    let mut inputs: Vec<ShardInput<'_>> = (0..shards).map(|_| ShardInput::default()).collect();
    for podcast in source
        .podcasts
        .iter()
        .filter(|p| !copies.contains_key(&p.podcast_id))
    {
        inputs[shard_of(podcast.podcast_id, shards) as usize]
            .podcasts
            .push(podcast);
    }
    for episode in source
        .episodes
        .iter()
        .filter(|e| !copied_episodes.contains(&e.episode_id))
    {
        inputs[shard_of(episode.podcast_id, shards) as usize]
            .episodes
            .push(episode);
    }
    tracing::info!(
        generation,
        shards,
        podcasts = source.podcasts.len(),
        episodes = source.episodes.len(),
        transcripts = source.transcripts.len(),
        "building index generation"
    );
    if let Some(model) = &options.vectors {
        model.install_into(index_dir)?;
    }
    let counts: Vec<Result<ShardCounts>> = inputs
        .into_par_iter()
        .enumerate()
        .map(|(shard, input)| {
            let mut writers = ShardWriters::create(&gen_dir, shard as u32, &schemas, options)?;
            let mut texts: HashMap<Uuid, Vec<EpisodeText>> = HashMap::new();
            let mut languages: HashMap<Uuid, Option<String>> = HashMap::new();
            for episode in &input.episodes {
                texts
                    .entry(episode.podcast_id)
                    .or_default()
                    .push(EpisodeText::of(
                        episode,
                        people.of_episode(episode.episode_id),
                    ));
            }
            for podcast in &input.podcasts {
                let stored = StoredPodcast {
                    podcast: (*podcast).clone(),
                    signals: source
                        .signals
                        .and_then(|all| all.get(&podcast.podcast_id))
                        .cloned(),
                    people: podcast_people(podcast, people.of_podcast(podcast.podcast_id)),
                };
                let text = PodcastText::of(
                    podcast,
                    texts
                        .get_mut(&podcast.podcast_id)
                        .map_or(&mut [][..], |texts| texts.as_mut_slice()),
                );
                writers.add_podcast(&schemas, &stored, &text)?;
                languages.insert(podcast.podcast_id, text.language);
            }
            for episode in &input.episodes {
                let podcast = podcasts_by_id.get(&episode.podcast_id).copied();
                let language = match languages.get(&episode.podcast_id) {
                    Some(language) => language.as_deref(),
                    None => podcast.and_then(|p| p.rss_language.as_deref()),
                };
                let explicit = podcast.is_some_and(|p| p.explicit_rss);
                let transcript = transcripts_by_episode.get(&episode.episode_id).copied();
                let names = people.of_episode(episode.episode_id);
                writers.add_episode(&schemas, episode, &names, language, explicit, transcript)?;
            }
            writers.commit()
        })
        .collect();
    let manifest = summarise(generation, shards, options, counts)?;
    if options.statistics {
        let built = crate::shard::OpenGeneration::open(index_dir, manifest.clone())?;
        let terms = built.write_statistics(index_dir)?;
        tracing::info!(generation, terms, "wrote the generation's statistics");
    }
    publish(index_dir, &manifest)?;
    Ok(manifest)
}

/// Documents, vectors and show vectors written by one shard.
type ShardCounts = (u64, u64, u64, Option<u64>, Option<u64>);

fn summarise(
    generation: u64,
    shards: u32,
    options: &BuildOptions,
    counts: Vec<Result<ShardCounts>>,
) -> Result<Manifest> {
    let mut manifest = Manifest::new(generation, shards);
    let mut vectors = options.vectors.as_ref().map(|model| VectorsManifest {
        model_sha256: model.table_sha256.clone(),
        dim: model.model.dim(),
        count: 0,
    });
    let mut encoder = options.encoder.as_ref().map(|encoder| EncoderManifest {
        model_sha256: encoder.model_sha256().to_owned(),
        dim: crate::embedding::ENCODER_DIM,
        count: 0,
    });
    for count in counts {
        let (podcasts, episodes, chunks, shard_vectors, shard_shows) = count?;
        manifest.podcasts += podcasts;
        manifest.episodes += episodes;
        manifest.chunks += chunks;
        match (&mut vectors, shard_vectors) {
            (Some(info), Some(count)) => info.count += count,
            _ => vectors = None,
        }
        match (&mut encoder, shard_shows) {
            (Some(info), Some(count)) => info.count += count,
            _ => encoder = None,
        }
    }
    manifest.vectors = vectors;
    manifest.encoder = encoder;
    Ok(manifest)
}

/// Changes to apply to the published generation. Upserts replace whatever the index
/// holds for the same id; an upserted episode's transcript must come with it (an episode
/// upserted without one is indexed without transcript text).
#[derive(Debug, Clone, Copy, Default)]
pub struct IndexChanges<'a> {
    pub podcasts: &'a [PodcastRecord],
    pub episodes: &'a [EpisodeRecord],
    pub transcripts: &'a [TranscriptRecord],
    pub signals: Option<&'a HashMap<Uuid, PodcastSignals>>,
    /// The people of the upserted podcasts and episodes. A podcast upserted without any
    /// keeps the names its document had.
    pub persons: &'a [PersonRecord],
    /// Podcasts to remove with all their episodes and chunks.
    pub deleted_podcasts: &'a [Uuid],
    /// Episodes to remove with their chunks.
    pub deleted_episodes: &'a [Uuid],
}

/// Applies `changes` to a copy of the published generation and publishes the copy.
pub fn update_generation(
    index_dir: &Path,
    changes: IndexChanges<'_>,
    options: &BuildOptions,
) -> Result<Manifest> {
    let current =
        read_manifest(index_dir)?.ok_or_else(|| IndexError::NoGeneration(index_dir.into()))?;
    let shards = current.shards;
    let generation = next_generation(index_dir)?;
    let old_dir = generation_dir(index_dir, current.generation);
    let new_dir = generation_dir(index_dir, generation);
    let schemas = Schemas::default();
    let podcasts_by_id: HashMap<Uuid, &PodcastRecord> =
        changes.podcasts.iter().map(|p| (p.podcast_id, p)).collect();
    let transcripts_by_episode: HashMap<Uuid, &TranscriptRecord> = changes
        .transcripts
        .iter()
        .map(|t| (t.episode_id, t))
        .collect();
    let people = People::of(changes.persons);

    // Vectors carry over only when the published generation has them from the same
    // model; otherwise the new generation has none (a full build makes them).
    let mut options = options.clone();
    let same_model = match (&options.vectors, &current.vectors) {
        (Some(model), Some(info)) => model.table_sha256 == info.model_sha256,
        _ => false,
    };
    if !same_model {
        if options.vectors.is_some() {
            tracing::warn!(
                "the published generation has no vectors from this model: the update is built without vectors, run a full build to add them"
            );
        }
        options.vectors = None;
    }
    // Show vectors likewise: from the same encoder model, or none.
    let same_encoder = match (&options.encoder, &current.encoder) {
        (Some(encoder), Some(info)) => encoder.model_sha256() == info.model_sha256,
        _ => false,
    };
    if !same_encoder {
        if options.encoder.is_some() {
            tracing::warn!(
                "the published generation has no show vectors from this encoder: the update is built without them, run a full build to add them"
            );
        }
        options.encoder = None;
    }
    let options = &options;
    let counts: Vec<Result<ShardCounts>> = (0..shards)
        .into_par_iter()
        .map(|shard| {
            for kind in [PODCASTS, EPISODES, CHUNKS] {
                clone_index_dir(
                    &shard_index_dir(&old_dir, shard, kind),
                    &shard_index_dir(&new_dir, shard, kind),
                )?;
            }
            let mut writers = ShardWriters::open(&new_dir, shard, options)?;
            if options.vectors.is_some() {
                let old = ShardVectors::read(&shard_dir(&old_dir, shard))?;
                writers.vectors = Some(old.unwrap_or_else(|| ShardVectors::new(EMBEDDING_DIM)));
            }
            if options.encoder.is_some() {
                writers.shows = Some(ShowVectors::carried(
                    &shard_dir(&old_dir, shard),
                    options.show_text_tokens,
                )?);
            }
            let rebuilt = rebuilt_podcasts(&writers, &schemas, &changes, &people, shard, shards)?;
            for id in changes.deleted_podcasts {
                writers.delete_podcast(&schemas, *id);
            }
            for id in changes.deleted_episodes {
                writers.delete_episode(&schemas, *id);
            }
            let mut languages: HashMap<Uuid, Option<String>> = HashMap::new();
            for (stored, text) in &rebuilt {
                let id = stored.podcast.podcast_id;
                writers.forget_podcast_text(id);
                writers.delete_term(PODCASTS, schemas.podcasts.ids.id, id);
                writers.add_podcast(&schemas, stored, text)?;
                languages.insert(id, text.language.clone());
            }
            for episode in changes.episodes {
                if shard_of(episode.podcast_id, shards) != shard {
                    continue;
                }
                writers.delete_episode(&schemas, episode.episode_id);
                let (declared, explicit) = match podcasts_by_id.get(&episode.podcast_id) {
                    Some(podcast) => (podcast.rss_language.clone(), podcast.explicit_rss),
                    None => writers.stored_podcast_language(&schemas, episode.podcast_id)?,
                };
                // a podcast the index holds was rebuilt above; one it does not hold has
                // no document to read a language from
                let language = languages
                    .get(&episode.podcast_id)
                    .cloned()
                    .unwrap_or(declared);
                let transcript = transcripts_by_episode.get(&episode.episode_id).copied();
                let names = people.of_episode(episode.episode_id);
                writers.add_episode(
                    &schemas,
                    episode,
                    &names,
                    language.as_deref(),
                    explicit,
                    transcript,
                )?;
            }
            writers.commit()
        })
        .collect();
    let manifest = summarise(generation, shards, options, counts)?;
    publish(index_dir, &manifest)?;
    Ok(manifest)
}

/// The podcasts of `shard` whose documents an update rewrites (the upserted ones, and
/// those whose episodes change), each with its record and its episodes' text after the
/// update. Read before anything is deleted.
fn rebuilt_podcasts(
    writers: &ShardWriters,
    schemas: &Schemas,
    changes: &IndexChanges<'_>,
    people: &People<'_>,
    shard: u32,
    shards: u32,
) -> Result<Vec<(StoredPodcast, PodcastText)>> {
    let in_shard = |id: &Uuid| shard_of(*id, shards) == shard;
    let deleted_podcasts: HashSet<Uuid> = changes.deleted_podcasts.iter().copied().collect();
    let mut replaced: HashSet<Uuid> = changes.deleted_episodes.iter().copied().collect();
    replaced.extend(changes.episodes.iter().map(|e| e.episode_id));
    let mut affected: Vec<Uuid> = Vec::new();
    let mut add = |id: Uuid| {
        if in_shard(&id) && !deleted_podcasts.contains(&id) && !affected.contains(&id) {
            affected.push(id);
        }
    };
    changes.podcasts.iter().for_each(|p| add(p.podcast_id));
    changes.episodes.iter().for_each(|e| add(e.podcast_id));
    for id in changes.deleted_episodes {
        if let Some(podcast_id) = writers.stored_episode_podcast(schemas, *id)? {
            add(podcast_id);
        }
    }
    let mut rebuilt = Vec::with_capacity(affected.len());
    for podcast_id in affected {
        let old = writers.stored_podcast(schemas, podcast_id)?;
        let stored = match changes.podcasts.iter().find(|p| p.podcast_id == podcast_id) {
            Some(podcast) => {
                let declared = people.of_podcast(podcast_id);
                StoredPodcast {
                    podcast: podcast.clone(),
                    signals: changes
                        .signals
                        .and_then(|all| all.get(&podcast_id))
                        .cloned()
                        .or_else(|| old.as_ref().and_then(|old| old.signals.clone())),
                    people: if declared.is_empty()
                        && let Some(old) = &old
                    {
                        old.people.clone()
                    } else {
                        podcast_people(podcast, declared)
                    },
                }
            }
            // Episodes of a podcast the index does not hold: nothing to rewrite.
            None => match old {
                Some(old) => old,
                None => continue,
            },
        };
        let mut texts: Vec<EpisodeText> = writers
            .stored_episode_texts(schemas, podcast_id)?
            .into_iter()
            .filter(|(id, _)| !replaced.contains(id))
            .map(|(_, text)| text)
            .collect();
        texts.extend(
            changes
                .episodes
                .iter()
                .filter(|e| e.podcast_id == podcast_id)
                .map(|e| EpisodeText::of(e, people.of_episode(e.episode_id))),
        );
        let text = PodcastText::of(&stored.podcast, &mut texts);
        rebuilt.push((stored, text));
    }
    Ok(rebuilt)
}

/// What a podcast's document holds beyond its record: its episodes' number and text, and
/// the language it and its episodes are searched in (`crate::text_language`).
struct PodcastText {
    episodes: usize,
    text: String,
    language: Option<String>,
    /// What the show's encoder vector embeds (`crate::vectors::shows::show_text`).
    show: String,
}

impl PodcastText {
    /// Of `podcast` and its `episodes`, which are left newest first.
    fn of(podcast: &PodcastRecord, episodes: &mut [EpisodeText]) -> PodcastText {
        let (count, text) = episodes_text(episodes);
        let language = search_language(podcast, episodes);
        PodcastText {
            episodes: count,
            text,
            show: show_text(
                &podcast.podcast_rss_title,
                language.as_deref(),
                &podcast.rss_categories,
                podcast.podcast_rss_description_no_html.as_deref(),
            ),
            language,
        }
    }
}

struct ShardWriters {
    podcasts: (Index, IndexWriter<TantivyDocument>),
    episodes: (Index, IndexWriter<TantivyDocument>),
    chunks: (Index, IndexWriter<TantivyDocument>),
    /// The shard directory, where `vectors.bin` is written.
    dir: std::path::PathBuf,
    model: Option<std::sync::Arc<crate::embedding::StaticModel>>,
    vectors: Option<ShardVectors>,
    /// The encoder and the shard's show vectors, when the generation has them.
    encoder: Option<std::sync::Arc<crate::embedding::Encoder>>,
    shows: Option<ShowVectors>,
    /// A full build: no merges while indexing, every index merged into one segment at
    /// the end (a query then does one term lookup and one scorer per field and shard).
    merge_at_end: bool,
}

/// Bytes of podcast and episode documents stored together, uncompressed. A hit reads its
/// stored fields by reading (and, compressed, decompressing) its whole block: at
/// tantivy's default (16 KiB LZ4 blocks, about six episodes) a page of 100 episode hits
/// decompressed 1.6 MB, and decompressing was still a tenth of an episode search at 1M
/// episodes with 4 KiB blocks. Uncompressed 1 KiB blocks (one or two episodes) make the
/// episode store 2.2 times as large as LZ4's (781 against 354 MB at 1M episodes, the
/// whole index 3.2 against 2.8 GB) and episode searches 15% cheaper in server CPU (side
/// by side, benches/api/RESULTS.md). Transcript chunks keep the default: their store is
/// the largest, and a page reads only its hits' best chunks. A generation written
/// before keeps its LZ4 blocks, read as before.
const HIT_BLOCK_BYTES: usize = 1024;

fn create_index(
    dir: &Path,
    schema: &Schema,
    memory: usize,
    block_bytes: Option<usize>,
) -> Result<(Index, IndexWriter)> {
    std::fs::create_dir_all(dir).map_err(|e| IndexError::io(dir, e))?;
    let defaults = tantivy::IndexSettings::default();
    let settings = match block_bytes {
        Some(bytes) => tantivy::IndexSettings {
            docstore_blocksize: bytes,
            docstore_compression: tantivy::store::Compressor::None,
            ..defaults
        },
        None => defaults,
    };
    let index = Index::builder()
        .schema(schema.clone())
        .settings(settings)
        .create_in_dir(dir)?;
    register_analyzers(&index);
    let writer = index.writer_with_num_threads(1, memory)?;
    writer.set_merge_policy(Box::new(NoMergePolicy));
    Ok((index, writer))
}

fn open_index(dir: &Path, memory: usize) -> Result<(Index, IndexWriter)> {
    let index = Index::open_in_dir(dir)?;
    register_analyzers(&index);
    let writer = index.writer_with_num_threads(1, memory)?;
    Ok((index, writer))
}

impl ShardWriters {
    fn create(
        gen_dir: &Path,
        shard: u32,
        schemas: &Schemas,
        options: &BuildOptions,
    ) -> Result<ShardWriters> {
        let memory = options.writer_memory_bytes.max(15 << 20);
        let model = options.vectors.as_ref().map(|m| m.model.clone());
        Ok(ShardWriters {
            dir: shard_dir(gen_dir, shard),
            vectors: model.as_ref().map(|m| ShardVectors::new(m.dim())),
            model,
            encoder: options.encoder.clone(),
            shows: options
                .encoder
                .as_ref()
                .map(|_| ShowVectors::new(options.show_text_tokens)),
            merge_at_end: true,
            podcasts: create_index(
                &shard_index_dir(gen_dir, shard, PODCASTS),
                &schemas.podcasts.schema,
                memory,
                Some(HIT_BLOCK_BYTES),
            )?,
            episodes: create_index(
                &shard_index_dir(gen_dir, shard, EPISODES),
                &schemas.episodes.schema,
                memory,
                Some(HIT_BLOCK_BYTES),
            )?,
            chunks: create_index(
                &shard_index_dir(gen_dir, shard, CHUNKS),
                &schemas.chunks.schema,
                memory,
                None,
            )?,
        })
    }

    fn open(gen_dir: &Path, shard: u32, options: &BuildOptions) -> Result<ShardWriters> {
        let memory = options.writer_memory_bytes.max(15 << 20);
        Ok(ShardWriters {
            dir: shard_dir(gen_dir, shard),
            model: options.vectors.as_ref().map(|m| m.model.clone()),
            vectors: None,
            encoder: options.encoder.clone(),
            shows: None,
            merge_at_end: false,
            podcasts: open_index(&shard_index_dir(gen_dir, shard, PODCASTS), memory)?,
            episodes: open_index(&shard_index_dir(gen_dir, shard, EPISODES), memory)?,
            chunks: open_index(&shard_index_dir(gen_dir, shard, CHUNKS), memory)?,
        })
    }

    fn writer(&self, kind: &str) -> &IndexWriter<TantivyDocument> {
        match kind {
            PODCASTS => &self.podcasts.1,
            EPISODES => &self.episodes.1,
            _ => &self.chunks.1,
        }
    }

    fn delete_term(&self, kind: &str, field: tantivy::schema::Field, id: Uuid) {
        self.writer(kind)
            .delete_term(Term::from_field_text(field, &id.to_string()));
    }

    fn delete_podcast(&mut self, schemas: &Schemas, id: Uuid) {
        self.delete_term(PODCASTS, schemas.podcasts.ids.id, id);
        self.delete_term(EPISODES, schemas.episodes.podcast_id, id);
        self.delete_term(CHUNKS, schemas.chunks.podcast_id, id);
        if let Some(vectors) = &mut self.vectors {
            vectors.retain(|key| key.podcast_id != id);
        }
        if let Some(shows) = &mut self.shows {
            shows.remove(id);
        }
    }

    fn delete_episode(&mut self, schemas: &Schemas, id: Uuid) {
        self.delete_term(EPISODES, schemas.episodes.ids.id, id);
        self.delete_term(CHUNKS, schemas.chunks.episode_id, id);
        if let Some(vectors) = &mut self.vectors {
            vectors.retain(|key| key.episode_id != id || key.kind == VectorKind::Podcast);
        }
    }

    /// Drops a podcast's own text vector before it is re-added (its episodes stay).
    fn forget_podcast_text(&mut self, id: Uuid) {
        if let Some(vectors) = &mut self.vectors {
            vectors.retain(|key| !(key.podcast_id == id && key.kind == VectorKind::Podcast));
        }
    }

    fn add_podcast(
        &mut self,
        schemas: &Schemas,
        stored: &StoredPodcast,
        text: &PodcastText,
    ) -> Result<()> {
        let podcast = &stored.podcast;
        let doc = podcast_document(
            &schemas.podcasts,
            stored,
            text.episodes,
            &text.text,
            text.language.as_deref(),
        );
        self.podcasts.1.add_document(doc)?;
        if let (Some(model), Some(vectors)) = (&self.model, &mut self.vectors) {
            let text = podcast_text(
                &podcast.podcast_rss_title,
                podcast.podcast_rss_description_no_html.as_deref(),
            );
            vectors.push_podcast(model, podcast.podcast_id, &text);
        }
        if let Some(shows) = &mut self.shows {
            shows.add(podcast.podcast_id, text.show.clone());
        }
        Ok(())
    }

    fn add_episode(
        &mut self,
        schemas: &Schemas,
        episode: &EpisodeRecord,
        people: &[String],
        language: Option<&str>,
        explicit_podcast: bool,
        transcript: Option<&TranscriptRecord>,
    ) -> Result<()> {
        let chunks = transcript.map(chunk_transcript).unwrap_or_default();
        let with_chunks = transcript.map(|record| (record, chunks.as_slice()));
        let doc = episode_document(
            &schemas.episodes,
            episode,
            people,
            language,
            explicit_podcast,
            with_chunks,
        );
        self.episodes.1.add_document(doc)?;
        if let Some(record) = transcript {
            let family = transcript_family(record, language);
            for doc in chunk_documents(&schemas.chunks, record, family, &chunks) {
                self.chunks.1.add_document(doc)?;
            }
        }
        if let (Some(model), Some(vectors)) = (&self.model, &mut self.vectors) {
            let text = podcast_text(
                &episode.episode_rss_title,
                episode.episode_rss_description_no_html.as_deref(),
            );
            vectors.push_episode(
                model,
                episode.podcast_id,
                episode.episode_id,
                &text,
                transcript.map(|record| (record.transcript_id, chunks.as_slice())),
            );
        }
        Ok(())
    }

    /// The language a podcast already in this shard is searched in, and its explicit flag.
    fn stored_podcast_language(
        &self,
        schemas: &Schemas,
        podcast_id: Uuid,
    ) -> Result<(Option<String>, bool)> {
        use tantivy::schema::Value;
        let fields = &schemas.podcasts;
        let searcher = self.podcasts.0.reader()?.searcher();
        let query = tantivy::query::TermQuery::new(
            Term::from_field_text(fields.ids.id, &podcast_id.to_string()),
            tantivy::schema::IndexRecordOption::Basic,
        );
        let top = searcher.search(
            &query,
            &tantivy::collector::TopDocs::with_limit(1).order_by_score(),
        )?;
        let Some((_, address)) = top.first() else {
            return Ok((None, false));
        };
        let doc: TantivyDocument = searcher.doc(*address)?;
        let language = doc
            .get_first(fields.searched_language)
            .and_then(|value| value.as_str())
            .map(str::to_owned);
        let explicit_column = searcher
            .segment_reader(address.segment_ord)
            .fast_fields()
            .bool("explicit")?;
        let explicit = explicit_column.first(address.doc_id).unwrap_or(false);
        Ok((language, explicit))
    }

    /// The stored record of a podcast already in this shard.
    fn stored_podcast(&self, schemas: &Schemas, podcast_id: Uuid) -> Result<Option<StoredPodcast>> {
        use tantivy::schema::Value;
        let searcher = self.podcasts.0.reader()?.searcher();
        let Some(doc) = first_doc(&searcher, schemas.podcasts.ids.id, podcast_id)? else {
            return Ok(None);
        };
        Ok(doc
            .get_first(schemas.podcasts.record)
            .and_then(|value| value.as_str())
            .and_then(|json| serde_json::from_str(json).ok()))
    }

    /// The podcast of an episode already in this shard.
    fn stored_episode_podcast(&self, schemas: &Schemas, episode_id: Uuid) -> Result<Option<Uuid>> {
        use tantivy::schema::Value;
        let searcher = self.episodes.0.reader()?.searcher();
        let Some(doc) = first_doc(&searcher, schemas.episodes.ids.id, episode_id)? else {
            return Ok(None);
        };
        Ok(doc
            .get_first(schemas.episodes.podcast_id)
            .and_then(|value| value.as_str())
            .and_then(|id| Uuid::parse_str(id).ok()))
    }

    /// What the stored episodes of a podcast in this shard add to its document.
    fn stored_episode_texts(
        &self,
        schemas: &Schemas,
        podcast_id: Uuid,
    ) -> Result<Vec<(Uuid, EpisodeText)>> {
        use tantivy::schema::Value;
        let fields = &schemas.episodes;
        let searcher = self.episodes.0.reader()?.searcher();
        let query = tantivy::query::TermQuery::new(
            Term::from_field_text(fields.podcast_id, &podcast_id.to_string()),
            tantivy::schema::IndexRecordOption::Basic,
        );
        let addresses = searcher.search(&query, &tantivy::collector::DocSetCollector)?;
        let mut texts = Vec::with_capacity(addresses.len());
        for address in addresses {
            let doc: TantivyDocument = searcher.doc(address)?;
            let text = |field| {
                doc.get_first(field)
                    .and_then(|value| value.as_str())
                    .map(str::to_owned)
            };
            let Some(id) = text(fields.ids.id).and_then(|id| Uuid::parse_str(&id).ok()) else {
                continue;
            };
            texts.push((
                id,
                EpisodeText {
                    title: text(fields.title_stored).unwrap_or_default(),
                    description: text(fields.description_stored),
                    keywords: doc
                        .get_all(fields.keywords)
                        .filter_map(|value| value.as_str())
                        .map(str::to_owned)
                        .collect(),
                    people: doc
                        .get_all(fields.people)
                        .filter_map(|value| value.as_str())
                        .map(str::to_owned)
                        .collect(),
                    published: doc.get_first(fields.published_at).and_then(|v| v.as_i64()),
                },
            ));
        }
        Ok(texts)
    }

    fn commit(self) -> Result<ShardCounts> {
        let vector_count = match self.vectors {
            Some(mut vectors) => {
                vectors.rebuild_centroids();
                vectors.write(&self.dir)?;
                Some(vectors.len() as u64)
            }
            None => None,
        };
        let show_count = match (self.shows, &self.encoder) {
            (Some(shows), Some(encoder)) => Some(shows.write(encoder, &self.dir)?),
            _ => None,
        };
        let mut counts = [0u64; 3];
        for (slot, (index, mut writer)) in
            counts
                .iter_mut()
                .zip([self.podcasts, self.episodes, self.chunks])
        {
            writer.commit()?;
            if self.merge_at_end {
                let segments = index.searchable_segment_ids()?;
                if segments.len() > 1 {
                    writer.merge(&segments).wait()?;
                }
            }
            writer.wait_merging_threads()?;
            *slot = index.reader()?.searcher().num_docs();
        }
        Ok((counts[0], counts[1], counts[2], vector_count, show_count))
    }
}

/// The first document whose `field` is `id`.
fn first_doc(
    searcher: &tantivy::Searcher,
    field: tantivy::schema::Field,
    id: Uuid,
) -> Result<Option<TantivyDocument>> {
    let query = tantivy::query::TermQuery::new(
        Term::from_field_text(field, &id.to_string()),
        tantivy::schema::IndexRecordOption::Basic,
    );
    let top = searcher.search(
        &query,
        &tantivy::collector::TopDocs::with_limit(1).order_by_score(),
    )?;
    match top.first() {
        Some((_, address)) => Ok(Some(searcher.doc(*address)?)),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_stable_and_in_range() {
        let id = Uuid::from_u128(12_345);
        assert_eq!(shard_of(id, 4), shard_of(id, 4));
        assert!((0..1000u128).all(|n| shard_of(Uuid::from_u128(n * 7919), 3) < 3));
        assert_eq!(shard_of(id, 0), 0);
    }
}
