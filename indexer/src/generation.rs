//! Index generations on disk and the manifest that publishes one.
//!
//! ```text
//! <data-dir>/index/manifest.json        the published generation (written by rename)
//! <data-dir>/index/gen-<n>/shard-<i>/{podcasts,episodes,chunks}/
//! <data-dir>/index/gen-<n>/shard-<i>/vectors.bin   int8 embeddings (crate::vectors)
//! <data-dir>/index/models/<sha256>/                 the static model they were made with
//! ```
//!
//! A generation directory is never modified once its manifest is published: a full build
//! writes a new one, and an incremental update hard-links the current generation's
//! immutable segment files into a new directory, applies its changes there, and
//! publishes that. A crash at any point before the rename leaves the previous manifest,
//! and so the previous generation, serving; unpublished directories are removed by the
//! next publish.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{IndexError, Result};

/// The manifest's file name inside the index directory.
pub const MANIFEST_FILE: &str = "manifest.json";
/// 2: podcasts carry their people, their episodes' text, their stored record and a text
/// quality; episodes their people. 3: episodes store when they were first seen and the
/// start of their transcript; podcasts and episodes store their fields in 4 KiB blocks
/// (since written uncompressed in 1 KiB blocks, which tantivy reads the same way).
/// 4: a podcast's episodes text keeps its positions (the proximity bonus reads it).
/// 5: the searched language is stored with the show. 6: Chinese, Japanese and Korean
/// text is indexed in pairs of characters (`analysis::WordTokenizer`).
const FORMAT_VERSION: u32 = 6;

/// What `manifest.json` says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    /// On-disk format of the generation.
    pub format: u32,
    /// The published generation's number (`gen-<n>`).
    pub generation: u64,
    /// Number of shards of every index of the generation.
    pub shards: u32,
    /// Documents per index, for reporting.
    pub podcasts: u64,
    pub episodes: u64,
    pub chunks: u64,
    /// RFC 3339 time of publishing.
    pub published_at: String,
    /// The generation's vectors (`shard-<i>/vectors.bin`); absent when it was built
    /// without the static embedding model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vectors: Option<VectorsManifest>,
    /// The generation's show vectors from the multilingual encoder
    /// (`shard-<i>/encoder/vectors.bin`); absent when it was built without the encoder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoder: Option<EncoderManifest>,
}

/// What a generation's vectors are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VectorsManifest {
    /// sha256 of the static model's table, which names `<index>/models/<sha>`.
    pub model_sha256: String,
    pub dim: usize,
    /// Rows over all shards (podcast texts, descriptions, chunks, centroids).
    pub count: u64,
}

/// What a generation's show vectors from the multilingual encoder are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EncoderManifest {
    /// sha256 of the encoder's model file: queries are embedded with the same model.
    pub model_sha256: String,
    pub dim: usize,
    /// Shows with a vector, over all shards.
    pub count: u64,
}

impl Manifest {
    pub(crate) fn new(generation: u64, shards: u32) -> Manifest {
        Manifest {
            format: FORMAT_VERSION,
            generation,
            shards,
            podcasts: 0,
            episodes: 0,
            chunks: 0,
            published_at: chrono::Utc::now().to_rfc3339(),
            vectors: None,
            encoder: None,
        }
    }
}

/// The directory of generation `generation`.
pub fn generation_dir(index_dir: &Path, generation: u64) -> PathBuf {
    index_dir.join(format!("gen-{generation}"))
}

/// The directory of one shard.
pub fn shard_dir(generation_dir: &Path, shard: u32) -> PathBuf {
    generation_dir.join(format!("shard-{shard}"))
}

/// The directory of one index of one shard.
pub fn shard_index_dir(generation_dir: &Path, shard: u32, kind: &str) -> PathBuf {
    shard_dir(generation_dir, shard).join(kind)
}

/// Reads the published manifest, `None` when nothing is published yet.
pub fn read_manifest(index_dir: &Path) -> Result<Option<Manifest>> {
    let path = index_dir.join(MANIFEST_FILE);
    let bytes = match fs::read(&path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(IndexError::io(path, error)),
    };
    let manifest: Manifest =
        serde_json::from_slice(&bytes).map_err(|error| IndexError::BadManifest {
            path: path.clone(),
            reason: error.to_string(),
        })?;
    if manifest.format != FORMAT_VERSION {
        return Err(IndexError::BadManifest {
            path,
            reason: format!(
                "the index was built by another version of podlens (format {}, this one reads {FORMAT_VERSION}); run `podlens index` to rebuild it",
                manifest.format
            ),
        });
    }
    if manifest.shards == 0 {
        return Err(IndexError::BadManifest {
            path,
            reason: "the manifest has no shards".into(),
        });
    }
    Ok(Some(manifest))
}

/// Publishes `manifest` atomically (temporary file, fsync, rename, fsync of the
/// directory), then removes generations other than the new one and the one before it.
pub fn publish(index_dir: &Path, manifest: &Manifest) -> Result<()> {
    let previous = read_manifest(index_dir).ok().flatten();
    let temporary = index_dir.join(format!("{MANIFEST_FILE}.tmp"));
    let bytes = serde_json::to_vec_pretty(manifest).map_err(|error| IndexError::BadManifest {
        path: temporary.clone(),
        reason: error.to_string(),
    })?;
    {
        let mut file = fs::File::create(&temporary).map_err(|e| IndexError::io(&temporary, e))?;
        file.write_all(&bytes)
            .and_then(|()| file.sync_all())
            .map_err(|e| IndexError::io(&temporary, e))?;
    }
    let target = index_dir.join(MANIFEST_FILE);
    fs::rename(&temporary, &target).map_err(|e| IndexError::io(&target, e))?;
    if let Ok(dir) = fs::File::open(index_dir) {
        let _ = dir.sync_all();
    }
    tracing::info!(
        generation = manifest.generation,
        shards = manifest.shards,
        podcasts = manifest.podcasts,
        episodes = manifest.episodes,
        "published index generation"
    );
    let keep = [Some(manifest.generation), previous.map(|p| p.generation)];
    collect_garbage(index_dir, &keep)
}

/// Generation numbers present on disk (published or not).
pub fn generations_on_disk(index_dir: &Path) -> Result<Vec<u64>> {
    let entries = match fs::read_dir(index_dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(IndexError::io(index_dir, error)),
    };
    let mut numbers: Vec<u64> = entries
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| {
            entry
                .file_name()
                .to_str()
                .and_then(|name| name.strip_prefix("gen-"))
                .and_then(|number| number.parse().ok())
        })
        .collect();
    numbers.sort_unstable();
    Ok(numbers)
}

/// The number for a new generation: above every directory on disk, so a half-written
/// directory from a crash is never reused.
pub fn next_generation(index_dir: &Path) -> Result<u64> {
    let on_disk = generations_on_disk(index_dir)?;
    // Any format: a full build replaces a generation of an older format.
    #[derive(Deserialize)]
    struct Published {
        generation: u64,
    }
    let published = fs::read(index_dir.join(MANIFEST_FILE))
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Published>(&bytes).ok())
        .map(|published| published.generation);
    Ok(on_disk
        .last()
        .copied()
        .max(published)
        .map_or(1, |highest| highest + 1))
}

fn collect_garbage(index_dir: &Path, keep: &[Option<u64>]) -> Result<()> {
    for generation in generations_on_disk(index_dir)? {
        if keep.contains(&Some(generation)) {
            continue;
        }
        let dir = generation_dir(index_dir, generation);
        match fs::remove_dir_all(&dir) {
            Ok(()) => tracing::debug!(generation, "removed old index generation"),
            Err(error) => tracing::warn!(generation, %error, "cannot remove old index generation"),
        }
    }
    Ok(())
}

/// Copies a published index directory for an incremental update: tantivy's segment
/// files are immutable, so they are hard-linked (copied when linking fails); its
/// metadata files, which a commit rewrites, are copied.
pub(crate) fn clone_index_dir(from: &Path, to: &Path) -> Result<()> {
    fs::create_dir_all(to).map_err(|e| IndexError::io(to, e))?;
    let entries = fs::read_dir(from).map_err(|e| IndexError::io(from, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| IndexError::io(from, e))?;
        let source = entry.path();
        if !source.is_file() {
            continue;
        }
        let name = entry.file_name();
        let name_text = name.to_string_lossy();
        if name_text.ends_with(".lock") || name_text.starts_with(".tantivy-") {
            continue;
        }
        let target = to.join(&name);
        let is_metadata = name_text == "meta.json" || name_text == ".managed.json";
        if is_metadata || fs::hard_link(&source, &target).is_err() {
            fs::copy(&source, &target).map_err(|e| IndexError::io(&target, e))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn publish_switches_and_collects_garbage() {
        let dir = tempfile::tempdir().unwrap();
        let index_dir = dir.path();
        assert_eq!(read_manifest(index_dir).unwrap(), None);
        assert_eq!(next_generation(index_dir).unwrap(), 1);
        for generation in 1..=3 {
            fs::create_dir_all(generation_dir(index_dir, generation)).unwrap();
            publish(index_dir, &Manifest::new(generation, 2)).unwrap();
            assert_eq!(
                read_manifest(index_dir).unwrap().unwrap().generation,
                generation
            );
        }
        assert_eq!(generations_on_disk(index_dir).unwrap(), vec![2, 3]);
        // A half-written generation is never reused.
        fs::create_dir_all(generation_dir(index_dir, 4)).unwrap();
        assert_eq!(next_generation(index_dir).unwrap(), 5);
    }

    #[test]
    fn a_corrupt_manifest_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join(MANIFEST_FILE), b"{not json").unwrap();
        assert!(matches!(
            read_manifest(dir.path()),
            Err(IndexError::BadManifest { .. })
        ));
    }
}
