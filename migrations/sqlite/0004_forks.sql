-- Forks: a run forked from another at a step keeps its parent (for the lineage tree) and what the
-- fork changed and where it left the recording (JSON).
ALTER TABLE runs ADD COLUMN parent_run TEXT;
ALTER TABLE runs ADD COLUMN fork_step BIGINT;
ALTER TABLE runs ADD COLUMN fork TEXT;
CREATE INDEX runs_parent ON runs (parent_run);
