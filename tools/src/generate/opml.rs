//! The OPML subscription list of every generated feed.

use std::io::Write;

use super::text::escape;

/// One feed of the list.
#[derive(Debug)]
pub struct Outline<'a> {
    pub title: &'a str,
    pub feed_url: &'a str,
    pub site_url: &'a str,
}

/// Writes an OPML 2.0 document listing `outlines` in order.
pub fn write<'a, W: Write>(
    writer: &mut W,
    title: &str,
    outlines: impl Iterator<Item = Outline<'a>>,
) -> std::io::Result<()> {
    write!(
        writer,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n<head>\n<title>{}</title>\n</head>\n<body>\n",
        escape(title)
    )?;
    for outline in outlines {
        writeln!(
            writer,
            "<outline type=\"rss\" text=\"{title}\" title=\"{title}\" xmlUrl=\"{}\" htmlUrl=\"{}\"/>",
            escape(outline.feed_url),
            escape(outline.site_url),
            title = escape(outline.title)
        )?;
    }
    writer.write_all(b"</body>\n</opml>\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outlines_are_escaped_and_listed() {
        let mut out = Vec::new();
        let outlines = [Outline {
            title: "A & B",
            feed_url: "http://h/feeds/0.xml",
            site_url: "http://h/sites/a-0/",
        }];
        write(&mut out, "Corpus", outlines.into_iter()).expect("in-memory write");
        let text = String::from_utf8(out).expect("utf-8");
        assert!(text.contains("text=\"A &amp; B\""));
        assert!(text.contains("xmlUrl=\"http://h/feeds/0.xml\""));
    }
}
