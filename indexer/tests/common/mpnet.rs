//! Where the tests find all-mpnet-base-v2 (installed by scripts/install-model.sh, which
//! scripts/setup.sh runs), and whether it is there.
//!
//! Without the model the tests that need it print why and return, so a checkout without
//! the weights still runs the rest; with `PODLENS_REQUIRE_MODEL` set (scripts/test.sh sets
//! it) a missing model fails them instead, so CI cannot pass them without running them.

use std::path::{Path, PathBuf};

pub fn mpnet_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("PODLENS_MODEL_DIR") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME").unwrap_or_default();
    Path::new(&home).join(".cache/podlens-models/all-mpnet-base-v2")
}

pub fn installed() -> bool {
    let dir = mpnet_dir();
    let present = dir.join("model.safetensors").exists() && dir.join("vocab.txt").exists();
    if !present {
        let why = format!(
            "all-mpnet-base-v2 is not installed in {} (run scripts/install-model.sh)",
            dir.display()
        );
        assert!(
            std::env::var_os("PODLENS_REQUIRE_MODEL").is_none(),
            "PODLENS_REQUIRE_MODEL is set: {why}"
        );
        eprintln!("skipping: {why}");
    }
    present
}
