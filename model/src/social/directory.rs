//! Podcast directory links (the 24 directories of SPEC.md §3): which directory a
//! link points into, the podcast's id there, and the Apple and Spotify ids.
//! Only links to a podcast's page count; home pages, apps, audiobooks, articles
//! and media files do not.

use super::url_input::{self, UrlParts, host_is};
use crate::kinds::DirectoryKind;
use serde::Serialize;

/// A podcast's page in a directory.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DirectoryLink {
    pub kind: DirectoryKind,
    /// The podcast's id (or slug) in that directory: the Apple id for Apple and
    /// Overcast, the 22-character show id for Spotify.
    pub id: String,
    /// The link as https without query or fragment; Apple and Spotify links are
    /// rebuilt from their ids.
    pub url: String,
}

/// The directory page `url` points to, if it is a podcast's page in one of the 24.
pub fn classify_directory_url(url: &str) -> Option<DirectoryLink> {
    let parts = url_input::parse(url).ok()?;
    let (kind, id) = directory_id(&parts)?;
    let url = match kind {
        DirectoryKind::Apple => format!("https://podcasts.apple.com/podcast/id{id}"),
        DirectoryKind::Spotify => format!("https://open.spotify.com/show/{id}"),
        DirectoryKind::Overcast => format!("https://overcast.fm/itunes{id}"),
        DirectoryKind::Google => format!("https://podcasts.google.com/feed/{id}"),
        _ => plain_url(&parts),
    };
    Some(DirectoryLink { kind, id, url })
}

/// The Apple Podcasts id a link carries: Apple Podcasts and iTunes podcast pages,
/// and the Overcast and Castro pages that are keyed by it.
pub fn apple_podcast_id(url: &str) -> Option<String> {
    let parts = url_input::parse(url).ok()?;
    let segments: Vec<&str> = parts.segments.iter().map(String::as_str).collect();
    match (parts.host.as_str(), segments.as_slice()) {
        ("overcast.fm", [first, ..]) => digits_after(first, "itunes"),
        ("castro.fm", ["itunes", id, ..]) => digits(id),
        _ => match directory_id(&parts)? {
            (DirectoryKind::Apple, id) => Some(id),
            _ => None,
        },
    }
}

/// The Spotify show id of an `open.spotify.com/show/…` link or a `spotify:show:…` URI.
pub fn spotify_show_id(url: &str) -> Option<String> {
    if let Some(id) = url.trim().strip_prefix("spotify:show:") {
        return is_spotify_id(id).then(|| id.to_owned());
    }
    let parts = url_input::parse(url).ok()?;
    match directory_id(&parts)? {
        (DirectoryKind::Spotify, id) => Some(id),
        _ => None,
    }
}

fn plain_url(parts: &UrlParts) -> String {
    let path: Vec<&str> = parts.segments.iter().map(String::as_str).collect();
    let text = format!("https://{}/{}", parts.host, path.join("/"));
    url::Url::parse(&text).map(String::from).unwrap_or(text)
}

fn digits(text: &str) -> Option<String> {
    (!text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit())).then(|| text.to_owned())
}

fn digits_after(text: &str, prefix: &str) -> Option<String> {
    digits(text.strip_prefix(prefix)?)
}

/// The digits after the last hyphen: `slug-12345` → `12345`.
fn trailing_number(text: &str) -> Option<String> {
    digits(text.rsplit_once('-')?.1)
}

fn is_spotify_id(id: &str) -> bool {
    id.len() == 22 && id.bytes().all(|byte| byte.is_ascii_alphanumeric())
}

fn is_uuid(text: &str) -> bool {
    uuid::Uuid::parse_str(text).is_ok() && text.len() == 36
}

fn slug(text: &str) -> Option<String> {
    let ok = !text.is_empty()
        && text
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_');
    ok.then(|| text.to_owned())
}

/// The directory and the podcast's id there.
fn directory_id(parts: &UrlParts) -> Option<(DirectoryKind, String)> {
    let host = parts.host.as_str();
    let segments: Vec<&str> = parts.segments.iter().map(String::as_str).collect();
    let segments = segments.as_slice();
    let found = match host {
        "podcasts.apple.com" | "itunes.apple.com" => {
            (DirectoryKind::Apple, apple_id(parts, segments)?)
        }
        "open.spotify.com" => (DirectoryKind::Spotify, spotify_id(segments)?),
        "podcasters.spotify.com" | "creators.spotify.com" => match segments {
            ["pod", "show", name, ..] => (DirectoryKind::Anchor, slug(name)?),
            _ => return None,
        },
        "anchor.fm" => (DirectoryKind::Anchor, anchor_show(segments)?),
        "castbox.fm" => (DirectoryKind::Castbox, castbox_id(segments)?),
        "castro.fm" => match segments {
            ["podcast", id, ..] if is_uuid(id) => (DirectoryKind::Castro, (*id).to_owned()),
            ["itunes", id, ..] => (DirectoryKind::Castro, digits(id)?),
            _ => return None,
        },
        "goodpods.com" => match segments {
            ["podcasts", name, ..] => (
                DirectoryKind::Goodpods,
                trailing_number(name).or_else(|| slug(name))?,
            ),
            _ => return None,
        },
        "podcasts.google.com" => match segments {
            ["feed", id, ..] => (DirectoryKind::Google, (*id).to_owned()),
            _ => (DirectoryKind::Google, parts.query_value("feed")?.to_owned()),
        },
        "google.com" => match segments {
            ["podcasts"] => (DirectoryKind::Google, parts.query_value("feed")?.to_owned()),
            _ => return None,
        },
        "iheart.com" => match segments {
            ["podcast", name, ..] => (DirectoryKind::Iheartradio, trailing_number(name)?),
            _ => return None,
        },
        "listennotes.com" => match segments {
            ["podcasts", name, ..] | [_, "podcasts", name, ..] => {
                (DirectoryKind::Listennotes, slug(name)?)
            }
            _ => return None,
        },
        "overcast.fm" => (
            DirectoryKind::Overcast,
            digits_after(segments.first()?, "itunes")?,
        ),
        "player.fm" => match segments {
            ["series", name, ..] | [_, "series", name, ..] => {
                (DirectoryKind::Playerfm, slug(name.split('.').next()?)?)
            }
            _ => return None,
        },
        "pca.st" => match segments {
            ["podcast", id, ..] => (DirectoryKind::Pocketcasts, slug(id)?),
            [code] => (DirectoryKind::Pocketcasts, slug(code)?),
            _ => return None,
        },
        "pocketcasts.com" | "play.pocketcasts.com" => match segments {
            ["podcast", _, id, ..] | ["podcasts", id, ..] if is_uuid(id) => {
                (DirectoryKind::Pocketcasts, (*id).to_owned())
            }
            _ => return None,
        },
        "podcastaddict.com" => (DirectoryKind::Podcastaddict, podcastaddict_id(segments)?),
        "podcastrepublic.net" => match segments {
            ["podcast", id, ..] => (DirectoryKind::Podcastrepublic, digits(id)?),
            _ => return None,
        },
        "podchaser.com" => match segments {
            ["podcasts", name, ..] => (DirectoryKind::Podchaser, trailing_number(name)?),
            _ => return None,
        },
        "podnews.net" => match segments {
            ["podcast", code, ..] => (DirectoryKind::Podnews, slug(code)?),
            _ => return None,
        },
        "podscan.fm" => match segments {
            ["podcasts", id, ..] => (DirectoryKind::Podscan, slug(id)?),
            _ => return None,
        },
        "radiopublic.com" => (DirectoryKind::Radiopublic, radiopublic_id(segments)?),
        "rephonic.com" => match segments {
            ["podcasts", name, ..] => (DirectoryKind::Rephonic, slug(name)?),
            _ => return None,
        },
        "tunein.com" => (DirectoryKind::Tunein, tunein_id(segments)?),
        _ if host.starts_with("music.amazon.") => match segments {
            ["podcasts", id, ..] if is_uuid(id) => (DirectoryKind::Amazonmusic, (*id).to_owned()),
            _ => return None,
        },
        _ if host_is(host, "podscribe.ai") || host_is(host, "podscribe.com") => match segments {
            ["series" | "podcasts", id, ..] => (DirectoryKind::Podscribe, slug(id)?),
            _ => return None,
        },
        _ if host_is(host, "podbean.com") => (DirectoryKind::Podbean, podbean_id(parts, segments)?),
        _ if is_audible_host(host) => (DirectoryKind::Audible, audible_podcast_id(segments)?),
        _ => return None,
    };
    Some(found)
}

fn apple_id(parts: &UrlParts, segments: &[&str]) -> Option<String> {
    let is_podcast =
        segments.contains(&"podcast") || segments.last().is_some_and(|last| *last == "viewPodcast");
    if !is_podcast {
        return None;
    }
    segments
        .iter()
        .rev()
        .find_map(|segment| digits_after(segment, "id"))
        .or_else(|| parts.query_value("id").and_then(digits))
}

fn spotify_id(segments: &[&str]) -> Option<String> {
    // `/show/ID`, `/intl-de/show/ID`, `/embed/show/ID`, `/embed-podcast/show/ID`
    let position = segments.iter().position(|segment| *segment == "show")?;
    if position > 1 {
        return None;
    }
    let id = segments.get(position + 1)?;
    is_spotify_id(id).then(|| (*id).to_owned())
}

#[rustfmt::skip]
const ANCHOR_RESERVED: &[&str] = &[
    "s", "login", "signup", "dashboard", "api", "privacy", "tos", "features", "switch", "about",
    "terms", "podcasts", "embed", "api.anchor.fm", "help", "blog",
];

fn anchor_show(segments: &[&str]) -> Option<String> {
    let first = segments.first()?;
    if ANCHOR_RESERVED.contains(first) {
        return None;
    }
    slug(first)
}

fn castbox_id(segments: &[&str]) -> Option<String> {
    match segments {
        ["ch", id, ..] => digits(id),
        ["channel" | "episode", name, ..] => {
            // `Name-id3005040`, `id3005040`, or for episodes `Title-id3005040-id123456789`:
            // the first id is the channel's.
            name.split('-').find_map(|piece| digits_after(piece, "id"))
        }
        _ => None,
    }
}

fn podcastaddict_id(segments: &[&str]) -> Option<String> {
    let position = segments.iter().position(|segment| *segment == "podcast")?;
    segments[position + 1..]
        .iter()
        .find_map(|segment| digits(segment))
}

#[rustfmt::skip]
const RADIOPUBLIC_RESERVED: &[&str] = &[
    "about", "blog", "login", "help", "search", "privacy", "terms", "podcasters",
];

fn radiopublic_id(segments: &[&str]) -> Option<String> {
    let first = segments.first()?;
    if RADIOPUBLIC_RESERVED.contains(first) {
        return None;
    }
    let (_, code) = first.rsplit_once('-')?;
    (code.len() == 6 && code.bytes().all(|byte| byte.is_ascii_alphanumeric()))
        .then(|| code.to_owned())
}

fn tunein_id(segments: &[&str]) -> Option<String> {
    if !matches!(segments.first(), Some(&"podcasts" | &"radio")) {
        return None;
    }
    segments.iter().find_map(|segment| {
        let (_, code) = segment.rsplit_once('-')?;
        let number = code.strip_prefix('p')?;
        digits(number).map(|_| code.to_owned())
    })
}

const PODBEAN_HOSTS_RESERVED: &[&str] = &[
    "feed", "api", "mcdn", "imglogo", "static", "help", "blog", "cdn", "img",
];

fn podbean_id(parts: &UrlParts, segments: &[&str]) -> Option<String> {
    match parts.subdomain_of("podbean.com") {
        None => match segments {
            ["podcast-detail", id, ..] => slug(id),
            _ => None,
        },
        Some(label) => {
            let is_media = label.starts_with("pbcdn")
                || PODBEAN_HOSTS_RESERVED.contains(&label)
                || label.contains('.')
                || segments.first() == Some(&"mf")
                || segments.last().is_some_and(|last| last.contains('.'));
            (!is_media).then(|| label.to_ascii_lowercase())
        }
    }
}

fn is_audible_host(host: &str) -> bool {
    matches!(
        host,
        "audible.com"
            | "audible.co.uk"
            | "audible.com.au"
            | "audible.de"
            | "audible.ca"
            | "audible.fr"
            | "audible.it"
            | "audible.in"
            | "audible.co.jp"
            | "audible.es"
            | "audible.com.br"
    )
}

/// Audible's podcast pages: `/pd/Show-Name-Podcast/ASIN` or `/podcast/Show-Name/ASIN`
/// (audiobooks, `…-Audiobook`, are not podcasts).
fn audible_podcast_id(segments: &[&str]) -> Option<String> {
    let asin = match segments {
        ["pd", name, asin, ..] if name.to_ascii_lowercase().ends_with("-podcast") => asin,
        ["podcast", _, asin, ..] => asin,
        _ => return None,
    };
    (asin.len() == 10 && asin.bytes().all(|byte| byte.is_ascii_alphanumeric()))
        .then(|| (*asin).to_owned())
}
