//! Plan limits hold under parallel requests: many project creations sent at once by one
//! team on a real socket create exactly as many projects as the plan allows (SPEC.md §9:
//! business, 5), and every other one is refused with the limit's message.

mod common;
mod workflows_http;

use serde_json::json;
use workflows_http::start;

const BUSINESS_PROJECTS: usize = 5;
const AT_ONCE: usize = 24;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_project_creations_stop_exactly_at_the_plan_cap() {
    let http = start().await;
    let key = http.key("race-projects@example.com", "business");
    let calls = (0..AT_ONCE).map(|n| {
        http.call(
            "PUT",
            "/api/v1/projects",
            &key,
            Some(json!({"name": format!("Race project {n:02}")})),
        )
    });
    let answers = futures_util::future::join_all(calls).await;
    let created = answers.iter().filter(|a| a.status == 200).count();
    let refused: Vec<_> = answers.iter().filter(|a| a.status != 200).collect();
    assert_eq!(
        created, BUSINESS_PROJECTS,
        "projects created by {AT_ONCE} parallel calls"
    );
    assert_eq!(refused.len(), AT_ONCE - BUSINESS_PROJECTS);
    for answer in refused {
        assert_eq!(answer.status, 403, "{}", answer.body);
        assert_eq!(
            answer.message(),
            format!(
                "Project limit reached: the business plan allows {BUSINESS_PROJECTS} projects. \
                 Delete a project or upgrade your plan to create more."
            )
        );
    }
    let listed = http.get("/api/v1/projects", &key).await;
    let projects = listed.data()["projects"]
        .as_array()
        .expect("projects")
        .len();
    assert_eq!(projects, BUSINESS_PROJECTS);
}
