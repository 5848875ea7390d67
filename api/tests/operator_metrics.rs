//! `GET /metrics`: Prometheus text with answers counted by route template and status,
//! their latencies, and the published index generation.

mod common;

use axum::http::StatusCode;
use common::{get, key, shared, state};

/// The value of the sample `name{labels}` in a Prometheus text body.
fn sample(text: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .find_map(|line| {
            let (series, value) = line.rsplit_once(' ')?;
            let (metric, rest) = series.split_once('{').unwrap_or((series, ""));
            if metric != name {
                return None;
            }
            let all = labels
                .iter()
                .all(|(label, wanted)| rest.contains(&format!("{label}=\"{wanted}\"")));
            all.then(|| value.parse().ok()).flatten()
        })
}

#[tokio::test]
async fn metrics_count_answers_by_route_template_and_status() {
    let (state, _dir) = state();
    let business = key(&state, "metrics@example.com", "business");
    let app = podlens_api::app(state);
    let id = shared().fixture.batches[0].podcast.podcast_id;
    for _ in 0..3 {
        let reply = get(&app, &format!("/api/v1/podcasts/{id}"), Some(&business)).await;
        assert_eq!(reply.status, StatusCode::OK);
    }
    let missing = get(&app, "/api/v1/podcasts/no-such-show", Some(&business)).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);

    // Open to scrapers, like the health route.
    let metrics = get(&app, "/metrics", None).await;
    assert_eq!(metrics.status, StatusCode::OK, "{}", metrics.text);
    assert!(
        metrics.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain; version=0.0.4")
    );
    let text = &metrics.text;
    let route = "/api/v1/podcasts/{podcastIdOrSlug}";
    let ok = sample(
        text,
        "podlens_http_requests_total",
        &[("route", route), ("method", "GET"), ("status", "200")],
    );
    assert!(ok.is_some_and(|count| count >= 3.0), "{text}");
    let not_found = sample(
        text,
        "podlens_http_requests_total",
        &[("route", route), ("status", "404")],
    );
    assert!(not_found.is_some_and(|count| count >= 1.0), "{text}");
    // No id ever becomes a label.
    assert!(!text.contains(&id.to_string()));
    assert!(!text.contains("no-such-show"));
    let timed = sample(
        text,
        "podlens_http_request_duration_seconds_count",
        &[("route", route)],
    );
    assert!(timed.is_some_and(|count| count >= 4.0), "{text}");

    let manifest = podlens_indexer::read_manifest(&shared().dir.join("index"))
        .unwrap()
        .expect("the fixture publishes a generation");
    assert_eq!(
        sample(text, "podlens_index_generation", &[]),
        Some(manifest.generation as f64),
        "{text}"
    );
    assert!(sample(text, "podlens_index_age_seconds", &[]).is_some_and(|age| age >= 0.0));
}

/// `/metrics` was open to anyone who reached the port: routes, job failures and
/// catalog sizes. A client that is not on loopback now needs the token of
/// `podlens serve --metrics-token`, as a Bearer token.
#[tokio::test]
async fn metrics_are_refused_to_remote_clients_without_the_token() {
    use axum::body::Body;
    use axum::extract::ConnectInfo;
    use axum::http::Request;
    use std::net::SocketAddr;

    let (mut state, _dir) = state();
    let scrape = |app: &axum::Router, from: &str, token: Option<&str>| {
        let mut request = Request::builder().uri("/metrics");
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        let mut request = request.body(Body::empty()).unwrap();
        let peer: SocketAddr = from.parse().unwrap();
        request.extensions_mut().insert(ConnectInfo(peer));
        let app = app.clone();
        async move { common::send(&app, request).await.status }
    };
    let open = podlens_api::app(state.clone());
    assert_eq!(scrape(&open, "127.0.0.1:5000", None).await, StatusCode::OK);
    assert_eq!(scrape(&open, "[::1]:5000", None).await, StatusCode::OK);
    assert_eq!(
        scrape(&open, "203.0.113.7:5000", None).await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        scrape(&open, "203.0.113.7:5000", Some("guess")).await,
        StatusCode::FORBIDDEN,
        "no token configured: none is accepted"
    );
    state.metrics_token = Some("scrape-secret-1".into());
    let guarded = podlens_api::app(state);
    assert_eq!(
        scrape(&guarded, "203.0.113.7:5000", Some("scrape-secret-1")).await,
        StatusCode::OK
    );
    for wrong in [None, Some("scrape-secret-2"), Some("")] {
        assert_eq!(
            scrape(&guarded, "203.0.113.7:5000", wrong).await,
            StatusCode::FORBIDDEN,
            "{wrong:?}"
        );
    }
}
