//! YouTube, Vimeo, Twitch, TikTok, SoundCloud, Pinterest, GitHub and Behance profiles.

use super::microblog::{at_handle, main_host};
use super::url_input::UrlParts;
use super::{
    Found, Outcome, SocialUrlProblem, checked, first_segment_profile, handle_rules,
    lowercase_profile, profile_at,
};

/// Non-profile first segments of YouTube: the spec's reserved paths first, then
/// the site's other pages.
#[rustfmt::skip]
const YOUTUBE_RESERVED: &[&str] = &[
    "feed", "about", "gaming", "news", "sports", "fashion", "music", "movies", "live", "spotlight",
    "learning", "browse", "trending", "watch", "shorts", "playlist", "results", "redirect",
    "embed", "t", "account", "premium", "kids", "signin", "logout", "upload", "howyoutubeworks",
    "creators", "ads", "yt", "s", "attribution_link", "hashtag", "post", "source",
    "supported_browsers", "new", "podcasts", "iframe_api", "v", "e", "subscription_manager",
    "paid_memberships", "reporthistory", "select_site", "youtubei", "api", "create_channel",
    "verify", "img", "index", "store", "jobs", "terms", "privacy", "copyright", "channels",
];
#[rustfmt::skip]
const YOUTUBE_TABS: &[&str] = &[
    "videos", "featured", "playlists", "shorts", "streams", "about", "community", "channels",
    "podcasts", "releases", "store", "search", "live", "courses", "membership", "posts",
];

pub(crate) fn youtube(parts: &UrlParts) -> Outcome {
    if parts.host == "youtu.be" {
        return Err(if parts.segments.is_empty() {
            SocialUrlProblem::RootDomain
        } else {
            SocialUrlProblem::NonProfilePath
        });
    }
    main_host(parts, &["youtube.com"])?;
    match parts.segments.first().map(String::as_str) {
        None => Err(SocialUrlProblem::RootDomain),
        Some("channel") => {
            let id = profile_at(&parts.segments, 1, YOUTUBE_TABS)?;
            checked(id, handle_rules::youtube_channel_id)?;
            // Channel ids are case-sensitive.
            Ok(Found {
                handle: id.to_owned(),
                url: format!("https://www.youtube.com/channel/{id}"),
            })
        }
        Some(form @ ("c" | "user")) => {
            let name = profile_at(&parts.segments, 1, YOUTUBE_TABS)?;
            checked(name, handle_rules::youtube_name)?;
            Ok(youtube_named(
                name,
                &format!("https://www.youtube.com/{form}/"),
            ))
        }
        Some(first) if first.starts_with('@') => {
            let handle = at_handle(parts, 0, YOUTUBE_TABS)?;
            checked(handle, handle_rules::youtube_name)?;
            Ok(youtube_named(handle, "https://www.youtube.com/@"))
        }
        Some(_) => {
            // A legacy custom URL, `youtube.com/name`.
            let name = first_segment_profile(&parts.segments, YOUTUBE_RESERVED, YOUTUBE_TABS)?;
            checked(name, handle_rules::youtube_name)?;
            Ok(youtube_named(name, "https://www.youtube.com/"))
        }
    }
}

/// YouTube names may use any script: lowercase them with Unicode rules.
fn youtube_named(name: &str, prefix: &str) -> Found {
    let handle = name.to_lowercase();
    Found {
        url: format!("{prefix}{handle}"),
        handle,
    }
}

#[rustfmt::skip]
const VIMEO_RESERVED: &[&str] = &[
    "ondemand", "channels", "groups", "album", "showcase", "categories", "watch", "search",
    "upload", "join", "log_in", "features", "blog", "help", "about", "jobs", "stock", "manage",
    "settings", "create", "solutions", "enterprise", "pricing", "upgrade", "videoschool", "live",
    "ott", "event", "user", "video", "home", "explore", "staffpicks", "legal", "privacy", "terms",
    "partners", "integrations", "api",
];

pub(crate) fn vimeo(parts: &UrlParts) -> Outcome {
    main_host(parts, &["vimeo.com"])?;
    let handle = first_segment_profile(
        &parts.segments,
        VIMEO_RESERVED,
        &[
            "videos",
            "likes",
            "followers",
            "following",
            "collections",
            "about",
            "albums",
            "showcases",
        ],
    )?;
    checked(handle, handle_rules::vimeo)?;
    Ok(lowercase_profile(handle, "https://vimeo.com/"))
}

#[rustfmt::skip]
const TWITCH_RESERVED: &[&str] = &[
    "directory", "downloads", "jobs", "p", "search", "settings", "subscriptions", "turbo",
    "videos", "login", "signup", "prime", "store", "friends", "inventory", "wallet", "drops",
    "user", "broadcast", "creatorcamp", "team", "following", "messages", "payments", "popout",
    "moderator", "collections", "legal", "privacy", "bits", "partners", "security", "embed",
    "clip",
];

pub(crate) fn twitch(parts: &UrlParts) -> Outcome {
    main_host(parts, &["twitch.tv"])?;
    let handle = first_segment_profile(
        &parts.segments,
        TWITCH_RESERVED,
        &["videos", "clips", "schedule", "about"],
    )?;
    checked(handle, handle_rules::twitch)?;
    Ok(lowercase_profile(handle, "https://www.twitch.tv/"))
}

pub(crate) fn tiktok(parts: &UrlParts) -> Outcome {
    main_host(parts, &["tiktok.com"])?;
    let handle = at_handle(parts, 0, &[])?;
    checked(handle, handle_rules::tiktok)?;
    Ok(lowercase_profile(handle, "https://www.tiktok.com/@"))
}

#[rustfmt::skip]
const SOUNDCLOUD_RESERVED: &[&str] = &[
    "discover", "stream", "upload", "search", "you", "charts", "pages", "terms-of-use", "mobile",
    "signin", "jobs", "imprint", "people", "tags", "feed", "messages", "notifications", "settings",
    "premium", "pro", "for", "creators", "artists", "go", "connect", "logout", "legal", "popular",
    "stations", "playlists", "tracks", "sets", "likes",
];

pub(crate) fn soundcloud(parts: &UrlParts) -> Outcome {
    main_host(parts, &["soundcloud.com"])?;
    let handle = first_segment_profile(
        &parts.segments,
        SOUNDCLOUD_RESERVED,
        &[
            "tracks",
            "albums",
            "sets",
            "reposts",
            "likes",
            "popular-tracks",
            "followers",
            "following",
            "comments",
        ],
    )?;
    checked(handle, handle_rules::soundcloud)?;
    Ok(lowercase_profile(handle, "https://soundcloud.com/"))
}

/// Pinterest's international domains.
#[rustfmt::skip]
pub(crate) const PINTEREST_HOSTS: &[&str] = &[
    "pinterest.com", "pinterest.co.uk", "pinterest.ca", "pinterest.de", "pinterest.fr",
    "pinterest.es", "pinterest.it", "pinterest.com.au", "pinterest.com.mx", "pinterest.jp",
    "pinterest.nz", "pinterest.ie", "pinterest.at", "pinterest.ch", "pinterest.pt", "pinterest.se",
    "pinterest.dk", "pinterest.cl", "pinterest.ph", "pinterest.co.kr", "pinterest.nl",
    "pinterest.ru", "pin.it",
];
#[rustfmt::skip]
const PINTEREST_RESERVED: &[&str] = &[
    "pin", "search", "ideas", "today", "business", "explore", "categories", "login", "settings",
    "_", "about", "topics", "resource", "news_hub", "homefeed", "videos", "signup", "password",
    "oauth", "board",
];

pub(crate) fn pinterest(parts: &UrlParts) -> Outcome {
    // `pin.it` short links and `business.`/`help.` hosts are not profiles; country
    // editions (`uk.pinterest.com`) are.
    let main = PINTEREST_HOSTS[..PINTEREST_HOSTS.len() - 1].contains(&parts.host.as_str())
        || parts.subdomain_of("pinterest.com").is_some_and(|label| {
            label.len() == 2 && label.bytes().all(|byte| byte.is_ascii_lowercase())
        });
    if !main {
        return Err(SocialUrlProblem::NonProfileHost);
    }
    let handle = first_segment_profile(
        &parts.segments,
        PINTEREST_RESERVED,
        &["_created", "_saved", "boards", "pins"],
    )?;
    checked(handle, handle_rules::pinterest)?;
    Ok(lowercase_profile(handle, "https://www.pinterest.com/"))
}

#[rustfmt::skip]
const GITHUB_RESERVED: &[&str] = &[
    "about", "features", "pricing", "login", "join", "settings", "marketplace", "explore",
    "topics", "trending", "collections", "notifications", "new", "organizations", "enterprise",
    "security", "site", "contact", "customer-stories", "readme", "team", "apps", "search",
    "events", "issues", "pulls", "codespaces", "discussions", "logout", "signup", "nonprofit",
    "education", "git-guides", "premium-support", "resources", "solutions", "why-github", "mobile",
    "copilot", "dashboard", "account", "sessions", "users", "blog", "stars", "watching",
    "advisories", "mcp", "models", "home",
];

pub(crate) fn github(parts: &UrlParts) -> Outcome {
    main_host(parts, &["github.com"])?;
    // `github.com/orgs/name` and `github.com/sponsors/name` are the account's pages too.
    let segments = match parts.segments.split_first() {
        Some((first, rest)) if (first == "orgs" || first == "sponsors") && !rest.is_empty() => rest,
        _ => &parts.segments[..],
    };
    let handle = first_segment_profile(
        segments,
        GITHUB_RESERVED,
        &["people", "repositories", "projects"],
    )?;
    checked(handle, handle_rules::github)?;
    Ok(lowercase_profile(handle, "https://github.com/"))
}

#[rustfmt::skip]
const BEHANCE_RESERVED: &[&str] = &[
    "search", "galleries", "joblist", "assets", "live", "blog", "about", "privacy", "misc",
    "onboarding", "gallery", "hire", "for_you", "collection", "moodboard", "jobs", "featured",
    "adobe", "payments",
];

pub(crate) fn behance(parts: &UrlParts) -> Outcome {
    main_host(parts, &["behance.net"])?;
    let handle = first_segment_profile(
        &parts.segments,
        BEHANCE_RESERVED,
        &[
            "projects",
            "moodboards",
            "appreciated",
            "info",
            "services",
            "insights",
        ],
    )?;
    checked(handle, handle_rules::behance)?;
    Ok(lowercase_profile(handle, "https://www.behance.net/"))
}
