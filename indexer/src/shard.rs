//! An opened generation: a searcher per index per shard, and BM25 statistics summed
//! over all shards so scores from different shards are comparable.

use std::path::Path;

use tantivy::query::Bm25StatisticsProvider;
use tantivy::schema::Field;
use tantivy::{Index, ReloadPolicy, Searcher, Term};

use crate::analysis::register_analyzers;
use crate::build::{CHUNKS, EPISODES, PODCASTS, Schemas};
use std::sync::Arc;

use crate::embedding::StaticModel;
use crate::error::{IndexError, Result};
use crate::generation::{Manifest, generation_dir, shard_dir, shard_index_dir};
use crate::vectors::{ShardVectors, VECTORS_FILE, load_index_model};

/// The searchers of one shard. A generation never changes once published, so these are
/// opened once and never reloaded.
pub struct OpenShard {
    pub podcasts: Searcher,
    pub episodes: Searcher,
    pub chunks: Searcher,
    /// The shard's vectors, when the generation has them.
    pub vectors: Option<ShardVectors>,
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

/// A published generation, open for searching.
pub struct OpenGeneration {
    pub manifest: Manifest,
    pub shards: Vec<OpenShard>,
    pub schemas: Schemas,
    /// The static model that embeds queries, when the generation has vectors.
    pub model: Option<Arc<StaticModel>>,
}

impl std::fmt::Debug for OpenGeneration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenGeneration")
            .field("manifest", &self.manifest)
            .finish_non_exhaustive()
    }
}

impl OpenGeneration {
    /// Opens the generation `manifest` names.
    pub fn open(index_dir: &Path, manifest: Manifest) -> Result<OpenGeneration> {
        let dir = generation_dir(index_dir, manifest.generation);
        let with_vectors = manifest.vectors.is_some();
        let shards = (0..manifest.shards)
            .map(|shard| {
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
                Ok(OpenShard {
                    podcasts: open_searcher(&shard_index_dir(&dir, shard, PODCASTS))?,
                    episodes: open_searcher(&shard_index_dir(&dir, shard, EPISODES))?,
                    chunks: open_searcher(&shard_index_dir(&dir, shard, CHUNKS))?,
                    vectors,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let model = match &manifest.vectors {
            Some(info) => Some(load_index_model(index_dir, &info.model_sha256)?),
            None => None,
        };
        Ok(OpenGeneration {
            manifest,
            shards,
            schemas: Schemas::default(),
            model,
        })
    }
}

/// BM25 statistics over the same index of every shard.
pub struct GlobalStatistics<'a> {
    pub searchers: Vec<&'a Searcher>,
}

impl Bm25StatisticsProvider for GlobalStatistics<'_> {
    fn total_num_tokens(&self, field: Field) -> tantivy::Result<u64> {
        let mut total = 0;
        for searcher in &self.searchers {
            total += Bm25StatisticsProvider::total_num_tokens(*searcher, field)?;
        }
        Ok(total)
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        let mut total = 0;
        for searcher in &self.searchers {
            total += Bm25StatisticsProvider::total_num_docs(*searcher)?;
        }
        Ok(total)
    }

    fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
        let mut total = 0;
        for searcher in &self.searchers {
            total += searcher.doc_freq(term)?;
        }
        Ok(total)
    }
}
