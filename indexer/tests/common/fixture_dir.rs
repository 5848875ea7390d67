//! A folder for a fixture that a test binary builds once and keeps in a `static`: a
//! `static` is never dropped, so a `tempfile::TempDir` there is never removed (the test
//! runs had left hundreds of 92 MB indexes in /tmp). The folder is
//! `<root>/<name>/<pid>` (tests give `CARGO_TARGET_TMPDIR` as the root), made afresh,
//! and the folders of processes that have ended are removed first: what a run leaves,
//! the next run removes.

use std::path::{Path, PathBuf};

pub fn fixture_dir_under(root: &Path, name: &str) -> PathBuf {
    let root = root.join(name);
    if let Ok(entries) = std::fs::read_dir(&root) {
        for entry in entries.flatten() {
            let ended = entry
                .file_name()
                .to_str()
                .and_then(|name| name.parse::<u32>().ok())
                .is_some_and(|pid| !Path::new("/proc").join(pid.to_string()).exists());
            if ended {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    let dir = root.join(std::process::id().to_string());
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the fixture's folder");
    dir
}
