-- Which code each command bot played its set with: the content hash of the bot's folder
-- (as `teams.content_hash`) when the set was dealt, updated when the set is re-run.
-- Empty for built-in AIs and for sets dealt before this migration (a rerun compares those
-- with `teams.content_hash`, the folder as the tournament started).

ALTER TABLE set_members ADD COLUMN content_hash TEXT;
