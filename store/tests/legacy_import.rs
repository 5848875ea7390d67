//! A data directory made before the application store moved to SQLite keeps its
//! application data in `app.duckdb`. Opening the store imports every row of every
//! table once, with times, days, flags and the binary secret read back as the same
//! values, and moves the legacy file aside.

use duckdb::Connection;
use podlens_store::{Database, Location, import_legacy};
use sqlx::Row;

/// One row per legacy table, written with DuckDB's own literals.
const ROWS: &str = "
INSERT INTO server_secrets VALUES ('cursor', '\\x01\\xAB\\xFF'::BLOB);
INSERT INTO teams VALUES ('t1', 'Ada''s team', 'agency', TIMESTAMPTZ '2025-03-01 10:00:00.123456+00');
INSERT INTO users VALUES ('u1', 'ada@example.com', 'Ada', 'Lovelace', 'ada', 'seed', TIMESTAMPTZ '2025-03-01 10:00:00+00');
INSERT INTO team_members VALUES ('t1', 'u1', 'owner', TIMESTAMPTZ '2025-03-01 10:00:01+00');
INSERT INTO api_keys VALUES ('abcdef0123456789ffff', 'pl_abc…', 'u1', 't1', TIMESTAMPTZ '2025-03-02 08:30:00+02', NULL);
INSERT INTO usage_daily VALUES ('user:u1', 't1', DATE '2025-03-02', 'search', 7);
INSERT INTO search_history VALUES ('s1', 'user:u1', 't1', 'podcasts', '{}', 12, TIMESTAMPTZ '2025-03-02 09:00:00+00');
INSERT INTO team_podcasts VALUES ('t1', 'p1', 'u1', 'add-to-team-podcasts-button', true, false, TIMESTAMPTZ '2025-03-02 09:00:00+00', TIMESTAMPTZ '2025-03-03 09:00:00+00');
INSERT INTO login_links VALUES ('lh', 'ada@example.com', 'sign_in', '10.0.0.1', TIMESTAMPTZ '2025-03-02 09:00:00+00', TIMESTAMPTZ '2025-03-02 09:30:00+00', NULL);
INSERT INTO sessions VALUES ('sh', 'u1', TIMESTAMPTZ '2025-03-02 09:00:00+00', TIMESTAMPTZ '2025-04-01 09:00:00+00');
INSERT INTO team_invitations VALUES ('i1', 't1', 'bob@example.com', 'member', 'ih', 'u1', TIMESTAMPTZ '2025-03-02 09:00:00+00', TIMESTAMPTZ '2025-03-09 09:00:00+00', NULL, NULL);
INSERT INTO projects VALUES ('pr1', 't1', 'pitch', 'Pitch', 'active', '[\"guest\"]', NULL, 'purpose', '[]', 'u1', TIMESTAMPTZ '2025-03-02 09:00:00+00', TIMESTAMPTZ '2025-03-02 09:05:00+00');
INSERT INTO listed_podcasts VALUES ('l1', 'pr1', 't1', 'p1', 'Show', 'show', NULL, 'new', 'high', '[]', TIMESTAMPTZ '2025-03-02 09:00:00+00', TIMESTAMPTZ '2025-03-02 09:00:00+00', 'u1', 0.75);
INSERT INTO listed_podcast_activity VALUES ('a1', 'l1', 'pr1', 'added', TIMESTAMPTZ '2025-03-02 09:00:00+00', NULL, 'new', 'u1', 'ada', 1);
INSERT INTO outreach_history VALUES ('o1', 't1', 'u1', 'p1', 'Show', 'show', NULL, 'pr1', NULL, NULL, 'Hello', 'Body', '{}', TIMESTAMPTZ '2025-03-02 09:00:00+00');
INSERT INTO workflow_documents VALUES ('alert', 'al1', 't1', NULL, TIMESTAMPTZ '2025-03-02 09:00:00+00', TIMESTAMPTZ '2025-03-02 09:00:00+00', false, '{\"name\":\"x\"}');
INSERT INTO team_webhooks VALUES ('w1', 't1', 'https://hooks.example.com/x', '[\"alert.match\"]', 'whsec', 'u1', TIMESTAMPTZ '2025-03-02 09:00:00+00');
INSERT INTO alert_deliveries VALUES ('d1', 't1', 'al1', 'email', 'ada@example.com', 'alert.match', '{}', 'pending', 2, TIMESTAMPTZ '2025-03-02 10:00:00+00', 'timeout', TIMESTAMPTZ '2025-03-02 09:00:00+00', NULL);
";

fn legacy_data_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let connection = Connection::open(dir.path().join("app.duckdb")).unwrap();
    connection
        .execute_batch(include_str!("legacy_app_duckdb.sql"))
        .unwrap();
    connection.execute_batch(ROWS).unwrap();
    dir
}

fn text(database: &Database, sql: &'static str) -> Vec<Option<String>> {
    let row = database
        .wait(sqlx::query(sql).fetch_one(database.pool()))
        .unwrap();
    (0..row.len()).map(|index| row.get(index)).collect()
}

#[test]
fn every_legacy_row_is_imported_once_with_its_values() {
    let dir = legacy_data_dir();
    let database = Database::open(&Location::DataDir(dir.path().to_path_buf())).unwrap();
    let imported = import_legacy(dir.path(), &database)
        .unwrap()
        .expect("imported");
    assert_eq!(imported.rows.len(), 18, "{:?}", imported.rows);
    assert!(
        imported.rows.iter().all(|(_, rows)| *rows == 1),
        "{:?}",
        imported.rows
    );
    assert!(!dir.path().join("app.duckdb").exists());
    assert!(dir.path().join("app.duckdb.imported").is_file());

    let some = |value: &str| Some(value.to_owned());
    // The legacy store's names were the email's local part: no one chose "ada".
    assert_eq!(
        text(
            &database,
            "SELECT email, display_name, first_name FROM users"
        ),
        vec![some("ada@example.com"), None, some("Ada")]
    );
    assert_eq!(
        text(
            &database,
            "SELECT secret_hex FROM server_secrets WHERE name = 'cursor'"
        ),
        vec![some("01abff")]
    );
    assert_eq!(
        text(&database, "SELECT name, plan, created_at FROM teams"),
        vec![
            some("Ada's team"),
            some("agency"),
            some("2025-03-01T10:00:00.123456Z")
        ]
    );
    // +02:00 in the legacy literal is 06:30 UTC.
    assert_eq!(
        text(
            &database,
            "SELECT key_prefix, created_at, revoked_at FROM api_keys"
        ),
        vec![some("pl_abc…"), some("2025-03-02T06:30:00.000000Z"), None]
    );
    assert_eq!(
        text(
            &database,
            "SELECT day, counter, CAST(count AS TEXT) FROM usage_daily"
        ),
        vec![some("2025-03-02"), some("search"), some("7")]
    );
    assert_eq!(
        text(
            &database,
            "SELECT CAST(blacklist AS TEXT), CAST(sync AS TEXT) FROM team_podcasts"
        ),
        vec![some("1"), some("0")]
    );
    assert_eq!(
        text(
            &database,
            "SELECT CAST(relevancy_score AS TEXT), priority FROM listed_podcasts"
        ),
        vec![some("0.75"), some("high")]
    );
    assert_eq!(
        text(
            &database,
            "SELECT doc, CAST(deleted AS TEXT) FROM workflow_documents"
        ),
        vec![some("{\"name\":\"x\"}"), some("0")]
    );
    assert_eq!(
        text(
            &database,
            "SELECT CAST(attempts AS TEXT), next_attempt_at, last_error, sent_at FROM alert_deliveries"
        ),
        vec![
            some("2"),
            some("2025-03-02T10:00:00.000000Z"),
            some("timeout"),
            None
        ]
    );

    // Nothing is left to import, and opening again keeps the rows.
    assert_eq!(import_legacy(dir.path(), &database).unwrap(), None);
    drop(database);
    let reopened = Database::open(&Location::DataDir(dir.path().to_path_buf())).unwrap();
    assert_eq!(
        text(&reopened, "SELECT CAST(COUNT(*) AS TEXT) FROM api_keys"),
        vec![some("1")]
    );
}

#[test]
fn a_data_directory_without_a_legacy_file_imports_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let database = Database::open(&Location::DataDir(dir.path().to_path_buf())).unwrap();
    assert_eq!(import_legacy(dir.path(), &database).unwrap(), None);
}
