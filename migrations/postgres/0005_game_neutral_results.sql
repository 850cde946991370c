-- Results of any game kind (see migrations/sqlite/0005): every team's line holds score,
-- won and faults and the game's own statistics in stat_1 .. stat_5, keyed by
-- game_no * 16 + seat.

ALTER TABLE tournament ADD COLUMN game TEXT COLLATE "C" NOT NULL DEFAULT 'lrs';

CREATE TABLE seat_results (
    line    BIGINT PRIMARY KEY,
    game_no BIGINT NOT NULL REFERENCES games (no),
    team_id BIGINT NOT NULL REFERENCES teams (id),
    seat    BIGINT NOT NULL,
    score   BIGINT NOT NULL,
    won     BOOLEAN NOT NULL,
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
