//! Engine benchmark on the scenarios of ../shared/bench/README.md, with the mock model and
//! trace capture and diffs on: runs/s, µs of CPU per model call, and peak RSS of a fresh
//! process after 1,000 runs. Compare with ../shared/bench/agents_sdk_anchor.py.

use baton::engine::{RunOptions, run_mock};
use baton::topology::Topology;
use std::time::Instant;

fn topo(yaml: &str) -> Topology {
    baton::config::parse(yaml, baton::config::Format::Yaml, "<bench>").unwrap()
}

fn two_agent() -> (Topology, u32) {
    (
        topo(
            r#"
version: 1
name: 2agent
entry: triage
agents:
  - { id: triage, name: Triage, instructions: triage }
  - { id: billing, name: Billing, instructions: billing }
  - { id: technical, name: Technical, instructions: tech }
edges:
  - { kind: handoff, from: triage, to: billing }
  - { kind: handoff, from: triage, to: technical }
scenarios:
  - name: s
    input: I was double charged.
    scripts:
      triage: [{ calls: [{ tool: transfer_to_billing, id: call_h1 }] }]
      billing: [{ say: Refund issued. }]
"#,
        ),
        2,
    )
}

fn as_tool() -> (Topology, u32) {
    (
        topo(
            r#"
version: 1
name: astool
entry: triage
agents:
  - { id: triage, name: Triage, instructions: triage }
  - { id: billing, name: Billing, instructions: billing }
  - { id: technical, name: Technical, instructions: tech }
edges:
  - { kind: handoff, from: triage, to: billing }
  - { kind: handoff, from: triage, to: technical }
  - { kind: delegation, from: billing, to: technical, tool: ask_technical, description: ask tech }
scenarios:
  - name: s
    input: I was double charged, check my line too.
    scripts:
      triage: [{ calls: [{ tool: transfer_to_billing, id: call_h1 }] }]
      billing:
        - { when: { last_tool_result_contains: Line is fine }, say: Refund issued after tech check. }
        - { calls: [{ tool: ask_technical, args: { input: check line }, id: call_tech }] }
      technical: [{ say: Line is fine. }]
"#,
        ),
        4,
    )
}

fn chain(n: usize) -> (Topology, u32) {
    let mut y = String::from("version: 1\nname: chain\nentry: a1\nagents:\n");
    for i in 1..=n {
        y += &format!("  - {{ id: a{i}, name: A{i}, instructions: agent {i} }}\n");
    }
    y += "edges:\n";
    for i in 1..n {
        y += &format!("  - {{ kind: handoff, from: a{i}, to: a{} }}\n", i + 1);
    }
    y += "guards: { max_turns: 100 }\nscenarios:\n  - name: s\n    history:\n";
    for k in 0..20 {
        let role = if k % 2 == 0 { "user" } else { "assistant" };
        y += &format!("      - {{ role: {role}, content: \"prior message {k}: {}\" }}\n", "lorem ipsum ".repeat(8));
    }
    y += "    input: Please help with my bill.\n    scripts:\n";
    for i in 1..n {
        y += &format!("      a{i}: [{{ calls: [{{ tool: transfer_to_a{}, id: call_h{i} }}] }}]\n", i + 1);
    }
    y += &format!("      a{n}: [{{ say: done }}]\n");
    (topo(&y), n as u32)
}

fn cpu_ns() -> u128 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes into the timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u128 * 1_000_000_000 + ts.tv_nsec as u128
}

fn peak_rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn scenario(name: &str) -> (Topology, u32) {
    match name {
        "2agent" => two_agent(),
        "astool" => as_tool(),
        "chain" => chain(10),
        _ => panic!("unknown scenario {name}"),
    }
}

fn runs(t: &Topology, n: usize) {
    let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
    rt.block_on(async {
        for _ in 0..n {
            let trace = run_mock(t, RunOptions::default()).await.unwrap();
            assert_eq!(trace.outcome.status, baton::trace::OutcomeStatus::Completed);
            std::hint::black_box(&trace);
        }
    });
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--rss-child") {
        let (t, _) = scenario(&args[i + 1]);
        runs(&t, 1000);
        println!("{}", peak_rss_kb());
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    println!("engine benchmark (mock model, trace capture and diffs on)");
    println!(
        "{:<8} {:>12} {:>12} {:>16} {:>16} {:>14}",
        "scenario", "runs/s wall", "runs/s CPU", "µs CPU/call", "µs wall/call", "peak RSS MB"
    );
    for name in ["2agent", "astool", "chain"] {
        let (t, calls) = scenario(name);
        runs(&t, 200); // warm-up
        let n = if quick { 2_000 } else { 20_000 };
        let reps = if quick { 3 } else { 7 };
        let mut cpu = vec![];
        let mut wall = vec![];
        for _ in 0..reps {
            let (c0, w0) = (cpu_ns(), Instant::now());
            runs(&t, n);
            cpu.push((cpu_ns() - c0) as f64 / n as f64 / 1e3);
            wall.push(w0.elapsed().as_nanos() as f64 / n as f64 / 1e3);
        }
        cpu.sort_by(f64::total_cmp);
        wall.sort_by(f64::total_cmp);
        let (cpu_us, wall_us) = (cpu[reps / 2], wall[reps / 2]);
        let exe = std::env::current_exe().unwrap();
        let out = std::process::Command::new(exe).args(["--rss-child", name]).output().unwrap();
        let rss_kb: f64 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap_or(0.0);
        println!(
            "{name:<8} {:>12.0} {:>12.0} {:>16.2} {:>16.2} {:>14.1}",
            1e6 / wall_us,
            1e6 / cpu_us,
            cpu_us / calls as f64,
            wall_us / calls as f64,
            rss_kb / 1024.0
        );
    }
}
