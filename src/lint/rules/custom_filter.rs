//! `custom-filter` (warning): a handoff read from code filters what crosses with a function of
//! the user's own (`input_filter=my_filter`), which Baton cannot run: its runs carry the whole
//! history there, so the diff at that edge is not what the real system sends. Fix: pick the
//! Baton policy the function implements (remove_tools, last_n, nest_summary, none, fields).

use super::prelude::*;

pub const SEVERITY: Severity = Severity::Warning;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    for e in &cx.t.edges {
        let ContextPolicy::Custom(name) = &e.policy else { continue };
        out.push(finding(
            LintCode::CustomFilter,
            format!(
                "the {} {} → {} filters its context with `{name}` from your code, which Baton cannot run: its runs \
                 carry the whole history there, so this edge's diff is unverified; pick the policy `{name}` implements",
                e.kind.as_str(),
                cx.name(&e.from),
                cx.name(&e.to)
            ),
            vec![e.from.clone(), e.to.clone()],
            vec![e.id.clone()],
        ));
    }
}
