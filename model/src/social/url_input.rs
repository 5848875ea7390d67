//! Turning a link as found on a web page into host, path segments and query pairs:
//! invisible characters trimmed, a missing scheme assumed to be https, mobile and
//! `www` prefixes dropped, path segments percent-decoded, and the redirect wrappers
//! of YouTube, Facebook and Instagram unwrapped.

use url::Url;

/// Why a string is not a usable link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InputProblem {
    NotAUrl,
    UnsupportedScheme,
}

/// A parsed link.
#[derive(Debug, Clone)]
pub(crate) struct UrlParts {
    /// Lowercase host without a trailing dot and without `www.`, `m.`, `mobile.`,
    /// `web.`, `touch.` or `mbasic.` in front.
    pub host: String,
    /// Percent-decoded, non-empty path segments.
    pub segments: Vec<String>,
    /// Decoded query pairs.
    pub query: Vec<(String, String)>,
}

impl UrlParts {
    /// The first value of a query parameter.
    pub fn query_value(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// The label in front of `base` when the host is a subdomain of it: for
    /// `taibbi.substack.com` and `substack.com`, `Some("taibbi")`; `None` when the
    /// host is `base` itself. Call only when [`host_is`] holds.
    pub fn subdomain_of(&self, base: &str) -> Option<&str> {
        let prefix = self.host.strip_suffix(base)?.strip_suffix('.')?;
        (!prefix.is_empty()).then_some(prefix)
    }
}

/// Whether `host` is `base` or one of its subdomains (so `netflix.com` is not `x.com`).
pub(crate) fn host_is(host: &str, base: &str) -> bool {
    host == base
        || host
            .strip_suffix(base)
            .is_some_and(|prefix| prefix.ends_with('.'))
}

const DROPPED_HOST_PREFIXES: &[&str] = &["www.", "m.", "mobile.", "web.", "touch.", "mbasic."];

fn is_invisible(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}'
        )
}

/// Parses a link, unwrapping up to two levels of known redirect wrappers.
pub(crate) fn parse(input: &str) -> Result<UrlParts, InputProblem> {
    let mut parts = parse_one(input)?;
    for _ in 0..2 {
        match redirect_target(&parts) {
            Some(target) => parts = parse_one(&target)?,
            None => break,
        }
    }
    Ok(parts)
}

fn parse_one(input: &str) -> Result<UrlParts, InputProblem> {
    let trimmed = input.trim_matches(is_invisible);
    if trimmed.is_empty() || trimmed.chars().any(char::is_whitespace) {
        return Err(InputProblem::NotAUrl);
    }
    let with_scheme = if trimmed.starts_with("//") {
        format!("https:{trimmed}")
    } else if trimmed.contains("://") {
        trimmed.to_owned()
    } else if trimmed.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || b"+-".contains(&byte))
    }) {
        // `mailto:`, `tel:`, `javascript:`: a scheme, never a host (hosts have dots).
        return Err(InputProblem::UnsupportedScheme);
    } else {
        format!("https://{trimmed}")
    };
    let url = Url::parse(&with_scheme).map_err(|_| InputProblem::NotAUrl)?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(InputProblem::UnsupportedScheme);
    }
    let raw_host = url.host_str().ok_or(InputProblem::NotAUrl)?;
    if !raw_host.contains('.') {
        return Err(InputProblem::NotAUrl);
    }
    let mut host = raw_host.trim_end_matches('.').to_ascii_lowercase();
    while let Some(rest) = DROPPED_HOST_PREFIXES
        .iter()
        .find_map(|prefix| host.strip_prefix(prefix))
        .filter(|rest| rest.contains('.'))
    {
        host = rest.to_owned();
    }
    let segments = url
        .path()
        .split('/')
        .filter(|segment| !segment.is_empty())
        .map(percent_decode)
        .collect();
    let query = url
        .query_pairs()
        .map(|(key, value)| (key.into_owned(), value.into_owned()))
        .collect();
    Ok(UrlParts {
        host,
        segments,
        query,
    })
}

/// The target of a redirect wrapper link, if `parts` is one.
fn redirect_target(parts: &UrlParts) -> Option<String> {
    let first = parts.segments.first().map(String::as_str);
    let parameter = match (parts.host.as_str(), first) {
        ("youtube.com", Some("redirect")) => "q",
        ("l.facebook.com" | "lm.facebook.com", Some("l.php")) => "u",
        ("l.instagram.com", _) => "u",
        _ => return None,
    };
    parts
        .query_value(parameter)
        .filter(|target| target.starts_with("http://") || target.starts_with("https://"))
        .map(str::to_owned)
}

/// Decodes `%XX` escapes; a segment that does not decode to UTF-8 is kept as written.
fn percent_decode(segment: &str) -> String {
    let bytes = segment.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let escaped = (bytes[index] == b'%')
            .then(|| bytes.get(index + 1..index + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                decoded.push(byte);
                index += 3;
            }
            None => {
                decoded.push(bytes[index]);
                index += 1;
            }
        }
    }
    String::from_utf8(decoded).unwrap_or_else(|_| segment.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_lose_mobile_and_www_prefixes() {
        for (input, host) in [
            ("https://www.instagram.com/x", "instagram.com"),
            ("https://mobile.twitter.com/MPMaterials", "twitter.com"),
            ("https://m.facebook.com/x", "facebook.com"),
            ("https://web.facebook.com/x", "facebook.com"),
            ("HTTPS://WWW.YouTube.COM./@x", "youtube.com"),
            ("instagram.com/x", "instagram.com"),
            ("//twitter.com/x", "twitter.com"),
            ("https://www.m.example", "m.example"),
        ] {
            assert_eq!(parse(input).unwrap().host, host, "{input}");
        }
    }

    #[test]
    fn segments_are_decoded_and_invisible_edges_trimmed() {
        let parts = parse("\u{2060} https://linktr.ee/thegarybrecka\u{2060}").unwrap();
        assert_eq!(parts.segments, vec!["thegarybrecka"]);
        let parts = parse("https://example.com//a%20b/%E2%82%AC/%ZZ/").unwrap();
        assert_eq!(parts.segments, vec!["a b", "€", "%ZZ"]);
        let parts = parse("https://example.com/%FF").unwrap();
        assert_eq!(parts.segments, vec!["%FF"]);
    }

    #[test]
    fn redirect_wrappers_are_unwrapped() {
        let parts = parse(
            "https://www.youtube.com/redirect?q=https%3A%2F%2Fwww.instagram.com%2Fhealthypeach&redir_token=x",
        )
        .unwrap();
        assert_eq!(parts.host, "instagram.com");
        assert_eq!(parts.segments, vec!["healthypeach"]);
        let parts =
            parse("https://l.facebook.com/l.php?u=https%3A%2F%2Ftwitter.com%2Fnpr&h=AT0").unwrap();
        assert_eq!(parts.host, "twitter.com");
        let parts = parse("https://www.youtube.com/redirect?q=javascript%3Aalert(1)").unwrap();
        assert_eq!(
            parts.host, "youtube.com",
            "a non-http target is not followed"
        );
    }

    #[test]
    fn non_links_are_rejected() {
        for input in [
            "",
            "   ",
            "@handle",
            "hello world",
            "twitter",
            "https://",
            "http://localhost/x",
        ] {
            assert_eq!(
                parse(input).unwrap_err(),
                InputProblem::NotAUrl,
                "{input:?}"
            );
        }
        for input in [
            "mailto:someone@example.com",
            "ftp://twitter.com/x",
            "javascript:alert(1)",
            "tel:123",
        ] {
            assert_eq!(
                parse(input).unwrap_err(),
                InputProblem::UnsupportedScheme,
                "{input:?}"
            );
        }
    }

    #[test]
    fn host_matching_respects_label_boundaries() {
        assert!(host_is("x.com", "x.com"));
        assert!(host_is("blog.x.com", "x.com"));
        assert!(!host_is("netflix.com", "x.com"));
        assert!(!host_is("x.com.evil.net", "x.com"));
    }
}
