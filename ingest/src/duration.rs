//! `itunes:duration` values: seconds (`3600`, `3600.5`), `MM:SS`, `HH:MM:SS`
//! (with fractions), and the odd `1h 2m 3s` or `45 min`.

/// Whole seconds (rounded), or `None` for an empty, negative or unreadable value.
pub fn parse_duration(input: &str) -> Option<i64> {
    let text = input.trim();
    if text.is_empty() || text.len() > 40 {
        return None;
    }
    let seconds = if text.contains(':') {
        clock_seconds(text)?
    } else if let Ok(value) = text.replace(',', ".").parse::<f64>() {
        value
    } else {
        unit_seconds(text)?
    };
    (seconds.is_finite() && (0.0..1e9).contains(&seconds)).then(|| seconds.round() as i64)
}

fn clock_seconds(text: &str) -> Option<f64> {
    let parts: Vec<&str> = text.split(':').map(str::trim).collect();
    if parts.len() > 3 || parts.iter().any(|part| part.is_empty()) {
        return None;
    }
    let mut total = 0.0;
    for (index, part) in parts.iter().enumerate() {
        let is_last = index + 1 == parts.len();
        let value: f64 = if is_last {
            part.replace(',', ".").parse().ok()?
        } else {
            part.parse::<u32>().ok()?.into()
        };
        total = total * 60.0 + value;
    }
    Some(total)
}

fn unit_seconds(text: &str) -> Option<f64> {
    let lowered = text.to_ascii_lowercase();
    let mut total = 0.0;
    let mut number = String::new();
    let mut found = false;
    let mut chars = lowered.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() || c == '.' {
            number.push(c);
            continue;
        }
        if c.is_whitespace() {
            continue;
        }
        let mut unit = String::from(c);
        while let Some(&next) = chars.peek() {
            if !next.is_ascii_alphabetic() {
                break;
            }
            unit.push(next);
            chars.next();
        }
        let value: f64 = number.parse().ok()?;
        number.clear();
        let scale = match unit.as_str() {
            "h" | "hr" | "hrs" | "hour" | "hours" => 3600.0,
            "m" | "min" | "mins" | "minute" | "minutes" => 60.0,
            "s" | "sec" | "secs" | "second" | "seconds" => 1.0,
            _ => return None,
        };
        total += value * scale;
        found = true;
    }
    (found && number.is_empty()).then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duration_table() {
        let cases = [
            ("3600", Some(3600)),
            (" 59 ", Some(59)),
            ("3600.6", Some(3601)),
            ("12:34", Some(754)),
            ("1:02:03", Some(3723)),
            ("01:02:03.500", Some(3724)),
            ("00:00:07,4", Some(7)),
            ("90:00", Some(5400)),
            ("1h 2m 3s", Some(3723)),
            ("45 min", Some(2700)),
            ("", None),
            ("-5", None),
            ("abc", None),
            ("1::2", None),
            ("1:2:3:4", None),
            ("NaN", None),
        ];
        for (input, expected) in cases {
            assert_eq!(parse_duration(input), expected, "{input:?}");
        }
    }
}
