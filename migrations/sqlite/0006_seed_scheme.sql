-- How a tournament's seeds derive from its secret seed (docs/determinism.md). Tournaments
-- stored before this column derive theirs with FNV-1a and SplitMix64 and keep doing so, so
-- that they resume, re-run and replay as they were played; new tournaments store
-- 'hmac-sha256', a keyed one-way derivation.

ALTER TABLE tournament ADD COLUMN seed_scheme TEXT NOT NULL DEFAULT 'fnv1a-splitmix64';
