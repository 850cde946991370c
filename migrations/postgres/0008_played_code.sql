-- Which code each command bot played its set with (see migrations/sqlite/0008): the
-- content hash of the bot's folder when the set was dealt, updated when the set is re-run.

ALTER TABLE set_members ADD COLUMN content_hash TEXT COLLATE "C";
