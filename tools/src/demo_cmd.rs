//! `podlens demo`: the whole pipeline on a generated corpus, then the app.
//!
//! It generates a deterministic corpus, serves it on loopback under the app's own port
//! (`/demo-corpus/`) so feeds and transcripts go through the real HTTP fetcher and the
//! covers and audio the catalog points at keep loading once the app serves that folder
//! itself (in the demo, or a later `podlens serve` of the same data directory), ingests the corpus's OPML, crawls the generated
//! websites, scores the podcasts against the generated charts, builds (or reuses) the
//! static embedding model, builds the search index with its vectors, creates an admin API
//! key, and serves the API and the web app (by default at <http://127.0.0.1:8080>).
//! Without a built web bundle it stops before any work: it never claims to serve an app
//! it cannot serve.

use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::thread;

use anyhow::Context;
use axum::Router;
use axum::serve::ListenerExt;

use podlens_api::DEMO_CORPUS;

use crate::config::Config;
use crate::generate::{GenerateOptions, generate};
use crate::{
    crawl_cmd, index_cmd, ingest_cmd, keys_cmd, model_cmd, progress, score_cmd, serve_cmd,
};

/// Flags of `podlens demo`.
#[derive(Debug, clap::Args)]
pub struct DemoArgs {
    /// Podcasts in the generated corpus.
    #[arg(long, default_value_t = 2000)]
    pub podcasts: usize,
    /// Seed of the generated corpus.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Share of episodes with a transcript.
    #[arg(long, default_value_t = 0.2)]
    pub transcript_share: f64,
    /// Port of the app.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Stop after building the catalog and the index (no server).
    #[arg(long)]
    pub no_serve: bool,
    /// Shards of the index (default: one per worker thread), as `podlens index --shards`.
    #[arg(long)]
    pub shards: Option<u32>,
    /// Write the generation's global term statistics, which search nodes of a cluster
    /// score with (`podlens index --statistics`).
    #[arg(long)]
    pub statistics: bool,
    /// The static embedding model folder: reused when built there, built otherwise
    /// (default: the cache dir's podlens-models/static-mpnet-768).
    #[arg(long, env = "PODLENS_STATIC_MODEL_DIR", value_name = "DIR")]
    pub static_model: Option<PathBuf>,
    /// Distil only the generated corpus's own vocabulary instead of the full static model:
    /// a minute instead of several, for smoke tests; semantic search then knows only the
    /// corpus's words.
    #[arg(long)]
    pub small_model: bool,
    /// The web app's built bundle (default: ./web/dist).
    #[arg(long, value_name = "DIR")]
    pub web_dir: Option<PathBuf>,
}

/// Runs the demo.
pub fn run(config: &Config, args: DemoArgs) -> anyhow::Result<()> {
    let web_dir = args
        .web_dir
        .clone()
        .unwrap_or_else(|| PathBuf::from("web/dist"));
    if !args.no_serve && !web_dir.join("index.html").is_file() {
        anyhow::bail!(
            "no web app bundle at {} (index.html missing): build it with `(cd web && npm ci && npm run build)`, or run ./scripts/demo.sh, which builds it",
            web_dir.display()
        );
    }
    let static_model = args
        .static_model
        .clone()
        .unwrap_or_else(model_cmd::default_static_model_dir);
    let data_dir = config.data_dir();
    std::fs::create_dir_all(&data_dir)
        .with_context(|| format!("cannot create {}", data_dir.display()))?;

    // Take the app's port first: the generated corpus is served under it (feeds, covers,
    // audio and sites at /demo-corpus/), by a corpus server while the pipeline runs and
    // by the app afterwards, so its URLs outlive this process.
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, args.port)))
        .with_context(|| {
            format!(
                "cannot listen on 127.0.0.1:{} (is another podlens running there? choose another port with --port)",
                args.port
            )
        })?;
    let app_address = listener.local_addr()?;
    let base_url = format!("http://{app_address}/{DEMO_CORPUS}");
    let corpus_dir = data_dir.join(DEMO_CORPUS);

    println!(
        "1/6 generating {} podcasts into {}",
        args.podcasts,
        corpus_dir.display()
    );
    let options = GenerateOptions {
        podcasts: args.podcasts,
        seed: args.seed,
        out: corpus_dir.clone(),
        base_url: base_url.clone(),
        transcript_share: args.transcript_share,
        chart_days: 30,
        // As of today: a show's newest episodes are recent, as in a catalog kept fresh,
        // and the corpus stays the same all day (`podlens generate --as-of` makes it).
        as_of: Some(chrono::Utc::now().date_naive()),
    };
    let bar = progress::bar(options.podcasts as u64, "podcasts", config.no_progress);
    let summary = generate(&options, &|| bar.inc(1)).context("cannot generate the corpus")?;
    bar.finish_and_clear();
    println!("    {summary}");

    let corpus_server = CorpusServer::start(listener, corpus_dir.clone())?;
    println!("2/6 ingesting the feeds from {base_url} (real HTTP on loopback)");
    ingest_cmd::run(config, ingest_args(&corpus_dir.join("feeds.opml")))?;

    println!("3/6 crawling the podcasts' websites for contacts and socials (loopback)");
    crawl_cmd::run(config, crawl_args())?;

    println!("4/6 scoring: chart movements, lookups and authority scores");
    score_cmd::run(
        config,
        score_cmd::ScoreArgs {
            charts: Some(corpus_dir.join("charts")),
            lookups: None,
        },
    )?;

    let frequency_text: Vec<PathBuf> = [corpus_dir.join("feeds"), corpus_dir.join("transcripts")]
        .into_iter()
        .filter(|dir| dir.is_dir())
        .collect();
    let vectors = Vectors {
        config: config.clone(),
        shards: args.shards,
        statistics: args.statistics,
        small_model: args.small_model,
        static_model,
        frequency_text,
    };

    println!("5/6 creating an admin API key for the demo");
    keys_cmd::run(
        config,
        keys_cmd::KeysArgs {
            command: keys_cmd::KeysCommand::Create {
                email: "demo@podlens.local".into(),
                plan: "admin".into(),
            },
        },
    )?;
    if args.no_serve {
        corpus_server.stop();
        println!("6/6 building the search index with its vectors");
        return vectors.build();
    }
    // Keyword search needs no vectors: the app serves as soon as the index is built,
    // and the vectors (the static model, then an index generation with them) follow in
    // the background; the server switches to that generation, and to hybrid and
    // semantic search, by itself.
    println!(
        "6/6 building the search index (keyword search first; its vectors follow once the app is up)"
    );
    index_cmd::run(
        config,
        index_cmd::IndexArgs {
            shards: args.shards,
            writer_memory_mb: 64,
            static_model: None,
            no_vectors: true,
            no_encoder: true,
            statistics: args.statistics,
        },
    )?;
    corpus_server.stop();
    serve_cmd::run_with(config, serve_args(app_address.port(), web_dir), |address| {
        println!("serving the app at http://{address}/ (Ctrl-C to stop)");
        println!(
            "    keyword search now; semantic and hybrid search once the vectors are built in the background (POST /api/v1/search/semantic answers 503 until then)"
        );
        vectors.spawn();
    })
}

/// The demo's vectors: the static embedding model (built once, then reused) and a search
/// index generation with them.
struct Vectors {
    config: Config,
    shards: Option<u32>,
    statistics: bool,
    small_model: bool,
    static_model: PathBuf,
    frequency_text: Vec<PathBuf>,
}

impl Vectors {
    /// Builds the model when needed, then publishes an index generation with vectors.
    fn build(&self) -> anyhow::Result<()> {
        let static_model = if self.small_model {
            println!("    a static embedding model over the corpus's own words (--small-model)");
            model_cmd::vocabulary_model(&self.frequency_text)?
        } else {
            println!(
                "    the static embedding model in {} (built once from all-mpnet-base-v2, then reused)",
                self.static_model.display()
            );
            model_cmd::build(
                &self.config,
                model_cmd::BuildArgs::demo(self.static_model.clone(), self.frequency_text.clone()),
            )
            .context("the demo's semantic search needs the static embedding model")?;
            self.static_model.clone()
        };
        index_cmd::run(
            &self.config,
            index_cmd::IndexArgs {
                shards: self.shards,
                writer_memory_mb: 64,
                static_model: Some(static_model),
                no_vectors: false,
                no_encoder: false,
                statistics: self.statistics,
            },
        )
    }

    /// [`Vectors::build`] on a thread of its own, while the app serves keyword search.
    fn spawn(self) {
        let spawned = std::thread::Builder::new()
            .name("demo-vectors".into())
            .spawn(move || {
                let started = std::time::Instant::now();
                match self.build() {
                    Ok(()) => println!(
                        "vectors ready after {:.0} s: hybrid and semantic search are on",
                        started.elapsed().as_secs_f64()
                    ),
                    Err(error) => eprintln!(
                        "the vectors were not built ({error:#}): search stays keyword-only; `podlens model build` then `podlens index` add them"
                    ),
                }
            });
        if let Err(error) = spawned {
            eprintln!("cannot start building the vectors ({error}): search stays keyword-only");
        }
    }
}

fn ingest_args(opml: &Path) -> ingest_cmd::IngestArgs {
    ingest_cmd::IngestArgs {
        sources: vec![opml.display().to_string()],
        concurrency: 32,
        per_host: 32,
        timeout_secs: 30,
        max_feed_mb: 50,
        no_transcripts: false,
        no_export: false,
        // The corpus is served on loopback.
        allow_private: true,
        memory_limit_mb: ingest_cmd::DEFAULT_MEMORY_LIMIT_MB,
        checkpoint_mb: ingest_cmd::DEFAULT_CHECKPOINT_MB,
    }
}

/// Every site sits on the corpus server's one loopback host: no politeness delay,
/// several requests at once, private addresses allowed.
fn crawl_args() -> crawl_cmd::CrawlArgs {
    crawl_cmd::CrawlArgs {
        url: None,
        json: false,
        allow_private: true,
        max_pages: 12,
        max_depth: 2,
        delay_ms: 0,
        per_host: 16,
        sites: 32,
        country: None,
        cache_dir: None,
    }
}

fn serve_args(port: u16, web_dir: PathBuf) -> serve_cmd::ServeArgs {
    serve_cmd::ServeArgs {
        port,
        bind: std::net::IpAddr::V4(Ipv4Addr::LOCALHOST),
        web_dir: Some(web_dir),
        // The demo's feeds are served on loopback.
        allow_private: true,
        whisper_model: None,
        // The app serves the corpus under /demo-corpus/: its feeds are polled as any.
        no_poll: false,
        public_url: None,
        metrics_token: None,
        etcd: Vec::new(),
        etcd_prefix: "podlens".into(),
        search_nodes: Vec::new(),
        cluster_token: None,
    }
}

/// The generated corpus served under `/demo-corpus/` on the app's port while the pipeline
/// runs, on a thread of its own.
struct CorpusServer {
    stop: tokio::sync::oneshot::Sender<()>,
    thread: thread::JoinHandle<()>,
}

impl CorpusServer {
    fn start(listener: TcpListener, root: PathBuf) -> anyhow::Result<CorpusServer> {
        listener.set_nonblocking(true)?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .context("cannot start the corpus server's runtime")?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = thread::Builder::new()
            .name("demo-corpus-server".into())
            .spawn(move || {
                runtime.block_on(async move {
                    let listener = match tokio::net::TcpListener::from_std(listener) {
                        Ok(listener) => listener,
                        Err(error) => {
                            tracing::error!(%error, "corpus server cannot listen");
                            return;
                        }
                    };
                    // TCP_NODELAY: a response's last small segment must not wait for the
                    // ingest client's delayed ACK (40 ms), once per feed.
                    let listener = listener.tap_io(|stream| {
                        let _ = stream.set_nodelay(true);
                    });
                    // The app's own handler of /demo-corpus/, so the corpus is served
                    // the same way before and after the app starts.
                    let app = Router::new().fallback(move |request: axum::extract::Request| {
                        let root = root.clone();
                        async move { podlens_api::web::serve_demo_corpus(&root, request).await }
                    });
                    tokio::select! {
                        served = axum::serve(listener, app).into_future() => {
                            if let Err(error) = served {
                                tracing::error!(%error, "corpus server stopped");
                            }
                        }
                        _ = stopped => {}
                    }
                });
                // Dropping the runtime closes the listener and every open connection.
                drop(runtime);
            })
            .context("cannot start the corpus server thread")?;
        Ok(CorpusServer { stop, thread })
    }

    /// Stops serving and frees the port (the app takes it next).
    fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.thread.join();
    }
}
