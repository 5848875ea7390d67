//! The workflow tables of the app database, created idempotently on open.

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS projects (
    project_id VARCHAR PRIMARY KEY,
    team_id VARCHAR NOT NULL,
    slug VARCHAR NOT NULL,
    name VARCHAR NOT NULL,
    status VARCHAR NOT NULL,
    project_types VARCHAR NOT NULL,
    project_type_other_reason VARCHAR,
    project_purpose VARCHAR,
    project_keywords VARCHAR NOT NULL,
    created_by_user_id VARCHAR NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    last_updated TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS listed_podcasts (
    listed_podcast_id VARCHAR PRIMARY KEY,
    project_id VARCHAR NOT NULL,
    team_id VARCHAR NOT NULL,
    podcast_id VARCHAR NOT NULL,
    podcast_title VARCHAR NOT NULL,
    podcast_slug VARCHAR NOT NULL,
    podcast_image_url VARCHAR,
    status VARCHAR NOT NULL,
    priority VARCHAR,
    labels VARCHAR NOT NULL,
    added_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    added_by_user_id VARCHAR NOT NULL,
    relevancy_score DOUBLE
);
CREATE TABLE IF NOT EXISTS listed_podcast_activity (
    activity_id VARCHAR PRIMARY KEY,
    listed_podcast_id VARCHAR NOT NULL,
    project_id VARCHAR NOT NULL,
    action_type VARCHAR NOT NULL,
    activity_date TIMESTAMPTZ NOT NULL,
    from_value VARCHAR,
    to_value VARCHAR,
    user_id VARCHAR NOT NULL,
    user_display_name VARCHAR NOT NULL,
    sequence BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS outreach_history (
    outreach_id VARCHAR PRIMARY KEY,
    team_id VARCHAR NOT NULL,
    user_id VARCHAR NOT NULL,
    podcast_id VARCHAR NOT NULL,
    podcast_title VARCHAR NOT NULL,
    podcast_slug VARCHAR NOT NULL,
    podcast_image_url VARCHAR,
    project_id VARCHAR,
    guest_profile_id VARCHAR,
    guest_json VARCHAR,
    subject VARCHAR NOT NULL,
    body VARCHAR NOT NULL,
    options_json VARCHAR NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS workflow_documents (
    kind VARCHAR NOT NULL,
    doc_id VARCHAR NOT NULL,
    team_id VARCHAR NOT NULL,
    parent_id VARCHAR,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    deleted BOOLEAN NOT NULL,
    doc VARCHAR NOT NULL,
    PRIMARY KEY (kind, doc_id)
);
CREATE TABLE IF NOT EXISTS team_webhooks (
    webhook_id VARCHAR PRIMARY KEY,
    team_id VARCHAR NOT NULL,
    url VARCHAR NOT NULL,
    events VARCHAR NOT NULL,
    secret VARCHAR NOT NULL,
    created_by_user_id VARCHAR NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS alert_deliveries (
    delivery_id VARCHAR PRIMARY KEY,
    team_id VARCHAR NOT NULL,
    alert_config_id VARCHAR NOT NULL,
    channel VARCHAR NOT NULL,
    target VARCHAR NOT NULL,
    event VARCHAR NOT NULL,
    payload VARCHAR NOT NULL,
    status VARCHAR NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at TIMESTAMPTZ NOT NULL,
    last_error VARCHAR,
    created_at TIMESTAMPTZ NOT NULL,
    sent_at TIMESTAMPTZ
);
";
