-- What an external bot left behind in a game: how its process ended and its capped
-- stderr (protocol-jsonl.md keeps up to 1 MiB per bot per game). A Windward client lives
-- for a whole series; its log is stored with the last game of the series it played.
CREATE TABLE bot_logs (
    set_id      TEXT    NOT NULL,
    run_no      INTEGER NOT NULL,
    game_index  INTEGER NOT NULL,
    team_id     INTEGER NOT NULL REFERENCES teams (id),
    exit_status TEXT    NOT NULL,
    stderr      TEXT    NOT NULL,
    PRIMARY KEY (set_id, run_no, game_index, team_id),
    FOREIGN KEY (set_id, run_no, game_index) REFERENCES games (set_id, run_no, game_index)
) WITHOUT ROWID;
