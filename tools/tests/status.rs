//! `podlens status` reads a data directory without writing to it.

use std::process::Command;

#[test]
fn status_of_a_data_directory_without_a_store_creates_none() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_podlens"))
        .args(["status", "--data-dir"])
        .arg(dir.path())
        .env_remove("PODLENS_DATABASE_URL")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        text.contains("scheduler       no feeds followed yet"),
        "{text}"
    );
    assert!(
        !dir.path().join(podlens_store::APP_DATABASE_FILE).exists(),
        "status made an application store"
    );
}
