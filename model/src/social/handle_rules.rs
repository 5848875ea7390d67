//! The handle rules of the SPEC.md §5 table, one predicate per platform. Lengths
//! count characters; character sets are ASCII unless noted.

fn length_in(handle: &str, min: usize, max: usize) -> bool {
    (min..=max).contains(&handle.chars().count())
}

fn all_bytes(handle: &str, allowed: impl Fn(u8) -> bool) -> bool {
    handle.bytes().all(allowed)
}

fn word_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// No separator (any byte of `separators`) first, last, or next to another one.
fn separators_well_placed(handle: &str, separators: &[u8]) -> bool {
    let bytes = handle.as_bytes();
    let is_separator = |byte: &u8| separators.contains(byte);
    !bytes.first().is_some_and(is_separator)
        && !bytes.last().is_some_and(is_separator)
        && !bytes
            .windows(2)
            .any(|pair| is_separator(&pair[0]) && is_separator(&pair[1]))
}

fn letters_digits_hyphens_underscores(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_'
}

/// Behance: min 3; letters, digits, hyphen, underscore.
pub(crate) fn behance(handle: &str) -> bool {
    handle.len() >= 3 && all_bytes(handle, letters_digits_hyphens_underscores)
}

/// Beehiiv: min 3; letters, digits, hyphen, underscore.
pub(crate) fn beehiiv(handle: &str) -> bool {
    behance(handle)
}

/// Bluesky: 3–30; letters, digits, dots, hyphens.
pub(crate) fn bluesky(handle: &str) -> bool {
    length_in(handle, 3, 30)
        && all_bytes(handle, |byte| {
            byte.is_ascii_alphanumeric() || byte == b'.' || byte == b'-'
        })
}

/// Discord invite code: 5–20; letters, digits, hyphens.
pub(crate) fn discord_invite(code: &str) -> bool {
    length_in(code, 5, 20) && all_bytes(code, |byte| byte.is_ascii_alphanumeric() || byte == b'-')
}

/// Facebook `profile.php?id=`: 15–16 digits.
pub(crate) fn facebook_profile_id(id: &str) -> bool {
    length_in(id, 15, 16) && all_bytes(id, |byte| byte.is_ascii_digit())
}

/// Facebook username: min 5; letters, digits, dots; not purely numeric.
pub(crate) fn facebook_username(handle: &str) -> bool {
    handle.len() >= 5
        && all_bytes(handle, |byte| byte.is_ascii_alphanumeric() || byte == b'.')
        && !all_bytes(handle, |byte| byte.is_ascii_digit() || byte == b'.')
}

/// GitHub: 1–39; letters and digits with single inner hyphens.
pub(crate) fn github(handle: &str) -> bool {
    length_in(handle, 1, 39)
        && all_bytes(handle, |byte| byte.is_ascii_alphanumeric() || byte == b'-')
        && separators_well_placed(handle, b"-")
}

/// Instagram (and Threads): 1–30; letters, digits, dots, underscores; no leading
/// dot or underscore, no trailing dot, no double dots.
pub(crate) fn instagram(handle: &str) -> bool {
    length_in(handle, 1, 30)
        && all_bytes(handle, |byte| word_byte(byte) || byte == b'.')
        && !handle.starts_with(['.', '_'])
        && !handle.ends_with('.')
        && !handle.contains("..")
}

/// LinkedIn person or company: 3–100; letters, digits, hyphens; no leading,
/// trailing or double hyphen.
pub(crate) fn linkedin(handle: &str) -> bool {
    length_in(handle, 3, 100)
        && all_bytes(handle, |byte| byte.is_ascii_alphanumeric() || byte == b'-')
        && separators_well_placed(handle, b"-")
}

/// Mastodon user: 1–30; letters, digits, underscores.
pub(crate) fn mastodon(handle: &str) -> bool {
    length_in(handle, 1, 30) && all_bytes(handle, word_byte)
}

/// Medium user: 1–30; letters, digits, underscores, dots.
pub(crate) fn medium_user(handle: &str) -> bool {
    length_in(handle, 1, 30) && all_bytes(handle, |byte| word_byte(byte) || byte == b'.')
}

/// Medium publication: 1–50; letters, digits, hyphens, no leading, trailing or double hyphen.
pub(crate) fn medium_publication(handle: &str) -> bool {
    length_in(handle, 1, 50)
        && all_bytes(handle, |byte| byte.is_ascii_alphanumeric() || byte == b'-')
        && separators_well_placed(handle, b"-")
}

/// Patreon: 1–30; letters, digits, hyphens, underscores; no leading, trailing or
/// doubled separators.
pub(crate) fn patreon(handle: &str) -> bool {
    length_in(handle, 1, 30)
        && all_bytes(handle, letters_digits_hyphens_underscores)
        && separators_well_placed(handle, b"-_")
}

/// Pinterest: 3–30; letters, digits, dots, underscores; no leading, trailing or
/// doubled separators.
pub(crate) fn pinterest(handle: &str) -> bool {
    length_in(handle, 3, 30)
        && all_bytes(handle, |byte| word_byte(byte) || byte == b'.')
        && separators_well_placed(handle, b"._")
}

/// Reddit user: 3–20; letters, digits, underscores, hyphens; no leading digit.
pub(crate) fn reddit_user(handle: &str) -> bool {
    length_in(handle, 3, 20)
        && all_bytes(handle, letters_digits_hyphens_underscores)
        && !handle.starts_with(|c: char| c.is_ascii_digit())
}

/// Subreddit: 3–21; letters, digits, underscores; no leading digit.
pub(crate) fn subreddit(name: &str) -> bool {
    length_in(name, 3, 21)
        && all_bytes(name, word_byte)
        && !name.starts_with(|c: char| c.is_ascii_digit())
}

/// Snapchat: min 5; letters, digits, periods, underscores (so no spaces).
pub(crate) fn snapchat(handle: &str) -> bool {
    handle.len() >= 5 && all_bytes(handle, |byte| word_byte(byte) || byte == b'.')
}

/// SoundCloud: min 3; letters, digits, hyphens, underscores.
pub(crate) fn soundcloud(handle: &str) -> bool {
    behance(handle)
}

/// Substack publication subdomain or profile handle: min 5; letters, digits,
/// hyphens, underscores.
pub(crate) fn substack(handle: &str) -> bool {
    handle.len() >= 5 && all_bytes(handle, letters_digits_hyphens_underscores)
}

/// TikTok: min 5; letters, digits, underscores, periods.
pub(crate) fn tiktok(handle: &str) -> bool {
    handle.len() >= 5 && all_bytes(handle, |byte| word_byte(byte) || byte == b'.')
}

/// Tumblr: min 5; letters, digits, hyphens.
pub(crate) fn tumblr(handle: &str) -> bool {
    handle.len() >= 5 && all_bytes(handle, |byte| byte.is_ascii_alphanumeric() || byte == b'-')
}

/// WhatsApp phone number or link code: min 5; letters and digits.
pub(crate) fn whatsapp(handle: &str) -> bool {
    handle.len() >= 5 && all_bytes(handle, |byte| byte.is_ascii_alphanumeric())
}

/// Threads: as Instagram.
pub(crate) fn threads(handle: &str) -> bool {
    instagram(handle)
}

/// Twitch: 4–25; letters, digits, underscores; no leading digit or underscore; no
/// double underscore.
pub(crate) fn twitch(handle: &str) -> bool {
    length_in(handle, 4, 25)
        && all_bytes(handle, word_byte)
        && !handle.starts_with(|c: char| c.is_ascii_digit() || c == '_')
        && !handle.contains("__")
}

/// Twitter/X: at most 15 word characters.
pub(crate) fn twitter(handle: &str) -> bool {
    length_in(handle, 1, 15) && all_bytes(handle, word_byte)
}

/// Vimeo: no spaces; not numeric only (numbers are videos); letters, digits,
/// underscores, hyphens, dots.
pub(crate) fn vimeo(handle: &str) -> bool {
    !handle.is_empty()
        && all_bytes(handle, |byte| {
            letters_digits_hyphens_underscores(byte) || byte == b'.'
        })
        && !all_bytes(handle, |byte| byte.is_ascii_digit())
}

/// YouTube channel id: min 10; letters, digits, hyphens, underscores.
pub(crate) fn youtube_channel_id(id: &str) -> bool {
    id.len() >= 10 && all_bytes(id, letters_digits_hyphens_underscores)
}

/// YouTube `@handle`, `/c/` or `/user/` name: 3–100 letters (any script), digits,
/// dots, hyphens, underscores; no leading, trailing or double dot.
pub(crate) fn youtube_name(name: &str) -> bool {
    length_in(name, 3, 100)
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '.' | '-' | '_'))
        && separators_well_placed(name, b".")
}

/// Linktree: 3–30; letters, digits, dots, underscores; no leading, trailing or
/// doubled separators.
pub(crate) fn linktree(handle: &str) -> bool {
    pinterest(handle)
}

#[cfg(test)]
mod tests {
    use super::*;

    type Rule = fn(&str) -> bool;

    /// (rule, accepted, rejected) per line of the SPEC.md §5 table.
    #[test]
    fn every_rule_of_the_table() {
        #[rustfmt::skip]
        let rules: &[(&str, Rule, &[&str], &[&str])] = &[
            ("behance", behance, &["bradee", "meg-draws_1", "abc"], &["ab", "a b", "meg.draws", ""]),
            ("beehiiv", beehiiv, &["newsletter", "the_daily-1"], &["ab", "new.sletter"]),
            ("bluesky", bluesky, &["spice8rack.bsky.social", "abc", "a-b.com"], &["ab", "did:plc:abc", "a_b", &"x".repeat(31)]),
            ("discord", discord_invite, &["jjSYEQd", "dx7ZWCy", "my-server", "abcde"], &["abcd", "a_bcde", &"x".repeat(21)]),
            ("facebook id", facebook_profile_id, &["100001526653842", "1000015266538421"], &["10000152665384", "10000152665384211", "1000015266538a2"]),
            ("facebook", facebook_username, &["MegynKelly", "amelia.grey.5", "4biddenKnowledge"], &["nprw", "12345678", "123.456", "a_b_c_d", "name-x"]),
            ("github", github, &["a", "BurntSushi", "pi-hole", &"x".repeat(39)], &["-a", "a-", "a--b", "a_b", "", &"x".repeat(40)]),
            ("instagram", instagram, &[ "zoe", "allira.potter", "nomadic_revery", "a", "x_", &"x".repeat(30), ], &[".zoe", "_zoe", "zoe.", "zo..e", "zo-e", "", &"x".repeat(31)]),
            ("linkedin", linkedin, &["brucedaisley", "tim-sheehy-a2362678", "abc"], &[ "ab", "-tim", "tim-", "tim--sheehy", "tim_sheehy", &"x".repeat(101), ]),
            ("mastodon", mastodon, &["Gargron", "a", "user_1"], &["", "a.b", "a-b", &"x".repeat(31)]),
            ("medium user", medium_user, &["dan_abramov", "roxane", "a"], &["", "a-b", &"x".repeat(31)]),
            ("medium publication", medium_publication, &["google-design", "elementaryos", "a"], &["-x", "x-", "x--y", "x_y", &"x".repeat(51)]),
            ("patreon", patreon, &["Boy_Boy", "chapotraphouse", "a", "x-y_z"], &["_x", "x_", "x__y", "x-_y", "x.y", &"x".repeat(31)]),
            ("pinterest", pinterest, &["jedmund", "jon.vetica", "a_b"], &["ab", ".abc", "abc_", "a.._b", "a._b", "a-bc"]),
            ("reddit user", reddit_user, &["spez", "abc", "a-b_c"], &["ab", "1abc", &"x".repeat(21), "a.b"]),
            ("subreddit", subreddit, &["linux", "pop_os", "abc", &"x".repeat(21)], &["ab", "4chan", "a-b", &"x".repeat(22)]),
            ("snapchat", snapchat, &["ashybines1", "a.b_c"], &["abcd", "a b c d", "ab-cde"]),
            ("soundcloud", soundcloud, &["80000-hours", "streetfightwcrs", "a_b"], &["ab", "a.bc"]),
            ("substack", substack, &["taibbi", "kasai", "the-free-press"], &["jill", "a.bcde"]),
            ("tiktok", tiktok, &["realdonaldtrump", "greg.j.stoker", "a_b_c"], &["jd", "abcd", "ab-cde"]),
            ("tumblr", tumblr, &["yesyesnos", "instagram-engineering"], &["staf", "a_bcde"]),
            ("whatsapp", whatsapp, &["15551234567", "3WKM4SDWPMAMG1"], &["1234", "+15551234567"]),
            ("threads", threads, &["hubermanlab", "zuck"], &["_zuck", "zuck."]),
            ("twitch", twitch, &["Luna_oi", "hasanabi", "abcd", &"x".repeat(25)], &["abc", "1abc", "_abc", "a__bc", "ab-cd", &"x".repeat(26)]),
            ("twitter", twitter, &[ "daraobriain", "5isyphus55", "a", "ALLIN_STATS", &"x".repeat(15), ], &["", "a.b", "a-b", &"x".repeat(16)]),
            ("vimeo", vimeo, &["ww", "user12345", "staff"], &["", "98096838", "a b"]),
            ("youtube channel", youtube_channel_id, &["UCUi00Bia46ldMzwEqniEZRQ", "UC-_abcdefgh"], &["UCabcdefg", "UC abcdefghij"]),
            ("youtube name", youtube_name, &[ "5magazine", "BadEmpanadaLive", "Agit_Prop", "the.show", "ジャンル", ], &["ab", "f...", ".abc", "abc.", "a b c"]),
            ("linktree", linktree, &["justitiaswille", "rmhendrickson.tipofthespear", "abc"], &["ab", ".abc", "abc.", "a..bc", &"x".repeat(31)]),
        ];
        for (name, rule, accepted, rejected) in rules {
            for handle in *accepted {
                assert!(rule(handle), "{name} should accept {handle:?}");
            }
            for handle in *rejected {
                assert!(!rule(handle), "{name} should reject {handle:?}");
            }
        }
    }
}
