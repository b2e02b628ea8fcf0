-- Capture shared by several collectors on one store (`baton collect --shared`): each trace's
-- arrival across every instance, so that whichever instance finds it quiet assembles it from
-- every instance's acknowledged requests and saves it, one instance at a time. Times are
-- milliseconds since the Unix epoch; `root_seen` is 0 or 1.
CREATE TABLE capture_traces (
  trace_id TEXT PRIMARY KEY,
  first_at BIGINT NOT NULL,
  last_at BIGINT NOT NULL,
  spans BIGINT NOT NULL,
  root_seen BIGINT NOT NULL,
  saved_spans BIGINT NOT NULL DEFAULT 0,
  saved_at BIGINT,
  shown_at BIGINT
);
CREATE INDEX capture_traces_last ON capture_traces (last_at);
-- Which traces each inbox request holds spans of (only requests taken in shared mode).
CREATE TABLE capture_inbox_traces (
  inbox_id BIGINT NOT NULL,
  trace_id TEXT NOT NULL,
  PRIMARY KEY (inbox_id, trace_id)
);
CREATE INDEX capture_inbox_traces_trace ON capture_inbox_traces (trace_id);
