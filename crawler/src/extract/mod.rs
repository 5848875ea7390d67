//! What one HTML page holds: title, links with their text, visible text, forms,
//! emails and phone numbers. Pure functions over a page's bytes, so they can be
//! tested and benchmarked without a network.

mod emails;
mod phones;
mod text;

use scraper::{Html, Selector};
use url::Url;

pub use emails::{emails_in_text, is_plausible_email, mailto_address};
pub use phones::{PhoneReader, tel_number};
pub use text::visible_text;

/// A link on a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageLink {
    /// Absolute, fragment removed.
    pub url: Url,
    /// The anchor's text, whitespace collapsed.
    pub text: String,
}

/// The facts of one page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageFacts {
    pub title: Option<String>,
    pub links: Vec<PageLink>,
    /// Lowercased, deduplicated in order of appearance.
    pub emails: Vec<String>,
    /// E.164 where it could be normalised, deduplicated in order of appearance.
    pub phones: Vec<String>,
    /// The page has a form a visitor can type into.
    pub has_form: bool,
}

struct Selectors {
    title: Selector,
    links: Selector,
    forms: Selector,
    form_fields: Selector,
    cloudflare_emails: Selector,
}

fn selectors() -> &'static Selectors {
    static SELECTORS: std::sync::OnceLock<Selectors> = std::sync::OnceLock::new();
    SELECTORS.get_or_init(|| {
        let parse = |css| Selector::parse(css).unwrap_or_else(|_| unreachable!("valid selector"));
        Selectors {
            title: parse("title"),
            links: parse("a[href], area[href]"),
            forms: parse("form"),
            form_fields: parse("input:not([type=hidden]):not([type=submit]), textarea"),
            cloudflare_emails: parse("[data-cfemail]"),
        }
    })
}

/// Reads a page fetched from `base` (the final URL after redirects).
pub fn extract_page(html: &str, base: &Url, phones: &PhoneReader) -> PageFacts {
    let document = Html::parse_document(html);
    let selectors = selectors();
    let base = document_base(&document, base);
    let title = document
        .select(&selectors.title)
        .next()
        .map(|title| collapse_whitespace(&title.text().collect::<String>()))
        .filter(|title| !title.is_empty());

    let mut facts = PageFacts {
        title,
        ..PageFacts::default()
    };
    let mut emails = Vec::new();
    let mut phone_numbers = Vec::new();
    for anchor in document.select(&selectors.links) {
        let Some(href) = anchor.value().attr("href") else {
            continue;
        };
        let href = href.trim();
        if let Some(address) = mailto_address(href) {
            emails.push(address);
            continue;
        }
        if let Some(number) = tel_number(href) {
            phone_numbers.extend(phones.normalise(&number));
            continue;
        }
        let Ok(mut url) = base.join(href) else {
            continue;
        };
        if !matches!(url.scheme(), "http" | "https") {
            continue;
        }
        url.set_fragment(None);
        let text = collapse_whitespace(&anchor.text().collect::<String>());
        facts.links.push(PageLink { url, text });
    }
    for protected in document.select(&selectors.cloudflare_emails) {
        if let Some(address) = protected
            .value()
            .attr("data-cfemail")
            .and_then(emails::decode_cloudflare)
        {
            emails.push(address);
        }
    }
    let text = visible_text(&document);
    emails.extend(emails_in_text(&text));
    phone_numbers.extend(phones.find_in_text(&text));
    facts.has_form = document
        .select(&selectors.forms)
        .any(|form| form.select(&selectors.form_fields).next().is_some());
    facts.emails = dedup(emails);
    facts.phones = dedup(phone_numbers);
    facts
}

/// The `<base href>` of the document resolved against the page URL, or the page URL.
fn document_base(document: &Html, page: &Url) -> Url {
    static BASE: std::sync::OnceLock<Selector> = std::sync::OnceLock::new();
    let selector = BASE.get_or_init(|| {
        Selector::parse("base[href]").unwrap_or_else(|_| unreachable!("valid selector"))
    });
    document
        .select(selector)
        .next()
        .and_then(|base| base.value().attr("href"))
        .and_then(|href| page.join(href.trim()).ok())
        .filter(|url| matches!(url.scheme(), "http" | "https"))
        .unwrap_or_else(|| page.clone())
}

pub(crate) fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn dedup(items: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    items
        .into_iter()
        .filter(|item| seen.insert(item.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_resolve_against_base_and_drop_fragments() {
        let html = r##"<html><head><title> Show  Home </title><base href="/sub/"></head>
            <body><a href="contact.html#form">Contact  us</a><a href="mailto:Hi@Example.com?subject=x">mail</a>
            <a href="javascript:void(0)">x</a><form><input type="email" name="e"></form></body></html>"##;
        let base = Url::parse("https://example.com/index.html").unwrap();
        let facts = extract_page(html, &base, &PhoneReader::new(None));
        assert_eq!(facts.title.as_deref(), Some("Show Home"));
        assert_eq!(facts.links.len(), 1);
        assert_eq!(
            facts.links[0].url.as_str(),
            "https://example.com/sub/contact.html"
        );
        assert_eq!(facts.links[0].text, "Contact us");
        assert_eq!(facts.emails, vec!["hi@example.com"]);
        assert!(facts.has_form);
    }

    #[test]
    fn a_search_box_with_only_hidden_fields_is_not_a_form() {
        let html = r#"<form><input type="hidden" name="a"><input type="submit"></form>"#;
        let base = Url::parse("https://example.com/").unwrap();
        assert!(!extract_page(html, &base, &PhoneReader::new(None)).has_form);
    }
}
