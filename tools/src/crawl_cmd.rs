//! `podlens crawl`: crawl every podcast's website into the catalog, or one site
//! (`--url URL --json`) printing its website crawl result.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use podlens_crawler::{CrawlOptions, Crawler};
use podlens_data::Catalog;

use crate::config::Config;

/// Flags of `podlens crawl`.
#[derive(Debug, Clone, Args)]
pub struct CrawlArgs {
    /// Crawl only this site instead of every podcast's website in the catalog.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Print the crawl result as JSON (with --url).
    #[arg(long, requires = "url")]
    pub json: bool,
    /// Allow private, loopback and link-local addresses (local test servers).
    #[arg(long)]
    pub allow_private: bool,
    /// Pages fetched per site at most.
    #[arg(long, default_value_t = 12)]
    pub max_pages: usize,
    /// Link hops from the home page at most.
    #[arg(long, default_value_t = 2)]
    pub max_depth: usize,
    /// Least milliseconds between two requests to one host.
    #[arg(long, default_value_t = 1_000)]
    pub delay_ms: u64,
    /// Requests in flight to one host at most.
    #[arg(long, default_value_t = 1)]
    pub per_host: usize,
    /// Sites crawled at once.
    #[arg(long, default_value_t = 32)]
    pub sites: usize,
    /// Country (ISO alpha-2) for national phone numbers when a podcast has none.
    #[arg(long)]
    pub country: Option<String>,
    /// HTTP cache directory (default: <data-dir>/http-cache/sites).
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
}

impl CrawlArgs {
    fn options(&self, cache_dir: Option<PathBuf>) -> CrawlOptions {
        CrawlOptions {
            max_pages: self.max_pages.max(1),
            max_depth: self.max_depth,
            politeness_delay: Duration::from_millis(self.delay_ms),
            per_host_concurrency: self.per_host.max(1),
            cache_dir,
            allow_private: self.allow_private,
            default_country: self.country.clone(),
            ..CrawlOptions::default()
        }
    }
}

pub fn run(config: &Config, args: CrawlArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    match args.url.clone() {
        Some(url) => runtime.block_on(crawl_one(&args, &url)),
        None => runtime.block_on(crawl_catalog(config, &args)),
    }
}

async fn crawl_one(args: &CrawlArgs, url: &str) -> anyhow::Result<()> {
    let crawler = Crawler::new(args.options(args.cache_dir.clone()))?;
    let result = crawler
        .crawl(url)
        .await
        .with_context(|| format!("cannot crawl {url}"))?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&result)?);
    } else {
        println!(
            "{}: {} pages, {} emails, {} phones, {} socials, {} directory links, {} errors",
            result.stats.base_url,
            result.stats.pages_crawled,
            result.emails.len(),
            result.phone_numbers.len(),
            result.socials.len(),
            result.podcast_directory_links.len(),
            result.stats.errors
        );
    }
    Ok(())
}

async fn crawl_catalog(config: &Config, args: &CrawlArgs) -> anyhow::Result<()> {
    let data_dir = config.data_dir();
    let mut catalog = Catalog::open(&data_dir)
        .with_context(|| format!("cannot open the catalog in {}", data_dir.display()))?;
    let cache_dir = args
        .cache_dir
        .clone()
        .unwrap_or_else(|| data_dir.join("http-cache").join("sites"));
    let crawler = Crawler::new(args.options(Some(cache_dir)))?;
    let sites: Vec<_> = catalog
        .podcast_links()?
        .into_iter()
        .filter_map(|links| {
            Some((
                links.podcast_id,
                links.website_url?,
                country_of(links.location.as_deref()),
            ))
        })
        .collect();
    let bar = crate::progress::bar(sites.len() as u64, "sites", config.no_progress);
    let slots = Arc::new(tokio::sync::Semaphore::new(args.sites.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    for (podcast_id, website, country) in sites {
        let crawler = crawler.clone();
        let slots = Arc::clone(&slots);
        let country = country.or_else(|| args.country.clone());
        tasks.spawn(async move {
            let _slot = slots.acquire_owned().await;
            let result = crawler
                .crawl_with_country(&website, country.as_deref())
                .await;
            (podcast_id, website, result)
        });
    }
    let (mut stored, mut failed, mut pages) = (0u64, 0u64, 0u64);
    while let Some(joined) = tasks.join_next().await {
        bar.inc(1);
        let Ok((podcast_id, website, result)) = joined else {
            failed += 1;
            continue;
        };
        match result {
            Ok(result) => {
                pages += result.stats.pages_crawled;
                catalog.store_crawl_result(podcast_id, &result, chrono::Utc::now())?;
                stored += 1;
            }
            Err(error) => {
                tracing::warn!(%podcast_id, %website, %error, "site not crawled");
                failed += 1;
            }
        }
    }
    bar.finish_and_clear();
    println!("crawled {stored} sites ({pages} pages), {failed} not crawled");
    publish_snapshot(&catalog)
}

/// Re-exports the Parquet snapshot so the server and the indexer see the enrichment.
pub(crate) fn publish_snapshot(catalog: &Catalog) -> anyhow::Result<()> {
    let summary = catalog
        .export_parquet()
        .context("cannot write the parquet snapshot")?;
    println!(
        "parquet snapshot in {} updated",
        summary.parquet_dir.display()
    );
    Ok(())
}

/// The country code of a podcast location such as `London, GB` or `US`.
fn country_of(location: Option<&str>) -> Option<String> {
    let last = location?.rsplit([',', ' ']).next()?.trim();
    let code = last.to_ascii_uppercase();
    podlens_model::countries::is_country_code(&code).then_some(code)
}
