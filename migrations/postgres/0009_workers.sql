-- Sets played by workers on several machines: leases, failures, refusals, the workers
-- themselves, and who played each game (see migrations/sqlite/0009 and docs/workers.md).
-- Times are milliseconds since 1970 on the database's clock.

ALTER TABLE sets ADD COLUMN lease_token BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sets ADD COLUMN lease_worker TEXT COLLATE "C";
ALTER TABLE sets ADD COLUMN lease_expires_ms BIGINT;
ALTER TABLE sets ADD COLUMN interruptions BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sets ADD COLUMN failures BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sets ADD COLUMN failed BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE set_failures (
    set_id TEXT COLLATE "C" NOT NULL REFERENCES sets (id),
    worker TEXT COLLATE "C" NOT NULL,
    reason TEXT COLLATE "C" NOT NULL,
    at_ms  BIGINT NOT NULL,
    PRIMARY KEY (set_id, worker)
);

CREATE TABLE set_refusals (
    set_id  TEXT COLLATE "C" NOT NULL REFERENCES sets (id),
    worker  TEXT COLLATE "C" NOT NULL,
    team_id BIGINT REFERENCES teams (id),
    reason  TEXT COLLATE "C" NOT NULL,
    at_ms   BIGINT NOT NULL,
    PRIMARY KEY (set_id, worker)
);

CREATE TABLE workers (
    id           TEXT COLLATE "C" PRIMARY KEY,
    host         TEXT COLLATE "C" NOT NULL,
    pid          BIGINT NOT NULL,
    version      TEXT COLLATE "C" NOT NULL,
    started_ms   BIGINT NOT NULL,
    heartbeat_ms BIGINT NOT NULL,
    state        TEXT COLLATE "C" NOT NULL CHECK (state IN ('working', 'draining', 'stopped')),
    current_set  TEXT COLLATE "C",
    games_done   BIGINT NOT NULL DEFAULT 0
);

ALTER TABLE games ADD COLUMN worker TEXT COLLATE "C";
ALTER TABLE games ADD COLUMN lease_token BIGINT;
