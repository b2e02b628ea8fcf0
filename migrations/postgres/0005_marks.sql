-- Marks: a person's judgement of how a run ended (good or bad, why, when), as JSON; `baton runs
-- mark` and the debugger's Good/Bad set it, the Runs home filters by it, suspects reads it.
ALTER TABLE runs ADD COLUMN mark TEXT;
ALTER TABLE runs ADD COLUMN judgement TEXT;
CREATE INDEX runs_judgement ON runs (judgement);
-- A delegation's return (what came back to the caller, what the worker left behind), as JSON.
ALTER TABLE transfers ADD COLUMN back TEXT;
