-- Baton's store, PostgreSQL dialect. Items are stored once by content hash; a context snapshot is a
-- delta on the run's previous snapshot (full every 64th), so long runs do not store copies of
-- their history.
CREATE TABLE topologies (
  hash TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX topologies_name ON topologies (name, created_at);

CREATE TABLE runs (
  id TEXT PRIMARY KEY,
  topology_hash TEXT REFERENCES topologies (hash),
  topology TEXT NOT NULL,
  scenario TEXT NOT NULL,
  providers TEXT NOT NULL,
  started_at TEXT NOT NULL,
  ended_at TEXT,
  status TEXT NOT NULL,
  reason TEXT NOT NULL,
  owner TEXT NOT NULL,
  final_output TEXT,
  guard TEXT,
  input_tokens BIGINT NOT NULL DEFAULT 0,
  output_tokens BIGINT NOT NULL DEFAULT 0,
  step_count BIGINT NOT NULL DEFAULT 0,
  transfer_count BIGINT NOT NULL DEFAULT 0,
  lost_facts BIGINT NOT NULL DEFAULT 0,
  pid BIGINT,
  host TEXT,
  source TEXT
);
CREATE INDEX runs_topology ON runs (topology, started_at);
CREATE INDEX runs_status ON runs (status);

CREATE TABLE items (
  id BYTEA PRIMARY KEY,
  body TEXT NOT NULL
);

CREATE TABLE run_items (
  run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  item_id BYTEA NOT NULL,
  ord BIGINT NOT NULL,
  PRIMARY KEY (run_id, item_id)
);
CREATE INDEX run_items_item ON run_items (item_id);

CREATE TABLE snapshots (
  run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  seq BIGINT NOT NULL,
  prefix_len BIGINT NOT NULL,
  ids BYTEA NOT NULL,
  PRIMARY KEY (run_id, seq)
);

CREATE TABLE steps (
  run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  idx BIGINT NOT NULL,
  kind TEXT NOT NULL,
  agent TEXT NOT NULL,
  owner TEXT NOT NULL,
  depth BIGINT NOT NULL,
  snapshot BIGINT NOT NULL,
  output BYTEA NOT NULL,
  transfer_idx BIGINT,
  detail TEXT NOT NULL,
  input_tokens BIGINT,
  output_tokens BIGINT,
  exchange TEXT,
  PRIMARY KEY (run_id, idx)
);

CREATE TABLE transfers (
  run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  idx BIGINT NOT NULL,
  step BIGINT NOT NULL,
  kind TEXT NOT NULL,
  from_agent TEXT NOT NULL,
  to_agent TEXT NOT NULL,
  edge TEXT NOT NULL,
  policy TEXT NOT NULL,
  sender BIGINT NOT NULL,
  receiver BIGINT NOT NULL,
  carried BYTEA NOT NULL,
  transformed BYTEA NOT NULL,
  dropped BYTEA NOT NULL,
  added BYTEA NOT NULL,
  PRIMARY KEY (run_id, idx)
);
CREATE INDEX transfers_step ON transfers (run_id, step);

CREATE TABLE fact_checks (
  run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  transfer_idx BIGINT NOT NULL,
  step BIGINT NOT NULL,
  fact_id TEXT NOT NULL,
  status TEXT NOT NULL,
  PRIMARY KEY (run_id, transfer_idx, fact_id)
);
CREATE INDEX fact_checks_status ON fact_checks (run_id, fact_id, status);
