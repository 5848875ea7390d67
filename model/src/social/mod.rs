//! Social profile URLs of the 25 platforms of SPEC.md §5 and podcast directory
//! links of the 24 directories of §3.
//!
//! [`classify_social_url`] recognises the platform from the host and validates the
//! link; [`validate_social_url`] checks a link the caller says belongs to one
//! platform. A profile comes back with its handle (lowercased where the platform
//! ignores case) and a canonical URL, so the same account found through
//! `mobile.twitter.com/Name` and `x.com/name/` is one profile. Root domains, the
//! platforms' non-profile paths (posts, videos, share dialogs, settings, …) and
//! handles breaking the table's rules are rejected with the platform's message.

mod community;
mod directory;
mod handle_rules;
mod media;
mod microblog;
mod publishing;
mod url_input;

#[cfg(test)]
mod cases;
#[cfg(test)]
mod corpus_tests;
#[cfg(test)]
mod directory_cases;

use crate::kinds::SocialKind;
use serde::Serialize;

pub use directory::{DirectoryLink, apple_podcast_id, classify_directory_url, spotify_show_id};
use url_input::{InputProblem, UrlParts, host_is};

/// A validated social profile.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SocialProfile {
    /// The platform (`socialMediaType` on the wire).
    pub kind: SocialKind,
    /// The account name as the platform identifies it, without `@` or path:
    /// `daraobriain`, `UCUi00Bia46ldMzwEqniEZRQ`, `taibbi`, `jjSYEQd`.
    /// Mastodon handles are `user@instance`.
    pub handle: String,
    /// The canonical profile URL (https, the platform's main host, no tracking
    /// parameters), e.g. `https://x.com/daraobriain`.
    pub url: String,
}

/// What is wrong with a link, beyond the per-platform message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum SocialUrlProblem {
    /// Not an absolute link with a host.
    NotAUrl,
    /// A scheme other than http or https.
    UnsupportedScheme,
    /// The link belongs to another site or platform.
    OtherPlatform,
    /// The platform's home page.
    RootDomain,
    /// A host of the platform that never serves profiles (help, blog, short links).
    NonProfileHost,
    /// A page of the platform that is not a profile (post, video, share dialog…).
    NonProfilePath,
    /// A profile path whose handle breaks the platform's handle rule.
    InvalidHandle,
}

impl std::fmt::Display for SocialUrlProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SocialUrlProblem::NotAUrl => "not a link",
            SocialUrlProblem::UnsupportedScheme => "not an http or https link",
            SocialUrlProblem::OtherPlatform => "a link to another site",
            SocialUrlProblem::RootDomain => "the platform's home page",
            SocialUrlProblem::NonProfileHost => "a host without profiles",
            SocialUrlProblem::NonProfilePath => "a page that is not a profile",
            SocialUrlProblem::InvalidHandle => "a handle that breaks the platform's rules",
        })
    }
}

/// A rejected social link. `Display` is the platform's failure message, e.g.
/// `Invalid Instagram profile URL`; [`SocialUrlError::problem`] says why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}", failure_message(self.kind))]
pub struct SocialUrlError {
    pub kind: SocialKind,
    pub problem: SocialUrlProblem,
}

/// The per-platform failure message.
pub const fn failure_message(kind: SocialKind) -> &'static str {
    match kind {
        SocialKind::Beehiiv => "Invalid Beehiiv newsletter URL",
        SocialKind::Behance => "Invalid Behance profile URL",
        SocialKind::Bluesky => "Invalid Bluesky profile URL",
        SocialKind::Discord => "Invalid Discord invite URL",
        SocialKind::Facebook => "Invalid Facebook profile URL",
        SocialKind::Github => "Invalid GitHub profile URL",
        SocialKind::Instagram => "Invalid Instagram profile URL",
        SocialKind::Linkedin => "Invalid LinkedIn profile URL",
        SocialKind::Linktree => "Invalid Linktree profile URL",
        SocialKind::Mastodon => "Invalid Mastodon profile URL",
        SocialKind::Medium => "Invalid Medium profile URL",
        SocialKind::Patreon => "Invalid Patreon profile URL",
        SocialKind::Pinterest => "Invalid Pinterest profile URL",
        SocialKind::Reddit => "Invalid Reddit user or subreddit URL",
        SocialKind::Snapchat => "Invalid Snapchat profile URL",
        SocialKind::Soundcloud => "Invalid SoundCloud profile URL",
        SocialKind::Substack => "Invalid Substack publication URL",
        SocialKind::Threads => "Invalid Threads profile URL",
        SocialKind::Tiktok => "Invalid TikTok profile URL",
        SocialKind::Tumblr => "Invalid Tumblr blog URL",
        SocialKind::Twitch => "Invalid Twitch channel URL",
        SocialKind::Twitter => "Invalid Twitter/X profile URL",
        SocialKind::Vimeo => "Invalid Vimeo profile URL",
        SocialKind::Whatsapp => "Invalid WhatsApp link",
        SocialKind::Youtube => "Invalid YouTube channel URL",
    }
}

/// A profile found by a platform's parser: handle and canonical URL.
pub(crate) struct Found {
    pub handle: String,
    pub url: String,
}

pub(crate) type Outcome = Result<Found, SocialUrlProblem>;

/// Checks `url` as a profile link of `kind`.
pub fn validate_social_url(kind: SocialKind, url: &str) -> Result<SocialProfile, SocialUrlError> {
    let fail = |problem| SocialUrlError { kind, problem };
    let parts = url_input::parse(url).map_err(|problem| fail(input_problem(problem)))?;
    let found = match platform_of_host(&parts.host) {
        Some(platform) if platform == kind => parse_profile(kind, &parts),
        // Any host may run Mastodon: trust the caller and read the path.
        _ if kind == SocialKind::Mastodon => microblog::mastodon(&parts),
        _ => Err(SocialUrlProblem::OtherPlatform),
    };
    let found = found.map_err(fail)?;
    Ok(SocialProfile {
        kind,
        handle: found.handle,
        url: found.url,
    })
}

/// Recognises the platform of `url` from its host and validates it: `None` when
/// the host belongs to none of the 25 platforms (or `url` is not a link).
pub fn classify_social_url(url: &str) -> Option<Result<SocialProfile, SocialUrlError>> {
    let parts = url_input::parse(url).ok()?;
    let kind = platform_of_host(&parts.host)?;
    Some(
        parse_profile(kind, &parts)
            .map(|found| SocialProfile {
                kind,
                handle: found.handle,
                url: found.url,
            })
            .map_err(|problem| SocialUrlError { kind, problem }),
    )
}

fn input_problem(problem: InputProblem) -> SocialUrlProblem {
    match problem {
        InputProblem::NotAUrl => SocialUrlProblem::NotAUrl,
        InputProblem::UnsupportedScheme => SocialUrlProblem::UnsupportedScheme,
    }
}

fn parse_profile(kind: SocialKind, parts: &UrlParts) -> Outcome {
    match kind {
        SocialKind::Beehiiv => publishing::beehiiv(parts),
        SocialKind::Behance => media::behance(parts),
        SocialKind::Bluesky => microblog::bluesky(parts),
        SocialKind::Discord => community::discord(parts),
        SocialKind::Facebook => community::facebook(parts),
        SocialKind::Github => media::github(parts),
        SocialKind::Instagram => microblog::instagram(parts),
        SocialKind::Linkedin => community::linkedin(parts),
        SocialKind::Linktree => publishing::linktree(parts),
        SocialKind::Mastodon => microblog::mastodon(parts),
        SocialKind::Medium => publishing::medium(parts),
        SocialKind::Patreon => publishing::patreon(parts),
        SocialKind::Pinterest => media::pinterest(parts),
        SocialKind::Reddit => community::reddit(parts),
        SocialKind::Snapchat => microblog::snapchat(parts),
        SocialKind::Soundcloud => media::soundcloud(parts),
        SocialKind::Substack => publishing::substack(parts),
        SocialKind::Threads => microblog::threads(parts),
        SocialKind::Tiktok => media::tiktok(parts),
        SocialKind::Tumblr => publishing::tumblr(parts),
        SocialKind::Twitch => media::twitch(parts),
        SocialKind::Twitter => microblog::twitter(parts),
        SocialKind::Vimeo => media::vimeo(parts),
        SocialKind::Whatsapp => community::whatsapp(parts),
        SocialKind::Youtube => media::youtube(parts),
    }
}

/// The hosts of each platform (subdomains included).
const PLATFORM_HOSTS: &[(SocialKind, &[&str])] = &[
    (SocialKind::Beehiiv, &["beehiiv.com"]),
    (SocialKind::Behance, &["behance.net"]),
    (SocialKind::Bluesky, &["bsky.app"]),
    (
        SocialKind::Discord,
        &["discord.gg", "discord.com", "discordapp.com"],
    ),
    (SocialKind::Facebook, &["facebook.com", "fb.com", "fb.me"]),
    (SocialKind::Github, &["github.com"]),
    (SocialKind::Instagram, &["instagram.com", "instagr.am"]),
    (SocialKind::Linkedin, &["linkedin.com"]),
    (SocialKind::Linktree, &["linktr.ee"]),
    (SocialKind::Medium, &["medium.com"]),
    (SocialKind::Patreon, &["patreon.com"]),
    (SocialKind::Pinterest, media::PINTEREST_HOSTS),
    (SocialKind::Reddit, &["reddit.com", "redd.it"]),
    (SocialKind::Snapchat, &["snapchat.com"]),
    (SocialKind::Soundcloud, &["soundcloud.com"]),
    (SocialKind::Substack, &["substack.com"]),
    (SocialKind::Threads, &["threads.net", "threads.com"]),
    (SocialKind::Tiktok, &["tiktok.com"]),
    (SocialKind::Tumblr, &["tumblr.com"]),
    (SocialKind::Twitch, &["twitch.tv"]),
    (SocialKind::Twitter, &["twitter.com", "x.com"]),
    (SocialKind::Vimeo, &["vimeo.com"]),
    (SocialKind::Whatsapp, &["wa.me", "whatsapp.com"]),
    (SocialKind::Youtube, &["youtube.com", "youtu.be"]),
];

/// The platform a host belongs to, Mastodon instances included.
pub(crate) fn platform_of_host(host: &str) -> Option<SocialKind> {
    PLATFORM_HOSTS
        .iter()
        .find(|(_, bases)| bases.iter().any(|base| host_is(host, base)))
        .map(|(kind, _)| *kind)
        .or_else(|| microblog::is_mastodon_host(host).then_some(SocialKind::Mastodon))
}

/// The handle at `position`, followed by at most one segment from `tabs`
/// (compared case-insensitively). The root is [`SocialUrlProblem::RootDomain`].
pub(crate) fn profile_at<'a>(
    segments: &'a [String],
    position: usize,
    tabs: &[&str],
) -> Result<&'a str, SocialUrlProblem> {
    if segments.is_empty() {
        return Err(SocialUrlProblem::RootDomain);
    }
    let handle = segments
        .get(position)
        .ok_or(SocialUrlProblem::NonProfilePath)?;
    match &segments[position + 1..] {
        [] => Ok(handle),
        [tab] if tabs.iter().any(|allowed| allowed.eq_ignore_ascii_case(tab)) => Ok(handle),
        _ => Err(SocialUrlProblem::NonProfilePath),
    }
}

/// The first segment as the handle, unless it is one of the platform's reserved words.
pub(crate) fn first_segment_profile<'a>(
    segments: &'a [String],
    reserved: &[&str],
    tabs: &[&str],
) -> Result<&'a str, SocialUrlProblem> {
    if segments
        .first()
        .is_some_and(|first| reserved.iter().any(|word| word.eq_ignore_ascii_case(first)))
    {
        return Err(SocialUrlProblem::NonProfilePath);
    }
    profile_at(segments, 0, tabs)
}

/// Applies a handle rule.
pub(crate) fn checked(handle: &str, rule: fn(&str) -> bool) -> Result<(), SocialUrlProblem> {
    if rule(handle) {
        Ok(())
    } else {
        Err(SocialUrlProblem::InvalidHandle)
    }
}

/// A found profile whose handle is lowercased (platforms that ignore case) and
/// whose canonical URL is `prefix` + handle.
pub(crate) fn lowercase_profile(handle: &str, prefix: &str) -> Found {
    let handle = handle.to_ascii_lowercase();
    let url = format!("{prefix}{handle}");
    Found { handle, url }
}
