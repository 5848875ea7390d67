//! What a client sends about a guest profile, read field by field so that each mistake
//! gets its own message: a new profile (the SDK's create call and the onboarding form),
//! bio, contact and social-link changes, uploaded files and the download format.

use podlens_model::entities::{GuestBio, GuestSocialLink};
use podlens_model::kinds::SocialKind;
use podlens_model::validate_social_url;
use podlens_model::validation::{
    GuestFormField, is_valid_email, optional_url, parse_user_file_field, require_guest_field,
    validate_upload, validate_upload_content, validate_upload_count,
};
use serde_json::{Map, Value};

use super::{GuestProfileDoc, GuestSource};
use crate::error::{AppError, AppResult};
use crate::workflows::agent;
use crate::workflows::fields::{object, optional_string, optional_strings};

/// Trimmed text, `None` when absent, null or empty.
fn text(body: &Map<String, Value>, name: &str) -> AppResult<Option<String>> {
    Ok(optional_string(body, name)?
        .map(|value| value.trim().to_owned())
        .filter(|value| !value.is_empty()))
}

fn email(body: &Map<String, Value>) -> AppResult<Option<String>> {
    match text(body, "email")? {
        Some(address) if !is_valid_email(&address) => {
            Err(AppError::Invalid("Invalid email address".into()))
        }
        other => Ok(other),
    }
}

/// A list given as strings or as one free-text string.
fn items(body: &Map<String, Value>, name: &str) -> AppResult<Vec<String>> {
    match body.get(name) {
        Some(Value::String(text)) => Ok(agent::text::list_items(text)),
        _ => Ok(optional_strings(body, name)?
            .unwrap_or_default()
            .into_iter()
            .map(|item| item.trim().to_owned())
            .filter(|item| !item.is_empty())
            .collect()),
    }
}

fn required_name(body: &Map<String, Value>, name: &str, label: &str) -> AppResult<String> {
    text(body, name)?.ok_or_else(|| AppError::Invalid(format!("{label} is required")))
}

/// A new guest profile, from the SDK's create call or the onboarding form.
#[derive(Debug, Clone)]
pub struct NewGuestProfile {
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub company_name: Option<String>,
    pub website_url: Option<String>,
    pub booking_url: Option<String>,
    pub linked_in: Option<String>,
    pub one_pager_url: Option<String>,
    pub source: GuestSource,
    /// A person alert for the guest, when the plan has room for one more.
    pub create_alert: bool,
}

impl NewGuestProfile {
    /// `POST /api/v1/guest-profiles`: firstName, lastName and shortBio are required.
    pub fn from_json(body: Value) -> AppResult<NewGuestProfile> {
        let body = object(body)?;
        let first_name = required_name(&body, "firstName", "First name")?;
        let last_name = required_name(&body, "lastName", "Last name")?;
        let short_bio = require_guest_field(
            GuestFormField::ShortBio,
            optional_string(&body, "shortBio")?.as_deref(),
        )?;
        Ok(NewGuestProfile {
            first_name,
            last_name,
            email: email(&body)?,
            phone: text(&body, "phone")?,
            company_name: text(&body, "companyName")?,
            website_url: optional_url(
                GuestFormField::WebsiteUrl,
                optional_string(&body, "websiteUrl")?.as_deref(),
            )?,
            booking_url: text(&body, "bookingUrl")?,
            linked_in: optional_url(
                GuestFormField::LinkedIn,
                optional_string(&body, "linkedIn")?.as_deref(),
            )?,
            one_pager_url: text(&body, "onePagerUrl")?,
            source: GuestSource {
                short_bio,
                long_bio: text(&body, "longBio")?,
                goals: items(&body, "goals")?,
                areas_of_expertise: items(&body, "areasOfExpertise")?,
                topics_to_discuss: items(&body, "topicsToDiscuss")?,
                things_to_avoid: items(&body, "thingsToAvoid")?,
                additional_context: text(&body, "additionalContext")?,
            },
            create_alert: body.get("createAlert") == Some(&Value::Bool(true)),
        })
    }

    /// `POST /api/v1/guest-profiles/onboarding-form` (SPEC.md §3, §5): short bio, goals,
    /// expertise and topics to discuss required with their messages; topics to avoid,
    /// company, LinkedIn and website optional (empty URLs allowed).
    pub fn from_form(body: Value) -> AppResult<NewGuestProfile> {
        let body = object(body)?;
        let field = |name: &str| optional_string(&body, name);
        let short_bio =
            require_guest_field(GuestFormField::ShortBio, field("shortBio")?.as_deref())?;
        let goals = require_guest_field(GuestFormField::Goals, field("goals")?.as_deref())?;
        let expertise =
            require_guest_field(GuestFormField::Expertise, field("expertise")?.as_deref())?;
        let topics = require_guest_field(
            GuestFormField::TopicsToDiscuss,
            field("topicsToDiscuss")?.as_deref(),
        )?;
        let linked_in = optional_url(GuestFormField::LinkedIn, field("linkedIn")?.as_deref())?;
        let website_url =
            optional_url(GuestFormField::WebsiteUrl, field("websiteUrl")?.as_deref())?;
        let first_name = required_name(&body, "firstName", "First name")?;
        let last_name = required_name(&body, "lastName", "Last name")?;
        let split = agent::text::list_items;
        Ok(NewGuestProfile {
            first_name,
            last_name,
            email: email(&body)?,
            phone: None,
            company_name: text(&body, "companyName")?,
            website_url,
            booking_url: None,
            linked_in,
            one_pager_url: None,
            source: GuestSource {
                short_bio,
                long_bio: None,
                goals: split(&goals),
                areas_of_expertise: split(&expertise),
                topics_to_discuss: split(&topics),
                things_to_avoid: text(&body, "topicsToAvoid")?
                    .map(|t| split(&t))
                    .unwrap_or_default(),
                additional_context: None,
            },
            create_alert: false,
        })
    }
}

const BIO_LISTS: [&str; 4] = [
    "areasOfExpertise",
    "goals",
    "thingsToAvoid",
    "topicsToDiscuss",
];

/// `PUT …/bio`: any of the bio fields; at least one.
#[derive(Debug, Clone, Default)]
pub struct BioChanges {
    short_bio: Option<String>,
    long_bio: Option<String>,
    additional_context: Option<Option<String>>,
    lists: Vec<(&'static str, Vec<String>)>,
}

impl BioChanges {
    pub fn from_json(body: Value) -> AppResult<BioChanges> {
        let body = object(body)?;
        let fields = [
            "additionalContext",
            "areasOfExpertise",
            "goals",
            "longBio",
            "shortBio",
            "thingsToAvoid",
            "topicsToDiscuss",
        ];
        if let Some(unknown) = body.keys().find(|key| !fields.contains(&key.as_str())) {
            return Err(AppError::Invalid(format!(
                "Unknown bio field \"{unknown}\""
            )));
        }
        if !body.values().any(|value| !value.is_null()) {
            return Err(AppError::Invalid(
                "At least one field must be provided to update a bio".into(),
            ));
        }
        let short_bio = match body.get("shortBio") {
            None | Some(Value::Null) => None,
            Some(_) => Some(require_guest_field(
                GuestFormField::ShortBio,
                optional_string(&body, "shortBio")?.as_deref(),
            )?),
        };
        let long_bio = optional_string(&body, "longBio")?;
        let additional_context = body
            .get("additionalContext")
            .map(|_| text(&body, "additionalContext"))
            .transpose()?;
        let mut lists = Vec::new();
        for name in BIO_LISTS {
            if let Some(values) = optional_strings(&body, name)? {
                lists.push((name, values));
            }
        }
        Ok(BioChanges {
            short_bio,
            long_bio,
            additional_context,
            lists,
        })
    }

    /// The profile's bio (or one begun from its source's short bio) with the changes.
    pub(super) fn apply(self, profile: &mut GuestProfileDoc) {
        let mut bio = profile.guest_bio.clone().unwrap_or_else(|| GuestBio {
            short_bio: profile.source.short_bio.clone(),
            ..GuestBio::default()
        });
        if let Some(short) = self.short_bio {
            bio.short_bio = short;
        }
        if let Some(long) = self.long_bio {
            bio.long_bio = long;
        }
        if let Some(context) = self.additional_context {
            bio.additional_context = context;
        }
        for (name, values) in self.lists {
            match name {
                "areasOfExpertise" => bio.areas_of_expertise = values,
                "goals" => bio.goals = values,
                "thingsToAvoid" => bio.things_to_avoid = values,
                _ => bio.topics_to_discuss = values,
            }
        }
        profile.guest_bio = Some(bio);
    }
}

const CONTACT_FIELDS: [&str; 10] = [
    "bookingUrl",
    "onePagerUrl",
    "companyName",
    "email",
    "firstName",
    "lastName",
    "linkedIn",
    "name",
    "phone",
    "websiteUrl",
];

/// `PUT …/contact-details`: the fields given; an empty string clears a field.
#[derive(Debug, Clone, Default)]
pub struct ContactChanges {
    values: Vec<(&'static str, Option<String>)>,
}

impl ContactChanges {
    pub fn from_json(body: Value) -> AppResult<ContactChanges> {
        let body = object(body)?;
        if let Some(unknown) = body
            .keys()
            .find(|key| !CONTACT_FIELDS.contains(&key.as_str()))
        {
            return Err(AppError::Invalid(format!(
                "Unknown contact field \"{unknown}\""
            )));
        }
        let present = |name: &str| body.get(name).is_some_and(|value| !value.is_null());
        if !CONTACT_FIELDS.iter().any(|name| present(name)) {
            return Err(AppError::Invalid(
                "At least one field must be provided to update contact details".into(),
            ));
        }
        let mut values = Vec::new();
        for name in CONTACT_FIELDS {
            if !present(name) {
                continue;
            }
            let value = match name {
                "email" => email(&body)?,
                "linkedIn" => optional_url(
                    GuestFormField::LinkedIn,
                    optional_string(&body, name)?.as_deref(),
                )?,
                "websiteUrl" => optional_url(
                    GuestFormField::WebsiteUrl,
                    optional_string(&body, name)?.as_deref(),
                )?,
                _ => text(&body, name)?,
            };
            if matches!(name, "firstName" | "lastName" | "name") && value.is_none() {
                return Err(AppError::Invalid(format!("{name} cannot be empty")));
            }
            values.push((name, value));
        }
        Ok(ContactChanges { values })
    }

    /// The profile with the changes; a changed first or last name renames the profile
    /// unless a name was given too.
    pub(super) fn apply(self, profile: &mut GuestProfileDoc) {
        let name_given = self.values.iter().any(|(name, _)| *name == "name");
        let names_changed = self
            .values
            .iter()
            .any(|(name, _)| matches!(*name, "firstName" | "lastName"));
        for (name, value) in self.values {
            match name {
                "bookingUrl" => profile.booking_url = value,
                "onePagerUrl" => profile.one_pager_url = value,
                "companyName" => profile.company_name = value,
                "email" => profile.email = value,
                "firstName" => profile.first_name = value,
                "lastName" => profile.last_name = value,
                "linkedIn" => profile.linked_in = value,
                "phone" => profile.phone = value,
                "websiteUrl" => profile.website_url = value,
                _ => profile.name = value.unwrap_or_default(),
            }
        }
        if names_changed && !name_given {
            profile.name = format!(
                "{} {}",
                profile.first_name.as_deref().unwrap_or_default(),
                profile.last_name.as_deref().unwrap_or_default()
            )
            .trim()
            .to_owned();
        }
    }
}

/// `PUT …/social-media-links`: the whole list (a JSON array, or `{"body": [...]}`), each
/// URL checked against its platform's rules; a repeated link is kept once, last.
pub fn social_links(body: Value) -> AppResult<Vec<GuestSocialLink>> {
    let not_a_list =
        || AppError::Invalid("The body must be a list of {socialMediaType, url}".into());
    let list = match body {
        Value::Array(items) => items,
        Value::Object(mut map) => match map.remove("body") {
            Some(Value::Array(items)) => items,
            _ => return Err(not_a_list()),
        },
        _ => return Err(not_a_list()),
    };
    let mut links: Vec<GuestSocialLink> = Vec::new();
    for item in list {
        let item = object(item)?;
        let kind_text = optional_string(&item, "socialMediaType")?
            .ok_or_else(|| AppError::Invalid("socialMediaType is required".into()))?;
        let kind = SocialKind::parse(&kind_text)
            .ok_or_else(|| AppError::Invalid(format!("Invalid socialMediaType \"{kind_text}\"")))?;
        let url = optional_string(&item, "url")?
            .map(|url| url.trim().to_owned())
            .ok_or_else(|| AppError::Invalid("url is required".into()))?;
        validate_social_url(kind, &url).map_err(podlens_model::ValidationError::from)?;
        links.retain(|link| link.social_media_type != kind || link.url != url);
        links.push(GuestSocialLink {
            social_media_type: kind,
            url,
            last_scraped_at: None,
            last_scrape_failed_at: None,
            is_scraping: false,
        });
    }
    Ok(links)
}

/// Files of one upload, each checked as it arrives: its form field (`documents` or
/// `user_file:{n}`) and file name before its bytes are read ([`Uploads::file_name`]),
/// then its size, type, content and the count ([`Uploads::add`]).
#[derive(Debug, Default)]
pub struct Uploads {
    pub(super) files: Vec<(String, Vec<u8>)>,
}

impl Uploads {
    /// The file name a form field carries, once the field is one of an upload's.
    pub fn file_name(field: &str, file_name: Option<&str>) -> AppResult<String> {
        if field != "documents" {
            parse_user_file_field(field)?;
        }
        file_name
            .filter(|name| !name.trim().is_empty())
            .map(str::to_owned)
            .ok_or_else(|| AppError::Invalid(format!("Field {field} carries no file name")))
    }

    pub fn add(&mut self, file_name: String, bytes: Vec<u8>) -> AppResult<()> {
        validate_upload(&file_name, bytes.len() as u64)?;
        validate_upload_content(&file_name, &bytes)?;
        self.files.push((file_name, bytes));
        validate_upload_count(self.files.len())?;
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// What `…/download?format=` renders: html (the default), docx, pdf or markdown (md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DownloadFormat {
    Html,
    Docx,
    Pdf,
    Markdown,
}

impl DownloadFormat {
    pub fn parse(value: Option<&str>) -> AppResult<DownloadFormat> {
        match value.unwrap_or("html") {
            "html" => Ok(DownloadFormat::Html),
            "docx" => Ok(DownloadFormat::Docx),
            "pdf" => Ok(DownloadFormat::Pdf),
            "markdown" | "md" => Ok(DownloadFormat::Markdown),
            other => Err(AppError::Invalid(format!(
                "Invalid format \"{other}\"; expected one of html, docx, pdf, markdown"
            ))),
        }
    }
}
