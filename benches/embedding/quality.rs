//! Static embeddings against exact all-mpnet-base-v2 on the real transcripts of
//! `../shared/corpus`: builds the static model (reused when cached), compares every
//! weighting recipe with exact MPNet (rank correlation, recall@10), measures throughput,
//! and writes `benches/embedding/RESULTS.md`.
//!
//! Run: `cargo bench -p podlens-indexer --bench embedding_quality` (or benches/embedding/run.sh).

use std::path::{Path, PathBuf};
use std::time::Instant;

use podlens_indexer::embedding::{
    QualityOptions, StaticBuildOptions, StaticRecipe, build_static_model, quality_report,
};

fn cache_root() -> PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"))
        .join("podlens-models")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let corpus = std::env::var_os("PODLENS_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("../shared/corpus"));
    let mpnet_dir = std::env::var_os("PODLENS_MODEL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| cache_root().join("all-mpnet-base-v2"));
    if !mpnet_dir.join("model.safetensors").exists() {
        println!(
            "skipping: all-mpnet-base-v2 is not installed in {} (run scripts/install-model.sh)",
            mpnet_dir.display()
        );
        return Ok(());
    }
    let frequency_paths = vec![corpus.join("transcripts"), corpus.join("feeds")];
    let static_dir = cache_root().join("static-mpnet-768");
    let options = StaticBuildOptions {
        mpnet_dir: mpnet_dir.clone(),
        out_dir: static_dir.clone(),
        frequency_paths: frequency_paths.clone(),
        recipe: StaticRecipe::default(),
        force: false,
    };
    let started = Instant::now();
    let last_report = std::sync::atomic::AtomicUsize::new(0);
    let build = build_static_model(&options, &|done, total| {
        let step = total / 20;
        if step > 0
            && done / step != last_report.swap(done / step, std::sync::atomic::Ordering::Relaxed)
        {
            eprintln!(
                "distilled {done}/{total} tokens, {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
    })?;
    let manifest = &build.manifest;
    let build_line = if build.reused {
        "static model reused from the cache (already built from the same weights and recipe)"
            .to_owned()
    } else {
        format!(
            "static model built in {:.0} s: {} vocabulary tokens through MPNet in {:.0} s{} ({:.0} tokens/s)",
            build.total_seconds,
            manifest.vocab_size,
            build.distill_seconds,
            if build.raw_vectors_cached {
                ", raw vectors cached"
            } else {
                ""
            },
            manifest.vocab_size as f64 / build.distill_seconds.max(1e-9)
        )
    };
    let mut quality = QualityOptions::new(mpnet_dir, static_dir, corpus.join("transcripts"));
    quality.frequency_paths = frequency_paths;
    quality.passages = 200;
    quality.queries = 50;
    quality.exact_cache = Some(cache_root().join("eval-exact-vectors.json"));
    let report = quality_report(&quality)?;
    let results = format!(
        "# Static embeddings vs exact all-mpnet-base-v2\n\n\
         Written by `cargo bench -p podlens-indexer --bench embedding_quality` on {} threads.\n\n\
         {build_line}; table sha256 `{}`, source weights sha256 `{}`.\n\n{report}",
        rayon::current_num_threads(),
        manifest.table_sha256,
        manifest.source_sha256,
    );
    print!("{results}");
    std::fs::write(repo.join("benches/embedding/RESULTS.md"), results)?;
    Ok(())
}
