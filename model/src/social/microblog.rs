//! Twitter/X, Instagram, Threads, Bluesky, Mastodon and Snapchat profiles.

use super::url_input::{UrlParts, host_is};
use super::{
    Found, Outcome, SocialUrlProblem, checked, first_segment_profile, handle_rules,
    lowercase_profile, profile_at,
};

/// Only the platform's main hosts serve profiles (after `www.`/`mobile.` are dropped).
pub(crate) fn main_host(parts: &UrlParts, hosts: &[&str]) -> Result<(), SocialUrlProblem> {
    if hosts.contains(&parts.host.as_str()) {
        Ok(())
    } else {
        Err(SocialUrlProblem::NonProfileHost)
    }
}

#[rustfmt::skip]
const TWITTER_RESERVED: &[&str] = &[
    "home", "share", "intent", "search", "hashtag", "i", "explore", "settings", "login", "logout",
    "tos", "privacy", "signup", "notifications", "messages", "compose", "account", "about",
    "download", "jobs", "who_to_follow", "lists", "topics", "communities", "following",
    "followers", "help", "rules", "en", "content", "oauth", "statuses", "status",
    "personalization", "places",
];
#[rustfmt::skip]
const TWITTER_TABS: &[&str] = &[
    "with_replies", "media", "likes", "highlights", "articles", "followers", "following",
    "verified_followers",
];

pub(crate) fn twitter(parts: &UrlParts) -> Outcome {
    main_host(parts, &["twitter.com", "x.com"])?;
    let handle = first_segment_profile(&parts.segments, TWITTER_RESERVED, TWITTER_TABS)?;
    checked(handle, handle_rules::twitter)?;
    Ok(lowercase_profile(handle, "https://x.com/"))
}

#[rustfmt::skip]
const INSTAGRAM_RESERVED: &[&str] = &[
    "p", "reel", "reels", "tv", "explore", "accounts", "stories", "direct", "about", "developer",
    "legal", "web", "challenge", "emails", "session", "oauth", "static", "api", "graphql",
    "privacy", "terms", "press", "directory", "lite", "download", "ar", "create", "your_activity",
];
const INSTAGRAM_TABS: &[&str] = &["reels", "tagged", "guides", "channel", "feed"];

pub(crate) fn instagram(parts: &UrlParts) -> Outcome {
    main_host(parts, &["instagram.com", "instagr.am"])?;
    // `instagram.com/_u/name` is the app's deep link to a profile.
    let segments = match parts.segments.split_first() {
        Some((first, rest)) if first == "_u" => rest,
        _ => &parts.segments[..],
    };
    let handle = first_segment_profile(segments, INSTAGRAM_RESERVED, INSTAGRAM_TABS)?;
    checked(handle, handle_rules::instagram)?;
    Ok(lowercase_profile(handle, "https://www.instagram.com/"))
}

/// The handle of an `@handle` segment at `position`.
pub(crate) fn at_handle<'a>(
    parts: &'a UrlParts,
    position: usize,
    tabs: &[&str],
) -> Result<&'a str, SocialUrlProblem> {
    let segment = profile_at(&parts.segments, position, tabs)?;
    segment
        .strip_prefix('@')
        .ok_or(SocialUrlProblem::NonProfilePath)
}

pub(crate) fn threads(parts: &UrlParts) -> Outcome {
    main_host(parts, &["threads.net", "threads.com"])?;
    let handle = at_handle(parts, 0, &["replies", "reposts", "media"])?;
    checked(handle, handle_rules::threads)?;
    Ok(lowercase_profile(handle, "https://www.threads.net/@"))
}

pub(crate) fn bluesky(parts: &UrlParts) -> Outcome {
    main_host(parts, &["bsky.app"])?;
    if parts.segments.first().map(String::as_str) != Some("profile") {
        return Err(if parts.segments.is_empty() {
            SocialUrlProblem::RootDomain
        } else {
            SocialUrlProblem::NonProfilePath
        });
    }
    let handle = profile_at(
        &parts.segments,
        1,
        &["follows", "followers", "lists", "feed"],
    )?;
    checked(handle, handle_rules::bluesky)?;
    Ok(lowercase_profile(handle, "https://bsky.app/profile/"))
}

/// Large Mastodon instances, recognised without looking at the path.
#[rustfmt::skip]
const MASTODON_INSTANCES: &[&str] = &[
    "mastodon.social", "mastodon.online", "mastodon.world", "mastodon.cloud", "mstdn.social",
    "mas.to", "fosstodon.org", "hachyderm.io", "techhub.social", "infosec.exchange",
    "mastodon.art", "mstdn.jp", "universeodon.com", "sfba.social", "journa.host", "mastodon.scot",
    "aus.social", "mastodon.ie", "toot.community", "mindly.social", "masto.ai",
    "social.vivaldi.net", "c.im", "mastodonapp.uk", "ioc.exchange", "indieweb.social",
    "newsie.social", "mastodon.nz", "tech.lgbt", "sigmoid.social", "mathstodon.xyz",
    "scholar.social", "podcastindex.social", "toot.cafe", "chaos.social", "troet.cafe",
    "mastodon.green", "kolektiva.social", "noc.social", "ruby.social", "phpc.social",
    "front-end.social",
];

/// A known instance, or a host whose first label says it runs Mastodon.
pub(crate) fn is_mastodon_host(host: &str) -> bool {
    MASTODON_INSTANCES
        .iter()
        .any(|instance| host_is(host, instance))
        || (host.split('.').count() >= 3
            && host
                .split('.')
                .next()
                .is_some_and(|label| matches!(label, "mastodon" | "mstdn" | "toot" | "masto")))
}

pub(crate) fn mastodon(parts: &UrlParts) -> Outcome {
    const TABS: &[&str] = &["with_replies", "media", "followers", "following"];
    let user = match parts.segments.first().map(String::as_str) {
        None => return Err(SocialUrlProblem::RootDomain),
        Some("users") => profile_at(&parts.segments, 1, TABS)?,
        Some(_) => at_handle(parts, 0, TABS)?,
    };
    // `@user@other.instance` points at a remote account: keep its home instance.
    let (user, instance) = user.split_once('@').unwrap_or((user, parts.host.as_str()));
    checked(user, handle_rules::mastodon)?;
    // The home instance is a host name: dotted labels of letters, digits and hyphens
    // (a path segment can carry anything, a NUL included).
    let host_name = instance.contains('.')
        && instance.split('.').all(|label| {
            !label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        });
    if !host_name {
        return Err(SocialUrlProblem::InvalidHandle);
    }
    let user = user.to_ascii_lowercase();
    let instance = instance.to_ascii_lowercase();
    Ok(Found {
        url: format!("https://{instance}/@{user}"),
        handle: format!("{user}@{instance}"),
    })
}

pub(crate) fn snapchat(parts: &UrlParts) -> Outcome {
    main_host(parts, &["snapchat.com", "story.snapchat.com"])?;
    let handle = match parts.segments.first().map(String::as_str) {
        None => return Err(SocialUrlProblem::RootDomain),
        Some("add") => profile_at(&parts.segments, 1, &[])?,
        Some(_) => at_handle(parts, 0, &[])?,
    };
    checked(handle, handle_rules::snapchat)?;
    Ok(lowercase_profile(handle, "https://www.snapchat.com/add/"))
}
