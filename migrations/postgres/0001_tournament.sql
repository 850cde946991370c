-- The tournament store on PostgreSQL: the same tables as migrations/sqlite/0001, in
-- PostgreSQL's types. Every integer is a BIGINT (the store reads 64-bit integers on both
-- databases), flags are booleans, bytes are BYTEA, and every text is compared in the "C"
-- collation (byte order, as SQLite compares), so that every ORDER BY lists rows in the same
-- order on both databases. Every id is assigned by the application.

CREATE TABLE tournament (
    id             BIGINT PRIMARY KEY CHECK (id = 1),
    name           TEXT COLLATE "C" NOT NULL,
    seed           BIGINT NOT NULL,
    -- Hash of everything in the configuration that changes games; a later run must match.
    config_hash    TEXT COLLATE "C" NOT NULL,
    format_json    TEXT COLLATE "C" NOT NULL,
    engine_version BIGINT NOT NULL,
    created_at     TEXT COLLATE "C" NOT NULL
);

CREATE TABLE schools (
    id   BIGINT PRIMARY KEY,
    name TEXT COLLATE "C" NOT NULL UNIQUE,
    slug TEXT COLLATE "C" NOT NULL UNIQUE
);

CREATE TABLE teams (
    id           BIGINT PRIMARY KEY,
    school_id    BIGINT NOT NULL REFERENCES schools (id),
    name         TEXT COLLATE "C" NOT NULL,
    -- builtin:NAME, or the command line of an external bot.
    bot          TEXT COLLATE "C" NOT NULL,
    protocol     TEXT COLLATE "C",
    dir          TEXT COLLATE "C",
    -- Hash of the bot directory's files when the run started (external bots).
    content_hash TEXT COLLATE "C",
    UNIQUE (school_id, name)
);

-- One row per stage: a school's, or 'nationals'.
CREATE TABLE stages (
    id        TEXT COLLATE "C" PRIMARY KEY,
    kind      TEXT COLLATE "C" NOT NULL CHECK (kind IN ('school', 'nationals')),
    school_id BIGINT REFERENCES schools (id),
    status    TEXT COLLATE "C" NOT NULL CHECK (status IN ('planned', 'running', 'done'))
);

CREATE TABLE rounds (
    stage_id TEXT COLLATE "C" NOT NULL REFERENCES stages (id),
    round    BIGINT NOT NULL,
    is_final BOOLEAN NOT NULL,
    PRIMARY KEY (stage_id, round)
);

-- Sets, by their human id (westfield-high/r1/s2, nationals/final).
CREATE TABLE sets (
    id              TEXT COLLATE "C" PRIMARY KEY,
    stage_id        TEXT COLLATE "C" NOT NULL,
    round           BIGINT NOT NULL,
    set_index       BIGINT NOT NULL,
    is_final        BOOLEAN NOT NULL,
    -- How many times the set was re-run; games of older runs are superseded.
    run_no          BIGINT NOT NULL DEFAULT 0,
    -- Bumped by rerun --reseed; part of every game seed of the set.
    seed_generation BIGINT NOT NULL DEFAULT 0,
    -- 'invalidated': a rerun changed what led to it; it is dealt again by the next run.
    status          TEXT COLLATE "C" NOT NULL CHECK (status IN ('planned', 'done', 'invalidated')),
    FOREIGN KEY (stage_id, round) REFERENCES rounds (stage_id, round)
);

CREATE TABLE set_members (
    set_id   TEXT COLLATE "C" NOT NULL REFERENCES sets (id),
    position BIGINT NOT NULL,
    team_id  BIGINT NOT NULL REFERENCES teams (id),
    PRIMARY KEY (set_id, position),
    UNIQUE (set_id, team_id)
);

CREATE TABLE games (
    set_id         TEXT COLLATE "C" NOT NULL REFERENCES sets (id),
    run_no         BIGINT NOT NULL,
    game_index     BIGINT NOT NULL,
    seed           BIGINT NOT NULL,
    board          TEXT COLLATE "C" NOT NULL,
    status         TEXT COLLATE "C" NOT NULL CHECK (status IN ('planned', 'done')),
    -- Times the game was started; more than 1 after an interrupted run.
    attempts       BIGINT NOT NULL DEFAULT 0,
    engine_version BIGINT,
    turns          BIGINT,
    -- The replies in the order the engine consumed them.
    decisions      BYTEA,
    superseded     BOOLEAN NOT NULL DEFAULT FALSE,
    finished_at    TEXT COLLATE "C",
    PRIMARY KEY (set_id, run_no, game_index)
);

CREATE TABLE game_results (
    set_id     TEXT COLLATE "C" NOT NULL,
    run_no     BIGINT NOT NULL,
    game_index BIGINT NOT NULL,
    team_id    BIGINT NOT NULL REFERENCES teams (id),
    seat       BIGINT NOT NULL,
    score      BIGINT NOT NULL,
    flags      BIGINT NOT NULL,
    hits       BIGINT NOT NULL,
    pushes     BIGINT NOT NULL,
    push_kills BIGINT NOT NULL,
    deaths     BIGINT NOT NULL,
    faults     BIGINT NOT NULL,
    won        BOOLEAN NOT NULL,
    PRIMARY KEY (set_id, run_no, game_index, team_id),
    FOREIGN KEY (set_id, run_no, game_index) REFERENCES games (set_id, run_no, game_index)
);

-- Who left a round upwards (or joined nationals) and why.
CREATE TABLE advancement (
    stage_id  TEXT COLLATE "C" NOT NULL,
    round     BIGINT NOT NULL,
    team_id   BIGINT NOT NULL REFERENCES teams (id),
    set_id    TEXT COLLATE "C",
    place     BIGINT NOT NULL,
    kind      TEXT COLLATE "C" NOT NULL CHECK (kind IN ('top', 'wildcard', 'single_team')),
    tie_break TEXT COLLATE "C",
    PRIMARY KEY (stage_id, round, team_id)
);

CREATE TABLE audit_log (
    id      BIGINT PRIMARY KEY,
    at      TEXT COLLATE "C" NOT NULL,
    action  TEXT COLLATE "C" NOT NULL,
    set_id  TEXT COLLATE "C",
    reason  TEXT COLLATE "C",
    details TEXT COLLATE "C"
);
