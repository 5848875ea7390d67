//! A show's contact points: email addresses, phone numbers, social profile URLs of
//! the 25 platforms and podcast directory URLs of the 24 directories, each in a shape
//! the platform really uses and that passes the specification's profile rules.

use podlens_model::{DirectoryKind, SocialKind};

use super::rng::{BASE62, LOWER_ALNUM, Rng};
use super::text::ascii_fold;

/// How an email address is written on the show's contact page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmailStyle {
    /// A `mailto:` link showing the address.
    Plain,
    /// Text like `name [at] domain [dot] com`, no link.
    AtDot,
    /// `mailto:` link and text written as numeric character references.
    Entities,
    /// A percent-encoded `mailto:` link whose text does not show the address.
    Percent,
}

impl EmailStyle {
    pub fn as_str(self) -> &'static str {
        match self {
            EmailStyle::Plain => "plain",
            EmailStyle::AtDot => "at-dot",
            EmailStyle::Entities => "entities",
            EmailStyle::Percent => "percent",
        }
    }
}

/// A phone number as written on a page and in E.164 form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phone {
    pub display: String,
    pub e164: String,
}

/// One to three addresses, each with how the contact page writes it.
pub fn emails(
    rng: &mut Rng,
    hosts: &[String],
    handle: &str,
    domain: &str,
) -> Vec<(String, EmailStyle)> {
    let host_first = hosts
        .first()
        .and_then(|name| name.split_whitespace().next())
        .map(|first| ascii_fold(first).to_ascii_lowercase())
        .filter(|first| first.chars().all(|c| c.is_ascii_lowercase()) && !first.is_empty())
        .unwrap_or_else(|| "host".to_string());
    let candidates = [
        format!("hello@{domain}"),
        format!("{host_first}@{domain}"),
        format!("booking@{domain}"),
        format!("{handle}@gmail.com"),
        format!("sponsorships@{domain}"),
        format!("contact@{domain}"),
    ];
    let count = *rng.weighted(&[(1usize, 50), (2, 35), (3, 15)]);
    rng.sample_indices(candidates.len(), count)
        .into_iter()
        .map(|i| {
            let style = *rng.weighted(&[
                (EmailStyle::Plain, 55),
                (EmailStyle::AtDot, 20),
                (EmailStyle::Entities, 15),
                (EmailStyle::Percent, 10),
            ]);
            (candidates[i].clone(), style)
        })
        .collect()
}

/// Zero to two phone numbers in the formats of the show's country (fictional ranges:
/// 555-01xx in North America, Ofcom's drama numbers in the UK, 5550 in Australia).
pub fn phones(rng: &mut Rng, country: Option<&str>) -> Vec<Phone> {
    let count = *rng.weighted(&[(0usize, 45), (1, 45), (2, 10)]);
    (0..count)
        .map(|_| phone(rng, country.unwrap_or("US")))
        .collect()
}

fn phone(rng: &mut Rng, country: &str) -> Phone {
    match country {
        "GB" => {
            let line = rng.between(0, 999);
            Phone {
                display: format!("+44 20 7946 0{line:03}"),
                e164: format!("+442079460{line:03}"),
            }
        }
        "AU" => {
            let line = rng.between(0, 9999);
            Phone {
                display: format!("+61 2 5550 {line:04}"),
                e164: format!("+6125550{line:04}"),
            }
        }
        "DE" => {
            let line = rng.between(1_000_000, 9_999_999);
            Phone {
                display: format!("+49 30 {line}"),
                e164: format!("+4930{line}"),
            }
        }
        _ => {
            let area = *rng.pick(&[212, 312, 415, 512, 615, 206, 303, 404, 617, 702]);
            let line = rng.between(100, 199);
            let e164 = format!("+1{area}5550{line}");
            let display = match rng.below(4) {
                0 => format!("({area}) 555-0{line}"),
                1 => format!("+1 {area}-555-0{line}"),
                2 => format!("{area}.555.0{line}"),
                _ => format!("+1 ({area}) 555-0{line}"),
            };
            Phone { display, e164 }
        }
    }
}

/// Social profiles: zero to ten distinct platforms, common ones more often.
pub fn socials(rng: &mut Rng, handle: &str, phones: &[Phone]) -> Vec<(SocialKind, String)> {
    const WEIGHTS: &[(SocialKind, u32)] = &[
        (SocialKind::Twitter, 30),
        (SocialKind::Instagram, 30),
        (SocialKind::Facebook, 25),
        (SocialKind::Youtube, 25),
        (SocialKind::Tiktok, 15),
        (SocialKind::Linkedin, 12),
        (SocialKind::Patreon, 10),
        (SocialKind::Discord, 8),
        (SocialKind::Threads, 8),
        (SocialKind::Linktree, 6),
        (SocialKind::Bluesky, 6),
        (SocialKind::Mastodon, 5),
        (SocialKind::Reddit, 5),
        (SocialKind::Substack, 5),
        (SocialKind::Twitch, 4),
        (SocialKind::Soundcloud, 4),
        (SocialKind::Medium, 3),
        (SocialKind::Github, 3),
        (SocialKind::Pinterest, 3),
        (SocialKind::Vimeo, 3),
        (SocialKind::Snapchat, 2),
        (SocialKind::Tumblr, 2),
        (SocialKind::Whatsapp, 2),
        (SocialKind::Beehiiv, 2),
        (SocialKind::Behance, 1),
    ];
    let count = *rng.weighted(&[
        (0usize, 8),
        (1, 10),
        (2, 15),
        (3, 20),
        (4, 15),
        (5, 12),
        (6, 8),
        (8, 7),
        (10, 5),
    ]);
    let mut chosen: Vec<SocialKind> = Vec::with_capacity(count);
    let mut attempts = 0;
    while chosen.len() < count && attempts < 200 {
        attempts += 1;
        let kind = *rng.weighted(WEIGHTS);
        if !chosen.contains(&kind) {
            chosen.push(kind);
        }
    }
    chosen.sort();
    chosen
        .into_iter()
        .map(|kind| (kind, social_url(rng, kind, handle, phones)))
        .collect()
}

/// A profile URL of `kind` for `handle` (letters then digits, 5-15 characters).
pub fn social_url(rng: &mut Rng, kind: SocialKind, handle: &str, phones: &[Phone]) -> String {
    match kind {
        SocialKind::Beehiiv => format!("https://{handle}.beehiiv.com/"),
        SocialKind::Behance => format!("https://www.behance.net/{handle}"),
        SocialKind::Bluesky => format!("https://bsky.app/profile/{handle}.bsky.social"),
        SocialKind::Discord => format!("https://discord.gg/{}", rng.string_from(BASE62, 8)),
        SocialKind::Facebook => format!("https://www.facebook.com/{handle}"),
        SocialKind::Github => format!("https://github.com/{handle}"),
        SocialKind::Instagram => format!("https://www.instagram.com/{handle}/"),
        SocialKind::Linkedin => format!("https://www.linkedin.com/company/{handle}"),
        SocialKind::Linktree => format!("https://linktr.ee/{handle}"),
        SocialKind::Mastodon => format!("https://mastodon.social/@{handle}"),
        SocialKind::Medium => format!("https://medium.com/@{handle}"),
        SocialKind::Patreon => format!("https://www.patreon.com/{handle}"),
        SocialKind::Pinterest => format!("https://www.pinterest.com/{handle}/"),
        SocialKind::Reddit => format!("https://www.reddit.com/r/{handle}/"),
        SocialKind::Snapchat => format!("https://www.snapchat.com/add/{handle}"),
        SocialKind::Soundcloud => format!("https://soundcloud.com/{handle}"),
        SocialKind::Substack => format!("https://{handle}.substack.com"),
        SocialKind::Threads => format!("https://www.threads.net/@{handle}"),
        SocialKind::Tiktok => format!("https://www.tiktok.com/@{handle}"),
        SocialKind::Tumblr => format!("https://{handle}.tumblr.com"),
        SocialKind::Twitch => format!("https://www.twitch.tv/{handle}"),
        SocialKind::Twitter => {
            let host = if rng.chance(0.4) {
                "x.com"
            } else {
                "twitter.com"
            };
            format!("https://{host}/{handle}")
        }
        SocialKind::Vimeo => format!("https://vimeo.com/{handle}"),
        SocialKind::Whatsapp => match phones.first() {
            Some(phone) => format!("https://wa.me/{}", phone.e164.trim_start_matches('+')),
            None => format!(
                "https://whatsapp.com/channel/{}",
                rng.string_from(BASE62, 24)
            ),
        },
        SocialKind::Youtube => {
            if rng.chance(0.7) {
                format!("https://www.youtube.com/@{handle}")
            } else {
                format!(
                    "https://www.youtube.com/channel/UC{}",
                    rng.string_from(BASE62, 22)
                )
            }
        }
    }
}

/// Directory listings: Apple and Spotify when the show has their ids, plus up to six
/// of the other 22 directories.
pub fn directories(
    rng: &mut Rng,
    slug: &str,
    handle: &str,
    apple_id: Option<u64>,
    spotify_id: Option<&str>,
    feed_url: &str,
) -> Vec<(DirectoryKind, String)> {
    let mut links = Vec::new();
    if let Some(id) = apple_id {
        links.push((
            DirectoryKind::Apple,
            format!("https://podcasts.apple.com/us/podcast/{slug}/id{id}"),
        ));
    }
    if let Some(id) = spotify_id {
        links.push((
            DirectoryKind::Spotify,
            format!("https://open.spotify.com/show/{id}"),
        ));
    }
    let others: Vec<DirectoryKind> = DirectoryKind::ALL
        .iter()
        .copied()
        .filter(|kind| !matches!(kind, DirectoryKind::Apple | DirectoryKind::Spotify))
        .collect();
    let count = rng.between(0, 6) as usize;
    for i in rng.sample_indices(others.len(), count) {
        let kind = others[i];
        let url = directory_url(rng, kind, slug, handle, apple_id, feed_url);
        links.push((kind, url));
    }
    links.sort_by_key(|(kind, _)| *kind);
    links
}

fn directory_url(
    rng: &mut Rng,
    kind: DirectoryKind,
    slug: &str,
    handle: &str,
    apple_id: Option<u64>,
    feed_url: &str,
) -> String {
    let uuid = |rng: &mut Rng| {
        let bytes: [u8; 16] =
            (u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())).to_be_bytes();
        uuid::Builder::from_random_bytes(bytes)
            .into_uuid()
            .to_string()
    };
    let itunes_id = apple_id.map_or_else(|| rng.digits(10), |id| id.to_string());
    match kind {
        DirectoryKind::Anchor => format!("https://anchor.fm/{handle}"),
        DirectoryKind::Amazonmusic => {
            format!("https://music.amazon.com/podcasts/{}/{slug}", uuid(rng))
        }
        DirectoryKind::Audible => format!(
            "https://www.audible.com/podcast/{slug}/B0{}",
            rng.string_from(b"ABCDEFGHJKLMNPQRSTUVWXYZ0123456789", 8)
        ),
        DirectoryKind::Castbox => format!("https://castbox.fm/channel/id{}", rng.digits(7)),
        DirectoryKind::Castro => format!("https://castro.fm/podcast/{}", uuid(rng)),
        DirectoryKind::Goodpods => {
            format!("https://goodpods.com/podcasts/{slug}-{}", rng.digits(6))
        }
        DirectoryKind::Google => format!(
            "https://podcasts.google.com/feed/{}",
            base64_url(feed_url.as_bytes())
        ),
        DirectoryKind::Iheartradio => {
            format!("https://www.iheart.com/podcast/{}-{slug}/", rng.digits(9))
        }
        DirectoryKind::Listennotes => format!(
            "https://www.listennotes.com/podcasts/{slug}-{}/",
            rng.string_from(BASE62, 11)
        ),
        DirectoryKind::Overcast => format!("https://overcast.fm/itunes{itunes_id}"),
        DirectoryKind::Playerfm => format!("https://player.fm/series/{slug}"),
        DirectoryKind::Pocketcasts => format!("https://pca.st/{}", rng.string_from(LOWER_ALNUM, 8)),
        DirectoryKind::Podbean => format!(
            "https://www.podbean.com/podcast-detail/{}/{slug}",
            rng.string_from(LOWER_ALNUM, 5)
        ),
        DirectoryKind::Podcastaddict => {
            format!("https://podcastaddict.com/podcast/{}", rng.digits(7))
        }
        DirectoryKind::Podcastrepublic => {
            format!("https://www.podcastrepublic.net/podcast/{itunes_id}")
        }
        DirectoryKind::Podchaser => format!(
            "https://www.podchaser.com/podcasts/{slug}-{}",
            rng.digits(7)
        ),
        DirectoryKind::Podnews => format!(
            "https://podnews.net/podcast/{}",
            rng.string_from(LOWER_ALNUM, 5)
        ),
        DirectoryKind::Podscan => format!(
            "https://podscan.fm/podcasts/{}",
            rng.string_from(LOWER_ALNUM, 12)
        ),
        DirectoryKind::Podscribe => format!("https://app.podscribe.com/series/{}", rng.digits(7)),
        DirectoryKind::Radiopublic => format!(
            "https://radiopublic.com/{slug}-{}",
            rng.string_from(BASE62, 6)
        ),
        DirectoryKind::Rephonic => format!("https://rephonic.com/podcasts/{slug}"),
        DirectoryKind::Tunein => format!(
            "https://tunein.com/podcasts/Podcasts/{slug}-p{}/",
            rng.digits(7)
        ),
        DirectoryKind::Apple => {
            format!("https://podcasts.apple.com/us/podcast/{slug}/id{itunes_id}")
        }
        DirectoryKind::Spotify => format!(
            "https://open.spotify.com/show/{}",
            rng.string_from(BASE62, 22)
        ),
    }
}

/// URL-safe base64 without padding (how Google Podcasts encoded feed URLs).
fn base64_url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + 4);
    for chunk in bytes.chunks(3) {
        let value = chunk.iter().enumerate().fold(0u32, |acc, (i, byte)| {
            acc | u32::from(*byte) << (16 - 8 * i)
        });
        for sextet in 0..=chunk.len() {
            out.push(char::from(
                ALPHABET[(value >> (18 - 6 * sextet) & 63) as usize],
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_known_values() {
        assert_eq!(base64_url(b"Man"), "TWFu");
        assert_eq!(base64_url(b"Ma"), "TWE");
        assert_eq!(base64_url(b"M"), "TQ");
        assert_eq!(base64_url(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn every_social_kind_has_an_https_profile_url() {
        let mut rng = Rng::new(1);
        let phones = [Phone {
            display: "(512) 555-0147".into(),
            e164: "+15125550147".into(),
        }];
        for kind in SocialKind::ALL {
            let url = social_url(&mut rng, *kind, "crimehour42", &phones);
            assert!(url.starts_with("https://"), "{url}");
            assert!(url.len() > "https://x.com/".len());
        }
    }

    #[test]
    fn every_directory_kind_has_a_url() {
        let mut rng = Rng::new(2);
        for kind in DirectoryKind::ALL {
            let url = directory_url(
                &mut rng,
                *kind,
                "crime-hour",
                "crimehour42",
                Some(1_234_567_890),
                "http://h/f.xml",
            );
            assert!(url.starts_with("https://"), "{url}");
        }
    }

    #[test]
    fn north_american_phones_agree_with_their_e164_form() {
        let mut rng = Rng::new(3);
        for _ in 0..50 {
            let phone = phone(&mut rng, "US");
            let digits: String = phone.display.chars().filter(char::is_ascii_digit).collect();
            assert!(
                phone.e164.ends_with(digits.trim_start_matches('1')),
                "{phone:?}"
            );
            assert_eq!(phone.e164.len(), 12);
        }
    }
}
