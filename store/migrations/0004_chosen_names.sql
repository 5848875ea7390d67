-- A user's display name is the name they chose (Settings → Your name), signed under
-- outreach emails and shown to their team. Accounts used to be created with their
-- email's local part as the name ("jdoe42"): no one chose those, so they are cleared,
-- and the email is shown where a name is missing.
UPDATE users SET display_name = NULL WHERE email LIKE display_name || '@%';
