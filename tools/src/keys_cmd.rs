//! `podlens keys create`: an API key for a user, created with their team when new;
//! `podlens keys revoke`: stops a key at once, by the id its team's key list shows.

use anyhow::Context;
use clap::{Args, Subcommand};
use podlens_app::accounts::{AccountStore, SqlAccountStore};

use crate::config::Config;

/// Flags of `podlens keys`.
#[derive(Debug, Clone, Args)]
pub struct KeysArgs {
    #[command(subcommand)]
    pub command: KeysCommand,
}

#[derive(Debug, Clone, Subcommand)]
pub enum KeysCommand {
    /// Create a key (and the user and team when missing); the key is the last line printed.
    Create {
        /// The user's email address.
        #[arg(long)]
        email: String,
        /// The team's plan: free, individual, business, agency or admin.
        #[arg(long)]
        plan: String,
    },
    /// Revoke a key by its id (`keyId` of `GET /api/v1/teams/api-keys`, or the first 16
    /// hex digits of the key's SHA-256).
    Revoke {
        /// The key's id.
        #[arg(long)]
        key_id: String,
    },
}

pub fn run(config: &Config, args: KeysArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the command's runtime")?;
    match args.command {
        KeysCommand::Create { email, plan } => runtime.block_on(create(config, &email, &plan)),
        KeysCommand::Revoke { key_id } => runtime.block_on(revoke(config, &key_id)),
    }
}

/// The application store the server uses (it may be running: SQLite in WAL mode and
/// PostgreSQL both take a second process).
fn open_store(config: &Config) -> anyhow::Result<SqlAccountStore> {
    let database =
        podlens_app::services::open_app_store(&config.data_dir(), &config.store_location())
            .context("cannot open the application store")?;
    Ok(SqlAccountStore::new(database))
}

async fn revoke(config: &Config, key_id: &str) -> anyhow::Result<()> {
    let store = open_store(config)?;
    match store
        .revoke_key(None, key_id)
        .await
        .context("cannot revoke the key")?
    {
        Some(at) => {
            println!("API key {key_id} is revoked (since {})", at.to_rfc3339());
            Ok(())
        }
        None => anyhow::bail!("no API key with id {key_id}"),
    }
}

async fn create(config: &Config, email: &str, plan: &str) -> anyhow::Result<()> {
    let plan = podlens_app::plan::stored_plan_name(plan)?;
    let store = open_store(config)?;
    let created = store
        .create_api_key(email, plan)
        .await
        .context("cannot create the key")?;
    println!(
        "created an API key for {} (user {}, team {}, plan {}); it is shown only once:",
        created.account.email,
        created.account.user_id,
        created.account.team_id,
        created.account.plan
    );
    println!("{}", created.api_key);
    Ok(())
}
