//! The core's side of a 1,000-agent canvas (issue #21): lint, the design-time fact flow and the
//! config round trip of a generated topology with 1,000 agents and 3,000 edges, each timed over
//! 5 runs (the window lints on every edit; the bound for lint is 50 ms).

use baton::topology::{Agent, Edge, EdgeKind, PinnedFact, Topology};
use std::time::Instant;

fn generated(n: usize) -> Topology {
    let mut t = Topology::new("scale");
    t.agents = (0..n)
        .map(|i| Agent {
            id: format!("a{i}"),
            name: format!("Agent {i}"),
            kind: Default::default(),
            instructions: format!("You are agent {i}."),
            model: Some(baton::topology::ModelRef::mock()),
            tools: vec![],
            source: None,
        })
        .collect();
    t.entry = "a0".into();
    // Three edges per agent: a handoff chain, a delegation two ahead, a handoff back ten behind.
    for i in 0..n {
        let mut push = |kind, to: usize| {
            if to != i {
                t.edges.push(Edge::new(kind, &format!("a{i}"), &format!("a{to}")));
            }
        };
        push(EdgeKind::Handoff, (i + 1) % n);
        push(EdgeKind::Delegation, (i + 2) % n);
        push(EdgeKind::Handoff, (i + n - 10) % n);
    }
    t.facts = (0..20)
        .map(|k| PinnedFact { id: format!("f{k}"), text: format!("Fact {k}."), holders: vec![format!("a{}", k * 50)] })
        .collect();
    t.guards.on_revisit = baton::topology::OnRevisit::Allow;
    t.guards.max_handoffs = Some(50);
    t.normalize();
    t
}

fn time<T>(what: &str, mut f: impl FnMut() -> T) {
    let mut ms = vec![];
    for _ in 0..5 {
        let t0 = Instant::now();
        std::hint::black_box(f());
        ms.push(t0.elapsed().as_secs_f64() * 1000.0);
    }
    ms.sort_by(f64::total_cmp);
    println!("{what}: median {:.1} ms (min {:.1}, max {:.1})", ms[2], ms[0], ms[4]);
}

fn main() {
    let t = generated(1000);
    println!("topology: {} agents, {} edges, {} facts", t.agents.len(), t.edges.len(), t.facts.len());
    time("lint", || baton::lint::lint(&t));
    time("fact_flow", || baton::lint::fact_flow(&t));
    let yaml = baton::config::to_string(&t, baton::config::Format::Yaml).unwrap();
    println!("YAML: {} bytes", yaml.len());
    time("YAML write", || baton::config::to_string(&t, baton::config::Format::Yaml).unwrap());
    time("YAML read", || baton::config::parse(&yaml, baton::config::Format::Yaml, "<bench>").unwrap());
}
