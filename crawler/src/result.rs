//! Folds the facts of every page of a site into the spec's website crawl result.

use std::collections::{BTreeSet, HashMap, HashSet};

use podlens_model::entities::{
    CrawlContactPage, CrawlDirectoryLink, CrawlSocial, CrawlStats, WebsiteCrawlResult,
};
use podlens_model::social::{apple_podcast_id, spotify_show_id};
use podlens_model::{classify_directory_url, classify_social_url};
use url::Url;

use crate::extract::PageFacts;
use crate::frontier::site_key;

/// Words in a page's path or title that make it a contact page.
const CONTACT_WORDS: &[&str] = &[
    "contact",
    "kontakt",
    "contacto",
    "contatti",
    "get-in-touch",
    "get in touch",
    "booking",
    "reach us",
    "write to us",
];

/// What a crawl has found so far.
#[derive(Debug, Default)]
pub struct Findings {
    site: String,
    max_external_links: usize,
    external_links: Vec<String>,
    external_seen: HashSet<String>,
    emails: Vec<String>,
    phones: Vec<String>,
    contact_pages: Vec<CrawlContactPage>,
    /// Canonical profile URL → index into `socials`.
    social_index: HashMap<String, usize>,
    socials: Vec<CrawlSocial>,
    directory_links: Vec<CrawlDirectoryLink>,
    apple_ids: BTreeSet<String>,
    spotify_ids: BTreeSet<String>,
    visited_urls: Vec<String>,
}

impl Findings {
    pub fn new(start: &Url, max_external_links: usize) -> Findings {
        Findings {
            site: site_key(start),
            max_external_links,
            ..Findings::default()
        }
    }

    /// The site moved (the start page redirected to another host).
    pub fn set_site(&mut self, url: &Url) {
        self.site = site_key(url);
    }

    pub fn is_internal(&self, url: &Url) -> bool {
        site_key(url) == self.site
    }

    pub fn add_page(&mut self, page: &Url, facts: &PageFacts) {
        let page_text = page.to_string();
        self.visited_urls.push(page_text.clone());
        for link in &facts.links {
            self.add_link(&link.url, &page_text);
        }
        push_new(&mut self.emails, &facts.emails);
        push_new(&mut self.phones, &facts.phones);
        if is_contact_page(page, facts) {
            self.contact_pages.push(CrawlContactPage {
                url: page_text,
                has_form: facts.has_form,
                emails: facts.emails.clone(),
                phones: facts.phones.clone(),
                title: facts.title.clone(),
            });
        }
    }

    fn add_link(&mut self, url: &Url, page: &str) {
        let text = url.as_str();
        if let Some(Ok(profile)) = classify_social_url(text) {
            let index = *self
                .social_index
                .entry(profile.url.clone())
                .or_insert_with(|| {
                    self.socials.push(CrawlSocial {
                        kind: profile.kind,
                        url: profile.url.clone(),
                        occurrences: 0,
                        pages: Vec::new(),
                    });
                    self.socials.len() - 1
                });
            let social = &mut self.socials[index];
            social.occurrences += 1;
            if !social.pages.iter().any(|seen| seen == page) {
                social.pages.push(page.to_owned());
            }
        }
        if let Some(link) = classify_directory_url(text)
            && !self
                .directory_links
                .iter()
                .any(|known| known.kind == link.kind && known.url == link.url)
        {
            self.directory_links.push(CrawlDirectoryLink {
                kind: link.kind,
                url: link.url,
            });
        }
        if let Some(id) = apple_podcast_id(text) {
            self.apple_ids.insert(id);
        }
        if let Some(id) = spotify_show_id(text) {
            self.spotify_ids.insert(id);
        }
        if !self.is_internal(url)
            && self.external_links.len() < self.max_external_links
            && self.external_seen.insert(text.to_owned())
        {
            self.external_links.push(text.to_owned());
        }
    }

    pub fn finish(self, stats: CrawlStats) -> WebsiteCrawlResult {
        WebsiteCrawlResult {
            external_links: self.external_links,
            emails: self.emails,
            phone_numbers: self.phones,
            contact_pages: self.contact_pages,
            socials: self.socials,
            podcast_directory_links: self.directory_links,
            apple_podcast_links: self
                .apple_ids
                .iter()
                .map(|id| format!("https://podcasts.apple.com/podcast/id{id}"))
                .collect(),
            spotify_podcast_links: self
                .spotify_ids
                .iter()
                .map(|id| format!("https://open.spotify.com/show/{id}"))
                .collect(),
            visited_urls: self.visited_urls,
            stats,
        }
    }
}

fn push_new(into: &mut Vec<String>, items: &[String]) {
    for item in items {
        if !into.contains(item) {
            into.push(item.clone());
        }
    }
}

/// A page whose path or title speaks of contact or booking.
fn is_contact_page(page: &Url, facts: &PageFacts) -> bool {
    let path = page.path().to_ascii_lowercase();
    let title = facts.title.as_deref().unwrap_or("").to_lowercase();
    CONTACT_WORDS
        .iter()
        .any(|word| path.contains(&word.replace(' ', "-")) || title.contains(word))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::PageLink;
    use podlens_model::{DirectoryKind, SocialKind};

    fn link(text: &str) -> PageLink {
        PageLink {
            url: Url::parse(text).unwrap(),
            text: String::new(),
        }
    }

    #[test]
    fn socials_are_validated_counted_and_keyed_by_profile() {
        let start = Url::parse("https://show.example/").unwrap();
        let mut findings = Findings::new(&start, 10);
        let facts = PageFacts {
            links: vec![
                link("https://twitter.com/ShowName"),
                link("https://x.com/showname/"),
                link("https://twitter.com/intent/tweet?url=x"),
                link("https://podcasts.apple.com/us/podcast/the-show/id1234567890"),
                link("https://open.spotify.com/show/2MAi0BvDc6GTFvKFPXnkCL"),
                link("https://show.example/about"),
            ],
            ..PageFacts::default()
        };
        findings.add_page(&start, &facts);
        let contact = Url::parse("https://show.example/contact").unwrap();
        findings.add_page(
            &contact,
            &PageFacts {
                links: vec![link("https://twitter.com/showname")],
                title: Some("Contact".into()),
                ..PageFacts::default()
            },
        );
        let result = findings.finish(CrawlStats::default());
        assert_eq!(result.socials.len(), 1);
        assert_eq!(result.socials[0].kind, SocialKind::Twitter);
        assert_eq!(result.socials[0].occurrences, 3);
        assert_eq!(result.socials[0].pages.len(), 2);
        let kinds: Vec<DirectoryKind> = result
            .podcast_directory_links
            .iter()
            .map(|l| l.kind)
            .collect();
        assert_eq!(kinds, [DirectoryKind::Apple, DirectoryKind::Spotify]);
        assert_eq!(
            result.apple_podcast_links,
            ["https://podcasts.apple.com/podcast/id1234567890"]
        );
        assert_eq!(
            result.spotify_podcast_links,
            ["https://open.spotify.com/show/2MAi0BvDc6GTFvKFPXnkCL"]
        );
        assert!(
            !result
                .external_links
                .iter()
                .any(|l| l.contains("show.example"))
        );
        assert_eq!(result.contact_pages.len(), 1);
        assert_eq!(result.visited_urls.len(), 2);
    }
}
