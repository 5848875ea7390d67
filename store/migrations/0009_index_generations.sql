-- The metastore of a cluster (docs/cluster.md): every index generation published to
-- the object store, by number. Search nodes follow the newest.
CREATE TABLE index_generations (
    generation BIGINT PRIMARY KEY,
    -- The generation's number of shards, and on how many search nodes each is served.
    shards BIGINT NOT NULL,
    replicas BIGINT NOT NULL,
    -- Where its objects are (the object store's URL and prefix).
    location TEXT NOT NULL,
    -- Its manifest.json, as published.
    manifest TEXT NOT NULL,
    -- 1 when it carries global term statistics (a cluster's search nodes score with them).
    statistics BIGINT NOT NULL,
    created_at TEXT NOT NULL
);
