//! The fast paths of `text::sanitize_html` and `text::html_to_text` give exactly the
//! bytes of the full paths: over every description, summary and subtitle of every feed
//! of the shared corpus (feeds/, real, edge-case and malformed ones), and over
//! generated strings built from the characters the HTML parser treats specially.
//!
//! The full path of `sanitize_html` is ammonia itself (`sanitize_html_full`); the
//! reference for `html_to_text` is its previous implementation, kept here verbatim.

use std::path::{Path, PathBuf};

use podlens_ingest::entities;
use podlens_ingest::parse_feed;
use podlens_ingest::text::{html_to_text, sanitize_html, sanitize_html_fast, sanitize_html_full};

fn corpus_feeds() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/feeds")
}

fn feed_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("corpus folder")
        .map(|entry| entry.expect("corpus entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            feed_files(&path, files);
        } else if path.extension().is_none_or(|extension| extension != "tsv") {
            files.push(path);
        }
    }
}

/// Every description-like text of every feed of the corpus that parses.
fn corpus_texts() -> Vec<String> {
    let mut files = Vec::new();
    feed_files(&corpus_feeds(), &mut files);
    assert!(files.len() > 150, "corpus not found: {} files", files.len());
    let mut texts = Vec::new();
    for path in files {
        let bytes = std::fs::read(&path).expect("feed file");
        let Ok(feed) = parse_feed(&bytes, None) else {
            continue;
        };
        let channel = feed.channel;
        texts.extend(
            [channel.description, channel.summary, channel.subtitle]
                .into_iter()
                .flatten(),
        );
        for item in feed.items {
            texts.extend(
                [
                    item.content_encoded,
                    item.description,
                    item.summary,
                    item.subtitle,
                ]
                .into_iter()
                .flatten(),
            );
        }
    }
    texts
}

#[test]
fn sanitizing_and_text_match_the_full_paths_on_every_corpus_description() {
    let texts = corpus_texts();
    let mut fast = 0;
    let mut fast_markup = 0;
    for text in &texts {
        let full = sanitize_html_full(text);
        if let Some(quick) = sanitize_html_fast(text) {
            assert_eq!(quick, full, "sanitized differently: {text:?}");
            fast += 1;
            if text.contains('<') {
                fast_markup += 1;
            }
        }
        assert_eq!(sanitize_html(text), full, "sanitized differently: {text:?}");
        assert_eq!(
            html_to_text(text),
            reference_html_to_text(text),
            "text differs: {text:?}"
        );
    }
    // The fast paths were taken often, with and without markup, so they were compared.
    println!(
        "{} texts: {fast} sanitized on a fast path ({fast_markup} with markup)",
        texts.len()
    );
    assert!(fast > texts.len() / 2, "{fast} of {} fast", texts.len());
    assert!(fast_markup > 10_000, "{fast_markup} with markup");
}

/// The characters and snippets around which the HTML parser and the fast path could
/// disagree.
const PIECES: &[&str] = &[
    "a",
    "Z",
    "9",
    " ",
    "  ",
    "\t",
    "\n",
    "\r",
    "\r\n",
    "\u{0}",
    "\u{c}",
    "\u{1}",
    "\u{a0}",
    "\u{feff}",
    "\u{2028}",
    "é",
    "日本",
    "&",
    "& ",
    "&amp;",
    "&amp",
    "&nbsp;",
    "&#39;",
    "&#x27;",
    "&#",
    "&;",
    "&-",
    "&é",
    ">",
    "<",
    "</",
    "<b>",
    "</b>",
    "<p>",
    "<br/>",
    "<!-- c -->",
    "<a",
    "< b",
    "<3",
    "\"",
    "'",
    "=",
    "<script>x</script>",
    "<SCRIPT>y</Script>",
    "<style>",
    "</style",
    "<div>",
    "</DIV>",
    "<li>",
    "\u{c2}",
    "Â",
];

#[test]
fn sanitizing_and_text_match_the_full_paths_on_generated_strings() {
    // xorshift64*: a fixed sequence, no dependency.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    for _ in 0..50_000 {
        let length = (next() % 16) as usize;
        let text: String = (0..length)
            .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
            .collect();
        if let Some(quick) = sanitize_html_fast(&text) {
            assert_eq!(
                quick,
                sanitize_html_full(&text),
                "sanitized differently: {text:?}"
            );
        }
        assert_eq!(
            html_to_text(&text),
            reference_html_to_text(&text),
            "text differs: {text:?}"
        );
    }
}

/// Well-nested show notes from the elements and attributes of the fast path, with
/// some of the nestings the HTML tree builder rearranges (a list in a paragraph,
/// an item outside a list, a link in a link).
fn markup(next: &mut impl FnMut() -> u64, depth: usize, out: &mut String) {
    const ELEMENTS: &[&str] = &[
        "p",
        "b",
        "i",
        "em",
        "strong",
        "u",
        "ul",
        "ol",
        "li",
        "a",
        "span",
        "P",
        "A",
        "Strong",
        "div",
        "h2",
        "H3",
        "blockquote",
        "small",
        "code",
        "sup",
        "font",
        "table",
    ];
    const ATTRIBUTES: &[&str] = &[
        "",
        " href=\"https://example.com/a?x=1&amp;y=2\"",
        " href=\"javascript:alert(1)\"",
        " href=\"/relative/path\"",
        " href=\"mailto:a@b.c\"",
        " href=\"http://[::1\"",
        " HREF=\"HTTP://Example.COM\" target=\"_blank\"",
        " title=\"a &quot;quote&quot; &lt;here&gt;\" lang=\"en\"",
        " class=\"x\" style=\"color:red\" onclick=\"evil()\"",
        " rel=\"me\" hreflang=\"de\"",
        " href=\"a\" href=\"b\"",
        " title=\"\u{a0}nbsp\"",
        " href=\"https://example.com/?q=caf&eacute;&#38;x=&#x2F;\"",
        " title=\"&bogus; &amp\"",
        " cite=\"https://example.com/\" src=\"javascript:x\"",
        " href='https://example.com/?a=1&utm_source=x&amp=2&copy=3&ampx&not' title='it\"s'",
        " href = \"https://example.com/&copy-x&notit\"",
        " width=10 border=0 href=https://example.com/a/b?c=d",
        " href=https://example.com/&amp",
        " title=\"a\r\nb\rc\"\r\nlang=\"en\"",
        " title=\"x\u{feff}y\" href=\"\u{2060}https://example.com\"",
    ];
    const TEXTS: &[&str] = &[
        "text",
        " ",
        "\n",
        "Tom & Jerry",
        "1 > 0",
        "&amp;",
        "&lt;b&gt;",
        "&quot;",
        "&#39;",
        "\u{a0}",
        "é ü 日本",
        "&copy;",
        "\r",
        "",
        "&nbsp;",
        "&rsquo;",
        "&#8217;",
        "&#x2019;",
        "&#128;",
        "&#0;",
        "&#xD800;",
        "&bogus;",
        "&amp",
        "&notit;",
        "&AMP;",
        "&#39",
        "&apos;",
        "&utm_source=x",
        "&notit",
        "&copy=1",
        "&ampx",
        "&nbsp x",
        "&Eacute",
        "\r\n",
        "\u{feff}",
    ];
    let children = next() % 4;
    for _ in 0..children {
        match next() % 5 {
            0 | 1 if depth < 4 => {
                let element = ELEMENTS[(next() % ELEMENTS.len() as u64) as usize];
                let attributes = ATTRIBUTES[(next() % ATTRIBUTES.len() as u64) as usize];
                out.push_str(&format!("<{element}{attributes}>"));
                markup(next, depth + 1, out);
                if !next().is_multiple_of(8) {
                    out.push_str(&format!("</{element}>"));
                }
            }
            2 => out.push_str(
                [
                    "<br>",
                    "<br/>",
                    "<br />",
                    "<BR>",
                    "<hr>",
                    "<hr/>",
                    "<img src=\"https://i.example.com/a.png\" alt=\"a &amp; b\" onerror=\"x()\">",
                    "<img src=\"javascript:alert(1)\" width=\"10\"/>",
                    "</br>",
                    "<!-- note -->",
                ][(next() % 10) as usize],
            ),
            _ => out.push_str(TEXTS[(next() % TEXTS.len() as u64) as usize]),
        }
    }
}

#[test]
fn sanitizing_matches_ammonia_on_generated_show_notes() {
    let mut state: u64 = 0x0123_4567_89AB_CDEF;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut fast = 0;
    for _ in 0..30_000 {
        let mut text = String::new();
        markup(&mut next, 0, &mut text);
        let full = sanitize_html_full(&text);
        if let Some(quick) = sanitize_html_fast(&text) {
            assert_eq!(quick, full, "sanitized differently: {text:?}");
            fast += 1;
        }
        assert_eq!(
            sanitize_html(&text),
            full,
            "sanitized differently: {text:?}"
        );
    }
    assert!(
        fast > 5_000,
        "only {fast} generated notes took the fast path"
    );
}

#[test]
fn plain_text_is_escaped_as_ammonia_escapes_it() {
    // Expectations written out by hand (html5ever escapes &, <, > and U+00A0 in text).
    assert_eq!(
        sanitize_html(" Tom & Jerry > Itchy "),
        "Tom &amp; Jerry &gt; Itchy"
    );
    assert_eq!(sanitize_html("\u{a0}a\u{a0}"), "&nbsp;a&nbsp;");
    assert_eq!(sanitize_html("trailing &"), "trailing &amp;");
    assert_eq!(sanitize_html("R&D"), "R&amp;D");
    assert_eq!(sanitize_html("a &lt; b"), "a &lt; b");
    assert_eq!(sanitize_html("x\r\ny"), "x\ny");
    assert_eq!(sanitize_html(""), "");
}

// ---------------------------------------------------------------------------
// The previous `html_to_text`, verbatim: the reference the faster one must equal.

fn reference_html_to_text(html: &str) -> String {
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
