//! Suspects and the verdict on a 10,000-step run (a two-agent handoff loop with tool calls,
//! `last_n(6)` handoffs that drop most of each context, identifiers that reappear later):
//! wall time of `suspects(&trace)`, the issue's bound being under 1 s.

use baton::engine::{RunOptions, run_mock};
use std::time::Instant;

const YAML: &str = r#"
version: 1
name: loop10k
entry: a
agents:
  - { id: a, name: A, instructions: "Work the queue. Only close an item after the audit (pending review)." }
  - { id: b, name: B, instructions: "Work the queue; hand back when done." }
edges:
  - { kind: handoff, from: a, to: b, policy: { last_n: 6 } }
  - { kind: handoff, from: b, to: a, policy: { last_n: 6 } }
guards: { max_turns: 100000, max_model_calls: 100000, on_revisit: allow }
scenarios:
  - name: s
    input: "Process ticket TKT-1001 and its siblings; refunds only if approved by finance."
    scripts:
      a:
        - when: { last_tool_result_contains: "done" }
          reasoning: "Item closed behind flag AUD_7; rollout pending."
          say: Resolved.
          calls: [{ tool: transfer_to_b }]
        - calls: [{ tool: poll, args: { queue: "Q-42" } }]
      b:
        - when: { last_tool_result_contains: "done" }
          say: Done.
          calls: [{ tool: transfer_to_a }]
        - calls: [{ tool: poll, args: { queue: "Q-42" } }]
"#;

fn main() {
    let mut t = baton::config::parse(YAML, baton::config::Format::Yaml, "<bench>").unwrap();
    for a in t.agents.iter_mut() {
        a.tools.push(baton::topology::Tool {
            name: "poll".into(),
            description: "Poll the queue.".into(),
            parameters: serde_json::json!({"type": "object", "properties": {"queue": {"type": "string"}}}),
            mock_result: "item TKT-1001 done; AUD_7 still pending".into(),
        });
    }
    // 2 model calls, a tool step and a handoff per turn: 10,000 steps.
    t.guards.max_turns = 5_000;
    t.guards.max_model_calls = 10_000;
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let trace = rt.block_on(run_mock(&t, RunOptions::default())).unwrap();
    println!("run: {} steps, {} transfers, {} items", trace.steps.len(), trace.transfers.len(), trace.items.len());
    let mut times = vec![];
    for _ in 0..5 {
        let t0 = Instant::now();
        let r = baton::suspects::suspects(&trace);
        times.push(t0.elapsed().as_secs_f64() * 1000.0);
        std::hint::black_box(r);
    }
    times.sort_by(f64::total_cmp);
    println!("suspects + verdict: median {:.0} ms, min {:.0} ms, max {:.0} ms (5 runs)", times[2], times[0], times[4]);
}
