//! `script-unknown-tool` (error): a scenario's mock script makes an agent call a tool it does
//! not have (neither one of its tools nor the transfer tool of one of its edges), so the run
//! fails at that call. Also a script for an agent that does not exist. Fix: call one of the
//! agent's tools, or re-run the refactor that renamed the transfer.

use super::prelude::*;
use std::collections::HashSet;

pub const SEVERITY: Severity = Severity::Error;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    let t = cx.t;
    for s in &t.scenarios {
        for (agent, rules) in &s.scripts {
            if cx.agent(agent).is_none() {
                out.push(finding(
                    LintCode::ScriptUnknownTool,
                    format!(
                        "scenario '{}' scripts agent '{agent}', which does not exist; rename the script to an agent's id or delete it",
                        s.name
                    ),
                    vec![agent.clone()],
                    vec![],
                ));
                continue;
            }
            let mut has: HashSet<String> = cx.agent(agent).into_iter().flat_map(|a| a.tools.iter()).map(|x| x.name.clone()).collect();
            has.extend(cx.edges_from(agent).map(|e| cx.tool_name(e)));
            let mut reported = HashSet::new();
            for call in rules.iter().flat_map(|r| r.then.calls.iter()) {
                if has.contains(&call.tool) || !reported.insert(call.tool.clone()) {
                    continue;
                }
                let mut known: Vec<&String> = has.iter().collect();
                known.sort();
                out.push(finding(
                    LintCode::ScriptUnknownTool,
                    format!(
                        "in scenario '{}', {}'s mock script calls '{}', a tool {} does not have (it has: {}); the run would fail there — call one of its tools",
                        s.name,
                        cx.name(agent),
                        call.tool,
                        cx.name(agent),
                        if known.is_empty() { "none".to_string() } else { known.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ") }
                    ),
                    vec![agent.clone()],
                    vec![],
                ));
            }
        }
    }
}
