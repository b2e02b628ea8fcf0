//! `guardrail-unknown` (error, or info): a guardrail names an agent that does not exist, or a
//! pattern or schema that cannot be read, so it would trip on every run (error); or it sits on
//! an agent the SDK never runs it for: an input guardrail on an agent that is not the entry, or
//! anywhere inside a delegation (info: the SDK runs input guardrails for the starting agent only).

use super::prelude::*;
use crate::topology::{GuardrailCheck, GuardrailOn};

pub const SEVERITY: Severity = Severity::Error;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    for g in &cx.t.guardrails {
        if let Some(a) = &g.agent {
            if cx.agent(a).is_none() {
                out.push(finding(
                    LintCode::GuardrailUnknown,
                    format!("guardrail '{}' belongs to agent '{a}', which does not exist; name an agent's id, or none for a run-wide guardrail", g.name),
                    vec![a.clone()],
                    vec![],
                ));
                continue;
            }
            if g.on == GuardrailOn::Input && a != &cx.t.entry {
                let mut f = finding(
                    LintCode::GuardrailUnknown,
                    format!(
                        "input guardrail '{}' of {} never runs: the SDK runs input guardrails for the agent a run starts with ({}) only; move it there, or make it run-wide",
                        g.name,
                        cx.name(a),
                        cx.name(&cx.t.entry)
                    ),
                    vec![a.clone()],
                    vec![],
                );
                f.severity = Severity::Info;
                out.push(f);
            }
        }
        let bad = match &g.check {
            GuardrailCheck::Regex { regex: r } => regex::Regex::new(r).err().map(|e| format!("/{r}/ is not a regular expression: {e}")),
            GuardrailCheck::Schema { schema: s } => jsonschema::validator_for(s).err().map(|e| format!("its schema is not valid JSON Schema: {e}")),
            GuardrailCheck::Contains { contains: s } if s.is_empty() => Some("it checks for an empty text, which every text contains".into()),
            GuardrailCheck::Contains { .. } => None,
            GuardrailCheck::Agent { agent } if cx.agent(agent).is_none() => {
                Some(format!("its guardrail agent '{agent}' does not exist"))
            }
            GuardrailCheck::Agent { .. } => None,
            GuardrailCheck::Custom { custom } => {
                let mut f = finding(
                    LintCode::GuardrailUnknown,
                    format!(
                        "guardrail '{}' is your function {custom}, which Baton cannot run: its runs treat it as passing; give it a contains, regex or schema check to test it here",
                        g.name
                    ),
                    g.agent.iter().cloned().collect(),
                    vec![],
                );
                f.severity = Severity::Info;
                out.push(f);
                None
            }
        };
        if let Some(why) = bad {
            out.push(finding(
                LintCode::GuardrailUnknown,
                format!("guardrail '{}' would trip on every run: {why}", g.name),
                g.agent.iter().cloned().collect(),
                vec![],
            ));
        }
    }
}
