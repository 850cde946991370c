-- What a database alone needs to play any of its sets again: the limits its external bots
-- played under, and each command bot's program as it was parsed (its command line and the
-- JSON array of the words it is started with; `dir` holds the absolute directory it ran
-- in and `content_hash` that directory's hash).
--
-- Databases started before this migration: their limits were not recorded (the columns
-- stay empty until a `run` or `rerun` with the tournament file records the file's), their
-- bots' commands are recovered from the `bot` column (without the protocol prefix) and
-- split into words when read, and their `dir` is the path as the first run saw it
-- (possibly relative to the folder that run started in).

ALTER TABLE tournament ADD COLUMN time_limit_ms BIGINT;
ALTER TABLE tournament ADD COLUMN start_limit_ms BIGINT;
ALTER TABLE tournament ADD COLUMN memory_mb BIGINT;

ALTER TABLE teams ADD COLUMN command TEXT;
ALTER TABLE teams ADD COLUMN argv TEXT;

UPDATE teams SET command = SUBSTR(bot, LENGTH(protocol) + 2) WHERE protocol IS NOT NULL;
