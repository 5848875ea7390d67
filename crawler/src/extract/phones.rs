//! Phone numbers from `tel:` links and page text, normalised to E.164 with
//! libphonenumber's metadata (crate `phonenumber`). International numbers
//! (`+44 20 …`, `0044 20 …`) need no country; national ones (`(212) 555-0123`)
//! are read with the crawl's default country, and dropped from text without one.

use std::sync::OnceLock;

use percent_encoding::percent_decode_str;
use phonenumber::Mode;
use phonenumber::country::Id;
use regex::Regex;

/// Reads phone numbers for one crawl.
#[derive(Debug, Clone, Copy)]
pub struct PhoneReader {
    country: Option<Id>,
}

fn candidates() -> &'static Regex {
    static CELL: OnceLock<Regex> = OnceLock::new();
    CELL.get_or_init(|| {
        Regex::new(r"(?:\+|\b00)?\(?\d[\d \u{a0}().\-/]{5,22}\d")
            .unwrap_or_else(|_| unreachable!("valid regex"))
    })
}

fn date_like() -> &'static Regex {
    static CELL: OnceLock<Regex> = OnceLock::new();
    CELL.get_or_init(|| {
        Regex::new(r"^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}$|^\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}$")
            .unwrap_or_else(|_| unreachable!("valid regex"))
    })
}

/// The number of a `tel:` link, percent-decoded, parameters cut.
pub fn tel_number(href: &str) -> Option<String> {
    let scheme = href.get(..4)?;
    if !scheme.eq_ignore_ascii_case("tel:") {
        return None;
    }
    let rest = &href[4..];
    let number = rest.split(';').next().unwrap_or(rest);
    let decoded = percent_decode_str(number)
        .decode_utf8_lossy()
        .trim()
        .to_owned();
    (decoded.chars().filter(char::is_ascii_digit).count() >= 5).then_some(decoded)
}

impl PhoneReader {
    /// `country` is an ISO 3166-1 alpha-2 code; unknown codes are ignored.
    pub fn new(country: Option<&str>) -> PhoneReader {
        let country = country.and_then(|code| code.trim().to_ascii_uppercase().parse::<Id>().ok());
        PhoneReader { country }
    }

    /// A `tel:` number in E.164 when it can be read; otherwise its digits as written
    /// (with a leading `+` kept), since the site owner chose to publish it.
    pub fn normalise(&self, number: &str) -> Option<String> {
        if let Some(e164) = self.parse(number, false) {
            return Some(e164);
        }
        let digits: String = number
            .chars()
            .filter(|c| c.is_ascii_digit() || *c == '+')
            .collect();
        (digits.len() >= 5).then_some(digits)
    }

    fn parse(&self, number: &str, require_valid: bool) -> Option<String> {
        let trimmed = number.trim();
        let international = trimmed.starts_with('+') || trimmed.starts_with("00");
        let text = match trimmed.strip_prefix("00") {
            Some(rest) => format!("+{rest}"),
            None => trimmed.to_owned(),
        };
        let region = if international {
            None
        } else {
            Some(self.country?)
        };
        let parsed = phonenumber::parse(region, &text).ok()?;
        if require_valid && !phonenumber::is_valid(&parsed) {
            return None;
        }
        Some(parsed.format().mode(Mode::E164).to_string())
    }

    /// Valid numbers written in `text`, as E.164.
    pub fn find_in_text(&self, text: &str) -> Vec<String> {
        let mut found = Vec::new();
        for candidate in candidates().find_iter(text) {
            let raw = candidate.as_str().trim();
            let digits = raw.chars().filter(char::is_ascii_digit).count();
            if !(8..=15).contains(&digits) || date_like().is_match(raw) || looks_like_a_range(raw) {
                continue;
            }
            if let Some(e164) = self.parse(raw, true) {
                found.push(e164);
            }
        }
        found
    }
}

/// `1999-2024`, `10.000.000`: number shapes that are not phone numbers.
fn looks_like_a_range(raw: &str) -> bool {
    let groups: Vec<&str> = raw
        .split(|c: char| !c.is_ascii_digit())
        .filter(|group| !group.is_empty())
        .collect();
    groups.len() == 2 && groups.iter().all(|group| group.len() == 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn international_numbers_need_no_country() {
        let reader = PhoneReader::new(None);
        assert_eq!(
            reader.find_in_text("Call +44 20 7946 0123 today"),
            vec!["+442079460123"]
        );
        assert_eq!(
            reader.find_in_text("Ruf an: 0049 30 1234567"),
            vec!["+49301234567"]
        );
        // National format without a country is ambiguous: dropped.
        assert!(reader.find_in_text("(212) 555-0123").is_empty());
    }

    #[test]
    fn national_numbers_use_the_default_country() {
        let reader = PhoneReader::new(Some("us"));
        for written in [
            "(212) 555-0123",
            "212.555.0123",
            "+1 (212) 555-0123",
            "+1 212-555-0123",
        ] {
            assert_eq!(
                reader.find_in_text(written),
                vec!["+12125550123"],
                "{written}"
            );
        }
    }

    #[test]
    fn dates_years_and_short_numbers_are_not_phones() {
        let reader = PhoneReader::new(Some("US"));
        assert!(
            reader
                .find_in_text("Published 2019-08-19, since 1999-2024, ep 12345")
                .is_empty()
        );
    }

    #[test]
    fn tel_links() {
        assert_eq!(
            tel_number("tel:+1%20212%20555%200123").as_deref(),
            Some("+1 212 555 0123")
        );
        assert_eq!(tel_number("tel:12"), None);
        let reader = PhoneReader::new(None);
        assert_eq!(
            reader.normalise("+1 212 555 0123").as_deref(),
            Some("+12125550123")
        );
        assert_eq!(
            reader.normalise("555 0123 99").as_deref(),
            Some("555012399")
        );
    }
}
