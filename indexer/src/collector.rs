//! The paging collector: counts every match and keeps the first `limit` hits strictly
//! after the cursor, in the request's order, for one shard.
//!
//! Every match is counted, but a match is only kept when it can still make the page:
//! once `limit` hits are known, a match whose sort value is worse than the last of them
//! cannot, and neither can one whose value comes before the cursor's. Those are
//! dismissed on their value alone.
//!
//! The id fast fields of the tie-break are read only where the tie-break decides: for a
//! match whose value equals the cursor's, for the matches that tie with the last kept
//! value when the kept matches are cut back to `limit`, and for the page's hits at the
//! end. A search sorted by date over documents indexed oldest first keeps almost every
//! match for a while (each is newer than the last kept); reading two ids for each of
//! them was a tenth of an episode search's time at 1M episodes.

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::Column;
use tantivy::{DocAddress, DocId, Score, SegmentOrdinal, SegmentReader};

use crate::ranking::{
    PRIOR_AUTHORITY_SHARE, PRIOR_EPISODE_DECADES, PRIOR_EPISODES_SHARE, PRIOR_RECENCY_DAYS,
    PRIOR_RECENCY_SHARE,
};
use crate::request::SortOrder;
use crate::sort_key::{SortKey, compare, compare_values, f64_key, i64_key};

/// Where a sort value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueSource {
    Score,
    U64(&'static str),
    I64(&'static str),
    F64(&'static str),
    /// The two title-sort words.
    Title,
}

/// One collected hit.
#[derive(Debug, Clone, Copy)]
pub struct Collected {
    pub key: SortKey,
    pub address: DocAddress,
    pub score: Score,
    /// The shard the hit comes from (set when shards are gathered).
    pub shard: usize,
}

/// The hits of one shard (or segment) and its match count.
#[derive(Debug, Default)]
pub struct Page {
    pub total: u64,
    pub hits: Vec<Collected>,
}

/// Collects one page.
#[derive(Debug, Clone)]
pub struct PageCollector {
    pub order: SortOrder,
    pub source: ValueSource,
    pub after: Option<SortKey>,
    pub limit: usize,
    pub scoring: bool,
    /// Podcasts by relevance: each score times the podcast's prior.
    pub prior: Option<Prior>,
    /// Past this instant, collection stops and the search fails
    /// ([`crate::IndexError::DeadlinePassed`]).
    pub deadline: Option<std::time::Instant>,
}

/// A podcast's small, bounded quality prior on its relevance score:
///
/// ```text
/// prior = text quality × (1 + β · (½ authority/100 + ¼ episodes + ¼ recency))
/// episodes = min(1, log10(1 + episode count) / 3)      (1 from 999 episodes)
/// recency  = 1 / (1 + days since the last episode / 180), counted from the
///            catalog's newest episode
/// ```
///
/// A podcast without an authority score counts 0 for it. With β = 0.2 the prior moves a
/// score by at most 20%; keyword-stuffed feeds lose up to 80% (`quality`).
#[derive(Debug, Clone, Copy)]
pub struct Prior {
    pub beta: f32,
    /// Seconds since the epoch of the catalog's newest episode.
    pub newest: i64,
}

struct PriorColumns {
    prior: Prior,
    authority: Column<f64>,
    episodes: Column<u64>,
    last_episode: Column<i64>,
    quality: Column<f64>,
}

impl PriorColumns {
    fn factor(&self, doc: DocId) -> f32 {
        let authority = self.authority.first(doc).unwrap_or(0.0).clamp(0.0, 100.0) / 100.0;
        let episodes = self.episodes.first(doc).map_or(0.0, |count| {
            ((1.0 + count as f64).log10() / PRIOR_EPISODE_DECADES).min(1.0)
        });
        let recency = self.last_episode.first(doc).map_or(0.0, |last| {
            let days = (self.prior.newest - last).max(0) as f64 / 86_400.0;
            1.0 / (1.0 + days / PRIOR_RECENCY_DAYS)
        });
        let quality = self.quality.first(doc).unwrap_or(1.0).clamp(0.0, 1.0);
        let signals = PRIOR_AUTHORITY_SHARE * authority
            + PRIOR_EPISODES_SHARE * episodes
            + PRIOR_RECENCY_SHARE * recency;
        (quality * (1.0 + f64::from(self.prior.beta) * signals)) as f32
    }
}

enum Values {
    Score,
    U64(Column<u64>),
    I64(Column<i64>),
    F64(Column<f64>),
    Title(Column<u64>, Column<u64>),
}

/// A match kept by a segment's collector: its id is read when the tie-break needs it.
#[derive(Debug, Clone, Copy)]
struct Kept {
    value: Option<(u64, u64)>,
    id: Option<(u64, u64)>,
    doc: DocId,
    score: Score,
}

/// The collector of one segment.
pub struct PageSegmentCollector {
    config: PageCollector,
    segment: SegmentOrdinal,
    id_hi: Column<u64>,
    id_lo: Column<u64>,
    values: Values,
    prior: Option<PriorColumns>,
    total: u64,
    kept: Vec<Kept>,
    /// The value of the last hit of a full page, once known: matches with a worse value
    /// cannot make the page.
    worst_kept: Option<Option<(u64, u64)>>,
}

impl Collector for PageCollector {
    type Fruit = Page;
    type Child = PageSegmentCollector;

    fn for_segment(
        &self,
        segment: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<PageSegmentCollector> {
        let fast = reader.fast_fields();
        let values = match self.source {
            ValueSource::Score => Values::Score,
            ValueSource::U64(name) => Values::U64(fast.u64(name)?),
            ValueSource::I64(name) => Values::I64(fast.i64(name)?),
            ValueSource::F64(name) => Values::F64(fast.f64(name)?),
            ValueSource::Title => {
                Values::Title(fast.u64("title_sort_hi")?, fast.u64("title_sort_lo")?)
            }
        };
        let prior = match self.prior {
            Some(prior) if self.source == ValueSource::Score => Some(PriorColumns {
                prior,
                authority: fast.f64("authority_score")?,
                episodes: fast.u64("total_episodes")?,
                last_episode: fast.i64("last_episode_date")?,
                quality: fast.f64("text_quality")?,
            }),
            _ => None,
        };
        Ok(PageSegmentCollector {
            config: self.clone(),
            segment,
            id_hi: fast.u64("id_hi")?,
            id_lo: fast.u64("id_lo")?,
            values,
            prior,
            total: 0,
            kept: Vec::new(),
            worst_kept: None,
        })
    }

    fn requires_scoring(&self) -> bool {
        self.scoring
    }

    fn collect_segment(
        &self,
        weight: &dyn tantivy::query::Weight,
        segment: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<Page> {
        let mut collector = self.for_segment(segment, reader)?;
        crate::deadline::collect_segment(
            &mut collector,
            weight,
            reader,
            self.scoring,
            self.deadline,
        )?;
        Ok(collector.harvest())
    }

    fn merge_fruits(&self, fruits: Vec<Page>) -> tantivy::Result<Page> {
        Ok(merge_pages(&self.order, self.limit, fruits))
    }
}

/// Merges pages of segments or shards into the first `limit` hits overall.
pub fn merge_pages(order: &SortOrder, limit: usize, pages: Vec<Page>) -> Page {
    let mut merged = Page::default();
    for page in pages {
        merged.total += page.total;
        merged.hits.extend(page.hits);
    }
    merged
        .hits
        .sort_unstable_by(|a, b| compare(order, &a.key, &b.key));
    merged.hits.truncate(limit);
    merged
}

impl PageSegmentCollector {
    fn value(&self, doc: DocId, score: Score) -> Option<(u64, u64)> {
        match &self.values {
            Values::Score => Some((f64_key(f64::from(score)), 0)),
            Values::U64(column) => column.first(doc).map(|value| (value, 0)),
            Values::I64(column) => column.first(doc).map(|value| (i64_key(value), 0)),
            Values::F64(column) => column.first(doc).map(|value| (f64_key(value), 0)),
            Values::Title(hi, lo) => Some((
                hi.first(doc).unwrap_or_default(),
                lo.first(doc).unwrap_or_default(),
            )),
        }
    }

    fn id(&self, doc: DocId) -> (u64, u64) {
        (
            self.id_hi.first(doc).unwrap_or_default(),
            self.id_lo.first(doc).unwrap_or_default(),
        )
    }

    /// Reads the ids of `kept` that are not read yet.
    fn read_ids(&self, kept: &mut [Kept]) {
        for entry in kept.iter_mut().filter(|entry| entry.id.is_none()) {
            entry.id = Some(self.id(entry.doc));
        }
    }

    /// Cuts the kept matches back to the first `limit` in the page's order (`limit` ≥ 1),
    /// reading the ids of only those that tie with the last one kept; returns its value.
    fn cut(&mut self, limit: usize) -> Option<(u64, u64)> {
        let order = self.config.order;
        let mut kept = std::mem::take(&mut self.kept);
        kept.select_nth_unstable_by(limit - 1, |a, b| compare_values(&order, a.value, b.value));
        let last = kept[limit - 1].value;
        // Those before the last kept value make the page; of those that tie with it, the
        // first ids fill it.
        let (mut page, mut ties): (Vec<Kept>, Vec<Kept>) = kept
            .into_iter()
            .filter(|entry| compare_values(&order, entry.value, last).is_le())
            .partition(|entry| compare_values(&order, entry.value, last).is_lt());
        self.read_ids(&mut ties);
        ties.sort_unstable_by_key(|entry| entry.id);
        ties.truncate(limit - page.len());
        page.extend(ties);
        self.kept = page;
        last
    }
}

impl SegmentCollector for PageSegmentCollector {
    type Fruit = Page;

    fn collect(&mut self, doc: DocId, score: Score) {
        self.total += 1;
        let score = match &self.prior {
            Some(prior) => score * prior.factor(doc),
            None => score,
        };
        let order = self.config.order;
        let value = self.value(doc, score);
        if let Some(worst) = self.worst_kept
            && compare_values(&order, value, worst) == std::cmp::Ordering::Greater
        {
            return;
        }
        let mut id = None;
        if let Some(after) = &self.config.after {
            match compare_values(&order, value, after.value) {
                std::cmp::Ordering::Less => return,
                std::cmp::Ordering::Equal => {
                    let read = self.id(doc);
                    if read <= after.id {
                        return;
                    }
                    id = Some(read);
                }
                std::cmp::Ordering::Greater => {}
            }
        }
        self.kept.push(Kept {
            value,
            id,
            doc,
            score,
        });
        let limit = self.config.limit.max(1);
        if self.kept.len() >= limit * 2 + 64 {
            self.worst_kept = Some(self.cut(limit));
        }
    }

    fn harvest(mut self) -> Page {
        let order = self.config.order;
        // Cut back first, so that only the page's hits (and ties) have ids read.
        let limit = self.config.limit.max(1);
        if self.kept.len() > limit {
            self.cut(limit);
        }
        let mut kept = std::mem::take(&mut self.kept);
        self.read_ids(&mut kept);
        let mut hits: Vec<Collected> = kept
            .into_iter()
            .map(|entry| Collected {
                key: SortKey {
                    value: entry.value,
                    id: entry.id.unwrap_or_default(),
                },
                address: DocAddress::new(self.segment, entry.doc),
                score: entry.score,
                shard: 0,
            })
            .collect();
        hits.sort_unstable_by(|a, b| compare(&order, &a.key, &b.key));
        hits.truncate(self.config.limit);
        Page {
            total: self.total,
            hits,
        }
    }
}

/// The benchmarks' deterministic generator, for the tests' ids.
#[cfg(test)]
#[allow(dead_code)]
#[path = "../../benches/search/random.rs"]
mod random;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::{NullOrder, SortDirection, SortField};
    use tantivy::query::TermQuery;
    use tantivy::schema::{FAST, IndexRecordOption, Schema, TEXT};
    use tantivy::{Index, Term, doc};

    use super::random::Random;

    /// 3,000 documents whose scores take only three values (one word, once or twice or
    /// three times, in texts of one length), with ids in no particular order and only 8
    /// first words of ids among them: each page of 10 is the first 10 by score, then id,
    /// of those after the cursor, as a sort of all the documents says.
    #[test]
    fn pages_of_tied_scores_follow_the_ids_as_a_full_sort_does() {
        let mut builder = Schema::builder();
        let body = builder.add_text_field("body", TEXT);
        let id_hi = builder.add_u64_field("id_hi", FAST);
        let id_lo = builder.add_u64_field("id_lo", FAST);
        let index = Index::create_in_ram(builder.build());
        let mut writer = index.writer_with_num_threads(1, 50_000_000).unwrap();
        // Ids with no relation to document order.
        let mut random = Random::new(0);
        let texts = ["word filler filler", "word word filler", "word word word"];
        let mut docs = Vec::new();
        for n in 0..3000 {
            // Ids share their first word with many others, so the second often decides.
            let id = (random.below(8), random.next());
            let text = texts[n % 3];
            writer
                .add_document(doc!(body => text, id_hi => id.0, id_lo => id.1))
                .unwrap();
            docs.push((n % 3, id));
        }
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let query = TermQuery::new(
            Term::from_field_text(body, "word"),
            IndexRecordOption::WithFreqs,
        );
        let order = SortOrder {
            field: SortField::Relevance,
            direction: SortDirection::Desc,
            nulls: NullOrder::Last,
        };
        // Expected: more occurrences first, then ids in ascending order.
        docs.sort_by(|(a, a_id), (b, b_id)| b.cmp(a).then(a_id.cmp(b_id)));
        let expected: Vec<(u64, u64)> = docs.iter().map(|(_, id)| *id).collect();
        let collector = PageCollector {
            order,
            source: ValueSource::Score,
            after: None,
            limit: 10,
            scoring: true,
            prior: None,
            deadline: None,
        };
        let seen = first_pages(&searcher, &query, collector, 20);
        assert_eq!(seen, expected[..200]);
    }

    /// The ids of the first `pages` pages of `collector` (each full, of 3,000 matches),
    /// each after the last hit of the one before.
    fn first_pages(
        searcher: &tantivy::Searcher,
        query: &TermQuery,
        mut collector: PageCollector,
        pages: usize,
    ) -> Vec<(u64, u64)> {
        let mut seen = Vec::new();
        for _ in 0..pages {
            let page = searcher.search(query, &collector).unwrap();
            assert_eq!(page.total, 3000);
            assert_eq!(page.hits.len(), collector.limit);
            seen.extend(page.hits.iter().map(|hit| hit.key.id));
            collector.after = page.hits.last().map(|hit| hit.key);
        }
        seen
    }

    /// Dates that rise with the document order (as a feed's episodes are indexed), seven
    /// documents to a date and every eleventh undated, with ids in no particular order:
    /// in both directions and with undated documents first and last, each page of 10 is
    /// the first 10 of a sort of all the documents by date, then id, after the cursor.
    #[test]
    fn pages_by_a_date_that_rises_with_the_documents_follow_a_full_sort() {
        let mut builder = Schema::builder();
        let body = builder.add_text_field("body", TEXT);
        let date = builder.add_i64_field("date", FAST);
        let id_hi = builder.add_u64_field("id_hi", FAST);
        let id_lo = builder.add_u64_field("id_lo", FAST);
        let index = Index::create_in_ram(builder.build());
        let mut writer = index.writer_with_num_threads(1, 50_000_000).unwrap();
        let mut random = Random::new(1);
        let mut docs = Vec::new();
        for n in 0..3000_i64 {
            let id = (random.below(4), random.next());
            let mut document = doc!(body => "word", id_hi => id.0, id_lo => id.1);
            let dated = (n % 11 != 0).then_some(1_600_000_000 + n / 7 * 86_400);
            if let Some(seconds) = dated {
                document.add_i64(date, seconds);
            }
            writer.add_document(document).unwrap();
            docs.push((dated, id));
        }
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let query = TermQuery::new(
            Term::from_field_text(body, "word"),
            IndexRecordOption::Basic,
        );
        for (direction, nulls) in [
            (SortDirection::Desc, NullOrder::Last),
            (SortDirection::Desc, NullOrder::First),
            (SortDirection::Asc, NullOrder::Last),
        ] {
            let mut expected = docs.clone();
            expected.sort_by(|(a, a_id), (b, b_id)| {
                let by_date = match (a, b) {
                    (Some(a), Some(b)) if direction == SortDirection::Desc => b.cmp(a),
                    (Some(a), Some(b)) => a.cmp(b),
                    (None, None) => std::cmp::Ordering::Equal,
                    (None, Some(_)) if nulls == NullOrder::First => std::cmp::Ordering::Less,
                    (None, Some(_)) => std::cmp::Ordering::Greater,
                    (Some(_), None) if nulls == NullOrder::First => std::cmp::Ordering::Greater,
                    (Some(_), None) => std::cmp::Ordering::Less,
                };
                by_date.then(a_id.cmp(b_id))
            });
            let order = SortOrder {
                field: SortField::RecentActivity,
                direction,
                nulls,
            };
            let collector = PageCollector {
                order,
                source: ValueSource::I64("date"),
                after: None,
                limit: 10,
                scoring: false,
                prior: None,
                deadline: None,
            };
            let seen = first_pages(&searcher, &query, collector, 40);
            let expected: Vec<(u64, u64)> = expected.iter().map(|(_, id)| *id).collect();
            assert_eq!(seen, expected[..400], "{direction:?} {nulls:?}");
        }
    }
}
