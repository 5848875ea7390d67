//! `podlens search-node`: serve some shards of the data directory's published index
//! generation to the API nodes of a cluster (see docs/cluster.md).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use anyhow::Context;
use clap::Args;

use crate::config::Config;

/// Flags of `podlens search-node`.
#[derive(Debug, Clone, Args)]
pub struct SearchNodeArgs {
    /// TCP port (0 picks a free one; the chosen address is printed).
    #[arg(long, env = "PODLENS_PORT", default_value_t = 8090)]
    pub port: u16,

    /// Address to bind; loopback unless told otherwise.
    #[arg(long, env = "PODLENS_BIND", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,

    /// The node's name in the cluster (default: search-<port>).
    #[arg(long, env = "PODLENS_NODE_NAME")]
    pub name: Option<String>,

    /// Where the API nodes reach this node (default: http://<bind>:<port>).
    #[arg(long, env = "PODLENS_NODE_URL", value_name = "URL")]
    pub url: Option<String>,

    /// The shards to serve, comma-separated (default: every shard; with --etcd the
    /// membership decides).
    #[arg(long, value_delimiter = ',', conflicts_with = "etcd")]
    pub shards: Vec<u32>,

    /// etcd's endpoints (comma-separated `http://host:2379`): the node keeps its entry
    /// there under a lease and serves the shards rendezvous hashing gives it among the
    /// live search nodes.
    #[arg(long, env = "PODLENS_ETCD", value_delimiter = ',', value_name = "URLS")]
    pub etcd: Vec<String>,

    /// The prefix of the cluster's keys in etcd.
    #[arg(long, env = "PODLENS_ETCD_PREFIX", default_value = "podlens")]
    pub etcd_prefix: String,

    /// How many search nodes serve each shard (with --etcd).
    #[arg(long, default_value_t = 2)]
    pub replicas: usize,

    /// The object store holding the cluster's index generations (`s3://bucket/prefix`,
    /// with AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_ALLOW_HTTP for
    /// a store other than AWS's; or `file:///dir`): the node pulls the shards it serves
    /// of the newest generation the metastore (`--database-url`) lists, into its data
    /// directory's index. Without it, the node serves the index published in its data
    /// directory.
    #[arg(long, env = "PODLENS_OBJECT_STORE", value_name = "URL")]
    pub object_store: Option<String>,

    /// The cluster's shared secret: the internal routes refuse calls without it.
    #[arg(long, env = "PODLENS_CLUSTER_TOKEN", hide_env_values = true)]
    pub cluster_token: Option<String>,
}

/// Serves until Ctrl-C or SIGTERM.
pub fn run(config: &Config, args: SearchNodeArgs) -> anyhow::Result<()> {
    if !args.bind.is_loopback() && args.cluster_token.is_none() {
        anyhow::bail!(
            "a search node bound to {} needs --cluster-token (or PODLENS_CLUSTER_TOKEN): its routes would be open to anyone who reaches it",
            args.bind
        );
    }
    let address = SocketAddr::new(args.bind, args.port);
    let options = podlens_api::search_node::SearchNodeOptions {
        index_dir: config.data_dir().join("index"),
        address,
        // Named after the port it listens on, once bound (port 0 picks one).
        name: args.name.unwrap_or_default(),
        public_url: args.url,
        shards: args.shards,
        token: args.cluster_token,
        etcd: args.etcd,
        etcd_prefix: args.etcd_prefix,
        replicas: args.replicas,
        metastore: args.object_store.as_ref().map(|_| config.store_location()),
        object_store: args.object_store,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime
        .block_on(podlens_api::search_node::serve(options, |address| {
            println!("podlens search node listening on http://{address}");
        }))
        .context("search node stopped")
}
