//! `missing-model` (warning): an agent has no model, so runs answer it with the mock provider.
//! Fix: set `model: {provider, name}`.

use super::prelude::*;

pub const SEVERITY: Severity = Severity::Warning;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    for a in cx.t.agents.iter().filter(|a| a.kind != AgentKind::Human && a.model.is_none()) {
        out.push(finding(
            LintCode::MissingModel,
            format!("{} has no model; runs use the mock provider for it. Set `model: {{provider, name}}`", a.name),
            vec![a.id.clone()],
            vec![],
        ));
    }
}
