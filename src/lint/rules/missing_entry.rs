//! `missing-entry` (error): the topology's `entry` names no agent, so no run can start.
//! Fix: set `entry` to one of the agents' ids.

use super::prelude::*;

pub const SEVERITY: Severity = Severity::Error;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    let t = cx.t;
    if cx.agent(&t.entry).is_none() {
        out.push(finding(
            LintCode::MissingEntry,
            format!("the entry agent '{}' does not exist; set `entry` to one of the agents' ids", t.entry),
            vec![t.entry.clone()],
            vec![],
        ));
    }
}
