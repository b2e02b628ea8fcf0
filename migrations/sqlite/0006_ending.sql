-- How a run's ending was judged when it was saved (JSON: judgement good|bad|null, by, reason):
-- the lists show it beside the outcome, so a run that completed badly does not look fine.
ALTER TABLE runs ADD COLUMN ending TEXT;
