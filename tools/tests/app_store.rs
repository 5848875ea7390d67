//! The application store from the command line: a data directory made before the
//! store moved to SQLite (its data in `app.duckdb`) keeps working — `podlens migrate`
//! imports it, and the key it held authenticates and can be revoked — and a database
//! URL podlens cannot use stops the command with one clear line.

use podlens_app::accounts::{AccountStore, SqlAccountStore};

fn podlens(data_dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_podlens"))
        .args(args)
        .arg("--data-dir")
        .arg(data_dir)
        .env("PODLENS_NO_PROGRESS", "true")
        .env_remove("PODLENS_DATABASE_URL")
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("podlens runs")
}

#[test]
fn a_legacy_app_duckdb_is_imported_and_its_key_still_works() {
    let dir = tempfile::tempdir().unwrap();
    let key = "pl_legacykeylegacykeylegacykey0001";
    let hash = podlens_app::accounts::keys::hash_api_key(key);
    {
        let legacy = duckdb::Connection::open(dir.path().join("app.duckdb")).unwrap();
        legacy
            .execute_batch(include_str!("../../store/tests/legacy_app_duckdb.sql"))
            .unwrap();
        legacy
            .execute_batch(&format!(
                "INSERT INTO teams VALUES ('t1', 'Ops', 'agency', now());
                 INSERT INTO users VALUES ('u1', 'ops@example.com', NULL, NULL, 'ops', 'u1', now());
                 INSERT INTO team_members VALUES ('t1', 'u1', 'owner', now());
                 INSERT INTO api_keys VALUES ('{hash}', 'pl_leg…', 'u1', 't1', now(), NULL);"
            ))
            .unwrap();
    }

    let migrated = podlens(dir.path(), &["migrate"]);
    let stdout = String::from_utf8_lossy(&migrated.stdout);
    assert!(
        migrated.status.success(),
        "{}",
        String::from_utf8_lossy(&migrated.stderr)
    );
    assert!(
        stdout.contains("imported 4 rows of 18 tables from app.duckdb"),
        "{stdout}"
    );
    assert!(dir.path().join("app.sqlite3").is_file());
    assert!(!dir.path().join("app.duckdb").exists());

    let database = podlens_app::services::open_app_store(
        dir.path(),
        &podlens_store::Location::DataDir(dir.path().to_path_buf()),
    )
    .unwrap();
    let store = SqlAccountStore::new(database);
    let account = podlens_app::runtime::block_on_own_thread(store.account_for_key(key))
        .unwrap()
        .expect("the legacy key works");
    assert_eq!(
        (account.email.as_str(), account.plan.as_str()),
        ("ops@example.com", "agency")
    );

    // Revoked from the command line while this process holds the store open.
    let revoked = podlens(dir.path(), &["keys", "revoke", "--key-id", &hash[..16]]);
    assert!(
        revoked.status.success(),
        "{}",
        String::from_utf8_lossy(&revoked.stderr)
    );
    assert!(
        podlens_app::runtime::block_on_own_thread(store.account_for_key(key))
            .unwrap()
            .is_none()
    );

    let again = podlens(dir.path(), &["migrate"]);
    assert!(String::from_utf8_lossy(&again.stdout).contains("no legacy app.duckdb to import"));
}

#[test]
fn a_database_url_podlens_cannot_use_is_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    for (url, expected) in [
        ("mysql://root:hunter2@db/podlens", "postgres://"),
        (
            "postgres://podlens:hunter2@127.0.0.1:1/podlens",
            "cannot open the database",
        ),
    ] {
        let output = podlens(dir.path(), &["migrate", "--database-url", url]);
        assert!(!output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        let lines: Vec<&str> = stderr
            .lines()
            .filter(|line| !line.trim().is_empty())
            .collect();
        assert_eq!(lines.len(), 1, "{stderr}");
        assert!(
            lines[0].starts_with("error: ") && lines[0].contains(expected),
            "{stderr}"
        );
        assert!(
            !stderr.contains("hunter2"),
            "the password stays secret: {stderr}"
        );
    }
}
