//! Reading request bodies and query strings field by field, so each bad value is
//! answered with a message that names the field and the values it accepts.

use serde_json::{Map, Value};

use crate::error::{AppError, AppResult};

/// A JSON body that must be an object.
pub fn object(body: Value) -> AppResult<Map<String, Value>> {
    match body {
        Value::Object(map) => Ok(map),
        _ => Err(AppError::Invalid(
            "The request body must be a JSON object".into(),
        )),
    }
}

/// A field that may be absent, null, or a value: `None` when absent,
/// `Some(None)` when null.
pub fn nullable<'a>(body: &'a Map<String, Value>, name: &str) -> Option<Option<&'a Value>> {
    body.get(name)
        .map(|value| (!value.is_null()).then_some(value))
}

/// An optional string field (absent and null are both `None`).
pub fn optional_string(body: &Map<String, Value>, name: &str) -> AppResult<Option<String>> {
    match nullable(body, name).flatten() {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(AppError::Invalid(format!("{name} must be a string"))),
    }
}

/// An optional list of strings (absent and null are both `None`).
pub fn optional_strings(body: &Map<String, Value>, name: &str) -> AppResult<Option<Vec<String>>> {
    match nullable(body, name).flatten() {
        None => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| match item {
                Value::String(text) => Ok(text.clone()),
                _ => Err(AppError::Invalid(format!(
                    "{name} must be a list of strings"
                ))),
            })
            .collect::<AppResult<Vec<_>>>()
            .map(Some),
        Some(_) => Err(AppError::Invalid(format!(
            "{name} must be a list of strings"
        ))),
    }
}

/// One value of a wire enumeration, with a message listing the accepted values.
pub fn enum_value<T: Copy>(
    value: &str,
    name: &str,
    parse: fn(&str) -> Option<T>,
    all: &[T],
    as_str: fn(T) -> &'static str,
) -> AppResult<T> {
    parse(value).ok_or_else(|| {
        let accepted: Vec<&str> = all.iter().map(|&item| as_str(item)).collect();
        AppError::Invalid(format!(
            "Invalid {name} \"{value}\"; expected one of {}",
            accepted.join(", ")
        ))
    })
}

/// The values of a query parameter given repeated (`?a=x&a=y`), comma-separated
/// (`?a=x,y`) or both; empty pieces are dropped.
pub fn query_list(pairs: &[(String, String)], name: &str) -> Option<Vec<String>> {
    let values: Vec<String> = pairs
        .iter()
        .filter(|(key, _)| key == name || key == &format!("{name}[]"))
        .flat_map(|(_, value)| value.split(','))
        .map(str::trim)
        .filter(|value| !value.is_empty())
        .map(str::to_owned)
        .collect();
    (!values.is_empty()).then_some(values)
}

/// The single value of a query parameter, if given.
pub fn query_value<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs
        .iter()
        .rev()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
}

/// A whole number in `range`, when the body field is given and not null
/// ("{name} must be a whole number between {start} and {end}").
pub fn whole_field(
    body: &Map<String, Value>,
    name: &str,
    range: std::ops::RangeInclusive<u64>,
) -> AppResult<Option<u64>> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => match value.as_u64() {
            Some(n) if range.contains(&n) => Ok(Some(n)),
            _ => Err(AppError::Invalid(format!(
                "{name} must be a whole number between {} and {}",
                range.start(),
                range.end()
            ))),
        },
    }
}

/// A boolean, when the body field is given and not null ("{name} must be a boolean").
pub fn bool_field(body: &Map<String, Value>, name: &str) -> AppResult<Option<bool>> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(flag)) => Ok(Some(*flag)),
        Some(_) => Err(AppError::Invalid(format!("{name} must be a boolean"))),
    }
}

/// `true` or `false`, when the parameter is given ("{name} must be true or false").
pub fn query_bool(pairs: &[(String, String)], name: &str) -> AppResult<Option<bool>> {
    match query_value(pairs, name) {
        None => Ok(None),
        Some("true") => Ok(Some(true)),
        Some("false") => Ok(Some(false)),
        Some(other) => Err(AppError::Invalid(format!(
            "{name} must be true or false, got \"{other}\""
        ))),
    }
}

/// A whole number between `min` and `max`, when the parameter is given.
pub fn query_whole(
    pairs: &[(String, String)],
    name: &str,
    min: u64,
    max: u64,
) -> AppResult<Option<u64>> {
    query_value(pairs, name)
        .map(|text| whole_number(name, text, min, max))
        .transpose()
}

/// `text` as a whole number between `min` and `max` ("1e2" and "10.0" count), or why not.
pub fn whole_number(name: &str, text: &str, min: u64, max: u64) -> AppResult<u64> {
    match text.parse::<f64>() {
        Ok(n) if n.fract() == 0.0 && n >= min as f64 && n <= max as f64 => Ok(n as u64),
        _ => Err(AppError::Invalid(format!(
            "{name} must be a whole number between {min} and {max}, got \"{text}\""
        ))),
    }
}

/// A text field an update may clear: `None` when absent, `Some(None)` when null, empty
/// or blank (stored as null), else the trimmed text, refused past `max_chars`.
pub fn clearable_text(
    body: &Map<String, Value>,
    name: &str,
    max_chars: usize,
) -> AppResult<Option<Option<String>>> {
    if !body.contains_key(name) {
        return Ok(None);
    }
    let text = optional_string(body, name)?
        .map(|text| text.trim().to_owned())
        .filter(|text| !text.is_empty());
    if let Some(text) = &text
        && text.chars().count() > max_chars
    {
        return Err(AppError::Invalid(format!(
            "{name} must be at most {max_chars} characters"
        )));
    }
    Ok(Some(text))
}

/// Refuses a body field not in `allowed`, naming it and the fields `what` takes
/// ("Unknown template field \"x\"; expected name, description or template").
pub fn only_fields(body: &Map<String, Value>, allowed: &[&str], what: &str) -> AppResult<()> {
    match body.keys().find(|key| !allowed.contains(&key.as_str())) {
        Some(unknown) => {
            let expected = match allowed.split_last() {
                Some((last, [])) => (*last).to_owned(),
                Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                None => "no fields".to_owned(),
            };
            Err(AppError::Invalid(format!(
                "Unknown {what} field \"{unknown}\"; expected {expected}"
            )))
        }
        None => Ok(()),
    }
}

/// A required text given: trimmed, not blank ("{name} is required"), at most
/// `max_chars` characters.
pub fn bounded_text(text: &str, name: &str, max_chars: usize) -> AppResult<String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(AppError::Invalid(format!("{name} is required")));
    }
    if text.chars().count() > max_chars {
        return Err(AppError::Invalid(format!(
            "{name} must be at most {max_chars} characters"
        )));
    }
    Ok(text.to_owned())
}

/// A date (`YYYY-MM-DD`), an RFC 3339 time, or a time without offset (taken as UTC).
pub fn parse_date(text: &str) -> AppResult<chrono::DateTime<chrono::Utc>> {
    if let Ok(at) = chrono::DateTime::parse_from_rfc3339(text) {
        return Ok(at.with_timezone(&chrono::Utc));
    }
    if let Ok(at) = chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f") {
        return Ok(at.and_utc());
    }
    chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .and_then(|date| date.and_hms_opt(0, 0, 0))
        .map(|at| at.and_utc())
        .ok_or_else(|| {
            AppError::Invalid(format!(
                "Invalid date \"{text}\"; expected YYYY-MM-DD or an RFC 3339 time"
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
        items
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn query_lists_accept_repeats_and_commas() {
        let query = pairs(&[
            ("states", "ACTIVE,DRAFT"),
            ("states", "PENDING"),
            ("x", "1"),
        ]);
        assert_eq!(
            query_list(&query, "states").unwrap(),
            vec!["ACTIVE", "DRAFT", "PENDING"]
        );
        assert_eq!(query_list(&query, "priorities"), None);
    }

    #[test]
    fn null_and_absent_are_told_apart() {
        let body = object(serde_json::json!({"priority": null, "state": "booked"})).unwrap();
        assert_eq!(nullable(&body, "priority"), Some(None));
        assert_eq!(nullable(&body, "labels"), None);
        assert!(matches!(nullable(&body, "state"), Some(Some(_))));
    }
}
