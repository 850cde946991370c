-- Every game gets a number, and the tables written for every finished game are keyed by it
-- (see migrations/sqlite/0003). On PostgreSQL the numbers come from the sequence
-- game_no_seq: whatever deals games takes its numbers there, so two writers can never take
-- the same one.

CREATE TABLE games_numbered (
    no             BIGINT PRIMARY KEY,
    set_id         TEXT COLLATE "C" NOT NULL REFERENCES sets (id),
    run_no         BIGINT NOT NULL,
    game_index     BIGINT NOT NULL,
    seed           BIGINT NOT NULL,
    board          TEXT COLLATE "C" NOT NULL,
    status         TEXT COLLATE "C" NOT NULL CHECK (status IN ('planned', 'done')),
    attempts       BIGINT NOT NULL DEFAULT 0,
    engine_version BIGINT,
    turns          BIGINT,
    decisions      BYTEA,
    superseded     BOOLEAN NOT NULL DEFAULT FALSE,
    finished_at    TEXT COLLATE "C",
    UNIQUE (set_id, run_no, game_index)
);

INSERT INTO games_numbered (no, set_id, run_no, game_index, seed, board, status, attempts,
                            engine_version, turns, decisions, superseded, finished_at)
SELECT ROW_NUMBER() OVER (ORDER BY set_id, run_no, game_index), set_id, run_no, game_index,
       seed, board, status, attempts, engine_version, turns, decisions, superseded, finished_at
FROM games;

CREATE SEQUENCE game_no_seq AS BIGINT;
SELECT setval('game_no_seq', COALESCE((SELECT MAX(no) FROM games_numbered), 0) + 1, FALSE);

CREATE TABLE game_results_numbered (
    game_no    BIGINT NOT NULL REFERENCES games_numbered (no),
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
    PRIMARY KEY (game_no, team_id)
);

INSERT INTO game_results_numbered (game_no, team_id, seat, score, flags, hits, pushes,
                                   push_kills, deaths, faults, won)
SELECT g.no, r.team_id, r.seat, r.score, r.flags, r.hits, r.pushes, r.push_kills, r.deaths,
       r.faults, r.won
FROM game_results r
JOIN games_numbered g
  ON g.set_id = r.set_id AND g.run_no = r.run_no AND g.game_index = r.game_index;

CREATE TABLE bot_logs_numbered (
    game_no     BIGINT NOT NULL REFERENCES games_numbered (no),
    team_id     BIGINT NOT NULL REFERENCES teams (id),
    exit_status TEXT COLLATE "C" NOT NULL,
    stderr      TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (game_no, team_id)
);

INSERT INTO bot_logs_numbered (game_no, team_id, exit_status, stderr)
SELECT g.no, l.team_id, l.exit_status, l.stderr
FROM bot_logs l
JOIN games_numbered g
  ON g.set_id = l.set_id AND g.run_no = l.run_no AND g.game_index = l.game_index;

DROP TABLE bot_logs;
DROP TABLE game_results;
DROP TABLE games;
ALTER TABLE games_numbered RENAME TO games;
ALTER TABLE game_results_numbered RENAME TO game_results;
ALTER TABLE bot_logs_numbered RENAME TO bot_logs;

-- Finishing a set replaces its advancement rows: found by set through this index.
CREATE INDEX advancement_by_set ON advancement (set_id);
