//! Bytes to text: byte-order marks, the XML declaration's encoding, the HTTP charset,
//! legacy single-byte encodings through `encoding_rs`, and junk before the document.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

/// How the bytes were decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    pub text: String,
    /// The encoding used, e.g. `UTF-8` or `windows-1252`.
    pub encoding: &'static str,
    /// Bytes dropped before the document started (server warnings, whitespace).
    pub skipped_bytes: usize,
}

/// Decodes a feed. Precedence: byte-order mark, then the encoding the XML declaration
/// names, then the HTTP `charset`, then UTF-8; bytes invalid in the chosen UTF-8 fall
/// back to windows-1252 (the usual truth behind a wrong label). ISO-8859-1 is read as
/// windows-1252, as browsers do.
pub fn decode_document(bytes: &[u8], http_charset: Option<&str>) -> Decoded {
    let (text, encoding, skipped_bytes) = decode_borrowed(bytes, http_charset);
    Decoded {
        text: text.into_owned(),
        encoding,
        skipped_bytes,
    }
}

/// [`decode_document`] without the copy: the text borrows from `bytes` when they are
/// already valid UTF-8 (or ASCII in a single-byte encoding). Returns the text, the
/// encoding's name and the bytes skipped before the document.
pub(crate) fn decode_borrowed<'a>(
    bytes: &'a [u8],
    http_charset: Option<&str>,
) -> (Cow<'a, str>, &'static str, usize) {
    let (encoding, bom_length) = match Encoding::for_bom(bytes) {
        Some((encoding, length)) => (encoding, length),
        None => (sniff_encoding(bytes, http_charset), 0),
    };
    let body = &bytes[bom_length..];
    let (text, encoding) = decode_with(body, encoding);
    let (start, skipped_chars) = document_start(&text);
    let skipped_bytes = if start == 0 {
        bom_length
    } else {
        bom_length + skipped_chars
    };
    let text = match text {
        text if start == 0 => text,
        Cow::Borrowed(text) => Cow::Borrowed(&text[start..]),
        Cow::Owned(text) => Cow::Owned(text[start..].to_owned()),
    };
    (text, encoding.name(), skipped_bytes)
}

fn decode_with<'a>(
    body: &'a [u8],
    encoding: &'static Encoding,
) -> (Cow<'a, str>, &'static Encoding) {
    if encoding == UTF_8 {
        return match std::str::from_utf8(body) {
            Ok(text) => (Cow::Borrowed(text), UTF_8),
            Err(error) if error.valid_up_to() + 4 > body.len() && error.error_len().is_none() => {
                // A multi-byte character cut off by truncation: keep the valid part.
                let valid = &body[..error.valid_up_to()];
                (String::from_utf8_lossy(valid), UTF_8)
            }
            Err(_) if mostly_utf8(body) => (String::from_utf8_lossy(body), UTF_8),
            Err(_) => (
                WINDOWS_1252.decode_without_bom_handling(body).0,
                WINDOWS_1252,
            ),
        };
    }
    let (text, _) = encoding.decode_without_bom_handling(body);
    (text, encoding)
}

/// True when invalid sequences are rare: a few broken characters in a UTF-8 feed are
/// replaced rather than reading the whole feed as windows-1252.
fn mostly_utf8(body: &[u8]) -> bool {
    let multibyte_leads = body.iter().filter(|&&b| (0xC2..=0xF4).contains(&b)).count();
    let invalid = count_invalid_utf8(body);
    invalid > 0 && invalid * 20 < multibyte_leads
}

fn count_invalid_utf8(mut body: &[u8]) -> usize {
    let mut invalid = 0;
    while let Err(error) = std::str::from_utf8(body) {
        invalid += 1;
        let skip = error.valid_up_to() + error.error_len().unwrap_or(1);
        body = &body[skip.min(body.len())..];
    }
    invalid
}

fn sniff_encoding(bytes: &[u8], http_charset: Option<&str>) -> &'static Encoding {
    match bytes {
        [0x3C, 0x00, 0x3F, 0x00, ..] | [0x3C, 0x00, 0x00, 0x00, ..] => return UTF_16LE,
        [0x00, 0x3C, 0x00, 0x3F, ..] => return UTF_16BE,
        _ => {}
    }
    let declared = declared_encoding(bytes).and_then(|label| Encoding::for_label(label.as_bytes()));
    let from_http = http_charset.and_then(|label| Encoding::for_label(label.trim().as_bytes()));
    match declared.or(from_http) {
        // A declaration of UTF-16 in a document that is evidently 8-bit is wrong.
        Some(encoding) if encoding == UTF_16LE || encoding == UTF_16BE => UTF_8,
        Some(encoding) => encoding,
        None => UTF_8,
    }
}

/// The `encoding="…"` of the XML declaration, looked for in the first kilobyte.
pub fn declared_encoding(bytes: &[u8]) -> Option<String> {
    let head = &bytes[..bytes.len().min(1024)];
    let start = find(head, b"<?xml")?;
    let declaration = &head[start..];
    let end = find(declaration, b"?>").unwrap_or(declaration.len());
    let declaration = &declaration[..end];
    let at = find(declaration, b"encoding")?;
    let rest = &declaration[at + b"encoding".len()..];
    let rest = rest
        .iter()
        .position(|&b| b == b'"' || b == b'\'')
        .map(|i| &rest[i..])?;
    let quote = rest[0];
    let value = &rest[1..];
    let close = value.iter().position(|&b| b == quote)?;
    let label = std::str::from_utf8(&value[..close]).ok()?.trim();
    (!label.is_empty()).then(|| label.to_owned())
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// Where the XML starts: at `<?xml` when it appears early, else at the first `<`
/// that opens markup. Returns the byte offset and the number of characters skipped.
fn document_start(text: &str) -> (usize, usize) {
    let head_end = text
        .char_indices()
        .nth(64 * 1024)
        .map_or(text.len(), |(i, _)| i);
    let head = &text[..head_end];
    let start = match head.find("<?xml") {
        Some(position) => position,
        None => head
            .match_indices('<')
            .map(|(position, _)| position)
            .find(|&position| {
                head[position + 1..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '!' || c == '?')
            })
            .unwrap_or(0),
    };
    let skipped = text[..start].chars().count();
    (start, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_order_marks_win() {
        let mut bytes = vec![0xEF, 0xBB, 0xBF];
        bytes.extend_from_slice(
            "<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><rss>é</rss>".as_bytes(),
        );
        let decoded = decode_document(&bytes, None);
        assert_eq!(decoded.encoding, "UTF-8");
        assert!(decoded.text.starts_with("<?xml") && decoded.text.contains('é'));

        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("<rss>ü</rss>".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        assert_eq!(decode_document(&utf16, None).text, "<rss>ü</rss>");
    }

    #[test]
    fn declared_latin1_is_decoded() {
        let bytes = b"<?xml version='1.0' encoding='ISO-8859-1'?><rss>caf\xe9 \x93q\x94</rss>";
        let decoded = decode_document(bytes, Some("utf-8"));
        assert_eq!(decoded.encoding, "windows-1252");
        assert!(decoded.text.contains("café “q”"), "{}", decoded.text);
    }

    #[test]
    fn http_charset_applies_without_declaration() {
        let decoded = decode_document(b"<rss>\xe9t\xe9</rss>", Some("ISO-8859-1"));
        assert_eq!(decoded.text, "<rss>été</rss>");
    }

    #[test]
    fn mislabelled_utf8_falls_back_to_windows_1252() {
        let decoded = decode_document(
            b"<?xml version=\"1.0\" encoding=\"utf-8\"?><rss>Caf\xe9</rss>",
            None,
        );
        assert!(decoded.text.contains("Café"), "{}", decoded.text);
    }

    #[test]
    fn junk_before_the_document_is_skipped() {
        let decoded = decode_document(
            b"<br />\n<b>Warning</b>: x\n  <?xml version=\"1.0\"?><rss/>",
            None,
        );
        assert!(decoded.text.starts_with("<?xml"));
        assert!(decoded.skipped_bytes > 10);
        let decoded = decode_document(b"\n\n  <rss/>", None);
        assert_eq!(decoded.text, "<rss/>");
    }

    #[test]
    fn truncated_multibyte_character_is_dropped() {
        let decoded = decode_document(b"<rss>caf\xc3", None);
        assert_eq!(decoded.text, "<rss>caf");
    }
}
