//! A search refused because the search pool is full (503, `Retry-After: 1`) costs the
//! caller nothing: the search is not charged against the plan (a process of its own: the
//! pool's bound is the process's).
//!
//! What broke: the search service charged the search, then handed it to the pool, which
//! refused it; the caller lost a search from their quota for a search they did not get.

mod common;

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use common::*;
use podlens_app::search::engine::QUEUED_PER_THREAD;
use podlens_app::search::on_search_pool;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_refused_for_a_full_pool_is_not_charged() {
    let (state, _dir) = state();
    let key = key(&state, "busy@example.com", "business");
    let app = podlens_api::app(state);
    let body = json!({"searchTerms": [{"searchTerm": "history", "searchType": "text",
        "searchTargets": ["podcast-title", "podcast-description"]}]});
    // One search first, served and charged: the usage page counts.
    assert_eq!(
        post(&app, "/api/v1/search/podcasts", Some(&key), body.clone())
            .await
            .status,
        StatusCode::OK
    );
    let charged = searches_used(&app, &key).await;
    assert_eq!(charged, 1);

    // Every pool thread held, and the pool's queue filled behind them.
    let gate = Arc::new((std::sync::Mutex::new(false), std::sync::Condvar::new()));
    let limit = QUEUED_PER_THREAD * rayon::current_num_threads();
    let held: Vec<_> = (0..limit)
        .map(|_| {
            let gate = gate.clone();
            tokio::spawn(on_search_pool(move || {
                let (open, changed) = &*gate;
                let mut open = open.lock().unwrap();
                while !*open {
                    open = changed.wait(open).unwrap();
                }
                Ok(())
            }))
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;

    let refused = post(&app, "/api/v1/search/podcasts", Some(&key), body.clone()).await;
    assert_eq!(
        refused.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        refused.text
    );
    assert_eq!(refused.headers["retry-after"], "1");
    assert_eq!(
        searches_used(&app, &key).await,
        charged,
        "the refused search is not charged"
    );

    let (open, changed) = &*gate;
    *open.lock().unwrap() = true;
    changed.notify_all();
    for call in held {
        call.await.unwrap().unwrap();
    }
    let served = post(&app, "/api/v1/search/podcasts", Some(&key), body).await;
    assert_eq!(served.status, StatusCode::OK);
    assert_eq!(searches_used(&app, &key).await, charged + 1);
}
