//! One word of a search term in several fields, scored with BM25F: the word's frequency
//! in each field, normalised by that field's length and weighted by the field, summed
//! into one frequency that saturates once.
//!
//! For a group of fields `G` (one combined score each; a word's score sums its groups):
//!
//! ```text
//! tf(G)    = Σ_{f ∈ G} w_f · tf_f / (1 − b_f + b_f · len_f / avglen_f)
//! score(G) = λ_G · idf(G) · tf(G) · (k1 + 1) / (k1 + tf(G))
//! ```
//!
//! `avglen_f` is the field's mean length over the documents that have the field (a
//! language family's field is empty for documents in other languages), and `idf(G)`
//! takes the largest document frequency of the word among the group's fields. Long text
//! that should not saturate a word on its own (a podcast's episodes, transcripts) is a
//! group of its own with a smaller `λ`. Fields are summed before saturation, so a word in
//! the title and the description scores above a word in the title alone, but not twice
//! as much (Robertson, Zaragoza & Taylor, "Simple BM25 extension to multiple weighted
//! fields", 2004).

use std::sync::Arc;

use tantivy::fieldnorm::FieldNormReader;
use tantivy::postings::{Postings, SegmentPostings};
use tantivy::query::{Bm25StatisticsProvider, EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED, Term};

use crate::ranking::K1;
use crate::window::{Slots, Window, seek_to};

/// One field of a word: its term, weight and length normalisation.
#[derive(Debug, Clone)]
pub struct WeightedField {
    pub term: Term,
    pub weight: Score,
    /// BM25's `b`: 0 ignores the field's length, 1 normalises by it fully.
    pub b: Score,
    /// The field's mean length over the documents that have it.
    pub average_length: Score,
}

/// Fields whose frequencies are summed into one saturating score.
#[derive(Debug, Clone)]
pub struct FieldGroup {
    pub fields: Vec<WeightedField>,
    /// The group's share of the word's score (`λ`).
    pub weight: Score,
}

/// A word in weighted field groups, plus other queries whose scores are added as they are
/// (fuzzy matches of the word, a podcast's match in episode searches).
#[derive(Debug)]
pub struct WordQuery {
    groups: Vec<FieldGroup>,
    extras: Vec<Box<dyn Query>>,
}

impl WordQuery {
    pub fn new(groups: Vec<FieldGroup>, extras: Vec<Box<dyn Query>>) -> WordQuery {
        WordQuery {
            groups: groups
                .into_iter()
                .filter(|group| !group.fields.is_empty())
                .collect(),
            extras,
        }
    }

    /// Whether the word has no field and no other query (it matches nothing).
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty() && self.extras.is_empty()
    }
}

impl Clone for WordQuery {
    fn clone(&self) -> WordQuery {
        WordQuery {
            groups: self.groups.clone(),
            extras: self.extras.iter().map(|query| query.box_clone()).collect(),
        }
    }
}

/// BM25's inverse document frequency, as tantivy computes it.
pub(crate) fn idf(doc_freq: u64, doc_count: u64) -> Score {
    let doc_freq = doc_freq.min(doc_count);
    let x = ((doc_count - doc_freq) as Score + 0.5) / (doc_freq as Score + 0.5);
    (1.0 + x).ln()
}

impl Query for WordQuery {
    fn weight(&self, enable_scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let statistics: Option<&dyn Bm25StatisticsProvider> = match enable_scoring {
            EnableScoring::Enabled {
                statistics_provider,
                ..
            } => Some(statistics_provider),
            EnableScoring::Disabled { .. } => None,
        };
        let mut groups = Vec::with_capacity(self.groups.len());
        for group in &self.groups {
            let scale = match statistics {
                Some(statistics) => {
                    let docs = statistics.total_num_docs()?;
                    let mut doc_freq = 0;
                    for field in &group.fields {
                        doc_freq = doc_freq.max(statistics.doc_freq(&field.term)?);
                    }
                    group.weight * idf(doc_freq, docs) * (K1 + 1.0)
                }
                None => 0.0,
            };
            let fields = group
                .fields
                .iter()
                .map(|field| FieldWeight {
                    term: field.term.clone(),
                    normalised: normalisation_table(field),
                })
                .collect();
            groups.push(GroupWeight { fields, scale });
        }
        let extras = self
            .extras
            .iter()
            .map(|query| query.weight(enable_scoring))
            .collect::<tantivy::Result<Vec<_>>>()?;
        Ok(Box::new(WordWeight {
            groups,
            extras,
            scoring: statistics.is_some(),
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        for group in &self.groups {
            for field in &group.fields {
                visitor(&field.term, false);
            }
        }
        for query in &self.extras {
            query.query_terms(visitor);
        }
    }
}

/// `w / (1 − b + b · len / avglen)` for every fieldnorm id.
fn normalisation_table(field: &WeightedField) -> Arc<[Score; 256]> {
    let mut table = [0.0; 256];
    let average = field.average_length.max(1.0);
    for (id, slot) in table.iter_mut().enumerate() {
        let length = FieldNormReader::id_to_fieldnorm(id as u8) as Score;
        *slot = field.weight / (1.0 - field.b + field.b * length / average);
    }
    Arc::new(table)
}

struct FieldWeight {
    term: Term,
    normalised: Arc<[Score; 256]>,
}

struct GroupWeight {
    fields: Vec<FieldWeight>,
    /// `λ · idf · (k1 + 1)`.
    scale: Score,
}

struct WordWeight {
    groups: Vec<GroupWeight>,
    extras: Vec<Box<dyn Weight>>,
    scoring: bool,
}

impl WordWeight {
    /// A cursor on each field of the word that the segment holds.
    fn cursors(&self, reader: &SegmentReader) -> tantivy::Result<Vec<Cursor>> {
        let option = if self.scoring {
            IndexRecordOption::WithFreqs
        } else {
            IndexRecordOption::Basic
        };
        let mut cursors = Vec::new();
        for (group, weights) in self.groups.iter().enumerate() {
            for field in &weights.fields {
                let inverted_index = reader.inverted_index(field.term.field())?;
                let Some(info) = inverted_index.get_term_info(&field.term)? else {
                    continue;
                };
                let postings = inverted_index.read_postings_from_terminfo(&info, option)?;
                let fieldnorms = reader
                    .fieldnorms_readers()
                    .get_field(field.term.field())?
                    .unwrap_or_else(|| FieldNormReader::constant(reader.max_doc(), 1));
                cursors.push(Cursor {
                    postings,
                    fieldnorms,
                    normalised: field.normalised.clone(),
                    group,
                    field: field.term.field(),
                });
            }
        }
        Ok(cursors)
    }

    fn word_scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<WordScorer> {
        let extras = self
            .extras
            .iter()
            .map(|weight| weight.scorer(reader, boost))
            .collect::<tantivy::Result<Vec<_>>>()?;
        let scales = self.groups.iter().map(|g| g.scale * boost).collect();
        Ok(WordScorer::new(
            self.cursors(reader)?,
            extras,
            scales,
            self.scoring,
        ))
    }
}

impl Weight for WordWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(Box::new(self.word_scorer(reader, boost)?))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = self.word_scorer(reader, 1.0)?;
        if scorer.seek(doc) != doc {
            return Err(tantivy::TantivyError::InvalidArgument(format!(
                "document #({doc}) does not match"
            )));
        }
        let score = scorer.score();
        let mut explanation = Explanation::new(
            "BM25F: per group, λ·idf·(k1+1)·tf/(k1+tf) with tf the weighted, length-normalised sum of the fields' frequencies",
            score,
        );
        let mut cursors = self.cursors(reader)?;
        for (group, weights) in self.groups.iter().enumerate() {
            let mut group_explanation =
                Explanation::new_with_string(format!("group {group}: λ·idf·(k1+1)"), weights.scale);
            for cursor in cursors.iter_mut().filter(|c| c.group == group) {
                if seek_to(&mut cursor.postings, doc) == doc {
                    let id = cursor.fieldnorms.fieldnorm_id(doc);
                    let mut detail = Explanation::new_with_string(
                        format!(
                            "tf {} × weight/length normalisation (field length {})",
                            cursor.postings.term_freq(),
                            FieldNormReader::id_to_fieldnorm(id)
                        ),
                        frequency(&cursor.postings, &cursor.fieldnorms, &cursor.normalised),
                    );
                    detail.add_context(format!(
                        "field {:?}",
                        reader.schema().get_field_name(cursor.field)
                    ));
                    group_explanation.add_detail(detail);
                }
            }
            explanation.add_detail(group_explanation);
        }
        for extra in &self.extras {
            if crate::guarded::matches(extra.as_ref(), reader, doc)?
                && let Ok(detail) = extra.explain(reader, doc)
            {
                explanation.add_detail(detail);
            }
        }
        Ok(explanation)
    }
}

struct Cursor {
    postings: SegmentPostings,
    fieldnorms: FieldNormReader,
    normalised: Arc<[Score; 256]>,
    group: usize,
    field: Field,
}

/// The weighted, length-normalised frequency of a word in the document `postings` is on.
fn frequency(
    postings: &SegmentPostings,
    fieldnorms: &FieldNormReader,
    normalised: &[Score; 256],
) -> Score {
    let id = fieldnorms.fieldnorm_id(postings.doc());
    postings.term_freq() as Score * normalised[id as usize]
}

/// The union of a word's fields (and extras), read a window of documents at a time
/// (`window.rs`).
pub struct WordScorer {
    /// The cursors and extras that have not ended, each at or past the window's end.
    cursors: Vec<Cursor>,
    extras: Vec<Box<dyn Scorer>>,
    scales: Vec<Score>,
    window: Window,
    /// Per group, per document of the window: the weighted frequency (none when not
    /// scoring).
    frequencies: Vec<Slots>,
    /// Per document of the window: the extras' summed score.
    extra_scores: Option<Slots>,
    scoring: bool,
    doc: DocId,
    score: Score,
}

impl WordScorer {
    fn new(
        cursors: Vec<Cursor>,
        extras: Vec<Box<dyn Scorer>>,
        scales: Vec<Score>,
        scoring: bool,
    ) -> WordScorer {
        let cursors: Vec<Cursor> = cursors
            .into_iter()
            .filter(|c| c.postings.doc() != TERMINATED)
            .collect();
        let extras: Vec<Box<dyn Scorer>> = extras
            .into_iter()
            .filter(|e| e.doc() != TERMINATED)
            .collect();
        let matches = !cursors.is_empty() || !extras.is_empty();
        let frequencies = if scoring && matches {
            scales.iter().map(|_| Slots::new()).collect()
        } else {
            Vec::new()
        };
        let extra_scores = (scoring && !extras.is_empty()).then(Slots::new);
        let mut scorer = WordScorer {
            cursors,
            extras,
            scales,
            window: Window::new(),
            frequencies,
            extra_scores,
            scoring,
            doc: 0,
            score: 0.0,
        };
        scorer.refill();
        scorer
    }

    /// Reads the next window, from the smallest document of the cursors and extras, and
    /// moves to its first match (or ends).
    fn refill(&mut self) -> DocId {
        let cursors = self.cursors.iter().map(|c| c.postings.doc());
        let extras = self.extras.iter().map(|e| e.doc());
        let Some(start) = cursors.chain(extras).min() else {
            self.doc = TERMINATED;
            return TERMINATED;
        };
        let end = self.window.open(start);
        let window = &mut self.window;
        let frequencies = &mut self.frequencies;
        self.cursors.retain_mut(|cursor| {
            let Cursor {
                postings,
                fieldnorms,
                normalised,
                group,
                ..
            } = cursor;
            let mut slots = frequencies.get_mut(*group);
            window.drain(postings, end, |delta, postings| {
                if let Some(slots) = slots.as_mut() {
                    slots.add(delta, frequency(postings, fieldnorms, normalised));
                }
            })
        });
        let extra_scores = &mut self.extra_scores;
        self.extras.retain_mut(|extra| {
            window.drain(extra.as_mut(), end, |delta, extra| {
                if let Some(slots) = extra_scores.as_mut() {
                    slots.add(delta, extra.score());
                }
            })
        });
        self.next_in_window()
            .expect("a window starts on a matching document")
    }

    /// Moves to the window's next match and scores it; `None` when the window is read.
    fn next_in_window(&mut self) -> Option<DocId> {
        let (doc, delta) = self.window.pop()?;
        self.doc = doc;
        self.score = self.take(delta);
        Some(doc)
    }

    /// The score of the window's document `delta`, its slots left zero.
    fn take(&mut self, delta: usize) -> Score {
        take(
            &mut self.frequencies,
            &mut self.extra_scores,
            &self.scales,
            self.scoring,
            delta,
        )
    }
}

/// The score of a window's document from its slots, which are left zero.
fn take(
    frequencies: &mut [Slots],
    extra_scores: &mut Option<Slots>,
    scales: &[Score],
    scoring: bool,
    delta: usize,
) -> Score {
    if !scoring {
        return 1.0;
    }
    let mut score = 0.0;
    for (slots, scale) in frequencies.iter_mut().zip(scales) {
        let tf = slots.take(delta);
        if tf > 0.0 {
            score += scale * tf / (K1 + tf);
        }
    }
    if let Some(slots) = extra_scores {
        score += slots.take(delta);
    }
    score
}

impl Drop for WordScorer {
    /// Leaves the slots zero for the next scorer.
    fn drop(&mut self) {
        let (frequencies, extra_scores) = (&mut self.frequencies, &mut self.extra_scores);
        let scales = &self.scales;
        self.window.clear(|delta| {
            take(frequencies, extra_scores, scales, true, delta);
        });
    }
}

impl DocSet for WordScorer {
    fn advance(&mut self) -> DocId {
        if self.doc == TERMINATED {
            return TERMINATED;
        }
        match self.next_in_window() {
            Some(doc) => doc,
            None => self.refill(),
        }
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc >= target {
            return self.doc;
        }
        let (frequencies, extra_scores) = (&mut self.frequencies, &mut self.extra_scores);
        let (scales, scoring) = (&self.scales, self.scoring);
        let mut clear = |delta| {
            take(frequencies, extra_scores, scales, scoring, delta);
        };
        if self.window.holds(target) {
            // In the window: drop the buckets before the target's, then read up to it.
            self.window.skip_to(target, &mut clear);
            let mut doc = self.doc;
            while doc < target {
                doc = self.advance();
            }
            return doc;
        }
        self.window.clear(&mut clear);
        self.cursors
            .retain_mut(|cursor| seek_to(&mut cursor.postings, target) != TERMINATED);
        self.extras
            .retain_mut(|extra| seek_to(extra.as_mut(), target) != TERMINATED);
        self.refill()
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        let cursors = self.cursors.iter().map(|c| c.postings.size_hint());
        let extras = self.extras.iter().map(|e| e.size_hint());
        cursors.chain(extras).fold(0u32, u32::saturating_add)
    }

    fn cost(&self) -> u64 {
        let cursors = self.cursors.iter().map(|c| c.postings.size_hint() as u64);
        let extras = self.extras.iter().map(|e| e.cost());
        cursors.chain(extras).sum()
    }
}

impl Scorer for WordScorer {
    fn score(&mut self) -> Score {
        self.score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::collector::TopDocs;
    use tantivy::query::TermQuery;
    use tantivy::schema::{Field, Schema, TEXT};
    use tantivy::{Index, IndexWriter, doc};

    /// With one field of weight 1 and b 0.75, BM25F is BM25: the same scores as
    /// tantivy's term query, by a second implementation.
    #[test]
    fn one_field_scores_as_tantivy_bm25() {
        let mut builder = Schema::builder();
        let body = builder.add_text_field("body", TEXT);
        let index = Index::create_in_ram(builder.build());
        let mut writer: IndexWriter = index.writer(15_000_000).unwrap();
        for text in [
            "ocean",
            "ocean ocean waves",
            "a long text about the ocean and the sea and ships and more",
            "nothing",
            "ocean ocean ocean ocean",
        ] {
            writer.add_document(doc!(body => text)).unwrap();
        }
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let term = Term::from_field_text(body, "ocean");
        let average = searcher.segment_reader(0).num_docs() as Score;
        let tokens = Bm25StatisticsProvider::total_num_tokens(&searcher, body).unwrap() as Score;
        let ours = WordQuery::new(
            vec![FieldGroup {
                fields: vec![WeightedField {
                    term: term.clone(),
                    weight: 1.0,
                    b: 0.75,
                    // every document has the field: the mean over all of them
                    average_length: tokens / average,
                }],
                weight: 1.0,
            }],
            Vec::new(),
        );
        let theirs = TermQuery::new(term, IndexRecordOption::WithFreqs);
        let top = TopDocs::with_limit(10).order_by_score();
        let mut found = searcher.search(&ours, &top).unwrap();
        let mut expected = searcher.search(&theirs, &top).unwrap();
        found.sort_by_key(|(_, address)| *address);
        expected.sort_by_key(|(_, address)| *address);
        assert_eq!(found.len(), 4);
        assert_eq!(found.len(), expected.len());
        for ((score, address), (expected_score, expected_address)) in found.iter().zip(&expected) {
            assert_eq!(address, expected_address);
            assert!(
                (score - expected_score).abs() < 1e-4,
                "{score} {expected_score}"
            );
        }
    }

    /// A searcher over one segment of documents with a title and a body.
    fn title_and_body(docs: &[(&str, &str)]) -> (tantivy::Searcher, Field, Field) {
        let mut builder = Schema::builder();
        let title = builder.add_text_field("title", TEXT);
        let body = builder.add_text_field("body", TEXT);
        let index = Index::create_in_ram(builder.build());
        let mut writer: IndexWriter = index.writer(15_000_000).unwrap();
        for (t, b) in docs {
            writer.add_document(doc!(title => *t, body => *b)).unwrap();
        }
        writer.commit().unwrap();
        (index.reader().unwrap().searcher(), title, body)
    }

    /// The word "ocean" in `field`, weighted, with length normalisation `b` against an
    /// average length of 1.
    fn ocean(field: Field, weight: Score, b: Score) -> WeightedField {
        WeightedField {
            term: Term::from_field_text(field, "ocean"),
            weight,
            b,
            average_length: 1.0,
        }
    }

    /// "ocean" in two groups: the title (weight 2) with λ 1, the body (weight 1) with λ
    /// 0.5, neither length-normalised; plus `extras`.
    fn title_and_body_groups(title: Field, body: Field, extras: Vec<Box<dyn Query>>) -> WordQuery {
        WordQuery::new(
            vec![
                FieldGroup {
                    fields: vec![ocean(title, 2.0, 0.0)],
                    weight: 1.0,
                },
                FieldGroup {
                    fields: vec![ocean(body, 1.0, 0.0)],
                    weight: 0.5,
                },
            ],
            extras,
        )
    }

    /// A word in two fields scores above the word in one, below twice that, and a
    /// heavier field wins over a lighter one.
    #[test]
    fn fields_sum_before_saturation() {
        let (searcher, title, body) = title_and_body(&[
            ("ocean", "ocean"),
            ("ocean", "sky"),
            ("sky", "ocean"),
            ("sky", "sky"),
        ]);
        let query = WordQuery::new(
            vec![FieldGroup {
                fields: vec![ocean(title, 3.0, 0.75), ocean(body, 1.0, 0.75)],
                weight: 1.0,
            }],
            Vec::new(),
        );
        let top = searcher
            .search(&query, &TopDocs::with_limit(10).order_by_score())
            .unwrap();
        let score_of = |doc: u32| {
            top.iter()
                .find(|(_, address)| address.doc_id == doc)
                .map(|(score, _)| *score)
                .unwrap()
        };
        assert_eq!(top.len(), 3);
        assert!(score_of(0) > score_of(1));
        assert!(score_of(0) < 2.0 * score_of(1));
        assert!(score_of(1) > score_of(2));
    }

    /// Groups saturate apart and add up: each group's score is computed here from the
    /// formula (idf from the group's largest document frequency), for a word in fields of
    /// two groups, reached both by advancing and by seeking.
    #[test]
    fn groups_saturate_apart_and_add_up_when_advancing_and_seeking() {
        // (title, body, expected title tf, expected body tf)
        let docs = [
            ("ocean", "ocean ocean", 1.0, 2.0),
            ("ocean", "sky", 1.0, 0.0),
            ("sky", "ocean", 0.0, 1.0),
            ("sky", "sky", 0.0, 0.0),
            ("ocean ocean ocean", "ocean", 3.0, 1.0),
        ];
        let texts: Vec<(&str, &str)> = docs.iter().map(|(t, b, _, _)| (*t, *b)).collect();
        let (searcher, title, body) = title_and_body(&texts);
        // b = 0: a field's frequency is only weighted, never length-normalised.
        let query = title_and_body_groups(title, body, Vec::new());
        let n = docs.len() as f64;
        let idf = |df: f64| (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
        let saturate = |tf: f64| if tf > 0.0 { 2.2 * tf / (1.2 + tf) } else { 0.0 };
        // Both fields hold "ocean" in three documents.
        let expected = |title_tf: f64, body_tf: f64| {
            idf(3.0) * saturate(2.0 * title_tf) + 0.5 * idf(3.0) * saturate(body_tf)
        };
        let weight = query
            .weight(EnableScoring::enabled_from_searcher(&searcher))
            .unwrap();
        let segment = searcher.segment_reader(0);
        let mut scorer = weight.scorer(segment, 1.0).unwrap();
        let mut advanced = Vec::new();
        while scorer.doc() != TERMINATED {
            advanced.push((scorer.doc(), scorer.score()));
            scorer.advance();
        }
        let matching: Vec<u32> = (0..docs.len() as u32)
            .filter(|&d| docs[d as usize].2 + docs[d as usize].3 > 0.0)
            .collect();
        assert_eq!(
            advanced.iter().map(|(d, _)| *d).collect::<Vec<_>>(),
            matching
        );
        for (doc, score) in advanced {
            let (_, _, t, b) = docs[doc as usize];
            let want = expected(t, b);
            assert!(
                (f64::from(score) - want).abs() < 1e-4,
                "doc {doc}: {score} {want}"
            );
        }
        for target in [1, 3] {
            let mut scorer = weight.scorer(segment, 1.0).unwrap();
            let doc = scorer.seek(target);
            // doc 3 matches nothing: the seek lands on the next match.
            let found = if target == 3 { 4 } else { target };
            assert_eq!(doc, found);
            let (_, _, t, b) = docs[doc as usize];
            assert!((f64::from(scorer.score()) - expected(t, b)).abs() < 1e-4);
            assert_eq!(scorer.advance(), if found == 4 { TERMINATED } else { 2 });
        }
    }

    /// Over documents spanning several windows, a word in two groups plus an extra (a
    /// term query of another word, added as it is) gives the formula's score on every
    /// matching document, whether reached by advancing, by seeking within a window or by
    /// seeking past it.
    #[test]
    fn windows_of_documents_score_every_match_as_the_formula_when_advancing_and_seeking() {
        let mut builder = Schema::builder();
        let title = builder.add_text_field("title", TEXT);
        let body = builder.add_text_field("body", TEXT);
        let index = Index::create_in_ram(builder.build());
        let mut writer: IndexWriter = index.writer_with_num_threads(1, 50_000_000).unwrap();
        // (title ocean count, body ocean count, body wave count), drawn at random
        let mut next = crate::window::tests::generator();
        let docs: Vec<(usize, usize, usize)> = (0..3 * crate::window::WINDOW as usize + 700)
            .map(|_| {
                let rare = |draw: u64, count: u64| if draw < 3 { count as usize } else { 0 };
                (
                    rare(next(40), 1 + next(2)),
                    rare(next(25), 1 + next(3)),
                    rare(next(60), 1),
                )
            })
            .collect();
        for (t, b, w) in &docs {
            let title_text = format!("{} sky", "ocean ".repeat(*t));
            let body_text = format!("{}{} land", "ocean ".repeat(*b), "wave ".repeat(*w));
            writer
                .add_document(doc!(title => title_text, body => body_text))
                .unwrap();
        }
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        assert_eq!(searcher.segment_readers().len(), 1);
        let wave = TermQuery::new(
            Term::from_field_text(body, "wave"),
            IndexRecordOption::WithFreqs,
        );
        let query = title_and_body_groups(title, body, vec![Box::new(wave.clone())]);
        let enabled = EnableScoring::enabled_from_searcher(&searcher);
        let weight = query.weight(enabled).unwrap();
        let wave_weight = wave.weight(enabled).unwrap();
        let segment = searcher.segment_reader(0);
        let n = docs.len() as f64;
        let df = |f: fn(&(usize, usize, usize)) -> usize| {
            docs.iter().filter(|d| f(d) > 0).count() as f64
        };
        let idf = |df: f64| (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
        let (title_idf, body_idf) = (idf(df(|d| d.0)), idf(df(|d| d.1)));
        let saturate = |tf: f64| if tf > 0.0 { 2.2 * tf / (1.2 + tf) } else { 0.0 };
        let expected = |doc: u32| {
            let (t, b, w) = docs[doc as usize];
            let mut score =
                title_idf * saturate(2.0 * t as f64) + 0.5 * body_idf * saturate(b as f64);
            if w > 0 {
                // tantivy's own BM25 for the extra, read from its scorer
                let mut extra = wave_weight.scorer(segment, 1.0).unwrap();
                assert_eq!(extra.seek(doc), doc);
                score += f64::from(extra.score());
            }
            score
        };
        let matching: Vec<u32> = (0..docs.len() as u32)
            .filter(|&d| docs[d as usize].0 + docs[d as usize].1 + docs[d as usize].2 > 0)
            .collect();
        crate::window::tests::check_scorer(
            || weight.scorer(segment, 1.0).unwrap(),
            &matching,
            expected,
        );
    }
}
