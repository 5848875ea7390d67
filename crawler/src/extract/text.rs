//! The text a visitor sees: text nodes outside `script`, `style`, `noscript` and
//! `template`, with block boundaries kept as spaces so words never run together.

use scraper::{Html, Node};

const HIDDEN: &[&str] = &["script", "style", "noscript", "template", "svg", "head"];

/// The visible text of a document, entities decoded.
pub fn visible_text(document: &Html) -> String {
    let mut out = String::new();
    let mut stack = vec![document.tree.root()];
    while let Some(node) = stack.pop() {
        match node.value() {
            Node::Text(text) => {
                out.push_str(text);
                out.push(' ');
            }
            Node::Element(element) if HIDDEN.contains(&element.name()) => continue,
            _ => {}
        }
        // Children pushed in reverse so they pop in document order.
        let children: Vec<_> = node.children().collect();
        stack.extend(children.into_iter().rev());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_and_styles_are_not_text() {
        let document = Html::parse_document(
            "<html><head><title>T</title><style>a{}</style></head><body><p>One</p><p>two &amp; three</p><script>var x='a@b.com'</script></body></html>",
        );
        let text = visible_text(&document);
        assert!(text.contains("One"));
        assert!(text.contains("two & three"));
        assert!(!text.contains("a@b.com"));
        assert!(!text.contains("a{}"));
    }
}
