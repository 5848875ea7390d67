//! The HTTP API (axum): Pod Engine-compatible routes under `/api/v1`, API-key auth,
//! plans and metering, the OpenAPI document, and the web app's static bundle.
