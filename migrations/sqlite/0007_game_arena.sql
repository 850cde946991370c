-- A game's arena by name: a board for the games played on one, the game's own arena name
-- for the others. The column was named `board` when only board games were stored; its
-- values are unchanged.

ALTER TABLE games RENAME COLUMN board TO arena;
