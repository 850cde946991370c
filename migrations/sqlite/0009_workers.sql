-- Sets played by workers, on this machine or others (docs/workers.md). Workers are run on
-- PostgreSQL; SQLite has the same columns and tables so that the store stays one.
--
-- A set's lease: who plays it now and until when. `lease_token` is bumped on every claim,
-- and every game a worker writes checks it in the same transaction, so a worker that lost
-- its lease cannot store a result. Times are milliseconds since 1970 on the database's
-- clock, never a worker's.
ALTER TABLE sets ADD COLUMN lease_token INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sets ADD COLUMN lease_worker TEXT;
ALTER TABLE sets ADD COLUMN lease_expires_ms INTEGER;
-- Claims that took over a lease another worker let expire (an interruption, not a failure).
ALTER TABLE sets ADD COLUMN interruptions INTEGER NOT NULL DEFAULT 0;
-- Failures on different workers (set_failures); at 3 the set is failed and no longer
-- claimed until a rerun queues it again.
ALTER TABLE sets ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sets ADD COLUMN failed INTEGER NOT NULL DEFAULT 0;

-- Why a set failed, one row per worker it failed on.
CREATE TABLE set_failures (
    set_id TEXT NOT NULL REFERENCES sets (id),
    worker TEXT NOT NULL,
    reason TEXT NOT NULL,
    at_ms  INTEGER NOT NULL,
    PRIMARY KEY (set_id, worker)
);

-- A set a worker would not play: a member's bot folder differs from the code the set was
-- dealt with (team_id), or the worker's engine or configuration differs (team_id NULL).
CREATE TABLE set_refusals (
    set_id  TEXT NOT NULL REFERENCES sets (id),
    worker  TEXT NOT NULL,
    team_id INTEGER REFERENCES teams (id),
    reason  TEXT NOT NULL,
    at_ms   INTEGER NOT NULL,
    PRIMARY KEY (set_id, worker)
);

-- Every worker that ever claimed work, by the name it gave (`--name`, else host-pid).
CREATE TABLE workers (
    id           TEXT PRIMARY KEY,
    host         TEXT NOT NULL,
    pid          INTEGER NOT NULL,
    version      TEXT NOT NULL,
    started_ms   INTEGER NOT NULL,
    heartbeat_ms INTEGER NOT NULL,
    -- 'working', 'draining' (SIGTERM) or 'stopped'.
    state        TEXT NOT NULL CHECK (state IN ('working', 'draining', 'stopped')),
    current_set  TEXT,
    games_done   INTEGER NOT NULL DEFAULT 0
);

-- The worker and lease that played a game (NULL: played by `run` in one process).
ALTER TABLE games ADD COLUMN worker TEXT;
ALTER TABLE games ADD COLUMN lease_token INTEGER;
