-- When in its week (or day) a show habitually publishes, as the feed scheduler learnt
-- it from the show's recent episodes ("<cycle>/<start>/<length>", in seconds): the
-- scheduler polls the feed often in that window and less often elsewhere.
ALTER TABLE feed_schedule ADD COLUMN release_window TEXT;
