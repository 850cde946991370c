-- The tournament store. Every id is assigned by the application (no autoincrement), so the
-- same code serves SQLite and PostgreSQL. The two tables written for every game are
-- WITHOUT ROWID: their primary key is the table, which halves the work of each write.

CREATE TABLE tournament (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    name           TEXT    NOT NULL,
    seed           BIGINT  NOT NULL,
    -- Hash of everything in the configuration that changes games; a later run must match.
    config_hash    TEXT    NOT NULL,
    format_json    TEXT    NOT NULL,
    engine_version INTEGER NOT NULL,
    created_at     TEXT    NOT NULL
);

CREATE TABLE schools (
    id   INTEGER PRIMARY KEY,
    name TEXT    NOT NULL UNIQUE,
    slug TEXT    NOT NULL UNIQUE
);

CREATE TABLE teams (
    id           INTEGER PRIMARY KEY,
    school_id    INTEGER NOT NULL REFERENCES schools (id),
    name         TEXT    NOT NULL,
    -- builtin:NAME, or the command line of an external bot.
    bot          TEXT    NOT NULL,
    protocol     TEXT,
    dir          TEXT,
    -- Hash of the bot directory's files when the run started (external bots).
    content_hash TEXT,
    UNIQUE (school_id, name)
);

-- One row per stage: a school's, or 'nationals'.
CREATE TABLE stages (
    id        TEXT    PRIMARY KEY,
    kind      TEXT    NOT NULL CHECK (kind IN ('school', 'nationals')),
    school_id INTEGER REFERENCES schools (id),
    status    TEXT    NOT NULL CHECK (status IN ('planned', 'running', 'done'))
);

CREATE TABLE rounds (
    stage_id TEXT    NOT NULL REFERENCES stages (id),
    round    INTEGER NOT NULL,
    is_final INTEGER NOT NULL,
    PRIMARY KEY (stage_id, round)
);

-- Sets, by their human id (westfield-high/r1/s2, nationals/final).
CREATE TABLE sets (
    id              TEXT    PRIMARY KEY,
    stage_id        TEXT    NOT NULL,
    round           INTEGER NOT NULL,
    set_index       INTEGER NOT NULL,
    is_final        INTEGER NOT NULL,
    -- How many times the set was re-run; games of older runs are superseded.
    run_no          INTEGER NOT NULL DEFAULT 0,
    -- Bumped by rerun --reseed; part of every game seed of the set.
    seed_generation INTEGER NOT NULL DEFAULT 0,
    -- 'invalidated': a rerun changed what led to it; it is dealt again by the next run.
    status          TEXT    NOT NULL CHECK (status IN ('planned', 'done', 'invalidated')),
    FOREIGN KEY (stage_id, round) REFERENCES rounds (stage_id, round)
);

CREATE TABLE set_members (
    set_id   TEXT    NOT NULL REFERENCES sets (id),
    position INTEGER NOT NULL,
    team_id  INTEGER NOT NULL REFERENCES teams (id),
    PRIMARY KEY (set_id, position),
    UNIQUE (set_id, team_id)
);

CREATE TABLE games (
    set_id         TEXT    NOT NULL REFERENCES sets (id),
    run_no         INTEGER NOT NULL,
    game_index     INTEGER NOT NULL,
    seed           BIGINT  NOT NULL,
    board          TEXT    NOT NULL,
    status         TEXT    NOT NULL CHECK (status IN ('planned', 'done')),
    -- Times the game was started; more than 1 after an interrupted run.
    attempts       INTEGER NOT NULL DEFAULT 0,
    engine_version INTEGER,
    turns          INTEGER,
    -- The replies in the order the engine consumed them (see store/decisions.rs).
    decisions      BLOB,
    superseded     INTEGER NOT NULL DEFAULT 0,
    finished_at    TEXT,
    PRIMARY KEY (set_id, run_no, game_index)
) WITHOUT ROWID;

CREATE TABLE game_results (
    set_id     TEXT    NOT NULL,
    run_no     INTEGER NOT NULL,
    game_index INTEGER NOT NULL,
    team_id    INTEGER NOT NULL REFERENCES teams (id),
    seat       INTEGER NOT NULL,
    score      INTEGER NOT NULL,
    flags      INTEGER NOT NULL,
    hits       INTEGER NOT NULL,
    pushes     INTEGER NOT NULL,
    push_kills INTEGER NOT NULL,
    deaths     INTEGER NOT NULL,
    faults     INTEGER NOT NULL,
    won        INTEGER NOT NULL,
    PRIMARY KEY (set_id, run_no, game_index, team_id),
    FOREIGN KEY (set_id, run_no, game_index) REFERENCES games (set_id, run_no, game_index)
) WITHOUT ROWID;

-- Who left a round upwards (or joined nationals) and why.
CREATE TABLE advancement (
    stage_id  TEXT    NOT NULL,
    round     INTEGER NOT NULL,
    team_id   INTEGER NOT NULL REFERENCES teams (id),
    set_id    TEXT,
    place     INTEGER NOT NULL,
    kind      TEXT    NOT NULL CHECK (kind IN ('top', 'wildcard', 'single_team')),
    tie_break TEXT,
    PRIMARY KEY (stage_id, round, team_id)
);

CREATE TABLE audit_log (
    id      INTEGER PRIMARY KEY,
    at      TEXT    NOT NULL,
    action  TEXT    NOT NULL,
    set_id  TEXT,
    reason  TEXT,
    details TEXT
);

