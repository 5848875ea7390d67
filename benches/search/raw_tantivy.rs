//! The baseline: one plain tantivy index of the same episodes (default tokenizer, the
//! three text fields, fast fields for the filter and sort columns). Words are any of
//! them: a `BooleanQuery` of `Should` term queries, one per field and word, each boosted
//! by the weight Podlens gives the field; phrases go through `QueryParser` with the same
//! field boosts. `TopDocs` plus `Count`.

use std::ops::Bound;
use std::path::Path;

use podlens_indexer::WEIGHTS;
use tantivy::collector::{Count, TopDocs};
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, QueryParser, RangeQuery, TermQuery};
use tantivy::schema::{FAST, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema, TEXT};
use tantivy::{Index, IndexReader, Order, ReloadPolicy, Score, TantivyDocument, Term, doc};

use crate::catalog::Catalog;
use crate::queries::{BenchQuery, PAGE_SIZE};
use crate::{Engine, Result, episode_texts};

struct Fields {
    id: Field,
    title: Field,
    description: Field,
    transcript: Field,
    published_at: Field,
    has_transcript: Field,
    language: Field,
}

fn schema() -> (Schema, Fields) {
    let mut builder = Schema::builder();
    let fields = Fields {
        id: builder.add_u64_field("id", STORED),
        title: builder.add_text_field("title", TEXT),
        description: builder.add_text_field("description", TEXT),
        transcript: builder.add_text_field("transcript", TEXT),
        published_at: builder.add_i64_field("published_at", INDEXED | FAST),
        has_transcript: builder.add_bool_field("has_transcript", INDEXED | FAST),
        language: builder.add_text_field("language", STRING | FAST),
    };
    (builder.build(), fields)
}

/// Indexes every episode under `dir` (two indexing threads, as many as Podlens's shards).
pub fn build(dir: &Path, catalog: &Catalog) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    let (schema, fields) = schema();
    let index = Index::create_in_dir(dir, schema)?;
    let mut writer = index.writer_with_num_threads(2, 256 << 20)?;
    for episode in episode_texts(catalog) {
        let mut document = doc!(
            fields.id => episode.number,
            fields.title => episode.title,
            fields.description => episode.description,
            fields.published_at => episode.published_at,
            fields.has_transcript => episode.has_transcript,
            fields.language => episode.language,
        );
        // One value per chunk, as Podlens indexes transcripts.
        for chunk in &episode.chunks {
            document.add_text(fields.transcript, chunk);
        }
        writer.add_document(document)?;
    }
    writer.commit()?;
    // One segment, as Podlens's full builds leave each index: the comparison is then of
    // the query paths, not of segment layouts.
    let segments = index.searchable_segment_ids()?;
    if segments.len() > 1 {
        writer.merge(&segments).wait()?;
    }
    writer.wait_merging_threads()?;
    Ok(())
}

pub struct RawTantivy {
    reader: IndexReader,
    parser: QueryParser,
    fields: Fields,
}

impl Fields {
    /// The text fields with the weights Podlens gives them in an episode search
    /// (`podlens_indexer::WEIGHTS`): title 2.0, description 1.0, transcript 0.6 (the
    /// transcript group's weight times the transcript's).
    fn weighted(&self) -> [(Field, Score); 3] {
        [
            (self.title, WEIGHTS.episode_title.weight),
            (self.description, WEIGHTS.episode_description.weight),
            (
                self.transcript,
                WEIGHTS.transcript_group * WEIGHTS.transcript.weight,
            ),
        ]
    }
}

impl RawTantivy {
    pub fn open(dir: &Path) -> Result<RawTantivy> {
        let index = Index::open_in_dir(dir)?;
        let (_, fields) = schema();
        let mut parser = QueryParser::for_index(
            &index,
            vec![fields.title, fields.description, fields.transcript],
        );
        for (field, weight) in fields.weighted() {
            parser.set_field_boost(field, weight);
        }
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        Ok(RawTantivy {
            reader,
            parser,
            fields,
        })
    }

    /// Any of the words in any field: one boosted term query per (field, word).
    fn words(&self, words: &[String]) -> Box<dyn Query> {
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for word in words {
            for (field, weight) in self.fields.weighted() {
                let term = TermQuery::new(
                    Term::from_field_text(field, word),
                    IndexRecordOption::WithFreqs,
                );
                clauses.push((
                    Occur::Should,
                    Box::new(BoostQuery::new(Box::new(term), weight)),
                ));
            }
        }
        Box::new(BooleanQuery::new(clauses))
    }

    fn query(&self, query: &BenchQuery) -> Result<Box<dyn Query>> {
        let text = if query.phrase {
            self.parser
                .parse_query(&format!("\"{}\"", query.words.join(" ")))?
        } else {
            self.words(&query.words)
        };
        // The text as one required clause: beside the filters' required clauses, its
        // optional clauses still decide what matches.
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = vec![(Occur::Must, text)];
        if let Some(since) = query.filters.published_since {
            clauses.push((
                Occur::Must,
                Box::new(RangeQuery::new(
                    Bound::Included(Term::from_field_i64(self.fields.published_at, since)),
                    Bound::Unbounded,
                )),
            ));
        }
        if query.filters.has_transcript {
            clauses.push((
                Occur::Must,
                Box::new(TermQuery::new(
                    Term::from_field_bool(self.fields.has_transcript, true),
                    IndexRecordOption::Basic,
                )),
            ));
        }
        if let Some(language) = query.filters.language {
            clauses.push((
                Occur::Must,
                Box::new(TermQuery::new(
                    Term::from_field_text(self.fields.language, language),
                    IndexRecordOption::Basic,
                )),
            ));
        }
        Ok(Box::new(BooleanQuery::new(clauses)))
    }
}

impl Engine for RawTantivy {
    fn run(&mut self, _index: usize, query: &BenchQuery) -> Result<u64> {
        let searcher = self.reader.searcher();
        let parsed = self.query(query)?;
        let top = TopDocs::with_limit(PAGE_SIZE).and_offset(query.offset);
        let (addresses, total) = if query.by_date {
            let (hits, total) = searcher.search(
                parsed.as_ref(),
                &(
                    top.order_by_fast_field::<i64>("published_at", Order::Desc),
                    Count,
                ),
            )?;
            (hits.into_iter().map(|(_, a)| a).collect::<Vec<_>>(), total)
        } else {
            let (hits, total) = searcher.search(parsed.as_ref(), &(top.order_by_score(), Count))?;
            (hits.into_iter().map(|(_, a)| a).collect::<Vec<_>>(), total)
        };
        for address in addresses {
            let document: TantivyDocument = searcher.doc(address)?;
            std::hint::black_box(document);
        }
        Ok(total as u64)
    }
}
