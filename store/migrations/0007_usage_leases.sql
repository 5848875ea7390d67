-- Parts of a capped usage window reserved by one serving node: the node counts calls
-- against its reservation in memory and writes them in batches. `units` are reserved
-- and not yet written to usage_daily (used here or still free); `expires_at` (Unix
-- milliseconds) is renewed with each batch, and a node that stops renewing is taken
-- for dead: its reservation no longer counts and its unwritten calls are never charged.
CREATE TABLE usage_leases (
    subject TEXT NOT NULL,
    counter TEXT NOT NULL,
    first_day TEXT NOT NULL,
    node_id TEXT NOT NULL,
    units BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (subject, counter, first_day, node_id)
);
