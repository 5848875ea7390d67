//! `podlens model build`: distils the static 768-d embedding model from all-mpnet-base-v2
//! (installed by scripts/install-model.sh) into a sha256-pinned folder, reusing it when it
//! is already built. `podlens model eval`: measures the static model against exact MPNet
//! on real transcripts and prints one table (benches/embedding/ keeps its output).

use std::path::{Path, PathBuf};

use anyhow::Context;
use podlens_indexer::embedding::{self, QualityOptions, StaticBuildOptions, StaticRecipe};

use crate::config::Config;
use crate::progress;

/// Arguments of `podlens model`.
#[derive(Debug, Clone, clap::Args)]
pub struct ModelArgs {
    #[command(subcommand)]
    pub command: ModelCommand,
}

/// The `podlens model` subcommands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum ModelCommand {
    /// Build the static embedding model from MPNet (cached, sha256-pinned).
    Build(BuildArgs),
    /// Compare the static model with exact MPNet on transcripts.
    Eval(EvalArgs),
    /// Build a small static model over the words of some text only (a minute instead of
    /// several; semantic search then knows only those words), cached by their counts;
    /// prints its folder, for `podlens index --static-model`.
    Vocabulary {
        /// Files or folders of the text (a corpus's feeds and transcripts).
        #[arg(long = "text", value_name = "PATH", required = true)]
        text: Vec<PathBuf>,
    },
}

/// Where the models live.
#[derive(Debug, Clone, clap::Args)]
pub struct ModelDirs {
    /// The all-mpnet-base-v2 folder.
    #[arg(long, env = "PODLENS_MODEL_DIR", value_name = "DIR")]
    pub mpnet_dir: Option<PathBuf>,
    /// The static model folder (default: the cache dir's podlens-models/static-mpnet-768).
    #[arg(long = "out", alias = "static-dir", value_name = "DIR")]
    pub static_dir: Option<PathBuf>,
}

impl ModelDirs {
    fn mpnet(&self) -> PathBuf {
        self.mpnet_dir.clone().unwrap_or_else(mpnet_dir)
    }

    fn static_model(&self) -> PathBuf {
        self.static_dir
            .clone()
            .unwrap_or_else(default_static_model_dir)
    }
}

/// Where `podlens model build` writes the static model by default.
pub fn default_static_model_dir() -> PathBuf {
    models_root().join("static-mpnet-768")
}

/// The all-mpnet-base-v2 folder: `PODLENS_MODEL_DIR`, or the cache dir's.
pub fn mpnet_dir() -> PathBuf {
    std::env::var_os("PODLENS_MODEL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| models_root().join("all-mpnet-base-v2"))
}

/// Where the models live: `$XDG_CACHE_HOME/podlens-models` or `~/.cache/podlens-models`.
pub fn models_root() -> PathBuf {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"));
    cache.join("podlens-models")
}

/// Arguments of `podlens model build`.
#[derive(Debug, Clone, clap::Args)]
pub struct BuildArgs {
    #[command(flatten)]
    pub dirs: ModelDirs,
    /// Files or folders of real text (transcripts, feeds) to count token frequencies on.
    #[arg(long = "frequency-text", value_name = "PATH")]
    pub frequency_text: Vec<PathBuf>,
    /// Files or folders of real text whose passages the table is fitted to (default: the
    /// frequency text).
    #[arg(long = "fit-text", value_name = "PATH")]
    pub fit_text: Vec<PathBuf>,
    /// Passages run through MPNet to fit the table to (0: no fit, the distilled rows only).
    #[arg(long, default_value_t = embedding::DEFAULT_FIT_TEXTS)]
    pub fit_texts: usize,
    /// SIF constant a of the token weights a / (a + p).
    #[arg(long, default_value_t = embedding::DEFAULT_SIF_A)]
    pub sif_a: f64,
    /// Weigh every token equally.
    #[arg(long)]
    pub no_sif: bool,
    /// Keep the mean token vector.
    #[arg(long)]
    pub no_center: bool,
    /// Rebuild even when the folder matches.
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `podlens model eval`.
#[derive(Debug, Clone, clap::Args)]
pub struct EvalArgs {
    #[command(flatten)]
    pub dirs: ModelDirs,
    /// Folder of transcripts (.txt, .md).
    #[arg(long, value_name = "DIR")]
    pub transcripts: PathBuf,
    /// Files or folders the token frequencies are counted on (as for `model build`).
    #[arg(long = "frequency-text", value_name = "PATH")]
    pub frequency_text: Vec<PathBuf>,
    #[arg(long, default_value_t = 300)]
    pub passages: usize,
    #[arg(long, default_value_t = 100)]
    pub queries: usize,
    /// Words per passage.
    #[arg(long, default_value_t = 100)]
    pub words: usize,
    /// Words per query.
    #[arg(long, default_value_t = 12)]
    pub query_words: usize,
    /// File caching the exact MPNet vectors of the evaluation set between runs.
    #[arg(long, value_name = "FILE")]
    pub exact_cache: Option<PathBuf>,
}

/// Runs `podlens model …`.
pub fn run(config: &Config, args: ModelArgs) -> anyhow::Result<()> {
    match args.command {
        ModelCommand::Build(args) => build(config, args),
        ModelCommand::Eval(eval_args) => run_eval(eval_args),
        ModelCommand::Vocabulary { text } => {
            println!("{}", vocabulary_model(&text)?.display());
            Ok(())
        }
    }
}

/// A static model over the words of the text files under `roots` (cached by their counts).
pub fn vocabulary_model(roots: &[PathBuf]) -> anyhow::Result<PathBuf> {
    let texts = embedding::read_texts(roots)?;
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    embedding::build_vocabulary_model(&mpnet_dir(), &texts, &models_root().join("vocabulary"))
        .context("cannot build the small static model (is all-mpnet-base-v2 installed? scripts/setup.sh installs it)")
}

impl BuildArgs {
    /// `model build` with its defaults into `out`, frequencies counted on `frequency_text`
    /// (the MPNet folder from `PODLENS_MODEL_DIR` or the cache dir).
    pub fn demo(out: PathBuf, frequency_text: Vec<PathBuf>) -> Self {
        BuildArgs {
            dirs: ModelDirs {
                mpnet_dir: None,
                static_dir: Some(out),
            },
            frequency_text,
            fit_text: Vec::new(),
            fit_texts: embedding::DEFAULT_FIT_TEXTS,
            sif_a: embedding::DEFAULT_SIF_A,
            no_sif: false,
            no_center: false,
            force: false,
        }
    }
}

/// Builds the static model, or reuses it when the folder already holds one of the same
/// source model and recipe.
pub fn build(config: &Config, args: BuildArgs) -> anyhow::Result<()> {
    let fit_paths = if args.fit_text.is_empty() {
        args.frequency_text.clone()
    } else {
        args.fit_text
    };
    let options = StaticBuildOptions {
        mpnet_dir: args.dirs.mpnet(),
        out_dir: args.dirs.static_model(),
        frequency_paths: args.frequency_text,
        fit_paths,
        fit_exclude: Vec::new(),
        recipe: StaticRecipe {
            sif_a: (!args.no_sif).then_some(args.sif_a),
            center: !args.no_center,
            fit_texts: args.fit_texts,
        },
        force: args.force,
    };
    let bar = progress::bar(0, "items", config.no_progress);
    let report = embedding::build_static_model(&options, &|step, done, total| {
        bar.set_message(match step {
            embedding::BuildStep::Distill => "distilling vocabulary tokens",
            embedding::BuildStep::Teacher => "passages through MPNet for the fit",
        });
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })
    .with_context(|| {
        format!(
            "cannot build the static model in {}",
            options.out_dir.display()
        )
    })?;
    bar.finish_and_clear();
    let manifest = &report.manifest;
    if report.reused {
        println!("static model up to date in {}", options.out_dir.display());
    } else {
        println!(
            "static model written to {} in {:.1} s (distillation {:.1} s{}, fit passages through MPNet {:.1} s)",
            options.out_dir.display(),
            report.total_seconds,
            report.distill_seconds,
            if report.raw_vectors_cached {
                ", cached"
            } else {
                ""
            },
            report.teacher_seconds,
        );
    }
    match &manifest.fit {
        Some(fit) => println!(
            "fitted to exact MPNet on {} passages: mean cosine on {} held out {:.3} -> {:.3}",
            fit.texts, fit.held_out_texts, fit.held_out_cosine_before, fit.held_out_cosine_after
        ),
        None => println!("not fitted: the distilled rows only"),
    }
    println!(
        "vocabulary {} × {}, table sha256 {}, frequencies from {} tokens in {} files",
        manifest.vocab_size,
        manifest.dim,
        manifest.table_sha256,
        manifest.frequency_tokens,
        manifest.frequency_files
    );
    Ok(())
}

fn run_eval(args: EvalArgs) -> anyhow::Result<()> {
    let mut options = QualityOptions::new(
        args.dirs.mpnet(),
        args.dirs.static_model(),
        args.transcripts,
    );
    options.frequency_paths = args.frequency_text;
    options.passages = args.passages;
    options.queries = args.queries;
    options.words = args.words;
    options.query_words = args.query_words;
    options.exact_cache = args.exact_cache;
    let report = embedding::quality_report(&options).context("cannot evaluate the static model")?;
    print!("{report}");
    Ok(())
}
