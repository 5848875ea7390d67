//! Character references: the XML five, numeric references and the HTML 4 named
//! entities (Latin-1, symbols, Greek, typographic punctuation) that feeds use without
//! declaring them. Unknown names are kept as written.

/// Resolves the name of a reference (`amp`, `#233`, `#xE9`, `eacute`) to its text.
pub fn resolve(name: &str) -> Option<char> {
    if let Some(number) = name.strip_prefix('#') {
        let value = match number.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => number.parse::<u32>().ok()?,
        };
        return match value {
            // Windows-1252 code points written as numeric references (`&#146;`).
            0x80..=0x9F => windows_1252_c1(value),
            0 => None,
            _ => char::from_u32(value),
        };
    }
    named(name)
}

fn windows_1252_c1(value: u32) -> Option<char> {
    let byte = [u8::try_from(value).ok()?];
    let (text, _, _) = encoding_rs::WINDOWS_1252.decode(&byte);
    text.chars().next()
}

/// The character of an HTML 4 named reference (`eacute` → `é`).
pub(crate) fn named(name: &str) -> Option<char> {
    NAMED
        .binary_search_by(|(candidate, _)| candidate.cmp(&name))
        .ok()
        .map(|index| NAMED[index].1)
}

/// Replaces every `&name;` reference in `text` that `resolve` knows; a bare `&` and
/// unknown names stay as they are.
pub fn unescape(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('&') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let end = after
            .char_indices()
            .take(33)
            .find(|(_, c)| *c == ';' || *c == '&' || c.is_whitespace() || *c == '<')
            .filter(|(_, c)| *c == ';')
            .map(|(index, _)| index);
        match end.and_then(|end| resolve(&after[..end]).map(|c| (end, c))) {
            Some((end, character)) => {
                out.push(character);
                rest = &after[end + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// Sorted by name (byte order) for binary search.
pub(crate) const NAMED: &[(&str, char)] = &[
    ("AElig", 'Æ'),
    ("Aacute", 'Á'),
    ("Acirc", 'Â'),
    ("Agrave", 'À'),
    ("Alpha", 'Α'),
    ("Aring", 'Å'),
    ("Atilde", 'Ã'),
    ("Auml", 'Ä'),
    ("Beta", 'Β'),
    ("Ccedil", 'Ç'),
    ("Chi", 'Χ'),
    ("Dagger", '‡'),
    ("Delta", 'Δ'),
    ("ETH", 'Ð'),
    ("Eacute", 'É'),
    ("Ecirc", 'Ê'),
    ("Egrave", 'È'),
    ("Epsilon", 'Ε'),
    ("Eta", 'Η'),
    ("Euml", 'Ë'),
    ("Gamma", 'Γ'),
    ("Iacute", 'Í'),
    ("Icirc", 'Î'),
    ("Igrave", 'Ì'),
    ("Iota", 'Ι'),
    ("Iuml", 'Ï'),
    ("Kappa", 'Κ'),
    ("Lambda", 'Λ'),
    ("Mu", 'Μ'),
    ("Ntilde", 'Ñ'),
    ("Nu", 'Ν'),
    ("OElig", 'Œ'),
    ("Oacute", 'Ó'),
    ("Ocirc", 'Ô'),
    ("Ograve", 'Ò'),
    ("Omega", 'Ω'),
    ("Omicron", 'Ο'),
    ("Oslash", 'Ø'),
    ("Otilde", 'Õ'),
    ("Ouml", 'Ö'),
    ("Phi", 'Φ'),
    ("Pi", 'Π'),
    ("Prime", '″'),
    ("Psi", 'Ψ'),
    ("Rho", 'Ρ'),
    ("Scaron", 'Š'),
    ("Sigma", 'Σ'),
    ("THORN", 'Þ'),
    ("Tau", 'Τ'),
    ("Theta", 'Θ'),
    ("Uacute", 'Ú'),
    ("Ucirc", 'Û'),
    ("Ugrave", 'Ù'),
    ("Upsilon", 'Υ'),
    ("Uuml", 'Ü'),
    ("Xi", 'Ξ'),
    ("Yacute", 'Ý'),
    ("Yuml", 'Ÿ'),
    ("Zeta", 'Ζ'),
    ("aacute", 'á'),
    ("acirc", 'â'),
    ("acute", '´'),
    ("aelig", 'æ'),
    ("agrave", 'à'),
    ("alefsym", 'ℵ'),
    ("alpha", 'α'),
    ("amp", '&'),
    ("and", '∧'),
    ("ang", '∠'),
    ("apos", '\''),
    ("aring", 'å'),
    ("asymp", '≈'),
    ("atilde", 'ã'),
    ("auml", 'ä'),
    ("bdquo", '„'),
    ("beta", 'β'),
    ("brvbar", '¦'),
    ("bull", '•'),
    ("cap", '∩'),
    ("ccedil", 'ç'),
    ("cedil", '¸'),
    ("cent", '¢'),
    ("chi", 'χ'),
    ("circ", 'ˆ'),
    ("clubs", '♣'),
    ("cong", '≅'),
    ("copy", '©'),
    ("crarr", '↵'),
    ("cup", '∪'),
    ("curren", '¤'),
    ("dArr", '⇓'),
    ("dagger", '†'),
    ("darr", '↓'),
    ("deg", '°'),
    ("delta", 'δ'),
    ("diams", '♦'),
    ("divide", '÷'),
    ("eacute", 'é'),
    ("ecirc", 'ê'),
    ("egrave", 'è'),
    ("empty", '∅'),
    ("emsp", '\u{2003}'),
    ("ensp", '\u{2002}'),
    ("epsilon", 'ε'),
    ("equiv", '≡'),
    ("eta", 'η'),
    ("eth", 'ð'),
    ("euml", 'ë'),
    ("euro", '€'),
    ("exist", '∃'),
    ("fnof", 'ƒ'),
    ("forall", '∀'),
    ("frac12", '½'),
    ("frac14", '¼'),
    ("frac34", '¾'),
    ("frasl", '⁄'),
    ("gamma", 'γ'),
    ("ge", '≥'),
    ("gt", '>'),
    ("hArr", '⇔'),
    ("harr", '↔'),
    ("hearts", '♥'),
    ("hellip", '…'),
    ("iacute", 'í'),
    ("icirc", 'î'),
    ("iexcl", '¡'),
    ("igrave", 'ì'),
    ("image", 'ℑ'),
    ("infin", '∞'),
    ("int", '∫'),
    ("iota", 'ι'),
    ("iquest", '¿'),
    ("isin", '∈'),
    ("iuml", 'ï'),
    ("kappa", 'κ'),
    ("lArr", '⇐'),
    ("lambda", 'λ'),
    ("lang", '⟨'),
    ("laquo", '«'),
    ("larr", '←'),
    ("lceil", '⌈'),
    ("ldquo", '“'),
    ("le", '≤'),
    ("lfloor", '⌊'),
    ("lowast", '∗'),
    ("loz", '◊'),
    ("lrm", '\u{200E}'),
    ("lsaquo", '‹'),
    ("lsquo", '‘'),
    ("lt", '<'),
    ("macr", '¯'),
    ("mdash", '—'),
    ("micro", 'µ'),
    ("middot", '·'),
    ("minus", '−'),
    ("mu", 'μ'),
    ("nabla", '∇'),
    ("nbsp", '\u{A0}'),
    ("ndash", '–'),
    ("ne", '≠'),
    ("ni", '∋'),
    ("not", '¬'),
    ("notin", '∉'),
    ("nsub", '⊄'),
    ("ntilde", 'ñ'),
    ("nu", 'ν'),
    ("oacute", 'ó'),
    ("ocirc", 'ô'),
    ("oelig", 'œ'),
    ("ograve", 'ò'),
    ("oline", '‾'),
    ("omega", 'ω'),
    ("omicron", 'ο'),
    ("oplus", '⊕'),
    ("or", '∨'),
    ("ordf", 'ª'),
    ("ordm", 'º'),
    ("oslash", 'ø'),
    ("otilde", 'õ'),
    ("otimes", '⊗'),
    ("ouml", 'ö'),
    ("para", '¶'),
    ("part", '∂'),
    ("permil", '‰'),
    ("perp", '⊥'),
    ("phi", 'φ'),
    ("pi", 'π'),
    ("piv", 'ϖ'),
    ("plusmn", '±'),
    ("pound", '£'),
    ("prime", '′'),
    ("prod", '∏'),
    ("prop", '∝'),
    ("psi", 'ψ'),
    ("quot", '"'),
    ("rArr", '⇒'),
    ("radic", '√'),
    ("rang", '⟩'),
    ("raquo", '»'),
    ("rarr", '→'),
    ("rceil", '⌉'),
    ("rdquo", '”'),
    ("real", 'ℜ'),
    ("reg", '®'),
    ("rfloor", '⌋'),
    ("rho", 'ρ'),
    ("rlm", '\u{200F}'),
    ("rsaquo", '›'),
    ("rsquo", '’'),
    ("sbquo", '‚'),
    ("scaron", 'š'),
    ("sdot", '⋅'),
    ("sect", '§'),
    ("shy", '\u{AD}'),
    ("sigma", 'σ'),
    ("sigmaf", 'ς'),
    ("sim", '∼'),
    ("spades", '♠'),
    ("sub", '⊂'),
    ("sube", '⊆'),
    ("sum", '∑'),
    ("sup", '⊃'),
    ("sup1", '¹'),
    ("sup2", '²'),
    ("sup3", '³'),
    ("supe", '⊇'),
    ("szlig", 'ß'),
    ("tau", 'τ'),
    ("there4", '∴'),
    ("theta", 'θ'),
    ("thetasym", 'ϑ'),
    ("thinsp", '\u{2009}'),
    ("thorn", 'þ'),
    ("tilde", '˜'),
    ("times", '×'),
    ("trade", '™'),
    ("uArr", '⇑'),
    ("uacute", 'ú'),
    ("uarr", '↑'),
    ("ucirc", 'û'),
    ("ugrave", 'ù'),
    ("uml", '¨'),
    ("upsih", 'ϒ'),
    ("upsilon", 'υ'),
    ("uuml", 'ü'),
    ("weierp", '℘'),
    ("xi", 'ξ'),
    ("yacute", 'ý'),
    ("yen", '¥'),
    ("yuml", 'ÿ'),
    ("zeta", 'ζ'),
    ("zwj", '\u{200D}'),
    ("zwnj", '\u{200C}'),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_for_binary_search() {
        assert!(NAMED.windows(2).all(|pair| pair[0].0 < pair[1].0));
        assert!(NAMED.len() >= 250, "{}", NAMED.len());
    }

    #[test]
    fn references_resolve() {
        assert_eq!(unescape("caf&eacute; &amp; &nbsp;x"), "café & \u{a0}x");
        assert_eq!(unescape("&#233;&#xE9;&#146;"), "éé’");
        assert_eq!(
            unescape("Q&A &unknown; a & b &#0;"),
            "Q&A &unknown; a & b &#0;"
        );
        assert_eq!(unescape("&amp"), "&amp");
    }
}
