//! Reading a union of document sets a window at a time, as tantivy's buffered union
//! does: each set is drained over the next `WINDOW` documents in its own loop, what it
//! says of each document summed into per-document slots, and the window's matches are
//! then read in order. Per posting, one step of one set's loop, instead of every set
//! being looked at for every matching document.
//!
//! Slots are lent by a per-thread pool and come back to it zeroed, so a scorer made for
//! every segment of every query neither allocates nor clears them.

use std::cell::RefCell;

use tantivy::{DocId, DocSet, Score, TERMINATED};

/// Documents read ahead at a time.
pub const WINDOW: u32 = 4096;
const BUCKETS: usize = WINDOW as usize / 64;
/// Slot arrays a thread keeps for the next scorer.
const POOLED: usize = 32;

thread_local! {
    static POOL: RefCell<Vec<Box<[Score]>>> = const { RefCell::new(Vec::new()) };
}

/// One score slot per document of a window, all zero.
pub struct Slots(Box<[Score]>);

impl Slots {
    pub fn new() -> Slots {
        let pooled = POOL.with(|pool| pool.borrow_mut().pop());
        Slots(pooled.unwrap_or_else(|| vec![0.0; WINDOW as usize].into_boxed_slice()))
    }

    pub fn add(&mut self, delta: usize, value: Score) {
        self.0[delta] += value;
    }

    /// The slot's value, leaving it zero.
    pub fn take(&mut self, delta: usize) -> Score {
        std::mem::take(&mut self.0[delta])
    }
}

impl Drop for Slots {
    /// Back to the pool: the owner has taken every slot it filled (see `Window::clear`).
    fn drop(&mut self) {
        let slots = std::mem::take(&mut self.0);
        if slots.len() == WINDOW as usize {
            debug_assert!(slots.iter().all(|value| *value == 0.0));
            POOL.with(|pool| {
                let mut pool = pool.borrow_mut();
                if pool.len() < POOLED {
                    pool.push(slots);
                }
            });
        }
    }
}

/// Seeks `set` to `target` when it is before it; its document (a set never goes back).
pub fn seek_to<D: DocSet + ?Sized>(set: &mut D, target: DocId) -> DocId {
    let doc = set.doc();
    if doc >= target { doc } else { set.seek(target) }
}

/// Which documents of the current window match and have not been read yet.
pub struct Window {
    start: DocId,
    matches: [u64; BUCKETS],
    /// The bucket being read; `BUCKETS` when the window is read.
    bucket: usize,
}

impl Window {
    pub fn new() -> Window {
        Window {
            start: 0,
            matches: [0; BUCKETS],
            bucket: BUCKETS,
        }
    }

    /// Starts a window at `start`; its end is the first document past it.
    pub fn open(&mut self, start: DocId) -> DocId {
        self.start = start;
        self.bucket = 0;
        start.saturating_add(WINDOW)
    }

    /// Marks `doc` (in the window) as matching; its place in the window.
    pub fn insert(&mut self, doc: DocId) -> usize {
        let delta = (doc - self.start) as usize;
        self.matches[delta / 64] |= 1 << (delta % 64);
        delta
    }

    /// The next match of the window and its place, or `None` when the window is read.
    pub fn pop(&mut self) -> Option<(DocId, usize)> {
        while self.bucket < BUCKETS {
            let bits = self.matches[self.bucket];
            if bits == 0 {
                self.bucket += 1;
                continue;
            }
            self.matches[self.bucket] = bits & (bits - 1);
            let delta = self.bucket * 64 + bits.trailing_zeros() as usize;
            return Some((self.start + delta as DocId, delta));
        }
        None
    }

    /// Marks the documents of `set` before `end` (from its current one) as matching,
    /// giving `each` each one's place and the set on it; whether the set goes on past the
    /// window.
    pub fn drain<D: DocSet + ?Sized>(
        &mut self,
        set: &mut D,
        end: DocId,
        mut each: impl FnMut(usize, &mut D),
    ) -> bool {
        let mut doc = set.doc();
        while doc < end {
            each(self.insert(doc), set);
            doc = set.advance();
        }
        doc != TERMINATED
    }

    /// Whether `target` (after the current document) is in the window.
    pub fn holds(&self, target: DocId) -> bool {
        target.wrapping_sub(self.start) < WINDOW
    }

    /// Drops the matches of the buckets before `target`'s (in the window), giving each
    /// one's place to `clear`; the caller then pops up to `target`.
    pub fn skip_to(&mut self, target: DocId, clear: impl FnMut(usize)) {
        let bucket = (target - self.start) as usize / 64;
        if bucket > self.bucket {
            self.drop_buckets(bucket, clear);
        }
    }

    /// Drops every match not yet read, giving each one's place to `clear`.
    pub fn clear(&mut self, clear: impl FnMut(usize)) {
        self.drop_buckets(BUCKETS, clear);
    }

    fn drop_buckets(&mut self, to: usize, mut clear: impl FnMut(usize)) {
        for bucket in self.bucket..to {
            let mut bits = std::mem::take(&mut self.matches[bucket]);
            while bits != 0 {
                clear(bucket * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
        self.bucket = self.bucket.max(to);
    }
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use tantivy::query::Scorer;

    /// A fixed generator of numbers below `n`.
    pub fn generator() -> impl FnMut(u64) -> u64 {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        move |n| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        }
    }

    /// A scorer from `make` yields exactly `matching`, each with its `expected` score,
    /// when advanced from the start, and lands on the first match at or after each target
    /// when sought by steps of every size (within a bucket, across buckets, past the
    /// window), advancing once after every other seek.
    pub fn check_scorer(
        make: impl Fn() -> Box<dyn Scorer>,
        matching: &[DocId],
        expected: impl Fn(DocId) -> f64,
    ) {
        let close = |scorer: &mut Box<dyn Scorer>, doc: DocId| {
            let (score, want) = (f64::from(scorer.score()), expected(doc));
            assert!((score - want).abs() < 1e-4, "doc {doc}: {score} {want}");
        };
        let mut scorer = make();
        let mut advanced = Vec::new();
        while scorer.doc() != TERMINATED {
            let doc = scorer.doc();
            close(&mut scorer, doc);
            advanced.push(doc);
            scorer.advance();
        }
        assert_eq!(advanced, matching);
        let last = matching.last().copied().unwrap_or(0);
        for step in [1, 5, 63, 64, 65, 700, WINDOW - 1, WINDOW, WINDOW + 900] {
            let mut scorer = make();
            let mut target = 0;
            while target <= last + 1 {
                let found = scorer.seek(target);
                let want = matching.iter().copied().find(|&d| d >= target);
                assert_eq!(
                    found,
                    want.unwrap_or(TERMINATED),
                    "step {step} target {target}"
                );
                if found == TERMINATED {
                    break;
                }
                close(&mut scorer, found);
                if target % 2 == 0 {
                    let after = scorer.advance();
                    let want = matching.iter().copied().find(|&d| d > found);
                    assert_eq!(after, want.unwrap_or(TERMINATED));
                    if after == TERMINATED {
                        break;
                    }
                    close(&mut scorer, after);
                    target = target.max(after);
                }
                target += step;
            }
        }
    }

    #[test]
    fn a_window_reads_its_matches_in_order_and_skips_whole_buckets() {
        let mut window = Window::new();
        assert_eq!(window.open(100), 100 + WINDOW);
        for doc in [4000, 100, 163, 164, 1000] {
            window.insert(doc);
        }
        assert_eq!(window.pop(), Some((100, 0)));
        // 163 is in the first bucket (100..164): only the buckets before 1000's go
        let mut cleared = Vec::new();
        window.skip_to(1000, |delta| cleared.push(delta));
        assert_eq!(cleared, vec![63, 64]);
        assert_eq!(window.pop(), Some((1000, 900)));
        window.clear(|delta| cleared.push(delta));
        assert_eq!(cleared, vec![63, 64, 3900]);
        assert_eq!(window.pop(), None);
        assert!(window.holds(100 + WINDOW - 1));
        assert!(!window.holds(100 + WINDOW));
    }
}
