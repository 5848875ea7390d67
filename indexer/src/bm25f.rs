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
use tantivy::schema::IndexRecordOption;
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED, Term};

/// BM25's saturation constant.
pub const K1: Score = 1.2;

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
fn idf(doc_freq: u64, doc_count: u64) -> Score {
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
    fn word_scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<WordScorer> {
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
                });
            }
        }
        let extras = self
            .extras
            .iter()
            .map(|weight| weight.scorer(reader, boost))
            .collect::<tantivy::Result<Vec<_>>>()?;
        let scales = self.groups.iter().map(|g| g.scale * boost).collect();
        Ok(WordScorer::new(cursors, extras, scales, self.scoring))
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
        for (group, weights) in self.groups.iter().enumerate() {
            let mut group_explanation =
                Explanation::new_with_string(format!("group {group}: λ·idf·(k1+1)"), weights.scale);
            for cursor in scorer.cursors.iter().filter(|c| c.group == group) {
                if cursor.postings.doc() == doc {
                    let id = cursor.fieldnorms.fieldnorm_id(doc);
                    let mut detail = Explanation::new_with_string(
                        format!(
                            "tf {} × weight/length normalisation (field length {})",
                            cursor.postings.term_freq(),
                            FieldNormReader::id_to_fieldnorm(id)
                        ),
                        cursor.frequency(doc),
                    );
                    detail.add_context(format!(
                        "field {:?}",
                        reader.schema().get_field_name(
                            weights
                                .fields
                                .first()
                                .map(|f| f.term.field())
                                .unwrap_or(tantivy::schema::Field::from_field_id(0))
                        )
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
}

impl Cursor {
    /// The weighted, length-normalised frequency of the word in `doc`, the document the
    /// cursor is on.
    fn frequency(&self, doc: DocId) -> Score {
        let id = self.fieldnorms.fieldnorm_id(doc);
        self.postings.term_freq() as Score * self.normalised[id as usize]
    }
}

/// The union of a word's fields (and extras), each cursor on its own next document.
pub struct WordScorer {
    cursors: Vec<Cursor>,
    extras: Vec<Box<dyn Scorer>>,
    scales: Vec<Score>,
    scoring: bool,
    doc: DocId,
    /// Per group: the weighted frequency of the current document (scratch).
    frequencies: Vec<Score>,
    /// The scale of the one group every cursor is in, when they all are.
    one_group: Option<Score>,
}

impl WordScorer {
    fn new(
        cursors: Vec<Cursor>,
        extras: Vec<Box<dyn Scorer>>,
        scales: Vec<Score>,
        scoring: bool,
    ) -> WordScorer {
        let groups = scales.len();
        let one_group = match cursors.first() {
            Some(first) if cursors.iter().all(|c| c.group == first.group) => {
                Some(scales[first.group])
            }
            Some(_) => None,
            None => Some(0.0),
        };
        let mut scorer = WordScorer {
            cursors,
            extras,
            scales,
            scoring,
            doc: TERMINATED,
            frequencies: vec![0.0; groups],
            one_group,
        };
        scorer.settle();
        scorer
    }

    /// Drops the cursors and extras that have ended and moves to the smallest document
    /// of the rest.
    fn settle(&mut self) -> DocId {
        self.cursors.retain(|c| c.postings.doc() != TERMINATED);
        self.extras.retain(|e| e.doc() != TERMINATED);
        let cursors = self.cursors.iter().map(|c| c.postings.doc());
        let extras = self.extras.iter().map(|e| e.doc());
        self.doc = cursors.chain(extras).min().unwrap_or(TERMINATED);
        self.doc
    }

    /// Moves every cursor and extra that is before `target` (`seek`) or on the current
    /// document (`advance`, `target` = current + 1) to `target` or past it, and to the
    /// smallest document of all. One pass: the sets that ended are dropped only when one
    /// has (it runs for every matching document).
    fn move_to(&mut self, target: DocId, seek: bool) -> DocId {
        let mut next = TERMINATED;
        let mut ended = false;
        for cursor in &mut self.cursors {
            let doc = move_set(&mut cursor.postings, target, seek);
            ended |= doc == TERMINATED;
            next = next.min(doc);
        }
        for extra in &mut self.extras {
            let doc = move_set(extra.as_mut(), target, seek);
            ended |= doc == TERMINATED;
            next = next.min(doc);
        }
        if ended {
            return self.settle();
        }
        self.doc = next;
        next
    }
}

/// Moves `set` to `target` or past it when it is before `target` (seeking, or advancing
/// when `target` is the next document); its document. A set that has ended is never
/// before a target.
fn move_set<D: DocSet + ?Sized>(set: &mut D, target: DocId, seek: bool) -> DocId {
    let doc = set.doc();
    if doc >= target {
        doc
    } else if seek {
        set.seek(target)
    } else {
        set.advance()
    }
}

impl DocSet for WordScorer {
    fn advance(&mut self) -> DocId {
        if self.doc == TERMINATED {
            return TERMINATED;
        }
        // Every set is on the current document or after it: those on it move one on.
        self.move_to(self.doc + 1, false)
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc >= target {
            return self.doc;
        }
        self.move_to(target, true)
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
        if !self.scoring {
            return 1.0;
        }
        let doc = self.doc;
        let saturate = |scale: Score, tf: Score| {
            if tf > 0.0 {
                scale * tf / (K1 + tf)
            } else {
                0.0
            }
        };
        let mut score = if let Some(scale) = self.one_group {
            // Every field in one group (the usual case): no scratch to clear and sum.
            let mut tf: Score = 0.0;
            for cursor in &self.cursors {
                if cursor.postings.doc() == doc {
                    tf += cursor.frequency(doc);
                }
            }
            saturate(scale, tf)
        } else {
            self.frequencies.iter_mut().for_each(|f| *f = 0.0);
            for cursor in &self.cursors {
                if cursor.postings.doc() == doc {
                    self.frequencies[cursor.group] += cursor.frequency(doc);
                }
            }
            self.frequencies
                .iter()
                .zip(&self.scales)
                .map(|(tf, scale)| saturate(*scale, *tf))
                .sum()
        };
        for extra in &mut self.extras {
            if extra.doc() == doc {
                score += extra.score();
            }
        }
        score
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
        let query = WordQuery::new(
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
            Vec::new(),
        );
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
}
