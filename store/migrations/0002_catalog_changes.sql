-- Changes one node made to its catalog while serving (a refreshed feed, a stored
-- transcript), in the order they were made, for the other nodes to apply to their own
-- copies. `seq` is assigned under a lock, so the committed rows are always a prefix.
CREATE TABLE catalog_changes (
    seq BIGINT PRIMARY KEY,
    node TEXT NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX catalog_changes_created_at ON catalog_changes (created_at);
