// Records real runs of the examples through `baton serve` into src/platform/run-fixtures.json,
// which the mock platform replays (component tests, `?platform=mock`).
// usage: node scripts/run-fixtures.mjs   (needs target/debug/baton and ui/dist)
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { backendPlan, startBackend, UI_DIR } from "../e2e/harness.mjs";

const EXAMPLES = ["ticket-reopen.yaml", "ticket-supervisor.yaml", "handoff-loop.yaml"];

const plan = backendPlan();
if (plan.skip) throw new Error(plan.skip);
const backend = await startBackend(plan);
const api = async (cmd, args) => {
  const r = await fetch(`${backend.url}/api/${cmd}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(args) });
  const body = await r.json();
  if (!r.ok) throw new Error(`${cmd}: ${JSON.stringify(body)}`);
  return body;
};

const out = {};
try {
  for (const path of EXAMPLES) {
    const { topology } = await api("open_topology", { path });
    const { run_id } = await api("start_run", { topology });
    const events = [];
    for (;;) {
      const r = await api("run_events", { run_id, from: events.length });
      events.push(...r.events);
      if (r.finished) break;
    }
    const overview = await api("run_overview", { run_id });
    const items = {};
    const steps = [];
    for (let i = 0; i < overview.steps.kind.length; i++) {
      const v = await api("step_view", { run_id, step: i });
      for (const it of [...v.context, ...v.output, ...(v.transfer?.items ?? [])]) items[it.id] = it;
      steps.push(v.step);
    }
    const transfers = [];
    for (let i = 0; i < overview.transfers.length; i++) {
      const v = await api("transfer_view", { run_id, index: i });
      for (const it of v.items) items[it.id] = it;
      transfers.push(v.transfer);
    }
    out[topology.name] = { summary: overview.summary, topology: overview.topology, events, steps, transfers, items };
    console.log(`${topology.name}: ${steps.length} steps, ${transfers.length} transfers, ${Object.keys(items).length} items`);
  }
} finally {
  await backend.stop();
}
writeFileSync(join(UI_DIR, "src/platform/run-fixtures.json"), JSON.stringify(out, null, 1) + "\n");
