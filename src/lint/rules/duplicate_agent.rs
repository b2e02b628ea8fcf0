//! `duplicate-agent` (error): two agents share an id, so edges and scripts cannot tell them
//! apart. Fix: give each agent its own id.

use super::prelude::*;
use std::collections::BTreeMap;

pub const SEVERITY: Severity = Severity::Error;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for a in &cx.t.agents {
        *counts.entry(a.id.as_str()).or_default() += 1;
    }
    for (id, n) in counts.iter().filter(|(_, n)| **n > 1) {
        out.push(finding(
            LintCode::DuplicateAgent,
            format!("{n} agents share the id '{id}'; give each agent its own id"),
            vec![(*id).into()],
            vec![],
        ));
    }
}
