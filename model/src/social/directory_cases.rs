//! Directory links of the 24 directories: podcast pages accepted with their ids,
//! everything else on the same hosts ignored.

use super::*;
use crate::kinds::DirectoryKind::{self, *};

/// (link, directory, id)
#[rustfmt::skip]
const PODCAST_PAGES: &[(&str, DirectoryKind, &str)] = &[
    ("https://podcasts.apple.com/gb/podcast/rupert-the-last-mogul/id1705358287", Apple, "1705358287"),
    ("https://podcasts.apple.com/au/podcast/interview-emerald-fennell-saltburn-and-andrew-scott/id1042433465?i=1000636782307", Apple, "1042433465"),
    ("https://podcasts.apple.com/us/podcast/seand%C3%A1la%C3%ADocht/id1000713602", Apple, "1000713602"),
    ("https://itunes.apple.com/us/podcast/the-daily/id1200361736?mt=2", Apple, "1200361736"),
    ("https://itunes.apple.com/WebObjects/MZStore.woa/wa/viewPodcast?id=1200361736", Apple, "1200361736"),
    ("https://podcasts.apple.com/podcast/id1200361736", Apple, "1200361736"),
    ("https://open.spotify.com/show/1Zuurv8AZFWti60lSXiDgz", Spotify, "1Zuurv8AZFWti60lSXiDgz"),
    ("https://open.spotify.com/show/4ex8hmrHCPvPohKJb3wsu0?si=6b6URtV4TAyM81QT2uUWtA", Spotify, "4ex8hmrHCPvPohKJb3wsu0"),
    ("https://open.spotify.com/intl-de/show/1Zuurv8AZFWti60lSXiDgz", Spotify, "1Zuurv8AZFWti60lSXiDgz"),
    ("https://open.spotify.com/embed/show/1Zuurv8AZFWti60lSXiDgz", Spotify, "1Zuurv8AZFWti60lSXiDgz"),
    ("https://anchor.fm/cwfp/support", Anchor, "cwfp"),
    ("https://anchor.fm/the-daily-show", Anchor, "the-daily-show"),
    ("https://podcasters.spotify.com/pod/show/thedaily", Anchor, "thedaily"),
    ("https://music.amazon.com/podcasts/a0aa8069-39d8-4995-8ec7-96cecf669b79/Build-Your-SaaS-bootstrap-in-2020", Amazonmusic, "a0aa8069-39d8-4995-8ec7-96cecf669b79"),
    ("https://music.amazon.ca/podcasts/fbe63977-5737-4910-a067-1745b99fae36/canadian-true-crime", Amazonmusic, "fbe63977-5737-4910-a067-1745b99fae36"),
    ("https://www.audible.com/pd/The-Daily-Show-Podcast/B08JJQ8H9Y", Audible, "B08JJQ8H9Y"),
    ("https://www.audible.co.uk/podcast/Some-Show/B0ABCDEFGH", Audible, "B0ABCDEFGH"),
    ("https://castbox.fm/ch/3005040", Castbox, "3005040"),
    ("https://castbox.fm/channel/The-Daily-id1234567?country=us", Castbox, "1234567"),
    ("https://castbox.fm/channel/id2331401", Castbox, "2331401"),
    ("https://castbox.fm/episode/Some-Title-id2331401-id987654321", Castbox, "2331401"),
    ("https://castro.fm/podcast/9b0a7f4e-1234-4c56-89ab-0123456789ab", Castro, "9b0a7f4e-1234-4c56-89ab-0123456789ab"),
    ("https://castro.fm/itunes/1200361736", Castro, "1200361736"),
    ("https://goodpods.com/podcasts/the-daily-12345", Goodpods, "12345"),
    ("https://goodpods.com/podcasts/the-daily", Goodpods, "the-daily"),
    ("https://podcasts.google.com/feed/aHR0cHM6Ly9mZWVkcy50cmFuc2lzdG9yLmZtL2J1aWxkLXlvdXItc2Fhcw==", Google, "aHR0cHM6Ly9mZWVkcy50cmFuc2lzdG9yLmZtL2J1aWxkLXlvdXItc2Fhcw=="),
    ("https://podcasts.google.com/?feed=aHR0cHM6Ly9mZWVk", Google, "aHR0cHM6Ly9mZWVk"),
    ("https://www.google.com/podcasts?feed=aHR0cHM6Ly9mZWVk", Google, "aHR0cHM6Ly9mZWVk"),
    ("https://www.iheart.com/podcast/105-stuff-you-should-know-26940277/", Iheartradio, "26940277"),
    ("https://www.listennotes.com/podcasts/the-daily-the-new-york-Mp8r1_Kfv6s/", Listennotes, "the-daily-the-new-york-Mp8r1_Kfv6s"),
    ("https://overcast.fm/itunes1206165808/the-indie-hackers-podcast", Overcast, "1206165808"),
    ("https://overcast.fm/itunes1357295850", Overcast, "1357295850"),
    ("https://player.fm/series/indie-hackers-2702671", Playerfm, "indie-hackers-2702671"),
    ("https://player.fm/series/awards-chatter-1401973/keira-knightley-colette", Playerfm, "awards-chatter-1401973"),
    ("https://player.fm/series/coding-blocks.json", Playerfm, "coding-blocks"),
    ("http://pca.st/planetmoney", Pocketcasts, "planetmoney"),
    ("https://pca.st/9NRE", Pocketcasts, "9NRE"),
    ("https://play.pocketcasts.com/podcasts/9b0a7f4e-1234-4c56-89ab-0123456789ab", Pocketcasts, "9b0a7f4e-1234-4c56-89ab-0123456789ab"),
    ("https://diluteddumbness.podbean.com/", Podbean, "diluteddumbness"),
    ("https://ShinySquirrelPodcast.podbean.com/", Podbean, "shinysquirrelpodcast"),
    ("https://www.podbean.com/podcast-detail/abc12-3de45/Some-Show", Podbean, "abc12-3de45"),
    ("https://podcastaddict.com/podcast/2937261", Podcastaddict, "2937261"),
    ("https://podcastaddict.com/podcast/the-daily/2937261", Podcastaddict, "2937261"),
    ("https://www.podcastrepublic.net/podcast/1200361736", Podcastrepublic, "1200361736"),
    ("https://www.podchaser.com/podcasts/american-presidents-totalus-ra-626241", Podchaser, "626241"),
    ("https://podnews.net/podcast/i2tq", Podnews, "i2tq"),
    ("https://podscan.fm/podcasts/pd_abc123", Podscan, "pd_abc123"),
    ("https://app.podscribe.ai/series/2267", Podscribe, "2267"),
    ("https://radiopublic.com/the-daily-WRQZ9n", Radiopublic, "WRQZ9n"),
    ("https://rephonic.com/podcasts/the-daily", Rephonic, "the-daily"),
    ("https://tunein.com/podcasts/News--Politics-Podcasts/The-Daily-p1076923/", Tunein, "p1076923"),
    ("https://tunein.com/radio/Some-Show-p12345/", Tunein, "p12345"),
];

/// Links on directory hosts (or look-alikes) that are not podcast pages.
#[rustfmt::skip]
const NOT_PODCAST_PAGES: &[&str] = &[
    "https://podcasts.apple.com/",
    "https://itunes.apple.com/app/world-timezlider-convert-time/id604372284?mt=8",
    "http://itunes.apple.com/fr/book/le-puits-des-memoires/id531633513?mt=11",
    "https://applehosted.podcasts.apple.com/eaas/de/filmmaker/victoria/cover_art.jpg",
    "https://podcasts.apple.com/us/channel/the-athletic/id6442463895",
    "https://open.spotify.com/episode/0185UMokTv1iEAW1GC91bC",
    "https://open.spotify.com/album/6Wf3fqCoGcOYah2lTcwyAA",
    "https://open.spotify.com/show/tooShort", "https://spoti.fi/4f2rizq",
    "https://anchor.fm/s/19346b24/podcast/rss", "https://anchor.fm/",
    "https://music.amazon.com/albums/B0B1234567",
    "https://www.audible.com.au/pd/The-Woman-in-Me-Audiobook/B0BRBPCFVH",
    "http://audible.com/unlicensed", "https://castbox.fm/?utm_source=podnews.net",
    "https://podcasts.google.com/", "https://news.iheart.com/podcast-advertisers",
    "https://overcast.fm/", "https://overcast.fm/+ABCdef123", "https://player.fm/",
    "https://www.pocketcasts.com/",
    "https://javascriptair.podbean.com/mf/feed/z82wud/episode5.mp3",
    "https://diluteddumbness.podbean.com/feed.xml",
    "https://pbcdn1.podbean.com/imglogo/image-logo/771143/EISTD.jpg",
    "https://www.podchaser.com/?utm_source=podnews.net",
    "https://www.podchaser.com/creators/james-cridland-107Zzj6lDG",
    "https://podnews.net/update/iheart-triton", "https://podnews.net/audio/podnews210127.mp3",
    "https://podscribe.ai/?utm_source=podnews.net", "https://radiopublic.com/about",
    "https://tunein.com/", "https://twitter.com/npr",
];

#[test]
fn podcast_pages_are_recognised_with_their_ids() {
    for (link, kind, id) in PODCAST_PAGES {
        let found =
            classify_directory_url(link).unwrap_or_else(|| panic!("{link}: not recognised"));
        assert_eq!((found.kind, found.id.as_str()), (*kind, *id), "{link}");
        assert!(
            found.url.starts_with("https://") && !found.url.contains('?'),
            "{}",
            found.url
        );
        let again = classify_directory_url(&found.url)
            .unwrap_or_else(|| panic!("{}: canonical lost", found.url));
        assert_eq!(again, found, "{link}");
    }
}

#[test]
fn other_pages_are_not_directory_links() {
    for link in NOT_PODCAST_PAGES {
        assert_eq!(classify_directory_url(link), None, "{link}");
    }
}

#[test]
fn every_directory_has_a_case() {
    for kind in DirectoryKind::ALL {
        assert!(PODCAST_PAGES.iter().any(|(_, k, _)| k == kind), "{kind}");
    }
}

#[test]
fn apple_and_spotify_ids() {
    assert_eq!(
        apple_podcast_id("https://podcasts.apple.com/us/podcast/the-daily/id1200361736").as_deref(),
        Some("1200361736")
    );
    assert_eq!(
        apple_podcast_id("https://overcast.fm/itunes1206165808/the-indie-hackers-podcast")
            .as_deref(),
        Some("1206165808")
    );
    assert_eq!(
        apple_podcast_id("https://castro.fm/itunes/1200361736").as_deref(),
        Some("1200361736")
    );
    assert_eq!(
        apple_podcast_id("https://itunes.apple.com/app/layout-from-instagram/id967351793"),
        None
    );
    assert_eq!(
        apple_podcast_id("https://open.spotify.com/show/1Zuurv8AZFWti60lSXiDgz"),
        None
    );
    assert_eq!(
        spotify_show_id("spotify:show:1Zuurv8AZFWti60lSXiDgz").as_deref(),
        Some("1Zuurv8AZFWti60lSXiDgz")
    );
    assert_eq!(spotify_show_id("spotify:show:short"), None);
    assert_eq!(
        spotify_show_id("https://open.spotify.com/show/1Zuurv8AZFWti60lSXiDgz?si=abc").as_deref(),
        Some("1Zuurv8AZFWti60lSXiDgz")
    );
    assert_eq!(
        spotify_show_id("https://open.spotify.com/episode/0185UMokTv1iEAW1GC91bC"),
        None
    );
    assert_eq!(
        spotify_show_id("https://podcasts.apple.com/us/podcast/x/id1"),
        None
    );
}
