//! An opened generation: a searcher per index per shard, and BM25 statistics summed
//! over all shards so scores from different shards are comparable.

use std::path::Path;

use tantivy::query::Bm25StatisticsProvider;
use tantivy::schema::Field;
use tantivy::{Index, ReloadPolicy, Searcher, Term};

use crate::analysis::register_analyzers;
use crate::build::{CHUNKS, EPISODES, PODCASTS, Schemas};
use crate::error::Result;
use crate::generation::{Manifest, generation_dir, shard_index_dir};

/// The searchers of one shard. A generation never changes once published, so these are
/// opened once and never reloaded.
pub struct OpenShard {
    pub podcasts: Searcher,
    pub episodes: Searcher,
    pub chunks: Searcher,
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
        let shards = (0..manifest.shards)
            .map(|shard| {
                Ok(OpenShard {
                    podcasts: open_searcher(&shard_index_dir(&dir, shard, PODCASTS))?,
                    episodes: open_searcher(&shard_index_dir(&dir, shard, EPISODES))?,
                    chunks: open_searcher(&shard_index_dir(&dir, shard, CHUNKS))?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(OpenGeneration {
            manifest,
            shards,
            schemas: Schemas::default(),
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
