//! A feed as written: every field the parser reads, before normalisation into the
//! catalog's records. Values are unescaped text; dates and numbers stay raw strings
//! here and are interpreted by `normalize`.

use std::collections::BTreeSet;

use serde::Serialize;

/// The syndication format of a document.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub enum FeedFormat {
    #[default]
    Rss,
    Atom,
    Rdf,
}

/// A parsed document: its channel, its complete items, and what went wrong on the way.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ParsedFeed {
    pub format: FeedFormat,
    pub channel: Channel,
    pub items: Vec<Item>,
    /// The document ended before its root element closed; only complete items are kept.
    pub truncated: bool,
    /// Syntax errors the parser stepped over.
    pub recovered_errors: Vec<String>,
    /// The encoding the bytes were read in.
    pub encoding: &'static str,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Channel {
    pub title: Option<String>,
    pub link: Option<String>,
    pub description: Option<String>,
    pub subtitle: Option<String>,
    pub summary: Option<String>,
    pub language: Option<String>,
    pub copyright: Option<String>,
    pub generator: Option<String>,
    pub author: Option<String>,
    pub managing_editor: Option<String>,
    pub web_master: Option<String>,
    pub owner_name: Option<String>,
    pub owner_email: Option<String>,
    pub image_url: Option<String>,
    pub itunes_image: Option<String>,
    /// iTunes categories and subcategories in document order.
    pub itunes_categories: Vec<String>,
    /// Plain RSS `<category>` and Atom `category@term` values.
    pub categories: Vec<String>,
    pub keywords: Vec<String>,
    pub explicit: Option<bool>,
    pub itunes_type: Option<String>,
    pub itunes_block: bool,
    pub itunes_complete: bool,
    pub new_feed_url: Option<String>,
    pub self_url: Option<String>,
    /// The WebSub hub the feed declares (`atom:link rel="hub"`).
    pub hub_url: Option<String>,
    /// RSS syndication module: `sy:updatePeriod` (hourly, daily, weekly, monthly,
    /// yearly) and `sy:updateFrequency` (how many times per period).
    pub sy_update_period: Option<String>,
    pub sy_update_frequency: Option<String>,
    pub pub_date: Option<String>,
    pub last_build_date: Option<String>,
    pub podcast_guid: Option<String>,
    pub locked: Option<bool>,
    pub locked_owner: Option<String>,
    pub medium: Option<String>,
    pub location: Option<Location>,
    pub funding: Vec<Funding>,
    pub value: Vec<Value>,
    pub persons: Vec<Person>,
    pub trailers: Vec<Trailer>,
    pub license: Option<License>,
    pub podroll: Vec<RemoteItem>,
    pub remote_items: Vec<RemoteItem>,
    pub txt: Vec<Txt>,
    pub social_interact: Vec<SocialInteract>,
    pub images: Vec<String>,
    pub update_frequency: Option<UpdateFrequencyTag>,
    /// `podcast:block` values: the platform slug (`None` for all) and yes/no.
    pub blocks: Vec<(Option<String>, bool)>,
    pub apple_id: Option<String>,
    /// Namespaced tags present anywhere in the feed (`podcast:transcript`,
    /// `itunes:image`, …), lowercase.
    pub tags: BTreeSet<String>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Item {
    pub title: Option<String>,
    pub link: Option<String>,
    pub guid: Option<String>,
    pub description: Option<String>,
    pub content_encoded: Option<String>,
    pub summary: Option<String>,
    pub subtitle: Option<String>,
    pub pub_date: Option<String>,
    pub updated: Option<String>,
    pub enclosures: Vec<Enclosure>,
    /// `media:content` files, used when there is no enclosure.
    pub media_contents: Vec<Enclosure>,
    pub duration: Option<String>,
    pub itunes_image: Option<String>,
    pub media_thumbnail: Option<String>,
    pub itunes_season: Option<String>,
    pub itunes_episode: Option<String>,
    pub episode_type: Option<String>,
    pub explicit: Option<bool>,
    pub keywords: Vec<String>,
    pub categories: Vec<String>,
    pub author: Option<String>,
    pub transcripts: Vec<TranscriptTag>,
    pub chapters: Option<Chapters>,
    pub persons: Vec<Person>,
    pub location: Option<Location>,
    pub funding: Vec<Funding>,
    pub value: Vec<Value>,
    pub alternate_enclosures: Vec<AlternateEnclosure>,
    pub social_interact: Vec<SocialInteract>,
    pub txt: Vec<Txt>,
    pub license: Option<License>,
    pub season: Option<Season>,
    pub episode: Option<EpisodeNumber>,
    pub images: Vec<String>,
    pub itunes_block: bool,
    /// Namespaced tags present in the item, lowercase.
    pub tags: BTreeSet<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Enclosure {
    pub url: String,
    pub mime_type: Option<String>,
    pub length: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Person {
    pub name: String,
    pub role: Option<String>,
    pub group: Option<String>,
    pub img: Option<String>,
    pub href: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TranscriptTag {
    pub url: String,
    pub mime_type: Option<String>,
    pub language: Option<String>,
    pub rel: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Chapters {
    pub url: String,
    pub mime_type: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Funding {
    pub url: String,
    pub text: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Value {
    pub kind: Option<String>,
    pub method: Option<String>,
    pub suggested: Option<String>,
    pub recipients: Vec<ValueRecipient>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ValueRecipient {
    pub name: Option<String>,
    pub kind: Option<String>,
    pub address: Option<String>,
    pub split: Option<String>,
    pub fee: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Location {
    pub name: String,
    pub geo: Option<String>,
    pub osm: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Trailer {
    pub title: String,
    pub url: Option<String>,
    pub pub_date: Option<String>,
    pub length: Option<String>,
    pub mime_type: Option<String>,
    pub season: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct License {
    pub name: String,
    pub url: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RemoteItem {
    pub feed_guid: Option<String>,
    pub feed_url: Option<String>,
    pub item_guid: Option<String>,
    pub medium: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Txt {
    pub purpose: Option<String>,
    pub text: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SocialInteract {
    pub protocol: Option<String>,
    pub uri: Option<String>,
    pub account_id: Option<String>,
    pub account_url: Option<String>,
    pub priority: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct AlternateEnclosure {
    pub mime_type: Option<String>,
    pub length: Option<String>,
    pub bitrate: Option<String>,
    pub height: Option<String>,
    pub language: Option<String>,
    pub title: Option<String>,
    pub rel: Option<String>,
    pub codecs: Option<String>,
    pub default: bool,
    pub sources: Vec<String>,
    pub integrity: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct UpdateFrequencyTag {
    pub text: String,
    pub complete: bool,
    pub dtstart: Option<String>,
    pub rrule: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Season {
    pub number: Option<String>,
    pub name: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct EpisodeNumber {
    pub number: Option<String>,
    pub display: Option<String>,
}
