-- What an external bot left behind in a game (see migrations/sqlite/0002): how its process
-- ended and its capped stderr.
CREATE TABLE bot_logs (
    set_id      TEXT COLLATE "C" NOT NULL,
    run_no      BIGINT NOT NULL,
    game_index  BIGINT NOT NULL,
    team_id     BIGINT NOT NULL REFERENCES teams (id),
    exit_status TEXT COLLATE "C" NOT NULL,
    stderr      TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (set_id, run_no, game_index, team_id),
    FOREIGN KEY (set_id, run_no, game_index) REFERENCES games (set_id, run_no, game_index)
);
