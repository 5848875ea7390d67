//! Text from feed HTML: sanitized HTML (ammonia) safe to render, a plain-text version
//! without markup, and URL slugs.

use std::sync::LazyLock;

use uuid::Uuid;

use crate::entities;
use crate::simple_html;

/// Slugs the product reserves for its own pages.
pub const RESERVED_SLUGS: [&str; 4] = ["directory", "id", "latest_episodes", "search"];

static SANITIZER: LazyLock<ammonia::Builder<'static>> = LazyLock::new(|| {
    let mut builder = ammonia::Builder::default();
    builder.link_rel(Some("noopener noreferrer nofollow"));
    builder
});

/// What [`simple_html`] needs of [`SANITIZER`] (`None`: always use ammonia).
static SIMPLE_RULES: LazyLock<Option<simple_html::Rules>> =
    LazyLock::new(|| simple_html::Rules::of(&SANITIZER));

/// HTML safe to render: scripts, styles, event handlers and unknown tags removed.
/// Plain text (no markup) is escaped so that it renders as written.
///
/// Text that the HTML parser would read as nothing but characters (no `<`, no
/// character reference, no carriage return, NUL or byte order mark) is escaped
/// directly, the way ammonia's serializer escapes a text node; simple, properly
/// nested show notes (paragraphs, lists, emphasis, links) are written out directly
/// as ammonia would ([`simple_html`]); everything else goes through ammonia. Every
/// path gives the same bytes ([`sanitize_html_full`] is the ammonia-only path, kept
/// for the tests that check this).
pub fn sanitize_html(html: &str) -> String {
    sanitize_html_fast(html).unwrap_or_else(|| sanitize_html_full(html))
}

/// The fast paths of [`sanitize_html`] alone: `None` when the text needs ammonia.
pub fn sanitize_html_fast(html: &str) -> Option<String> {
    if let Some(escaped) = escape_plain_text(html) {
        return Some(trimmed(escaped));
    }
    let rules = SIMPLE_RULES.as_ref()?;
    simple_html::sanitize_simple(html, rules).map(trimmed)
}

/// [`sanitize_html`] always through ammonia (parse, clean, serialize).
pub fn sanitize_html_full(html: &str) -> String {
    let document = SANITIZER.clean(html);
    // Serialized straight into one buffer (`to_string` would serialize, then copy).
    let mut bytes = Vec::with_capacity(html.len() + html.len() / 8 + 16);
    let serialized = match document.write_to(&mut bytes) {
        Ok(()) => String::from_utf8(bytes).ok(),
        Err(_) => None,
    };
    trimmed(serialized.unwrap_or_else(|| document.to_string()))
}

/// `text` without leading and trailing whitespace, reusing its buffer when possible.
fn trimmed(mut text: String) -> String {
    let end = text.trim_end().len();
    text.truncate(end);
    let start = text.len() - text.trim_start().len();
    if start > 0 {
        text.drain(..start);
    }
    text
}

/// The serialized form of `text` when the HTML fragment parser reads it as a single
/// text node: `&`, `>` and no-break spaces escaped as html5ever's serializer escapes
/// text. `None` when the parser could read it otherwise: a `<` (tags, comments), an
/// `&` that may start a character reference (followed by a letter, digit or `#`), a
/// carriage return (line ends are normalised), NUL (dropped) or a byte order mark.
fn escape_plain_text(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut index = 0;
    while index < bytes.len() {
        let (replacement, width) = match bytes[index] {
            b'<' | b'\r' | 0 => return None,
            b'&' => match bytes.get(index + 1) {
                Some(next) if next.is_ascii_alphanumeric() || *next == b'#' => return None,
                _ => ("&amp;", 1),
            },
            b'>' => ("&gt;", 1),
            0xC2 if bytes.get(index + 1) == Some(&0xA0) => ("&nbsp;", 2),
            // U+FEFF, the byte order mark.
            0xEF if bytes.get(index + 1) == Some(&0xBB) && bytes.get(index + 2) == Some(&0xBF) => {
                return None;
            }
            _ => {
                index += 1;
                continue;
            }
        };
        let out = out.get_or_insert_with(|| String::with_capacity(text.len() + 32));
        out.push_str(&text[copied..index]);
        out.push_str(replacement);
        index += width;
        copied = index;
    }
    match out {
        Some(mut out) => {
            out.push_str(&text[copied..]);
            Some(out)
        }
        None => Some(text.to_owned()),
    }
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
        let raw_name = tag[..close].trim_start_matches('/');
        let name = &raw_name[..raw_name
            .bytes()
            .take_while(u8::is_ascii_alphanumeric)
            .count()];
        rest = &tag[close + 1..];
        let skipped = ["script", "style"]
            .into_iter()
            .find(|skipped| name.eq_ignore_ascii_case(skipped));
        if let Some(skipped) = skipped
            && !tag.starts_with('/')
        {
            rest = find_closing_tag(rest, skipped)
                .and_then(|at| rest[at..].find('>').map(|end| &rest[at + end + 1..]))
                .unwrap_or("");
            continue;
        }
        if is_block(name) {
            out.push('\n');
        } else {
            out.push(' ');
        }
    }
    out.push_str(rest);
    collapse_whitespace(&entities::unescape(&out))
}

/// Where `</name` (any case) starts in `haystack`.
fn find_closing_tag(haystack: &str, name: &str) -> Option<usize> {
    let bytes = haystack.as_bytes();
    let wanted = name.len() + 2;
    (0..bytes.len().saturating_sub(wanted - 1)).find(|&at| {
        bytes[at] == b'<'
            && bytes[at + 1] == b'/'
            && bytes[at + 2..at + wanted].eq_ignore_ascii_case(name.as_bytes())
    })
}

/// Elements whose tags become line breaks (names compared in any case).
const BLOCKS: [&str; 19] = [
    "br",
    "p",
    "div",
    "li",
    "ul",
    "ol",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "tr",
    "table",
    "blockquote",
    "pre",
    "hr",
    "section",
    "article",
];

fn is_block(name: &str) -> bool {
    BLOCKS.iter().any(|block| block.eq_ignore_ascii_case(name))
}

/// Collapses spaces within lines and blank lines between them; trims the ends:
/// the words of each line joined by one space, lines without words dropped except
/// that one empty line stays between two lines that were separated by blank ones.
fn collapse_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank_since_last = false;
    for line in text.split('\n') {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else {
            blank_since_last = !out.is_empty();
            continue;
        };
        if !out.is_empty() {
            out.push('\n');
            if blank_since_last {
                out.push('\n');
            }
        }
        blank_since_last = false;
        out.push_str(first);
        for word in words {
            out.push(' ');
            out.push_str(word);
        }
    }
    out
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
