//! The OpenAPI 3.1 document, generated from the handlers' annotations, served at
//! `/api/v1/openapi.json`, and the interactive docs page at `/api-docs`.

use axum::Json;
use axum::Router;
use axum::response::Html;
use axum::routing::get;
use std::sync::OnceLock;

use serde_json::{Value, json};
use utoipa::Modify;
use utoipa::OpenApi;
use utoipa::ToSchema;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityScheme};

use crate::routes;
use crate::state::AppState;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Podlens API",
        description = "Podcast search and intelligence. Responses are wrapped as {\"status\": \"OK\", \"data\": …}; failures as {\"status\": CODE, \"data\": {\"message\": …}}. Send your API key in the Authorization header (raw or Bearer).",
    ),
    paths(
        routes::health::health,
        routes::auth::sign_up,
        routes::auth::sign_in,
        routes::auth::validate,
        routes::auth::email_link,
        routes::auth::session,
        routes::auth::update_session,
        routes::auth::sign_out,
        routes::search::search_podcasts,
        routes::search::search_episodes,
        routes::search::semantic_search,
        routes::autocomplete::autocomplete,
        routes::autocomplete::facets,
        routes::podcasts::details,
        routes::podcasts::multiple,
        routes::podcasts::by_feed_url,
        routes::podcasts::id_lookup,
        routes::podcasts::directory,
        routes::podcasts::latest,
        routes::podcasts::episodes,
        routes::podcasts::related,
        routes::podcasts::guests,
        routes::podcast_sponsors::sponsors,
        routes::podcast_catalogue::episode_catalogue,
        routes::podcast_all_details::all_details,
        routes::podcast_refresh::refresh,
        routes::episodes::details,
        routes::episodes::latest,
        routes::episodes::transcript_text,
        routes::episodes::transcript_text_preview,
        routes::episodes::transcript_timestamps,
        routes::episodes::transcript_timestamps_preview,
        routes::episodes::download_transcript,
        routes::stats::podcast2,
        routes::usage::current,
        routes::usage::daily,
        routes::usage::monthly,
        routes::usage::members,
        routes::teams::list_podcasts,
        routes::teams::add_podcast,
        routes::teams::remove_one,
        routes::teams::remove_many,
        routes::teams::users,
        routes::members::invitations,
        routes::members::invite,
        routes::members::revoke,
        routes::members::accept,
        routes::members::change_role,
        routes::members::remove,
        routes::podcast_details::contacts,
        routes::podcast_details::social_media,
        routes::podcast_details::reviews,
        routes::podcast_details::youtube,
        routes::podcast_details::authority_score,
        routes::podcast_details::authority_score_details,
        routes::charts::chart,
        routes::charts::latest,
        routes::charts::availability,
        routes::charts::movement,
        routes::charts::history,
        routes::charts::appearances,
        routes::charts::podcast_history,
        routes::charts::categories,
        routes::charts::countries,
        routes::charts::podcast_charts,
        routes::alerts::create,
        routes::alerts::get_one,
        routes::alerts::update,
        routes::alerts::delete_one,
        routes::alerts::list,
        routes::alerts::matches,
        routes::alerts::history,
        routes::guest_profiles::create,
        routes::guest_profiles::create_from_form,
        routes::guest_profiles::details,
        routes::guest_profiles::archive,
        routes::guest_profiles::update_bio,
        routes::guest_profiles::update_contact,
        routes::guest_profiles::update_socials,
        routes::guest_profiles::upload_documents,
        routes::guest_profiles::regenerate_bio,
        routes::guest_profiles::download,
        routes::agent::project_relevancy,
        routes::agent::alternative_spellings,
        routes::agent::listed_relevancy,
        routes::agent::run_kind,
        routes::guest_prep::generate,
        routes::custom_prompts::list,
        routes::custom_prompts::create,
        routes::custom_prompts::get_one,
        routes::custom_prompts::update,
        routes::custom_prompts::delete_one,
        routes::deep_analysis::episode_analysis,
        routes::deep_analysis::request_for_podcast,
        routes::deep_analysis::list_for_podcast,
        routes::preferences::get_preferences,
        routes::preferences::put_preferences,
        routes::preferences::get_settings,
        routes::preferences::patch_settings,
        routes::transcriptions::request_episode,
        routes::transcriptions::request_podcast,
        routes::transcriptions::list_transcriptions,
        routes::transcriptions::request_history,
        routes::polling::updates,
        routes::strategies::list,
        routes::strategies::generate,
        routes::strategies::update,
        routes::strategies::delete_one,
        routes::passages::passages,
        routes::projects::create_project,
        routes::projects::list_projects,
        routes::projects::update_project,
        routes::projects::delete_project,
        routes::projects::project_details,
        routes::projects::add_podcast,
        routes::projects::listed_podcast_details,
        routes::projects::recent_episodes,
        routes::projects::update_listed_podcast,
        routes::projects::remove_listed_podcast,
        routes::outreach::generate,
        routes::outreach_templates::list,
        routes::outreach_templates::create,
        routes::outreach_templates::get_one,
        routes::outreach_templates::update,
        routes::outreach_templates::delete_one,
        routes::outreach::history,
        routes::outreach::details,
        routes::exports::export_search,
        routes::exports::export_project,
        routes::charts::podcast_presence,
        routes::api_keys::list,
        routes::api_keys::create,
        routes::api_keys::revoke,
        routes::operator::backup,
        routes::webhooks::list,
        routes::webhooks::create,
        routes::webhooks::delete_one,
        routes::webhooks::deliveries,
    ),
    components(schemas(ErrorBody)),
    modifiers(&ApiKeyScheme),
    security(("api_key" = []))
)]
pub struct ApiDoc;

struct ApiKeyScheme;

impl Modify for ApiKeyScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "api_key",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
                "Authorization",
                "Your API key, raw or as `Bearer <key>`",
            ))),
        );
    }
}

/// Every failure's body: `{"status": CODE, "data": {"message": …}}`.
#[derive(ToSchema)]
#[schema(as = Error)]
pub struct ErrorBody {
    /// The stable code of the failure: `BAD_REQUEST`, `UNAUTHORIZED`, `FORBIDDEN`,
    /// `NOT_FOUND`, `CONFLICT`, `PAYLOAD_TOO_LARGE`, `TOO_MANY_REQUESTS`, `SERVICE_UNAVAILABLE`,
    /// `INTERNAL_SERVER_ERROR`.
    #[allow(dead_code)]
    status: String,
    #[allow(dead_code)]
    data: ErrorMessage,
}

/// What went wrong, in words meant for the caller.
#[derive(ToSchema)]
pub struct ErrorMessage {
    #[allow(dead_code)]
    message: String,
}

/// The Pod Engine SDK's wire models (`python3 scripts/sdk-schema.py > api/sdk-schema.json`,
/// from podengine 0.3.2): its response models, one request model per operation that sends
/// a body, and `x-sdk-operations`, the method, path and models of each SDK operation.
const SDK_SCHEMA: &str = include_str!("../sdk-schema.json");

/// The document served at `/api/v1/openapi.json` and printed by `podlens openapi`.
///
/// The paths, their parameters, the Podlens-only bodies and the error codes each route
/// answers come from the handlers' `#[utoipa::path]` annotations. The bodies of the
/// operations the official SDK has are the SDK's own models (the wire contract, which the
/// SDK validates every answer against); each such operation takes the SDK's operation id.
/// Then, for every operation: JSON answers of 2xx are wrapped in the success envelope,
/// error answers get the error envelope, and the 401/403 that the authentication
/// middleware answers on every non-open route are listed.
pub fn document() -> &'static Value {
    static DOCUMENT: OnceLock<Value> = OnceLock::new();
    DOCUMENT.get_or_init(|| {
        let sdk: Value = serde_json::from_str(SDK_SCHEMA).unwrap_or_default();
        let generated = serde_json::to_value(ApiDoc::openapi()).unwrap_or_default();
        build(generated, &sdk)
    })
}

/// Podlens routes outside the SDK whose answer is an SDK model, or an object made of SDK
/// models (the handler builds the same types as the SDK routes named beside them).
fn answers_from_sdk_models() -> [(&'static str, &'static str, Value); 7] {
    let object = |properties: Value| {
        let required: Vec<&String> = properties
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, _)| k)
            .collect();
        json!({"type": "object", "required": required, "properties": properties})
    };
    let strategy = schema_ref("GetProjectStrategiesResponseStrategiesItem");
    [
        // Creating a project answers with the project's details (GET …/details).
        (
            "put",
            "/api/v1/projects",
            schema_ref("GetProjectDetailsResponse"),
        ),
        // The onboarding form creates a guest profile as POST /api/v1/guest-profiles does.
        (
            "post",
            "/api/v1/guest-profiles/onboarding-form",
            schema_ref("CreateGuestProfileResponse"),
        ),
        // Generated strategies are listed as GET …/strategies lists them.
        (
            "post",
            "/api/v1/projects/{projectSlug}/strategies/generate",
            schema_ref("GetProjectStrategiesResponse"),
        ),
        // An updated strategy is one item of that list.
        (
            "put",
            "/api/v1/projects/{projectSlug}/strategies/{strategyId}",
            object(json!({"strategy": strategy})),
        ),
        (
            "delete",
            "/api/v1/projects/{projectSlug}/strategies/{strategyId}",
            object(json!({"message": {"type": "string"}})),
        ),
        // The listed podcasts' recent episodes, each as GET /api/v1/episodes/latest has it.
        (
            "get",
            "/api/v1/projects/{projectSlug}/podcasts/recent-episodes",
            object(json!({
                "days": {"type": "integer", "minimum": 1},
                "since": {"type": "string", "format": "date-time"},
                "total": {"type": "integer", "minimum": 0},
                "podcasts": {"type": "array", "items": object(json!({
                    "listedPodcastId": {"type": "string"},
                    "podcastId": {"type": "string"},
                    "podcastSlug": {"type": "string"},
                    "podcastTitle": {"type": "string"},
                    "episodes": {
                        "type": "array",
                        "items": schema_ref("GetLatestEpisodesResponseLatestPodcastsItemEpisodesItem"),
                    },
                }))},
            })),
        ),
        // The listed podcasts are those POST …/podcasts answers with, one at a time.
        (
            "get",
            "/api/v1/projects/{projectSlug}/podcasts/details",
            object(json!({
                "projectId": {"type": "string"},
                "projectSlug": {"type": "string"},
                "total": {"type": "integer", "minimum": 0},
                "listedPodcasts": {
                    "type": "array",
                    "items": schema_ref("AddPodcastToProjectResponseListedPodcast"),
                },
            })),
        ),
    ]
}

fn build(mut document: Value, sdk: &Value) -> Value {
    if let Some(operations) = sdk["x-sdk-operations"].as_object() {
        for (operation_id, sdk_operation) in operations {
            apply_sdk_operation(&mut document, operation_id, sdk_operation);
        }
    }
    for (method, path, schema) in answers_from_sdk_models() {
        if let Some(operation) = document["paths"]
            .get_mut(path)
            .and_then(|item| item.get_mut(method))
        {
            operation["responses"]["200"]["content"] =
                json!({"application/json": {"schema": schema}});
        }
    }
    if let Some(paths) = document["paths"].as_object_mut() {
        for (path, item) in paths.iter_mut() {
            let Some(item) = item.as_object_mut() else {
                continue;
            };
            for (method, operation) in item.iter_mut() {
                envelope_responses(operation, method, !crate::auth::is_open_path(path));
            }
        }
    }
    add_referenced_schemas(&mut document, &sdk["components"]["schemas"]);
    add_podlens_fields(&mut document);
    document
}

/// Fields Podlens answers beyond the SDK's models (the SDK's models ignore them).
fn add_podlens_fields(document: &mut Value) {
    let stats = &mut document["components"]["schemas"]["GetMultiplePodcastsResponsePodcastsItemVariant2Stats"]
        ["properties"];
    if stats.is_object() {
        stats["transcriptsUnavailable"] = json!({
            "title": "Transcriptsunavailable",
            "type": "integer",
            "description": "Episodes whose feed links a transcript Podlens does not hold: \
                the fetch failed and re-polls retry it with a backoff, up to a cap.",
        });
    }
}

/// The SDK's operation id and models on the route the server serves at the SDK's path.
fn apply_sdk_operation(document: &mut Value, operation_id: &str, sdk_operation: &Value) {
    let (Some(method), Some(path)) = (
        sdk_operation["method"].as_str(),
        sdk_operation["path"].as_str(),
    ) else {
        return;
    };
    let Some(operation) = document["paths"]
        .get_mut(path)
        .and_then(|item| item.get_mut(method.to_ascii_lowercase()))
    else {
        return;
    };
    operation["operationId"] = json!(operation_id);
    if let Some(response) = sdk_operation["response"].as_str() {
        let ok = &mut operation["responses"]["200"];
        if ok.get("description").is_none() {
            ok["description"] = json!("Success");
        }
        ok["content"] = json!({"application/json": {"schema": schema_ref(response)}});
    }
    if let Some(request) = sdk_operation["request"].as_str() {
        operation["requestBody"] = json!({
            "required": true,
            "content": {"application/json": {"schema": schema_ref(request)}},
        });
    }
}

fn schema_ref(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

/// The envelopes around one operation's answers, and the failures every route of its
/// kind can answer (see [`document`]).
fn envelope_responses(operation: &mut Value, method: &str, authenticated: bool) {
    let parameters = operation["parameters"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let takes_input = !parameters.is_empty()
        || operation.get("requestBody").is_some()
        || matches!(method, "post" | "put" | "patch");
    let addresses_a_resource = parameters.iter().any(|parameter| parameter["in"] == "path");
    let Some(responses) = operation["responses"].as_object_mut() else {
        return;
    };
    let mut common = Vec::new();
    if authenticated {
        common.push((
            "401",
            "The API key is missing where required, invalid or revoked",
        ));
        common.push((
            "403",
            "The plan does not allow this, or a cookie-authenticated write lacks the X-Podlens-Client header",
        ));
    }
    if takes_input {
        // Every query string and body is validated before the handler runs.
        common.push(("400", "A parameter or the body is malformed or invalid"));
    }
    if addresses_a_resource {
        common.push(("404", "No such resource (or not one of the caller's team)"));
    }
    for (code, description) in common {
        responses
            .entry(code)
            .or_insert_with(|| json!({ "description": description }));
    }
    for (code, response) in responses.iter_mut() {
        if code.starts_with('2') {
            if let Some(schema) = response
                .get_mut("content")
                .and_then(|content| content.get_mut("application/json"))
                .and_then(|json| json.get_mut("schema"))
            {
                let data = schema.take();
                *schema = json!({
                    "type": "object",
                    "required": ["status", "data"],
                    "properties": {"status": {"const": "OK"}, "data": data},
                });
            }
        } else if code.starts_with('4') || code.starts_with('5') {
            response["content"] = json!({"application/json": {"schema": schema_ref("Error")}});
        }
    }
}

/// Copies into `components.schemas` each SDK schema the document references, directly
/// or through another schema.
fn add_referenced_schemas(document: &mut Value, sdk_schemas: &Value) {
    let mut pending = Vec::new();
    collect_refs(&document["paths"], &mut pending);
    let mut added = std::collections::BTreeSet::new();
    while let Some(name) = pending.pop() {
        let known = document["components"]["schemas"].get(&name).is_some();
        if known || !added.insert(name.clone()) {
            continue;
        }
        if let Some(schema) = sdk_schemas.get(&name) {
            collect_refs(schema, &mut pending);
            document["components"]["schemas"][&name] = schema.clone();
        }
    }
}

fn collect_refs(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                match (key.as_str(), child.as_str()) {
                    ("$ref", Some(reference)) => {
                        if let Some(name) = reference.strip_prefix("#/components/schemas/") {
                            found.push(name.to_owned());
                        }
                    }
                    _ => collect_refs(child, found),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_refs(item, found)),
        _ => {}
    }
}

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/api/v1/openapi.json",
            get(|| async { Json(document().clone()) }),
        )
        .route("/api-docs", get(|| async { Html(DOCS_PAGE) }))
}

/// A self-contained page (no external assets) that renders the OpenAPI document and
/// lets the reader try each operation with their key.
const DOCS_PAGE: &str = include_str!("docs_page.html");

#[cfg(test)]
mod tests {
    use super::*;

    fn operations(document: &Value) -> Vec<(String, String, &Value)> {
        let mut found = Vec::new();
        for (path, item) in document["paths"].as_object().into_iter().flatten() {
            for (method, operation) in item.as_object().into_iter().flatten() {
                found.push((method.to_uppercase(), path.clone(), operation));
            }
        }
        found
    }

    #[test]
    fn the_sdk_models_are_included() {
        let sdk: Value = serde_json::from_str(SDK_SCHEMA).unwrap();
        assert!(sdk["x-sdk-operations"].as_object().unwrap().len() > 70);
        assert!(sdk["components"]["schemas"]["GetPodcastResponse"].is_object());
    }

    #[test]
    fn every_reference_resolves() {
        let document = document();
        let mut references = Vec::new();
        collect_refs(document, &mut references);
        assert!(references.len() > 100);
        for name in references {
            assert!(
                document["components"]["schemas"].get(&name).is_some(),
                "#/components/schemas/{name} is referenced but not defined"
            );
        }
    }

    /// Podlens-only operations (no SDK model) whose answer is not described yet: each
    /// needs a `ToSchema` type for its `data`. The list may only shrink (the test fails
    /// when one listed here gets a schema, so it cannot go stale).
    const NOT_DESCRIBED_YET: &[&str] = &[
        "POST /api/v1/export/podcasts",
        "POST /api/v1/export/project/{projectId}/listed-podcasts",
        "GET /api/v1/projects/{projectSlug}/podcasts/{listedPodcastId}/relevancy",
    ];

    #[test]
    fn every_operation_documents_its_success_body() {
        let mut undescribed = Vec::new();
        for (method, path, operation) in operations(document()) {
            if path == "/api/v1/openapi.json" {
                continue;
            }
            let success: Vec<_> = operation["responses"]
                .as_object()
                .unwrap()
                .iter()
                .filter(|(code, _)| code.starts_with('2'))
                .collect();
            assert!(!success.is_empty(), "{method} {path}: no success answer");
            for (_, response) in success {
                let described = response["content"]
                    .as_object()
                    .is_some_and(|content| !content.is_empty());
                if !described {
                    undescribed.push(format!("{method} {path}"));
                    continue;
                }
                if let Some(schema) = response["content"].get("application/json") {
                    let schema = &schema["schema"];
                    assert_eq!(
                        schema["properties"]["status"]["const"], "OK",
                        "{method} {path}"
                    );
                    assert!(
                        schema["properties"]["data"].is_object(),
                        "{method} {path}: no data schema"
                    );
                }
            }
        }
        undescribed.sort();
        let mut expected: Vec<String> = NOT_DESCRIBED_YET.iter().map(|s| s.to_string()).collect();
        expected.sort();
        assert_eq!(undescribed, expected, "answers without a body schema");
    }

    #[test]
    fn every_error_answer_is_the_error_envelope() {
        let mut errors = 0;
        for (method, path, operation) in operations(document()) {
            for (code, response) in operation["responses"].as_object().unwrap() {
                if code.starts_with('4') || code.starts_with('5') {
                    errors += 1;
                    assert_eq!(
                        response["content"]["application/json"]["schema"]["$ref"],
                        "#/components/schemas/Error",
                        "{method} {path} {code}"
                    );
                }
            }
        }
        assert!(errors > 100);
        let error = &document()["components"]["schemas"]["Error"];
        assert_eq!(
            error["properties"]["data"]["$ref"],
            "#/components/schemas/ErrorMessage"
        );
    }

    #[test]
    fn a_bad_key_is_documented_everywhere_but_on_open_paths() {
        for (method, path, operation) in operations(document()) {
            let listed = operation["responses"].get("401").is_some();
            assert_eq!(listed, !crate::auth::is_open_path(&path), "{method} {path}");
        }
    }

    #[test]
    fn operation_ids_are_unique() {
        let mut seen = std::collections::BTreeMap::new();
        for (method, path, operation) in operations(document()) {
            let id = operation["operationId"].as_str().unwrap().to_owned();
            if let Some(other) = seen.insert(id.clone(), format!("{method} {path}")) {
                panic!("operation id {id} is used by {other} and {method} {path}");
            }
        }
    }

    #[test]
    fn sdk_operations_take_the_sdk_models() {
        let document = document();
        let ok = &document["paths"]["/api/v1/podcasts/{podcastIdOrSlug}"]["get"];
        assert_eq!(ok["operationId"], "getPodcast");
        assert_eq!(
            ok["responses"]["200"]["content"]["application/json"]["schema"]["properties"]["data"]["$ref"],
            "#/components/schemas/GetPodcastResponse"
        );
        let create = &document["paths"]["/api/v1/alerts/alert-config"]["post"];
        assert_eq!(
            create["requestBody"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/CreateAlertConfigRequest"
        );
        assert_eq!(
            document["components"]["schemas"]["CreateAlertConfigRequest"]["required"],
            json!(["alertName", "alertType", "value"])
        );
    }
}
