//! Every query parameter a handler reads from the raw query is in the OpenAPI document,
//! so schemathesis and `boundary_values.rs` (both driven by the document) send it.
//!
//! What broke: polling `since` and `cursor`, projects `days`, alert `page` and
//! `sinceDate` and a dozen others were read by handlers but absent from the document;
//! the boundary-value test kept a hand-written list of them, and schemathesis never sent
//! them at all. This test reads the route sources: the names each handler (and the
//! helpers of its file that it calls) reads with `query_value`, `query_list` and the
//! like from its query pairs, against the parameters the served document lists for its
//! method and path. A handler that hands its pairs to a service's query type
//! (`MatchesQuery::from_query(&query)` in `app/src`) reads what that function reads.
//! Handlers that take a typed query (`ApiQuery<SomeStruct>`) are checked by serde, which
//! refuses no field it does not know, and are not covered here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use regex::Regex;

/// One function of a routes file: its name and its text (to the next function).
struct Function {
    name: String,
    text: String,
    /// The `#[utoipa::path(method, path = "…"` just before it, if any.
    operation: Option<(String, String)>,
}

fn functions(source: &str) -> Vec<Function> {
    let start =
        Regex::new(r"(?m)^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s+(\w+)").expect("regex");
    let operation =
        Regex::new(r#"#\[utoipa::path\(\s*(\w+)\s*,\s*path\s*=\s*"([^"]+)""#).expect("regex");
    let starts: Vec<(usize, String)> = start
        .captures_iter(source)
        .map(|captures| {
            let whole = captures.get(0).expect("match");
            (whole.start(), captures[1].to_owned())
        })
        .collect();
    let mut found = Vec::new();
    for (index, (at, name)) in starts.iter().enumerate() {
        let end = starts
            .get(index + 1)
            .map_or(source.len(), |(next, _)| *next);
        let before_start = if index == 0 { 0 } else { starts[index - 1].0 };
        let before = &source[before_start..*at];
        // The attribute belongs to this function when nothing but attributes and
        // comments follow it: it is the last one before the function.
        let operation = operation
            .captures_iter(before)
            .last()
            .filter(|captures| {
                let tail = &before[captures.get(0).expect("match").end()..];
                !tail.contains("\n}\n")
            })
            .map(|captures| (captures[1].to_owned(), captures[2].to_owned()));
        found.push(Function {
            name: name.clone(),
            text: source[*at..end].to_owned(),
            operation,
        });
    }
    found
}

/// The names a function reads from query pairs directly.
fn names_read(text: &str) -> BTreeSet<String> {
    let read =
        Regex::new(r#"\w+\(\s*&?(?:query|pairs|params)\s*,\s*"([A-Za-z][A-Za-z0-9]*)"\s*[,)]"#)
            .expect("regex");
    read.captures_iter(text)
        .map(|captures| captures[1].to_owned())
        .collect()
}

/// The functions of the application's sources that read query pairs, by the name a
/// handler calls them with: `Type::function` inside `impl Type`, else the bare name.
fn service_readers(app_src: &Path) -> Vec<(String, BTreeSet<String>)> {
    let implementation =
        Regex::new(r"(?m)^impl(?:<[^>]*>)?\s+(?:[\w:]+\s+for\s+)?(\w+)").expect("regex");
    let mut found = Vec::new();
    let mut pending = vec![app_src.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("app sources") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            if path.extension().is_none_or(|ext| ext != "rs") {
                continue;
            }
            let source = std::fs::read_to_string(&path).expect("source");
            let impls: Vec<(usize, String)> = implementation
                .captures_iter(&source)
                .map(|captures| {
                    (
                        captures.get(0).expect("match").start(),
                        captures[1].to_owned(),
                    )
                })
                .collect();
            for function in functions(&source) {
                let reads = names_read(&function.text);
                if reads.is_empty() {
                    continue;
                }
                let at = source
                    .find(&function.text)
                    .expect("the function is in its file");
                // Inside the last `impl` before it, unless that block closed since.
                let owner = impls
                    .iter()
                    .rev()
                    .find(|(start, _)| *start < at)
                    .filter(|(start, _)| !source[*start..at].contains("\n}\n"))
                    .map(|(_, owner)| owner.clone());
                let name = match owner {
                    Some(owner) => format!("{owner}::{}", function.name),
                    None => function.name.clone(),
                };
                found.push((name, reads));
            }
        }
    }
    found
}

/// Whether `text` calls `name` (`Type::function`) itself, not a longer name ending in it
/// (`OtherType::function`).
fn calls(text: &str, name: &str) -> bool {
    let call = format!("{name}(");
    text.match_indices(&call).any(|(at, _)| {
        text[..at]
            .chars()
            .next_back()
            .is_none_or(|before| !(before.is_alphanumeric() || before == '_'))
    })
}

/// What each handler of one routes file reads, helpers of the file and the services'
/// query readers (`services`) included.
fn handler_reads(
    source: &str,
    services: &[(String, BTreeSet<String>)],
) -> Vec<((String, String), BTreeSet<String>)> {
    let functions = functions(source);
    let direct: BTreeMap<&str, BTreeSet<String>> = functions
        .iter()
        .map(|function| (function.name.as_str(), names_read(&function.text)))
        .collect();
    let mut handlers = Vec::new();
    for function in &functions {
        let Some(operation) = &function.operation else {
            continue;
        };
        let mut reads = BTreeSet::new();
        let mut seen = BTreeSet::new();
        let mut pending = vec![function];
        while let Some(current) = pending.pop() {
            if !seen.insert(current.name.as_str()) {
                continue;
            }
            reads.extend(direct[current.name.as_str()].iter().cloned());
            for (name, read) in services {
                if name.contains("::") && calls(&current.text, name) {
                    reads.extend(read.iter().cloned());
                }
            }
            for helper in &functions {
                let called = helper.operation.is_none()
                    && (current.text.contains(&format!(" {}(", helper.name))
                        || current.text.contains(&format!("::{}(", helper.name))
                        || current.text.contains(&format!("({}(", helper.name))
                        || current.text.contains(&format!("!{}(", helper.name)));
                if called {
                    pending.push(helper);
                }
            }
        }
        handlers.push((operation.clone(), reads));
    }
    handlers
}

#[test]
fn every_query_parameter_a_handler_reads_is_documented() {
    let document = podlens_api::openapi::document();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let routes = manifest.join("src/routes");
    let services = service_readers(&manifest.join("../app/src"));
    let mut checked = 0;
    let mut missing = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&routes)
        .expect("routes")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .collect();
    files.sort();
    for file in files {
        let source = std::fs::read_to_string(&file).expect("source");
        for ((method, path), reads) in handler_reads(&source, &services) {
            let operation = &document["paths"][&path][&method];
            assert!(
                operation.is_object(),
                "{method} {path} ({}) is not in the document",
                file.display()
            );
            let documented: BTreeSet<&str> = operation["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|parameter| parameter["in"] == "query")
                .filter_map(|parameter| parameter["name"].as_str())
                .collect();
            checked += reads.len();
            for name in reads {
                if !documented.contains(name.as_str()) {
                    missing.push(format!("{method} {path}: {name}"));
                }
            }
        }
    }
    assert!(
        checked > 30,
        "the scan found only {checked} parameters read: has the routes' style changed?"
    );
    assert!(
        missing.is_empty(),
        "query parameters read by handlers but not in their #[utoipa::path] params:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_scan_sees_reads_through_helpers() {
    let source = r#"
#[utoipa::path(get, path = "/api/v1/things", tag = "things",
    responses((status = 200, description = "OK")))]
pub async fn list(Query(query): Query) -> ApiResult<()> {
    let days = recent_days(&query)?;
    let filter = Filter::from_query(&query)?;
    let page = positive(&query, "page", 1, 10)?;
    Ok(())
}

fn recent_days(pairs: &[(String, String)]) -> ApiResult<i64> {
    query_value(pairs, "days")
}

impl Filter {
    fn from_query(pairs: &[(String, String)]) -> ApiResult<Filter> {
        query_list(pairs, "states")
    }
}

fn unused(query: &[(String, String)]) {
    query_value(query, "never");
}
"#;
    let reads = handler_reads(source, &[]);
    assert_eq!(reads.len(), 1);
    let ((method, path), names) = &reads[0];
    assert_eq!((method.as_str(), path.as_str()), ("get", "/api/v1/things"));
    assert_eq!(
        names.iter().map(String::as_str).collect::<Vec<_>>(),
        ["days", "page", "states"]
    );
}

#[test]
fn the_scan_follows_a_handler_into_its_service_query_type() {
    let app = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        app.path().join("things.rs"),
        r#"
pub struct ThingsQuery;

impl ThingsQuery {
    pub fn from_query(query: &[(String, String)]) -> AppResult<ThingsQuery> {
        let page = positive(query, "page", 1, 10)?;
        query_value(query, "sortBy");
        Ok(ThingsQuery)
    }
}

pub struct OtherQuery;

impl OtherQuery {
    pub fn from_query(query: &[(String, String)]) -> AppResult<OtherQuery> {
        query_value(query, "never");
        Ok(OtherQuery)
    }
}
"#,
    )
    .expect("write");
    let services = service_readers(app.path());
    let handler = r#"
#[utoipa::path(get, path = "/api/v1/things", tag = "things",
    responses((status = 200, description = "OK")))]
pub async fn list(Query(query): Query) -> ApiResult<()> {
    let query = ThingsQuery::from_query(&query)?;
    Ok(())
}
"#;
    let reads = handler_reads(handler, &services);
    assert_eq!(
        reads[0].1.iter().map(String::as_str).collect::<Vec<_>>(),
        ["page", "sortBy"]
    );
}
