//! Every link in the test corpus's web pages and feeds goes through the
//! classifiers, and the plain profile links found by independent regular
//! expressions must come out as profiles with the same handle.

use super::*;
use crate::kinds::DirectoryKind;
use regex::Regex;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn corpus_files() -> Vec<PathBuf> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let mut files = Vec::new();
    for folder in ["websites", "feeds"] {
        let Ok(entries) = std::fs::read_dir(corpus.join(folder)) else {
            continue;
        };
        files.extend(
            entries
                .flatten()
                .map(|entry| entry.path())
                .filter(|path| path.is_file()),
        );
    }
    files.sort();
    files
}

/// Every distinct http(s) link in the corpus, entity-decoded.
fn corpus_links() -> BTreeSet<String> {
    let link = Regex::new(r#"https?://[A-Za-z0-9.\-]+(?:/[^\s"'<>()\[\]{}|\\^`]*)?"#).unwrap();
    let mut links = BTreeSet::new();
    for path in corpus_files() {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        for found in link.find_iter(&text) {
            let decoded = found.as_str().replace("&amp;", "&");
            // Links cut by HTML or markup end at the first entity.
            let decoded = decoded.split("&lt;").next().unwrap_or_default();
            let decoded = decoded.split("&quot;").next().unwrap_or_default();
            links.insert(decoded.trim_end_matches(['.', ',', ';', ':']).to_owned());
        }
    }
    links
}

#[test]
fn corpus_links_classify_consistently() {
    let links = corpus_links();
    if links.is_empty() {
        eprintln!("corpus not found; skipping");
        return;
    }
    // Second computation: plain profile links recognised by simple patterns.
    let expectations: [(SocialKind, Regex); 5] = [
        (
            SocialKind::Instagram,
            Regex::new(r"^https?://(?:www\.)?instagram\.com/([A-Za-z0-9][A-Za-z0-9_.]{0,28}[A-Za-z0-9_])/?$").unwrap(),
        ),
        (SocialKind::Twitter, Regex::new(r"^https?://(?:www\.|mobile\.)?(?:twitter|x)\.com/(\w{1,15})/?$").unwrap()),
        (SocialKind::Tiktok, Regex::new(r"^https?://(?:www\.)?tiktok\.com/@([A-Za-z0-9_.]{5,24})/?$").unwrap()),
        (SocialKind::Linkedin, Regex::new(r"^https?://(?:www\.)?linkedin\.com/in/([a-z0-9]+(?:-[a-z0-9]+)+)/?$").unwrap()),
        (SocialKind::Youtube, Regex::new(r"^https?://(?:www\.)?youtube\.com/@([A-Za-z0-9_]{3,30})/?$").unwrap()),
    ];
    let twitter_words: BTreeSet<&str> = [
        "home",
        "share",
        "intent",
        "search",
        "hashtag",
        "i",
        "explore",
        "settings",
        "login",
        "tos",
        "privacy",
        "signup",
        "about",
        "download",
        "jobs",
        "en",
        "help",
        "account",
        "compose",
        "messages",
        "notifications",
        "lists",
        "topics",
        "communities",
        "statuses",
        "status",
        "content",
        "oauth",
        "logout",
        "rules",
        "places",
        "personalization",
        "who_to_follow",
        "following",
        "followers",
    ]
    .into_iter()
    .collect();
    let instagram_words: BTreeSet<&str> = [
        "p",
        "reel",
        "reels",
        "tv",
        "explore",
        "accounts",
        "stories",
        "about",
        "developer",
        "legal",
        "web",
        "direct",
        "press",
        "privacy",
        "terms",
        "directory",
        "lite",
        "download",
        "api",
        "static",
        "oauth",
        "session",
        "emails",
        "challenge",
        "graphql",
        "create",
        "ar",
    ]
    .into_iter()
    .collect();

    let mut profiles_per_kind = std::collections::BTreeMap::<SocialKind, usize>::new();
    let mut checked_by_pattern = 0;
    for link in &links {
        let classified = classify_social_url(link);
        if let Some(Ok(profile)) = &classified {
            *profiles_per_kind.entry(profile.kind).or_default() += 1;
            assert_eq!(
                validate_social_url(profile.kind, link).as_ref(),
                Ok(profile),
                "{link}"
            );
        }
        for (kind, pattern) in &expectations {
            let Some(captures) = pattern.captures(link) else {
                continue;
            };
            let handle = captures[1].to_ascii_lowercase();
            let reserved = match kind {
                SocialKind::Twitter => twitter_words.contains(handle.as_str()),
                SocialKind::Instagram => {
                    instagram_words.contains(handle.as_str()) || handle.contains("..")
                }
                SocialKind::Youtube => handle.len() < 3,
                _ => false,
            };
            if reserved {
                continue;
            }
            checked_by_pattern += 1;
            match &classified {
                Some(Ok(profile)) => {
                    assert_eq!(profile.kind, *kind, "{link}");
                    assert_eq!(profile.handle, handle, "{link}");
                }
                other => panic!("{link}: expected a {kind} profile, got {other:?}"),
            }
        }
    }
    // The corpus holds hundreds of plain profile links; the patterns must have found them.
    assert!(
        checked_by_pattern >= 200,
        "only {checked_by_pattern} plain profile links found"
    );
    for kind in [
        SocialKind::Instagram,
        SocialKind::Twitter,
        SocialKind::Youtube,
        SocialKind::Facebook,
    ] {
        let count = profiles_per_kind.get(&kind).copied().unwrap_or_default();
        assert!(count >= 20, "{kind}: {count} profiles in the corpus");
    }
}

#[test]
fn corpus_directory_links() {
    let links = corpus_links();
    if links.is_empty() {
        return;
    }
    // Second computation: the Apple id in `podcasts.apple.com/.../podcast/.../id<digits>`.
    let apple =
        Regex::new(r"^https://podcasts\.apple\.com/(?:[a-z]{2}/)?podcast/(?:[^/]+/)?id(\d+)")
            .unwrap();
    let spotify =
        Regex::new(r"^https://open\.spotify\.com/show/([A-Za-z0-9]{22})(?:$|\?)").unwrap();
    let (mut apple_seen, mut spotify_seen) = (0, 0);
    for link in &links {
        let directory = classify_directory_url(link);
        if let Some(captures) = apple.captures(link) {
            apple_seen += 1;
            assert_eq!(
                apple_podcast_id(link).as_deref(),
                Some(&captures[1]),
                "{link}"
            );
            assert_eq!(
                directory.as_ref().map(|found| found.kind),
                Some(DirectoryKind::Apple),
                "{link}"
            );
        }
        if let Some(captures) = spotify.captures(link) {
            spotify_seen += 1;
            assert_eq!(
                spotify_show_id(link).as_deref(),
                Some(&captures[1]),
                "{link}"
            );
        }
        if link.contains("open.spotify.com/episode/") || link.contains("itunes.apple.com/app/") {
            assert_eq!(directory, None, "{link}");
        }
        // A directory link is never also a social profile.
        if directory.is_some() {
            assert!(!matches!(classify_social_url(link), Some(Ok(_))), "{link}");
        }
    }
    assert!(apple_seen >= 50, "{apple_seen} Apple podcast links");
    assert!(spotify_seen >= 5, "{spotify_seen} Spotify show links");
}
