//! Email addresses in links and text, including the common obfuscations:
//! `name [at] domain [dot] com` (and `(at)`, `{at}`, `<at>`, ` at … dot `),
//! entity-encoded addresses (decoded by the HTML parser), percent-encoded
//! `mailto:` links and Cloudflare's `data-cfemail` protection.

use std::sync::OnceLock;

use percent_encoding::percent_decode_str;
use regex::Regex;

fn regex(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).unwrap_or_else(|_| unreachable!("valid regex")))
}

fn plain_pattern() -> &'static Regex {
    static CELL: OnceLock<Regex> = OnceLock::new();
    regex(
        &CELL,
        r"[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+",
    )
}

fn bracketed_at() -> &'static Regex {
    static CELL: OnceLock<Regex> = OnceLock::new();
    regex(&CELL, r"(?i)\s*[\[\(\{<]\s*(?:at|@)\s*[\]\)\}>]\s*")
}

fn bracketed_dot() -> &'static Regex {
    static CELL: OnceLock<Regex> = OnceLock::new();
    regex(&CELL, r"(?i)\s*[\[\(\{<]\s*(?:dot|\.)\s*[\]\)\}>]\s*")
}

/// `name at domain dot com`: only with at least one spelled-out `dot`, so plain
/// prose ("meet us at noon") is left alone.
fn spelled_out() -> &'static Regex {
    static CELL: OnceLock<Regex> = OnceLock::new();
    regex(
        &CELL,
        r"(?i)\b([a-z0-9][a-z0-9._+-]*)\s+at\s+([a-z0-9-]+(?:\s+dot\s+[a-z0-9-]+)+)\b",
    )
}

fn spelled_dot() -> &'static Regex {
    static CELL: OnceLock<Regex> = OnceLock::new();
    regex(&CELL, r"(?i)\s+dot\s+")
}

/// The address of a `mailto:` link (query cut, percent-decoded, lowercased), if
/// it is a plausible address.
pub fn mailto_address(href: &str) -> Option<String> {
    let scheme = href.get(..7)?;
    if !scheme.eq_ignore_ascii_case("mailto:") {
        return None;
    }
    let rest = &href[7..];
    let address = rest.split('?').next().unwrap_or(rest);
    let decoded = percent_decode_str(address).decode_utf8_lossy();
    // `mailto:a@b.com,c@d.com` lists several recipients; keep the first.
    let first = decoded.split(',').next().unwrap_or("").trim();
    is_plausible_email(first).then(|| first.to_lowercase())
}

/// Every plausible address in `text`, obfuscations undone, lowercased, in order.
pub fn emails_in_text(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    collect_plain(text, &mut found);
    let lower = text.to_ascii_lowercase();
    if lower.contains("at")
        && (lower.contains('[')
            || lower.contains('(')
            || lower.contains('{')
            || lower.contains('<'))
    {
        let joined = bracketed_at().replace_all(text, "@");
        let joined = bracketed_dot().replace_all(&joined, ".");
        collect_plain(&joined, &mut found);
    }
    if lower.contains(" dot ") {
        for capture in spelled_out().captures_iter(text) {
            let domain = spelled_dot().replace_all(&capture[2], ".");
            let address = format!("{}@{domain}", &capture[1]);
            if is_plausible_email(&address) {
                found.push(address.to_lowercase());
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    found.retain(|address| seen.insert(address.clone()));
    found
}

fn collect_plain(text: &str, found: &mut Vec<String>) {
    if !text.contains('@') {
        return;
    }
    for candidate in plain_pattern().find_iter(text) {
        let address = candidate.as_str().trim_end_matches(['.', '-']);
        if is_plausible_email(address) {
            found.push(address.to_lowercase());
        }
    }
}

const NOT_A_TLD: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "svg", "webp", "avif", "ico", "css", "js", "mp3", "mp4", "m4a",
];

/// A syntactically sound address with a real-looking top-level domain; rejects
/// retina image names (`logo@2x.png`) and similar false positives.
pub fn is_plausible_email(address: &str) -> bool {
    let Some((local, domain)) = address.rsplit_once('@') else {
        return false;
    };
    if local.is_empty()
        || local.len() > 64
        || domain.len() > 253
        || local.starts_with('.')
        || local.ends_with('.')
        || local.contains("..")
        || !local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._%+-'".contains(c))
    {
        return false;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    if labels.len() < 2 {
        return false;
    }
    let valid_label = |label: &&str| {
        !label.is_empty()
            && label.len() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    };
    let tld = labels[labels.len() - 1];
    labels.iter().all(valid_label)
        && tld.len() >= 2
        && tld.chars().all(|c| c.is_ascii_alphabetic())
        && !NOT_A_TLD.iter().any(|ext| tld.eq_ignore_ascii_case(ext))
}

/// Decodes Cloudflare's `data-cfemail` hex: the first byte is the XOR key.
pub fn decode_cloudflare(hex: &str) -> Option<String> {
    let bytes: Option<Vec<u8>> = (0..hex.len())
        .step_by(2)
        .map(|at| {
            hex.get(at..at + 2)
                .and_then(|pair| u8::from_str_radix(pair, 16).ok())
        })
        .collect();
    let bytes = bytes?;
    let (key, rest) = bytes.split_first()?;
    let decoded: Vec<u8> = rest.iter().map(|byte| byte ^ key).collect();
    let address = String::from_utf8(decoded).ok()?;
    is_plausible_email(&address).then(|| address.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mailto_links_are_decoded() {
        assert_eq!(
            mailto_address("mailto:%68%69@example.com?subject=Hello").as_deref(),
            Some("hi@example.com")
        );
        assert_eq!(
            mailto_address("MAILTO:Team@Example.com").as_deref(),
            Some("team@example.com")
        );
        assert_eq!(mailto_address("mailto:"), None);
        assert_eq!(mailto_address("https://example.com"), None);
    }

    #[test]
    fn obfuscations_are_undone() {
        let text = "Write to booking [at] show [dot] co [dot] uk or press (at) show.com, \
                    or jane at example dot org. Meet us at noon.";
        let found = emails_in_text(text);
        assert!(
            found.contains(&"booking@show.co.uk".to_owned()),
            "{found:?}"
        );
        assert!(found.contains(&"press@show.com".to_owned()), "{found:?}");
        assert!(found.contains(&"jane@example.org".to_owned()), "{found:?}");
        assert_eq!(found.len(), 3, "{found:?}");
    }

    #[test]
    fn image_names_and_junk_are_not_emails() {
        assert!(emails_in_text("logo@2x.png and icon@3x.webp").is_empty());
        assert!(!is_plausible_email("a@b"));
        assert!(!is_plausible_email("a@b.c"));
        assert!(!is_plausible_email(".a@b.com"));
        assert!(is_plausible_email("first.last+tag@sub.example.io"));
    }

    #[test]
    fn cloudflare_protection_is_decoded() {
        // key 0x42 XOR "a@b.co"
        let encoded: String = std::iter::once(0x42u8)
            .chain("a@b.co".bytes().map(|byte| byte ^ 0x42))
            .map(|byte| format!("{byte:02x}"))
            .collect();
        assert_eq!(decode_cloudflare(&encoded).as_deref(), Some("a@b.co"));
        assert_eq!(decode_cloudflare("zz"), None);
    }
}
