//! Crawl throughput over a generated corpus's websites (`podlens generate` writes
//! `sites/<slug>/`), each site on a host of its own: the corpus is served on one port
//! of every loopback address (0.0.0.0), and site `i` is crawled as
//! `http://127.A.B.C:PORT/sites/<slug>/`, so the crawler's per-host politeness applies
//! per site, exactly as across the web. Crawls every site once into a fresh HTTP cache,
//! then again (revalidations), and prints sites, pages, errors, seconds and pages/s.
//!
//! `cargo run --release -p podlens-crawler --example crawl_bench -- CORPUS [SITES] [AT_ONCE] [DELAY_MS]`

use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use podlens_crawler::{CrawlOptions, Crawler};
use tower_http::services::ServeDir;

#[derive(Default)]
struct Pass {
    sites: u64,
    failed: u64,
    pages: u64,
    errors: u64,
    cache_hits: u64,
    emails: u64,
    socials: u64,
    seconds: f64,
}

/// The loopback address of site `index` (127.1.1.1 upwards, never .0 or .255).
fn site_host(index: usize) -> Ipv4Addr {
    let index = u32::try_from(index).unwrap_or(u32::MAX);
    Ipv4Addr::new(
        127,
        (1 + index / 62_500) as u8,
        (1 + (index / 250) % 250) as u8,
        (1 + index % 250) as u8,
    )
}

fn site_slugs(corpus: &Path, limit: usize) -> std::io::Result<Vec<String>> {
    let mut slugs: Vec<String> = std::fs::read_dir(corpus.join("sites"))?
        .filter_map(|entry| {
            let entry = entry.ok()?;
            entry
                .file_type()
                .ok()?
                .is_dir()
                .then(|| entry.file_name().to_string_lossy().into_owned())
        })
        .collect();
    slugs.sort();
    slugs.truncate(limit);
    Ok(slugs)
}

async fn crawl_all(crawler: &Crawler, urls: &[String], at_once: usize) -> Pass {
    let started = Instant::now();
    let slots = Arc::new(tokio::sync::Semaphore::new(at_once.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    for url in urls {
        let crawler = crawler.clone();
        let slots = Arc::clone(&slots);
        let url = url.clone();
        tasks.spawn(async move {
            let _slot = slots.acquire_owned().await;
            crawler.crawl(&url).await
        });
    }
    let mut pass = Pass {
        sites: urls.len() as u64,
        ..Pass::default()
    };
    while let Some(joined) = tasks.join_next().await {
        match joined {
            Ok(Ok(result)) => {
                pass.pages += result.stats.pages_crawled;
                pass.errors += result.stats.errors;
                pass.cache_hits += result.stats.cache_hits;
                pass.emails += result.emails.len() as u64;
                pass.socials += result.socials.len() as u64;
            }
            Ok(Err(error)) => {
                pass.failed += 1;
                if pass.failed <= 3 {
                    eprintln!("site not crawled: {error}");
                }
            }
            Err(_) => pass.failed += 1,
        }
    }
    pass.seconds = started.elapsed().as_secs_f64();
    pass
}

fn print(label: &str, pass: &Pass) {
    println!(
        "{label:<28} {:>6} sites ({} failed) {:>7} pages {:>5} page errors {:>7} cache hits \
         {:>6} emails {:>6} socials {:>7.1} s {:>8.0} pages/s",
        pass.sites,
        pass.failed,
        pass.pages,
        pass.errors,
        pass.cache_hits,
        pass.emails,
        pass.socials,
        pass.seconds,
        pass.pages as f64 / pass.seconds.max(1e-9)
    );
}

/// `crawl_bench serve CORPUS`: serves the corpus on every loopback address and prints
/// the port. The crawl runs in another process so that the server's connections and
/// the crawler's pooled ones do not share one open-files limit.
fn serve(corpus: PathBuf) -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener =
            tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::UNSPECIFIED, 0))).await?;
        println!("{}", listener.local_addr()?.port());
        let app = Router::new().fallback_service(ServeDir::new(&corpus));
        axum::serve(listener, app).await?;
        Ok(())
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1).peekable();
    if args.peek().map(String::as_str) == Some("serve") {
        let corpus = args.nth(1).ok_or("usage: crawl_bench serve CORPUS")?;
        return serve(PathBuf::from(corpus));
    }
    let corpus = PathBuf::from(
        args.next()
            .ok_or("usage: crawl_bench CORPUS [SITES] [AT_ONCE] [DELAY_MS]")?,
    );
    let limit: usize = args.next().map_or(Ok(10_000), |n| n.parse())?;
    let at_once: usize = args.next().map_or(Ok(1_000), |n| n.parse())?;
    let delay_ms: u64 = args.next().map_or(Ok(1_000), |n| n.parse())?;
    let slugs = site_slugs(&corpus, limit)?;

    let mut server = std::process::Command::new(std::env::current_exe()?)
        .arg("serve")
        .arg(&corpus)
        .stdout(std::process::Stdio::piped())
        .spawn()?;
    let mut port = String::new();
    if let Some(stdout) = server.stdout.take() {
        std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut port)?;
    }
    let port: u16 = port.trim().parse()?;
    let outcome = crawl(&slugs, port, at_once, delay_ms);
    server.kill()?;
    server.wait()?;
    outcome
}

fn crawl(
    slugs: &[String],
    port: u16,
    at_once: usize,
    delay_ms: u64,
) -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let urls: Vec<String> = slugs
            .iter()
            .enumerate()
            .map(|(index, slug)| format!("http://{}:{port}/sites/{slug}/", site_host(index)))
            .collect();
        let cache = tempfile::tempdir()?;
        let crawler = Crawler::new(CrawlOptions {
            politeness_delay: Duration::from_millis(delay_ms),
            per_host_concurrency: 1,
            cache_dir: Some(cache.path().to_path_buf()),
            allow_private: true,
            ..CrawlOptions::default()
        })?;
        println!(
            "{} sites on {} loopback hosts, {at_once} sites at once, {delay_ms} ms between \
             two requests to one host, 1 request per host in flight, {} pages per site at most",
            urls.len(),
            urls.len(),
            CrawlOptions::default().max_pages
        );
        print("first crawl", &crawl_all(&crawler, &urls, at_once).await);
        print(
            "re-crawl (HTTP cache)",
            &crawl_all(&crawler, &urls, at_once).await,
        );
        Ok::<(), Box<dyn std::error::Error>>(())
    })
}
