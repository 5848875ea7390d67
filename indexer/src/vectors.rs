//! Per-shard vector stores: the 768-d static-model embeddings of every podcast text,
//! episode description and transcript chunk of a shard, quantised to int8, plus one
//! centroid per podcast, in one file beside the shard's tantivy indexes.
//!
//! ```text
//! <index>/gen-<n>/shard-<i>/vectors.bin    this shard's vectors (written before publishing)
//! <index>/gen-<n>/shard-<i>/codes.bin      their sign codes (see `codes`), written with them
//! <index>/models/<table sha256>/           the static model the vectors were made with
//! ```
//!
//! The file lives inside the generation, so publishing by manifest covers it like the
//! segments: a crash before the manifest's rename leaves the previous generation (and its
//! vectors) serving. The model folder is copied into the index directory so that a data
//! directory embeds queries with exactly the table its vectors came from.
//!
//! A generation's vectors are memory-mapped, not read into memory: a search reads the few
//! thousand rows it scores exactly, and the rest stays on disk or in the page cache. The
//! rows' keys, scales and sign codes are read into memory when the shard opens.
//!
//! Rows of one episode (its description, then its chunks in order) are contiguous, so
//! per-episode maxima are one linear pass. Search ([`ShardVectors::nearest`]) scans the
//! rows' sign codes (one bit per dimension, 96 bytes a row) by Hamming distance, keeps the
//! nearest [`VectorSearchOptions::rescore`] rows and scores those exactly with int8 dot
//! products (the query is quantised too); a set of rows no larger than that is scored
//! exactly in full. benches/vectors/RESULTS.md measures both against f32 brute force.

use std::collections::HashMap;
use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use tantivy::directory::{Directory, MmapDirectory, OwnedBytes};
use uuid::Uuid;

use crate::embedding::{EmbeddingError, StaticModel, l2_normalize, quantize_i8};
use crate::error::{IndexError, Result};

mod codes;
pub mod shows;

pub use codes::{CODES_FILE, SignCodes};

/// File of a shard's vectors inside its shard directory.
pub const VECTORS_FILE: &str = "vectors.bin";
/// Folder (inside the index directory) of the static models vectors were made with.
pub const MODELS_DIR: &str = "models";
const MAGIC: &[u8; 8] = b"PLVEC001";
const HEADER_BYTES: usize = 8 + 4 + 8;
const KEY_BYTES: usize = 1 + 16 * 3 + 4 + 4 + 4;
/// Bytes before a row's values in `vectors.bin`: its key and scale.
const ROW_PREFIX_BYTES: usize = KEY_BYTES + 4;

/// What a stored vector embeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VectorKind {
    /// A podcast's title and description.
    Podcast,
    /// An episode's title and description.
    Description,
    /// One timed transcript chunk.
    Chunk,
    /// A podcast's centroid: its own text and the mean of its episode descriptions.
    Centroid,
}

impl VectorKind {
    fn code(self) -> u8 {
        match self {
            VectorKind::Podcast => 0,
            VectorKind::Description => 1,
            VectorKind::Chunk => 2,
            VectorKind::Centroid => 3,
        }
    }

    fn from_code(code: u8) -> Option<VectorKind> {
        Some(match code {
            0 => VectorKind::Podcast,
            1 => VectorKind::Description,
            2 => VectorKind::Chunk,
            3 => VectorKind::Centroid,
            _ => return None,
        })
    }
}

/// Whose vector a row is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VectorKey {
    pub kind: VectorKind,
    pub podcast_id: Uuid,
    /// Nil for podcast rows.
    pub episode_id: Uuid,
    /// Nil except for chunks.
    pub transcript_id: Uuid,
    /// The chunk's ordinal (`<transcriptId>:<ordinal>`), 0 otherwise.
    pub ordinal: u32,
    /// The chunk's place in the audio, NaN when unknown.
    pub start_second: f32,
    pub end_second: f32,
}

impl VectorKey {
    fn podcast(kind: VectorKind, podcast_id: Uuid) -> VectorKey {
        VectorKey {
            kind,
            podcast_id,
            episode_id: Uuid::nil(),
            transcript_id: Uuid::nil(),
            ordinal: 0,
            start_second: f32::NAN,
            end_second: f32::NAN,
        }
    }

    /// The chunk id `<transcriptId>:<ordinal>` of a chunk row.
    pub fn chunk_id(&self) -> Option<String> {
        (self.kind == VectorKind::Chunk).then(|| format!("{}:{}", self.transcript_id, self.ordinal))
    }

    fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        out.write_all(&[self.kind.code()])?;
        out.write_all(self.podcast_id.as_bytes())?;
        out.write_all(self.episode_id.as_bytes())?;
        out.write_all(self.transcript_id.as_bytes())?;
        out.write_all(&self.ordinal.to_le_bytes())?;
        out.write_all(&self.start_second.to_le_bytes())?;
        out.write_all(&self.end_second.to_le_bytes())
    }

    fn read(bytes: &[u8]) -> Option<VectorKey> {
        let uuid = |at: usize| Uuid::from_slice(&bytes[at..at + 16]).ok();
        let word = |at: usize| [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]];
        Some(VectorKey {
            kind: VectorKind::from_code(bytes[0])?,
            podcast_id: uuid(1)?,
            episode_id: uuid(17)?,
            transcript_id: uuid(33)?,
            ordinal: u32::from_le_bytes(word(49)),
            start_second: f32::from_le_bytes(word(53)),
            end_second: f32::from_le_bytes(word(57)),
        })
    }
}

/// The static model used to embed at index time, with the folder it was loaded from.
#[derive(Clone)]
pub struct VectorModel {
    pub model: Arc<StaticModel>,
    /// The sha256 of the table, which names the model inside the index directory.
    pub table_sha256: String,
    dir: PathBuf,
}

impl std::fmt::Debug for VectorModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VectorModel")
            .field("dir", &self.dir)
            .field("table_sha256", &self.table_sha256)
            .finish()
    }
}

impl VectorModel {
    /// Loads a static model folder (`podlens model build`), checking its sha256.
    pub fn load(dir: &Path) -> std::result::Result<VectorModel, EmbeddingError> {
        let model = StaticModel::load(dir)?;
        let table_sha256 = model
            .manifest()
            .map(|manifest| manifest.table_sha256.clone())
            .ok_or_else(|| EmbeddingError::MissingFile(dir.join("manifest.json")))?;
        Ok(VectorModel {
            model: Arc::new(model),
            table_sha256,
            dir: dir.to_owned(),
        })
    }

    /// Copies the model folder into `<index_dir>/models/<sha>` unless it is there.
    pub(crate) fn install_into(&self, index_dir: &Path) -> Result<()> {
        let target = model_dir(index_dir, &self.table_sha256);
        if StaticModel::load(&target).is_ok() {
            return Ok(());
        }
        let staging = index_dir
            .join(MODELS_DIR)
            .join(format!(".{}.tmp", self.table_sha256));
        let _ = fs::remove_dir_all(&staging);
        fs::create_dir_all(&staging).map_err(|e| IndexError::io(&staging, e))?;
        for name in [
            crate::embedding::TABLE_FILE,
            crate::embedding::VOCAB_FILE,
            crate::embedding::MANIFEST_FILE,
        ] {
            let from = self.dir.join(name);
            let to = staging.join(name);
            if fs::hard_link(&from, &to).is_err() {
                fs::copy(&from, &to).map_err(|e| IndexError::io(&to, e))?;
            }
        }
        let _ = fs::remove_dir_all(&target);
        fs::rename(&staging, &target).map_err(|e| IndexError::io(&target, e))
    }
}

/// The folder of the model with table hash `sha` inside an index directory.
pub fn model_dir(index_dir: &Path, sha: &str) -> PathBuf {
    index_dir.join(MODELS_DIR).join(sha)
}

/// Loads (once per process) the model an index's vectors were made with.
pub fn load_index_model(index_dir: &Path, sha: &str) -> Result<Arc<StaticModel>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<StaticModel>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(model) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(sha) {
        return Ok(model.clone());
    }
    let dir = model_dir(index_dir, sha);
    let model = StaticModel::load(&dir).map_err(|error| IndexError::BadManifest {
        path: dir.clone(),
        reason: format!("the index's embedding model cannot be loaded: {error}"),
    })?;
    let model = Arc::new(model);
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(sha.to_owned(), model.clone());
    Ok(model)
}

/// The int8 values of a shard's rows: in memory while a store is built or changed, or
/// mapped from a written `vectors.bin`, where each row's values follow its key and scale.
#[derive(Clone)]
enum RowValues {
    /// Row-major, each byte an `i8`.
    Built(Vec<u8>),
    Mapped {
        file: OwnedBytes,
        /// Offset of row 0's values, and the distance between two rows'.
        start: usize,
        stride: usize,
    },
}

impl Default for RowValues {
    fn default() -> RowValues {
        RowValues::Built(Vec::new())
    }
}

impl RowValues {
    /// The values of row `row` of `dim` dimensions (each byte an `i8`).
    fn row(&self, row: usize, dim: usize) -> &[u8] {
        match self {
            RowValues::Built(values) => &values[row * dim..(row + 1) * dim],
            RowValues::Mapped {
                file,
                start,
                stride,
            } => &file.as_slice()[start + row * stride..][..dim],
        }
    }

    /// The values of `rows` rows, read into memory first when they are mapped (before
    /// rows change).
    fn built(&mut self, rows: usize, dim: usize) -> &mut Vec<u8> {
        if let RowValues::Mapped { .. } = self {
            let values = (0..rows)
                .flat_map(|row| self.row(row, dim).iter().copied())
                .collect();
            *self = RowValues::Built(values);
        }
        match self {
            RowValues::Built(values) => values,
            RowValues::Mapped { .. } => unreachable!("mapped values were just read"),
        }
    }
}

impl std::fmt::Debug for RowValues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RowValues::Built(values) => write!(f, "Built({} values)", values.len()),
            RowValues::Mapped { file, .. } => write!(f, "Mapped({} bytes)", file.len()),
        }
    }
}

/// The vectors of one shard.
#[derive(Debug, Clone, Default)]
pub struct ShardVectors {
    dim: usize,
    keys: Vec<VectorKey>,
    scales: Vec<f32>,
    values: RowValues,
    /// Row ranges of each episode, and the centroid row of each podcast.
    episodes: HashMap<Uuid, (usize, usize)>,
    centroids: HashMap<Uuid, usize>,
    /// The centroid rows, ascending.
    centroid_rows: Vec<usize>,
    /// The rows' sign codes; `None` while rows are added or removed (until
    /// [`ShardVectors::build_codes`], which writing does).
    codes: Option<SignCodes>,
}

/// How many rows per shard the sign-code scan keeps for exact int8 scoring: the
/// measured trade of recall for time (benches/vectors/RESULTS.md). Over 1M real-derived
/// chunks in two shards, recall@10 against f32 brute force was 0.963 at 500 rows
/// (p50 13.1 ms), 0.974 at 1000 (13.8 ms) and 0.984 at 2500 (16.8 ms, p99 23.1 ms);
/// int8 brute force: 0.992 at 91.5 ms. The Hamming scan of 500k codes per shard is
/// most of the time up to 1000 rows; beyond, the random reads of the kept int8 rows
/// add up (22.0 ms at 5000, 25.0 ms at 10000). 2500 keeps a margin over 0.95 under 30 ms.
pub const DEFAULT_RESCORE: usize = 2500;

/// Options of a vector search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VectorSearchOptions {
    /// Rows per shard kept by the Hamming scan over sign codes and scored exactly with
    /// int8 (at least the number of hits asked for). A shard with no more candidate
    /// rows than this is scored exactly in full.
    pub rescore: usize,
}

impl Default for VectorSearchOptions {
    fn default() -> VectorSearchOptions {
        VectorSearchOptions {
            rescore: DEFAULT_RESCORE,
        }
    }
}

/// Which rows of a shard a search looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowSet {
    /// Every row (the caller's filter picks kinds).
    All,
    /// Only the podcast centroids.
    Centroids,
}

/// Rows found by [`ShardVectors::nearest`], with their int8 cosine.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Candidates {
    /// (score, row), best first; ties by row.
    pub rows: Vec<(f32, usize)>,
    /// Whether every accepted row of the set is among them (nothing more to find).
    pub complete: bool,
}

/// The text a podcast row embeds.
pub(crate) fn podcast_text(title: &str, description: Option<&str>) -> String {
    match description {
        Some(description) if !description.trim().is_empty() => format!("{title}. {description}"),
        _ => title.to_owned(),
    }
}

impl ShardVectors {
    pub fn new(dim: usize) -> ShardVectors {
        ShardVectors {
            dim,
            ..ShardVectors::default()
        }
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    pub fn dim(&self) -> usize {
        self.dim
    }

    pub fn keys(&self) -> &[VectorKey] {
        &self.keys
    }

    /// The int8 values (as stored: each byte is an `i8`) and scale of row `row`.
    pub fn row(&self, row: usize) -> (&[u8], f32) {
        (self.values.row(row, self.dim), self.scales[row])
    }

    /// The approximate unit vector of row `row`.
    pub fn dequantized(&self, row: usize) -> Vec<f32> {
        let (values, scale) = self.row(row);
        values.iter().map(|v| f32::from(*v as i8) * scale).collect()
    }

    /// Appends a row (the vector is quantised; a zero vector is kept as zero).
    pub fn push(&mut self, key: VectorKey, vector: &[f32]) {
        debug_assert_eq!(vector.len(), self.dim);
        let (values, scale) = quantize_i8(vector);
        self.values
            .built(self.keys.len(), self.dim)
            .extend(values.iter().map(|v| *v as u8));
        self.keys.push(key);
        self.scales.push(scale);
        self.codes = None;
    }

    /// Keeps the rows `keep` accepts, in order.
    pub(crate) fn retain(&mut self, keep: impl Fn(&VectorKey) -> bool) {
        let dim = self.dim;
        let before = self.keys.len();
        let values = self.values.built(before, dim);
        let mut write = 0;
        for read in 0..self.keys.len() {
            if !keep(&self.keys[read]) {
                continue;
            }
            if read != write {
                self.keys[write] = self.keys[read];
                self.scales[write] = self.scales[read];
                values.copy_within(read * dim..(read + 1) * dim, write * dim);
            }
            write += 1;
        }
        self.keys.truncate(write);
        self.scales.truncate(write);
        values.truncate(write * dim);
        if write != before {
            self.codes = None;
        }
    }

    /// Appends an episode's description and chunk rows (contiguous).
    pub(crate) fn push_episode(
        &mut self,
        model: &StaticModel,
        podcast_id: Uuid,
        episode_id: Uuid,
        description: &str,
        transcript: Option<(Uuid, &[crate::chunking::TranscriptChunk])>,
    ) {
        let mut key = VectorKey::podcast(VectorKind::Description, podcast_id);
        key.episode_id = episode_id;
        self.push(key, &model.embed(description));
        if let Some((transcript_id, chunks)) = transcript {
            for chunk in chunks {
                let chunk_key = VectorKey {
                    kind: VectorKind::Chunk,
                    transcript_id,
                    ordinal: u32::try_from(chunk.ordinal).unwrap_or(u32::MAX),
                    start_second: chunk.start_second.map_or(f32::NAN, |s| s as f32),
                    end_second: chunk.end_second.map_or(f32::NAN, |s| s as f32),
                    ..key
                };
                self.push(chunk_key, &model.embed(&chunk.text));
            }
        }
    }

    /// Appends a podcast's text row.
    pub(crate) fn push_podcast(&mut self, model: &StaticModel, podcast_id: Uuid, text: &str) {
        self.push(
            VectorKey::podcast(VectorKind::Podcast, podcast_id),
            &model.embed(text),
        );
    }

    /// Replaces every centroid: per podcast, the normalised sum of its own text vector
    /// and the mean of its episode-description vectors (each half of the weight).
    pub(crate) fn rebuild_centroids(&mut self) {
        self.retain(|key| key.kind != VectorKind::Centroid);
        let dim = self.dim;
        let mut own: HashMap<Uuid, Vec<f32>> = HashMap::new();
        let mut episodes: HashMap<Uuid, (Vec<f32>, usize)> = HashMap::new();
        let mut order: Vec<Uuid> = Vec::new();
        for row in 0..self.keys.len() {
            let key = self.keys[row];
            let target = match key.kind {
                VectorKind::Podcast => {
                    if !own.contains_key(&key.podcast_id) && !episodes.contains_key(&key.podcast_id)
                    {
                        order.push(key.podcast_id);
                    }
                    own.entry(key.podcast_id).or_insert_with(|| vec![0.0; dim])
                }
                VectorKind::Description => {
                    if !own.contains_key(&key.podcast_id) && !episodes.contains_key(&key.podcast_id)
                    {
                        order.push(key.podcast_id);
                    }
                    let entry = episodes
                        .entry(key.podcast_id)
                        .or_insert_with(|| (vec![0.0; dim], 0));
                    entry.1 += 1;
                    &mut entry.0
                }
                _ => continue,
            };
            let (values, scale) = self.row(row);
            for (t, v) in target.iter_mut().zip(values) {
                *t += f32::from(*v as i8) * scale;
            }
        }
        for podcast_id in order {
            let mut centroid = vec![0.0_f32; dim];
            if let Some(vector) = own.get(&podcast_id) {
                centroid.iter_mut().zip(vector).for_each(|(c, v)| *c += v);
            }
            if let Some((sum, count)) = episodes.get(&podcast_id) {
                let mut mean: Vec<f32> = sum.iter().map(|v| v / *count as f32).collect();
                l2_normalize(&mut mean);
                centroid.iter_mut().zip(&mean).for_each(|(c, v)| *c += v);
            }
            l2_normalize(&mut centroid);
            self.push(
                VectorKey::podcast(VectorKind::Centroid, podcast_id),
                &centroid,
            );
        }
        self.reindex();
    }

    /// Computes the sign codes of every row around the mean of the podcast, description
    /// and chunk rows (see `codes`). Writing the store does it when rows changed.
    pub fn build_codes(&mut self) {
        self.codes = Some(SignCodes::build(
            self.dim,
            &self.scales,
            |row| self.row(row).0,
            |row| self.keys[row].kind != VectorKind::Centroid,
        ));
    }

    /// The rows' sign codes, when built.
    pub fn codes(&self) -> Option<&SignCodes> {
        self.codes.as_ref()
    }

    /// The rows of `rows` that `accept` admits nearest to `query`: when the set has more
    /// rows than `rescore` (at least 1) and the codes are built, the `rescore` accepted
    /// rows of smallest Hamming distance (all rows at the cut-off distance included),
    /// otherwise every accepted row; each scored exactly with the int8 dot product.
    pub fn nearest(
        &self,
        query: &QueryVector,
        rows: RowSet,
        rescore: usize,
        accept: impl Fn(&VectorKey) -> bool,
    ) -> Candidates {
        let rescore = rescore.max(1);
        let set_len = match rows {
            RowSet::All => self.len(),
            RowSet::Centroids => self.centroid_rows.len(),
        };
        let row_at = |position: usize| match rows {
            RowSet::All => position,
            RowSet::Centroids => self.centroid_rows[position],
        };
        let (positions, complete) = match &self.codes {
            Some(codes) if set_len > rescore => {
                let code = codes.encode(&query.vector);
                let distances = match rows {
                    RowSet::All => codes.distances(&code),
                    RowSet::Centroids => codes.distances_of(&self.centroid_rows, &code),
                };
                codes::nearest_positions(&distances, rescore, |position| {
                    accept(&self.keys[row_at(position)])
                })
            }
            _ => (
                (0..set_len)
                    .filter(|position| accept(&self.keys[row_at(*position)]))
                    .collect(),
                true,
            ),
        };
        let mut scored: Vec<(f32, usize)> = positions
            .into_iter()
            .map(|position| {
                let row = row_at(position);
                (query.score(self, row), row)
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        Candidates {
            rows: scored,
            complete,
        }
    }

    fn reindex(&mut self) {
        self.episodes.clear();
        self.centroids.clear();
        self.centroid_rows.clear();
        for (row, key) in self.keys.iter().enumerate() {
            match key.kind {
                VectorKind::Description | VectorKind::Chunk => {
                    let range = self
                        .episodes
                        .entry(key.episode_id)
                        .or_insert((row, row + 1));
                    range.1 = row + 1;
                }
                VectorKind::Centroid => {
                    self.centroids.insert(key.podcast_id, row);
                    self.centroid_rows.push(row);
                }
                VectorKind::Podcast => {}
            }
        }
    }

    /// The rows of an episode (description, then chunks).
    pub fn episode_rows(&self, episode_id: Uuid) -> Option<std::ops::Range<usize>> {
        self.episodes.get(&episode_id).map(|(a, b)| *a..*b)
    }

    /// The centroid row of a podcast.
    pub fn centroid_row(&self, podcast_id: Uuid) -> Option<usize> {
        self.centroids.get(&podcast_id).copied()
    }

    /// Writes the store (synced) to `dir/vectors.bin` and its sign codes (built first
    /// when rows changed) to `dir/codes.bin`.
    pub(crate) fn write(&mut self, dir: &Path) -> Result<()> {
        if self.codes.is_none() {
            self.build_codes();
        }
        if let Some(codes) = &self.codes {
            codes.write(dir)?;
        }
        let path = dir.join(VECTORS_FILE);
        // a new file, never the old one truncated: a reader may have the old one mapped
        match fs::remove_file(&path) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
                return Err(IndexError::io(&path, error));
            }
            _ => {}
        }
        let file = fs::File::create(&path).map_err(|e| IndexError::io(&path, e))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        let write = |out: &mut BufWriter<fs::File>| -> std::io::Result<()> {
            out.write_all(MAGIC)?;
            out.write_all(&(self.dim as u32).to_le_bytes())?;
            out.write_all(&(self.keys.len() as u64).to_le_bytes())?;
            for (row, key) in self.keys.iter().enumerate() {
                key.write(out)?;
                out.write_all(&self.scales[row].to_le_bytes())?;
                out.write_all(self.row(row).0)?;
            }
            out.flush()?;
            out.get_ref().sync_all()
        };
        write(&mut out).map_err(|e| IndexError::io(&path, e))
    }

    /// Maps `dir/vectors.bin` and reads its keys and scales, and `dir/codes.bin` (codes
    /// are computed when a generation written before them has none); `None` when the
    /// shard has no vectors.
    pub fn read(dir: &Path) -> Result<Option<ShardVectors>> {
        let path = dir.join(VECTORS_FILE);
        if !path.exists() {
            return Ok(None);
        }
        let file = MmapDirectory::open(dir)
            .map_err(tantivy::TantivyError::from)?
            .open_read(Path::new(VECTORS_FILE))
            .map_err(tantivy::TantivyError::from)?
            .read_bytes()
            .map_err(|e| IndexError::io(&path, e))?;
        let bad = |reason: &str| IndexError::BadManifest {
            path: path.clone(),
            reason: reason.to_owned(),
        };
        let bytes = file.as_slice();
        if bytes.len() < HEADER_BYTES {
            return Err(bad("truncated vector file header"));
        }
        if &bytes[..8] != MAGIC {
            return Err(bad("not a vector file"));
        }
        let dim = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
        let mut count_bytes = [0_u8; 8];
        count_bytes.copy_from_slice(&bytes[12..20]);
        let count = u64::from_le_bytes(count_bytes) as usize;
        if dim == 0 || dim > 4096 {
            return Err(bad("vector dimension out of range"));
        }
        let stride = ROW_PREFIX_BYTES + dim;
        if count
            .checked_mul(stride)
            .and_then(|rows| rows.checked_add(HEADER_BYTES))
            != Some(bytes.len())
        {
            return Err(bad("truncated vector file"));
        }
        let mut keys = Vec::with_capacity(count);
        let mut scales = Vec::with_capacity(count);
        for row in bytes[HEADER_BYTES..].chunks_exact(stride) {
            keys.push(
                VectorKey::read(&row[..KEY_BYTES]).ok_or_else(|| bad("unknown vector kind"))?,
            );
            let scale = &row[KEY_BYTES..ROW_PREFIX_BYTES];
            scales.push(f32::from_le_bytes([scale[0], scale[1], scale[2], scale[3]]));
        }
        let mut store = ShardVectors {
            dim,
            keys,
            scales,
            values: RowValues::Mapped {
                file,
                start: HEADER_BYTES + ROW_PREFIX_BYTES,
                stride,
            },
            ..ShardVectors::default()
        };
        store.reindex();
        match SignCodes::read(dir, dim, count)? {
            Some(codes) => store.codes = Some(codes),
            None => store.build_codes(),
        }
        Ok(Some(store))
    }
}

/// A query prepared for int8 comparison: quantised, with its scale.
#[derive(Debug, Clone)]
pub struct QueryVector {
    values: Vec<i8>,
    scale: f32,
    /// The unit vector itself, which each shard turns into a sign code.
    vector: Vec<f32>,
}

impl QueryVector {
    /// Quantises a unit query vector.
    pub fn new(vector: &[f32]) -> QueryVector {
        let (values, scale) = quantize_i8(vector);
        QueryVector {
            values,
            scale,
            vector: vector.to_vec(),
        }
    }

    /// The approximate cosine with row `row` of `store` (both sides are unit vectors).
    pub fn score(&self, store: &ShardVectors, row: usize) -> f32 {
        let (values, scale) = store.row(row);
        dot_i8_wide(&self.values, values) as f32 * self.scale * scale
    }

    /// The unit vector the query was made from.
    pub fn unit(&self) -> &[f32] {
        &self.vector
    }

    /// The query's own approximate vector.
    pub fn is_zero(&self) -> bool {
        self.scale == 0.0
    }
}

/// Integer dot product of int8 values (`b` as stored: each byte an `i8`) in blocks the
/// compiler vectorises (i16 products summed into i32).
pub fn dot_i8_wide(a: &[i8], b: &[u8]) -> i32 {
    let mut total = 0_i32;
    let blocks_a = a.chunks_exact(32);
    let blocks_b = b.chunks_exact(32);
    let tail: i32 = blocks_a
        .remainder()
        .iter()
        .zip(blocks_b.remainder())
        .map(|(x, y)| i32::from(*x) * i32::from(*y as i8))
        .sum();
    for (x, y) in blocks_a.zip(blocks_b) {
        let mut block = [0_i32; 32];
        for (slot, (x, y)) in block.iter_mut().zip(x.iter().zip(y)) {
            *slot = i32::from(*x) * i32::from(*y as i8);
        }
        total += block.iter().sum::<i32>();
    }
    total + tail
}

/// The `k` best (score, item) pairs, best first; ties by item ascending.
pub fn top_k<T: Ord + Copy>(items: impl Iterator<Item = (f32, T)>, k: usize) -> Vec<(f32, T)> {
    use std::cmp::{Ordering, Reverse};
    use std::collections::BinaryHeap;
    #[derive(PartialEq)]
    struct Entry<T>(f32, Reverse<T>);
    impl<T: Ord> Eq for Entry<T> {}
    impl<T: Ord> PartialOrd for Entry<T> {
        fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
            Some(self.cmp(other))
        }
    }
    impl<T: Ord> Ord for Entry<T> {
        fn cmp(&self, other: &Self) -> Ordering {
            self.0
                .total_cmp(&other.0)
                .then_with(|| self.1.cmp(&other.1))
        }
    }
    if k == 0 {
        return Vec::new();
    }
    // a min-heap of the best k: the worst kept entry on top
    let mut heap: BinaryHeap<Reverse<Entry<T>>> = BinaryHeap::with_capacity(k + 1);
    for (score, item) in items {
        let entry = Entry(score, Reverse(item));
        if heap.len() < k {
            heap.push(Reverse(entry));
        } else if let Some(Reverse(worst)) = heap.peek()
            && entry > *worst
        {
            heap.pop();
            heap.push(Reverse(entry));
        }
    }
    let mut best: Vec<(f32, T)> = heap
        .into_iter()
        .map(|Reverse(Entry(score, Reverse(item)))| (score, item))
        .collect();
    best.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(seed: u32, dim: usize) -> Vec<f32> {
        let mut v: Vec<f32> = (0..dim)
            .map(|i| {
                let mixed = (i as u32).wrapping_mul(2_654_435_761) ^ seed.wrapping_mul(40_503);
                (mixed % 1000) as f32 - 500.0
            })
            .collect();
        l2_normalize(&mut v);
        v
    }

    #[test]
    fn wide_dot_equals_the_plain_sum() {
        let a: Vec<i8> = (0..77).map(|i| (i * 37 % 255 - 127) as i8).collect();
        let b: Vec<i8> = (0..77).map(|i| (i * 11 % 255 - 127) as i8).collect();
        let plain: i32 = a
            .iter()
            .zip(&b)
            .map(|(x, y)| i32::from(*x) * i32::from(*y))
            .sum();
        let stored: Vec<u8> = b.iter().map(|v| *v as u8).collect();
        assert_eq!(dot_i8_wide(&a, &stored), plain);
    }

    #[test]
    fn top_k_keeps_the_best_in_order() {
        let items = [(0.5, 3), (0.9, 1), (0.1, 0), (0.9, 0), (0.7, 2)];
        assert_eq!(
            top_k(items.into_iter(), 3),
            vec![(0.9, 0), (0.9, 1), (0.7, 2)]
        );
        assert!(top_k(items.into_iter(), 0).is_empty());
    }

    fn chunk_key(n: u128) -> VectorKey {
        let mut key = VectorKey::podcast(VectorKind::Chunk, Uuid::from_u128(1));
        key.episode_id = Uuid::from_u128(n);
        key
    }

    /// Every row's exact int8 score, best first (the expectation of `nearest`).
    fn exact(store: &ShardVectors, query: &QueryVector) -> Vec<(f32, usize)> {
        let mut all: Vec<(f32, usize)> = (0..store.len())
            .map(|row| (query.score(store, row), row))
            .collect();
        all.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        all
    }

    #[test]
    fn nearest_scans_codes_then_scores_the_kept_rows_exactly() {
        let dim = 64;
        let mut store = ShardVectors::new(dim);
        for n in 0..300 {
            store.push(chunk_key(n), &unit(n as u32, dim));
        }
        // codes are built on demand; without them the search is exact
        assert!(store.codes().is_none());
        let query = QueryVector::new(&unit(7, dim));
        let unbuilt = store.nearest(&query, RowSet::All, 20, |_| true);
        assert_eq!(unbuilt.rows, exact(&store, &query));
        assert!(unbuilt.complete);
        store.build_codes();
        let found = store.nearest(&query, RowSet::All, 20, |_| true);
        assert!(!found.complete);
        assert!(found.rows.len() >= 20 && found.rows.len() < 300);
        // the query is row 7 itself: its code is at distance 0 and its score the best
        assert_eq!(found.rows[0].1, 7);
        // every kept row carries its exact int8 score, best first
        for pair in found.rows.windows(2) {
            assert!(pair[0].0 >= pair[1].0);
        }
        for (score, row) in &found.rows {
            assert_eq!(*score, query.score(&store, *row));
        }
        // a filter refusing the nearest rows widens the scan rather than returning fewer
        let odd = store.nearest(&query, RowSet::All, 20, |key| {
            key.episode_id.as_u128() % 2 == 1
        });
        assert!(odd.rows.len() >= 20);
        assert!(odd.rows.iter().all(|(_, row)| row % 2 == 1));
        // as many rows as the set holds: exact over all of them
        let all = store.nearest(&query, RowSet::All, 300, |_| true);
        assert_eq!(all.rows, exact(&store, &query));
        assert!(all.complete);
        // adding a row makes the codes stale until built again
        store.push(chunk_key(300), &unit(300, dim));
        assert!(store.codes().is_none());
    }

    #[test]
    fn centroid_searches_scan_only_centroid_rows() {
        let dim = 64;
        let mut store = ShardVectors::new(dim);
        for n in 0..200 {
            store.push(chunk_key(n), &unit(n as u32, dim));
            let podcast = Uuid::from_u128(1000 + n);
            store.push(
                VectorKey::podcast(VectorKind::Centroid, podcast),
                &unit(n as u32 + 500, dim),
            );
        }
        store.reindex();
        store.build_codes();
        let query = QueryVector::new(&unit(510, dim));
        let found = store.nearest(&query, RowSet::Centroids, 10, |_| true);
        assert!(!found.complete && found.rows.len() < 200);
        assert!(
            found
                .rows
                .iter()
                .all(|(_, row)| store.keys()[*row].kind == VectorKind::Centroid)
        );
        assert_eq!(
            store.keys()[found.rows[0].1].podcast_id,
            Uuid::from_u128(1010)
        );
        let excluded = store.nearest(&query, RowSet::Centroids, 10, |key| {
            key.podcast_id != Uuid::from_u128(1010)
        });
        assert!(excluded.rows.len() >= 10);
        assert!(
            excluded
                .rows
                .iter()
                .all(|(_, row)| store.keys()[*row].podcast_id != Uuid::from_u128(1010))
        );
    }

    #[test]
    fn empty_zero_and_tiny_stores_answer_without_panicking() {
        let dim = 768;
        let query = QueryVector::new(&unit(1, dim));
        let mut empty = ShardVectors::new(dim);
        empty.build_codes();
        assert_eq!(empty.codes().unwrap().rows(), 0);
        for rows in [RowSet::All, RowSet::Centroids] {
            let found = empty.nearest(&query, rows, 10, |_| true);
            assert!(found.rows.is_empty() && found.complete);
        }
        // zero vectors quantise to zero: scored 0, never NaN, whatever their code
        let mut zeros = ShardVectors::new(dim);
        for n in 0..5 {
            zeros.push(chunk_key(n), &vec![0.0; dim]);
        }
        zeros.push(chunk_key(5), &unit(1, dim));
        zeros.build_codes();
        assert!(zeros.codes().unwrap().mean().iter().all(|m| m.is_finite()));
        for rescore in [0, 1, 3, 100] {
            let found = zeros.nearest(&query, RowSet::All, rescore, |_| true);
            assert!(!found.rows.is_empty());
            assert!(found.rows.iter().all(|(score, _)| score.is_finite()));
        }
        assert_eq!(
            zeros.nearest(&query, RowSet::All, 100, |_| true).rows[0].1,
            5
        );
        // a zero query scores every row 0
        let zero_query = QueryVector::new(&vec![0.0; dim]);
        assert!(zero_query.is_zero());
        let found = zeros.nearest(&zero_query, RowSet::All, 2, |_| true);
        assert!(found.rows.iter().all(|(score, _)| *score == 0.0));
        // a one-row shard
        let mut one = ShardVectors::new(dim);
        one.push(chunk_key(9), &unit(9, dim));
        one.build_codes();
        let found = one.nearest(&query, RowSet::All, 1000, |_| true);
        assert_eq!(found.rows.len(), 1);
        assert!(
            one.nearest(&query, RowSet::Centroids, 10, |_| true)
                .rows
                .is_empty()
        );
    }

    #[test]
    fn store_round_trips_retains_and_indexes_rows() {
        let dir = tempfile::tempdir().unwrap();
        let dim = 16;
        let mut store = ShardVectors::new(dim);
        let podcast = Uuid::from_u128(1);
        let episodes = [Uuid::from_u128(10), Uuid::from_u128(11)];
        store.push(
            VectorKey::podcast(VectorKind::Podcast, podcast),
            &unit(1, dim),
        );
        for (n, episode) in episodes.iter().enumerate() {
            let mut key = VectorKey::podcast(VectorKind::Description, podcast);
            key.episode_id = *episode;
            store.push(key, &unit(2 + n as u32, dim));
            key.kind = VectorKind::Chunk;
            key.transcript_id = Uuid::from_u128(20);
            key.start_second = 1.5;
            store.push(key, &unit(5 + n as u32, dim));
        }
        store.rebuild_centroids();
        assert_eq!(store.len(), 6);
        assert_eq!(store.episode_rows(episodes[1]), Some(3..5));
        store.write(dir.path()).unwrap();
        let read = ShardVectors::read(dir.path()).unwrap().unwrap();
        // keys hold NaN seconds, which never compare equal: compare their text
        assert_eq!(format!("{:?}", read.keys()), format!("{:?}", store.keys()));
        assert!(matches!(read.values, RowValues::Mapped { .. }));
        assert!((0..store.len()).all(|row| read.row(row) == store.row(row)));
        assert_eq!(read.codes, store.codes);
        assert!(read.codes.is_some());
        assert_eq!(read.centroid_row(podcast), Some(5));
        assert_eq!(read.centroid_rows, vec![5]);
        let mut trimmed = read.clone();
        trimmed.retain(|key| key.episode_id != episodes[0]);
        trimmed.rebuild_centroids();
        assert_eq!(trimmed.len(), 4);
        assert_eq!(trimmed.episode_rows(episodes[1]), Some(1..3));
        assert_eq!(trimmed.dequantized(1), read.dequantized(3));
        // a shard written before codes existed gets them computed on reading
        fs::remove_file(dir.path().join(CODES_FILE)).unwrap();
        assert_eq!(
            ShardVectors::read(dir.path()).unwrap().unwrap().codes,
            store.codes
        );
        store.write(dir.path()).unwrap();
        // a truncated file is an error, not a panic
        let bytes = fs::read(dir.path().join(VECTORS_FILE)).unwrap();
        fs::write(dir.path().join(VECTORS_FILE), &bytes[..bytes.len() - 3]).unwrap();
        assert!(ShardVectors::read(dir.path()).is_err());
        assert!(
            ShardVectors::read(&dir.path().join("absent"))
                .unwrap()
                .is_none()
        );
    }
}
