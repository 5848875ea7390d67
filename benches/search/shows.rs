//! Podcast search with the multilingual encoder, at the catalog's scale: one generation
//! with the static model's vectors and the encoder's show vectors, searched as the API
//! searches a search box's text in podcast mode (the words as one optional term over
//! podcast title and description, relevance order fused with the vectors), three ways:
//!
//! - **static**: without the encoder's vector (the fusion with the static centroids,
//!   as a server without the encoder searches);
//! - **encoder, new query**: the query embedded by the encoder inside the timed call, then
//!   searched with its vector (a query the server has not seen);
//! - **encoder, repeated query**: the vector taken from the ones already embedded, as
//!   the API's cache of query vectors gives it (a query seen before).

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use podlens_indexer::embedding::Encoder;
use podlens_indexer::{
    BuildOptions, IndexReaderHandle, MatchMode, SearchMode, SearchRequest, SearchTerm, Target,
    VectorModel,
};

use crate::catalog::Catalog;
use crate::queries::{BenchQuery, Kind, PAGE_SIZE};
use crate::report::percentile;
use crate::{Engine, Result};

/// The query kinds searched as podcast searches: a search box's words.
pub fn searched(query: &BenchQuery) -> bool {
    matches!(query.kind, Kind::Term | Kind::TwoWords | Kind::ThreeWords)
}

/// Builds the generation under `dir`: static vectors and show vectors, each show's
/// text cut at `show_text_tokens` tokens.
pub fn build(
    dir: &Path,
    catalog: &Catalog,
    model: VectorModel,
    encoder: Arc<Encoder>,
    show_text_tokens: usize,
) -> Result<()> {
    let options = BuildOptions {
        vectors: Some(model),
        encoder: Some(encoder),
        show_text_tokens,
        ..BuildOptions::default()
    };
    crate::podlens::build_with(dir, catalog, &options)
}

fn request(query: &BenchQuery) -> SearchRequest {
    SearchRequest {
        mode: Some(SearchMode::Podcasts),
        terms: vec![SearchTerm {
            text: query.words.join(" "),
            targets: vec![Target::PodcastTitle, Target::PodcastDescription],
            match_mode: MatchMode::Optional,
            ..SearchTerm::default()
        }],
        page_size: PAGE_SIZE,
        hybrid: true,
        ..SearchRequest::default()
    }
}

/// Where a search's encoder vector comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryVectors {
    /// None: the static model's vectors only.
    Static,
    /// Embedded in the timed call.
    New,
    /// Embedded before, taken from them.
    Repeated,
}

pub struct Shows {
    handle: IndexReaderHandle,
    encoder: Arc<Encoder>,
    vectors: QueryVectors,
    prepared: Vec<SearchRequest>,
    /// The queries' vectors, embedded once (repeated queries).
    embedded: Vec<Option<Vec<f32>>>,
    /// The encoder's own time per embedding of a new query.
    embedding: Vec<Duration>,
}

impl Shows {
    pub fn open(dir: &Path, encoder: Arc<Encoder>, vectors: QueryVectors) -> Result<Shows> {
        Ok(Shows {
            handle: IndexReaderHandle::open(dir)?,
            encoder,
            vectors,
            prepared: Vec::new(),
            embedded: Vec::new(),
            embedding: Vec::new(),
        })
    }
}

impl Engine for Shows {
    fn prepare(&mut self, queries: &[BenchQuery]) -> Result<()> {
        self.prepared = queries.iter().map(request).collect();
        self.embedded = self
            .prepared
            .iter()
            .map(|request| match (self.vectors, request.encoder_text()) {
                (QueryVectors::Repeated, Some(text)) => self.encoder.query(&text).map(Some),
                _ => Ok(None),
            })
            .collect::<std::result::Result<_, _>>()?;
        Ok(())
    }

    fn run(&mut self, index: usize, _query: &BenchQuery) -> Result<u64> {
        let mut request = self.prepared[index].clone();
        match self.vectors {
            QueryVectors::Static => {}
            QueryVectors::New => {
                if let Some(text) = request.encoder_text() {
                    let started = Instant::now();
                    request.encoded_query = Some(self.encoder.query(&text)?);
                    self.embedding.push(started.elapsed());
                }
            }
            QueryVectors::Repeated => request.encoded_query = self.embedded[index].clone(),
        }
        let response = self.handle.search(&request)?;
        std::hint::black_box(&response.hits);
        Ok(response.total)
    }

    fn notes(&self, name: &str) -> Vec<String> {
        if self.embedding.is_empty() {
            return Vec::new();
        }
        let mut ms: Vec<f64> = self
            .embedding
            .iter()
            .map(|time| time.as_secs_f64() * 1e3)
            .collect();
        ms.sort_by(f64::total_cmp);
        vec![format!(
            "{name}: the encoder alone (embedding the query, {} calls with the warm-ups): \
             p50 {:.2} ms, p99 {:.2} ms",
            ms.len(),
            percentile(&ms, 0.5),
            percentile(&ms, 0.99)
        )]
    }
}
