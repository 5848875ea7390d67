//! Every GET route of the served OpenAPI document, called with boundary values in each
//! query and path parameter, answers without a server error and without a panic.
//!
//! What broke: `GET /api/v1/charts/history?endDate=-262143-01-01` and
//! `GET /api/v1/podcasts/{id}/guests?sinceDays=4294967295` panicked ("DateTime -
//! TimeDelta overflowed") and answered 500; schemathesis never sent such values. The
//! routes and their parameters are read from the document the server serves, so a new
//! route or parameter is covered without a change here. Values are chosen by the
//! parameter's declared type, and every string parameter also gets the extreme dates
//! and numbers a date, a range or an id may be parsed from.
//!
//! `every_parameter_at_its_boundaries` sends each value alone (the other parameters
//! absent, path parameters naming real fixture records); `boundary_values_combined`
//! is a property test over random combinations of them across a route's parameters.

mod common;

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::Request;
use proptest::prelude::*;
use serde_json::{Value, json};
use tower::ServiceExt;

/// Integers around every width's edges, past them, and spellings that are not integers.
const INTEGERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "-0",
    "7",
    "366",
    "3651",
    "32767",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483648",
    "-2147483649",
    "4294967295",
    "4294967296",
    "9007199254740993",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "1e3",
    "1.5",
    "NaN",
    "inf",
    "",
];

/// Dates at chrono's limits and past them, calendar edges, and the numbers and ranges
/// a string parameter may be parsed into.
const STRINGS: &[&str] = &[
    "",
    " ",
    "-262143-01-01",
    "-262144-12-31",
    "+262142-12-31",
    "262143-01-01",
    "+262143-01-01",
    "0000-01-01",
    "-0001-12-31",
    "0001-01-01",
    "1970-01-01",
    "9999-12-31",
    "10000-01-01",
    "2024-02-29",
    "2025-02-29",
    "2025-13-01",
    "2025-03-05",
    "2025-03-05T00:00:00Z",
    "0",
    "-1",
    "4294967295",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999",
    "1d",
    "-1d",
    "0d",
    "30d",
    "999999999d",
    "9223372036854775807d",
    "1y",
    "all",
    "NaN",
    "\u{0}",
    "%",
    "../../etc/passwd",
    "é😀\u{202e}",
];

const BOOLEANS: &[&str] = &["true", "false", "1", "0", "TRUE", "yes", ""];

#[derive(Debug, Clone, Copy, PartialEq)]
enum Location {
    Path,
    Query,
}

#[derive(Debug, Clone)]
struct Parameter {
    name: String,
    location: Location,
    values: Vec<String>,
}

#[derive(Debug, Clone)]
struct Route {
    template: String,
    parameters: Vec<Parameter>,
}

/// A string 5,000 characters long, a value every string parameter gets too.
fn long_string() -> String {
    "a".repeat(5_000)
}

/// The boundary values of a parameter of `schema`: by type, the enumeration's own
/// values first.
fn values_for(schema: &Value) -> Vec<String> {
    let mut values: Vec<String> = schema["enum"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    let kind = schema["type"]
        .as_str()
        .or_else(|| {
            // `["integer", "null"]` for optional ones.
            schema["type"].as_array().and_then(|kinds| {
                kinds
                    .iter()
                    .filter_map(Value::as_str)
                    .find(|k| *k != "null")
            })
        })
        .unwrap_or("string");
    let typed: &[&str] = match kind {
        "integer" | "number" => INTEGERS,
        "boolean" => BOOLEANS,
        _ => STRINGS,
    };
    values.extend(typed.iter().map(|value| (*value).to_owned()));
    if !matches!(kind, "integer" | "number" | "boolean") {
        values.push(long_string());
    }
    values
}

/// The GET routes of the document with their parameters' boundary values.
fn get_routes(document: &Value) -> Vec<Route> {
    let mut routes = Vec::new();
    for (template, operations) in document["paths"].as_object().expect("paths") {
        let Some(get) = operations.get("get") else {
            continue;
        };
        let parameters: Vec<Parameter> = get["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|parameter| Parameter {
                name: parameter["name"].as_str().expect("a name").to_owned(),
                location: match parameter["in"].as_str() {
                    Some("path") => Location::Path,
                    _ => Location::Query,
                },
                values: values_for(&parameter["schema"]),
            })
            .collect();
        routes.push(Route {
            template: template.clone(),
            parameters,
        });
    }
    routes
}

/// The fixture's records for path parameters, so a route reaches past "not found".
struct Names {
    podcast_id: String,
    episode_id: String,
    project_slug: String,
}

impl Names {
    fn real(&self, parameter: &str) -> String {
        match parameter {
            "podcastIdOrSlug" | "podcastId" => self.podcast_id.clone(),
            "episodeId" => self.episode_id.clone(),
            "projectSlug" => self.project_slug.clone(),
            "chartType" => "apple".to_owned(),
            "letter" => "n".to_owned(),
            _ => "unknown".to_owned(),
        }
    }
}

fn encode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// The URI of `route` with `chosen` values (by parameter index); path parameters not
/// chosen name the fixture's records.
fn uri(route: &Route, names: &Names, chosen: &[(usize, &str)]) -> String {
    let mut path = route.template.clone();
    let mut query = Vec::new();
    for (index, parameter) in route.parameters.iter().enumerate() {
        let value = chosen
            .iter()
            .find(|(chosen_index, _)| *chosen_index == index)
            .map(|(_, value)| (*value).to_owned());
        match parameter.location {
            Location::Path => {
                let value = value.unwrap_or_else(|| names.real(&parameter.name));
                // An empty segment would name another route (or none).
                let value = if value.is_empty() {
                    " ".to_owned()
                } else {
                    value
                };
                path = path.replace(
                    &format!("{{{}}}", parameter.name),
                    &encode(&value).replace('+', "%20"),
                );
            }
            Location::Query => {
                if let Some(value) = value {
                    query.push(format!("{}={}", parameter.name, encode(&value)));
                }
            }
        }
    }
    if query.is_empty() {
        path
    } else {
        format!("{path}?{}", query.join("&"))
    }
}

/// Calls `uri` and says what went wrong: a 5xx or a panic, else `None`.
async fn server_error(app: &Router, key: &str, uri: String) -> Option<String> {
    let request = Request::builder()
        .method("GET")
        .uri(&uri)
        .header("authorization", key)
        .header("x-podlens-client", "web")
        .body(Body::empty())
        .expect("request");
    let app = app.clone();
    // A panic in a handler is caught here, as a failure of this call.
    let answer = tokio::spawn(async move {
        let response = app.oneshot(request).await.expect("infallible");
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), 4096)
            .await
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            .unwrap_or_default();
        (status, body)
    })
    .await;
    match answer {
        Ok((status, _)) if !status.is_server_error() => None,
        Ok((status, body)) => Some(format!("{status} {uri}: {body}")),
        Err(error) => Some(format!("panicked {uri}: {error}")),
    }
}

struct Setup {
    app: Router,
    key: String,
    routes: Vec<Route>,
    names: Names,
    _dir: tempfile::TempDir,
}

async fn setup() -> Setup {
    let (state, dir) = common::state();
    let key = common::key(&state, "boundaries@example.com", "admin");
    let app = podlens_api::app(state);
    let fixture = &common::shared().fixture;
    let created = common::call(
        &app,
        "PUT",
        "/api/v1/projects",
        Some(&key),
        Some(json!({"name": "Boundary tour", "projectTypes": ["guest-booking"]})),
    )
    .await;
    let project_slug = common::ok_data(&created)["project"]["slug"]
        .as_str()
        .unwrap_or_else(|| panic!("{}", created.text))
        .to_owned();
    let document = common::get(&app, "/api/v1/openapi.json", None).await.body;
    let routes = get_routes(&document);
    assert!(routes.len() > 70, "{} GET routes", routes.len());
    Setup {
        app,
        key,
        routes,
        names: Names {
            podcast_id: fixture.transcript_podcast_id.to_string(),
            episode_id: fixture.transcript_episode_id.to_string(),
            project_slug,
        },
        _dir: dir,
    }
}

/// Runs `calls` four at a time; the failures, sorted.
async fn failures(setup: &Setup, calls: Vec<String>) -> Vec<String> {
    let limit = Arc::new(tokio::sync::Semaphore::new(4));
    let mut running = tokio::task::JoinSet::new();
    for uri in calls {
        let permit = limit.clone().acquire_owned().await.expect("semaphore");
        let (app, key) = (setup.app.clone(), setup.key.clone());
        running.spawn(async move {
            let failure = server_error(&app, &key, uri).await;
            drop(permit);
            failure
        });
    }
    let mut failed = Vec::new();
    while let Some(joined) = running.join_next().await {
        failed.extend(joined.expect("call task"));
    }
    failed.sort();
    failed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_parameter_at_its_boundaries() {
    let setup = setup().await;
    let mut calls = Vec::new();
    for route in &setup.routes {
        calls.push(uri(route, &setup.names, &[]));
        for (index, parameter) in route.parameters.iter().enumerate() {
            for value in &parameter.values {
                calls.push(uri(route, &setup.names, &[(index, value)]));
            }
        }
        // Every parameter at once at its first value past a type's edge.
        let extremes: Vec<(usize, &str)> = route
            .parameters
            .iter()
            .enumerate()
            .filter(|(_, parameter)| parameter.location == Location::Query)
            .map(|(index, parameter)| {
                let extreme = parameter
                    .values
                    .iter()
                    .find(|value| {
                        value.as_str() == "9223372036854775807" || value.as_str() == "-262143-01-01"
                    })
                    .unwrap_or(&parameter.values[0]);
                (index, extreme.as_str())
            })
            .collect();
        calls.push(uri(route, &setup.names, &extremes));
    }
    let count = calls.len();
    let failed = failures(&setup, calls).await;
    assert!(
        failed.is_empty(),
        "{} of {count} calls failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// A route and, for each of its parameters, a value index or nothing.
fn combinations() -> impl Strategy<Value = (prop::sample::Index, Vec<Option<prop::sample::Index>>)>
{
    (
        any::<prop::sample::Index>(),
        prop::collection::vec(
            prop::option::weighted(0.7, any::<prop::sample::Index>()),
            12,
        ),
    )
}

#[test]
fn boundary_values_combined() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let setup = runtime.block_on(setup());
    let config = ProptestConfig {
        cases: 384,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest!(config, |((route, picks) in combinations())| {
        let route = route.get(&setup.routes);
        let chosen: Vec<(usize, &str)> = route
            .parameters
            .iter()
            .zip(&picks)
            .enumerate()
            .filter_map(|(index, (parameter, pick))| {
                pick.as_ref().map(|pick| (index, pick.get(&parameter.values).as_str()))
            })
            .collect();
        let uri = uri(route, &setup.names, &chosen);
        let failure = runtime.block_on(server_error(&setup.app, &setup.key, uri));
        prop_assert!(failure.is_none(), "{}", failure.unwrap_or_default());
    });
}
