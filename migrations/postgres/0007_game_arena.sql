-- A game's arena by name (see migrations/sqlite/0007).

ALTER TABLE games RENAME COLUMN board TO arena;
