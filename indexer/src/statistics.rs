//! A generation's global statistics, written beside its shards so that a node holding
//! only some of them scores exactly as a node holding all of them does.
//!
//! BM25 weighs a word by how many documents of the whole generation hold it, and a
//! field's length against the mean length over the whole generation. A node that opens
//! every shard sums these over its shards ([`crate::shard::GlobalStatistics`]); a search
//! node of a cluster holds a few shards and reads them from this file instead, with no
//! extra round trip per query (Elasticsearch's `dfs_` phase asks the shards at query
//! time; a generation never changes, so its statistics are worked out once).
//!
//! ```text
//! gen-<n>/statistics/terms.fst        (index, field, term) → documents holding it
//! gen-<n>/statistics/totals.json      documents, tokens and field lengths per index,
//!                                     the newest episode
//! ```
//!
//! The term map's keys are one byte for the index (0 podcasts, 1 episodes), the field's
//! id (big-endian `u32`) and the term's value bytes, as tantivy's term dictionaries hold
//! them; its values are the summed `doc_freq` of every segment of every shard, which is
//! what tantivy's own `Searcher::doc_freq` sums over one shard.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tantivy::directory::{Directory, MmapDirectory, OwnedBytes};
use tantivy::schema::Field;
use tantivy::termdict::TermMerger;
use tantivy::{Searcher, Term};
use tantivy_fst::{Map, MapBuilder};

use crate::error::{IndexError, Result};
use crate::schema::IndexKind;

/// The statistics folder of a generation.
pub const STATISTICS_DIR: &str = "statistics";
const TERMS_FILE: &str = "terms.fst";
const TOTALS_FILE: &str = "totals.json";

/// Per text field of one index: the tokens it holds and the documents that have it.
pub(crate) type FieldLengthSums = HashMap<Field, (u64, u64)>;

/// What the statistics say of one index (podcasts or episodes) over every shard.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct IndexTotals {
    /// Documents, deleted ones included (`max_doc`), as BM25 counts them.
    pub documents: u64,
    /// Tokens per indexed field, by field id.
    pub tokens: BTreeMap<u32, u64>,
    /// Per text field id: its tokens and the documents that have it.
    pub lengths: BTreeMap<u32, (u64, u64)>,
}

impl IndexTotals {
    /// The totals of one index over `searchers` (one per shard).
    pub(crate) fn of(searchers: &[&Searcher]) -> Result<IndexTotals> {
        let mut totals = IndexTotals::default();
        for searcher in searchers {
            totals.documents += tantivy::query::Bm25StatisticsProvider::total_num_docs(*searcher)?;
            for (field, entry) in searcher.schema().fields() {
                if !entry.is_indexed() {
                    continue;
                }
                let tokens =
                    tantivy::query::Bm25StatisticsProvider::total_num_tokens(*searcher, field)?;
                *totals.tokens.entry(field.field_id()).or_default() += tokens;
            }
            for (field, (tokens, documents)) in field_lengths(searcher)? {
                let sum = totals.lengths.entry(field.field_id()).or_default();
                sum.0 += tokens;
                sum.1 += documents;
            }
        }
        Ok(totals)
    }

    /// The field length sums by field.
    pub(crate) fn length_sums(&self) -> FieldLengthSums {
        self.lengths
            .iter()
            .map(|(field, sums)| (Field::from_field_id(*field), *sums))
            .collect()
    }
}

/// Per text field of one shard's index: the tokens it holds and the documents that
/// have it (fields no document has are left out).
pub(crate) fn field_lengths(searcher: &Searcher) -> Result<FieldLengthSums> {
    let mut fields = HashMap::new();
    for (field, entry) in searcher.schema().fields() {
        if !entry.is_indexed() || !matches!(entry.field_type(), tantivy::schema::FieldType::Str(_))
        {
            continue;
        }
        let (mut tokens, mut documents) = (0u64, 0u64);
        for reader in searcher.segment_readers() {
            tokens += reader.inverted_index(field)?.total_num_tokens();
            let Some(norms) = reader.fieldnorms_readers().get_field(field)? else {
                continue;
            };
            documents += (0..reader.max_doc())
                .filter(|doc| norms.fieldnorm_id(*doc) != 0)
                .count() as u64;
        }
        if documents > 0 {
            fields.insert(field, (tokens, documents));
        }
    }
    Ok(fields)
}

/// The small part of the statistics.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Totals {
    pub podcasts: IndexTotals,
    pub episodes: IndexTotals,
    /// Seconds since the epoch of the newest episode of the generation's podcasts.
    pub newest_episode: i64,
}

/// A generation's statistics, read from its files (the term map memory-mapped).
pub struct StoredStatistics {
    pub(crate) totals: Totals,
    terms: Map<OwnedBytes>,
}

impl std::fmt::Debug for StoredStatistics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredStatistics")
            .field("totals", &self.totals)
            .field("terms", &self.terms.len())
            .finish()
    }
}

fn kind_byte(kind: IndexKind) -> u8 {
    match kind {
        IndexKind::Podcasts => 0,
        IndexKind::Episodes => 1,
    }
}

fn key(kind: IndexKind, field: Field, value: &[u8]) -> Vec<u8> {
    let mut key = Vec::with_capacity(5 + value.len());
    key.push(kind_byte(kind));
    key.extend_from_slice(&field.field_id().to_be_bytes());
    key.extend_from_slice(value);
    key
}

impl StoredStatistics {
    /// The documents of `kind`'s index (over every shard) that hold `term`.
    pub(crate) fn doc_freq(&self, kind: IndexKind, term: &Term) -> u64 {
        self.terms
            .get(key(kind, term.field(), term.serialized_value_bytes()))
            .unwrap_or(0)
    }

    /// The totals of `kind`'s index.
    pub(crate) fn of(&self, kind: IndexKind) -> &IndexTotals {
        match kind {
            IndexKind::Podcasts => &self.totals.podcasts,
            IndexKind::Episodes => &self.totals.episodes,
        }
    }

    /// Reads the statistics of the generation in `generation_dir`; `None` when it has
    /// none (a generation published without them).
    pub fn read(generation_dir: &Path) -> Result<Option<StoredStatistics>> {
        let dir = generation_dir.join(STATISTICS_DIR);
        let totals_path = dir.join(TOTALS_FILE);
        let bytes = match fs::read(&totals_path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(IndexError::io(totals_path, error)),
        };
        let bad = |path: &Path, reason: String| IndexError::BadManifest {
            path: path.to_owned(),
            reason,
        };
        let totals: Totals =
            serde_json::from_slice(&bytes).map_err(|error| bad(&totals_path, error.to_string()))?;
        let terms_path = dir.join(TERMS_FILE);
        let file = MmapDirectory::open(&dir)
            .map_err(tantivy::TantivyError::from)?
            .open_read(Path::new(TERMS_FILE))
            .map_err(tantivy::TantivyError::from)?
            .read_bytes()
            .map_err(|error| IndexError::io(&terms_path, error))?;
        let terms = Map::from(
            tantivy_fst::raw::Fst::new(file)
                .map_err(|error| bad(&terms_path, format!("not a term map: {error}")))?,
        );
        Ok(Some(StoredStatistics { totals, terms }))
    }
}

/// Writes the statistics of the generation whose shards `podcasts` and `episodes` are
/// (one searcher per shard, every shard) into `generation_dir`, and returns the number
/// of terms written.
pub(crate) fn write(
    generation_dir: &Path,
    podcasts: &[&Searcher],
    episodes: &[&Searcher],
    newest_episode: i64,
) -> Result<u64> {
    let dir = generation_dir.join(STATISTICS_DIR);
    fs::create_dir_all(&dir).map_err(|error| IndexError::io(&dir, error))?;
    let terms_path = dir.join(TERMS_FILE);
    let file = fs::File::create(&terms_path).map_err(|error| IndexError::io(&terms_path, error))?;
    let io = |error: std::io::Error| IndexError::io(&terms_path, error);
    let fst = |error: tantivy_fst::Error| IndexError::io(&terms_path, std::io::Error::other(error));
    let mut builder = MapBuilder::new(std::io::BufWriter::new(file)).map_err(fst)?;
    let mut count = 0u64;
    // Keys in order: the podcasts' index, then the episodes'; fields by id; terms in
    // their dictionaries' order.
    for (kind, searchers) in [
        (IndexKind::Podcasts, podcasts),
        (IndexKind::Episodes, episodes),
    ] {
        let Some(first) = searchers.first() else {
            continue;
        };
        let mut fields: Vec<Field> = first
            .schema()
            .fields()
            .filter(|(_, entry)| entry.is_indexed())
            .map(|(field, _)| field)
            .collect();
        fields.sort_by_key(|field| field.field_id());
        for field in fields {
            let inverted: Vec<_> = searchers
                .iter()
                .flat_map(|searcher| searcher.segment_readers())
                .map(|reader| reader.inverted_index(field))
                .collect::<tantivy::Result<_>>()?;
            let streams = inverted
                .iter()
                .map(|index| index.terms().stream())
                .collect::<std::io::Result<Vec<_>>>()
                .map_err(io)?;
            let mut merger = TermMerger::new(streams);
            while merger.advance() {
                let documents: u64 = merger
                    .current_segment_ords_and_term_infos()
                    .map(|(_, info)| u64::from(info.doc_freq))
                    .sum();
                builder
                    .insert(key(kind, field, merger.key()), documents)
                    .map_err(fst)?;
                count += 1;
            }
        }
    }
    let mut out = builder.into_inner().map_err(fst)?;
    out.flush().map_err(io)?;
    out.get_ref().sync_all().map_err(io)?;
    let totals = Totals {
        podcasts: IndexTotals::of(podcasts)?,
        episodes: IndexTotals::of(episodes)?,
        newest_episode,
    };
    let totals_path: PathBuf = dir.join(TOTALS_FILE);
    let json = serde_json::to_vec_pretty(&totals)
        .map_err(|error| IndexError::io(&totals_path, std::io::Error::other(error.to_string())))?;
    fs::write(&totals_path, json).map_err(|error| IndexError::io(&totals_path, error))?;
    Ok(count)
}
