// The scale fixtures of issue #21, generated (never committed as big files): a 1,000-agent,
// 3,000-edge topology with no layout (the window lays it out on open), two-agent topologies whose
// mock scripts poll a tool and hand the conversation back and forth (a full-context one whose
// transfers carry thousands of items, and a 100,000-step one with bounded contexts), and one agent
// whose context reaches 17,000 items.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** The same shape as benches/scale.rs: a handoff chain, a delegation two ahead, a handoff back ten behind. */
export function scaleTopologyYaml(n = 1000) {
  const out = [`version: 1`, `name: scale-${n}`, `entry: a0`, `agents:`];
  for (let i = 0; i < n; i++) {
    out.push(`  - { id: a${i}, name: Agent ${i}, instructions: "You are agent ${i}.", model: { provider: mock, name: mock } }`);
  }
  out.push(`edges:`);
  for (let i = 0; i < n; i++) {
    const push = (kind, to) => {
      if (to !== i) out.push(`  - { kind: ${kind}, from: a${i}, to: a${to} }`);
    };
    push("handoff", (i + 1) % n);
    push("delegation", (i + 2) % n);
    push("handoff", (i + n - 10) % n);
  }
  out.push(`facts:`);
  for (let k = 0; k < 20; k++) out.push(`  - { id: f${k}, text: "Fact ${k}.", holders: [a${k * 50}] }`);
  out.push(`guards: { max_turns: 10, max_handoffs: 50, on_revisit: allow }`);
  out.push(`scenarios:`, `  - { name: s, input: "Start." }`);
  return `${out.join("\n")}\n`;
}

const POLL_TOOL = `tools: [{ name: poll, description: Poll the deploy., mock_result: "Deploy d-42 is still rolling out." }]`;

/** One answer that calls `poll` `fan` times at once (the SDK's parallel tool calls). */
const fanOut = (fan) => `[${Array.from({ length: fan }, (_, j) => `{ tool: poll, args: { deploy: "d-42", shard: ${j} } }`).join(", ")}]`;

/**
 * Two pollers, Poller A and Poller B: each answers `poll` (the calls given) and hands the
 * conversation to the other on every `every`-th of its own calls, under `policy` (or the full
 * context), until `turns` model calls.
 */
function pollers({ name, turns, every, calls, reasoning, policy, guards }) {
  const perAgent = Math.ceil(turns / every / 2) + 1;
  const script = (other) => {
    const rules = [];
    for (let k = 1; k <= perAgent; k++) rules.push(`        - { when: { call: ${k * every} }, calls: [{ tool: transfer_to_poller_${other} }] }`);
    rules.push(`        - { reasoning: "${reasoning}", calls: ${calls} }`);
    return rules.join("\n");
  };
  const edge = (from, to) => `  - { kind: handoff, from: ${from}, to: ${to}${policy ? `, policy: ${policy}` : ""} }`;
  return `version: 1
name: ${name}
entry: a
agents:
  - { id: a, name: Poller A, instructions: Poll the deploy until it is done., model: { provider: mock, name: mock }, ${POLL_TOOL} }
  - { id: b, name: Poller B, instructions: Poll the deploy until it is done., model: { provider: mock, name: mock }, ${POLL_TOOL} }
edges:
${edge("a", "b")}
${edge("b", "a")}
facts:
  - { id: manual, text: "The deploy's rollout is manual.", holders: [a] }
guards: { ${guards} }
scenarios:
  - name: poll
    input: Wait for deploy d-42 and report when it is live.
    scripts:
      a:
${script("b")}
      b:
${script("a")}
`;
}

/**
 * Two agents that poll a tool; each hands the conversation to the other on every `every`-th of
 * its own calls. A turn is two steps (the model call and the tool call or handoff), so
 * `steps / 2` turns make about `steps` steps; the policy is `full`, so the context grows all run.
 */
export function longRunYaml(steps = 100_000, every = 10) {
  const turns = Math.ceil(steps / 2);
  return pollers({
    name: "long-run",
    turns,
    every,
    calls: `[{ tool: poll, args: { deploy: "d-42" } }]`,
    reasoning: "The deploy is not done yet; poll again.",
    guards: `max_turns: ${turns}, on_revisit: allow`,
  });
}

/**
 * The 100,000-step run: two agents that each answer with `fan` parallel poll calls (a step each)
 * and hand the conversation to the other on every `every`-th of their own calls, carrying the
 * last `keep` items. Contexts stay bounded (as a model's window bounds them); the run ends on its
 * turn limit after about `steps` steps.
 */
export function pollingRunYaml(steps = 100_000, { fan = 20, every = 10, keep = 200 } = {}) {
  // Nine of every ten answers make fan + 1 steps, the handoff one makes two.
  const turns = Math.ceil((steps * every) / ((every - 1) * (fan + 1) + 2));
  return pollers({
    name: "polling-run",
    turns,
    every,
    calls: fanOut(fan),
    reasoning: "The deploy is not done yet; poll every shard.",
    policy: `{ last_n: ${keep} }`,
    guards: `max_turns: ${turns}, max_model_calls: ${turns}, on_revisit: allow`,
  });
}

/** One agent whose context reaches about `items` items: each answer polls `fan` shards at once. */
export function wideContextYaml(items = 17_000, fan = 100) {
  const turns = Math.ceil(items / (2 * fan)) + 1;
  return `version: 1
name: wide-context
entry: a
agents:
  - { id: a, name: Poller, instructions: Poll every shard of the deploy., model: { provider: mock, name: mock }, ${POLL_TOOL} }
edges: []
guards: { max_turns: ${turns}, max_model_calls: ${turns} }
scenarios:
  - name: poll
    input: Poll every shard of deploy d-42.
    scripts:
      a:
        - { calls: ${fanOut(fan)} }
`;
}

/** Writes them into `dir`; returns their paths. */
export function writeScaleFixtures(dir, { agents = 1000, steps = 100_000, items = 17_000 } = {}) {
  const paths = {
    topology: join(dir, `scale-${agents}.yaml`),
    pollingRun: join(dir, "polling-run.yaml"),
    wideContext: join(dir, "wide-context.yaml"),
  };
  writeFileSync(paths.topology, scaleTopologyYaml(agents));
  writeFileSync(paths.pollingRun, pollingRunYaml(steps));
  writeFileSync(paths.wideContext, wideContextYaml(items));
  return paths;
}

// `node bench/fixtures.mjs DIR [STEPS]` writes them for a manual look.
if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? ".";
  console.log(writeScaleFixtures(dir, { steps: Number(process.argv[3] ?? 100_000) }));
}
