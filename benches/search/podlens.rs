//! Podlens: the generation built in-process from the catalog records, searched through
//! an `IndexReaderHandle` with the request the API builds for a search box: the text as
//! one optional term (`matchMode` optional, the API's and the web app's default) over
//! episode title, description and transcript; a phrase as one phrase term.

use std::path::{Path, PathBuf};

use podlens_indexer::{
    BuildOptions, Hits, IndexReaderHandle, IndexSource, MatchMode, SearchFilters, SearchMode,
    SearchRequest, SearchTerm, SortDirection, SortField, SortOrder, Target, VectorModel,
    build_generation,
};

use crate::catalog::{Catalog, timestamp};
use crate::queries::{BenchQuery, PAGE_SIZE};
use crate::{Engine, Result};

const TARGETS: [Target; 3] = [
    Target::EpisodeTitle,
    Target::EpisodeDescription,
    Target::Transcript,
];

/// The static embedding model's folder: `PODLENS_STATIC_MODEL`, or
/// `~/.cache/podlens-models/static-mpnet-768`.
pub fn model_dir() -> Option<PathBuf> {
    std::env::var_os("PODLENS_STATIC_MODEL")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .map(|home| Path::new(&home).join(".cache/podlens-models/static-mpnet-768"))
        })
}

/// Builds a generation of the whole catalog under `dir`, with vectors when `vectors`
/// holds the static model.
pub fn build(dir: &Path, catalog: &Catalog, vectors: Option<VectorModel>) -> Result<()> {
    build_with(
        dir,
        catalog,
        &BuildOptions {
            vectors,
            ..BuildOptions::default()
        },
    )
}

/// Builds a generation of the whole catalog under `dir` with `options`.
pub fn build_with(dir: &Path, catalog: &Catalog, options: &BuildOptions) -> Result<()> {
    let source = IndexSource {
        podcasts: &catalog.podcasts,
        episodes: &catalog.episodes,
        transcripts: &catalog.transcripts,
        persons: &[],
        signals: None,
    };
    build_generation(dir, source, options)?;
    Ok(())
}

fn request(query: &BenchQuery, snippets: bool, hybrid: bool) -> SearchRequest {
    let term = SearchTerm {
        text: query.words.join(" "),
        targets: TARGETS.to_vec(),
        match_mode: MatchMode::Optional,
        phrase: query.phrase,
        ..SearchTerm::default()
    };
    let filters = SearchFilters {
        languages: query
            .filters
            .language
            .map(str::to_owned)
            .into_iter()
            .collect(),
        published_since: query.filters.published_since.map(timestamp),
        has_transcript: query.filters.has_transcript.then_some(true),
        ..SearchFilters::default()
    };
    let sort = if query.by_date {
        SortOrder {
            field: SortField::RecentActivity,
            direction: SortDirection::Desc,
            ..SortOrder::default()
        }
    } else {
        SortOrder::default()
    };
    SearchRequest {
        mode: Some(SearchMode::Episodes),
        terms: vec![term],
        filters,
        sort,
        page_size: PAGE_SIZE,
        snippets,
        hybrid,
        ..SearchRequest::default()
    }
}

/// The Podlens engine; `snippets` as the API sets it by default (transcript snippets
/// for every hit of a transcript search); `hybrid` fuses keyword and vector rankings of
/// relevance-sorted searches (the API's default, on a generation with vectors).
pub struct Podlens {
    handle: IndexReaderHandle,
    snippets: bool,
    hybrid: bool,
    prepared: Vec<SearchRequest>,
    /// Relevance-sorted queries, and those whose first page was fused with vectors.
    relevance_queries: usize,
    fused_queries: usize,
}

impl Podlens {
    pub fn open(dir: &Path, snippets: bool, hybrid: bool) -> Result<Podlens> {
        Ok(Podlens {
            handle: IndexReaderHandle::open(dir)?,
            snippets,
            hybrid,
            prepared: Vec::new(),
            relevance_queries: 0,
            fused_queries: 0,
        })
    }

    /// Whether the first page of `request` fuses vector and keyword rankings (its
    /// explanation says so).
    fn fuses(&self, request: &SearchRequest) -> Result<bool> {
        let explained = SearchRequest {
            explain: true,
            snippets: false,
            cursor: None,
            ..request.clone()
        };
        let response = self.handle.search(&explained)?;
        let first = match &response.hits {
            Hits::Episodes(hits) => hits.first().and_then(|hit| hit.explanation.clone()),
            Hits::Podcasts(hits) => hits.first().and_then(|hit| hit.explanation.clone()),
        };
        Ok(first.is_some_and(|explanation| explanation.get("fusion").is_some()))
    }

    /// The cursor of the page at `offset`: one page of `offset` hits in keyword order;
    /// a fused search (whose first pages are positions in the fused order, and whose
    /// pages past the fused window follow the window's last keyword hit) is paged
    /// through as a client pages it.
    fn cursor_at(&self, request: &SearchRequest, offset: usize) -> Result<Option<String>> {
        if !self.hybrid {
            let skip = SearchRequest {
                page_size: offset,
                snippets: false,
                ..request.clone()
            };
            return Ok(self.handle.search(&skip)?.next_cursor);
        }
        let mut page = SearchRequest {
            snippets: false,
            ..request.clone()
        };
        for _ in 0..offset / PAGE_SIZE {
            page.cursor = self.handle.search(&page)?.next_cursor;
            if page.cursor.is_none() {
                break;
            }
        }
        Ok(page.cursor)
    }
}

impl Engine for Podlens {
    /// Deep pages use the cursor of the hit before the page, found once, untimed.
    fn prepare(&mut self, queries: &[BenchQuery]) -> Result<()> {
        self.prepared.clear();
        self.relevance_queries = 0;
        self.fused_queries = 0;
        for query in queries {
            let mut request = request(query, self.snippets, self.hybrid);
            if self.hybrid && !query.by_date {
                self.relevance_queries += 1;
                if self.fuses(&request)? {
                    self.fused_queries += 1;
                }
            }
            if query.offset > 0 {
                request.cursor = self.cursor_at(&request, query.offset)?;
            }
            self.prepared.push(request);
        }
        Ok(())
    }

    fn run(&mut self, index: usize, _query: &BenchQuery) -> Result<u64> {
        let response = self.handle.search(&self.prepared[index])?;
        std::hint::black_box(&response.hits);
        Ok(response.total)
    }

    fn notes(&self, name: &str) -> Vec<String> {
        if !self.hybrid {
            return Vec::new();
        }
        vec![format!(
            "{name}: {} of {} relevance-sorted queries fused vector and keyword rankings \
             (the others kept keyword order: no word the model knows)",
            self.fused_queries, self.relevance_queries
        )]
    }
}
