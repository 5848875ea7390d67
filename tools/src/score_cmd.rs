//! `podlens score`: chart movements, platform lookups (ratings with Wilson bounds,
//! followers), the authority score of every podcast and the sponsors named in its
//! episodes' show notes, written to the catalog.

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use podlens_data::{Catalog, ChartPositionRow, PlatformLookupRow};
use podlens_ingest::sponsors::episode_sponsor_mentions;
use podlens_model::entities::{AuthorityInputs, WebsiteCrawlResult};
use podlens_model::social::{apple_podcast_id, spotify_show_id};
use podlens_scoring::authority::{authority_score, feed_inputs};
use podlens_scoring::charts::{ChartRow, compute_movements, read_snapshot_dir};
use podlens_scoring::lookups::{LookupImporters, LookupRecord};
use uuid::Uuid;

use crate::config::Config;

/// Flags of `podlens score`.
#[derive(Debug, Clone, Args)]
pub struct ScoreArgs {
    /// Chart snapshots (`<type>/<country>/<category>/<date>.json`); default `<data-dir>/charts`.
    #[arg(long, value_name = "DIR")]
    pub charts: Option<PathBuf>,
    /// Lookup files (`<platform>.json`); default `<data-dir>/lookups`.
    #[arg(long, value_name = "DIR")]
    pub lookups: Option<PathBuf>,
}

/// Podcast ids by the ids charts and lookups name them with: the directory ids of
/// the feed, those found on the podcast's website, and the feed URL.
#[derive(Debug, Default)]
struct IdMap {
    apple: HashMap<String, Uuid>,
    spotify: HashMap<String, Uuid>,
    feeds: HashMap<String, Uuid>,
}

impl IdMap {
    fn build(
        catalog: &Catalog,
        crawls: &HashMap<Uuid, WebsiteCrawlResult>,
    ) -> anyhow::Result<IdMap> {
        let mut ids = IdMap::default();
        for links in catalog.podcast_links()? {
            let id = links.podcast_id;
            ids.feeds.insert(links.feed_url.clone(), id);
            if let Some(apple) = links.apple_id {
                ids.apple.insert(apple, id);
            }
            if let Some(spotify) = links.spotify_id {
                ids.spotify.insert(spotify, id);
            }
            if let Some(crawl) = crawls.get(&id) {
                for apple in crawl
                    .apple_podcast_links
                    .iter()
                    .filter_map(|url| apple_podcast_id(url))
                {
                    ids.apple.entry(apple).or_insert(id);
                }
                for spotify in crawl
                    .spotify_podcast_links
                    .iter()
                    .filter_map(|url| spotify_show_id(url))
                {
                    ids.spotify.entry(spotify).or_insert(id);
                }
            }
        }
        Ok(ids)
    }

    fn podcast(&self, platform: &str, key: &str) -> Option<Uuid> {
        match platform {
            "apple" => self.apple.get(key).copied(),
            "spotify" => self.spotify.get(key).copied(),
            _ => None,
        }
    }

    /// The podcast a chart entry names: by its platform id, else by its feed URL.
    fn charted(&self, row: &ChartRow) -> Option<Uuid> {
        self.podcast(row.key.chart_type.as_str(), &row.podcast_on_chart_id)
            .or_else(|| {
                row.feed_url
                    .as_ref()
                    .and_then(|url| self.feeds.get(url).copied())
            })
    }
}

pub fn run(config: &Config, args: ScoreArgs) -> anyhow::Result<()> {
    let data_dir = config.data_dir();
    let mut catalog = Catalog::open(&data_dir)
        .with_context(|| format!("cannot open the catalog in {}", data_dir.display()))?;
    let crawls = catalog.crawl_results()?;
    let ids = IdMap::build(&catalog, &crawls)?;

    let charts_dir = args.charts.unwrap_or_else(|| data_dir.join("charts"));
    let chart_rows = if charts_dir.is_dir() {
        compute_movements(&read_snapshot_dir(&charts_dir)?)
    } else {
        Vec::new()
    };
    let stored_rows: Vec<ChartPositionRow> = chart_rows
        .iter()
        .map(|row| chart_position_row(row, &ids))
        .collect();
    let charted = catalog.import_charts(&stored_rows)?;
    let best_positions = best_positions(&stored_rows);

    let lookups_dir = args.lookups.unwrap_or_else(|| data_dir.join("lookups"));
    let lookups = if lookups_dir.is_dir() {
        LookupImporters::standard().import_dir(&lookups_dir)?
    } else {
        Vec::new()
    };
    let lookup_rows: Vec<PlatformLookupRow> = lookups
        .iter()
        .map(|record| lookup_row(record, &ids))
        .collect();
    catalog.store_lookups(&lookup_rows)?;
    let mut by_podcast: HashMap<Uuid, Vec<&PlatformLookupRow>> = HashMap::new();
    for row in &lookup_rows {
        if let Some(id) = row.podcast_id {
            by_podcast.entry(id).or_default().push(row);
        }
    }

    let now = chrono::Utc::now();
    // Ages count to the catalog's newest episode, not to the clock: the same catalog
    // scores the same whenever and wherever it is scored (a cluster's build and a single
    // node's, minutes apart, gave shows a day's difference in age), as search's recency
    // prior counts from the newest episode too.
    let as_of = catalog.newest_publication(now)?.unwrap_or(now);
    let bar = crate::progress::bar(catalog.counts()?.podcasts, "podcasts", config.no_progress);
    let mut scores = Vec::new();
    let mut podcast_ids = Vec::new();
    let mut sponsor_mentions = Vec::new();
    catalog.for_each_podcast_with_episodes(|podcast, episodes| -> anyhow::Result<()> {
        bar.inc(1);
        let podcast_id = podcast.podcast_id;
        podcast_ids.push(podcast_id);
        sponsor_mentions.extend(episodes.iter().flat_map(episode_sponsor_mentions));
        let mut inputs = feed_inputs(&podcast, &episodes, as_of);
        inputs.website_links = crawls
            .get(&podcast_id)
            .map(|crawl| crawl.socials.len() as u64);
        inputs.best_chart_position = best_positions.get(&podcast_id).copied();
        add_lookups(
            &mut inputs,
            by_podcast
                .get(&podcast_id)
                .map(Vec::as_slice)
                .unwrap_or(&[]),
        );
        if let Some(score) = authority_score(&inputs) {
            scores.push((
                score.details(&podcast_id.to_string(), &inputs, now),
                score.coverage,
            ));
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    catalog.store_scores(&scores)?;
    let sponsors = catalog.store_sponsor_mentions(&podcast_ids, &sponsor_mentions)?;
    println!(
        "scored {} podcasts; {charted} chart positions, {} lookups, {sponsors} sponsor mentions in show notes",
        scores.len(),
        lookup_rows.len()
    );
    crate::crawl_cmd::publish_snapshot(&catalog)
}

fn chart_position_row(row: &ChartRow, ids: &IdMap) -> ChartPositionRow {
    ChartPositionRow {
        chart_type: row.key.chart_type.as_str().to_owned(),
        frequency: row.key.frequency.as_str().to_owned(),
        country: row.key.country.clone(),
        category: row.key.category.clone(),
        chart_date: row.chart_date,
        captured_at: row.captured_at,
        position: row.position,
        podcast_on_chart_id: row.podcast_on_chart_id.clone(),
        podcast_id: ids.charted(row),
        title: row.title.clone(),
        creator: row.creator.clone(),
        image_url: row.image_url.clone(),
        feed_url: row.feed_url.clone(),
        previous_position: row.previous_position,
        position_change: row.position_change,
        movement: row.movement.as_str().to_owned(),
        days_in_chart: row.days_in_chart,
        streak: row.streak,
    }
}

/// Each podcast's best position on any chart's latest snapshot.
fn best_positions(rows: &[ChartPositionRow]) -> HashMap<Uuid, u32> {
    let mut latest: HashMap<(&str, &str, &str, &str), chrono::NaiveDateTime> = HashMap::new();
    for row in rows {
        let key = (
            row.chart_type.as_str(),
            row.frequency.as_str(),
            row.country.as_str(),
            row.category.as_str(),
        );
        let entry = latest.entry(key).or_insert(row.captured_at);
        *entry = (*entry).max(row.captured_at);
    }
    let mut best: HashMap<Uuid, u32> = HashMap::new();
    for row in rows {
        let key = (
            row.chart_type.as_str(),
            row.frequency.as_str(),
            row.country.as_str(),
            row.category.as_str(),
        );
        if latest.get(&key) != Some(&row.captured_at) {
            continue;
        }
        if let Some(id) = row.podcast_id {
            let slot = best.entry(id).or_insert(row.position);
            *slot = (*slot).min(row.position);
        }
    }
    best
}

fn lookup_row(record: &LookupRecord, ids: &IdMap) -> PlatformLookupRow {
    let podcast_id = record
        .podcast_id
        .as_deref()
        .and_then(|id| Uuid::parse_str(id).ok())
        .or_else(|| ids.podcast(&record.platform, &record.key));
    PlatformLookupRow {
        platform: record.platform.clone(),
        lookup_key: record.key.clone(),
        podcast_id,
        rating: record.rating,
        ratings_count: record.ratings_count,
        wilson_score: record.wilson_score,
        followers: record.followers,
        following: record.following,
        posts: record.posts,
        likes: record.likes,
        subscribers: record.subscribers,
        views: record.views,
        plays: record.plays,
    }
}

/// Adds what the lookups know; reviews come from Apple, or Spotify when Apple has none.
fn add_lookups(inputs: &mut AuthorityInputs, rows: &[&PlatformLookupRow]) {
    let of = |platform: &str| rows.iter().find(|row| row.platform == platform);
    let known_followers: Vec<u64> = ["instagram", "twitter", "tiktok", "facebook"]
        .iter()
        .filter_map(|platform| of(platform).and_then(|row| row.followers))
        .collect();
    inputs.follower_count = (!known_followers.is_empty()).then(|| {
        known_followers
            .iter()
            .fold(0u64, |total, v| total.saturating_add(*v))
    });
    if let Some(youtube) = of("youtube") {
        inputs.youtube_subscribers = youtube.subscribers.or(youtube.followers);
        inputs.youtube_views = youtube.views;
    }
    if let Some(reviews) = of("apple")
        .filter(|row| row.rating.is_some())
        .or_else(|| of("spotify"))
    {
        inputs.rating = reviews.rating;
        inputs.review_count = reviews.ratings_count;
    }
    if let Some(castbox) = of("castbox") {
        inputs.castbox_plays = castbox.plays;
        inputs.castbox_subscribers = castbox.subscribers.or(castbox.followers);
    }
}
