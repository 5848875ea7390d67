//! Text from feed HTML: sanitized HTML (ammonia) safe to render, a plain-text version
//! without markup, and URL slugs.

use std::sync::LazyLock;

use uuid::Uuid;

use crate::entities;

/// Slugs the product reserves for its own pages.
pub const RESERVED_SLUGS: [&str; 4] = ["directory", "id", "latest_episodes", "search"];

static SANITIZER: LazyLock<ammonia::Builder<'static>> = LazyLock::new(|| {
    let mut builder = ammonia::Builder::default();
    builder.link_rel(Some("noopener noreferrer nofollow"));
    builder
});

/// HTML safe to render: scripts, styles, event handlers and unknown tags removed.
/// Plain text (no markup) is escaped so that it renders as written.
pub fn sanitize_html(html: &str) -> String {
    SANITIZER.clean(html).to_string().trim().to_owned()
}

/// The text of an HTML fragment: tags removed (block elements and `<br>` become line
/// breaks), `script`/`style` contents dropped, references resolved, runs of spaces
/// collapsed.
pub fn html_to_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let tag = &rest[open + 1..];
        let looks_like_tag = tag
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '/' || c == '!');
        if !looks_like_tag {
            out.push('<');
            rest = tag;
            continue;
        }
        if tag.starts_with("!--") {
            rest = tag.find("-->").map_or("", |end| &tag[end + 3..]);
            continue;
        }
        let Some(close) = tag.find('>') else {
            out.push('<');
            rest = tag;
            continue;
        };
        let name: String = tag[..close]
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        rest = &tag[close + 1..];
        if (name == "script" || name == "style") && !tag.starts_with('/') {
            let closing = format!("</{name}");
            rest = find_ignore_case(rest, &closing)
                .and_then(|at| rest[at..].find('>').map(|end| &rest[at + end + 1..]))
                .unwrap_or("");
            continue;
        }
        if is_block(&name) {
            out.push('\n');
        } else {
            out.push(' ');
        }
    }
    out.push_str(rest);
    collapse_whitespace(&entities::unescape(&out))
}

fn find_ignore_case(haystack: &str, needle: &str) -> Option<usize> {
    haystack
        .to_ascii_lowercase()
        .find(&needle.to_ascii_lowercase())
}

fn is_block(name: &str) -> bool {
    matches!(
        name,
        "br" | "p"
            | "div"
            | "li"
            | "ul"
            | "ol"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "tr"
            | "table"
            | "blockquote"
            | "pre"
            | "hr"
            | "section"
            | "article"
    )
}

/// Collapses spaces within lines and blank lines between them; trims the ends.
fn collapse_whitespace(text: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    for line in text.split('\n') {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            if lines.last().is_some_and(|last| !last.is_empty()) {
                lines.push(String::new());
            }
            continue;
        }
        lines.push(words.join(" "));
    }
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    lines.join("\n")
}

/// True when the text contains markup worth sanitizing rather than escaping.
pub fn looks_like_html(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.windows(2).any(|pair| {
        pair[0] == b'<' && (pair[1].is_ascii_alphabetic() || pair[1] == b'/' || pair[1] == b'!')
    })
}

/// A URL slug: the title in ASCII words joined by hyphens (at most 60 characters),
/// then a hyphen and the first 6 hex digits of the id, so slugs are unique enough and
/// never one of [`RESERVED_SLUGS`].
pub fn slug_for(title: &str, id: Uuid, fallback: &str) -> String {
    let mut base = slug::slugify(title);
    if base.len() > 60 {
        let cut = base[..60].rfind('-').unwrap_or(60);
        base.truncate(cut);
    }
    let base = base.trim_matches('-');
    let base = if base.is_empty() { fallback } else { base };
    let suffix: String = id.simple().to_string().chars().take(6).collect();
    format!("{base}-{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_becomes_text() {
        let html = "<p>Hello&nbsp;<b>world</b> &amp; friends</p><script>alert(1)</script><p>Next <br/>line</p><!-- c -->";
        assert_eq!(html_to_text(html), "Hello world & friends\n\nNext\nline");
        assert_eq!(html_to_text("1 < 2 and a<b"), "1 < 2 and a<b");
    }

    #[test]
    fn sanitizer_drops_scripts_and_handlers() {
        let clean = sanitize_html(
            "<p onclick=\"x()\">Hi <script>bad()</script><a href=\"https://a.b\">l</a></p>",
        );
        assert!(
            !clean.contains("script") && !clean.contains("onclick"),
            "{clean}"
        );
        assert!(clean.contains("<a href=\"https://a.b\""), "{clean}");
    }

    #[test]
    fn slugs_have_an_id_suffix_and_avoid_reserved_words() {
        let id = Uuid::from_u128(0xabcdef12_0000_0000_0000_000000000000);
        assert_eq!(
            slug_for("The Daily Show!", id, "podcast"),
            "the-daily-show-abcdef"
        );
        assert_eq!(slug_for("歴史", id, "podcast"), "li-shi-abcdef");
        assert_eq!(slug_for("", id, "podcast"), "podcast-abcdef");
        for reserved in RESERVED_SLUGS {
            assert_ne!(slug_for(reserved, id, "podcast"), reserved);
        }
        assert!(slug_for(&"word ".repeat(40), id, "podcast").len() <= 67);
    }
}
