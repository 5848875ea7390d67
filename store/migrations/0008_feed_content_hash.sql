-- The SHA-256 of the bytes each feed last answered with: a feed whose server ignores
-- conditional GET and sends the same bytes again is known unchanged by this alone,
-- without parsing it or writing the catalog.
ALTER TABLE feed_schedule ADD COLUMN content_hash TEXT;
