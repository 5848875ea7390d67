//! The event-driven feed parser (quick-xml): RSS 2.0, Atom and RDF with the iTunes,
//! Podcasting 2.0, Media RSS, Dublin Core and content namespaces. It steps over syntax
//! errors where it can, resolves undeclared HTML entities, and on a truncated
//! document keeps every item that was complete.

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use crate::decode::decode_borrowed;
use crate::entities;
use crate::error::IngestError;
use crate::feed::{FeedFormat, Item, ParsedFeed};
use crate::handlers::{self, Frame};
use crate::namespaces::Bindings;

/// Syntax errors stepped over before a document is given up as truncated.
const MAX_RECOVERED_ERRORS: usize = 200;

/// Parses feed bytes; `http_charset` is the `charset` of the HTTP `Content-Type`.
pub fn parse_feed(bytes: &[u8], http_charset: Option<&str>) -> Result<ParsedFeed, IngestError> {
    let (decoded, encoding, _) = decode_borrowed(bytes, http_charset);
    let text = decoded.trim_start();
    if !text.starts_with('<') {
        return Err(IngestError::NotXml(describe_start(text)));
    }
    let mut feed = parse_text(text)?;
    feed.encoding = encoding;
    Ok(feed)
}

fn describe_start(text: &str) -> String {
    if text.is_empty() {
        return "the document is empty".to_owned();
    }
    let head: String = text.chars().take(40).collect();
    format!("the document does not start with markup: {head:?}")
}

/// Text of a slice of the document; the reader works on `&str`, so slices are UTF-8
/// and the lossy conversion is a fallback that is not expected to run.
fn utf8(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// The text of `bytes` when they are a part of `document` (the reader's events
/// borrow from it): found by their offset, so not validated as UTF-8 a second time.
/// Anything else is converted as [`utf8`] converts it.
fn slice_of<'a>(document: &'a str, bytes: &'a [u8]) -> std::borrow::Cow<'a, str> {
    let offset = (bytes.as_ptr() as usize).wrapping_sub(document.as_ptr() as usize);
    match offset
        .checked_add(bytes.len())
        .and_then(|end| document.get(offset..end))
    {
        Some(part) if part.as_ptr() == bytes.as_ptr() => std::borrow::Cow::Borrowed(part),
        _ => utf8(bytes),
    }
}

/// The elements whose attributes the handlers read.
fn wants_attributes(name: &str) -> bool {
    name.contains(':')
        || matches!(
            name,
            "enclosure" | "link" | "guid" | "category" | "content" | "source" | "feed" | "rss"
        )
}

/// Elements whose children are markup written without escaping (HTML in a
/// description): the children's text is kept as the parent's text.
fn collects_child_text(name: &str) -> bool {
    matches!(
        name,
        "description"
            | "content:encoded"
            | "content"
            | "summary"
            | "itunes:summary"
            | "subtitle"
            | "title"
    )
}

struct ParserState {
    feed: ParsedFeed,
    bindings: Bindings,
    stack: Vec<Frame>,
    /// Depth (stack length) at which the current item opened.
    item_depth: Option<usize>,
    item: Option<Item>,
    root: Option<String>,
    /// An `rss`, `channel`, `feed` or `rdf:RDF` element was seen (possibly wrapped).
    saw_feed_element: bool,
}

fn parse_text(text: &str) -> Result<ParsedFeed, IngestError> {
    let mut reader = Reader::from_str(text);
    let config = reader.config_mut();
    config.check_end_names = false;
    config.allow_unmatched_ends = true;
    config.allow_dangling_amp = true;
    config.expand_empty_elements = true;
    config.check_comments = false;
    let mut state = ParserState {
        feed: ParsedFeed::default(),
        bindings: Bindings::default(),
        stack: Vec::with_capacity(16),
        item_depth: None,
        item: None,
        root: None,
        saw_feed_element: false,
    };
    let mut last_error_position = None;
    let mut end_name = String::new();
    loop {
        let position_before = reader.buffer_position();
        match reader.read_event() {
            Ok(Event::Start(start)) => state.start(&start),
            Ok(Event::End(end)) => {
                let raw = utf8(end.name().into_inner());
                state.bindings.canonical_into(raw.trim(), &mut end_name);
                state.end(&end_name);
            }
            Ok(Event::Text(content)) => {
                let raw = slice_of(text, content.as_ref());
                state.push_text(&entities::unescape(&raw));
            }
            Ok(Event::CData(data)) => {
                let raw = slice_of(text, data.as_ref());
                state.push_text(&raw);
            }
            Ok(Event::GeneralRef(reference)) => {
                let name = utf8(reference.as_ref());
                match entities::resolve(&name) {
                    Some(character) => state.push_char(character),
                    None => state.push_text(&format!("&{name};")),
                }
            }
            Ok(Event::Eof) => break,
            Ok(Event::Empty(_) | Event::Comment(_) | Event::Decl(_) | Event::PI(_)) => {}
            Ok(Event::DocType(_)) => {}
            Err(error) => {
                let position = reader.buffer_position();
                state
                    .feed
                    .recovered_errors
                    .push(format!("at byte {position_before}: {error}"));
                let stuck = last_error_position == Some(position) || position <= position_before;
                if stuck
                    || position as usize >= text.len()
                    || state.feed.recovered_errors.len() >= MAX_RECOVERED_ERRORS
                {
                    state.feed.truncated = true;
                    break;
                }
                last_error_position = Some(position);
            }
        }
    }
    state.finish()
}

impl ParserState {
    fn start(&mut self, start: &BytesStart<'_>) {
        let raw_name = utf8(start.name().into_inner());
        // Namespace declarations first: they decide the element's canonical name.
        for attribute in start.attributes().with_checks(false).flatten() {
            if let Some(prefix) = attribute.key.as_ref().strip_prefix(b"xmlns:") {
                let value = entities::unescape(&utf8(&attribute.value)).into_owned();
                self.bindings.bind(&utf8(prefix), &value);
            }
        }
        let name = self.bindings.canonical(&raw_name);
        let mut attributes = Vec::new();
        if wants_attributes(&name) {
            for attribute in start.attributes().with_checks(false).flatten() {
                let key = attribute.key.as_ref();
                if key == b"xmlns" || key.starts_with(b"xmlns:") {
                    continue;
                }
                let mut key = utf8(key).into_owned();
                key.make_ascii_lowercase();
                let value = entities::unescape(&utf8(&attribute.value)).into_owned();
                attributes.push((key, value));
            }
        }
        if self.root.is_none() {
            self.feed.format = match name.as_str() {
                "feed" => FeedFormat::Atom,
                "rdf:rdf" => FeedFormat::Rdf,
                _ => FeedFormat::Rss,
            };
            self.root = Some(name.clone());
        }
        if name.contains(':') {
            if let Some(item) = self.item.as_mut()
                && !item.tags.contains(&name)
            {
                item.tags.insert(name.clone());
            }
            if !self.feed.channel.tags.contains(&name) {
                self.feed.channel.tags.insert(name.clone());
            }
        }
        if matches!(name.as_str(), "rss" | "channel" | "feed" | "rdf:rdf") {
            self.saw_feed_element = true;
        }
        if (name == "item" || name == "entry") && self.item.is_none() {
            self.item = Some(Item::default());
            self.item_depth = Some(self.stack.len() + 1);
        }
        let frame = Frame {
            name,
            text: String::new(),
            attributes,
        };
        let depth = self.stack.len() + 1;
        match self.item.as_mut() {
            Some(item) if self.item_depth.is_some_and(|item_depth| depth > item_depth) => {
                handlers::item_start(item, &frame);
            }
            _ => {
                let parent = self.stack.last().map_or("", |parent| parent.name.as_str());
                handlers::channel_start(&mut self.feed.channel, &frame, parent);
            }
        }
        self.stack.push(frame);
    }

    fn push_text(&mut self, text: &str) {
        if let Some(frame) = self.stack.last_mut() {
            frame.text.push_str(text);
        }
    }

    fn push_char(&mut self, character: char) {
        if let Some(frame) = self.stack.last_mut() {
            frame.text.push(character);
        }
    }

    /// Closes the innermost open element called `name`, and any left open inside it
    /// (unclosed HTML in a description). A stray end tag is ignored.
    fn end(&mut self, name: &str) {
        let Some(index) = self.stack.iter().rposition(|frame| frame.name == name) else {
            return;
        };
        while self.stack.len() > index {
            let Some(frame) = self.stack.pop() else {
                return;
            };
            self.close(frame);
        }
    }

    fn close(&mut self, frame: Frame) {
        let depth = self.stack.len() + 1;
        if self.item_depth == Some(depth) {
            self.item_depth = None;
            if let Some(item) = self.item.take() {
                self.feed.items.push(item);
            }
            return;
        }
        let parent = self.stack.last().map_or("", |parent| parent.name.as_str());
        if collects_child_text(parent) && !collects_child_text(&frame.name) || parent == "div" {
            let text = frame.text;
            if let Some(parent_frame) = self.stack.last_mut() {
                parent_frame.text.push_str(&text);
                parent_frame.text.push(' ');
            }
            return;
        }
        let grandparent = self
            .stack
            .len()
            .checked_sub(2)
            .and_then(|index| self.stack.get(index))
            .map_or("", |frame| frame.name.as_str());
        match self.item.as_mut() {
            Some(item) if self.item_depth.is_some_and(|item_depth| depth > item_depth) => {
                let item_depth = self.item_depth.unwrap_or(depth);
                handlers::item_element(item, &frame, parent, depth == item_depth + 1);
            }
            _ => {
                let is_channel_child = matches!(parent, "channel" | "feed" | "rss" | "rdf:rdf");
                handlers::channel_element(
                    &mut self.feed.channel,
                    &frame,
                    parent,
                    grandparent,
                    is_channel_child,
                );
            }
        }
    }

    fn finish(mut self) -> Result<ParsedFeed, IngestError> {
        let Some(root) = self.root.take() else {
            return Err(IngestError::NotXml("no element found".to_owned()));
        };
        if !self.stack.is_empty() {
            self.feed.truncated = true;
        }
        if !self.saw_feed_element && self.feed.items.is_empty() {
            return Err(IngestError::NotAFeed(format!(
                "the root element is <{root}>"
            )));
        }
        Ok(self.feed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncated_document_keeps_complete_items() {
        let feed = parse_feed(
            b"<rss><channel><title>T</title><item><title>a</title></item><item><title>b</ti",
            None,
        )
        .unwrap();
        assert!(feed.truncated);
        assert_eq!(feed.items.len(), 1);
        assert_eq!(feed.channel.title.as_deref(), Some("T"));
    }

    #[test]
    fn html_entities_and_stray_ampersands_survive() {
        let feed = parse_feed(
            "<rss><channel><title>Caf&eacute; Q&A &bogus; &#8217;</title></channel></rss>"
                .as_bytes(),
            None,
        )
        .unwrap();
        assert_eq!(feed.channel.title.as_deref(), Some("Café Q&A &bogus; ’"));
    }

    #[test]
    fn unescaped_html_in_description_is_kept_as_text() {
        let feed = parse_feed(
            b"<rss><channel><item><description>Hello <b>bold<br> world</description><title>t</title></item></channel></rss>",
            None,
        )
        .unwrap();
        let item = &feed.items[0];
        assert!(
            item.description.as_deref().unwrap().contains("bold"),
            "{item:?}"
        );
        assert_eq!(item.title.as_deref(), Some("t"));
    }

    #[test]
    fn non_feeds_are_rejected() {
        assert!(matches!(
            parse_feed(b"{\"json\": 1}", None),
            Err(IngestError::NotXml(_))
        ));
        assert!(matches!(parse_feed(b"", None), Err(IngestError::NotXml(_))));
        assert!(matches!(
            parse_feed(b"<html><body>moved</body></html>", None),
            Err(IngestError::NotAFeed(_))
        ));
    }
}
