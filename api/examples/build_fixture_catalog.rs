//! Builds the API tests' fixture catalog into a data directory, for driving the real
//! server from outside Rust (the SDK test suite): `build_fixture_catalog DIR`.

// Shared with the integration tests, which read fields this program does not.
#[allow(dead_code)]
#[path = "../tests/common/fixture.rs"]
mod fixture;

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: build_fixture_catalog DATA_DIR");
        std::process::exit(2);
    };
    let dir = std::path::PathBuf::from(dir);
    let built = fixture::build_fixture(&dir);
    println!(
        "built {} podcasts into {}; transcript on episode {}",
        built.batches.len(),
        dir.display(),
        built.transcript_episode_id
    );
}
