-- The limits a tournament's external bots played under, and each command bot's program as
-- it was parsed (see migrations/sqlite/0004).

ALTER TABLE tournament ADD COLUMN time_limit_ms BIGINT;
ALTER TABLE tournament ADD COLUMN start_limit_ms BIGINT;
ALTER TABLE tournament ADD COLUMN memory_mb BIGINT;

ALTER TABLE teams ADD COLUMN command TEXT COLLATE "C";
ALTER TABLE teams ADD COLUMN argv TEXT COLLATE "C";

UPDATE teams SET command = SUBSTR(bot, LENGTH(protocol) + 2) WHERE protocol IS NOT NULL;
