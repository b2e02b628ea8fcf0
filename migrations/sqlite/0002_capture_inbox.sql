-- Live capture (`baton collect`): each accepted OTLP request's spans, kept until every trace it
-- touched is saved as a run, so that an acknowledged span survives a crash of the collector.
CREATE TABLE capture_inbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  received_at TEXT NOT NULL,
  encoding TEXT NOT NULL,
  body BLOB NOT NULL
);
