//! What the catalog's enrichment says of a podcast, as the wire shows it: its details
//! (with its authority score and social profiles), its social profiles and its contacts.
//! Each is read where its own endpoint reads it (`/authority-score/{id}`,
//! `/{id}/social-media`, `/{id}/contacts`), so the details never disagree with them.

use podlens_model::catalog::PodcastRecord;
use podlens_model::entities::{
    ContactEmail, ContactWebsite, Podcast, PodcastContacts, SocialMediaLink,
};
use podlens_model::enums::SocialLinkSource;
use podlens_model::{Plan, SocialKind};

use crate::catalog::CatalogReader;
use crate::error::AppResult;

impl CatalogReader {
    /// A podcast's details as `plan` sees them, with its authority score, its social
    /// profiles and whether its transcripts are unavailable.
    pub fn podcast_details(&self, record: &PodcastRecord, plan: Plan) -> AppResult<Podcast> {
        let mut podcast = crate::convert::podcast_full(record, plan);
        podcast.summary = self.podcast_summary(record)?;
        podcast.social_media_links = self.social_links(record)?;
        podcast.stats.transcripts_unavailable = self
            .snapshot()?
            .transcripts_unavailable(record.podcast_id)?;
        Ok(podcast)
    }

    /// A podcast's social profiles, each URL once with every source that gave it.
    pub fn social_links(&self, record: &PodcastRecord) -> AppResult<Vec<SocialMediaLink>> {
        let mut links: Vec<SocialMediaLink> = Vec::new();
        for row in self.snapshot()?.podcast_social_links(record.podcast_id)? {
            let Some(kind) = SocialKind::parse(&row.social_media_type) else {
                continue;
            };
            let source = wire_source(&row.source);
            match links.iter_mut().find(|link| link.url == row.url) {
                Some(link) => {
                    if let Some(source) = source
                        && !link.sources.contains(&source)
                    {
                        link.sources.push(source);
                    }
                }
                None => links.push(SocialMediaLink {
                    social_media_type: kind,
                    url: row.url,
                    sources: source.into_iter().collect(),
                }),
            }
        }
        Ok(links)
    }

    /// The contacts `plan` may see: the feed's owner email from the individual plan up;
    /// contacts found on the podcast's website (internal contacts) from business up.
    pub fn podcast_contacts(
        &self,
        record: &PodcastRecord,
        plan: Plan,
    ) -> AppResult<PodcastContacts> {
        let mut emails: Vec<ContactEmail> = Vec::new();
        let mut phone_numbers: Vec<String> = Vec::new();
        let mut push_email = |address: &str| {
            if !emails
                .iter()
                .any(|known| known.email.eq_ignore_ascii_case(address))
            {
                emails.push(ContactEmail::unverified(address));
            }
        };
        if plan.sees_rss_primary_contacts()
            && let Some(owner) = record.podcast_owner_email.as_deref()
        {
            push_email(owner);
        }
        let mut websites = Vec::new();
        if plan.sees_internal_contacts() {
            let snapshot = self.snapshot()?;
            for contact in snapshot.podcast_contacts(record.podcast_id)? {
                match contact.contact_type.as_str() {
                    "email" => push_email(&contact.value),
                    "phone" if !phone_numbers.contains(&contact.value) => {
                        phone_numbers.push(contact.value)
                    }
                    _ => {}
                }
            }
            if let Some((crawl, _)) = snapshot.website_crawl(record.podcast_id)? {
                websites.push(ContactWebsite {
                    url: crawl.stats.base_url.clone(),
                    verified: crawl.stats.pages_crawled > 0,
                    contact_urls: crawl
                        .contact_pages
                        .iter()
                        .map(|page| page.url.clone())
                        .collect(),
                });
            }
        }
        if websites.is_empty()
            && let Some(url) = record.podcast_website_url.as_deref()
        {
            websites.push(ContactWebsite {
                url: url.to_owned(),
                verified: false,
                contact_urls: Vec::new(),
            });
        }
        Ok(PodcastContacts {
            podcast_id: record.podcast_id.to_string(),
            emails,
            phone_numbers,
            websites,
        })
    }
}

/// Where a stored contact or link came from, as the wire names its sources.
fn wire_source(source: &str) -> Option<SocialLinkSource> {
    match source {
        "website" => SocialLinkSource::parse("podcast-website"),
        other => SocialLinkSource::parse(other),
    }
}
