//! `podlens serve`: the API and the web app over a data directory.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use crate::config::Config;

/// Flags of `podlens serve`.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// TCP port (0 picks a free one; the chosen address is printed).
    #[arg(long, env = "PODLENS_PORT", default_value_t = 8080)]
    pub port: u16,

    /// Address to bind; loopback unless told otherwise.
    #[arg(long, env = "PODLENS_BIND", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,

    /// The web app's built bundle (default: ./web/dist when it exists).
    #[arg(long, env = "PODLENS_WEB_DIR", value_name = "DIR")]
    pub web_dir: Option<PathBuf>,

    /// Let feed refreshes and the enclosure downloads of transcription requests fetch
    /// from, and team webhooks deliver to, private, loopback and link-local addresses
    /// (a local feed server, an intranet); refused by default.
    #[arg(long)]
    pub allow_private: bool,

    /// Speech to text for transcription requests: the Whisper model folder in
    /// CTranslate2 format (scripts/install-whisper.sh installs Whisper base in
    /// ~/.cache/podlens-models/whisper-base). Also `whisper-model` in podlens.toml.
    /// Without it, requests for episodes without a publisher transcript fail.
    #[arg(long, env = "PODLENS_WHISPER_MODEL", value_name = "DIR")]
    pub whisper_model: Option<PathBuf>,

    /// Do not re-read the catalog's feeds on their schedule (by default the leading
    /// node polls each feed at its own rhythm and publishes new episodes within
    /// minutes).
    #[arg(long, env = "PODLENS_NO_POLL")]
    pub no_poll: bool,

    /// The address users and hubs reach this service at (`https://podlens.example.com`):
    /// mailed sign-in and invitation links point there (else at the bound address; with
    /// `--bind 0.0.0.0` they need it), and feeds that declare a WebSub hub are subscribed
    /// to, their new episodes pushed to `<URL>/websub/…` within seconds. Without it,
    /// feeds are polled only.
    #[arg(long, env = "PODLENS_PUBLIC_URL", value_name = "URL")]
    pub public_url: Option<String>,

    /// The token `GET /metrics` asks of a scraper that is not on loopback
    /// (`Authorization: Bearer <token>`); without it, only loopback clients read the
    /// metrics.
    #[arg(
        long,
        env = "PODLENS_METRICS_TOKEN",
        value_name = "TOKEN",
        hide_env_values = true
    )]
    pub metrics_token: Option<String>,

    /// Run as an API node of a cluster whose search nodes are found in etcd at these
    /// endpoints (comma-separated `http://host:2379`): searches run on the search nodes
    /// that serve the published generation's shards, and feeds are not polled here (the
    /// cluster's batch refreshes the catalog). See docs/cluster.md.
    #[arg(long, env = "PODLENS_ETCD", value_delimiter = ',', value_name = "URLS")]
    pub etcd: Vec<String>,

    /// The prefix of the cluster's keys in etcd.
    #[arg(long, env = "PODLENS_ETCD_PREFIX", default_value = "podlens")]
    pub etcd_prefix: String,

    /// Run as an API node over these search nodes (comma-separated URLs), each asked
    /// what it serves, instead of finding them in etcd.
    #[arg(
        long,
        env = "PODLENS_SEARCH_NODES",
        value_delimiter = ',',
        value_name = "URLS"
    )]
    pub search_nodes: Vec<String>,

    /// The cluster's shared secret, sent to the search nodes.
    #[arg(long, env = "PODLENS_CLUSTER_TOKEN", hide_env_values = true)]
    pub cluster_token: Option<String>,
}

/// The cluster an API node searches, when `serve` is told of one.
fn cluster_options(
    args: &ServeArgs,
) -> anyhow::Result<Option<podlens_app::search::ClusterOptions>> {
    let membership = match (args.etcd.is_empty(), args.search_nodes.is_empty()) {
        (true, true) => return Ok(None),
        (false, true) => podlens_app::search::Membership::Etcd {
            endpoints: args.etcd.clone(),
            prefix: args.etcd_prefix.clone(),
        },
        (true, false) => podlens_app::search::Membership::Nodes(args.search_nodes.clone()),
        (false, false) => anyhow::bail!("give --etcd or --search-nodes, not both"),
    };
    Ok(Some(podlens_app::search::ClusterOptions {
        membership,
        token: args.cluster_token.clone(),
    }))
}

/// Serves until Ctrl-C.
pub fn run(config: &Config, args: ServeArgs) -> anyhow::Result<()> {
    run_with(config, args, |address| {
        println!("podlens listening on http://{address}");
    })
}

/// Serves until Ctrl-C; `on_listen` is told the address once the port is bound.
pub fn run_with(
    config: &Config,
    args: ServeArgs,
    on_listen: impl FnOnce(SocketAddr),
) -> anyhow::Result<()> {
    if let Some(url) = &args.public_url
        && !(url.starts_with("https://") || url.starts_with("http://"))
    {
        anyhow::bail!("--public-url must be an http:// or https:// address, not {url:?}");
    }
    let cluster = cluster_options(&args)?;
    let web_dir = args
        .web_dir
        .or_else(|| Some(PathBuf::from("web/dist")).filter(|dir| dir.is_dir()));
    let options = podlens_api::server::ServeOptions {
        data_dir: config.data_dir(),
        store: config.store_location(),
        address: SocketAddr::new(args.bind, args.port),
        web_dir,
        node: podlens_app::services::NodeOptions {
            smtp: config.smtp_settings()?,
            allow_private_feeds: args.allow_private,
            whisper_model: args.whisper_model.or_else(|| config.whisper_model.clone()),
            poll_feeds: !args.no_poll,
            public_url: args.public_url,
            // Set by the server once it is bound.
            listening_on: None,
            cluster,
        },
        metrics_token: args.metrics_token,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let served = runtime
        .block_on(podlens_api::server::serve(options, on_listen))
        .context("server stopped");
    // Background work still running (a search index warming, a transcription's child
    // process, a catalog write whose changes are listed for the next start) is not
    // waited for: everything it does is resumed or done again by the next start.
    runtime.shutdown_timeout(SHUTDOWN_GRACE);
    served
}

/// How long the server waits at exit for blocking work still under way.
const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(1);
