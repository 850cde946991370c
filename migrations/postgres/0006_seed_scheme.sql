-- How a tournament's seeds derive from its secret seed (see migrations/sqlite/0006).

ALTER TABLE tournament ADD COLUMN seed_scheme TEXT COLLATE "C" NOT NULL DEFAULT 'fnv1a-splitmix64';
