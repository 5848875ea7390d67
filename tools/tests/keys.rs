//! `podlens keys create` and `podlens keys revoke` on a data directory: the key printed
//! last authenticates until it is revoked by the id that its hash gives, and a wrong id
//! fails without touching anything — all while another process (this test) holds the
//! application store open, as `podlens serve` does.

use podlens_app::accounts::{AccountStore, SqlAccountStore};

fn open_store(data_dir: &std::path::Path) -> SqlAccountStore {
    let database = podlens_app::services::open_app_store(
        data_dir,
        &podlens_store::Location::DataDir(data_dir.to_path_buf()),
    )
    .expect("store");
    SqlAccountStore::new(database)
}

fn podlens(data_dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_podlens"))
        .arg("keys")
        .args(args)
        .arg("--data-dir")
        .arg(data_dir)
        .env("PODLENS_NO_PROGRESS", "true")
        .output()
        .expect("podlens runs")
}

/// The id of a key as its team's list shows it: the first 16 hex digits of SHA-256.
fn key_id(key: &str) -> String {
    podlens_app::accounts::keys::hash_api_key(key)[..16].to_owned()
}

#[test]
fn a_created_key_works_until_revoked_by_its_id() {
    let dir = tempfile::tempdir().expect("tempdir");
    let create = || {
        let created = podlens(
            dir.path(),
            &["create", "--email", "ops@example.com", "--plan", "agency"],
        );
        assert!(created.status.success());
        let stdout = String::from_utf8(created.stdout).expect("utf-8");
        stdout.lines().last().expect("the key line").to_owned()
    };
    let store = open_store(dir.path());
    let key = create();
    let other = create();
    assert!(
        podlens_app::runtime::block_on_own_thread(store.account_for_key(&key))
            .expect("lookup")
            .is_some()
    );

    let wrong = podlens(dir.path(), &["revoke", "--key-id", "0000000000000000"]);
    assert!(!wrong.status.success());
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("no API key with id 0000000000000000"));

    let revoked = podlens(dir.path(), &["revoke", "--key-id", &key_id(&key)]);
    assert!(
        revoked.status.success(),
        "{}",
        String::from_utf8_lossy(&revoked.stderr)
    );
    assert!(String::from_utf8_lossy(&revoked.stdout).contains("is revoked"));
    assert!(
        podlens_app::runtime::block_on_own_thread(store.account_for_key(&key))
            .expect("lookup")
            .is_none(),
        "revoked"
    );
    assert!(
        podlens_app::runtime::block_on_own_thread(store.account_for_key(&other))
            .expect("lookup")
            .is_some(),
        "the other key stays"
    );
}
