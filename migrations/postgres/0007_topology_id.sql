-- A topology's stable identity (kept in its file): its runs are listed by it, so they stay its
-- own across renames and a Save As copy starts its own history. Runs saved before have none and
-- are matched by name.
ALTER TABLE runs ADD COLUMN topology_id TEXT;
CREATE INDEX runs_topology_id ON runs (topology_id, started_at);
