//! The paging collector: counts every match and keeps the first `limit` hits strictly
//! after the cursor, in the request's order, for one shard.
//!
//! Every match is counted, but a match is only kept when it can still make the page:
//! once `limit` hits are known, a match whose sort value is worse than the last of them
//! cannot, and neither can one whose value comes before the cursor's. Those are
//! dismissed on their value alone, without reading the id fast fields of the tie-break.

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::Column;
use tantivy::{DocAddress, DocId, Score, SegmentOrdinal, SegmentReader};

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
}

enum Values {
    Score,
    U64(Column<u64>),
    I64(Column<i64>),
    F64(Column<f64>),
    Title(Column<u64>, Column<u64>),
}

/// The collector of one segment.
pub struct PageSegmentCollector {
    config: PageCollector,
    segment: SegmentOrdinal,
    id_hi: Column<u64>,
    id_lo: Column<u64>,
    values: Values,
    page: Page,
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
        Ok(PageSegmentCollector {
            config: self.clone(),
            segment,
            id_hi: fast.u64("id_hi")?,
            id_lo: fast.u64("id_lo")?,
            values,
            page: Page::default(),
            worst_kept: None,
        })
    }

    fn requires_scoring(&self) -> bool {
        self.scoring
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
}

impl SegmentCollector for PageSegmentCollector {
    type Fruit = Page;

    fn collect(&mut self, doc: DocId, score: Score) {
        self.page.total += 1;
        let order = self.config.order;
        let value = self.value(doc, score);
        if let Some(worst) = self.worst_kept
            && compare_values(&order, value, worst) == std::cmp::Ordering::Greater
        {
            return;
        }
        if let Some(after) = &self.config.after
            && compare_values(&order, value, after.value) == std::cmp::Ordering::Less
        {
            return;
        }
        let key = SortKey {
            value,
            id: (
                self.id_hi.first(doc).unwrap_or_default(),
                self.id_lo.first(doc).unwrap_or_default(),
            ),
        };
        if let Some(after) = &self.config.after
            && compare(&self.config.order, &key, after) != std::cmp::Ordering::Greater
        {
            return;
        }
        self.page.hits.push(Collected {
            key,
            address: DocAddress::new(self.segment, doc),
            score,
            shard: 0,
        });
        let limit = self.config.limit.max(1);
        if self.page.hits.len() >= limit * 2 + 64 {
            self.page
                .hits
                .select_nth_unstable_by(limit - 1, |a, b| compare(&order, &a.key, &b.key));
            self.page.hits.truncate(limit);
            self.worst_kept = Some(self.page.hits[limit - 1].key.value);
        }
    }

    fn harvest(mut self) -> Page {
        let order = self.config.order;
        self.page
            .hits
            .sort_unstable_by(|a, b| compare(&order, &a.key, &b.key));
        self.page.hits.truncate(self.config.limit);
        self.page
    }
}
