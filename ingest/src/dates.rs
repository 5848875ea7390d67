//! Publication dates as feeds write them: RFC 822/2822 and its broken variants
//! (named or numeric zones, missing seconds, lowercase, wrong day names, two-digit
//! years, missing commas), ISO 8601 / RFC 3339, and plain dates.

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};

/// Parses a feed date; `None` when nothing date-like is found.
pub fn parse_date(input: &str) -> Option<DateTime<Utc>> {
    let text = input.trim();
    if text.is_empty() || text.len() > 100 {
        return None;
    }
    if let Ok(date) = DateTime::parse_from_rfc2822(text) {
        return Some(date.with_timezone(&Utc));
    }
    if let Ok(date) = DateTime::parse_from_rfc3339(text) {
        return Some(date.with_timezone(&Utc));
    }
    if text.as_bytes()[0].is_ascii_digit()
        && text.len() >= 8
        && text
            .as_bytes()
            .get(4)
            .is_some_and(|b| matches!(b, b'-' | b'/' | b'.'))
        && let Some(date) = parse_iso_like(text)
    {
        return Some(date);
    }
    parse_rfc822_like(text)
}

/// `2024-01-05`, `2024-01-05T10:00`, `2024-01-05 10:00:00 +0100`, `2024/01/05 10:00Z`.
fn parse_iso_like(text: &str) -> Option<DateTime<Utc>> {
    let date_part: String = text
        .chars()
        .take(10)
        .map(|c| if c == '/' || c == '.' { '-' } else { c })
        .collect();
    let date = NaiveDate::parse_from_str(&date_part, "%Y-%m-%d").ok()?;
    let rest = text.get(10..)?.trim_start_matches(['T', 't', ' ']);
    if rest.is_empty() {
        return Some(Utc.from_utc_datetime(&date.and_time(NaiveTime::MIN)));
    }
    let zone_start = rest
        .char_indices()
        .skip(1)
        .find(|(_, c)| matches!(c, '+' | '-' | 'Z' | 'z' | ' ') || c.is_ascii_alphabetic())
        .map_or(rest.len(), |(index, _)| index);
    let time = parse_time(&rest[..zone_start])?;
    let offset = parse_zone(rest[zone_start..].trim()).unwrap_or(0);
    to_utc(date.and_time(time), offset)
}

/// Day name (ignored, may be wrong), day, month name, year, time, zone — in the
/// orders feeds use them.
fn parse_rfc822_like(text: &str) -> Option<DateTime<Utc>> {
    let lowered = text.to_ascii_lowercase();
    let tokens: Vec<&str> = lowered
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|token| !token.is_empty())
        .collect();
    let mut day = None;
    let mut month = None;
    let mut year = None;
    let mut time = None;
    let mut offset = None;
    for token in tokens {
        if let Some(number) = month_number(token) {
            month.get_or_insert(number);
        } else if token.contains(':') && time.is_none() {
            let (clock, zone) = split_trailing_zone(token);
            time = parse_time(clock);
            if let Some(zone) = zone {
                offset = parse_zone(zone);
            }
        } else if token.chars().all(|c| c.is_ascii_digit()) {
            let value: i32 = token.parse().ok()?;
            if token.len() <= 2 && day.is_none() && value >= 1 {
                day = Some(value as u32);
            } else if year.is_none() {
                year = Some(expand_year(value, token.len()));
            }
        } else if let Some(zone) = parse_zone(token) {
            offset.get_or_insert(zone);
        } else if let Some((d, m)) = split_day_month(token) {
            day.get_or_insert(d);
            month.get_or_insert(m);
        }
    }
    let date = NaiveDate::from_ymd_opt(year?, month?, day?)?;
    to_utc(
        date.and_time(time.unwrap_or(NaiveTime::MIN)),
        offset.unwrap_or(0),
    )
}

/// `05-jan-2024`-style tokens are rare; `5jan` never occurs. Handles `05-jan`.
fn split_day_month(token: &str) -> Option<(u32, u32)> {
    let (day, month) = token.split_once(['-', '.'])?;
    Some((day.parse().ok()?, month_number(month)?))
}

fn split_trailing_zone(token: &str) -> (&str, Option<&str>) {
    match token.find(|c: char| c == '+' || c == '-' || c.is_ascii_alphabetic()) {
        Some(index) if index > 0 => (&token[..index], Some(&token[index..])),
        _ => (token, None),
    }
}

fn expand_year(value: i32, digits: usize) -> i32 {
    match digits {
        1 | 2 if value < 50 => 2000 + value,
        1 | 2 => 1900 + value,
        _ => value,
    }
}

fn to_utc(local: NaiveDateTime, offset_seconds: i32) -> Option<DateTime<Utc>> {
    let offset = FixedOffset::east_opt(offset_seconds)?;
    Some(
        offset
            .from_local_datetime(&local)
            .single()?
            .with_timezone(&Utc),
    )
}

/// `10:00`, `10:00:00`, `10:00:00.123`, `9.30` is not accepted.
fn parse_time(text: &str) -> Option<NaiveTime> {
    let mut parts = text.trim().split(':');
    let hour: u32 = parts.next()?.trim().parse().ok()?;
    let minute: u32 = parts.next()?.trim().parse().ok()?;
    let (second, nanos) = match parts.next() {
        Some(seconds) => {
            let (whole, fraction) = seconds.split_once(['.', ',']).unwrap_or((seconds, ""));
            let second: u32 = whole.trim().parse().ok()?;
            let digits: String = fraction
                .chars()
                .take_while(char::is_ascii_digit)
                .take(9)
                .collect();
            let nanos = if digits.is_empty() {
                0
            } else {
                digits.parse::<u32>().ok()? * 10u32.pow(9 - digits.len() as u32)
            };
            (second.min(59), nanos)
        }
        None => (0, 0),
    };
    if hour == 24 && minute == 0 {
        return NaiveTime::from_hms_opt(23, 59, 59);
    }
    NaiveTime::from_hms_nano_opt(hour, minute, second, nanos)
}

/// Zone names and numeric offsets (`+0100`, `+01:00`, `-5`, `GMT+2`), in seconds east.
fn parse_zone(token: &str) -> Option<i32> {
    let token = token.trim().trim_matches(|c| c == '(' || c == ')');
    let named = match token.to_ascii_lowercase().as_str() {
        "z" | "gmt" | "ut" | "utc" | "wet" | "uct" => Some(0),
        "ist" => Some(19800),
        "bst" | "cet" | "met" | "west" => Some(3600),
        "cest" | "eet" | "mest" | "sast" => Some(7200),
        "eest" | "msk" => Some(10800),
        "edt" => Some(-4 * 3600),
        "est" | "cdt" => Some(-5 * 3600),
        "cst" | "mdt" => Some(-6 * 3600),
        "mst" | "pdt" => Some(-7 * 3600),
        "pst" | "akdt" => Some(-8 * 3600),
        "akst" => Some(-9 * 3600),
        "hst" => Some(-10 * 3600),
        "jst" | "kst" => Some(9 * 3600),
        "aest" => Some(10 * 3600),
        "aedt" => Some(11 * 3600),
        "nzst" => Some(12 * 3600),
        "nzdt" => Some(13 * 3600),
        _ => None,
    };
    if named.is_some() {
        return named;
    }
    let numeric = token
        .strip_prefix("gmt")
        .or_else(|| token.strip_prefix("GMT"))
        .or_else(|| token.strip_prefix("utc"))
        .or_else(|| token.strip_prefix("UTC"))
        .unwrap_or(token);
    let (sign, digits) = match numeric.as_bytes().first()? {
        b'+' => (1, &numeric[1..]),
        b'-' => (-1, &numeric[1..]),
        _ => return None,
    };
    let digits: String = digits.chars().filter(|c| *c != ':').collect();
    if digits.is_empty() || digits.len() > 4 || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (hours, minutes): (i32, i32) = match digits.len() {
        1 | 2 => (digits.parse().ok()?, 0),
        3 => (digits[..1].parse().ok()?, digits[1..].parse().ok()?),
        _ => (digits[..2].parse().ok()?, digits[2..].parse().ok()?),
    };
    if hours > 14 || minutes > 59 {
        return None;
    }
    Some(sign * (hours * 3600 + minutes * 60))
}

fn month_number(token: &str) -> Option<u32> {
    let token = token.trim_end_matches('.');
    if token.len() < 3 || !token.is_char_boundary(3) {
        return None;
    }
    const MONTHS: [(&str, u32); 16] = [
        ("jan", 1),
        ("feb", 2),
        ("mar", 3),
        ("apr", 4),
        ("may", 5),
        ("jun", 6),
        ("jul", 7),
        ("aug", 8),
        ("sep", 9),
        ("oct", 10),
        ("nov", 11),
        ("dec", 12),
        // German and French spellings seen in feeds.
        ("mär", 3),
        ("mai", 5),
        ("okt", 10),
        ("dez", 12),
    ];
    let key = token.get(..3).or_else(|| token.get(..4))?;
    MONTHS
        .iter()
        .find(|(name, _)| *name == key)
        .map(|(_, number)| *number)
        .or_else(|| token.starts_with("mär").then_some(3))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iso(input: &str) -> Option<String> {
        parse_date(input).map(|date| date.format("%Y-%m-%dT%H:%M:%SZ").to_string())
    }

    #[test]
    fn date_table() {
        let cases = [
            ("Tue, 10 Jun 2003 04:00:00 GMT", "2003-06-10T04:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 +0200", "2003-06-10T02:00:00Z"),
            ("Tue, 10 Jun 2003 04:00 EST", "2003-06-10T09:00:00Z"),
            ("tue, 10 jun 2003 04:00:00 pdt", "2003-06-10T11:00:00Z"),
            ("Mon, 10 Jun 2003 04:00:00 GMT", "2003-06-10T04:00:00Z"),
            (
                "Wednesday, 10 June 2003 04:00:00 GMT",
                "2003-06-10T04:00:00Z",
            ),
            ("10 Jun 03 04:00:00 GMT", "2003-06-10T04:00:00Z"),
            ("10 Jun 99 04:00:00 GMT", "1999-06-10T04:00:00Z"),
            ("Tue 10 Jun 2003 04:00:00 +02:00", "2003-06-10T02:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00", "2003-06-10T04:00:00Z"),
            ("Tue, 10 Jun 2003", "2003-06-10T00:00:00Z"),
            ("Tue, 3 Jun 2003 4:00:00 -0500", "2003-06-03T09:00:00Z"),
            ("Jun 10, 2003 04:00:00 GMT", "2003-06-10T04:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 GMT+2", "2003-06-10T02:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 UT", "2003-06-10T04:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 Z", "2003-06-10T04:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00.5 GMT", "2003-06-10T04:00:00Z"),
            ("Di, 10 Dez 2003 04:00:00 +0100", "2003-12-10T03:00:00Z"),
            ("2003-06-10T04:00:00Z", "2003-06-10T04:00:00Z"),
            ("2003-06-10T04:00:00+02:00", "2003-06-10T02:00:00Z"),
            ("2003-06-10T04:00:00.123-05:00", "2003-06-10T09:00:00Z"),
            ("2003-06-10 04:00:00", "2003-06-10T04:00:00Z"),
            ("2003-06-10 04:00:00 +0100", "2003-06-10T03:00:00Z"),
            ("2003-06-10T04:00", "2003-06-10T04:00:00Z"),
            ("2003-06-10", "2003-06-10T00:00:00Z"),
            ("2003/06/10", "2003-06-10T00:00:00Z"),
            ("Tue, 10 Jun 2003 24:00:00 GMT", "2003-06-10T23:59:59Z"),
        ];
        for (input, expected) in cases {
            assert_eq!(iso(input).as_deref(), Some(expected), "{input}");
        }
    }

    #[test]
    fn garbage_is_not_a_date() {
        for input in [
            "",
            "soon",
            "32 Jan 2003",
            "Tue, 10 Foo 2003",
            "2003-13-45",
            "ééé:é",
        ] {
            assert_eq!(iso(input), None, "{input}");
        }
    }
}
