//! Sanitizing the simple HTML most show notes are written in, without building a DOM.
//!
//! Show notes are mostly paragraphs, lists, emphasis and links, properly nested. For
//! that subset the HTML parser's tree is the markup as written, and what ammonia makes
//! of it can be written directly: allowed attributes kept in order (an `href` only when
//! ammonia's URL rule keeps it), `rel` appended to links, tag and attribute names in
//! lowercase, text and attribute values escaped as html5ever's serializer escapes
//! them, elements left open at the end closed. [`sanitize_simple`] answers `None` for
//! anything outside the subset — other tags, comments, misnesting, a block inside a
//! paragraph, unquoted or duplicated attributes, character references other than the
//! five below, carriage returns, NUL, byte order marks — and the caller runs ammonia.
//! The rules below keep clear of every place where the HTML tree builder would
//! rearrange the markup (implicitly closed paragraphs and list items, reconstructed
//! or adopted formatting elements, nested links).
//!
//! The allowed attributes, URL schemes and link `rel` are read from the ammonia
//! builder itself; a builder configured with anything this module does not model
//! (attribute values, set attributes, attribute prefixes, classes, rewritten relative
//! URLs) disables it. (An id prefix or attribute filter cannot be read back from a
//! builder: the one in `text` sets neither.) `tests/text_fast_path.rs` compares both
//! paths over the whole corpus.

use std::collections::{HashMap, HashSet};

/// Elements of the subset. Each must be allowed by the builder.
const ELEMENTS: [&str; 28] = [
    "p",
    "br",
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
    "div",
    "hr",
    "img",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "small",
    "s",
    "cite",
    "code",
    "sub",
    "sup",
];

/// Elements without content or end tag.
fn is_void(element: &str) -> bool {
    matches!(element, "br" | "hr" | "img")
}

/// Start tags that close an open paragraph (the subset's members of the tree
/// builder's list).
fn closes_paragraph(element: &str) -> bool {
    matches!(
        element,
        "p" | "div"
            | "ul"
            | "ol"
            | "li"
            | "hr"
            | "blockquote"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
    )
}

fn is_heading(element: &str) -> bool {
    matches!(element, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// What the fast path needs to know of an ammonia builder.
pub(crate) struct Rules {
    /// Allowed attribute names by element (generic ones included).
    attributes: HashMap<&'static str, HashSet<String>>,
    url_schemes: HashSet<String>,
    link_rel: Option<String>,
}

impl Rules {
    /// The rules of `builder`, or `None` when it is configured beyond what this module
    /// models (the caller then always uses ammonia).
    pub(crate) fn of(builder: &ammonia::Builder<'_>) -> Option<Rules> {
        let tags = builder.clone_tags();
        let models_everything = builder.clone_tag_attribute_values().is_empty()
            && builder.clone_set_tag_attribute_values().is_empty()
            && builder.clone_generic_attribute_prefixes().is_none()
            && builder.clone_allowed_classes().is_empty()
            && builder.is_url_relative_pass_through()
            && ELEMENTS.iter().all(|element| tags.contains(element));
        if !models_everything {
            return None;
        }
        let generic = builder.clone_generic_attributes();
        let per_tag = builder.clone_tag_attributes();
        let attributes = ELEMENTS
            .iter()
            .map(|element| {
                let mut names: HashSet<String> =
                    generic.iter().map(|name| (*name).to_owned()).collect();
                if let Some(specific) = per_tag.get(element) {
                    names.extend(specific.iter().map(|name| (*name).to_owned()));
                }
                (*element, names)
            })
            .collect();
        Some(Rules {
            attributes,
            url_schemes: builder
                .clone_url_schemes()
                .into_iter()
                .map(str::to_owned)
                .collect(),
            link_rel: builder.get_link_rel().map(str::to_owned),
        })
    }

    /// ammonia's rule for a URL attribute: an absolute URL with an allowed scheme, or
    /// a relative URL (passed through).
    fn keeps_url(&self, value: &str) -> bool {
        match url::Url::parse(value) {
            Ok(url) => self.url_schemes.contains(url.scheme()),
            Err(error) => error == url::ParseError::RelativeUrlWithoutBase,
        }
    }
}

/// The sanitized, serialized form of `html` (not trimmed), when it is in the subset.
pub(crate) fn sanitize_simple(html: &str, rules: &Rules) -> Option<String> {
    // The parser drops a byte order mark at the very start (elsewhere it is text).
    if html.starts_with('\u{feff}') {
        return None;
    }
    let bytes = html.as_bytes();
    let mut out = String::with_capacity(html.len() + 64);
    let mut open: Vec<&'static str> = Vec::with_capacity(8);
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'<' => {
                at = tag(html, at, rules, &mut open, &mut out)?;
            }
            _ => {
                let end = bytes[at..]
                    .iter()
                    .position(|byte| *byte == b'<')
                    .map_or(bytes.len(), |offset| at + offset);
                let text = unescape(&html[at..end], false)?;
                escape_into(&mut out, &text, false);
                at = end;
            }
        }
    }
    for element in open.iter().rev() {
        out.push_str("</");
        out.push_str(element);
        out.push('>');
    }
    Some(out)
}

/// Whitespace between attributes (a carriage return is read as a line feed).
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// Bytes of an unquoted attribute value read as written (no references, none of
/// the characters the tokenizer objects to).
fn is_plain_unquoted(byte: u8) -> bool {
    byte.is_ascii_alphanumeric()
        || matches!(
            byte,
            b'-' | b'.'
                | b'_'
                | b':'
                | b'/'
                | b'#'
                | b'%'
                | b'?'
                | b'+'
                | b','
                | b';'
                | b'!'
                | b'~'
                | b'*'
                | b'@'
                | b'$'
                | b'('
                | b')'
        )
}

/// Reads the tag at `start` (a `<`), checks it against the open elements, writes it;
/// returns where the text after it starts.
fn tag(
    html: &str,
    start: usize,
    rules: &Rules,
    open: &mut Vec<&'static str>,
    out: &mut String,
) -> Option<usize> {
    let bytes = html.as_bytes();
    let mut at = start + 1;
    let closing = bytes.get(at) == Some(&b'/');
    if closing {
        at += 1;
    }
    let name_start = at;
    if !bytes.get(at)?.is_ascii_alphabetic() {
        return None;
    }
    while bytes.get(at).is_some_and(u8::is_ascii_alphanumeric) {
        at += 1;
    }
    let raw_name = &html[name_start..at];
    let element = *ELEMENTS
        .iter()
        .find(|element| element.eq_ignore_ascii_case(raw_name))?;
    if closing {
        while bytes.get(at).copied().is_some_and(is_space) {
            at += 1;
        }
        if bytes.get(at) != Some(&b'>') || open.last() != Some(&element) {
            return None;
        }
        open.pop();
        out.push_str("</");
        out.push_str(element);
        out.push('>');
        return Some(at + 1);
    }
    // Where the tree builder would not simply append the element: a block start
    // closes an open paragraph, a list item closes an open item unless it is directly
    // in its list, a heading closes a heading, a link inside a link is adopted.
    if closes_paragraph(element) && open.contains(&"p") {
        return None;
    }
    match element {
        "li" if !matches!(open.last(), Some(&"ul" | &"ol")) => return None,
        "a" if open.contains(&"a") => return None,
        heading if is_heading(heading) && open.iter().any(|open| is_heading(open)) => {
            return None;
        }
        _ => {}
    }
    let allowed = rules.attributes.get(element)?;
    let mut kept: Vec<(&str, std::borrow::Cow<'_, str>)> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    let mut self_closing = false;
    loop {
        let before_space = at;
        while bytes.get(at).copied().is_some_and(is_space) {
            at += 1;
        }
        match bytes.get(at)? {
            b'>' => break,
            b'/' if bytes.get(at + 1) == Some(&b'>') => {
                self_closing = true;
                at += 1;
                break;
            }
            byte if byte.is_ascii_alphabetic() && at > before_space => {
                let name_start = at;
                while bytes
                    .get(at)
                    .is_some_and(|byte| byte.is_ascii_alphanumeric() || *byte == b'-')
                {
                    at += 1;
                }
                let name = &html[name_start..at];
                // `name = "value"`, `name='value'` or `name=value`; spaces around `=`.
                while bytes.get(at).copied().is_some_and(is_space) {
                    at += 1;
                }
                if bytes.get(at) != Some(&b'=') {
                    return None;
                }
                at += 1;
                while bytes.get(at).copied().is_some_and(is_space) {
                    at += 1;
                }
                let (value_start, value_end) = match bytes.get(at)? {
                    quote @ (b'"' | b'\'') => {
                        let value_start = at + 1;
                        let value_end = value_start
                            + bytes[value_start..].iter().position(|byte| byte == quote)?;
                        at = value_end + 1;
                        (value_start, value_end)
                    }
                    _ => {
                        let value_start = at;
                        while bytes
                            .get(at)
                            .is_some_and(|byte| !is_space(*byte) && *byte != b'>')
                        {
                            if !is_plain_unquoted(bytes[at]) {
                                return None;
                            }
                            at += 1;
                        }
                        if at == value_start {
                            return None;
                        }
                        (value_start, at)
                    }
                };
                if seen.iter().any(|other| other.eq_ignore_ascii_case(name)) {
                    return None;
                }
                seen.push(name);
                let value = unescape(&html[value_start..value_end], true)?;
                let lowered = name.to_ascii_lowercase();
                let keep = allowed.contains(&lowered)
                    && (!is_url_attribute(&lowered) || rules.keeps_url(&value));
                if keep {
                    kept.push((name, value));
                }
            }
            _ => return None,
        }
    }
    if self_closing && !is_void(element) {
        return None;
    }
    out.push('<');
    out.push_str(element);
    for (name, value) in &kept {
        out.push(' ');
        for character in name.chars() {
            out.push(character.to_ascii_lowercase());
        }
        out.push_str("=\"");
        escape_into(out, value, true);
        out.push('"');
    }
    if element == "a"
        && let Some(rel) = &rules.link_rel
    {
        out.push_str(" rel=\"");
        escape_into(out, rel, true);
        out.push('"');
    }
    out.push('>');
    if !is_void(element) {
        open.push(element);
    }
    Some(at + 1)
}

/// ammonia's URL attributes (of the elements of the subset).
fn is_url_attribute(name: &str) -> bool {
    matches!(name, "href" | "src" | "xlink:href")
}

/// Text or an attribute value (`attribute`) as the HTML parser reads it, when it can
/// be read without its full reference table: `&name;` with a name of the HTML 4 set
/// (all in HTML5, same characters), `&#N;` / `&#xH;` of a printable character outside
/// the ranges HTML5 remaps (NUL, C1 controls, surrogates, noncharacters), and an `&`
/// that the parser keeps as written: one not followed by a letter, digit or `#`, one
/// followed by letters and digits that no legacy (semicolon-less) name begins, and in
/// an attribute value one whose letters and digits are longer than such a name or
/// followed by `=`. Carriage returns become line feeds (CR LF one line feed). `None`
/// for other references and for NUL.
fn unescape(text: &str, attribute: bool) -> Option<std::borrow::Cow<'_, str>> {
    let bytes = text.as_bytes();
    let Some(first) = bytes
        .iter()
        .position(|byte| matches!(byte, b'\r' | 0 | b'&'))
    else {
        return Some(std::borrow::Cow::Borrowed(text));
    };
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut at = first;
    while at < bytes.len() {
        match bytes[at] {
            0 => return None,
            b'\r' => {
                out.push_str(&text[copied..at]);
                out.push('\n');
                at += if bytes.get(at + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                copied = at;
            }
            b'&' => match bytes.get(at + 1) {
                Some(b'#') => {
                    let rest = &text[at + 1..];
                    let end = rest.bytes().take(34).position(|byte| byte == b';')?;
                    let character = reference(&rest[..end])?;
                    out.push_str(&text[copied..at]);
                    out.push(character);
                    at += end + 2;
                    copied = at;
                }
                Some(next) if next.is_ascii_alphanumeric() => {
                    let run = bytes[at + 1..]
                        .iter()
                        .take_while(|byte| byte.is_ascii_alphanumeric())
                        .count();
                    let name = &text[at + 1..at + 1 + run];
                    let after = bytes.get(at + 1 + run).copied();
                    if after == Some(b';') {
                        let character = reference(name)?;
                        out.push_str(&text[copied..at]);
                        out.push(character);
                        at += run + 2;
                        copied = at;
                        continue;
                    }
                    let literal = if attribute {
                        !LEGACY_NAMES.contains(&name) || after == Some(b'=')
                    } else {
                        !LEGACY_NAMES.iter().any(|legacy| name.starts_with(legacy))
                    };
                    if !literal {
                        return None;
                    }
                    at += 1 + run;
                }
                _ => at += 1,
            },
            _ => at += 1,
        }
    }
    out.push_str(&text[copied..]);
    Some(std::borrow::Cow::Owned(out))
}

/// The references HTML5 also resolves without a semicolon (legacy names).
const LEGACY_NAMES: [&str; 106] = [
    "AElig", "AMP", "Aacute", "Acirc", "Agrave", "Aring", "Atilde", "Auml", "COPY", "Ccedil",
    "ETH", "Eacute", "Ecirc", "Egrave", "Euml", "GT", "Iacute", "Icirc", "Igrave", "Iuml", "LT",
    "Ntilde", "Oacute", "Ocirc", "Ograve", "Oslash", "Otilde", "Ouml", "QUOT", "REG", "THORN",
    "Uacute", "Ucirc", "Ugrave", "Uuml", "Yacute", "aacute", "acirc", "acute", "aelig", "agrave",
    "amp", "aring", "atilde", "auml", "brvbar", "ccedil", "cedil", "cent", "copy", "curren", "deg",
    "divide", "eacute", "ecirc", "egrave", "eth", "euml", "frac12", "frac14", "frac34", "gt",
    "iacute", "icirc", "iexcl", "igrave", "iquest", "iuml", "laquo", "lt", "macr", "micro",
    "middot", "nbsp", "not", "ntilde", "oacute", "ocirc", "ograve", "ordf", "ordm", "oslash",
    "otilde", "ouml", "para", "plusmn", "pound", "quot", "raquo", "reg", "sect", "shy", "sup1",
    "sup2", "sup3", "szlig", "thorn", "times", "uacute", "ucirc", "ugrave", "uml", "uuml",
    "yacute", "yen", "yuml",
];

/// The character of a reference written `&name;` (without `&` and `;`), when the HTML
/// parser gives that same character.
fn reference(name: &str) -> Option<char> {
    let value = match name.strip_prefix('#') {
        Some(number) => {
            let value = match number.strip_prefix(['x', 'X']) {
                Some(hex) if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
                    u32::from_str_radix(hex, 16).ok()?
                }
                None if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) => {
                    number.parse::<u32>().ok()?
                }
                _ => return None,
            };
            let printable =
                matches!(value, 0x20..=0x7E | 0xA0..=0xD7FF | 0xE000..=0xFDCF | 0xFDF0..=0xFFFD);
            return printable.then(|| char::from_u32(value)).flatten();
        }
        None => name,
    };
    if !value.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    crate::entities::named(value)
}

/// Escapes as html5ever's serializer does: `&`, `<`, `>` and U+00A0 everywhere, `"` in
/// attribute values.
pub(crate) fn escape_into(out: &mut String, text: &str, attribute: bool) {
    let bytes = text.as_bytes();
    let mut copied = 0;
    let mut at = 0;
    while at < bytes.len() {
        let (replacement, width) = match bytes[at] {
            b'&' => ("&amp;", 1),
            b'<' => ("&lt;", 1),
            b'>' => ("&gt;", 1),
            b'"' if attribute => ("&quot;", 1),
            0xC2 if bytes.get(at + 1) == Some(&0xA0) => ("&nbsp;", 2),
            _ => {
                at += 1;
                continue;
            }
        };
        out.push_str(&text[copied..at]);
        out.push_str(replacement);
        at += width;
        copied = at;
    }
    out.push_str(&text[copied..]);
}

#[cfg(test)]
mod tests {
    use crate::text::sanitize_html_full;

    fn escaped(character: char) -> String {
        let mut out = String::new();
        super::escape_into(&mut out, &character.to_string(), false);
        out
    }

    #[test]
    fn every_named_reference_resolves_as_the_html_parser_resolves_it() {
        for (name, character) in crate::entities::NAMED {
            assert_eq!(super::reference(name), Some(*character));
            assert_eq!(
                sanitize_html_full(&format!("x&{name};y")),
                format!("x{}y", escaped(*character)),
                "&{name};"
            );
        }
    }

    #[test]
    fn legacy_names_are_the_ones_the_html_parser_reads_without_semicolon() {
        let uppercase = ["AMP", "COPY", "GT", "LT", "QUOT", "REG"];
        let names = crate::entities::NAMED
            .iter()
            .map(|(name, _)| *name)
            .chain(uppercase);
        for name in names {
            let decoded = sanitize_html_full(&format!("x&{name} y")) != format!("x&amp;{name} y");
            let legacy_prefix = super::LEGACY_NAMES
                .iter()
                .any(|legacy| name.starts_with(legacy));
            assert_eq!(legacy_prefix, decoded, "&{name}");
        }
    }

    #[test]
    fn numeric_references_resolve_as_the_html_parser_resolves_them() {
        let mut values: Vec<u32> = (0..0x300).collect();
        values.extend([
            0xD7FF, 0xD800, 0xDFFF, 0xE000, 0xFDCF, 0xFDD0, 0xFFFD, 0xFFFE, 0x1F600, 0x10FFFF,
            0x110000,
        ]);
        for value in values {
            for written in [format!("&#{value};"), format!("&#x{value:X};")] {
                let text = format!("x{written}y");
                if let Some(character) = super::reference(&written[1..written.len() - 1]) {
                    assert_eq!(
                        sanitize_html_full(&text),
                        format!("x{}y", escaped(character)),
                        "{written}"
                    );
                }
            }
        }
    }
}
