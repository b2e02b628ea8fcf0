//! `verify-handoff` (warning): a handoff whose receiver's "done" must be verified, but the
//! sender steps out, so nobody is left to verify it. Fix: the supervisor refactor, so a
//! supervisor delegates and checks the claim against context it never let go of.

use super::prelude::*;

pub const SEVERITY: Severity = Severity::Warning;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    for e in cx.t.edges.iter().filter(|e| e.kind == EdgeKind::Handoff && e.acceptance == Acceptance::Verify) {
        out.push(finding(
            LintCode::VerifyHandoff,
            format!(
                "{}'s \"done\" must be verified, but {} hands off and steps out: nobody is left to \
                 verify it. Apply the supervisor refactor (`baton refactor supervisor`), so a \
                 supervisor delegates and checks the claim against context it never let go of",
                cx.name(&e.to),
                cx.name(&e.from)
            ),
            vec![e.from.clone(), e.to.clone()],
            vec![e.id.clone()],
        ));
    }
}
