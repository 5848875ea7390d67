//! Sponsors named in an episode's show notes: sponsorship reads ("This episode is
//! sponsored by X (x.com/show, offer code SHOW) and Y", "Brought to you by X",
//! "Thanks to X for their support"), "Sponsored by:" headings followed by a list
//! ("X: the offer", "X - the offer"), and offer codes ("Use code SHOW at x.com").
//!
//! The notes are read as text lines (block elements of the HTML become lines). A
//! trigger phrase counts only at the start of a sentence or after "this episode is"
//! and the like, and a sponsor name must read as a brand (capitalised words, or a
//! site), so "events sponsored by fans" or "brought to you by the letter D" are
//! not sponsors.

use std::sync::LazyLock;

use podlens_model::catalog::{EpisodeRecord, SponsorMention};
use podlens_model::enums::SponsorType;
use regex::Regex;

use crate::text::html_to_text;

/// A sponsor found in one episode's notes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetectedSponsor {
    pub name: String,
    pub sponsor_type: SponsorType,
    pub url: Option<String>,
    pub coupon_code: Option<String>,
    pub snippet: String,
}

/// Most sponsors kept from one episode's notes.
const MAX_SPONSORS: usize = 10;
/// Most words of a sponsor's name.
const MAX_NAME_WORDS: usize = 5;
/// Most list lines read after a "Sponsored by:" heading.
const MAX_LIST_LINES: usize = 10;
/// Longest snippet kept, in characters.
const MAX_SNIPPET_CHARS: usize = 240;

fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("static sponsor pattern compiles")
}

static TRIGGER: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"(?i)\b(?:sponsored|brought\s+to\s+you|supported|presented|made\s+possible)\s+by\b\s*:?")
});

static THANKS: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"(?i)\bthanks?\s+(?:again\s+)?to\s+(.{2,80}?)\s+for\s+(?:their|its|the)\s+support\b")
});

static CODE: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"(?i)\b(?:(?:use|enter|apply)\s+(?:the\s+)?(?:(?:promo|offer|coupon|discount)\s+)?code|(?:promo|offer|coupon|discount)\s+code)\s*:?\s*["'“‘\[]?([A-Za-z0-9][A-Za-z0-9_-]{1,29})"#,
    )
});

static DOMAIN: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(?:https?://)?(?:www\.)?([a-z0-9][a-z0-9-]{0,62})\.(?:com|net|org|co|io|fm|tv|app|us|uk|ca|de|ai|ly|me|shop|store)\b(?:/[^\s)\]]*)?",
    )
});

/// Words that start a sentence but never a sponsor's name.
const NOT_A_NAME: &[&str] = &[
    "a",
    "an",
    "all",
    "and",
    "episode",
    "everyone",
    "it",
    "listeners",
    "members",
    "our",
    "patrons",
    "people",
    "show",
    "that",
    "the",
    "these",
    "this",
    "those",
    "us",
    "we",
    "you",
    "your",
];

/// Lowercase words allowed inside a name ("Bank of America", "Fruit & Co").
const CONNECTORS: &[&str] = &["of", "the", "for", "de", "&"];

/// Codes that are words of the sentence, not codes.
const NOT_A_CODE: &[&str] = &["at", "to", "for", "and", "the", "when", "on", "in", "below"];

/// The sponsors of one episode, from its description (HTML or text).
pub fn detect_sponsors(description: &str) -> Vec<DetectedSponsor> {
    let text = html_to_text(description);
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut found = Found::default();
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        let mut heading = false;
        for trigger in TRIGGER.find_iter(line) {
            if !starts_a_read(&line[..trigger.start()]) {
                continue;
            }
            let clause = sentence_from(&line[trigger.end()..]);
            if clause.trim().is_empty() {
                heading = true;
                continue;
            }
            for (part, parentheticals) in clause_parts(clause) {
                let Some(name) = brand_name(&part) else {
                    continue;
                };
                let url = std::iter::once(part.as_str())
                    .chain(parentheticals.iter().map(String::as_str))
                    .find_map(first_url);
                let code = parentheticals.iter().find_map(|text| offer_code(text));
                found.add(name, SponsorType::Sponsor, url, code, line);
            }
        }
        for thanks in THANKS.captures_iter(line) {
            if let Some(name) = brand_name(&thanks[1]) {
                found.add(name, SponsorType::Sponsor, first_url(line), None, line);
            }
        }
        if heading {
            let mut taken = 0;
            while taken < MAX_LIST_LINES && index + 1 < lines.len() {
                let item = lines[index + 1];
                if item.is_empty() {
                    index += 1;
                    continue;
                }
                let Some(name) = list_item_name(item) else {
                    break;
                };
                found.add(
                    name,
                    SponsorType::Sponsor,
                    first_url(item),
                    offer_code(item),
                    item,
                );
                index += 1;
                taken += 1;
            }
        }
        index += 1;
    }
    for line in &lines {
        let Some(code) = offer_code(line) else {
            continue;
        };
        if found.attach_code(line, &code) {
            continue;
        }
        let name =
            leading_name(line).or_else(|| first_url(line).and_then(|url| domain_brand(&url)));
        if let Some(name) = name {
            found.add(
                name,
                SponsorType::Advertiser,
                first_url(line),
                Some(code),
                line,
            );
        }
    }
    found.sponsors
}

/// The sponsor mentions of one stored episode.
pub fn episode_sponsor_mentions(episode: &EpisodeRecord) -> Vec<SponsorMention> {
    let Some(description) = episode
        .episode_rss_description
        .as_deref()
        .or(episode.episode_rss_description_no_html.as_deref())
    else {
        return Vec::new();
    };
    detect_sponsors(description)
        .into_iter()
        .map(|sponsor| SponsorMention {
            podcast_id: episode.podcast_id,
            episode_id: episode.episode_id,
            name: sponsor.name,
            sponsor_type: sponsor.sponsor_type.as_str().to_owned(),
            url: sponsor.url,
            coupon_code: sponsor.coupon_code,
            snippet: sponsor.snippet,
        })
        .collect()
}

/// Sponsors found so far, one per name (case-insensitive).
#[derive(Default)]
struct Found {
    sponsors: Vec<DetectedSponsor>,
}

impl Found {
    fn add(
        &mut self,
        name: String,
        sponsor_type: SponsorType,
        url: Option<String>,
        coupon_code: Option<String>,
        line: &str,
    ) {
        if let Some(known) = self
            .sponsors
            .iter_mut()
            .find(|known| known.name.eq_ignore_ascii_case(&name))
        {
            known.url = known.url.take().or(url);
            known.coupon_code = known.coupon_code.take().or(coupon_code);
            return;
        }
        if self.sponsors.len() < MAX_SPONSORS {
            self.sponsors.push(DetectedSponsor {
                name,
                sponsor_type,
                url,
                coupon_code,
                snippet: snippet(line),
            });
        }
    }

    /// Gives `code` to a sponsor found on `line` that has none; false when there is none.
    fn attach_code(&mut self, line: &str, code: &str) -> bool {
        let on_line = self
            .sponsors
            .iter_mut()
            .filter(|known| line.contains(&known.name) || known.snippet == snippet(line))
            .collect::<Vec<_>>();
        if on_line.is_empty() {
            return false;
        }
        if on_line
            .iter()
            .any(|known| known.coupon_code.as_deref() == Some(code))
        {
            return true;
        }
        for known in on_line {
            if known.coupon_code.is_none() {
                known.coupon_code = Some(code.to_owned());
                break;
            }
        }
        true
    }
}

fn snippet(line: &str) -> String {
    line.chars().take(MAX_SNIPPET_CHARS).collect()
}

/// Whether the text before a trigger phrase opens a sponsorship read: nothing (the
/// sentence starts with the trigger), or "this episode is", "today's show was", ….
fn starts_a_read(before: &str) -> bool {
    let sentence = before
        .rfind(['.', '!', '?', '|'])
        .map_or(before, |at| &before[at + 1..])
        .trim();
    if sentence.is_empty() {
        return true;
    }
    let lower = sentence.to_lowercase();
    let verb = [
        " is",
        " was",
        " are",
        " is also",
        " is proudly",
        " is once again",
    ]
    .iter()
    .any(|ending| lower.ends_with(ending));
    let subject = [
        "episode",
        "show",
        "podcast",
        "program",
        "series",
        "edition",
        "hour",
        "content",
        "broadcast",
        "video",
    ]
    .iter()
    .any(|word| lower.contains(word));
    verb && subject && lower.split_whitespace().count() <= 6
}

/// The rest of the sentence: up to a `.`, `!` or `?` followed by a space (or the end)
/// outside parentheses, a `:` or ` - ` that starts the offer, or a `|`.
fn sentence_from(text: &str) -> &str {
    let mut depth = 0usize;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (position, &(at, character)) in chars.iter().enumerate() {
        let next = chars.get(position + 1).map(|&(_, c)| c);
        match character {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            '.' | '!' | '?' if depth == 0 && next.is_none_or(char::is_whitespace) => {
                return &text[..at];
            }
            ':' | '|' if depth == 0 => return &text[..at],
            '-' | '–' | '—'
                if depth == 0
                    && at > 0
                    && text[..at].ends_with(' ')
                    && next.is_some_and(char::is_whitespace) =>
            {
                return &text[..at];
            }
            _ => {}
        }
    }
    text
}

/// The sponsors of a clause ("X (x.com, code A), Y and Z"): each part's text without
/// its parentheses, with what its parentheses held.
fn clause_parts(clause: &str) -> Vec<(String, Vec<String>)> {
    // Parentheses become a marker word in place, so they stay with their name when
    // the clause is split.
    const MARK: char = '\u{1}';
    let mut flat = String::new();
    let mut held: Vec<String> = Vec::new();
    let mut depth = 0usize;
    let mut inside = String::new();
    for character in clause.chars() {
        match character {
            '(' | '[' => {
                if depth > 0 {
                    inside.push(character);
                }
                depth += 1;
            }
            ')' | ']' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    flat.push_str(&format!(" {MARK}{} ", held.len()));
                    held.push(std::mem::take(&mut inside));
                } else {
                    inside.push(character);
                }
            }
            ',' | ';' | '&' if depth == 0 => flat.push('\n'),
            MARK | '\n' => {}
            _ if depth > 0 => inside.push(character),
            _ => flat.push(character),
        }
    }
    flat.split('\n')
        .flat_map(|segment| split_on_words(segment, &["and", "plus"]))
        .map(|piece| {
            let mut text = Vec::new();
            let mut own = Vec::new();
            for word in piece.split_whitespace() {
                match word
                    .strip_prefix(MARK)
                    .and_then(|index| index.parse::<usize>().ok())
                {
                    Some(index) => own.extend(held.get(index).cloned()),
                    None => text.push(word),
                }
            }
            (text.join(" "), own)
        })
        .collect()
}

fn split_on_words(text: &str, words: &[&str]) -> Vec<String> {
    let mut pieces = vec![String::new()];
    for word in text.split_whitespace() {
        if words
            .iter()
            .any(|separator| word.eq_ignore_ascii_case(separator))
        {
            pieces.push(String::new());
            continue;
        }
        let current = pieces.last_mut().expect("never empty");
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    pieces.retain(|piece| !piece.is_empty());
    pieces
}

/// A sponsor's name at the start of `text`: a site ("Squarespace.com" is
/// Squarespace), or up to five capitalised words ("Linode Cloud Hosting"); `None`
/// when `text` does not start with one.
fn brand_name(text: &str) -> Option<String> {
    let trimmed = text.trim_matches(|c: char| {
        c.is_whitespace() || matches!(c, ':' | ';' | ',' | '.' | '!' | '"' | '“' | '”' | '\'')
    });
    let trimmed = [
        "our friends at ",
        "our sponsor ",
        "our sponsors ",
        "the folks at ",
    ]
    .iter()
    .find_map(|lead| {
        trimmed
            .get(..lead.len())
            .filter(|head| head.eq_ignore_ascii_case(lead))
            .map(|_| &trimmed[lead.len()..])
    })
    .unwrap_or(trimmed);
    let first = trimmed.split_whitespace().next()?;
    if let Some(domain) = DOMAIN.find(first).filter(|found| found.start() == 0)
        && domain.end() >= first.trim_end_matches(['.', ',', ':', ';']).len()
    {
        return domain_brand(domain.as_str());
    }
    let mut words: Vec<&str> = Vec::new();
    for word in trimmed.split_whitespace() {
        let clean = word.trim_end_matches([',', ':', ';', '.', '!', '?']);
        let ends = clean.len() != word.len();
        let capitalised = clean
            .chars()
            .next()
            .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit());
        let connector = !words.is_empty() && CONNECTORS.contains(&clean);
        if clean.is_empty() || !(capitalised || connector) || words.len() == MAX_NAME_WORDS {
            break;
        }
        words.push(clean);
        if ends {
            break;
        }
    }
    while words.last().is_some_and(|word| CONNECTORS.contains(word)) {
        words.pop();
    }
    let first_word = words.first()?;
    if NOT_A_NAME.contains(&first_word.to_lowercase().as_str()) {
        return None;
    }
    let name = words.join(" ");
    (name.chars().count() >= 2 && name.chars().any(char::is_alphabetic)).then_some(name)
}

/// The brand of a site: `squarespace.com` is Squarespace, `ROKA.com` is ROKA.
fn domain_brand(url: &str) -> Option<String> {
    let captures = DOMAIN.captures(url)?;
    let label = captures.get(1)?.as_str();
    if label.len() < 2 {
        return None;
    }
    if label.chars().any(char::is_uppercase) {
        return Some(label.to_owned());
    }
    let mut chars = label.chars();
    let first = chars.next()?;
    Some(first.to_uppercase().chain(chars).collect())
}

/// The first site or URL in `text`, as written.
fn first_url(text: &str) -> Option<String> {
    DOMAIN.find(text).map(|found| {
        found
            .as_str()
            .trim_end_matches(['.', ',', ';', ':'])
            .to_owned()
    })
}

/// The offer code in `text` ("use code SHOW", "offer code: Show").
fn offer_code(text: &str) -> Option<String> {
    CODE.captures_iter(text)
        .map(|captures| captures[1].to_owned())
        .find(|code| !NOT_A_CODE.contains(&code.to_lowercase().as_str()))
}

/// The name a list line starts with ("Linode: the offer", "Iconfinder - use code X",
/// "https://ROKA.com | Use Code SRS").
fn leading_name(line: &str) -> Option<String> {
    let cut = [": ", " - ", " – ", " — ", " | "]
        .iter()
        .filter_map(|separator| line.find(separator))
        .min()?;
    let head = line[..cut].trim();
    if head.split_whitespace().count() > MAX_NAME_WORDS {
        return None;
    }
    if DOMAIN.is_match(head) && !head.contains(' ') {
        return domain_brand(head);
    }
    brand_name(head).filter(|name| name.len() == head.trim_end_matches(['.', '!']).len())
}

/// The sponsor a line under a "Sponsored by:" heading names: "X: the offer",
/// "X - the offer", or a bare site.
fn list_item_name(line: &str) -> Option<String> {
    if line.is_empty() || line.ends_with(':') {
        return None;
    }
    if let Some(name) = leading_name(line) {
        return Some(name);
    }
    let bare = line.trim();
    (DOMAIN.is_match(bare) && !bare.contains(' ')).then(|| domain_brand(bare))?
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(description: &str) -> Vec<String> {
        detect_sponsors(description)
            .into_iter()
            .map(|sponsor| sponsor.name)
            .collect()
    }

    #[test]
    fn a_sponsorship_read_names_every_sponsor_with_its_site_and_code() {
        let notes = "<p>Read the novelization here.</p><p>This week's episode is brought to you by Squarespace (Squarespace.com offer code STARS) and Parcast.</p>";
        let found = detect_sponsors(notes);
        assert_eq!(names(notes), ["Squarespace", "Parcast"]);
        assert_eq!(found[0].url.as_deref(), Some("Squarespace.com"));
        assert_eq!(found[0].coupon_code.as_deref(), Some("STARS"));
        assert_eq!(found[0].sponsor_type, SponsorType::Sponsor);
        assert_eq!(found[1].coupon_code, None);
    }

    #[test]
    fn lists_with_commas_and_periods_inside_parentheses() {
        let notes = "This week's episode is sponsored by Spotify, Plated (Plated.com/stars. Terms apply) and Leesa (Leesa.com/stars).";
        assert_eq!(names(notes), ["Spotify", "Plated", "Leesa"]);
        assert_eq!(
            names("This week's episode is brought to you by Lore on Amazon."),
            ["Lore"]
        );
    }

    #[test]
    fn a_sponsored_by_heading_takes_the_list_under_it() {
        let notes = r#"<p>Special Guest: Neal Gompa.</p><p>Sponsored By:</p><ul><li><a href="https://linode.com/unplugged">Linode Cloud Hosting</a>: <a href="https://linode.com/unplugged">A special offer, visit linode.com/unplugged.</a></li><li><a href="https://do.co/unplugged">DigitalOcean</a>: Promo Code: dounplugged</li></ul><p><a href="https://x">Support LINUX Unplugged</a></p><p>Links:</p><ul><li><a href="https://a.b">Fedora 33 - released</a></li></ul>"#;
        let found = detect_sponsors(notes);
        assert_eq!(names(notes), ["Linode Cloud Hosting", "DigitalOcean"]);
        assert_eq!(found[1].coupon_code.as_deref(), Some("dounplugged"));
    }

    #[test]
    fn offer_codes_name_their_site() {
        let notes = "<p>https://ROKA.com | Use Code <strong>SRS</strong></p><p>Get 15% off! Use code [fish] at checkout. Go to https://saily.com/fish</p><ul><li>Iconfinder - use the promo code 'DESIGNDETAILS' to save 50%</li></ul>";
        let found = detect_sponsors(notes);
        assert_eq!(names(notes), ["ROKA", "Saily", "Iconfinder"]);
        assert!(
            found
                .iter()
                .all(|s| s.sponsor_type == SponsorType::Advertiser)
        );
        assert_eq!(found[0].coupon_code.as_deref(), Some("SRS"));
        assert_eq!(found[1].coupon_code.as_deref(), Some("fish"));
        assert_eq!(found[2].coupon_code.as_deref(), Some("DESIGNDETAILS"));
    }

    #[test]
    fn sentences_that_merely_use_the_words_are_not_sponsors() {
        for notes in [
            "She is not allowed to attend any more events sponsored by white nationalist fans this year.",
            "A counterclockwise experiment in older adults sponsored by Catholic University of the Sacred Heart",
            "Paul Barnett explains his top 10 games of 2011, brought to you by the letter D.",
            "This show is supported by listeners like you on Patreon.",
            "Use code at checkout for nothing.",
        ] {
            assert!(names(notes).is_empty(), "{notes}: {:?}", names(notes));
        }
    }

    #[test]
    fn sentence_start_reads_and_thanks() {
        assert_eq!(
            names("<p>Sponsored by Empower. Not an endorsement. Visit empower.com for more.</p>"),
            ["Empower"]
        );
        assert_eq!(
            names("We talk shop. Thanks to Brightwave Mattress for their support."),
            ["Brightwave Mattress"]
        );
        assert_eq!(
            names(
                r#"<p>This episode is sponsored by <a href="https://nimbusvpn.net/x">Nimbus VPN</a>: private browsing on every device you own.</p>"#
            ),
            ["Nimbus VPN"]
        );
    }

    #[test]
    fn the_same_sponsor_twice_is_one_sponsor() {
        let notes =
            "<p>Sponsored by Acme.</p><p>Brought to you by ACME (acme.com, use code SHOW).</p>";
        let found = detect_sponsors(notes);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].coupon_code.as_deref(), Some("SHOW"));
    }
}
