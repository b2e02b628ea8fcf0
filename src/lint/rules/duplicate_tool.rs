//! `duplicate-tool` (error): an agent sees one tool name twice (a tool and a transfer, or two
//! transfers), so its model cannot tell them apart. Fix: rename a tool or set the edge's `tool`.

use super::prelude::*;
use std::collections::BTreeMap;

pub const SEVERITY: Severity = Severity::Error;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    let t = cx.t;
    for a in &t.agents {
        let mut seen: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for tool in &a.tools {
            seen.entry(tool.name.clone()).or_default().push(format!("tool {}", tool.name));
        }
        let mut edge_ids: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for e in cx.edges_from(&a.id) {
            let tn = cx.tool_name(e);
            seen.entry(tn.clone()).or_default().push(format!("{} to {}", e.kind.as_str(), e.to));
            edge_ids.entry(tn).or_default().push(e.id.clone());
        }
        for (tool, users) in seen.iter().filter(|(_, u)| u.len() > 1) {
            out.push(finding(
                LintCode::DuplicateTool,
                format!(
                    "{} sees the tool name '{tool}' {} times ({}); the model cannot tell them apart — \
                     rename a tool or set the edge's `tool`",
                    a.name,
                    users.len(),
                    users.join(", ")
                ),
                vec![a.id.clone()],
                edge_ids.get(tool).cloned().unwrap_or_default(),
            ));
        }
    }
}
