-- The application store: accounts, sessions, usage, projects, alerts with their
-- delivery ledger, webhooks and documents. One script for SQLite and PostgreSQL:
-- only types both read the same way (TEXT, BIGINT, DOUBLE PRECISION). Times are
-- UTC text with microseconds ('2026-11-24T09:30:00.000000Z'), so they order as text;
-- days are 'YYYY-MM-DD'; flags are 0 or 1.

CREATE TABLE server_secrets (
    name TEXT PRIMARY KEY,
    secret_hex TEXT NOT NULL
);

CREATE TABLE teams (
    team_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    plan TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE users (
    user_id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    first_name TEXT,
    last_name TEXT,
    display_name TEXT,
    avatar_seed TEXT,
    created_at TEXT NOT NULL
);

CREATE TABLE team_members (
    team_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    role TEXT NOT NULL,
    joined_at TEXT NOT NULL,
    PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_members_by_user ON team_members (user_id);

CREATE TABLE api_keys (
    key_hash TEXT PRIMARY KEY,
    key_prefix TEXT NOT NULL,
    user_id TEXT NOT NULL,
    team_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE INDEX api_keys_by_team ON api_keys (team_id);

CREATE TABLE usage_daily (
    subject TEXT NOT NULL,
    team_id TEXT,
    day TEXT NOT NULL,
    counter TEXT NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY (subject, counter, day)
);
CREATE INDEX usage_daily_by_team ON usage_daily (team_id, day);

CREATE TABLE search_history (
    search_id TEXT PRIMARY KEY,
    subject TEXT NOT NULL,
    team_id TEXT,
    search_mode TEXT NOT NULL,
    options_json TEXT NOT NULL,
    result_count BIGINT NOT NULL,
    searched_at TEXT NOT NULL
);
CREATE INDEX search_history_by_team ON search_history (team_id, searched_at);

CREATE TABLE team_podcasts (
    team_id TEXT NOT NULL,
    podcast_id TEXT NOT NULL,
    added_by_user_id TEXT,
    added_reason TEXT NOT NULL,
    blacklist BIGINT NOT NULL,
    sync BIGINT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (team_id, podcast_id)
);

CREATE TABLE login_links (
    token_hash TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    kind TEXT NOT NULL,
    client_address TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
);
CREATE INDEX login_links_by_email ON login_links (email, created_at);
CREATE INDEX login_links_by_address ON login_links (client_address, created_at);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);

CREATE TABLE team_invitations (
    invitation_id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL,
    email TEXT NOT NULL,
    role TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    invited_by_user_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT,
    revoked_at TEXT
);
CREATE INDEX team_invitations_by_team ON team_invitations (team_id);

CREATE TABLE projects (
    project_id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL,
    slug TEXT NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    project_types TEXT NOT NULL,
    project_type_other_reason TEXT,
    project_purpose TEXT,
    project_keywords TEXT NOT NULL,
    created_by_user_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_updated TEXT NOT NULL
);
CREATE INDEX projects_by_team ON projects (team_id);

CREATE TABLE listed_podcasts (
    listed_podcast_id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL,
    team_id TEXT NOT NULL,
    podcast_id TEXT NOT NULL,
    podcast_title TEXT NOT NULL,
    podcast_slug TEXT NOT NULL,
    podcast_image_url TEXT,
    status TEXT NOT NULL,
    priority TEXT,
    labels TEXT NOT NULL,
    added_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    added_by_user_id TEXT NOT NULL,
    relevancy_score DOUBLE PRECISION
);
CREATE INDEX listed_podcasts_by_project ON listed_podcasts (project_id);
CREATE INDEX listed_podcasts_by_team ON listed_podcasts (team_id);

CREATE TABLE listed_podcast_activity (
    activity_id TEXT PRIMARY KEY,
    listed_podcast_id TEXT NOT NULL,
    project_id TEXT NOT NULL,
    action_type TEXT NOT NULL,
    activity_date TEXT NOT NULL,
    from_value TEXT,
    to_value TEXT,
    user_id TEXT NOT NULL,
    user_display_name TEXT NOT NULL,
    sequence BIGINT NOT NULL
);
CREATE INDEX listed_podcast_activity_by_project ON listed_podcast_activity (project_id, sequence);

CREATE TABLE outreach_history (
    outreach_id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    podcast_id TEXT NOT NULL,
    podcast_title TEXT NOT NULL,
    podcast_slug TEXT NOT NULL,
    podcast_image_url TEXT,
    project_id TEXT,
    guest_profile_id TEXT,
    guest_json TEXT,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    options_json TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX outreach_history_by_team ON outreach_history (team_id, created_at);

CREATE TABLE workflow_documents (
    kind TEXT NOT NULL,
    doc_id TEXT NOT NULL,
    team_id TEXT NOT NULL,
    parent_id TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted BIGINT NOT NULL,
    doc TEXT NOT NULL,
    PRIMARY KEY (kind, doc_id)
);
CREATE INDEX workflow_documents_by_team ON workflow_documents (kind, team_id);
CREATE INDEX workflow_documents_by_parent ON workflow_documents (kind, parent_id);

CREATE TABLE team_webhooks (
    webhook_id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL,
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_by_user_id TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX team_webhooks_by_team ON team_webhooks (team_id);

CREATE TABLE alert_deliveries (
    delivery_id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL,
    alert_config_id TEXT NOT NULL,
    channel TEXT NOT NULL,
    target TEXT NOT NULL,
    event TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts BIGINT NOT NULL,
    next_attempt_at TEXT NOT NULL,
    last_error TEXT,
    created_at TEXT NOT NULL,
    sent_at TEXT
);
CREATE INDEX alert_deliveries_due ON alert_deliveries (status, next_attempt_at);
CREATE INDEX alert_deliveries_by_alert ON alert_deliveries (alert_config_id);
