//! The OpenAPI 3.1 document, generated from the handlers' annotations, served at
//! `/api/v1/openapi.json`, and the interactive docs page at `/api-docs`.

use axum::Json;
use axum::Router;
use axum::response::Html;
use axum::routing::get;
use utoipa::Modify;
use utoipa::OpenApi;
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
        routes::auth::sign_out,
        routes::search::search_podcasts,
        routes::search::search_episodes,
        routes::search::semantic_search,
        routes::autocomplete::autocomplete,
        routes::podcasts::details,
        routes::podcasts::multiple,
        routes::podcasts::by_feed_url,
        routes::podcasts::id_lookup,
        routes::podcasts::latest,
        routes::podcasts::episodes,
        routes::podcasts::related,
        routes::podcasts::guests,
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
        routes::outreach::templates,
        routes::outreach::history,
        routes::outreach::details,
        routes::exports::export_search,
        routes::exports::export_project,
        routes::charts::podcast_presence,
    ),
    components(schemas(routes::health::Health)),
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

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/api/v1/openapi.json",
            get(|| async { Json(ApiDoc::openapi()) }),
        )
        .route("/api-docs", get(|| async { Html(DOCS_PAGE) }))
}

/// A self-contained page (no external assets) that renders the OpenAPI document and
/// lets the reader try each operation with their key.
const DOCS_PAGE: &str = include_str!("docs_page.html");
