//! `verify-without-criteria` (warning): a delegation whose result must be verified names no
//! criteria, so the check has nothing to hold the claim to but the caller's pinned facts. Fix:
//! add `criteria:` (what "done" must mean, e.g. "the fix is live in production").

use super::prelude::*;

pub const SEVERITY: Severity = Severity::Warning;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    for e in cx.t.edges.iter().filter(|e| e.kind == EdgeKind::Delegation && e.acceptance == Acceptance::Verify) {
        if e.criteria.is_empty() {
            out.push(finding(
                LintCode::VerifyWithoutCriteria,
                format!(
                    "{}'s result is verified, but the delegation names no criteria: add `criteria:` to say what {}'s \"done\" must meet",
                    cx.name(&e.to),
                    cx.name(&e.to)
                ),
                vec![e.from.clone(), e.to.clone()],
                vec![e.id.clone()],
            ));
        }
    }
}
