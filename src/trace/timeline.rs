//! The readable timeline of a run that `baton run` and `baton trace show` print: the owner at
//! each step, each transfer with its diff counts and every lost fact, then the outcome.

use super::{StepKind, Trace};
use crate::context::{FactStatus, ItemKind};
use std::fmt::Write;

fn name<'a>(t: &'a Trace, id: &'a str) -> &'a str {
    t.definition.as_ref().and_then(|d| d.agent(id)).map(|a| a.name.as_str()).unwrap_or(id)
}

fn clip(s: &str, n: usize) -> String {
    let one_line = s.replace('\n', " ");
    if one_line.chars().count() <= n {
        one_line
    } else {
        format!("{}…", one_line.chars().take(n).collect::<String>())
    }
}

/// Renders the timeline (no colours; lost facts are marked `LOST`).
pub fn render_timeline(t: &Trace) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} · scenario {} · {} steps, {} transfers",
        t.topology,
        t.scenario,
        t.steps.len(),
        t.transfers.len()
    );
    for s in &t.steps {
        let indent = "  ".repeat(s.depth as usize);
        let who = name(t, &s.agent);
        let what = match s.kind {
            StepKind::ModelCall => {
                let parts: Vec<String> = s
                    .output
                    .iter()
                    .filter_map(|id| t.item(*id))
                    .map(|i| match i.kind {
                        ItemKind::Reasoning => format!("(thinks) {}", clip(&i.text, 50)),
                        ItemKind::ToolCall | ItemKind::TransferCall => {
                            format!("calls {}", i.name.as_deref().unwrap_or("?"))
                        }
                        _ => format!("\"{}\"", clip(&i.text, 60)),
                    })
                    .collect();
                parts.join("; ")
            }
            StepKind::Handoff | StepKind::Delegation => {
                let Some(tr) = s.transfer.and_then(|i| t.transfers.get(i as usize)) else {
                    continue;
                };
                let mut line = format!(
                    "{} → {} [{}]  carried {} · transformed {} · dropped {} · added {}",
                    name(t, &tr.from),
                    name(t, &tr.to),
                    tr.policy,
                    tr.carried.len(),
                    tr.transformed.len(),
                    tr.dropped.len(),
                    tr.added.len()
                );
                for f in &tr.facts {
                    if f.status == FactStatus::Lost {
                        let text = t
                            .definition
                            .as_ref()
                            .and_then(|d| d.fact(&f.id))
                            .map(|f| format!(" \"{}\"", clip(&f.text, 70)))
                            .unwrap_or_default();
                        let _ = write!(line, "\n{indent}        !! fact LOST: {}{text}", f.id);
                    } else if f.status != FactStatus::Absent {
                        let _ = write!(line, "\n{indent}        fact {}: {}", f.id, f.status.as_str());
                    }
                }
                line
            }
            _ => s.detail.clone(),
        };
        let _ = writeln!(out, "{indent}#{:<3} {:<18} {:<17} {what}", s.index, clip(who, 18), s.kind.as_str());
    }
    let o = &t.outcome;
    let _ = write!(out, "outcome: {} — {} (owner: {})", o.status.as_str(), o.reason, name(t, &o.owner));
    if let Some(f) = &o.final_output {
        let _ = write!(out, "\nfinal output: {}", clip(f, 200));
    }
    let _ = writeln!(out, "\ntokens: {} in, {} out", t.usage.input_tokens, t.usage.output_tokens);
    out
}
