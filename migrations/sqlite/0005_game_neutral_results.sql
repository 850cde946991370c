-- Results of any game kind. A tournament plays one game (`tournament.game`: lrs,
-- robotgame, robots); every team's line in a finished game holds what all games share
-- (score, won, faults) and the game's own statistics in `stat_1` .. `stat_5`, in the order
-- the game kind lists them (docs/games.md): for Last Robot Standing flags, hits, pushes,
-- push kills and deaths, which is where the old named columns go.
--
-- Written in SQL that PostgreSQL runs unchanged (tests/postgres_schema.rs runs it there):
-- standard types, no WITHOUT ROWID, keys assigned by the application, and every integer a
-- BIGINT, which the store reads as a 64-bit integer on either database.

ALTER TABLE tournament ADD COLUMN game TEXT NOT NULL DEFAULT 'lrs';

CREATE TABLE seat_results (
    -- The line's key, assigned by the application: game_no * 16 + seat (no game has more
    -- than 16 seats). One integer key is the table itself in SQLite (an INTEGER PRIMARY
    -- KEY is the row's own key), where the two-column key (game_no, team_id) needed the
    -- table plus an index on every write; and it is unique per seat of a game, so a game's
    -- lines can never be stored twice.
    line    INTEGER PRIMARY KEY,
    game_no BIGINT NOT NULL REFERENCES games (no),
    team_id BIGINT NOT NULL REFERENCES teams (id),
    seat    BIGINT NOT NULL,
    score   BIGINT NOT NULL,
    won     BIGINT NOT NULL,
    faults  BIGINT NOT NULL,
    stat_1  BIGINT NOT NULL,
    stat_2  BIGINT NOT NULL,
    stat_3  BIGINT NOT NULL,
    stat_4  BIGINT NOT NULL,
    stat_5  BIGINT NOT NULL
);

INSERT INTO seat_results (line, game_no, team_id, seat, score, won, faults,
                          stat_1, stat_2, stat_3, stat_4, stat_5)
SELECT game_no * 16 + seat, game_no, team_id, seat, score, won, faults,
       flags, hits, pushes, push_kills, deaths
FROM game_results;

DROP TABLE game_results;
ALTER TABLE seat_results RENAME TO game_results;
