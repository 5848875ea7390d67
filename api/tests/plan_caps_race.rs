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

/// Usage used to be capped per member while plans are the team's: five members of a
/// business team got five times its allowance. Two members of one business team
/// asking for a podcast's advanced contacts at once (SPEC.md §9: 10 a month for the
/// team) get 10 between them; the others answer 429 with the team's limit; each
/// member's own calls are kept, and add up to the 10.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_members_of_a_team_share_its_monthly_cap() {
    const TEAM_CONTACTS: usize = 10;
    const EACH: usize = 12;
    let http = start().await;
    let owner = podlens_app::runtime::block_on_own_thread(
        http.state
            .accounts
            .create_api_key("race-owner@example.com", "business"),
    )
    .unwrap();
    let now = chrono::Utc::now();
    let (_, token) = podlens_app::runtime::block_on_own_thread(http.state.members.invite(
        &owner.account,
        "race-member@example.com",
        podlens_app::accounts::members::Role::Member,
        now,
    ))
    .unwrap();
    let member =
        podlens_app::runtime::block_on_own_thread(http.state.members.accept(&token, now)).unwrap();
    assert_eq!(member.team_id, owner.account.team_id);
    let member_key =
        podlens_app::runtime::block_on_own_thread(http.state.accounts.create_team_key(&member))
            .unwrap()
            .api_key;
    let podcast = common::shared().fixture.transcript_podcast_id;
    let path = format!("/api/v1/podcasts/{podcast}/contacts");
    let calls = (0..EACH * 2).map(|n| {
        let key = if n % 2 == 0 {
            owner.api_key.clone()
        } else {
            member_key.clone()
        };
        let http = &http;
        let path = &path;
        async move { (n % 2, http.get(path, &key).await) }
    });
    let answers = futures_util::future::join_all(calls).await;
    let granted: Vec<usize> = answers
        .iter()
        .filter(|(_, answer)| answer.status == 200)
        .map(|(who, _)| *who)
        .collect();
    assert_eq!(granted.len(), TEAM_CONTACTS, "24 asked by two members");
    for (_, answer) in answers.iter().filter(|(_, answer)| answer.status != 200) {
        assert_eq!(answer.status, 429, "{}", answer.body);
        assert_eq!(
            answer.headers["x-ratelimit-limit"].to_str().unwrap(),
            TEAM_CONTACTS.to_string()
        );
        assert_eq!(answer.headers["x-ratelimit-remaining"], "0");
    }
    podlens_app::runtime::block_on_own_thread(http.state.quotas.flush()).unwrap();
    let today = now.date_naive();
    let rows = podlens_app::runtime::block_on_own_thread(http.state.accounts.team_usage(
        &owner.account.team_id,
        today,
        today,
    ))
    .unwrap();
    let contacts: Vec<_> = rows
        .iter()
        .filter(|row| row.counter == "contactsRequestedCount")
        .collect();
    assert_eq!(
        contacts.iter().map(|row| row.count).sum::<u64>(),
        TEAM_CONTACTS as u64,
        "{rows:?}"
    );
    for (who, user) in [(0, &owner.account.user_id), (1, &member.user_id)] {
        let theirs = granted
            .iter()
            .filter(|&&granted_to| granted_to == who)
            .count() as u64;
        let written: u64 = contacts
            .iter()
            .filter(|row| &row.user_id == user)
            .map(|row| row.count)
            .sum();
        assert_eq!(written, theirs, "each member's own calls on their rows");
    }
}
