//! Suspects and the verdict on a 10,000-step run (a two-agent handoff loop with tool calls,
//! `last_n(6)` handoffs that drop most of each context, identifiers that reappear later):
//! wall time of `suspects(&trace)`, the issue's bound being under 1 s; and the proof by replay
//! of a 20-transfer mock run (issue #28's bound: under 2 s).

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
    stored_bench(&rt, &trace);
    prove_bench(&rt);
}

/// The peak resident set of this process so far, in MB (Linux; 0 elsewhere).
fn peak_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb =
        status.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.split_whitespace().next()?.parse().ok());
    kb.unwrap_or(0.0) / 1024.0
}

/// The report a window asks for on a stored run (`suspects` over the API: the run read without
/// its contexts and exchanges, capped per transfer) beside the same report from the whole run
/// read back; the lean read goes first, so the peak after it is its own.
fn stored_bench(rt: &tokio::runtime::Runtime, trace: &baton::trace::Trace) {
    let dir = tempfile::tempdir().unwrap();
    let api = baton::api::Api::new(baton::api::FileAccess::Any, dir.path().join("runs.db").display().to_string());
    let id = rt.block_on(async { api.store().await.unwrap().save_trace(trace).await.unwrap() });
    let before = peak_mb();
    let t0 = Instant::now();
    let r = rt.block_on(api.suspects(baton::api::RunIdArgs { run_id: id.clone() })).unwrap();
    let lean = t0.elapsed().as_secs_f64() * 1000.0;
    let lean_peak = peak_mb();
    let sent = serde_json::to_vec(&r).unwrap().len();
    let t0 = Instant::now();
    let whole = rt.block_on(async { api.store().await.unwrap().load_trace(&id).await.unwrap() });
    let full = baton::suspects::suspects(&whole);
    let whole_ms = t0.elapsed().as_secs_f64() * 1000.0;
    let full_len = serde_json::to_vec(&full).unwrap().len();
    println!(
        "stored run, the window's report: {lean:.0} ms, peak {lean_peak:.0} MB (from {before:.0}), {:.1} MB sent; whole run read + full report: {whole_ms:.0} ms, peak {:.0} MB, {:.1} MB",
        sent as f64 / 1e6,
        peak_mb(),
        full_len as f64 / 1e6
    );
}

/// A chain of 21 agents and 20 handoffs (`last_n(2)` up to agent 12, then full history), each
/// agent calling a tool before it hands on; agent 12's tool result says the shipment is hazmat,
/// lost at its handoff, and the last agent books it as general cargo unless it sees that: the
/// run's expect: (hazmat booking) fails, and the proof names transfer 12.
fn chain_yaml() -> String {
    let n = 21;
    let mut agents = String::new();
    let mut edges = String::new();
    let mut scripts = String::new();
    for i in 0..n {
        let tool_result = if i == 12 { "crate C-77 holds UN3480 lithium cells" } else { "checked, nothing to note" };
        agents.push_str(&format!(
            "  - id: a{i}\n    name: A{i}\n    instructions: Step {i} of the chain.\n    tools:\n      - {{ name: check_{i}, description: Check., parameters: {{ type: object }}, mock_result: \"{tool_result}\" }}\n"
        ));
        if i + 1 < n {
            // Up to agent 12 each handoff keeps the last two items; from there the whole history.
            let policy = if i <= 12 { "{ last_n: 2 }" } else { "full" };
            edges.push_str(&format!("  - {{ kind: handoff, from: a{i}, to: a{}, policy: {policy} }}\n", i + 1));
            scripts.push_str(&format!(
                "      a{i}:\n        - when: {{ call: 1 }}\n          calls: [{{ tool: check_{i} }}]\n        - say: Step {i} done.\n          calls: [{{ tool: transfer_to_a{} }}]\n",
                i + 1
            ));
        }
    }
    scripts.push_str(&format!(
        "      a{last}:\n        - when: {{ contains: UN3480 }}\n          say: Booked crate C-77 as hazmat.\n        - say: Booked crate C-77 as general cargo.\n",
        last = n - 1
    ));
    format!(
        "version: 1\nname: chain20\nentry: a0\nagents:\n{agents}edges:\n{edges}guards: {{ max_turns: 100, max_handoffs: 30, max_model_calls: 200 }}\nscenarios:\n  - name: s\n    input: Ship crate C-77.\n    expect: {{ output_contains: hazmat }}\n    scripts:\n{scripts}"
    )
}

fn prove_bench(rt: &tokio::runtime::Runtime) {
    let t = baton::config::parse(&chain_yaml(), baton::config::Format::Yaml, "<bench>").unwrap();
    let trace = rt.block_on(run_mock(&t, RunOptions::default())).unwrap();
    println!(
        "proof run: {} steps, {} transfers, outcome {:?}",
        trace.steps.len(),
        trace.transfers.len(),
        trace.outcome.final_output
    );
    let mut times = vec![];
    let mut last = None;
    for _ in 0..5 {
        let t0 = Instant::now();
        let r = rt
            .block_on(baton::suspects::prove(
                &trace,
                "",
                baton::suspects::report(&trace, None),
                &baton::suspects::ProveOptions::default(),
            ))
            .unwrap();
        times.push(t0.elapsed().as_secs_f64() * 1000.0);
        last = Some(r.report);
    }
    times.sort_by(f64::total_cmp);
    let r = last.unwrap();
    let cost = r.cost.unwrap();
    println!(
        "prove (mock, every transfer): median {:.0} ms, min {:.0} ms, max {:.0} ms (5 runs); {} forks, {} model calls; verdict: {}",
        times[2], times[0], times[4], cost.forks, cost.model_calls, r.verdict.text
    );
}
