-- A user's display name is the name they chose (Settings → Your name), signed under
-- outreach emails and shown to their team. Accounts used to be created with their
-- email's local part as the name ("jdoe42"): no one chose those, so they are cleared,
-- and the email is shown where a name is missing. The comparison is exact (no LIKE
-- pattern, no case folding), the same on SQLite and PostgreSQL; `import_legacy` clears
-- the names of an imported `app.duckdb` the same way.
UPDATE users SET display_name = NULL
WHERE display_name IS NOT NULL
  AND substr(email, 1, length(display_name) + 1) = display_name || '@';
