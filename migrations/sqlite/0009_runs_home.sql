-- The Runs home over many runs (issue #34): its newest page and its date ranges read the runs by
-- start time.
CREATE INDEX runs_started ON runs (started_at, id);
