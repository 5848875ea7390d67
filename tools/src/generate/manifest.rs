//! `manifest.json`: the options, the counts and per-podcast ground truth, so that
//! ingest, crawler and search tests can check their results against what was written.

use serde::Serialize;

use super::Context;
use super::feed::FeedStats;
use super::show::Show;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest<'a> {
    pub format_version: u32,
    pub options: ManifestOptions<'a>,
    /// The date chart snapshots end on and every publication date precedes (YYYY-MM-DD).
    pub reference_date: String,
    pub counts: Counts,
    pub podcasts: &'a [PodcastTruth],
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ManifestOptions<'a> {
    pub podcasts: usize,
    pub seed: u64,
    pub base_url: &'a str,
    pub transcript_share: f64,
    pub chart_days: u32,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    pub podcasts: u64,
    pub episodes: u64,
    pub transcripts: u64,
    pub sites: u64,
    pub chart_snapshots: u64,
    pub well_formed_feeds: u64,
    pub malformed_feeds: u64,
    pub latin1_feeds: u64,
    pub feeds_with_broken_dates: u64,
}

/// What was written for one podcast.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastTruth {
    pub index: usize,
    /// Path of the feed under the output directory, e.g. `feeds/17.xml`.
    pub feed_file: String,
    pub feed_url: String,
    pub title: String,
    pub author: String,
    pub description: String,
    pub podcast_guid: Option<String>,
    pub site_slug: String,
    pub site_url: String,
    pub image_url: String,
    /// Primary language subtag (`en`) and the tag the feed writes (`en-US`).
    pub language: &'static str,
    pub language_tag: &'static str,
    pub category: &'static str,
    pub subcategory: Option<&'static str>,
    /// What the show is about, as its description names it ("gardening").
    pub theme: &'static str,
    pub explicit: bool,
    pub serial: bool,
    /// One of the spec's update frequencies: daily, weekly, bi-weekly, monthly, stale.
    pub cadence: &'static str,
    pub episodes: u32,
    pub transcripts: u32,
    pub transcript_format: &'static str,
    pub first_published: String,
    pub last_published: String,
    pub hosts: Vec<String>,
    pub owner_email: Option<String>,
    pub emails: Vec<EmailTruth>,
    pub phones: Vec<PhoneTruth>,
    pub socials: Vec<LinkTruth>,
    pub directories: Vec<LinkTruth>,
    pub apple_id: Option<u64>,
    pub spotify_id: Option<String>,
    pub sponsors: Vec<&'static str>,
    pub location: Option<&'static str>,
    /// False for feeds that are deliberately not well-formed XML.
    pub well_formed: bool,
    pub encoding: &'static str,
    /// Items whose `pubDate` is deliberately invalid or not RFC 822.
    pub broken_dates: u32,
    /// Items whose description holds a raw, undefined `&nbsp;`.
    pub undefined_entities: u32,
    pub itunes_block: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EmailTruth {
    pub address: String,
    /// How the contact page writes it: plain, at-dot, entities or percent.
    pub obfuscation: &'static str,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PhoneTruth {
    pub display: String,
    pub e164: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LinkTruth {
    /// The spec's wire name of the social platform or directory.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub url: String,
}

impl PodcastTruth {
    pub fn new(context: &Context, show: &Show, stats: &FeedStats) -> PodcastTruth {
        PodcastTruth {
            index: show.index,
            feed_file: format!("feeds/{}.xml", show.index),
            feed_url: Show::feed_url(context, show.index),
            title: show.title.clone(),
            author: show.author.clone(),
            description: show.description.clone(),
            podcast_guid: show.podcast_guid.map(|guid| guid.to_string()),
            site_slug: show.slug.clone(),
            site_url: show.site_url(context),
            image_url: show.image_url(context),
            language: show.language.code,
            language_tag: show.language_tag,
            category: show.category.name,
            subcategory: show.subcategory,
            theme: show.theme.name,
            explicit: show.explicit,
            serial: show.serial,
            cadence: show.cadence.as_str(),
            episodes: show.episode_count,
            transcripts: stats.transcripts.len() as u32,
            transcript_format: show.transcript_format.extension(),
            first_published: show.first_published.to_rfc3339(),
            last_published: show.last_published.to_rfc3339(),
            hosts: show.hosts.clone(),
            owner_email: show.emails.first().map(|(address, _)| address.clone()),
            emails: show
                .emails
                .iter()
                .map(|(address, style)| EmailTruth {
                    address: address.clone(),
                    obfuscation: style.as_str(),
                })
                .collect(),
            phones: show
                .phones
                .iter()
                .map(|phone| PhoneTruth {
                    display: phone.display.clone(),
                    e164: phone.e164.clone(),
                })
                .collect(),
            socials: show
                .socials
                .iter()
                .map(|(kind, url)| LinkTruth {
                    kind: kind.as_str(),
                    url: url.clone(),
                })
                .collect(),
            directories: show
                .directories
                .iter()
                .map(|(kind, url)| LinkTruth {
                    kind: kind.as_str(),
                    url: url.clone(),
                })
                .collect(),
            apple_id: show.apple_id,
            spotify_id: show.spotify_id.clone(),
            sponsors: show.sponsors.iter().map(|sponsor| sponsor.name).collect(),
            location: show.place.map(|place| place.name),
            well_formed: stats.undefined_entities == 0,
            encoding: if show.breakage.latin1 {
                "ISO-8859-1"
            } else {
                "UTF-8"
            },
            broken_dates: stats.broken_dates,
            undefined_entities: stats.undefined_entities,
            itunes_block: show.blocked,
        }
    }
}
