//! Facebook, LinkedIn, Reddit, Discord and WhatsApp links.

use super::microblog::main_host;
use super::url_input::UrlParts;
use super::{
    Found, Outcome, SocialUrlProblem, checked, first_segment_profile, handle_rules,
    lowercase_profile, profile_at,
};

#[rustfmt::skip]
const FACEBOOK_RESERVED: &[&str] = &[
    "sharer", "share", "dialog", "plugins", "groups", "events", "pages", "watch", "login",
    "hashtag", "photo", "photos", "permalink", "story", "help", "policies", "privacy", "settings",
    "marketplace", "gaming", "reel", "reels", "stories", "video", "videos", "notes", "business",
    "ads", "legal", "search", "home", "friends", "messages", "notifications", "bookmarks",
    "fundraisers", "donate", "live", "tr", "ajax", "media", "campaign", "places", "public",
    "directory", "badges", "careers", "recover", "checkpoint", "terms", "about", "posts",
    "profile", "people", "l", "p", "share_channel", "composer", "latest", "saved", "offers",
    "memories", "developers", "communities", "sharer.php",
];
#[rustfmt::skip]
const FACEBOOK_TABS: &[&str] = &[
    "about", "videos", "photos", "reels", "community", "live", "mentions", "followers", "friends",
    "reviews", "shop", "services", "events",
];

pub(crate) fn facebook(parts: &UrlParts) -> Outcome {
    main_host(parts, &["facebook.com", "fb.com", "fb.me"])?;
    let segments = &parts.segments;
    match segments.first().map(String::as_str) {
        Some("profile.php") => {
            let id = parts
                .query_value("id")
                .ok_or(SocialUrlProblem::NonProfilePath)?;
            profile_at(segments, 0, &[])?;
            checked(id, handle_rules::facebook_profile_id)?;
            return Ok(facebook_id_profile(id));
        }
        // `facebook.com/people/Some-Name/100012345678901/` is a profile without a username.
        Some("people") if segments.len() == 3 => {
            let id = segments[2].as_str();
            checked(id, handle_rules::facebook_profile_id)?;
            return Ok(facebook_id_profile(id));
        }
        Some(endpoint) if endpoint.to_ascii_lowercase().ends_with(".php") => {
            return Err(SocialUrlProblem::NonProfilePath);
        }
        _ => {}
    }
    // `facebook.com/pg/Name/about` is the old page layout.
    let segments = match segments.split_first() {
        Some((first, rest)) if first == "pg" => rest,
        _ => &segments[..],
    };
    let handle = first_segment_profile(segments, FACEBOOK_RESERVED, FACEBOOK_TABS)?;
    checked(handle, handle_rules::facebook_username)?;
    Ok(lowercase_profile(handle, "https://www.facebook.com/"))
}

fn facebook_id_profile(id: &str) -> Found {
    Found {
        handle: id.to_owned(),
        url: format!("https://www.facebook.com/profile.php?id={id}"),
    }
}

pub(crate) fn linkedin(parts: &UrlParts) -> Outcome {
    // Country editions (`de.linkedin.com`, `uk.linkedin.com`) serve the same profiles.
    let edition_ok = parts.host == "linkedin.com"
        || parts.subdomain_of("linkedin.com").is_some_and(|label| {
            label.len() == 2 && label.bytes().all(|byte| byte.is_ascii_lowercase())
        });
    if !edition_ok {
        return Err(SocialUrlProblem::NonProfileHost);
    }
    let (prefix, tabs): (&str, &[&str]) = match parts.segments.first().map(String::as_str) {
        None => return Err(SocialUrlProblem::RootDomain),
        Some("in") => (
            "https://www.linkedin.com/in/",
            &["recent-activity", "details", "overlay"],
        ),
        Some("company") => (
            "https://www.linkedin.com/company/",
            &[
                "about",
                "posts",
                "jobs",
                "people",
                "life",
                "videos",
                "events",
                "mycompany",
                "products",
            ],
        ),
        Some(_) => return Err(SocialUrlProblem::NonProfilePath),
    };
    let handle = match profile_at(&parts.segments, 1, tabs) {
        // A language version of a profile: `/in/name/en`.
        Err(SocialUrlProblem::NonProfilePath)
            if parts.segments.len() == 3 && parts.segments[2].len() == 2 =>
        {
            &parts.segments[1]
        }
        other => other?,
    };
    checked(handle, handle_rules::linkedin)?;
    Ok(lowercase_profile(handle, prefix))
}

pub(crate) fn reddit(parts: &UrlParts) -> Outcome {
    main_host(
        parts,
        &[
            "reddit.com",
            "old.reddit.com",
            "new.reddit.com",
            "np.reddit.com",
        ],
    )?;
    match parts.segments.first().map(String::as_str) {
        None => Err(SocialUrlProblem::RootDomain),
        Some("user" | "u") => {
            let name = profile_at(
                &parts.segments,
                1,
                &["overview", "submitted", "comments", "about"],
            )?;
            checked(name, handle_rules::reddit_user)?;
            Ok(lowercase_profile(name, "https://www.reddit.com/user/"))
        }
        Some("r") => {
            let name = profile_at(
                &parts.segments,
                1,
                &["hot", "new", "top", "rising", "controversial", "about"],
            )?;
            checked(name, handle_rules::subreddit)?;
            Ok(lowercase_profile(name, "https://www.reddit.com/r/"))
        }
        Some(_) => Err(SocialUrlProblem::NonProfilePath),
    }
}

pub(crate) fn discord(parts: &UrlParts) -> Outcome {
    let code = match parts.host.as_str() {
        "discord.gg" => profile_at(&parts.segments, 0, &[])?,
        "discord.com" | "discordapp.com" => match parts.segments.first().map(String::as_str) {
            None => return Err(SocialUrlProblem::RootDomain),
            Some("invite") => profile_at(&parts.segments, 1, &[])?,
            Some(_) => return Err(SocialUrlProblem::NonProfilePath),
        },
        _ => return Err(SocialUrlProblem::NonProfileHost),
    };
    checked(code, handle_rules::discord_invite)?;
    // Invite codes are case-sensitive.
    Ok(Found {
        handle: code.to_owned(),
        url: format!("https://discord.gg/{code}"),
    })
}

pub(crate) fn whatsapp(parts: &UrlParts) -> Outcome {
    let segments = &parts.segments;
    let first = segments.first().map(String::as_str);
    let (handle, url) = match (parts.host.as_str(), first) {
        (_, None) if parts.query_value("phone").is_none() => {
            return Err(SocialUrlProblem::RootDomain);
        }
        ("wa.me", Some("message")) => {
            let code = profile_at(segments, 1, &[])?;
            (code.to_owned(), format!("https://wa.me/message/{code}"))
        }
        ("wa.me", Some(_)) => {
            let number = phone_digits(profile_at(segments, 0, &[])?)?;
            (number.clone(), format!("https://wa.me/{number}"))
        }
        ("whatsapp.com" | "api.whatsapp.com", Some("send") | None) => {
            let number = phone_digits(
                parts
                    .query_value("phone")
                    .ok_or(SocialUrlProblem::NonProfilePath)?,
            )?;
            (number.clone(), format!("https://wa.me/{number}"))
        }
        ("whatsapp.com", Some("channel")) => {
            let id = profile_at(segments, 1, &[])?;
            (id.to_owned(), format!("https://whatsapp.com/channel/{id}"))
        }
        ("chat.whatsapp.com", Some(_)) => {
            let code = profile_at(segments, 0, &[])?;
            (code.to_owned(), format!("https://chat.whatsapp.com/{code}"))
        }
        ("whatsapp.com" | "api.whatsapp.com", Some(_)) => {
            return Err(SocialUrlProblem::NonProfilePath);
        }
        _ => return Err(SocialUrlProblem::NonProfileHost),
    };
    checked(&handle, handle_rules::whatsapp)?;
    Ok(Found { handle, url })
}

/// A phone number as WhatsApp links write it: digits only, an optional leading `+` dropped.
fn phone_digits(raw: &str) -> Result<String, SocialUrlProblem> {
    let digits = raw.trim().trim_start_matches('+');
    if digits.is_empty() || !digits.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err(SocialUrlProblem::InvalidHandle);
    }
    Ok(digits.to_owned())
}
