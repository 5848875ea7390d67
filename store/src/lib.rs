//! The application store: users, teams, keys, sessions, usage, projects, alerts and
//! their delivery ledger live in a transactional database reached through one sqlx
//! pool — an embedded SQLite file in the data directory (`app.sqlite3`, WAL, so the
//! CLI and `podlens serve` use it at once) unless a PostgreSQL URL is given, which
//! several `podlens serve` nodes can share.
//!
//! One migration script serves both engines ([`MIGRATOR`]); statements use `$1`-style
//! parameters, which both accept, and only types both decode the same way (text,
//! 64-bit integers, doubles). Times are stored with [`time_text`] and read with
//! [`parse_time`].
//!
//! The pool lives on a small runtime of its own, which keeps PostgreSQL sockets alive
//! whatever runtime — or none — the caller has. Async callers await a query through
//! [`Database::run`]: their own task polls it, inside the store runtime's context, with
//! no thread hop. Synchronous callers (the command line, and the stores not yet async)
//! use [`Database::wait`], which drives a query to completion from any thread.

mod feeds;
mod generations;
mod leader;
mod legacy;
mod notify;
mod time;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::Duration;

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{Any, AnyPool, Transaction};

pub use feeds::{FeedLane, NewFeed, PollOutcome, ScheduleSummary, ScheduledFeed, Subscription};
pub use generations::PublishedGeneration;
pub use leader::Leadership;
pub use legacy::{LEGACY_DATABASE_FILE, LegacyImport, import_legacy};
pub use notify::Heard;
pub use time::{day_text, optional_time_at, parse_day, parse_time, time_at, time_text};

/// File name of the embedded application database inside the data directory.
pub const APP_DATABASE_FILE: &str = "app.sqlite3";

/// The environment variable naming a PostgreSQL database for the application store.
pub const DATABASE_URL_ENV: &str = "PODLENS_DATABASE_URL";

/// The environment variable naming a PostgreSQL server on which [`Database::for_tests`]
/// makes a fresh database per test.
pub const TEST_DATABASE_URL_ENV: &str = "PODLENS_TEST_DATABASE_URL";

/// The schema, embedded from `store/migrations/`.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Which engine holds the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// What can go wrong reaching the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database URL or file cannot be used: one line for the operator.
    #[error("{0}")]
    Open(String),
    /// The database is unreachable now (stopped, restarting, out of connections).
    #[error("the application database is unavailable: {0}")]
    Unavailable(String),
    /// A statement failed.
    #[error("application database: {0}")]
    Query(String),
    /// A value the database cannot hold, whatever is asked of it: PostgreSQL's text
    /// cannot hold the NUL character (SQLite's can), so an id or a text holding one is
    /// refused rather than failing as a query.
    #[error("text cannot contain the NUL character (\\u0000)")]
    Unstorable(String),
    /// A stored value does not read back as what it should be.
    #[error("application database holds an unreadable {0}")]
    Corrupt(String),
}

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> StoreError {
        match &error {
            sqlx::Error::Io(_)
            | sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::WorkerCrashed
            | sqlx::Error::Tls(_) => StoreError::Unavailable(error.to_string()),
            sqlx::Error::Database(database) if is_unavailable_code(database.code().as_deref()) => {
                StoreError::Unavailable(error.to_string())
            }
            // character_not_in_repertoire (a NUL in text) and untranslatable_character
            sqlx::Error::Database(database)
                if matches!(database.code().as_deref(), Some("22021" | "22P05")) =>
            {
                StoreError::Unstorable(error.to_string())
            }
            _ => StoreError::Query(error.to_string()),
        }
    }
}

/// PostgreSQL's codes for a server shutting down or refusing connections (class 57P
/// and 08), and SQLite's busy/locked codes after the busy timeout.
fn is_unavailable_code(code: Option<&str>) -> bool {
    code.is_some_and(|code| {
        code.starts_with("57P") || code.starts_with("08") || code == "5" || code == "6"
    })
}

/// Where the store is: the data directory's SQLite file unless a URL is given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// `<data-dir>/app.sqlite3`.
    DataDir(PathBuf),
    /// A `postgres://` (or `sqlite://`) URL.
    Url(String),
    /// A private in-memory SQLite database (tests).
    Memory,
}

impl Location {
    /// The data directory's file, or `url` when one is given (flag, environment or
    /// configuration file, already resolved by the caller).
    pub fn for_data_dir(data_dir: &Path, url: Option<&str>) -> Location {
        match url.map(str::trim).filter(|url| !url.is_empty()) {
            Some(url) => Location::Url(url.to_owned()),
            None => Location::DataDir(data_dir.to_path_buf()),
        }
    }
}

/// The pool and the runtime that drives it.
pub struct Database {
    pool: AnyPool,
    /// Where writes go: on SQLite a pool of one connection, so writers of this process
    /// queue in order instead of spinning on SQLite's busy handler (which sleeps up to
    /// 100 ms a try: the cause of second-long tails under concurrent writes); on
    /// PostgreSQL the pool itself.
    writer: AnyPool,
    backend: Backend,
    /// What to call the database in messages (a URL without its password).
    describe: String,
    /// The URL the pool connects to, for [`Database::reopen`].
    url: String,
    runtime: Option<tokio::runtime::Runtime>,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Database")
            .field("backend", &self.backend)
            .field("database", &self.describe)
            .finish_non_exhaustive()
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        // Dropping a runtime blocks; from inside another runtime that panics.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// `url` with its password replaced, for messages.
fn redacted(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        Ok(parsed) => parsed.to_string(),
        Err(_) => "the database URL".to_owned(),
    }
}

fn sqlite_url(path: &Path) -> Result<String, StoreError> {
    let absolute = std::path::absolute(path)
        .map_err(|error| StoreError::Open(format!("cannot use {}: {error}", path.display())))?;
    let file_url = url::Url::from_file_path(&absolute)
        .map_err(|()| StoreError::Open(format!("cannot use {}", path.display())))?;
    Ok(format!(
        "sqlite://{}?mode=rwc",
        file_url.as_str().trim_start_matches("file://")
    ))
}

/// How long a call waits for a PostgreSQL connection: while the server is down, new
/// calls wait this long for it to come back (the pool retries refused connections), then
/// fail as unavailable.
pub const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a call waits for a SQLite connection (the file's one writer is contention,
/// not an outage: a long batch may hold it for seconds).
const SQLITE_ACQUIRE_TIMEOUT: Duration = Duration::from_secs(10);

impl Database {
    /// Opens the store at `location`, creating and migrating it as needed. Errors are
    /// one line an operator can act on.
    pub fn open(location: &Location) -> Result<Database, StoreError> {
        let (url, describe, max_connections) = match location {
            Location::DataDir(dir) => {
                std::fs::create_dir_all(dir).map_err(|error| {
                    StoreError::Open(format!("cannot create {}: {error}", dir.display()))
                })?;
                let path = dir.join(APP_DATABASE_FILE);
                (sqlite_url(&path)?, path.display().to_string(), 8)
            }
            Location::Url(url) => (url.clone(), redacted(url), 16),
            Location::Memory => {
                // A name per database: every pool connection opens the same one.
                static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
                let number = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let name = format!("podlens-memory-{}-{number}", std::process::id());
                // SQLite's memdb VFS shares a database named with a leading '/' among
                // the connections of one process.
                (
                    format!("sqlite:///{name}?mode=rwc&vfs=memdb"),
                    "memory".to_owned(),
                    4,
                )
            }
        };
        let backend = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else {
            return Err(StoreError::Open(format!(
                "{} is not a database URL podlens can use: give postgres://user:password@host:port/database (or sqlite://path)",
                redacted(&url)
            )));
        };
        install_default_drivers();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("podlens-store")
            .enable_all()
            .build()
            .map_err(|error| {
                StoreError::Open(format!("cannot start the store's runtime: {error}"))
            })?;
        let mut options = AnyPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(if backend == Backend::Sqlite {
                SQLITE_ACQUIRE_TIMEOUT
            } else {
                ACQUIRE_TIMEOUT
            });
        if backend == Backend::Sqlite {
            // An in-memory database lives as long as one of its connections. Every
            // commit is synced before it is answered (synchronous=FULL): with NORMAL, a
            // power loss could drop a committed write (an API key, an invitation) whose
            // secret had already been shown; the cost is in benches/app-store.
            options = options
                .min_connections(1)
                .idle_timeout(None)
                .max_lifetime(None)
                .after_connect(|connection, _| {
                    Box::pin(async move {
                        sqlx::raw_sql("PRAGMA synchronous = FULL; PRAGMA busy_timeout = 10000")
                            .execute(connection)
                            .await?;
                        Ok(())
                    })
                });
        }
        let writer_options =
            (backend == Backend::Sqlite).then(|| options.clone().max_connections(1));
        let pool = {
            let describe = describe.clone();
            let url = url.clone();
            run_on(&runtime, async move {
                let pool = options.connect(&url).await.map_err(|error| match error {
                    sqlx::Error::Configuration(_) => {
                        StoreError::Open(format!("cannot use the database URL {describe}: {error}"))
                    }
                    _ => StoreError::Open(format!("cannot open the database {describe}: {error}")),
                })?;
                if backend == Backend::Sqlite && !url.contains("vfs=memdb") {
                    // WAL lets readers and one writer work at once, across processes;
                    // the mode is kept in the file.
                    sqlx::raw_sql("PRAGMA journal_mode = WAL")
                        .execute(&pool)
                        .await
                        .map_err(|error| {
                            StoreError::Open(format!(
                                "cannot open the database {describe}: {error}"
                            ))
                        })?;
                }
                MIGRATOR.run(&pool).await.map_err(|error| {
                    StoreError::Open(format!("cannot migrate the database {describe}: {error}"))
                })?;
                Ok::<_, StoreError>(pool)
            })?
        };
        let writer = match writer_options {
            Some(options) => {
                let url = url.clone();
                let describe = describe.clone();
                run_on(&runtime, async move {
                    options.connect(&url).await.map_err(|error| {
                        StoreError::Open(format!("cannot open the database {describe}: {error}"))
                    })
                })?
            }
            None => pool.clone(),
        };
        Ok(Database {
            pool,
            writer,
            backend,
            describe,
            url,
            runtime: Some(runtime),
        })
    }

    /// A private in-memory store, migrated (tests).
    pub fn in_memory() -> Result<Database, StoreError> {
        Database::open(&Location::Memory)
    }

    /// A private, empty, migrated store for one test: a new database on the
    /// PostgreSQL server of `PODLENS_TEST_DATABASE_URL` when that is set (so the same
    /// tests run on both engines), else [`Database::in_memory`].
    pub fn for_tests() -> Result<Database, StoreError> {
        match std::env::var(TEST_DATABASE_URL_ENV) {
            Ok(url) if !url.trim().is_empty() => {
                Database::open(&Location::Url(fresh_database(&url)?))
            }
            _ => Database::in_memory(),
        }
    }

    /// A second pool on the same database (another node's view of it, in tests).
    pub fn reopen(&self) -> Result<Database, StoreError> {
        Database::open(&Location::Url(self.url.clone()))
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The database, for messages (a file path, or a URL without its password).
    pub fn describe(&self) -> &str {
        &self.describe
    }

    /// The pool to read with.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// The pool to write with outside [`Database::begin_write`] (one statement that
    /// writes): on SQLite its one connection, taken in turn.
    pub fn writer(&self) -> &AnyPool {
        &self.writer
    }

    /// Awaits `future` (a query over [`Database::pool`]) from async code: the caller's
    /// task polls it, inside the store runtime's context, so a connection it opens and
    /// a timer it starts belong to the store's runtime, which outlives the caller's
    /// (a test's runtime, a command's). No thread hop and no blocking.
    pub fn run<F: Future>(&self, future: F) -> InStore<F> {
        InStore {
            handle: self
                .runtime
                .as_ref()
                .expect("the store's runtime lives as long as the store")
                .handle()
                .clone(),
            future: Some(Box::pin(future)),
        }
    }

    /// Runs `future` (a query over [`Database::pool`]) to completion and returns its
    /// output, from any thread: a blocking thread, a worker of a multi-threaded
    /// runtime, a current-thread runtime (its own thread then waits) or none.
    pub fn wait<F>(&self, future: F) -> F::Output
    where
        F: Future + Send,
        F::Output: Send,
    {
        let runtime = self
            .runtime
            .as_ref()
            .expect("the store's runtime lives as long as the store");
        run_on(runtime, future)
    }

    /// A transaction that writes: on SQLite it takes the write lock at once
    /// (`BEGIN IMMEDIATE`), so a read inside it cannot be overtaken by another
    /// writer; on PostgreSQL, a plain transaction (lock with [`Database::lock`]).
    pub async fn begin_write(&self) -> Result<Transaction<'static, Any>, StoreError> {
        Ok(match self.backend {
            Backend::Sqlite => self.writer.begin_with("BEGIN IMMEDIATE").await?,
            Backend::Postgres => self.pool.begin().await?,
        })
    }

    /// Serialises the transactions that call this with the same `key` until they end
    /// (PostgreSQL: a transaction-scoped advisory lock; SQLite: `BEGIN IMMEDIATE`
    /// already serialises every writer).
    pub async fn lock(
        &self,
        transaction: &mut Transaction<'static, Any>,
        key: &str,
    ) -> Result<(), StoreError> {
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT 1 FROM (SELECT pg_advisory_xact_lock($1)) AS locked")
                .bind(lock_id(key))
                .execute(&mut **transaction)
                .await?;
        }
        Ok(())
    }

    /// Copies the SQLite store into a new file at `target` (a consistent copy while
    /// others read and write: `VACUUM INTO`). Refused for PostgreSQL, which has
    /// `pg_dump`.
    pub async fn copy_to(&self, target: &Path) -> Result<(), StoreError> {
        if self.backend != Backend::Sqlite {
            return Err(StoreError::Open(
                "the application store is PostgreSQL: back it up with pg_dump".into(),
            ));
        }
        let target = target.to_str().ok_or_else(|| {
            StoreError::Open(format!("cannot copy to {}: not UTF-8", target.display()))
        })?;
        self.run(
            sqlx::query("VACUUM INTO $1")
                .bind(target)
                .execute(&self.pool),
        )
        .await?;
        Ok(())
    }
}

/// Creates a new, uniquely named database on the server of `server_url` and returns
/// its URL.
fn fresh_database(server_url: &str) -> Result<String, StoreError> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.subsec_nanos())
        .unwrap_or_default();
    let name = format!(
        "podlens_test_{}_{}_{nanos}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    let mut url = url::Url::parse(server_url)
        .map_err(|error| StoreError::Open(format!("{TEST_DATABASE_URL_ENV}: {error}")))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| StoreError::Open(error.to_string()))?;
    let statement = format!("CREATE DATABASE {name}");
    let created = run_on(&runtime, async {
        use sqlx::Connection;
        install_default_drivers();
        let mut admin = sqlx::AnyConnection::connect(server_url).await?;
        sqlx::raw_sql(sqlx::AssertSqlSafe(statement))
            .execute(&mut admin)
            .await?;
        admin.close().await
    });
    // Dropping a runtime blocks, which an async caller's thread may not.
    runtime.shutdown_background();
    created?;
    url.set_path(&name);
    Ok(url.to_string())
}

/// The one number `query` answers (`SELECT COUNT(*) …`), as a count: the first
/// column of its first row, 0 when negative.
pub async fn count<'q, 'c, E>(
    query: sqlx::query::Query<'q, Any, sqlx::any::AnyArguments>,
    executor: E,
) -> Result<u64, sqlx::Error>
where
    E: sqlx::Executor<'c, Database = Any>,
    'c: 'q,
{
    use sqlx::Row;
    let value: i64 = query.fetch_one(executor).await?.try_get(0)?;
    Ok(u64::try_from(value).unwrap_or(0))
}

/// A stable 64-bit id for an advisory lock (FNV-1a of the key).
fn lock_id(key: &str) -> i64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in key.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash as i64
}

/// A store query awaited from async code: see [`Database::run`].
#[must_use = "a store query does nothing unless awaited"]
pub struct InStore<F: Future> {
    handle: tokio::runtime::Handle,
    /// `None` once dropped.
    future: Option<std::pin::Pin<Box<F>>>,
}

impl<F: Future> Future for InStore<F> {
    type Output = F::Output;

    fn poll(
        self: std::pin::Pin<&mut Self>,
        context: &mut std::task::Context<'_>,
    ) -> std::task::Poll<F::Output> {
        let this = self.get_mut();
        let _store = this.handle.enter();
        this.future
            .as_mut()
            .expect("a store query is not polled after it is dropped")
            .as_mut()
            .poll(context)
    }
}

impl<F: Future> Drop for InStore<F> {
    /// A query dropped before it ends (its caller gave up) gives its connection back
    /// to the pool from inside the store's runtime too.
    fn drop(&mut self) {
        let _store = self.handle.enter();
        self.future.take();
    }
}

fn run_on<F>(runtime: &tokio::runtime::Runtime, future: F) -> F::Output
where
    F: Future + Send,
    F::Output: Send,
{
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current().map(|handle| handle.runtime_flavor()) {
        // A worker (or blocking thread) of a multi-threaded runtime: step out of it.
        Ok(RuntimeFlavor::MultiThread) => tokio::task::block_in_place(|| runtime.block_on(future)),
        // Inside a current-thread runtime this thread may not block on another
        // runtime; a scoped thread waits instead.
        Ok(_) => std::thread::scope(|scope| {
            scope
                .spawn(|| runtime.block_on(future))
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        }),
        Err(_) => runtime.block_on(future),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::Row;

    #[test]
    fn the_data_directory_store_is_a_wal_file_two_handles_share() {
        let dir = tempfile::tempdir().unwrap();
        let first = Database::open(&Location::DataDir(dir.path().to_path_buf())).unwrap();
        let second = Database::open(&Location::DataDir(dir.path().to_path_buf())).unwrap();
        first
            .wait(
                sqlx::query("INSERT INTO teams VALUES ($1, $2, $3, $4)")
                    .bind("t")
                    .bind("T")
                    .bind("free")
                    .bind("2026-01-01T00:00:00.000000Z")
                    .execute(first.pool()),
            )
            .unwrap();
        let plan: String = second
            .wait(
                sqlx::query("SELECT plan FROM teams WHERE team_id = $1")
                    .bind("t")
                    .fetch_one(second.pool()),
            )
            .unwrap()
            .get(0);
        assert_eq!(plan, "free");
        let mode: String = second
            .wait(sqlx::query("PRAGMA journal_mode").fetch_one(second.pool()))
            .unwrap()
            .get(0);
        assert_eq!(mode, "wal");
    }

    #[test]
    fn commits_are_synced_before_they_are_answered() {
        // synchronous=NORMAL (1) in WAL mode syncs only at checkpoints: a power loss
        // could drop a commit whose API key had been shown. FULL (2) syncs each commit.
        let dir = tempfile::tempdir().unwrap();
        let database = Database::open(&Location::DataDir(dir.path().to_path_buf())).unwrap();
        for pool in [database.pool(), database.writer()] {
            let level: i64 = database
                .wait(sqlx::query("PRAGMA synchronous").fetch_one(pool))
                .unwrap()
                .get(0);
            assert_eq!(level, 2, "synchronous=FULL on every connection");
        }
    }

    #[test]
    fn a_bad_url_is_one_clear_line() {
        let error = Database::open(&Location::Url("mysql://u:secret@h/db".into())).unwrap_err();
        let message = error.to_string();
        assert!(message.contains("postgres://"), "{message}");
        assert!(!message.contains("secret"), "{message}");
        assert!(!message.contains('\n'));
    }

    #[tokio::test]
    async fn waiting_works_inside_a_current_thread_runtime() {
        let database = Database::in_memory().unwrap();
        let row = database
            .wait(sqlx::query("SELECT COUNT(*) FROM users").fetch_one(database.pool()))
            .unwrap();
        assert_eq!(row.get::<i64, _>(0), 0);
    }

    /// Counts users on `connections` connections held at once (so the pool opens new
    /// ones when it has fewer), awaited through [`Database::run`].
    async fn count_on_connections(database: &Database, connections: usize) {
        database
            .run(async {
                let mut held = Vec::new();
                for _ in 0..connections {
                    held.push(database.pool().acquire().await.unwrap());
                }
                for connection in &mut held {
                    let row = sqlx::query("SELECT COUNT(*) FROM users")
                        .fetch_one(&mut **connection)
                        .await
                        .unwrap();
                    assert_eq!(row.get::<i64, _>(0), 0);
                }
            })
            .await;
    }

    #[test]
    fn connections_opened_while_one_runtime_awaited_serve_after_that_runtime_is_gone() {
        // On PostgreSQL a connection is a socket of the runtime it was opened in:
        // opened in a caller's runtime, it would die with it.
        let database = Database::for_tests().unwrap();
        let runtime = || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap()
        };
        runtime().block_on(count_on_connections(&database, 3));
        runtime().block_on(count_on_connections(&database, 3));
    }

    #[test]
    fn every_connection_of_an_in_memory_store_sees_one_database() {
        let database = Database::in_memory().unwrap();
        database.wait(async {
            let mut first = database.pool().acquire().await.unwrap();
            let mut second = database.pool().acquire().await.unwrap();
            for connection in [&mut first, &mut second] {
                let row = sqlx::query("SELECT COUNT(*) FROM users")
                    .fetch_one(&mut **connection)
                    .await
                    .expect("the migrated tables are there");
                assert_eq!(row.get::<i64, _>(0), 0);
            }
        });
    }
}
