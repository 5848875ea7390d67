//! Small text helpers shared by the writers: escaping, slugs, ASCII folding and the
//! ISO-8859-1 encoder.

/// Escapes text for XML and HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    escape_into(&mut out, text);
    out
}

/// Appends `text` to `out`, escaped for XML/HTML.
pub fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
}

/// Replaces the Latin-1 accented letters the name tables use with plain ASCII.
pub fn ascii_fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let folded = match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => "a",
            'ç' => "c",
            'è' | 'é' | 'ê' | 'ë' => "e",
            'ì' | 'í' | 'î' | 'ï' => "i",
            'ñ' => "n",
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' => "o",
            'ù' | 'ú' | 'û' | 'ü' => "u",
            'ý' | 'ÿ' => "y",
            'ß' => "ss",
            'Á' | 'À' | 'Â' | 'Ä' => "A",
            'É' | 'È' => "E",
            'Ö' | 'Ø' => "O",
            'Ü' => "U",
            _ => {
                out.push(c);
                continue;
            }
        };
        out.push_str(folded);
    }
    out
}

/// A lowercase ASCII slug: letters and digits joined by single hyphens.
pub fn slugify(text: &str) -> String {
    let mut slug = String::with_capacity(text.len());
    let mut pending_hyphen = false;
    for c in ascii_fold(text).chars() {
        if c.is_ascii_alphanumeric() {
            if pending_hyphen && !slug.is_empty() {
                slug.push('-');
            }
            pending_hyphen = false;
            slug.push(c.to_ascii_lowercase());
        } else if c != '\'' {
            pending_hyphen = true;
        }
    }
    slug
}

/// ISO-8859-1 bytes of `text`; characters outside Latin-1 become `?`.
pub fn encode_latin1(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
        .collect()
}

/// The first letter upper-cased.
pub fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_characters() {
        assert_eq!(
            escape("O'Brien & <Co> \"x\""),
            "O&apos;Brien &amp; &lt;Co&gt; &quot;x&quot;"
        );
    }

    #[test]
    fn slugs_are_ascii_with_single_hyphens() {
        assert_eq!(
            slugify("Café & Crème — L'heure du Code!"),
            "cafe-creme-lheure-du-code"
        );
        assert_eq!(slugify("聊聊Code"), "code");
    }

    #[test]
    fn latin1_encoding_maps_accents_to_single_bytes() {
        assert_eq!(encode_latin1("é€"), vec![0xe9, b'?']);
    }

    #[test]
    fn capitalize_first_letter() {
        assert_eq!(capitalize("éclair time"), "Éclair time");
    }
}
