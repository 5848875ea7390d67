//! Calls of capped counters (a plan's searches, AI assists, exports, …), charged in
//! memory against reservations taken from the store, so a call waits on the store only
//! when its node's reservation runs out, and a cap holds exactly across calls and
//! nodes.
//!
//! - **Reservations.** A node reserves a block of a subject's window in the store
//!   (`usage_leases`): the store grants it only while what is written plus what every
//!   live reservation holds stays within the limit, so the calls all nodes grant from
//!   their reservations never pass it. A block is small at first and doubles each time
//!   a busy caller uses one up (up to [`LARGEST_BLOCK`]); near the limit the store
//!   grants half of what is left, then the last few one at a time.
//! - **Batches.** Every [`FLUSH_INTERVAL`] a node writes the calls it granted, in one
//!   transaction that also moves them out of its reservations and renews those. A
//!   reservation no call used since the last batch is given back.
//! - **Crashes.** A reservation not renewed for [`LEASE_TIME`] is taken for a dead
//!   node's: it no longer counts, and what it held is free again. The calls that node
//!   granted and had not written are never charged: a crash loses at most one interval
//!   of counts, in the user's favour, and never lets a call past the cap. A node whose
//!   store stops answering stops granting from its reservation a few seconds before
//!   the store would free it ([`CLOCK_MARGIN`]; nodes' clocks are assumed to agree
//!   within that), and drops the calls it could not write.
//! - **What a call reports.** Each reserved use has its place in the window (the first
//!   of a block comes after everything written or held when it was reserved), and a
//!   granted call reports its place: its count in the window. After a node gives unused
//!   places back, another node's later block can report a place already reported;
//!   the cap itself does not depend on it.
//! - **Near the cap.** Once the store grants less than a node asked for, that node
//!   gives back what it has not used with every batch; any other reservation goes back
//!   with the first batch after a whole interval it was not used in. A call refused
//!   while other nodes hold part of the window is asked again every
//!   [`RETRY_REFUSED_EVERY`] for up to [`RETRY_REFUSED_FOR`], until it is granted or no
//!   other node holds any (the API does this), so the last uses of a window go to
//!   whichever node is asked for them, and a caller is not refused while uses are left.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use chrono::NaiveDate;

use crate::accounts::{AccountStore, UsageCounter, UsagePool, UsageSubject, UsageWindow};
use crate::error::AppResult;

/// How often granted calls are written and reservations renewed.
pub const FLUSH_INTERVAL: Duration = super::meter::FLUSH_INTERVAL;

/// How often a caller refused while other nodes hold part of the window asks again.
pub const RETRY_REFUSED_EVERY: Duration =
    Duration::from_millis(FLUSH_INTERVAL.as_millis() as u64 / 2);

/// How long a caller refused while other nodes hold part of the window goes on asking:
/// a reservation still in use goes back with the second batch after its last use, and
/// two more intervals allow for nodes whose batches run late (a busy machine).
pub const RETRY_REFUSED_FOR: Duration =
    Duration::from_millis(FLUSH_INTERVAL.as_millis() as u64 * 4);

/// How long a reservation lasts in the store without being renewed.
pub const LEASE_TIME: Duration = Duration::from_secs(10);

/// How much sooner than the store a node stops granting from a reservation it could
/// not renew: time spent reaching the store, and clocks that disagree.
pub const CLOCK_MARGIN: Duration = Duration::from_secs(3);

/// The first block a node reserves for a subject.
pub const FIRST_BLOCK: u64 = 4;

/// The largest block a node reserves at once.
pub const LARGEST_BLOCK: u64 = 256;

/// The result of charging a capped call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consumption {
    /// Charged; `used` is the call's place in the window.
    Granted { used: u64 },
    /// Not charged: `used` of `limit` are written or reserved, `elsewhere` of them by
    /// other nodes (which give back what they do not use within about a second).
    Refused {
        used: u64,
        limit: u64,
        elsewhere: u64,
    },
}

/// A node's request for part of a capped counter's window of a pool (a team's members
/// share their team's).
#[derive(Debug)]
pub struct LeaseRequest<'a> {
    pub node: &'a str,
    pub pool: &'a UsagePool,
    pub counter: UsageCounter,
    pub window: UsageWindow,
    pub today: NaiveDate,
    pub limit: u64,
    pub want: u64,
    /// The node holds nothing of this window that it will use: whatever the store
    /// still holds for it is dropped first.
    pub fresh: bool,
    /// The node's clock, Unix milliseconds.
    pub now_ms: i64,
    pub expires_at_ms: i64,
}

/// What the store granted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reservation {
    /// Uses granted (0: the window is used up, or held by other nodes).
    pub granted: u64,
    /// The place of the first granted use in the window.
    pub first: u64,
    /// Uses written or reserved in the window, this grant included.
    pub taken: u64,
    /// Uses other nodes' live reservations hold (used and not yet written, or free).
    pub elsewhere: u64,
}

/// How many of `want` uses a reservation gets when `taken` of `limit` are written or
/// held: at most half of what is left, and at least one while any is.
pub fn grant(limit: u64, taken: u64, want: u64) -> u64 {
    let left = limit.saturating_sub(taken);
    if left == 0 {
        return 0;
    }
    want.max(1).min((left / 2).max(1))
}

/// What one node writes of one reservation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settlement {
    pub pool: UsagePool,
    pub counter: UsageCounter,
    /// The window's first day.
    pub first_day: NaiveDate,
    /// The calls granted from it and not yet written, by caller and day.
    pub days: Vec<Pending>,
    /// Unused uses given back.
    pub give_back: u64,
    /// The reservation ends (the node gives back all it did not use).
    pub end: bool,
}

/// Calls granted to one caller on one day and not yet written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    pub subject: UsageSubject,
    pub day: NaiveDate,
    pub amount: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct LeaseKey {
    pool: UsagePool,
    counter: UsageCounter,
    first_day: NaiveDate,
}

impl LeaseKey {
    /// The window `call` is charged to: its pool's.
    fn of(call: &CappedCall) -> LeaseKey {
        LeaseKey {
            pool: call.subject.pool(),
            counter: call.counter,
            first_day: call.window.bounds(call.today).0,
        }
    }
}

/// One call of a capped counter: whose, which counter and window, the window's limit
/// and the day it is made.
#[derive(Debug, Clone)]
pub struct CappedCall {
    pub subject: UsageSubject,
    pub counter: UsageCounter,
    pub window: UsageWindow,
    pub limit: u64,
    pub today: NaiveDate,
}

/// This node's reservation of one window.
#[derive(Debug)]
struct Lease {
    limit: u64,
    /// The place of the next use, and one past the last reserved.
    next: u64,
    end: u64,
    /// The block asked for last.
    block: u64,
    /// The store granted less than that: the window is near its limit, and the
    /// unused part goes back with every batch for other nodes to use.
    short: bool,
    /// Until when this node grants from it without renewing.
    valid_until: Instant,
    /// Calls granted and not yet written, by caller and day.
    pending: Vec<Pending>,
    give_back: u64,
    used_since_flush: bool,
}

impl Lease {
    fn free(&self) -> u64 {
        self.end.saturating_sub(self.next)
    }

    fn take(&mut self, subject: &UsageSubject, today: NaiveDate) -> u64 {
        let place = self.next;
        self.next += 1;
        self.used_since_flush = true;
        add_pending(
            &mut self.pending,
            Pending {
                subject: subject.clone(),
                day: today,
                amount: 1,
            },
        );
        place
    }

    /// Stops granting from the unused part, to give it back with the next batch.
    fn stop(&mut self) {
        self.give_back += self.free();
        self.next = self.end;
    }
}

fn add_pending(pending: &mut Vec<Pending>, calls: Pending) {
    match pending
        .iter_mut()
        .find(|known| known.day == calls.day && known.subject == calls.subject)
    {
        Some(known) => known.amount += calls.amount,
        None => pending.push(calls),
    }
}

fn unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| {
            i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
        })
}

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// This node's reservations of capped windows.
pub struct Quotas {
    accounts: Arc<dyn AccountStore>,
    /// This process among the nodes sharing the store.
    node: String,
    lease_time: Duration,
    margin: Duration,
    leases: Mutex<HashMap<LeaseKey, Lease>>,
    /// Serialises reservations and batches.
    turn: tokio::sync::Mutex<()>,
}

impl std::fmt::Debug for Quotas {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Quotas")
            .field("node", &self.node)
            .finish_non_exhaustive()
    }
}

impl Quotas {
    pub fn new(accounts: Arc<dyn AccountStore>) -> Quotas {
        Quotas::with_lease_time(accounts, LEASE_TIME, CLOCK_MARGIN)
    }

    /// With reservations lasting `lease_time` in the store, of which this node uses
    /// `lease_time - margin`.
    pub fn with_lease_time(
        accounts: Arc<dyn AccountStore>,
        lease_time: Duration,
        margin: Duration,
    ) -> Quotas {
        Quotas {
            accounts,
            node: uuid::Uuid::new_v4().simple().to_string(),
            lease_time,
            margin: margin.min(lease_time),
            leases: Mutex::new(HashMap::new()),
            turn: tokio::sync::Mutex::new(()),
        }
    }

    fn leases(&self) -> MutexGuard<'_, HashMap<LeaseKey, Lease>> {
        self.leases
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Charges `call` from this node's reservation, without waiting: its place in the
    /// window, or `None` when the reservation is used up or missing (then
    /// [`Quotas::charge_reserving`]).
    pub fn try_charge(&self, call: &CappedCall) -> Option<u64> {
        let key = LeaseKey::of(call);
        let mut leases = self.leases();
        let lease = leases.get_mut(&key)?;
        if lease.limit != call.limit || lease.free() == 0 || Instant::now() >= lease.valid_until {
            return None;
        }
        Some(lease.take(&call.subject, call.today))
    }

    /// Charges `call` as [`Quotas::try_charge`] does, reserving a new block from the
    /// store first when needed, or refuses it when the window is used up.
    pub async fn charge_reserving(&self, call: &CappedCall) -> AppResult<Consumption> {
        let CappedCall {
            subject,
            counter,
            window,
            limit,
            today,
        } = call;
        let (counter, window, limit, today) = (*counter, *window, *limit, *today);
        let _turn = self.turn.lock().await;
        let key = LeaseKey::of(call);
        let (want, fresh) = {
            let mut leases = self.leases();
            let now = Instant::now();
            match leases.get_mut(&key) {
                Some(lease) if now >= lease.valid_until => {
                    // Not renewed in time: the store may free it for others at any
                    // moment, so its calls not written are dropped with it.
                    leases.remove(&key);
                    (FIRST_BLOCK, true)
                }
                Some(lease) if lease.limit != limit => {
                    lease.stop();
                    lease.limit = limit;
                    (FIRST_BLOCK, false)
                }
                Some(lease) if lease.free() > 0 => {
                    return Ok(Consumption::Granted {
                        used: lease.take(subject, today),
                    });
                }
                Some(lease) => ((lease.block * 2).min(LARGEST_BLOCK), false),
                None => (FIRST_BLOCK, true),
            }
        };
        let started = Instant::now();
        let now_ms = unix_ms();
        let reservation = self
            .accounts
            .reserve_usage(&LeaseRequest {
                node: &self.node,
                pool: &key.pool,
                counter,
                window,
                today,
                limit,
                want,
                fresh,
                now_ms,
                expires_at_ms: now_ms.saturating_add(millis(self.lease_time)),
            })
            .await?;
        if reservation.granted == 0 {
            return Ok(Consumption::Refused {
                used: reservation.taken.max(limit),
                limit,
                elsewhere: reservation.elsewhere,
            });
        }
        let valid_until = started + (self.lease_time - self.margin);
        let mut leases = self.leases();
        let lease = leases.entry(key).or_insert_with(|| Lease {
            limit,
            next: 0,
            end: 0,
            block: 0,
            short: false,
            valid_until,
            pending: Vec::new(),
            give_back: 0,
            used_since_flush: false,
        });
        lease.limit = limit;
        lease.block = want;
        lease.short = reservation.granted < want;
        lease.next = reservation.first;
        lease.end = reservation.first + reservation.granted;
        lease.valid_until = valid_until;
        Ok(Consumption::Granted {
            used: lease.take(subject, today),
        })
    }

    /// Writes the calls granted since the last batch and renews the reservations they
    /// came from, in one transaction; a reservation no call used since the
    /// last batch is given back. Returns how many calls were written. When the store
    /// refuses the batch, its calls wait for the next one (while their reservation
    /// lasts).
    pub async fn flush(&self) -> AppResult<u64> {
        self.settle(false).await
    }

    /// Writes what [`Quotas::flush`] writes and gives every reservation back (a
    /// stopping node).
    pub async fn close(&self) -> AppResult<u64> {
        self.settle(true).await
    }

    async fn settle(&self, closing: bool) -> AppResult<u64> {
        let _turn = self.turn.lock().await;
        let started = Instant::now();
        let mut keys = Vec::new();
        let mut settlements = Vec::new();
        {
            let mut leases = self.leases();
            // Not renewed in time: dropped with their calls not written.
            leases.retain(|_, lease| started < lease.valid_until);
            for (key, lease) in leases.iter_mut() {
                let end = closing || lease.short || !lease.used_since_flush;
                if end {
                    lease.stop();
                }
                lease.used_since_flush = false;
                settlements.push(Settlement {
                    pool: key.pool.clone(),
                    counter: key.counter,
                    first_day: key.first_day,
                    days: std::mem::take(&mut lease.pending),
                    give_back: std::mem::take(&mut lease.give_back),
                    end,
                });
                keys.push(key.clone());
            }
        }
        if settlements.is_empty() {
            return Ok(0);
        }
        let now_ms = unix_ms();
        let result = self
            .accounts
            .settle_usage(
                &self.node,
                &settlements,
                now_ms,
                now_ms.saturating_add(millis(self.lease_time)),
            )
            .await;
        let mut leases = self.leases();
        let live = match result {
            Ok(live) => live,
            Err(error) => {
                for (key, settlement) in keys.iter().zip(settlements) {
                    if let Some(lease) = leases.get_mut(key) {
                        for calls in settlement.days {
                            add_pending(&mut lease.pending, calls);
                        }
                        lease.give_back += settlement.give_back;
                    }
                }
                return Err(error);
            }
        };
        let valid_until = started + (self.lease_time - self.margin);
        let mut written = 0;
        for ((key, settlement), live) in keys.iter().zip(&settlements).zip(live) {
            if live {
                written += settlement
                    .days
                    .iter()
                    .map(|calls| calls.amount)
                    .sum::<u64>();
            }
            if settlement.end || !live {
                // Given back, or no longer in the store (it expired there).
                leases.remove(key);
            } else if let Some(lease) = leases.get_mut(key) {
                lease.valid_until = valid_until;
            }
        }
        Ok(written)
    }

    /// Calls granted and not yet written.
    pub fn pending(&self) -> u64 {
        self.leases()
            .values()
            .flat_map(|lease| lease.pending.iter().map(|calls| calls.amount))
            .sum()
    }
}

/// Flushes `quotas` every [`FLUSH_INTERVAL`] until the runtime stops.
pub fn spawn_flusher(quotas: Arc<Quotas>) {
    super::spawn_periodic_flush("capped usage counts", FLUSH_INTERVAL, move || {
        let quotas = quotas.clone();
        async move { quotas.flush().await }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::SqlAccountStore;
    use crate::accounts::test_user as user;
    use crate::runtime::block_on_own_thread as block;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2025, 3, 4).unwrap()
    }

    /// One call charged as the API charges it: from the reservation, else reserving.
    fn search_call(subject: &UsageSubject, limit: u64) -> CappedCall {
        CappedCall {
            subject: subject.clone(),
            counter: UsageCounter::Search,
            window: UsageWindow::Month,
            limit,
            today: today(),
        }
    }

    fn charge(quotas: &Quotas, subject: &UsageSubject, limit: u64) -> Consumption {
        let call = search_call(subject, limit);
        match quotas.try_charge(&call) {
            Some(used) => Consumption::Granted { used },
            None => block(quotas.charge_reserving(&call)).unwrap(),
        }
    }

    fn granted(outcome: Consumption) -> Option<u64> {
        match outcome {
            Consumption::Granted { used } => Some(used),
            Consumption::Refused { .. } => None,
        }
    }

    fn stored(store: &SqlAccountStore, subject: &UsageSubject) -> u64 {
        block(store.used(subject, UsageCounter::Search, UsageWindow::Month, today())).unwrap()
    }

    #[test]
    fn one_node_grants_exactly_the_limit_in_order_and_writes_it() {
        let store = Arc::new(SqlAccountStore::for_tests().unwrap());
        let quotas = Quotas::new(store.clone());
        let subject = user("u1");
        let outcomes: Vec<Consumption> = (0..60).map(|_| charge(&quotas, &subject, 50)).collect();
        let places: Vec<u64> = outcomes.iter().filter_map(|&o| granted(o)).collect();
        assert_eq!(places, (1..=50).collect::<Vec<u64>>());
        assert!(
            outcomes[50..].iter().all(|&o| o
                == Consumption::Refused {
                    used: 50,
                    limit: 50,
                    elsewhere: 0
                }),
            "{:?}",
            &outcomes[50..]
        );
        assert_eq!(stored(&store, &subject), 0, "written in batches");
        assert_eq!(block(quotas.flush()).unwrap(), 50);
        assert_eq!(stored(&store, &subject), 50);
        assert_eq!(quotas.pending(), 0);
    }

    /// Three nodes charging one subject from four threads each: the calls granted in
    /// all are the limit, and all of them are written.
    #[test]
    fn concurrent_calls_through_three_nodes_stop_at_the_limit() {
        let store = Arc::new(SqlAccountStore::for_tests().unwrap());
        let nodes: Vec<Arc<Quotas>> = (0..3)
            .map(|_| Arc::new(Quotas::new(store.clone())))
            .collect();
        let subject = user("u1");
        let threads: Vec<_> = (0..12)
            .map(|thread| {
                let (quotas, subject) = (nodes[thread % 3].clone(), subject.clone());
                std::thread::spawn(move || {
                    (0..40)
                        .filter_map(|call| {
                            if call % 15 == 14 {
                                block(quotas.flush()).unwrap();
                            }
                            granted(charge(&quotas, &subject, 300))
                        })
                        .collect::<Vec<u64>>()
                })
            })
            .collect();
        let mut places: Vec<u64> = threads
            .into_iter()
            .flat_map(|thread| thread.join().unwrap())
            .collect();
        // Near the end, a node is refused while the others still hold some of the
        // window; within two batches they have given back what they do not use (near
        // the limit with the first, idle with the second), and it goes to whoever asks.
        for _ in 0..2 {
            for quotas in &nodes {
                block(quotas.flush()).unwrap();
            }
        }
        places.extend((0..300).filter_map(|_| granted(charge(&nodes[0], &subject, 300))));
        assert_eq!(places.len(), 300, "more asked, 300 allowed");
        // Places reported by different nodes can repeat once a node gave some back,
        // but none is past the limit.
        assert!(places.iter().all(|place| (1..=300).contains(place)));
        for quotas in &nodes {
            block(quotas.flush()).unwrap();
        }
        assert_eq!(stored(&store, &subject), 300);
    }

    /// Usage used to be capped per user while limits are the team's: five members of a
    /// team got five times its searches. Two members of one team, each calling from
    /// two threads through two nodes, share the team's limit exactly; each member's
    /// calls are written on their own rows, and a member of another team is not held
    /// back by them.
    #[test]
    fn members_of_a_team_share_its_cap_across_nodes() {
        let store = Arc::new(SqlAccountStore::for_tests().unwrap());
        let nodes: Vec<Arc<Quotas>> = (0..2)
            .map(|_| Arc::new(Quotas::new(store.clone())))
            .collect();
        let member = |user: &str| UsageSubject::User {
            user_id: user.into(),
            team_id: "team-a".into(),
        };
        let (ann, bob) = (member("ann"), member("bob"));
        // Each member is granted one call first: which member's threads run first is the
        // scheduler's choice, and one member's could take the whole cap.
        let mut granted_calls = [&ann, &bob]
            .into_iter()
            .filter(|subject| granted(charge(&nodes[0], subject, 50)).is_some())
            .count();
        assert_eq!(granted_calls, 2);
        let threads: Vec<_> = (0..4)
            .map(|thread| {
                let quotas = nodes[thread % 2].clone();
                let subject = if thread < 2 { ann.clone() } else { bob.clone() };
                std::thread::spawn(move || {
                    (0..30)
                        .filter(|call| {
                            if call % 10 == 9 {
                                block(quotas.flush()).unwrap();
                            }
                            granted(charge(&quotas, &subject, 50)).is_some()
                        })
                        .count()
                })
            })
            .collect();
        granted_calls += threads
            .into_iter()
            .map(|t| t.join().unwrap())
            .sum::<usize>();
        for _ in 0..2 {
            for quotas in &nodes {
                block(quotas.flush()).unwrap();
            }
        }
        granted_calls += (0..60)
            .filter(|_| granted(charge(&nodes[1], &ann, 50)).is_some())
            .count();
        assert_eq!(
            granted_calls, 50,
            "122 asked by two members, the team's 50 allowed"
        );
        for quotas in &nodes {
            block(quotas.close()).unwrap();
        }
        let (by_ann, by_bob) = (stored(&store, &ann), stored(&store, &bob));
        assert_eq!(by_ann + by_bob, 50);
        assert!(by_bob > 0 && by_ann > 0, "{by_ann} and {by_bob}");
        let other = UsageSubject::User {
            user_id: "cy".into(),
            team_id: "team-b".into(),
        };
        assert_eq!(granted(charge(&nodes[0], &other, 50)), Some(1));
    }

    /// A node that dies holds its reservation until the store lets it expire: then
    /// another node may use what it held, and the calls it never wrote are not
    /// charged.
    #[test]
    fn a_dead_nodes_reservation_expires_and_its_unwritten_calls_are_not_charged() {
        let store = Arc::new(SqlAccountStore::for_tests().unwrap());
        let lease = Duration::from_millis(400);
        let margin = Duration::from_millis(100);
        let subject = user("u1");
        let dead = Quotas::with_lease_time(store.clone(), lease, margin);
        for _ in 0..3 {
            assert!(granted(charge(&dead, &subject, 20)).is_some());
        }
        drop(dead);
        let alive = Quotas::with_lease_time(store.clone(), lease, margin);
        let first: Vec<u64> = (0..20)
            .filter_map(|_| granted(charge(&alive, &subject, 20)))
            .collect();
        assert_eq!(first.len(), 16, "the dead node still holds its block of 4");
        assert_eq!(block(alive.flush()).unwrap(), 16);
        std::thread::sleep(lease + Duration::from_millis(50));
        let later: Vec<u64> = (0..20)
            .filter_map(|_| granted(charge(&alive, &subject, 20)))
            .collect();
        assert_eq!(later.len(), 4, "its block is free again");
        block(alive.flush()).unwrap();
        assert_eq!(
            stored(&store, &subject),
            20,
            "the dead node's 3 calls are lost"
        );
    }

    /// A reservation no call used since the last batch is given back, so another
    /// node can use all that is left.
    #[test]
    fn an_idle_reservation_is_given_back() {
        let store = Arc::new(SqlAccountStore::for_tests().unwrap());
        let (a, b) = (Quotas::new(store.clone()), Quotas::new(store.clone()));
        let subject = user("u1");
        assert_eq!(granted(charge(&a, &subject, 10)), Some(1));
        assert_eq!(block(a.flush()).unwrap(), 1, "used: written and renewed");
        let held: Vec<u64> = (0..10)
            .filter_map(|_| granted(charge(&b, &subject, 10)))
            .collect();
        assert_eq!(held.len(), 6, "a still holds 3 of the 9 left");
        block(b.close()).unwrap();
        assert_eq!(block(a.flush()).unwrap(), 0, "idle: given back");
        let rest: Vec<u64> = (0..10)
            .filter_map(|_| granted(charge(&b, &subject, 10)))
            .collect();
        assert_eq!(rest.len(), 3);
        block(b.close()).unwrap();
        assert_eq!(stored(&store, &subject), 10);
    }

    /// A node whose store stops answering for longer than its reservation lasts stops
    /// granting from it, and drops the calls it could not write: the cap holds.
    #[test]
    fn a_node_cut_off_from_the_store_stops_granting_and_drops_its_calls() {
        let store = Arc::new(SqlAccountStore::for_tests().unwrap());
        let database = store.database().clone();
        let lease = Duration::from_millis(400);
        let margin = Duration::from_millis(100);
        let subject = user("u1");
        let cut_off = Quotas::with_lease_time(store.clone(), lease, margin);
        assert_eq!(granted(charge(&cut_off, &subject, 20)), Some(1));
        let rename = |statement: &'static str| {
            database
                .wait(sqlx::raw_sql(statement).execute(database.pool()))
                .unwrap();
        };
        rename("ALTER TABLE usage_daily RENAME TO usage_gone");
        assert!(block(cut_off.flush()).is_err());
        assert_eq!(cut_off.pending(), 1, "kept for the next batch");
        std::thread::sleep(lease);
        assert_eq!(
            cut_off.try_charge(&search_call(&subject, 20)),
            None,
            "past its time: not granted without the store"
        );
        rename("ALTER TABLE usage_gone RENAME TO usage_daily");
        assert_eq!(block(cut_off.flush()).unwrap(), 0);
        assert_eq!(cut_off.pending(), 0, "dropped");
        let other = Quotas::with_lease_time(store.clone(), lease, margin);
        let granted_there: Vec<u64> = (0..30)
            .filter_map(|_| granted(charge(&other, &subject, 20)))
            .collect();
        assert_eq!(granted_there.len(), 20);
    }
}
