//! Values read from the store and remembered for a moment, by name: what every request
//! would otherwise read again (a team's blacklist, the account behind an API key), at
//! the cost of a query and a hand-off to a blocking thread each time.
//!
//! A change made through this node forgets at once (the code that makes it calls
//! [`Remembered::forget`] or [`Remembered::forget_all`]). A change made through another
//! node sharing a PostgreSQL store is announced on the value's channel when it commits,
//! and every node listening forgets as soon as it hears it ([`listen`]). While a node
//! listens, it keeps a value for [`KEPT_WHILE_LISTENING`] (a bound for a notification
//! lost without a sign); while it does not (SQLite, whose file another process may
//! write, or a dropped connection), for [`FRESH_FOR`].

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use podlens_store::{Database, Heard};

use crate::error::AppResult;

/// How long a value is used before it is read again, unless the node listens for other
/// nodes' changes.
pub const FRESH_FOR: Duration = Duration::from_secs(1);

/// How long a value is used while the node listens for other nodes' changes.
pub const KEPT_WHILE_LISTENING: Duration = Duration::from_secs(30);

/// What a message heard on the channel forgets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnMessage {
    /// The value the message names.
    Named,
    /// Every value (a change that may touch many, such as a team's plan).
    All,
}

/// Values by name, each with the time it was read.
#[derive(Debug)]
pub struct Remembered<V> {
    values: Mutex<HashMap<String, (Instant, V)>>,
    /// Bumped by every change, so a value read before a change is not kept after it.
    changes: AtomicU64,
    /// Whether other nodes' changes are heard now (see [`listen`]).
    listening: AtomicBool,
    /// Values remembered at most; past this, all are dropped and read again.
    limit: usize,
    on_message: OnMessage,
}

impl<V: Clone> Remembered<V> {
    pub fn new(limit: usize, on_message: OnMessage) -> Remembered<V> {
        Remembered {
            values: Mutex::new(HashMap::new()),
            changes: AtomicU64::new(0),
            listening: AtomicBool::new(false),
            limit,
            on_message,
        }
    }

    fn values(&self) -> MutexGuard<'_, HashMap<String, (Instant, V)>> {
        self.values
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The value of `name` when it was read recently enough: [`KEPT_WHILE_LISTENING`]
    /// ago while other nodes' changes are heard, else [`FRESH_FOR`].
    pub fn cached(&self, name: &str) -> Option<V> {
        let kept_for = if self.is_listening() {
            KEPT_WHILE_LISTENING
        } else {
            FRESH_FOR
        };
        self.values()
            .get(name)
            .filter(|(read_at, _)| read_at.elapsed() < kept_for)
            .map(|(_, value)| value.clone())
    }

    /// The value of `name`, from memory when fresh, else from `read` (called only
    /// then), which is remembered unless something changed while it was read.
    pub async fn get<Read>(&self, name: &str, read: impl FnOnce() -> Read) -> AppResult<V>
    where
        Read: std::future::Future<Output = AppResult<V>>,
    {
        if let Some(value) = self.cached(name) {
            return Ok(value);
        }
        let changes = self.changes.load(Ordering::SeqCst);
        let value = read().await?;
        let mut values = self.values();
        // A change while the value was read may have made it stale: use it, keep it not.
        if self.changes.load(Ordering::SeqCst) == changes {
            if values.len() >= self.limit {
                values.clear();
            }
            values.insert(name.to_owned(), (Instant::now(), value.clone()));
        }
        Ok(value)
    }

    /// Forgets the value of `name`: call it after changing it.
    pub fn forget(&self, name: &str) {
        let mut values = self.values();
        self.changes.fetch_add(1, Ordering::SeqCst);
        values.remove(name);
    }

    /// Forgets every value: call it after a change that may touch many.
    pub fn forget_all(&self) {
        let mut values = self.values();
        self.changes.fetch_add(1, Ordering::SeqCst);
        values.clear();
    }

    /// Whether other nodes' changes are heard now.
    pub fn is_listening(&self) -> bool {
        self.listening.load(Ordering::SeqCst)
    }

    /// Takes what the store's listener heard: a message forgets what it names (or
    /// everything, as `on_message` says); when the listener starts or stops hearing,
    /// everything is forgotten (changes may have been missed in between).
    fn heard(&self, heard: Heard<'_>) {
        match heard {
            Heard::Message(name) => match self.on_message {
                OnMessage::Named => self.forget(name),
                OnMessage::All => self.forget_all(),
            },
            Heard::Listening => {
                self.forget_all();
                self.listening.store(true, Ordering::SeqCst);
            }
            Heard::Deaf => {
                self.listening.store(false, Ordering::SeqCst);
                self.forget_all();
            }
        }
    }
}

/// Hears other nodes' changes on the store's `channel` for as long as `remembered` is
/// used (nothing on SQLite).
pub fn listen<V>(remembered: &Arc<Remembered<V>>, database: &Database, channel: &str)
where
    V: Clone + Send + Sync + 'static,
{
    let remembered = Arc::downgrade(remembered);
    database.listen(channel, move |heard| {
        if let Some(remembered) = remembered.upgrade() {
            remembered.heard(heard);
        }
    });
}

/// Waits (up to 20 s) for `done`: for tests of what other nodes' changes do.
#[cfg(test)]
pub(crate) fn eventually(what: &str, done: impl Fn() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < Duration::from_secs(20), "{what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}
