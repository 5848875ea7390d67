//! An opened generation: a searcher per index per shard, and BM25 statistics summed
//! over all shards so scores from different shards are comparable.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Mutex, OnceLock};

use tantivy::query::Bm25StatisticsProvider;
use tantivy::schema::Field;
use tantivy::{Index, ReloadPolicy, Searcher, Term};

use crate::analysis::register_analyzers;
use crate::schema::{CHUNKS, EPISODES, IndexKind, PODCASTS, Schemas};
use std::sync::Arc;

use crate::embedding::StaticModel;
use crate::error::{IndexError, Result};
use crate::filter_cache::FilterCache;
use crate::generation::{Manifest, generation_dir, shard_dir, shard_index_dir};
use crate::statistics::{FieldLengthSums, StoredStatistics};
use crate::vectors::{QueryVector, ShardVectors, VECTORS_FILE, load_index_model};

/// The searchers of one shard. A generation never changes once published, so these are
/// opened once and never reloaded.
pub struct OpenShard {
    pub podcasts: Searcher,
    pub episodes: Searcher,
    pub chunks: Searcher,
    /// The shard's vectors, when the generation has them.
    pub vectors: Option<ShardVectors>,
    /// The shard's show vectors from the multilingual encoder, when the generation has
    /// them (`crate::vectors::shows`).
    pub shows: Option<ShardVectors>,
    /// The indexed fields of each index that hold at least one term in this shard.
    pub(crate) podcast_fields: NonEmptyFields,
    pub(crate) episode_fields: NonEmptyFields,
    pub(crate) chunk_fields: NonEmptyFields,
    /// Tokens and documents with the field, per text field of each index.
    podcast_lengths: FieldLengths,
    episode_lengths: FieldLengths,
    /// Podcast-level filters of episode searches, resolved to episode documents.
    pub(crate) podcast_filters: FilterCache,
    /// Dictionary terms of fuzzily matched words.
    pub(crate) fuzzy: crate::fuzzy::FuzzyExpansions,
}

impl OpenShard {
    /// The searcher of one of the shard's indexes.
    pub(crate) fn searcher(&self, kind: IndexKind) -> &Searcher {
        match kind {
            IndexKind::Podcasts => &self.podcasts,
            IndexKind::Episodes => &self.episodes,
        }
    }

    fn open(
        dir: &Path,
        shard: u32,
        vectors: Option<ShardVectors>,
        shows: Option<ShardVectors>,
    ) -> Result<OpenShard> {
        let podcasts = open_searcher(&shard_index_dir(dir, shard, PODCASTS))?;
        let episodes = open_searcher(&shard_index_dir(dir, shard, EPISODES))?;
        let chunks = open_searcher(&shard_index_dir(dir, shard, CHUNKS))?;
        Ok(OpenShard {
            podcast_fields: NonEmptyFields::of(&podcasts)?,
            episode_fields: NonEmptyFields::of(&episodes)?,
            chunk_fields: NonEmptyFields::of(&chunks)?,
            podcast_lengths: FieldLengths::of(&podcasts)?,
            episode_lengths: FieldLengths::of(&episodes)?,
            podcast_filters: FilterCache::default(),
            fuzzy: crate::fuzzy::FuzzyExpansions::default(),
            podcasts,
            episodes,
            chunks,
            vectors,
            shows,
        })
    }
}

/// The indexed fields of one index of a shard that hold at least one term. A query on a
/// field outside the set can match nothing in the shard, so it is left out (the
/// language-family fields of languages the shard has no text in).
#[derive(Debug, Default)]
pub(crate) struct NonEmptyFields {
    fields: HashSet<Field>,
}

impl NonEmptyFields {
    fn of(searcher: &Searcher) -> Result<NonEmptyFields> {
        let mut fields = HashSet::new();
        for (field, entry) in searcher.schema().fields() {
            if !entry.is_indexed() {
                continue;
            }
            for reader in searcher.segment_readers() {
                if reader.inverted_index(field)?.terms().num_terms() > 0 {
                    fields.insert(field);
                    break;
                }
            }
        }
        Ok(NonEmptyFields { fields })
    }

    /// Whether `field` holds a term in the shard.
    pub(crate) fn contains(&self, field: Field) -> bool {
        self.fields.contains(&field)
    }
}

/// Per text field: the tokens it holds and the documents that have it.
#[derive(Debug, Default)]
struct FieldLengths {
    fields: FieldLengthSums,
}

impl FieldLengths {
    fn of(searcher: &Searcher) -> Result<FieldLengths> {
        Ok(FieldLengths {
            fields: crate::statistics::field_lengths(searcher)?,
        })
    }
}

/// Mean field lengths over a generation's shards, over the documents that have the
/// field (a language family's field is empty for documents of other languages).
#[derive(Debug, Default)]
pub(crate) struct AverageLengths {
    podcasts: HashMap<Field, f32>,
    episodes: HashMap<Field, f32>,
}

impl AverageLengths {
    /// The means over `shards`, every shard of the generation.
    fn of(shards: &[OpenShard]) -> AverageLengths {
        fn sum(lengths: &mut dyn Iterator<Item = &FieldLengths>) -> FieldLengthSums {
            let mut sums: FieldLengthSums = HashMap::new();
            for shard in lengths {
                for (field, (tokens, documents)) in &shard.fields {
                    let sum = sums.entry(*field).or_default();
                    sum.0 += tokens;
                    sum.1 += documents;
                }
            }
            sums
        }
        AverageLengths::from_sums(
            &sum(&mut shards.iter().map(|s| &s.podcast_lengths)),
            &sum(&mut shards.iter().map(|s| &s.episode_lengths)),
        )
    }

    /// The means of the generation's stored statistics.
    fn stored(statistics: &StoredStatistics) -> AverageLengths {
        AverageLengths::from_sums(
            &statistics.of(IndexKind::Podcasts).length_sums(),
            &statistics.of(IndexKind::Episodes).length_sums(),
        )
    }

    fn from_sums(podcasts: &FieldLengthSums, episodes: &FieldLengthSums) -> AverageLengths {
        fn average(sums: &FieldLengthSums) -> HashMap<Field, f32> {
            sums.iter()
                .map(|(field, (tokens, documents))| {
                    (*field, *tokens as f32 / (*documents).max(1) as f32)
                })
                .collect()
        }
        AverageLengths {
            podcasts: average(podcasts),
            episodes: average(episodes),
        }
    }

    /// The mean length of `field` in `kind`'s index (1 when no document has it).
    pub(crate) fn of_field(&self, kind: IndexKind, field: Field) -> f32 {
        let map = match kind {
            IndexKind::Podcasts => &self.podcasts,
            IndexKind::Episodes => &self.episodes,
        };
        map.get(&field).copied().unwrap_or(1.0).max(1.0)
    }
}

fn open_searcher(dir: &Path) -> Result<Searcher> {
    let index = Index::open_in_dir(dir)?;
    register_analyzers(&index);
    let reader = index
        .reader_builder()
        .reload_policy(ReloadPolicy::Manual)
        .try_into()?;
    Ok(reader.searcher())
}

/// A published generation, open for searching: every shard of it (a single node), or
/// some of them (a search node of a cluster, which scores with the generation's stored
/// statistics, see [`crate::statistics`]).
pub struct OpenGeneration {
    pub manifest: Manifest,
    /// The open shards, in the order of `shard_numbers`.
    pub shards: Vec<OpenShard>,
    /// The generation's number of each open shard (`0..manifest.shards` when all are open).
    pub shard_numbers: Vec<u32>,
    pub schemas: Schemas,
    /// The static model that embeds queries, when the generation has vectors.
    pub model: Option<Arc<StaticModel>>,
    pub(crate) average_lengths: AverageLengths,
    /// Seconds since the epoch of the newest episode of the generation's podcasts: the
    /// "now" of recency priors (a catalog not refreshed for a year still ranks its
    /// freshest shows first).
    pub(crate) newest_episode: i64,
    /// The generation's statistics, read from its files when only some shards are open.
    pub(crate) stored: Option<Arc<StoredStatistics>>,
}

impl std::fmt::Debug for OpenGeneration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenGeneration")
            .field("manifest", &self.manifest)
            .field("shard_numbers", &self.shard_numbers)
            .finish_non_exhaustive()
    }
}

impl OpenGeneration {
    /// Opens every shard of the generation `manifest` names.
    pub fn open(index_dir: &Path, manifest: Manifest) -> Result<OpenGeneration> {
        let all: Vec<u32> = (0..manifest.shards).collect();
        OpenGeneration::open_shards(index_dir, manifest, &all)
    }

    /// Opens the shards `numbers` of the generation `manifest` names. Unless they are
    /// all of its shards, the generation must have stored statistics.
    pub fn open_shards(
        index_dir: &Path,
        manifest: Manifest,
        numbers: &[u32],
    ) -> Result<OpenGeneration> {
        let dir = generation_dir(index_dir, manifest.generation);
        let mut numbers = numbers.to_vec();
        numbers.sort_unstable();
        numbers.dedup();
        if let Some(bad) = numbers.iter().find(|number| **number >= manifest.shards) {
            return Err(IndexError::BadManifest {
                path: dir,
                reason: format!(
                    "shard {bad} asked for, but the generation has {} shards",
                    manifest.shards
                ),
            });
        }
        let with_vectors = manifest.vectors.is_some();
        let with_shows = manifest.encoder.is_some();
        let shards = numbers
            .iter()
            .map(|&shard| {
                let vectors = if with_vectors {
                    let shard_path = shard_dir(&dir, shard);
                    Some(ShardVectors::read(&shard_path)?.ok_or_else(|| {
                        IndexError::BadManifest {
                            path: shard_path.join(VECTORS_FILE),
                            reason: "the manifest lists vectors but the shard has none".into(),
                        }
                    })?)
                } else {
                    None
                };
                let shows = if with_shows {
                    let shard_path = shard_dir(&dir, shard);
                    Some(crate::vectors::shows::read(&shard_path)?.ok_or_else(|| {
                        IndexError::BadManifest {
                            path: crate::vectors::shows::shows_dir(&shard_path),
                            reason: "the manifest lists show vectors but the shard has none".into(),
                        }
                    })?)
                } else {
                    None
                };
                OpenShard::open(&dir, shard, vectors, shows)
            })
            .collect::<Result<Vec<_>>>()?;
        let model = match &manifest.vectors {
            Some(info) => Some(load_index_model(index_dir, &info.model_sha256)?),
            None => None,
        };
        let every_shard = numbers.len() as u32 == manifest.shards;
        let (stored, average_lengths, newest_episode) = if every_shard {
            (None, AverageLengths::of(&shards), newest_episode(&shards)?)
        } else {
            let stored = StoredStatistics::read(&dir)?.ok_or_else(|| IndexError::BadManifest {
                path: dir.join(crate::statistics::STATISTICS_DIR),
                reason: "a generation served in part needs its statistics (written when the generation is published for a cluster)".into(),
            })?;
            let lengths = AverageLengths::stored(&stored);
            let newest = stored.totals.newest_episode;
            (Some(Arc::new(stored)), lengths, newest)
        };
        Ok(OpenGeneration {
            manifest,
            newest_episode,
            average_lengths,
            stored,
            shards,
            shard_numbers: numbers,
            schemas: Schemas::default(),
            model,
        })
    }

    /// The open shard numbered `number` in the generation, if this node holds it.
    pub fn shard(&self, number: u32) -> Option<&OpenShard> {
        let at = self.shard_numbers.binary_search(&number).ok()?;
        self.shards.get(at)
    }

    /// Whether every shard of the generation is open here.
    pub fn has_every_shard(&self) -> bool {
        self.stored.is_none()
    }

    /// BM25 statistics of `kind`'s index over the whole generation.
    pub(crate) fn statistics(&self, kind: IndexKind) -> GlobalStatistics<'_> {
        match &self.stored {
            Some(stored) => GlobalStatistics {
                source: Source::Stored(stored, kind),
                ..GlobalStatistics::new(Vec::new())
            },
            None => GlobalStatistics::new(
                self.shards
                    .iter()
                    .map(|shard| shard.searcher(kind))
                    .collect(),
            ),
        }
    }

    /// Whether some document of `kind`'s index in the generation holds `term`.
    pub(crate) fn holds(&self, kind: IndexKind, term: &Term) -> bool {
        match &self.stored {
            Some(stored) => stored.doc_freq(kind, term) > 0,
            None => self.shards.iter().any(|shard| {
                shard
                    .searcher(kind)
                    .doc_freq(term)
                    .is_ok_and(|count| count > 0)
            }),
        }
    }

    /// Writes the generation's statistics beside its shards (every shard must be open),
    /// so that nodes holding some of its shards can serve it; returns the terms written.
    pub fn write_statistics(&self, index_dir: &Path) -> Result<u64> {
        if !self.has_every_shard() {
            return Err(IndexError::InvalidRequest(
                "statistics are written from every shard of a generation".into(),
            ));
        }
        let podcasts: Vec<&Searcher> = self.shards.iter().map(|s| &s.podcasts).collect();
        let episodes: Vec<&Searcher> = self.shards.iter().map(|s| &s.episodes).collect();
        crate::statistics::write(
            &generation_dir(index_dir, self.manifest.generation),
            &podcasts,
            &episodes,
            self.newest_episode,
        )
    }
}

/// The latest `last_episode_date` of the generation's podcasts (0 when none has one).
fn newest_episode(shards: &[OpenShard]) -> Result<i64> {
    let mut newest = 0;
    for shard in shards {
        for reader in shard.podcasts.segment_readers() {
            let column = reader.fast_fields().i64("last_episode_date")?;
            for doc in 0..reader.max_doc() {
                if let Some(date) = column.first(doc) {
                    newest = newest.max(date);
                }
            }
        }
    }
    Ok(newest)
}

/// Where BM25 statistics come from.
enum Source<'a> {
    /// Summed over the same index of every shard.
    Searchers(Vec<&'a Searcher>),
    /// The generation's stored statistics of one index.
    Stored(&'a StoredStatistics, IndexKind),
}

/// BM25 statistics over the same index of every shard. Each value is summed over the
/// shards once and remembered, as every shard's weights ask for the same terms; make
/// one per query (or other search), since it never forgets.
pub struct GlobalStatistics<'a> {
    source: Source<'a>,
    total_num_docs: OnceLock<u64>,
    total_num_tokens: Mutex<HashMap<Field, u64>>,
    doc_freqs: Mutex<HashMap<Term, u64>>,
}

impl<'a> GlobalStatistics<'a> {
    pub fn new(searchers: Vec<&'a Searcher>) -> GlobalStatistics<'a> {
        GlobalStatistics {
            source: Source::Searchers(searchers),
            total_num_docs: OnceLock::new(),
            total_num_tokens: Mutex::new(HashMap::new()),
            doc_freqs: Mutex::new(HashMap::new()),
        }
    }
}

fn remembered<K: std::hash::Hash + Eq + Clone>(
    memory: &Mutex<HashMap<K, u64>>,
    key: &K,
    compute: impl FnOnce() -> tantivy::Result<u64>,
) -> tantivy::Result<u64> {
    if let Some(value) = memory.lock().unwrap_or_else(|e| e.into_inner()).get(key) {
        return Ok(*value);
    }
    let value = compute()?;
    memory
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key.clone(), value);
    Ok(value)
}

impl Bm25StatisticsProvider for GlobalStatistics<'_> {
    fn total_num_tokens(&self, field: Field) -> tantivy::Result<u64> {
        let searchers = match &self.source {
            Source::Stored(stored, kind) => {
                return Ok(stored
                    .of(*kind)
                    .tokens
                    .get(&field.field_id())
                    .copied()
                    .unwrap_or(0));
            }
            Source::Searchers(searchers) => searchers,
        };
        remembered(&self.total_num_tokens, &field, || {
            let mut total = 0;
            for searcher in searchers {
                total += Bm25StatisticsProvider::total_num_tokens(*searcher, field)?;
            }
            Ok(total)
        })
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        let searchers = match &self.source {
            Source::Stored(stored, kind) => return Ok(stored.of(*kind).documents),
            Source::Searchers(searchers) => searchers,
        };
        if let Some(total) = self.total_num_docs.get() {
            return Ok(*total);
        }
        let mut total = 0;
        for searcher in searchers {
            total += Bm25StatisticsProvider::total_num_docs(*searcher)?;
        }
        Ok(*self.total_num_docs.get_or_init(|| total))
    }

    fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
        let searchers = match &self.source {
            Source::Stored(stored, kind) => return Ok(stored.doc_freq(*kind, term)),
            Source::Searchers(searchers) => searchers,
        };
        remembered(&self.doc_freqs, term, || {
            let mut total = 0;
            for searcher in searchers {
                total += searcher.doc_freq(term)?;
            }
            Ok(total)
        })
    }
}

/// The store a query vector is scored against in `shard`: the show vectors for the
/// encoder's vector (of their dimension), the static vectors otherwise.
pub(crate) fn podcast_store<'s>(
    shard: &'s OpenShard,
    query: &QueryVector,
) -> Option<&'s ShardVectors> {
    match &shard.shows {
        Some(shows) if query.unit().len() == shows.dim() => Some(shows),
        _ => shard
            .vectors
            .as_ref()
            .filter(|vectors| vectors.dim() == query.unit().len()),
    }
}
