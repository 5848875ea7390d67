-- The application database's schema as podlens kept it in app.duckdb before the
-- application store moved to SQLite/PostgreSQL: the legacy format import_legacy reads.
CREATE TABLE IF NOT EXISTS server_secrets (
    name VARCHAR PRIMARY KEY,
    secret BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS teams (
    team_id VARCHAR PRIMARY KEY,
    name VARCHAR NOT NULL,
    plan VARCHAR NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS users (
    user_id VARCHAR PRIMARY KEY,
    email VARCHAR NOT NULL UNIQUE,
    first_name VARCHAR,
    last_name VARCHAR,
    display_name VARCHAR,
    avatar_seed VARCHAR,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS team_members (
    team_id VARCHAR NOT NULL,
    user_id VARCHAR NOT NULL,
    role VARCHAR NOT NULL,
    joined_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (team_id, user_id)
);
CREATE TABLE IF NOT EXISTS api_keys (
    key_hash VARCHAR PRIMARY KEY,
    key_prefix VARCHAR NOT NULL,
    user_id VARCHAR NOT NULL,
    team_id VARCHAR NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    revoked_at TIMESTAMPTZ
);
CREATE TABLE IF NOT EXISTS usage_daily (
    subject VARCHAR NOT NULL,
    team_id VARCHAR,
    day DATE NOT NULL,
    counter VARCHAR NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY (subject, day, counter)
);
CREATE TABLE IF NOT EXISTS search_history (
    search_id VARCHAR PRIMARY KEY,
    subject VARCHAR NOT NULL,
    team_id VARCHAR,
    search_mode VARCHAR NOT NULL,
    options_json VARCHAR NOT NULL,
    result_count BIGINT NOT NULL,
    searched_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS team_podcasts (
    team_id VARCHAR NOT NULL,
    podcast_id VARCHAR NOT NULL,
    added_by_user_id VARCHAR,
    added_reason VARCHAR NOT NULL,
    blacklist BOOLEAN NOT NULL,
    sync BOOLEAN NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (team_id, podcast_id)
);
CREATE TABLE IF NOT EXISTS login_links (
    token_hash VARCHAR PRIMARY KEY,
    email VARCHAR NOT NULL,
    kind VARCHAR NOT NULL,
    client_address VARCHAR NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    used_at TIMESTAMPTZ
);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash VARCHAR PRIMARY KEY,
    user_id VARCHAR NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS team_invitations (
    invitation_id VARCHAR PRIMARY KEY,
    team_id VARCHAR NOT NULL,
    email VARCHAR NOT NULL,
    role VARCHAR NOT NULL,
    token_hash VARCHAR NOT NULL UNIQUE,
    invited_by_user_id VARCHAR NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    used_at TIMESTAMPTZ,
    revoked_at TIMESTAMPTZ
);
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
