//! What to ingest: feed files, folders of them, OPML subscription lists, and URLs.

use std::path::{Path, PathBuf};

use quick_xml::Reader;
use quick_xml::events::Event;

use crate::error::IngestError;

/// One feed to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FeedSource {
    /// A feed file on disk.
    File(PathBuf),
    /// A feed URL, with the validators of its previous fetch when known.
    Url(FeedState),
}

/// A feed known to the catalog: its URL and the validators of its last fetch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FeedState {
    pub podcast_id: Option<uuid::Uuid>,
    pub feed_url: String,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// The hash of the bytes it last answered with ([`content_hash`]): the same bytes
    /// again are "not modified", whatever the server says about caching.
    pub content_hash: Option<String>,
}

/// The SHA-256 of a feed's bytes, in hex: how a feed whose server ignores conditional
/// GET (no validators, or validators that change on every request) is known unchanged
/// without parsing it, as Podcast Index does.
pub fn content_hash(bytes: &[u8]) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for byte in digest {
        hex.push(char::from(b"0123456789abcdef"[usize::from(byte >> 4)]));
        hex.push(char::from(b"0123456789abcdef"[usize::from(byte & 15)]));
    }
    hex
}

impl FeedState {
    pub fn new(feed_url: impl Into<String>) -> FeedState {
        FeedState {
            feed_url: feed_url.into(),
            ..FeedState::default()
        }
    }
}

impl FeedSource {
    /// A human-readable name: the path or the URL.
    pub fn label(&self) -> String {
        match self {
            FeedSource::File(path) => path.display().to_string(),
            FeedSource::Url(state) => state.feed_url.clone(),
        }
    }
}

fn is_url(argument: &str) -> bool {
    let lowered = argument.trim().to_ascii_lowercase();
    ["http://", "https://", "feed://", "itpc://"]
        .iter()
        .any(|scheme| lowered.starts_with(scheme))
}

/// Expands command-line arguments: URLs stay URLs, folders become the feed files
/// inside them (recursively, sorted), OPML files become their outlines' `xmlUrl`s,
/// other files are feed files.
pub fn expand_sources(arguments: &[String]) -> Result<Vec<FeedSource>, IngestError> {
    let mut sources = Vec::new();
    for argument in arguments {
        if is_url(argument) {
            sources.push(FeedSource::Url(FeedState::new(argument.trim())));
            continue;
        }
        let path = Path::new(argument);
        let metadata = std::fs::metadata(path).map_err(|source| IngestError::Io {
            path: path.to_owned(),
            source,
        })?;
        if metadata.is_dir() {
            let mut files = Vec::new();
            collect_files(path, &mut files)?;
            files.sort();
            for file in files {
                push_file(file, &mut sources)?;
            }
        } else {
            push_file(path.to_owned(), &mut sources)?;
        }
    }
    Ok(sources)
}

fn push_file(path: PathBuf, sources: &mut Vec<FeedSource>) -> Result<(), IngestError> {
    if is_opml_file(&path) {
        let bytes = std::fs::read(&path).map_err(|source| IngestError::Io {
            path: path.clone(),
            source,
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        for url in parse_opml(&bytes)? {
            if is_url(&url) {
                sources.push(FeedSource::Url(FeedState::new(url)));
            } else {
                sources.push(FeedSource::File(base.join(url)));
            }
        }
    } else {
        sources.push(FeedSource::File(path));
    }
    Ok(())
}

fn is_opml_file(path: &Path) -> bool {
    path.extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("opml"))
}

fn collect_files(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), IngestError> {
    let entries = std::fs::read_dir(dir).map_err(|source| IngestError::Io {
        path: dir.to_owned(),
        source,
    })?;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            collect_files(&path, files)?;
        } else if is_feed_file_name(&path) {
            files.push(path);
        }
    }
    Ok(())
}

fn is_feed_file_name(path: &Path) -> bool {
    let extension = path
        .extension()
        .map(|extension| extension.to_string_lossy().to_ascii_lowercase());
    matches!(
        extension.as_deref(),
        Some("xml" | "rss" | "atom" | "rdf" | "opml")
    )
}

/// The `xmlUrl` of every `<outline>` of an OPML document.
pub fn parse_opml(bytes: &[u8]) -> Result<Vec<String>, IngestError> {
    let decoded = crate::decode::decode_document(bytes, None);
    let mut reader = Reader::from_str(&decoded.text);
    reader.config_mut().check_end_names = false;
    let mut urls = Vec::new();
    let mut saw_opml = false;
    loop {
        match reader.read_event() {
            Ok(Event::Start(element) | Event::Empty(element)) => {
                let name = element.local_name();
                let name = name.as_ref();
                if name.eq_ignore_ascii_case(b"opml") {
                    saw_opml = true;
                }
                if !name.eq_ignore_ascii_case(b"outline") {
                    continue;
                }
                for attribute in element.attributes().with_checks(false).flatten() {
                    if attribute.key.as_ref().eq_ignore_ascii_case(b"xmlurl") {
                        let value = String::from_utf8_lossy(&attribute.value);
                        let value = crate::entities::unescape(value.trim()).into_owned();
                        if !value.is_empty() {
                            urls.push(value);
                        }
                    }
                }
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(error) => return Err(IngestError::Opml(error.to_string().to_lowercase())),
        }
    }
    if !saw_opml {
        return Err(IngestError::Opml("no <opml> element".to_owned()));
    }
    Ok(urls)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opml_outlines() {
        let opml = br#"<?xml version="1.0"?><opml version="2.0"><body>
            <outline text="A" type="rss" xmlUrl="https://a.example/feed?x=1&amp;y=2"/>
            <outline text="group"><outline text="B" xmlURL="feeds/b.xml"></outline></outline>
            </body></opml>"#;
        assert_eq!(
            parse_opml(opml).unwrap(),
            ["https://a.example/feed?x=1&y=2", "feeds/b.xml"]
        );
        assert!(parse_opml(b"<rss/>").is_err());
    }

    #[test]
    fn folders_expand_to_sorted_feed_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b.xml"), "<rss/>").unwrap();
        std::fs::write(dir.path().join("a.rss"), "<rss/>").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "x").unwrap();
        std::fs::write(
            dir.path().join("list.opml"),
            r#"<opml><body><outline xmlUrl="http://x.example/f"/></body></opml>"#,
        )
        .unwrap();
        let sources = expand_sources(&[
            dir.path().display().to_string(),
            "https://c.example/feed".into(),
        ])
        .unwrap();
        let labels: Vec<String> = sources.iter().map(FeedSource::label).collect();
        assert_eq!(labels.len(), 4, "{labels:?}");
        assert!(labels[0].ends_with("a.rss") && labels[1].ends_with("b.xml"));
        assert_eq!(labels[2], "http://x.example/f");
        assert_eq!(labels[3], "https://c.example/feed");
        assert!(expand_sources(&["/no/such/path".into()]).is_err());
    }
}
