//! End-to-end tests of `podlens generate`: the real generator writes a corpus into a
//! directory, and every check reads the files back with independent code (an XML
//! parser, plain substring counts, JSON parsing) and compares with the manifest.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use podlens_tools::generate::{GenerateOptions, generate};
use quick_xml::events::Event;
use serde_json::Value;

const PODCASTS: usize = 600;
const SEED: u64 = 7;
const CHART_DAYS: u32 = 6;
const BASE_URL: &str = "http://127.0.0.1:8900";

/// One corpus shared by the tests of this file.
fn corpus() -> &'static (PathBuf, Value) {
    static CORPUS: OnceLock<(PathBuf, Value)> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("generate-corpus");
        let options = GenerateOptions {
            podcasts: PODCASTS,
            seed: SEED,
            out: out.clone(),
            base_url: BASE_URL.to_string(),
            transcript_share: 0.1,
            chart_days: CHART_DAYS,
            as_of: None,
        };
        let summary = generate(&options, &|| {}).expect("corpus generates");
        assert_eq!(summary.podcasts, PODCASTS as u64);
        let manifest: Value =
            serde_json::from_slice(&std::fs::read(out.join("manifest.json")).expect("manifest"))
                .expect("manifest is JSON");
        (out, manifest)
    })
}

fn podcasts(manifest: &Value) -> &Vec<Value> {
    manifest["podcasts"].as_array().expect("podcasts array")
}

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or_default()
}

/// What a strict reading of a feed finds.
#[derive(Debug, Default)]
struct FeedFacts {
    items: usize,
    channel_title: String,
    channel_link: String,
    transcript_urls: Vec<String>,
    durations: Vec<String>,
}

/// Reads a feed as XML 1.0 requires: balanced tags, one root, and only the five
/// predefined entities or character references. `Err` when it is not well-formed.
fn read_feed(bytes: &[u8]) -> Result<FeedFacts, String> {
    let mut reader = quick_xml::Reader::from_reader(bytes);
    let mut buf = Vec::new();
    let mut facts = FeedFacts::default();
    let mut path: Vec<Vec<u8>> = Vec::new();
    let mut roots = 0;
    loop {
        let event = reader
            .read_event_into(&mut buf)
            .map_err(|error| error.to_string())?;
        let in_channel_field =
            |name: &[u8]| path.len() == 3 && path[1] == b"channel" && path[2] == name;
        match event {
            Event::Start(start) => {
                if path.is_empty() {
                    roots += 1;
                }
                check_attributes(&start, reader.decoder())?;
                let name = start.name().as_ref().to_vec();
                if name == b"item" {
                    facts.items += 1;
                }
                path.push(name);
            }
            Event::Empty(empty) => {
                check_attributes(&empty, reader.decoder())?;
                let name = empty.name().as_ref().to_vec();
                if name == b"podcast:transcript" {
                    for attribute in empty.attributes() {
                        let attribute = attribute.map_err(|error| error.to_string())?;
                        if attribute.key.as_ref() == b"url" {
                            let value = attribute
                                .decode_and_unescape_value(reader.decoder())
                                .map_err(|e| e.to_string())?;
                            facts.transcript_urls.push(value.into_owned());
                        }
                    }
                }
            }
            Event::End(_) => {
                path.pop();
            }
            Event::Text(content) => {
                let decoded = content
                    .decode()
                    .map_err(|error| error.to_string())?
                    .into_owned();
                if in_channel_field(b"title") {
                    facts.channel_title.push_str(&decoded);
                } else if in_channel_field(b"link") {
                    facts.channel_link.push_str(&decoded);
                } else if path.last().is_some_and(|name| name == b"itunes:duration") {
                    facts.durations.push(decoded);
                }
            }
            Event::GeneralRef(reference) => {
                let resolved = if reference.is_char_ref() {
                    reference
                        .resolve_char_ref()
                        .map_err(|error| error.to_string())?
                } else {
                    let name = reference.decode().map_err(|error| error.to_string())?;
                    quick_xml::escape::resolve_predefined_entity(&name)
                        .and_then(|value| value.chars().next())
                };
                let Some(character) = resolved else {
                    return Err(format!(
                        "undefined entity &{};",
                        String::from_utf8_lossy(&reference)
                    ));
                };
                if in_channel_field(b"title") {
                    facts.channel_title.push(character);
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    if !path.is_empty() || roots != 1 {
        return Err(format!(
            "unbalanced document: {} open elements, {roots} roots",
            path.len()
        ));
    }
    Ok(facts)
}

fn check_attributes(
    start: &quick_xml::events::BytesStart<'_>,
    decoder: quick_xml::encoding::Decoder,
) -> Result<(), String> {
    for attribute in start.attributes() {
        let attribute = attribute.map_err(|error| error.to_string())?;
        attribute
            .decode_and_unescape_value(decoder)
            .map_err(|error| error.to_string())?;
    }
    Ok(())
}

#[test]
fn well_formed_feeds_parse_and_match_the_manifest() {
    let (out, manifest) = corpus();
    let mut well_formed = 0;
    let mut malformed = 0;
    let mut latin1 = 0;
    for podcast in podcasts(manifest) {
        let bytes = std::fs::read(out.join(text(&podcast["feedFile"]))).expect("feed file exists");
        let episodes = podcast["episodes"].as_u64().expect("episodes") as usize;
        // A second, parser-free count of the items.
        let raw_items = String::from_utf8_lossy(&bytes).matches("<item>").count();
        assert_eq!(raw_items, episodes, "{}", podcast["feedFile"]);
        // Counted before the malformed ones are set aside: a feed can be both.
        if text(&podcast["encoding"]) == "ISO-8859-1" {
            latin1 += 1;
            assert!(bytes.starts_with(b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>"));
        }
        if podcast["wellFormed"].as_bool() == Some(false) {
            malformed += 1;
            let error =
                read_feed(&bytes).expect_err("a deliberately broken feed fails strict parsing");
            assert!(error.contains("nbsp"), "{error}");
            continue;
        }
        well_formed += 1;
        let facts =
            read_feed(&bytes).unwrap_or_else(|error| panic!("{}: {error}", podcast["feedFile"]));
        assert_eq!(facts.items, episodes, "{}", podcast["feedFile"]);
        assert_eq!(
            facts.channel_title,
            text(&podcast["title"]),
            "{}",
            podcast["feedFile"]
        );
        assert_eq!(facts.channel_link, text(&podcast["siteUrl"]));
        assert_eq!(
            facts.transcript_urls.len() as u64,
            podcast["transcripts"].as_u64().unwrap_or(0)
        );
        for url in &facts.transcript_urls {
            let relative = url
                .strip_prefix(&format!("{BASE_URL}/"))
                .expect("transcript served from the base URL");
            assert!(out.join(relative).is_file(), "{url}");
        }
        for duration in &facts.durations {
            let seconds =
                duration_seconds(duration).unwrap_or_else(|| panic!("duration {duration:?}"));
            assert!((300..=10_800).contains(&seconds), "{duration}");
        }
    }
    let counts = &manifest["counts"];
    assert_eq!(counts["wellFormedFeeds"].as_u64(), Some(well_formed));
    assert_eq!(counts["malformedFeeds"].as_u64(), Some(malformed));
    assert_eq!(counts["latin1Feeds"].as_u64(), Some(latin1));
    assert!(
        malformed >= 1 && malformed * 20 < PODCASTS as u64,
        "{malformed} malformed feeds"
    );
    assert!(latin1 >= 1, "no ISO-8859-1 feed in the corpus");
    assert_eq!(
        std::fs::read_dir(out.join("feeds")).expect("feeds").count(),
        PODCASTS
    );
}

/// `itunes:duration` as seconds: `SSSS`, `MM:SS` or `HH:MM:SS`.
fn duration_seconds(text: &str) -> Option<u64> {
    text.split(':').try_fold(0u64, |total, part| {
        Some(total * 60 + part.parse::<u64>().ok()?)
    })
}

#[test]
fn broken_dates_are_reported_and_present() {
    let (out, manifest) = corpus();
    let mut feeds_with_broken_dates = 0;
    for podcast in podcasts(manifest) {
        let broken = podcast["brokenDates"].as_u64().unwrap_or(0);
        let feed = std::fs::read(out.join(text(&podcast["feedFile"]))).expect("feed");
        let feed = String::from_utf8_lossy(&feed);
        let invalid = feed
            .split("<pubDate>")
            .skip(1)
            .filter_map(|rest| rest.split("</pubDate>").next())
            .filter(|date| !is_rfc822(date))
            .count() as u64;
        // A wrong weekday looks valid to this check, so it may count fewer.
        assert!(
            invalid <= broken,
            "{}: {invalid} > {broken}",
            podcast["feedFile"]
        );
        if broken == 0 {
            assert_eq!(invalid, 0, "{}", podcast["feedFile"]);
        }
        feeds_with_broken_dates += u64::from(broken > 0);
    }
    assert!(feeds_with_broken_dates >= 3, "{feeds_with_broken_dates}");
    assert_eq!(
        manifest["counts"]["feedsWithBrokenDates"].as_u64(),
        Some(feeds_with_broken_dates)
    );
}

/// `Tue, 10 Jan 2023 10:00:00 +0000` or `... GMT`, with a real calendar day.
fn is_rfc822(date: &str) -> bool {
    let parts: Vec<&str> = date.split(' ').collect();
    if parts.len() != 6 {
        return false;
    }
    let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let day: u32 = parts[1].parse().unwrap_or(0);
    let zone_ok = parts[5] == "GMT" || (parts[5].len() == 5 && parts[5].starts_with(['+', '-']));
    parts[0].ends_with(',')
        && (1..=31).contains(&day)
        && months.contains(&parts[2])
        && parts[4].len() == 8
        && zone_ok
}

#[test]
fn distributions_look_like_real_podcasts() {
    let (_, manifest) = corpus();
    let podcasts = podcasts(manifest);
    let mut episodes: Vec<u64> = podcasts
        .iter()
        .map(|p| p["episodes"].as_u64().expect("episodes"))
        .collect();
    episodes.sort_unstable();
    let total: u64 = episodes.iter().sum();
    let mean = total as f64 / episodes.len() as f64;
    let median = episodes[episodes.len() / 2];
    assert!((35.0..=70.0).contains(&mean), "mean episodes {mean}");
    assert!((12..=35).contains(&median), "median episodes {median}");
    assert!(episodes[0] >= 1 && *episodes.last().expect("max") <= 3000);
    assert!(*episodes.last().expect("max") >= 300, "heavy tail missing");

    let share = |field: &str, value: &str| {
        podcasts.iter().filter(|p| text(&p[field]) == value).count() as f64 / podcasts.len() as f64
    };
    let english = share("language", "en");
    assert!((0.55..=0.70).contains(&english), "english share {english}");
    let languages: BTreeSet<&str> = podcasts.iter().map(|p| text(&p["language"])).collect();
    assert!(languages.len() >= 12, "{languages:?}");
    for cadence in ["daily", "weekly", "bi-weekly", "monthly", "stale"] {
        let cadence_share = share("cadence", cadence);
        assert!(cadence_share >= 0.03, "{cadence}: {cadence_share}");
    }
    let categories: BTreeSet<&str> = podcasts.iter().map(|p| text(&p["category"])).collect();
    assert!(categories.len() >= 17, "{categories:?}");
    let explicit = podcasts
        .iter()
        .filter(|p| p["explicit"].as_bool() == Some(true))
        .count() as f64
        / podcasts.len() as f64;
    assert!(
        (0.08..=0.25).contains(&explicit),
        "explicit share {explicit}"
    );

    let transcripts: u64 = podcasts
        .iter()
        .map(|p| p["transcripts"].as_u64().unwrap_or(0))
        .sum();
    let transcript_share = transcripts as f64 / total as f64;
    assert!(
        (0.085..=0.115).contains(&transcript_share),
        "transcript share {transcript_share}"
    );
    assert_eq!(manifest["counts"]["episodes"].as_u64(), Some(total));
    assert_eq!(
        manifest["counts"]["transcripts"].as_u64(),
        Some(transcripts)
    );
}

#[test]
fn transcripts_exist_and_have_realistic_length() {
    let (out, manifest) = corpus();
    let mut checked = 0;
    for podcast in podcasts(manifest) {
        let index = podcast["index"].as_u64().expect("index");
        let directory = out.join("transcripts").join(index.to_string());
        let expected = podcast["transcripts"].as_u64().unwrap_or(0);
        let files: Vec<PathBuf> = match std::fs::read_dir(&directory) {
            Ok(entries) => entries.map(|entry| entry.expect("entry").path()).collect(),
            Err(_) => Vec::new(),
        };
        assert_eq!(files.len() as u64, expected, "{}", directory.display());
        for file in files.iter().take(3) {
            let body = std::fs::read_to_string(file).expect("transcript is UTF-8");
            let spoken: String = if text(&podcast["transcriptFormat"]) == "vtt" {
                assert!(body.starts_with("WEBVTT\n\n"));
                assert!(body.contains("<v "));
                body.lines()
                    .filter_map(|line| {
                        line.strip_prefix("<v ")
                            .and_then(|rest| rest.split_once('>'))
                            .map(|(_, words)| words)
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            } else {
                body.clone()
            };
            let words = spoken.split_whitespace().count();
            assert!(
                (150..=3_800).contains(&words),
                "{}: {words} words",
                file.display()
            );
            let host = podcast["hosts"][0].as_str().expect("host");
            assert!(
                body.contains(host),
                "{} does not name its host",
                file.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn opml_lists_every_feed() {
    let (out, manifest) = corpus();
    let opml = std::fs::read(out.join("feeds.opml")).expect("opml");
    let mut reader = quick_xml::Reader::from_reader(opml.as_slice());
    let mut buf = Vec::new();
    let mut listed = BTreeSet::new();
    loop {
        match reader
            .read_event_into(&mut buf)
            .expect("OPML is well-formed")
        {
            Event::Empty(outline) if outline.name().as_ref() == b"outline" => {
                for attribute in outline.attributes() {
                    let attribute = attribute.expect("attribute");
                    if attribute.key.as_ref() == b"xmlUrl" {
                        listed.insert(
                            attribute
                                .decode_and_unescape_value(reader.decoder())
                                .expect("value")
                                .into_owned(),
                        );
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    let expected: BTreeSet<String> = podcasts(manifest)
        .iter()
        .map(|p| format!("{BASE_URL}/feeds/{}.xml", p["index"]))
        .collect();
    assert_eq!(listed, expected);
    assert_eq!(listed.len(), PODCASTS);
}

#[test]
fn charts_are_ranked_and_move_from_day_to_day() {
    let (out, manifest) = corpus();
    let by_apple: BTreeMap<u64, &Value> = podcasts(manifest)
        .iter()
        .filter_map(|p| p["appleId"].as_u64().map(|id| (id, p)))
        .collect();
    let by_spotify: BTreeMap<&str, &Value> = podcasts(manifest)
        .iter()
        .filter_map(|p| p["spotifyId"].as_str().map(|id| (id, p)))
        .collect();
    let mut snapshots = 0;
    let mut pending = vec![out.join("charts")];
    let mut us_top: Vec<(String, Vec<u64>)> = Vec::new();
    while let Some(directory) = pending.pop() {
        for entry in std::fs::read_dir(&directory).expect("charts dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            snapshots += 1;
            let chart: Value = serde_json::from_slice(&std::fs::read(&path).expect("chart"))
                .expect("chart is JSON");
            let positions = chart["positions"].as_array().expect("positions");
            let ranks: Vec<u64> = positions
                .iter()
                .map(|p| p["position"].as_u64().expect("position"))
                .collect();
            assert_eq!(
                ranks,
                (1..=ranks.len() as u64).collect::<Vec<_>>(),
                "{}",
                path.display()
            );
            assert!(ranks.len() <= 200);
            let chart_type = text(&chart["chartType"]);
            let mut seen = BTreeSet::new();
            for position in positions {
                let podcast = match chart_type {
                    "apple" => by_apple
                        .get(&position["appleId"].as_u64().expect("appleId"))
                        .copied(),
                    _ => by_spotify.get(text(&position["spotifyId"])).copied(),
                }
                .unwrap_or_else(|| panic!("unknown podcast in {}", path.display()));
                assert_eq!(position["feedUrl"], podcast["feedUrl"]);
                assert_eq!(position["title"], podcast["title"]);
                assert!(
                    seen.insert(podcast["index"].as_u64()),
                    "a podcast twice in {}",
                    path.display()
                );
            }
            let date = text(&chart["chartDate"]).to_string();
            assert!(path.ends_with(format!("{date}.json")));
            if chart_type == "apple"
                && chart["country"] == "us"
                && chart["category"] == "top podcasts"
            {
                let order = positions
                    .iter()
                    .map(|p| p["appleId"].as_u64().unwrap_or(0))
                    .collect();
                us_top.push((date, order));
            }
        }
    }
    // Every chart has every day unless no show qualifies for it (never the overall charts).
    assert!(
        snapshots <= 2 * 8 * 9 * u64::from(CHART_DAYS)
            && snapshots >= 2 * 8 * 7 * u64::from(CHART_DAYS),
        "{snapshots}"
    );
    assert_eq!(
        manifest["counts"]["chartSnapshots"].as_u64(),
        Some(snapshots)
    );
    us_top.sort();
    assert_eq!(us_top.len(), CHART_DAYS as usize);
    assert_eq!(
        us_top.last().map(|(date, _)| date.as_str()),
        manifest["referenceDate"].as_str()
    );
    for pair in us_top.windows(2) {
        let (yesterday, today) = (&pair[0].1, &pair[1].1);
        assert_ne!(yesterday, today, "the chart did not move on {}", pair[1].0);
        let kept = today.iter().filter(|id| yesterday.contains(id)).count();
        assert!(
            kept * 10 >= today.len() * 7,
            "the chart churned too much on {}: {kept}",
            pair[1].0
        );
    }
}

/// The page with numeric character references and percent escapes decoded, and
/// `[at]`/`[dot]` spelled out, the way a reader (or a crawler) would see addresses.
fn deobfuscate(page: &str) -> String {
    let mut decoded = String::with_capacity(page.len());
    let mut rest = page;
    while let Some(start) = rest.find("&#") {
        decoded.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after
            .split_once(';')
            .and_then(|(digits, tail)| Some((char::from_u32(digits.parse().ok()?)?, tail)))
        {
            Some((character, tail)) => {
                decoded.push(character);
                rest = tail;
            }
            None => {
                decoded.push_str("&#");
                rest = after;
            }
        }
    }
    decoded.push_str(rest);
    let mut unpercented = String::with_capacity(decoded.len());
    let bytes = decoded.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) if byte.is_ascii() => {
                unpercented.push(char::from(byte));
                i += 3;
            }
            _ => {
                let character = decoded[i..].chars().next().expect("char");
                unpercented.push(character);
                i += character.len_utf8();
            }
        }
    }
    unpercented.replace(" [at] ", "@").replace(" [dot] ", ".")
}

#[test]
fn sites_hold_the_manifest_contacts_socials_and_directories() {
    let (out, manifest) = corpus();
    let mut styles = BTreeSet::new();
    let mut social_kinds = BTreeSet::new();
    let mut directory_kinds = BTreeSet::new();
    for podcast in podcasts(manifest) {
        let site = out.join("sites").join(text(&podcast["siteSlug"]));
        let home = std::fs::read_to_string(site.join("index.html")).expect("home page");
        let contact = std::fs::read_to_string(site.join("contact.html")).expect("contact page");
        assert!(
            site.join("about.html").is_file()
                && site.join("robots.txt").is_file()
                && site.join("sitemap.xml").is_file()
        );
        assert!(home.contains("href=\"about.html\"") && home.contains("href=\"contact.html\""));
        assert!(contact.contains("<form"));
        let readable = deobfuscate(&contact);
        for email in podcast["emails"].as_array().expect("emails") {
            let address = text(&email["address"]);
            let style = text(&email["obfuscation"]);
            assert!(
                readable.contains(address),
                "{address} ({style}) missing from {}",
                site.display()
            );
            if style != "plain" {
                assert!(
                    !contact.contains(address),
                    "{address} is not obfuscated ({style})"
                );
            }
            styles.insert(style.to_string());
        }
        for phone in podcast["phones"].as_array().expect("phones") {
            assert!(contact.contains(text(&phone["display"])));
        }
        for social in podcast["socials"].as_array().expect("socials") {
            assert!(home.contains(&format!("href=\"{}\"", text(&social["url"]))));
            social_kinds.insert(text(&social["type"]).to_string());
        }
        for directory in podcast["directories"].as_array().expect("directories") {
            assert!(home.contains(&format!("href=\"{}\"", text(&directory["url"]))));
            directory_kinds.insert(text(&directory["type"]).to_string());
        }
        if let Some(id) = podcast["appleId"].as_u64() {
            assert!(home.contains(&format!("/id{id}\"")));
        }
        if let Some(id) = podcast["spotifyId"].as_str() {
            assert!(home.contains(&format!("https://open.spotify.com/show/{id}\"")));
            assert_eq!(id.len(), 22);
        }
    }
    assert_eq!(styles.len(), 4, "{styles:?}");
    assert_eq!(social_kinds.len(), 25, "{social_kinds:?}");
    assert_eq!(directory_kinds.len(), 24, "{directory_kinds:?}");
}

#[test]
fn social_urls_have_valid_handles() {
    let (_, manifest) = corpus();
    for podcast in podcasts(manifest) {
        for social in podcast["socials"].as_array().expect("socials") {
            let url = text(&social["url"]);
            if text(&social["type"]) == "twitter" {
                let handle = url.rsplit('/').next().unwrap_or_default();
                assert!(handle.len() <= 15 && !handle.is_empty(), "{url}");
                assert!(
                    handle
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_'),
                    "{url}"
                );
            }
            let path = url
                .split_once("://")
                .map(|(_, rest)| rest)
                .unwrap_or_default();
            assert!(
                path.contains('/')
                    || path.contains(".beehiiv.")
                    || path.contains(".substack.")
                    || path.contains(".tumblr."),
                "{url}"
            );
        }
    }
}

fn files_under(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut pending = vec![root.to_owned()];
    while let Some(directory) = pending.pop() {
        for entry in std::fs::read_dir(&directory).expect("dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let relative = path.strip_prefix(root).expect("under root").to_owned();
                files.insert(relative, std::fs::read(&path).expect("file"));
            }
        }
    }
    files
}

#[test]
fn same_seed_gives_identical_bytes_and_another_seed_differs() {
    let run = |seed: u64| {
        let directory = tempfile::tempdir().expect("tempdir");
        let options = GenerateOptions {
            podcasts: 80,
            seed,
            out: directory.path().to_owned(),
            base_url: BASE_URL.to_string(),
            transcript_share: 0.1,
            chart_days: 3,
            as_of: None,
        };
        generate(&options, &|| {}).expect("generates");
        files_under(directory.path())
    };
    let first = run(11);
    let second = run(11);
    assert!(first.len() > 300, "{}", first.len());
    assert_eq!(
        first.keys().collect::<Vec<_>>(),
        second.keys().collect::<Vec<_>>()
    );
    for (path, bytes) in &first {
        assert!(
            second[path] == *bytes,
            "{} differs between runs",
            path.display()
        );
    }
    let other = run(12);
    let feed = PathBuf::from("feeds/0.xml");
    assert_ne!(first[&feed], other[&feed]);
    assert_ne!(
        first[&PathBuf::from("manifest.json")],
        other[&PathBuf::from("manifest.json")]
    );
}

#[test]
fn regenerating_replaces_an_earlier_corpus_and_refuses_foreign_directories() {
    let directory = tempfile::tempdir().expect("tempdir");
    let options = |podcasts: usize| GenerateOptions {
        podcasts,
        seed: 3,
        out: directory.path().to_owned(),
        base_url: BASE_URL.to_string(),
        transcript_share: 0.1,
        chart_days: 1,
        as_of: None,
    };
    generate(&options(20), &|| {}).expect("first run");
    generate(&options(5), &|| {}).expect("second run replaces the first");
    assert_eq!(
        std::fs::read_dir(directory.path().join("feeds"))
            .expect("feeds")
            .count(),
        5
    );

    let foreign = tempfile::tempdir().expect("tempdir");
    std::fs::write(foreign.path().join("notes.txt"), "mine").expect("write");
    let error = generate(
        &GenerateOptions {
            out: foreign.path().to_owned(),
            ..options(5)
        },
        &|| {},
    )
    .expect_err("refused");
    assert!(error.to_string().contains("not empty"), "{error}");
    assert!(foreign.path().join("notes.txt").is_file());
}

#[test]
fn invalid_options_are_rejected_with_clear_messages() {
    let directory = tempfile::tempdir().expect("tempdir");
    let base = GenerateOptions {
        podcasts: 1,
        seed: 1,
        out: directory.path().join("out"),
        base_url: BASE_URL.to_string(),
        transcript_share: 0.1,
        chart_days: 1,
        as_of: None,
    };
    let cases = [
        (
            GenerateOptions {
                podcasts: 0,
                ..base.clone()
            },
            "--podcasts",
        ),
        (
            GenerateOptions {
                transcript_share: 1.5,
                ..base.clone()
            },
            "--transcript-share",
        ),
        (
            GenerateOptions {
                base_url: "ftp://x".into(),
                ..base.clone()
            },
            "--base-url",
        ),
    ];
    for (options, flag) in cases {
        let error = generate(&options, &|| {}).expect_err("rejected");
        assert!(error.to_string().contains(flag), "{error}");
    }
}

#[test]
fn the_podlens_binary_generates_and_prints_a_summary() {
    let directory = tempfile::tempdir().expect("tempdir");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_podlens"))
        .args([
            "--no-progress",
            "generate",
            "--podcasts",
            "12",
            "--seed",
            "5",
            "--chart-days",
            "2",
            "--out",
        ])
        .arg(directory.path())
        .output()
        .expect("runs podlens");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("generated 12 podcasts, "), "{stdout}");
    assert!(stdout.contains(" chart snapshots, "), "{stdout}");
    let manifest: Value = serde_json::from_slice(
        &std::fs::read(directory.path().join("manifest.json")).expect("manifest"),
    )
    .expect("json");
    let snapshots = manifest["counts"]["chartSnapshots"]
        .as_u64()
        .expect("count");
    assert!(snapshots >= 2 * 8 * 2, "{snapshots}");
    assert!(
        stdout.contains(&format!(" {snapshots} chart snapshots")),
        "{stdout}"
    );
    assert!(directory.path().join("feeds/11.xml").is_file());
}

/// Every `url="…"` value of `tag` elements in `feed` (a plain scan, not the generator's
/// writer), with the `length` beside it when the tag has one.
fn tag_urls(feed: &str, tag: &str) -> Vec<(String, Option<u64>)> {
    let attribute = |element: &str, name: &str| {
        let start = element.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(element[start..].split('"').next()?.to_owned())
    };
    feed.split(&format!("<{tag} "))
        .skip(1)
        .filter_map(|rest| {
            let element = format!(" {}", rest.split('>').next()?);
            let url = attribute(&element, "url").or_else(|| attribute(&element, "href"))?;
            let length = attribute(&element, "length").and_then(|text| text.parse().ok());
            Some((url, length))
        })
        .collect()
}

/// The demo's players showed 0:00 / 0:00 and its covers broke: enclosures pointed at
/// audio the generator never wrote. Every enclosure and cover of the corpus is a file of
/// the corpus (the enclosure's stated length its size, a playable WAV), so the demo's
/// media load wherever the corpus is served.
#[test]
fn every_enclosure_and_cover_is_a_file_of_the_corpus() {
    let (out, manifest) = corpus();
    let local = |url: &str| -> PathBuf {
        let path = url
            .strip_prefix(BASE_URL)
            .unwrap_or_else(|| panic!("{url} is not under the corpus's base URL"));
        out.join(path.trim_start_matches('/'))
    };
    let mut enclosures = 0;
    let mut clips = BTreeSet::new();
    for podcast in podcasts(manifest) {
        let feed = String::from_utf8_lossy(
            &std::fs::read(out.join(text(&podcast["feedFile"]))).expect("feed"),
        )
        .into_owned();
        for (url, length) in tag_urls(&feed, "enclosure") {
            let path = local(&url);
            let bytes = std::fs::read(&path).unwrap_or_else(|_| panic!("{url}: no such file"));
            assert_eq!(Some(bytes.len() as u64), length, "{url}");
            assert!(
                bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WAVE",
                "{url}"
            );
            enclosures += 1;
            clips.insert(url);
        }
        for (url, _) in tag_urls(&feed, "itunes:image") {
            assert!(local(&url).is_file(), "{url}: no such file");
        }
    }
    assert!(enclosures > PODCASTS, "{enclosures} enclosures");
    assert!(clips.len() > 1, "every show plays the same clip: {clips:?}");
}

/// Show i is a function of the seed and i alone: a smaller corpus is the first shows of
/// a larger one, byte for byte (so a partitioned build generates the same shows).
#[test]
fn a_smaller_corpus_is_a_prefix_of_a_larger_one() {
    let (large, manifest) = corpus();
    let small = Path::new(env!("CARGO_TARGET_TMPDIR")).join("generate-corpus-prefix");
    let _ = std::fs::remove_dir_all(&small);
    let shows = 40;
    let options = GenerateOptions {
        podcasts: shows,
        seed: SEED,
        out: small.clone(),
        base_url: BASE_URL.to_string(),
        transcript_share: 0.1,
        chart_days: CHART_DAYS,
        as_of: None,
    };
    generate(&options, &|| {}).expect("corpus generates");
    let small_manifest: Value =
        serde_json::from_slice(&std::fs::read(small.join("manifest.json")).expect("manifest"))
            .expect("manifest is JSON");
    for index in 0..shows {
        let feed = format!("feeds/{index}.xml");
        assert_eq!(
            std::fs::read(small.join(&feed)).expect("small feed"),
            std::fs::read(large.join(&feed)).expect("large feed"),
            "{feed}"
        );
        assert_eq!(podcasts(&small_manifest)[index], podcasts(manifest)[index]);
    }
}

/// Each show is drawn from one theme: its description says what it is about, and the
/// theme's shows make up a search a newcomer would try ("gardening").
#[test]
fn every_show_names_its_theme_in_its_description() {
    let (_, manifest) = corpus();
    let mut per_theme: BTreeMap<String, usize> = BTreeMap::new();
    for podcast in podcasts(manifest) {
        let theme = text(&podcast["theme"]);
        assert!(
            text(&podcast["description"]).contains(&format!("a show about {theme}:")),
            "{}: {}",
            text(&podcast["title"]),
            text(&podcast["description"])
        );
        *per_theme.entry(theme.to_owned()).or_default() += 1;
    }
    assert!(per_theme.len() >= 50, "{per_theme:?}");
}

/// The demo's catalog read as two years old (every show "stale") because the corpus's
/// day came from the seed alone: a corpus `as_of` a day ends its newest episodes and its
/// charts on that day, and the same day gives the same bytes.
#[test]
fn a_corpus_as_of_a_day_has_its_newest_episodes_and_charts_on_that_day() {
    let day = chrono::NaiveDate::from_ymd_opt(2030, 6, 15).expect("a day");
    let write = |dir: &Path| {
        generate(
            &GenerateOptions {
                podcasts: 20,
                seed: 11,
                out: dir.to_owned(),
                base_url: BASE_URL.to_string(),
                transcript_share: 0.1,
                chart_days: 2,
                as_of: Some(day),
            },
            &|| {},
        )
        .expect("generated");
    };
    let (first, second) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    write(first.path());
    write(second.path());
    let mut newest: Option<chrono::DateTime<chrono::FixedOffset>> = None;
    for entry in std::fs::read_dir(first.path().join("feeds")).unwrap() {
        let path = entry.unwrap().path();
        let xml = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            xml,
            std::fs::read_to_string(second.path().join("feeds").join(path.file_name().unwrap()))
                .unwrap(),
            "the same day gives the same feed"
        );
        for date in xml
            .split("<pubDate>")
            .skip(1)
            .filter_map(|rest| rest.split("</pubDate>").next())
            .filter_map(|text| chrono::DateTime::parse_from_rfc2822(text.trim()).ok())
        {
            newest = newest.max(Some(date));
        }
    }
    let newest = newest.expect("dated episodes").date_naive();
    assert!(
        newest <= day && newest >= day - chrono::Duration::days(14),
        "newest episode {newest}, corpus as of {day}"
    );
    let chart_days: BTreeSet<String> = files_under(&first.path().join("charts"))
        .into_keys()
        .filter_map(|path| {
            path.file_stem()
                .map(|stem| stem.to_string_lossy().into_owned())
        })
        .collect();
    assert!(chart_days.contains("2030-06-15"), "{chart_days:?}");
}
