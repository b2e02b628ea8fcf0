//! What a refactor changed, in words a preview can show before the user applies it: agents
//! added, edges removed, added or retargeted, the entry, every mock script that now calls
//! another tool, and the facts' holders. Computed from the topologies before and after, so it
//! cannot drift from what the refactor did.

use crate::topology::{Edge, EdgeKind, Topology};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// What part of the topology a change touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ChangeArea {
    Agent,
    Edge,
    Entry,
    Script,
    Fact,
}

/// One change, as a sentence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Change {
    pub area: ChangeArea,
    pub text: String,
}

fn kind_word(k: EdgeKind) -> &'static str {
    match k {
        EdgeKind::Handoff => "handoff",
        EdgeKind::Delegation => "delegation",
    }
}

fn name(t: &Topology, id: &str) -> String {
    t.agent(id).map(|a| a.name.clone()).unwrap_or_else(|| id.to_owned())
}

/// The tools each agent's script calls, per scenario, in order of first call.
fn script_calls(t: &Topology) -> BTreeMap<(String, String), Vec<String>> {
    let mut out = BTreeMap::new();
    for s in &t.scenarios {
        for (agent, rules) in &s.scripts {
            let mut calls: Vec<String> = vec![];
            for c in rules.iter().flat_map(|r| r.then.calls.iter()) {
                if !calls.contains(&c.tool) {
                    calls.push(c.tool.clone());
                }
            }
            out.insert((s.name.clone(), agent.clone()), calls);
        }
    }
    out
}

/// The changes from `before` to `after`, in reading order.
pub fn changes(before: &Topology, after: &Topology) -> Vec<Change> {
    let mut out = vec![];
    let mut say = |area, text: String| out.push(Change { area, text });
    for a in after.agents.iter().filter(|a| before.agent(&a.id).is_none()) {
        let role = if a.kind == crate::topology::AgentKind::Supervisor { "the supervisor" } else { "the agent" };
        say(ChangeArea::Agent, format!("Adds {role} {} (id {})", a.name, a.id));
    }
    for a in before.agents.iter().filter(|a| after.agent(&a.id).is_none()) {
        say(ChangeArea::Agent, format!("Removes the agent {}", a.name));
    }
    if before.entry != after.entry {
        say(
            ChangeArea::Entry,
            format!("The run starts at {} instead of {}", name(after, &after.entry), name(before, &before.entry)),
        );
    }
    let key = |e: &Edge| (kind_word(e.kind), e.from.clone(), e.to.clone());
    let had: BTreeSet<_> = before.edges.iter().map(key).collect();
    let has: BTreeSet<_> = after.edges.iter().map(key).collect();
    let removed: Vec<&Edge> = before.edges.iter().filter(|e| !has.contains(&key(e))).collect();
    let added: Vec<&Edge> = after.edges.iter().filter(|e| !had.contains(&key(e))).collect();
    let mut paired = BTreeSet::new();
    for r in &removed {
        // The same sender and kind to a new receiver: a retargeted edge.
        let moved = added.iter().position(|a| a.from == r.from && a.kind == r.kind && !paired.contains(&a.id));
        match moved {
            Some(i)
                if !after.edges.iter().any(|e| e.from == r.from && e.to == r.to)
                    && before.agent(&added[i].to).is_none() =>
            {
                paired.insert(added[i].id.clone());
                say(
                    ChangeArea::Edge,
                    format!(
                        "{}'s {} to {} now goes to {}",
                        name(before, &r.from),
                        kind_word(r.kind),
                        name(before, &r.to),
                        name(after, &added[i].to)
                    ),
                );
            }
            _ => say(
                ChangeArea::Edge,
                format!("Removes the {} {} → {}", kind_word(r.kind), name(before, &r.from), name(before, &r.to)),
            ),
        }
    }
    for a in added.iter().filter(|a| !paired.contains(&a.id)) {
        let acceptance = match a.acceptance {
            crate::topology::Acceptance::Verify => " (its result is verified)",
            crate::topology::Acceptance::Trust => "",
        };
        say(
            ChangeArea::Edge,
            format!("Adds the {} {} → {}{acceptance}", kind_word(a.kind), name(after, &a.from), name(after, &a.to)),
        );
    }
    let (was, is) = (script_calls(before), script_calls(after));
    for ((scenario, agent), calls) in &is {
        match was.get(&(scenario.clone(), agent.clone())) {
            None => say(
                ChangeArea::Script,
                format!(
                    "Scenario {scenario}: {} gets a mock script{}",
                    name(after, agent),
                    if calls.is_empty() { String::new() } else { format!(" that calls {}", calls.join(", then ")) }
                ),
            ),
            Some(old) if old != calls => {
                let gone: Vec<&String> = old.iter().filter(|c| !calls.contains(c)).collect();
                let new: Vec<&String> = calls.iter().filter(|c| !old.contains(c)).collect();
                let text = match (gone.as_slice(), new.as_slice()) {
                    ([g], [n]) => {
                        format!("Scenario {scenario}: {}'s script calls {n} instead of {g}", name(after, agent))
                    }
                    (g, []) => format!(
                        "Scenario {scenario}: {}'s script no longer calls {}",
                        name(after, agent),
                        g.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                    ),
                    _ => format!(
                        "Scenario {scenario}: {}'s script calls {} (was {})",
                        name(after, agent),
                        calls.join(", "),
                        old.join(", ")
                    ),
                };
                say(ChangeArea::Script, text);
            }
            Some(_) => {}
        }
    }
    for s in &after.scenarios {
        let Some(old) = before.scenarios.iter().find(|o| o.name == s.name) else { continue };
        for (fact, at) in old.expect.fact_lost_at.iter().filter(|(f, _)| !s.expect.fact_lost_at.contains_key(*f)) {
            say(
                ChangeArea::Script,
                format!("Scenario {}: no longer expects {fact} to be lost at {at} (that edge is gone)", s.name),
            );
        }
        if old.expect.owner != s.expect.owner
            && let Some(o) = &s.expect.owner
        {
            say(
                ChangeArea::Script,
                format!("Scenario {}: expects {} to own the conversation at the end", s.name, name(after, o)),
            );
        }
    }
    for f in &after.facts {
        let old: BTreeSet<&String> =
            before.facts.iter().find(|g| g.id == f.id).map(|g| g.holders.iter().collect()).unwrap_or_default();
        let gained: Vec<String> = f.holders.iter().filter(|h| !old.contains(h)).map(|h| name(after, h)).collect();
        if !gained.is_empty() {
            say(ChangeArea::Fact, format!("The pinned fact {} is also held by {}", f.id, gained.join(", ")));
        }
    }
    out
}
