//! Substack, Beehiiv, Medium and Tumblr publications, Linktree pages and Patreon creators.

use super::microblog::{at_handle, main_host};
use super::url_input::UrlParts;
use super::{
    Found, Outcome, SocialUrlProblem, checked, first_segment_profile, handle_rules,
    lowercase_profile, profile_at,
};

/// Pages of a publication hosted on its own subdomain that still stand for the
/// publication (posts do not).
#[rustfmt::skip]
const PUBLICATION_PAGES: &[&str] = &[
    "about", "archive", "subscribe", "podcast", "recommendations", "welcome",
];

/// A publication on `name.base`: the subdomain is the handle unless reserved; the
/// path must be the home page or one of [`PUBLICATION_PAGES`].
fn subdomain_publication<'a>(
    parts: &'a UrlParts,
    base: &str,
    reserved: &[&str],
) -> Option<Result<&'a str, SocialUrlProblem>> {
    let label = parts.subdomain_of(base)?;
    if label.contains('.') || reserved.contains(&label) {
        return Some(Err(SocialUrlProblem::NonProfileHost));
    }
    let path_ok = match parts.segments.as_slice() {
        [] => true,
        [page] => PUBLICATION_PAGES.contains(&page.to_ascii_lowercase().as_str()),
        _ => false,
    };
    Some(if path_ok {
        Ok(label)
    } else {
        Err(SocialUrlProblem::NonProfilePath)
    })
}

#[rustfmt::skip]
const SUBSTACK_HOSTS_RESERVED: &[&str] = &[
    "on", "open", "support", "cdn", "api", "blog", "help", "reader", "email", "substackcdn",
    "bucketeer", "read", "app", "post", "status", "jobs",
];

pub(crate) fn substack(parts: &UrlParts) -> Outcome {
    if let Some(publication) = subdomain_publication(parts, "substack.com", SUBSTACK_HOSTS_RESERVED)
    {
        let handle = publication?;
        checked(handle, handle_rules::substack)?;
        let handle = handle.to_ascii_lowercase();
        return Ok(Found {
            url: format!("https://{handle}.substack.com"),
            handle,
        });
    }
    match parts.segments.first().map(String::as_str) {
        None => Err(SocialUrlProblem::RootDomain),
        // `substack.com/profile/11803623-jamin-ball`
        Some("profile") => {
            let handle = profile_at(&parts.segments, 1, &[])?;
            checked(handle, handle_rules::substack)?;
            Ok(lowercase_profile(handle, "https://substack.com/profile/"))
        }
        Some(_) => {
            let handle = at_handle(parts, 0, &["notes", "likes", "reads"])?;
            checked(handle, handle_rules::substack)?;
            Ok(lowercase_profile(handle, "https://substack.com/@"))
        }
    }
}

#[rustfmt::skip]
const BEEHIIV_HOSTS_RESERVED: &[&str] = &[
    "app", "blog", "help", "support", "api", "media", "cdn", "embeds", "product", "hiring", "jobs",
    "status", "developers", "rss", "mail", "partners", "ads", "updates",
];

pub(crate) fn beehiiv(parts: &UrlParts) -> Outcome {
    let Some(publication) = subdomain_publication(parts, "beehiiv.com", BEEHIIV_HOSTS_RESERVED)
    else {
        return Err(if parts.segments.is_empty() {
            SocialUrlProblem::RootDomain
        } else {
            SocialUrlProblem::NonProfilePath
        });
    };
    let handle = publication?;
    checked(handle, handle_rules::beehiiv)?;
    let handle = handle.to_ascii_lowercase();
    Ok(Found {
        url: format!("https://{handle}.beehiiv.com"),
        handle,
    })
}

#[rustfmt::skip]
const MEDIUM_HOSTS_RESERVED: &[&str] = &[
    "help", "blog", "policy", "about", "cdn", "miro", "api", "link", "status", "design",
    "engineering", "store", "go", "email", "events",
];
#[rustfmt::skip]
const MEDIUM_RESERVED: &[&str] = &[
    "m", "me", "p", "tag", "tags", "topic", "topics", "search", "plans", "membership", "creators",
    "policy", "jobs", "about", "new-story", "signin", "login", "settings", "followed", "us",
    "partner", "business", "verified-authors", "stories", "lists", "_", "browse", "explore",
    "mastodon", "legal", "privacy", "notifications", "subscribe", "gift",
];
#[rustfmt::skip]
const MEDIUM_TABS: &[&str] = &[
    "about", "followers", "following", "lists", "has-recommended", "latest", "archive",
];

pub(crate) fn medium(parts: &UrlParts) -> Outcome {
    if let Some(account) = subdomain_publication(parts, "medium.com", MEDIUM_HOSTS_RESERVED) {
        let handle = account?;
        checked(handle, handle_rules::medium_user)?;
        return Ok(lowercase_profile(handle, "https://medium.com/@"));
    }
    match parts.segments.first().map(String::as_str) {
        None => Err(SocialUrlProblem::RootDomain),
        Some(first) if first.starts_with('@') => {
            let handle = at_handle(parts, 0, MEDIUM_TABS)?;
            checked(handle, handle_rules::medium_user)?;
            Ok(lowercase_profile(handle, "https://medium.com/@"))
        }
        Some(_) => {
            let publication = first_segment_profile(&parts.segments, MEDIUM_RESERVED, MEDIUM_TABS)?;
            checked(publication, handle_rules::medium_publication)?;
            Ok(lowercase_profile(publication, "https://medium.com/"))
        }
    }
}

#[rustfmt::skip]
const TUMBLR_HOSTS_RESERVED: &[&str] = &[
    "assets", "static", "media", "api", "help", "developers", "embed", "safe",
];
#[rustfmt::skip]
const TUMBLR_RESERVED: &[&str] = &[
    "dashboard", "explore", "tagged", "search", "login", "register", "settings", "privacy",
    "policy", "about", "help", "apps", "new", "inbox", "likes", "following", "tags", "docs",
    "logout", "reblog", "post", "communities", "themes", "support", "abuse", "jobs", "press",
    "developers", "oauth",
];

pub(crate) fn tumblr(parts: &UrlParts) -> Outcome {
    let handle = match subdomain_publication(parts, "tumblr.com", TUMBLR_HOSTS_RESERVED) {
        Some(blog) => blog?,
        None => match parts.segments.first().map(String::as_str) {
            // `tumblr.com/blog/name` and `tumblr.com/blog/view/name`
            Some("blog") => match parts.segments.get(1).map(String::as_str) {
                Some("view") => profile_at(&parts.segments, 2, &[])?,
                _ => profile_at(&parts.segments, 1, &[])?,
            },
            _ => first_segment_profile(&parts.segments, TUMBLR_RESERVED, &[])?,
        },
    };
    checked(handle, handle_rules::tumblr)?;
    let handle = handle.to_ascii_lowercase();
    Ok(Found {
        url: format!("https://{handle}.tumblr.com"),
        handle,
    })
}

#[rustfmt::skip]
const LINKTREE_RESERVED: &[&str] = &[
    "s", "admin", "login", "register", "marketplace", "blog", "help", "discover", "features",
    "pricing", "templates", "about", "privacy", "terms", "creator-report", "linktree", "careers",
    "press", "partners", "signup", "accounts", "link-in-bio",
];

pub(crate) fn linktree(parts: &UrlParts) -> Outcome {
    main_host(parts, &["linktr.ee"])?;
    let handle = first_segment_profile(&parts.segments, LINKTREE_RESERVED, &[])?;
    checked(handle, handle_rules::linktree)?;
    Ok(lowercase_profile(handle, "https://linktr.ee/"))
}

#[rustfmt::skip]
const PATREON_RESERVED: &[&str] = &[
    "home", "explore", "search", "messages", "settings", "login", "signup", "create", "posts",
    "policy", "about", "notifications", "product", "pricing", "apps", "m", "bepatron", "checkout",
    "library", "membership", "creators", "legal", "careers", "insights", "news", "collection",
    "privacy", "portal", "api", "file", "become-a-patron", "pledges", "memberships", "dashboard",
    "edit", "faq", "guidelines",
];

pub(crate) fn patreon(parts: &UrlParts) -> Outcome {
    main_host(parts, &["patreon.com"])?;
    let segments = &parts.segments;
    match segments.first().map(String::as_str) {
        // `patreon.com/user?u=12345` names a creator by id.
        Some("user") if segments.len() == 1 => {
            let id = parts
                .query_value("u")
                .ok_or(SocialUrlProblem::NonProfilePath)?;
            if id.is_empty() || !id.bytes().all(|byte| byte.is_ascii_digit()) {
                return Err(SocialUrlProblem::InvalidHandle);
            }
            return Ok(Found {
                handle: id.to_owned(),
                url: format!("https://www.patreon.com/user?u={id}"),
            });
        }
        _ => {}
    }
    // `patreon.com/cw/name`, `patreon.com/c/name` and `patreon.com/join/name`.
    let segments = match segments.split_first() {
        Some((first, rest))
            if matches!(first.as_str(), "cw" | "c" | "join") && !rest.is_empty() =>
        {
            rest
        }
        _ => &segments[..],
    };
    let handle = first_segment_profile(
        segments,
        PATREON_RESERVED,
        &[
            "posts",
            "about",
            "membership",
            "shop",
            "collections",
            "community",
            "chats",
            "home",
            "overview",
        ],
    )?;
    checked(handle, handle_rules::patreon)?;
    Ok(lowercase_profile(handle, "https://www.patreon.com/"))
}
