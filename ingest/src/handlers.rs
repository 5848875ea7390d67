//! What each element means: the parser calls these when an element opens
//! (containers whose children follow) and when it closes (with its text and
//! attributes), for the channel and for the current item.

use crate::feed::{
    AlternateEnclosure, Channel, Chapters, Enclosure, EpisodeNumber, Funding, Item, License,
    Location, Person, RemoteItem, Season, SocialInteract, Trailer, TranscriptTag, Txt,
    UpdateFrequencyTag, Value, ValueRecipient,
};

/// One open element.
#[derive(Debug, Default)]
pub(crate) struct Frame {
    pub name: String,
    pub text: String,
    pub attributes: Vec<(String, String)>,
}

impl Frame {
    pub fn attribute(&self, key: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value.trim())
            .filter(|value| !value.is_empty())
    }

    pub fn owned_attribute(&self, key: &str) -> Option<String> {
        self.attribute(key).map(str::to_owned)
    }
}

fn text(frame: &Frame) -> Option<String> {
    let trimmed = frame.text.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_owned())
}

fn set_once(slot: &mut Option<String>, value: Option<String>) {
    if slot.is_none() {
        *slot = value;
    }
}

/// `yes`, `true`, `explicit` → true; `no`, `false`, `clean` → false.
pub fn yes_no(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "yes" | "true" | "explicit" | "1" => Some(true),
        "no" | "false" | "clean" | "0" => Some(false),
        _ => None,
    }
}

fn keywords(value: &str) -> Vec<String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|word| !word.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The URLs of a `srcset`-style list (`url 1500w, url 600w`).
fn srcset_urls(value: &str) -> Vec<String> {
    value
        .split(',')
        .filter_map(|candidate| candidate.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

fn href_or_text(frame: &Frame) -> Option<String> {
    frame
        .owned_attribute("href")
        .or_else(|| frame.owned_attribute("url"))
        .or_else(|| text(frame))
}

fn person(frame: &Frame) -> Option<Person> {
    Some(Person {
        name: text(frame)?,
        role: frame.attribute("role").map(str::to_ascii_lowercase),
        group: frame.attribute("group").map(str::to_ascii_lowercase),
        img: frame.owned_attribute("img"),
        href: frame.owned_attribute("href"),
    })
}

fn location(frame: &Frame) -> Option<Location> {
    Some(Location {
        name: text(frame)?,
        geo: frame.owned_attribute("geo"),
        osm: frame.owned_attribute("osm"),
    })
}

fn funding(frame: &Frame) -> Option<Funding> {
    Some(Funding {
        url: frame.owned_attribute("url")?,
        text: text(frame).unwrap_or_default(),
    })
}

fn license(frame: &Frame) -> Option<License> {
    Some(License {
        name: text(frame)?,
        url: frame.owned_attribute("url"),
    })
}

fn txt(frame: &Frame) -> Option<Txt> {
    Some(Txt {
        purpose: frame.owned_attribute("purpose"),
        text: text(frame)?,
    })
}

fn social_interact(frame: &Frame) -> SocialInteract {
    SocialInteract {
        protocol: frame.owned_attribute("protocol"),
        uri: frame.owned_attribute("uri"),
        account_id: frame.owned_attribute("accountid"),
        account_url: frame.owned_attribute("accounturl"),
        priority: frame.owned_attribute("priority"),
    }
}

fn remote_item(frame: &Frame) -> RemoteItem {
    RemoteItem {
        feed_guid: frame.owned_attribute("feedguid"),
        feed_url: frame.owned_attribute("feedurl"),
        item_guid: frame.owned_attribute("itemguid"),
        medium: frame.owned_attribute("medium"),
    }
}

fn value(frame: &Frame) -> Value {
    Value {
        kind: frame.owned_attribute("type"),
        method: frame.owned_attribute("method"),
        suggested: frame.owned_attribute("suggested"),
        recipients: Vec::new(),
    }
}

fn value_recipient(frame: &Frame) -> ValueRecipient {
    ValueRecipient {
        name: frame.owned_attribute("name"),
        kind: frame.owned_attribute("type"),
        address: frame.owned_attribute("address"),
        split: frame.owned_attribute("split"),
        fee: frame.attribute("fee").and_then(yes_no).unwrap_or(false),
    }
}

fn enclosure(frame: &Frame, url_key: &str, length_key: &str) -> Option<Enclosure> {
    Some(Enclosure {
        url: frame.owned_attribute(url_key)?,
        mime_type: frame.owned_attribute("type"),
        length: frame.owned_attribute(length_key),
    })
}

/// An element of the channel opened (containers and ordered lists only).
pub(crate) fn channel_start(channel: &mut Channel, frame: &Frame, parent: &str) {
    match frame.name.as_str() {
        "itunes:category" => {
            if let Some(category) = frame.owned_attribute("text")
                && (parent == "channel" || parent == "itunes:category")
            {
                channel.itunes_categories.push(category);
            }
        }
        "podcast:value" => channel.value.push(value(frame)),
        _ => {}
    }
}

/// An element of the current item opened (containers only).
pub(crate) fn item_start(item: &mut Item, frame: &Frame) {
    match frame.name.as_str() {
        "podcast:value" => item.value.push(value(frame)),
        "podcast:alternateenclosure" => item.alternate_enclosures.push(AlternateEnclosure {
            mime_type: frame.owned_attribute("type"),
            length: frame.owned_attribute("length"),
            bitrate: frame.owned_attribute("bitrate"),
            height: frame.owned_attribute("height"),
            language: frame.owned_attribute("lang"),
            title: frame.owned_attribute("title"),
            rel: frame.owned_attribute("rel"),
            codecs: frame.owned_attribute("codecs"),
            default: frame.attribute("default").and_then(yes_no).unwrap_or(false),
            sources: Vec::new(),
            integrity: None,
        }),
        _ => {}
    }
}

/// An element outside any item closed.
pub(crate) fn channel_element(
    channel: &mut Channel,
    frame: &Frame,
    parent: &str,
    grandparent: &str,
    is_channel_child: bool,
) {
    let name = frame.name.as_str();
    if !is_channel_child {
        match (parent, name) {
            ("image", "url") => set_once(&mut channel.image_url, text(frame)),
            ("itunes:owner", "itunes:name") => set_once(&mut channel.owner_name, text(frame)),
            ("itunes:owner", "itunes:email") => set_once(&mut channel.owner_email, text(frame)),
            ("author", "name") if grandparent == "feed" => {
                set_once(&mut channel.author, text(frame))
            }
            ("podcast:podroll", "podcast:remoteitem") => channel.podroll.push(remote_item(frame)),
            ("podcast:value", "podcast:valuerecipient") => {
                if let Some(last) = channel.value.last_mut() {
                    last.recipients.push(value_recipient(frame));
                }
            }
            _ => {}
        }
        return;
    }
    match name {
        "title" => set_once(&mut channel.title, text(frame)),
        "link" => match frame.attribute("href") {
            Some(href) => match frame.attribute("rel").unwrap_or("alternate") {
                "alternate" => set_once(&mut channel.link, Some(href.to_owned())),
                "self" => set_once(&mut channel.self_url, Some(href.to_owned())),
                "hub" => set_once(&mut channel.hub_url, Some(href.to_owned())),
                _ => {}
            },
            None => set_once(&mut channel.link, text(frame)),
        },
        "atom:link" if frame.attribute("rel") == Some("self") => {
            set_once(&mut channel.self_url, frame.owned_attribute("href"));
        }
        "atom:link" if frame.attribute("rel") == Some("hub") => {
            set_once(&mut channel.hub_url, frame.owned_attribute("href"));
        }
        "sy:updateperiod" => set_once(&mut channel.sy_update_period, text(frame)),
        "sy:updatefrequency" => set_once(&mut channel.sy_update_frequency, text(frame)),
        "description" => set_once(&mut channel.description, text(frame)),
        "subtitle" | "itunes:subtitle" => set_once(&mut channel.subtitle, text(frame)),
        "itunes:summary" => set_once(&mut channel.summary, text(frame)),
        "language" | "dc:language" => set_once(&mut channel.language, text(frame)),
        "copyright" | "rights" | "dc:rights" => set_once(&mut channel.copyright, text(frame)),
        "generator" => set_once(&mut channel.generator, text(frame)),
        "itunes:author" | "dc:creator" | "googleplay:author" => {
            set_once(&mut channel.author, text(frame))
        }
        "managingeditor" => set_once(&mut channel.managing_editor, text(frame)),
        "webmaster" => set_once(&mut channel.web_master, text(frame)),
        "logo" | "icon" => set_once(&mut channel.image_url, text(frame)),
        "itunes:image" | "googleplay:image" => {
            set_once(&mut channel.itunes_image, href_or_text(frame))
        }
        "category" => {
            if let Some(category) = frame.owned_attribute("term").or_else(|| text(frame)) {
                channel.categories.push(category);
            }
        }
        "itunes:keywords" | "media:keywords" => channel
            .keywords
            .extend(text(frame).as_deref().map(keywords).unwrap_or_default()),
        "itunes:explicit" | "googleplay:explicit" if channel.explicit.is_none() => {
            channel.explicit = text(frame).as_deref().and_then(yes_no);
        }
        "itunes:type" => set_once(
            &mut channel.itunes_type,
            text(frame).map(|t| t.to_ascii_lowercase()),
        ),
        "itunes:block" | "googleplay:block" => {
            channel.itunes_block |= text(frame).as_deref().and_then(yes_no).unwrap_or(false)
        }
        "itunes:complete" => {
            channel.itunes_complete |= text(frame).as_deref().and_then(yes_no).unwrap_or(false)
        }
        "itunes:new-feed-url" => set_once(&mut channel.new_feed_url, text(frame)),
        "pubdate" | "dc:date" => set_once(&mut channel.pub_date, text(frame)),
        "lastbuilddate" | "updated" => set_once(&mut channel.last_build_date, text(frame)),
        "podcast:guid" => set_once(&mut channel.podcast_guid, text(frame)),
        "podcast:locked" if channel.locked.is_none() => {
            channel.locked = text(frame).as_deref().and_then(yes_no);
            channel.locked_owner = frame.owned_attribute("owner");
        }
        "podcast:medium" => set_once(
            &mut channel.medium,
            text(frame).map(|t| t.to_ascii_lowercase()),
        ),
        "podcast:location" if channel.location.is_none() => {
            channel.location = location(frame);
        }
        "podcast:funding" => channel.funding.extend(funding(frame)),
        "podcast:person" => channel.persons.extend(person(frame)),
        "podcast:trailer" => channel.trailers.extend(text(frame).map(|title| Trailer {
            title,
            url: frame.owned_attribute("url"),
            pub_date: frame.owned_attribute("pubdate"),
            length: frame.owned_attribute("length"),
            mime_type: frame.owned_attribute("type"),
            season: frame.owned_attribute("season"),
        })),
        "podcast:license" if channel.license.is_none() => {
            channel.license = license(frame);
        }
        "podcast:remoteitem" => channel.remote_items.push(remote_item(frame)),
        "podcast:txt" => channel.txt.extend(txt(frame)),
        "podcast:socialinteract" => channel.social_interact.push(social_interact(frame)),
        "podcast:images" => channel.images.extend(
            frame
                .attribute("srcset")
                .map(srcset_urls)
                .unwrap_or_default(),
        ),
        "podcast:updatefrequency" => {
            channel.update_frequency = Some(UpdateFrequencyTag {
                text: text(frame).unwrap_or_default(),
                complete: frame
                    .attribute("complete")
                    .and_then(yes_no)
                    .unwrap_or(false),
                dtstart: frame.owned_attribute("dtstart"),
                rrule: frame.owned_attribute("rrule"),
            })
        }
        "podcast:block" => {
            if let Some(blocked) = text(frame).as_deref().and_then(yes_no) {
                channel.blocks.push((frame.owned_attribute("id"), blocked));
            }
        }
        _ => {}
    }
}

/// An element inside the current item closed; `direct` when its parent is the item.
pub(crate) fn item_element(item: &mut Item, frame: &Frame, parent: &str, direct: bool) {
    let name = frame.name.as_str();
    if !direct {
        match (parent, name) {
            ("podcast:alternateenclosure", "podcast:source") => {
                if let (Some(last), Some(uri)) = (
                    item.alternate_enclosures.last_mut(),
                    frame.owned_attribute("uri"),
                ) {
                    last.sources.push(uri);
                }
            }
            ("podcast:alternateenclosure", "podcast:integrity") => {
                if let Some(last) = item.alternate_enclosures.last_mut() {
                    last.integrity = frame.owned_attribute("value");
                }
            }
            ("podcast:value", "podcast:valuerecipient") => {
                if let Some(last) = item.value.last_mut() {
                    last.recipients.push(value_recipient(frame));
                }
            }
            ("media:group", "media:content") => item
                .media_contents
                .extend(enclosure(frame, "url", "filesize")),
            ("media:group", "media:thumbnail") => {
                set_once(&mut item.media_thumbnail, frame.owned_attribute("url"))
            }
            ("author", "name") => set_once(&mut item.author, text(frame)),
            _ => {}
        }
        return;
    }
    match name {
        "title" => set_once(&mut item.title, text(frame)),
        "link" => match frame.attribute("href") {
            Some(href) => match frame.attribute("rel").unwrap_or("alternate") {
                "alternate" => set_once(&mut item.link, Some(href.to_owned())),
                "enclosure" => item.enclosures.extend(enclosure(frame, "href", "length")),
                _ => {}
            },
            None => set_once(&mut item.link, text(frame)),
        },
        "guid" | "id" => set_once(&mut item.guid, text(frame)),
        "description" | "summary" => set_once(&mut item.description, text(frame)),
        "content:encoded" | "content" => set_once(&mut item.content_encoded, text(frame)),
        "itunes:summary" => set_once(&mut item.summary, text(frame)),
        "itunes:subtitle" => set_once(&mut item.subtitle, text(frame)),
        "pubdate" | "published" | "dc:date" => set_once(&mut item.pub_date, text(frame)),
        "updated" | "dc:modified" => set_once(&mut item.updated, text(frame)),
        "enclosure" => item.enclosures.extend(enclosure(frame, "url", "length")),
        "media:content" => item
            .media_contents
            .extend(enclosure(frame, "url", "filesize")),
        "itunes:duration" => set_once(&mut item.duration, text(frame)),
        "itunes:image" | "googleplay:image" => {
            set_once(&mut item.itunes_image, href_or_text(frame))
        }
        "media:thumbnail" => set_once(&mut item.media_thumbnail, frame.owned_attribute("url")),
        "itunes:season" => set_once(&mut item.itunes_season, text(frame)),
        "itunes:episode" => set_once(&mut item.itunes_episode, text(frame)),
        "itunes:episodetype" => set_once(
            &mut item.episode_type,
            text(frame).map(|t| t.to_ascii_lowercase()),
        ),
        "itunes:explicit" if item.explicit.is_none() => {
            item.explicit = text(frame).as_deref().and_then(yes_no);
        }
        "itunes:keywords" | "media:keywords" => item
            .keywords
            .extend(text(frame).as_deref().map(keywords).unwrap_or_default()),
        "category" => item
            .categories
            .extend(frame.owned_attribute("term").or_else(|| text(frame))),
        "itunes:author" | "author" | "dc:creator" => set_once(&mut item.author, text(frame)),
        "itunes:block" => {
            item.itunes_block |= text(frame).as_deref().and_then(yes_no).unwrap_or(false)
        }
        "podcast:transcript" => item
            .transcripts
            .extend(frame.owned_attribute("url").map(|url| TranscriptTag {
                url,
                mime_type: frame.owned_attribute("type"),
                language: frame.owned_attribute("language"),
                rel: frame.owned_attribute("rel"),
            })),
        "podcast:chapters" if item.chapters.is_none() => {
            item.chapters = frame.owned_attribute("url").map(|url| Chapters {
                url,
                mime_type: frame.owned_attribute("type"),
            });
        }
        "podcast:person" => item.persons.extend(person(frame)),
        "podcast:location" if item.location.is_none() => {
            item.location = location(frame);
        }
        "podcast:funding" => item.funding.extend(funding(frame)),
        "podcast:socialinteract" => item.social_interact.push(social_interact(frame)),
        "podcast:txt" => item.txt.extend(txt(frame)),
        "podcast:license" if item.license.is_none() => {
            item.license = license(frame);
        }
        "podcast:season" => {
            item.season = Some(Season {
                number: text(frame),
                name: frame.owned_attribute("name"),
            })
        }
        "podcast:episode" => {
            item.episode = Some(EpisodeNumber {
                number: text(frame),
                display: frame.owned_attribute("display"),
            })
        }
        "podcast:images" => item.images.extend(
            frame
                .attribute("srcset")
                .map(srcset_urls)
                .unwrap_or_default(),
        ),
        _ => {}
    }
}
