-- The feed scheduler's state: when each feed is polled next, with its conditional-GET
-- validators, its poll interval (from the feed's own rhythm) and its failures in a row.
-- The leading node's scheduler writes it; a WebSub push, received by any node, makes
-- the feed due at once.
CREATE TABLE feed_schedule (
    podcast_id TEXT PRIMARY KEY,
    feed_url TEXT NOT NULL,
    etag TEXT,
    last_modified TEXT,
    interval_seconds BIGINT NOT NULL,
    next_poll_at TEXT NOT NULL,
    failures BIGINT NOT NULL,
    last_polled_at TEXT,
    last_outcome TEXT,
    last_error TEXT,
    last_changed_at TEXT,
    pushed_at TEXT
);
CREATE INDEX feed_schedule_due ON feed_schedule (next_poll_at);

-- WebSub subscriptions to the hubs feeds declare: requested, then confirmed by the
-- hub's verification of intent (active, with its lease) or denied. The callback token
-- names the subscription in its callback URL; the secret signs the hub's deliveries.
CREATE TABLE websub_subscriptions (
    podcast_id TEXT PRIMARY KEY,
    hub TEXT NOT NULL,
    topic TEXT NOT NULL,
    callback_token TEXT NOT NULL UNIQUE,
    secret TEXT NOT NULL,
    state TEXT NOT NULL,
    requested_at TEXT NOT NULL,
    lease_expires_at TEXT
);
