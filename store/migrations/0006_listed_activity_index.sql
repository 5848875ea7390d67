-- One listed podcast's activity is read on each change of it (its status, priority,
-- labels): find it without going through the whole project's activity.
CREATE INDEX listed_podcast_activity_by_listed ON listed_podcast_activity (listed_podcast_id, sequence);
