//! Static embeddings against exact all-mpnet-base-v2 on the real transcripts of
//! `../shared/corpus`: builds the static model (reused when cached), compares every
//! weighting recipe with exact MPNet (rank correlation, recall@10), measures throughput,
//! and writes `benches/embedding/RESULTS.md`.
//!
//! Run: `cargo bench -p podlens-indexer --bench embedding_quality` (or benches/embedding/run.sh).

use std::path::{Path, PathBuf};
use std::time::Instant;

use podlens_indexer::embedding::{
    QualityOptions, StaticBuildOptions, StaticRecipe, build_static_model, eval, quality_report,
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
    let mut quality = QualityOptions::new(
        mpnet_dir.clone(),
        static_dir.clone(),
        corpus.join("transcripts"),
    );
    quality.frequency_paths = frequency_paths.clone();
    quality.passages = 200;
    quality.queries = 50;
    quality.exact_cache = Some(cache_root().join("eval-exact-vectors.json"));
    quality.fit_paths = frequency_paths.clone();
    quality.fit_sizes = std::env::var("FIT_SIZES")
        .unwrap_or_else(|_| "500,1000,2000,4000,8000".to_owned())
        .split(',')
        .filter_map(|size| size.trim().parse().ok())
        .collect();
    // The fit never sees the evaluation set's passages and queries.
    let set = eval::transcript_eval_set(
        &quality.transcripts,
        quality.words,
        quality.passages,
        quality.queries,
        quality.query_words,
    )?;
    let options = StaticBuildOptions {
        mpnet_dir: mpnet_dir.clone(),
        out_dir: static_dir.clone(),
        frequency_paths: frequency_paths.clone(),
        fit_paths: frequency_paths.clone(),
        fit_exclude: set.texts().into_iter().map(str::to_owned).collect(),
        recipe: StaticRecipe::default(),
        // always fitted here on the corpus (a folder the demo built may hold a fit to its own
        // catalog), from the cached raw vectors and passages
        force: true,
    };
    let started = Instant::now();
    let last_report = std::sync::atomic::AtomicUsize::new(0);
    let build = build_static_model(&options, &|step, done, total| {
        let tick = total / 20;
        if tick > 0
            && done / tick != last_report.swap(done / tick, std::sync::atomic::Ordering::Relaxed)
        {
            eprintln!(
                "{step:?}: {done}/{total}, {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
    })?;
    let manifest = &build.manifest;
    let build_line = if build.reused {
        "static model reused from the cache (already built from the same weights and recipe)"
            .to_owned()
    } else {
        let distill = if build.raw_vectors_cached {
            "the vocabulary's raw vectors cached".to_owned()
        } else {
            format!(
                "{} vocabulary tokens through MPNet in {:.0} s",
                manifest.vocab_size, build.distill_seconds
            )
        };
        format!(
            "static model built in {:.0} s ({distill}; the fit's passages through MPNet, or from their cache, in {:.0} s)",
            build.total_seconds, build.teacher_seconds
        )
    };
    let fit_line = match &manifest.fit {
        Some(fit) => format!(
            "fitted to exact MPNet on {} passages (mean cosine on the {} held out {:.3} → {:.3})",
            fit.texts, fit.held_out_texts, fit.held_out_cosine_before, fit.held_out_cosine_after
        ),
        None => "not fitted".to_owned(),
    };
    let report = quality_report(&quality)?;
    let results = format!(
        "# Static embeddings vs exact all-mpnet-base-v2\n\n\
         Written by `cargo bench -p podlens-indexer --bench embedding_quality` on {} threads.\n\n\
         {build_line}; {fit_line}; table sha256 `{}`, source weights sha256 `{}`.\n\n{report}",
        rayon::current_num_threads(),
        manifest.table_sha256,
        manifest.source_sha256,
    );
    print!("{results}");
    // What is written above the marker (the reading of the figures) is kept.
    let path = repo.join("benches/embedding/RESULTS.md");
    let marker = "<!-- embedding_quality writes everything below this line -->";
    let previous = std::fs::read_to_string(&path).unwrap_or_default();
    let head = previous
        .split_once(marker)
        .map(|(head, _)| head.trim_end().to_owned())
        .unwrap_or_default();
    std::fs::write(&path, format!("{head}\n\n{marker}\n\n{results}"))?;
    Ok(())
}
