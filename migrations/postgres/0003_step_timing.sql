-- The debugger's charts: how many items each step's agent saw, and when the step ran
-- (microseconds from the run's start, where the run or its source recorded it).
ALTER TABLE steps ADD COLUMN context_len BIGINT;
ALTER TABLE steps ADD COLUMN start_us BIGINT;
ALTER TABLE steps ADD COLUMN duration_us BIGINT;
