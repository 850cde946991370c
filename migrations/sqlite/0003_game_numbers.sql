-- Every game gets a number, assigned by the application when its set is dealt, and the
-- tables written for every finished game are keyed by it. A finished game writes a line per
-- team; keyed by (set id, run, game, team), each line repeated the set's text id and every
-- insert, foreign-key check and lookup compared text. With an integer key those are
-- integer comparisons, the lines are half the size, and updating a finished game finds it
-- by its number directly. (set_id, run_no, game_index) stays unique.

CREATE TABLE games_numbered (
    no             INTEGER PRIMARY KEY,
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
    UNIQUE (set_id, run_no, game_index)
);

INSERT INTO games_numbered (no, set_id, run_no, game_index, seed, board, status, attempts,
                            engine_version, turns, decisions, superseded, finished_at)
SELECT ROW_NUMBER() OVER (ORDER BY set_id, run_no, game_index), set_id, run_no, game_index,
       seed, board, status, attempts, engine_version, turns, decisions, superseded, finished_at
FROM games;

CREATE TABLE game_results_numbered (
    game_no    INTEGER NOT NULL REFERENCES games_numbered (no),
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
    PRIMARY KEY (game_no, team_id)
) WITHOUT ROWID;

INSERT INTO game_results_numbered (game_no, team_id, seat, score, flags, hits, pushes,
                                   push_kills, deaths, faults, won)
SELECT g.no, r.team_id, r.seat, r.score, r.flags, r.hits, r.pushes, r.push_kills, r.deaths,
       r.faults, r.won
FROM game_results r
JOIN games_numbered g
  ON g.set_id = r.set_id AND g.run_no = r.run_no AND g.game_index = r.game_index;

CREATE TABLE bot_logs_numbered (
    game_no     INTEGER NOT NULL REFERENCES games_numbered (no),
    team_id     INTEGER NOT NULL REFERENCES teams (id),
    exit_status TEXT    NOT NULL,
    stderr      TEXT    NOT NULL,
    PRIMARY KEY (game_no, team_id)
) WITHOUT ROWID;

INSERT INTO bot_logs_numbered (game_no, team_id, exit_status, stderr)
SELECT g.no, l.team_id, l.exit_status, l.stderr
FROM bot_logs l
JOIN games_numbered g
  ON g.set_id = l.set_id AND g.run_no = l.run_no AND g.game_index = l.game_index;

-- Children first: nothing refers to the old tables any more when they go.
DROP TABLE bot_logs;
DROP TABLE game_results;
DROP TABLE games;
-- Renaming also renames the references of the new children.
ALTER TABLE games_numbered RENAME TO games;
ALTER TABLE game_results_numbered RENAME TO game_results;
ALTER TABLE bot_logs_numbered RENAME TO bot_logs;

-- Finishing a set replaces its advancement rows (a rerun may change them): without this
-- index every such delete read the whole advancement table, which a big tournament fills
-- with tens of thousands of rows.
CREATE INDEX advancement_by_set ON advancement (set_id);
