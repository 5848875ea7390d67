//! A deadline checked inside scoring. tantivy has no timeout, and dropping a search's
//! future leaves the core scoring to the end; a request with
//! [`SearchRequest::time_limit`](crate::SearchRequest::time_limit) is instead collected
//! by a loop that looks at the clock every [`CHECK_EVERY`] matches of a segment and,
//! past the deadline, stops iterating and fails the search with
//! [`IndexError::DeadlinePassed`](crate::IndexError::DeadlinePassed).
//!
//! Without a deadline, a segment is collected as tantivy's default does.

use std::time::Instant;

use tantivy::collector::SegmentCollector;
use tantivy::query::Weight;
use tantivy::{COLLECT_BLOCK_BUFFER_LEN, DocId, DocSet, SegmentReader, TERMINATED, TantivyError};

/// Matches scored between two looks at the clock.
const CHECK_EVERY: u32 = 1024;

/// What a segment's collection reports when it stopped at the deadline (tantivy carries
/// it up as its own error; [`is_deadline`] recognises it).
const PASSED: &str = "the search passed its deadline";

fn passed() -> TantivyError {
    TantivyError::SystemError(PASSED.to_owned())
}

/// Whether `error` is a collection stopped at its deadline.
pub(crate) fn is_deadline(error: &TantivyError) -> bool {
    matches!(error, TantivyError::SystemError(message) if message == PASSED)
}

/// Feeds `collector` the matches of `weight` in `reader` (live documents only), with
/// scores when `scoring`, stopping with an error once `deadline` has passed.
pub(crate) fn collect_segment<C: SegmentCollector>(
    collector: &mut C,
    weight: &dyn Weight,
    reader: &SegmentReader,
    scoring: bool,
    deadline: Option<Instant>,
) -> tantivy::Result<()> {
    let alive = reader.alive_bitset();
    let Some(deadline) = deadline else {
        // tantivy's own loops (`collect_segment`'s default).
        return if scoring {
            weight.for_each(reader, &mut |doc, score| {
                if alive.is_none_or(|alive| alive.is_alive(doc)) {
                    collector.collect(doc, score);
                }
            })
        } else {
            weight.for_each_no_score(reader, &mut |docs| {
                for &doc in docs {
                    if alive.is_none_or(|alive| alive.is_alive(doc)) {
                        collector.collect(doc, 0.0);
                    }
                }
            })
        };
    };
    if Instant::now() >= deadline {
        return Err(passed());
    }
    let mut scorer = weight.scorer(reader, 1.0)?;
    if scoring {
        let mut doc = scorer.doc();
        let mut until_check = CHECK_EVERY;
        while doc != TERMINATED {
            if alive.is_none_or(|alive| alive.is_alive(doc)) {
                collector.collect(doc, scorer.score());
            }
            until_check -= 1;
            if until_check == 0 {
                if Instant::now() >= deadline {
                    return Err(passed());
                }
                until_check = CHECK_EVERY;
            }
            doc = scorer.advance();
        }
        return Ok(());
    }
    let mut buffer: [DocId; COLLECT_BLOCK_BUFFER_LEN] = [0; COLLECT_BLOCK_BUFFER_LEN];
    let mut until_check = CHECK_EVERY;
    loop {
        let filled = scorer.fill_buffer(&mut buffer);
        for &doc in &buffer[..filled] {
            if alive.is_none_or(|alive| alive.is_alive(doc)) {
                collector.collect(doc, 0.0);
            }
        }
        if filled < COLLECT_BLOCK_BUFFER_LEN {
            return Ok(());
        }
        until_check = until_check.saturating_sub(COLLECT_BLOCK_BUFFER_LEN as u32);
        if until_check == 0 {
            if Instant::now() >= deadline {
                return Err(passed());
            }
            until_check = CHECK_EVERY;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::is_deadline;
    use tantivy::query::Weight;
    use tantivy::{DocSet, SegmentReader};

    use tantivy::query::{AllQuery, EnableScoring, Explanation, Query, Scorer};
    use tantivy::schema::{FAST, Schema};
    use tantivy::{DocId, Index, Score, Searcher, doc};

    use crate::collector::{PageCollector, ValueSource};
    use crate::error::IndexError;
    use crate::request::SortOrder;

    /// Every document, each taking 100 µs to score: a query that keeps a core busy.
    #[derive(Debug, Clone)]
    struct Slow;

    struct SlowWeight;

    struct SlowScorer(Box<dyn Scorer>);

    impl Query for Slow {
        fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
            let _ = AllQuery.weight(scoring)?;
            Ok(Box::new(SlowWeight))
        }
    }

    impl Weight for SlowWeight {
        fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
            let all = AllQuery.weight(EnableScoring::disabled_from_schema(reader.schema()))?;
            Ok(Box::new(SlowScorer(all.scorer(reader, boost)?)))
        }

        fn explain(&self, _: &SegmentReader, _: DocId) -> tantivy::Result<Explanation> {
            Ok(Explanation::new("slow", 1.0))
        }
    }

    impl DocSet for SlowScorer {
        fn advance(&mut self) -> DocId {
            std::thread::sleep(Duration::from_micros(100));
            self.0.advance()
        }

        fn doc(&self) -> DocId {
            self.0.doc()
        }

        fn size_hint(&self) -> u32 {
            self.0.size_hint()
        }
    }

    impl Scorer for SlowScorer {
        fn score(&mut self) -> Score {
            1.0
        }
    }

    /// 30,000 documents in one segment: three seconds of the slow query's scoring.
    fn searcher() -> Searcher {
        let mut builder = Schema::builder();
        let id_hi = builder.add_u64_field("id_hi", FAST);
        let id_lo = builder.add_u64_field("id_lo", FAST);
        let index = Index::create_in_ram(builder.build());
        let mut writer = index.writer_with_num_threads(1, 50_000_000).unwrap();
        for n in 0..30_000_u64 {
            writer
                .add_document(doc!(id_hi => 0_u64, id_lo => n))
                .unwrap();
        }
        writer.commit().unwrap();
        index.reader().unwrap().searcher()
    }

    fn collector(scoring: bool, deadline: Option<Instant>) -> PageCollector {
        PageCollector {
            order: SortOrder::default(),
            source: if scoring {
                ValueSource::Score
            } else {
                ValueSource::U64("id_lo")
            },
            after: None,
            limit: 10,
            scoring,
            prior: None,
            deadline,
        }
    }

    /// A 3,000-word search term kept a core busy for 3.9 s (tantivy has no timeout,
    /// and dropping the request's future does not stop the scoring): with a deadline,
    /// the scoring loop stops soon after it, scored or not, and the search fails as
    /// `DeadlinePassed`.
    #[test]
    fn scoring_stops_at_the_deadline_instead_of_running_for_seconds() {
        let searcher = searcher();
        for scoring in [true, false] {
            let started = Instant::now();
            let error = searcher
                .search(
                    &Slow,
                    &collector(scoring, Some(started + Duration::from_millis(50))),
                )
                .unwrap_err();
            let stopped_after = started.elapsed();
            assert!(
                matches!(IndexError::from(error), IndexError::DeadlinePassed),
                "scoring {scoring}"
            );
            // At most one round of checks (1,024 documents, about 0.1 s) past it, not
            // the 3 s the whole segment takes.
            assert!(
                stopped_after < Duration::from_millis(1000),
                "scoring {scoring}: stopped after {stopped_after:?}"
            );
        }
        // A deadline already passed stops before any scoring.
        let error = searcher
            .search(&Slow, &collector(true, Some(Instant::now())))
            .unwrap_err();
        assert!(is_deadline(&error));
    }

    /// With a generous deadline, or none, a search collects exactly what tantivy's own
    /// loops collect, deleted documents left out.
    #[test]
    fn a_deadline_not_reached_changes_nothing() {
        let mut builder = Schema::builder();
        let id_hi = builder.add_u64_field("id_hi", FAST);
        let id_lo = builder.add_u64_field("id_lo", FAST | tantivy::schema::INDEXED);
        let index = Index::create_in_ram(builder.build());
        let mut writer = index.writer_with_num_threads(1, 50_000_000).unwrap();
        for n in 0..5_000_u64 {
            writer
                .add_document(doc!(id_hi => 0_u64, id_lo => n))
                .unwrap();
        }
        writer.commit().unwrap();
        writer.delete_term(tantivy::Term::from_field_u64(id_lo, 3));
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        for scoring in [true, false] {
            let unlimited = searcher
                .search(&AllQuery, &collector(scoring, None))
                .unwrap();
            let limited = searcher
                .search(
                    &AllQuery,
                    &collector(scoring, Some(Instant::now() + Duration::from_secs(60))),
                )
                .unwrap();
            assert_eq!(unlimited.total, 4_999);
            assert_eq!(limited.total, unlimited.total);
            let ids = |page: &crate::collector::Page| {
                page.hits.iter().map(|hit| hit.key.id).collect::<Vec<_>>()
            };
            assert_eq!(ids(&limited), ids(&unlimited));
        }
    }
}
