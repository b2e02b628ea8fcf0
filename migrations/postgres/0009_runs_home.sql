-- The Runs home over a million runs (issue #34): its newest page and its date ranges read the
-- runs by start time.
CREATE INDEX runs_started ON runs (started_at, id);
-- Its text search by trigrams, where the server has pg_trgm (a contrib extension). A role that
-- may not create it keeps searching by scanning.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  CREATE INDEX runs_text ON runs USING gin ((LOWER(id || ' ' || topology || ' ' || scenario || ' ' || COALESCE(final_output, '') || ' ' || COALESCE(source, ''))) gin_trgm_ops);
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available: the Runs home searches text by scanning';
END $$;
