//! Element names in one canonical form: `prefix:local`, lowercase, where the prefix
//! is the conventional one for the namespace the document binds (so
//! `xmlns:itunes="http://www.itunes.com/DTDs/Podcast-1.0.dtd"`, a wrongly-cased URI, and
//! `xmlns:ns0="http://www.itunes.com/dtds/podcast-1.0.dtd"` both give `itunes:`), and a
//! conventional prefix bound to an unknown URI keeps its conventional meaning.

/// Conventional prefixes the parser understands.
const CONVENTIONAL: [&str; 12] = [
    "itunes",
    "podcast",
    "atom",
    "content",
    "media",
    "dc",
    "googleplay",
    "rdf",
    "psc",
    "georss",
    "spotify",
    "sy",
];

/// The conventional prefix of a namespace URI, compared without scheme, case, or a
/// trailing `/` or `#`.
pub fn prefix_for_uri(uri: &str) -> Option<&'static str> {
    let lowered = uri.trim().to_ascii_lowercase();
    let bare = lowered
        .trim_start_matches("https://")
        .trim_start_matches("http://")
        .trim_end_matches(['/', '#']);
    let known = match bare {
        "www.itunes.com/dtds/podcast-1.0.dtd" | "itunes.com/dtds/podcast-1.0.dtd" => "itunes",
        "www.w3.org/2005/atom" => "atom",
        "purl.org/rss/1.0/modules/content" => "content",
        "search.yahoo.com/mrss" => "media",
        "purl.org/dc/elements/1.1" => "dc",
        "www.google.com/schemas/play-podcasts/1.0" => "googleplay",
        "www.w3.org/1999/02/22-rdf-syntax-ns" => "rdf",
        "podlove.org/simple-chapters" => "psc",
        "www.georss.org/georss" => "georss",
        "www.spotify.com/ns/rss" => "spotify",
        "purl.org/rss/1.0/modules/syndication" => "sy",
        _ if bare.contains("podcastindex.org/namespace") || bare.contains("podcast-namespace") => {
            "podcast"
        }
        _ => return None,
    };
    Some(known)
}

/// Prefix bindings seen in a document (feeds declare them on the root; a later
/// redeclaration replaces an earlier one).
#[derive(Debug, Default)]
pub struct Bindings {
    prefixes: Vec<(String, String)>,
}

impl Bindings {
    /// Records `xmlns:prefix="uri"`.
    pub fn bind(&mut self, prefix: &str, uri: &str) {
        let canonical = match prefix_for_uri(uri) {
            Some(known) => known.to_owned(),
            None => prefix.to_ascii_lowercase(),
        };
        let prefix = prefix.to_owned();
        match self.prefixes.iter_mut().find(|(bound, _)| *bound == prefix) {
            Some(entry) => entry.1 = canonical,
            None => self.prefixes.push((prefix, canonical)),
        }
    }

    /// The canonical name of a raw qualified name (`itunes:Image` → `itunes:image`).
    pub fn canonical(&self, qname: &str) -> String {
        let mut name = String::with_capacity(qname.len() + 4);
        self.canonical_into(qname, &mut name);
        name
    }

    /// [`Bindings::canonical`] written into `name` (cleared first), so that a caller
    /// can reuse one buffer.
    pub fn canonical_into(&self, qname: &str, name: &mut String) {
        name.clear();
        let Some((prefix, local)) = qname.split_once(':') else {
            name.push_str(qname);
            name.make_ascii_lowercase();
            return;
        };
        let canonical_prefix = self
            .prefixes
            .iter()
            .find(|(bound, _)| bound == prefix)
            .map(|(_, canonical)| canonical.as_str());
        match canonical_prefix {
            Some(canonical) => name.push_str(canonical),
            None => {
                let conventional = CONVENTIONAL
                    .iter()
                    .find(|known| known.eq_ignore_ascii_case(prefix));
                match conventional {
                    Some(known) => name.push_str(known),
                    None => {
                        name.push_str(prefix);
                        name.make_ascii_lowercase();
                    }
                }
            }
        }
        name.push(':');
        let start = name.len();
        name.push_str(local);
        name[start..].make_ascii_lowercase();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrongly_cased_and_renamed_namespaces_resolve() {
        let mut bindings = Bindings::default();
        bindings.bind("itunes", "http://www.itunes.com/DTDs/Podcast-1.0.dtd");
        bindings.bind("ns0", "https://podcastindex.org/namespace/1.0");
        bindings.bind("a", "http://www.w3.org/2005/Atom");
        assert_eq!(bindings.canonical("itunes:Image"), "itunes:image");
        assert_eq!(bindings.canonical("ns0:transcript"), "podcast:transcript");
        assert_eq!(bindings.canonical("a:link"), "atom:link");
        assert_eq!(bindings.canonical("pubDate"), "pubdate");
        assert_eq!(bindings.canonical("podcast:guid"), "podcast:guid");
        bindings.bind("itunes", "http://example.com/not-itunes");
        assert_eq!(bindings.canonical("itunes:author"), "itunes:author");
        assert_eq!(bindings.canonical("Foo:Bar"), "foo:bar");
    }
}
