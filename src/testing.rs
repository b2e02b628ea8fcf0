//! `baton test`: a scenario's `expect:` checked against a run of it (mock by default), each
//! failure with its reason and the step where it went wrong; a JUnit XML report for CI systems.

use crate::context::FactStatus;
use crate::topology::{Expect, Topology};
use crate::trace::{StepKind, Trace};
use serde::{Deserialize, Serialize};

/// One expectation that did not hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Failure {
    /// Which expectation (`status`, `fact_lost_at.resolved-meaning`…).
    pub expectation: String,
    pub reason: String,
    /// The step where it went wrong, when one can be named.
    pub step: Option<u32>,
}

/// One scenario's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct CaseResult {
    pub file: String,
    pub topology: String,
    pub scenario: String,
    /// How many expectations were checked.
    pub checked: u32,
    pub failures: Vec<Failure>,
    /// The run did not happen (the engine refused the topology, a provider failed to start…).
    pub error: Option<String>,
    #[ts(type = "number")]
    pub duration_ms: u64,
}

impl CaseResult {
    pub fn passed(&self) -> bool {
        self.failures.is_empty() && self.error.is_none()
    }
}

fn edge_key(from: &str, to: &str) -> String {
    format!("{from}->{to}")
}

/// Checks `e` against `trace`; returns the number of expectations checked and the failures.
pub fn check(t: &Topology, e: &Expect, trace: &Trace) -> (u32, Vec<Failure>) {
    let mut n = 0;
    let mut out = vec![];
    let last = trace.steps.last().map(|s| s.index);
    let mut fail =
        |what: &str, reason: String, step: Option<u32>| out.push(Failure { expectation: what.into(), reason, step });
    if let Some(want) = &e.status {
        n += 1;
        if trace.outcome.status.as_str() != want {
            fail(
                "status",
                format!("the run ended {} ({}), not {want}", trace.outcome.status.as_str(), trace.outcome.reason),
                last,
            );
        }
    }
    if let Some(want) = &e.reason_contains {
        n += 1;
        if !trace.outcome.reason.contains(want.as_str()) {
            fail(
                "reason_contains",
                format!("the reason \"{}\" does not contain \"{want}\"", trace.outcome.reason),
                last,
            );
        }
    }
    let output = trace.outcome.final_output.clone().unwrap_or_default();
    if let Some(want) = &e.output_contains {
        n += 1;
        if !output.contains(want.as_str()) {
            fail("output_contains", format!("the final output \"{output}\" does not contain \"{want}\""), last);
        }
    }
    if let Some(re) = &e.output_matches {
        n += 1;
        match regex::Regex::new(re) {
            Ok(r) if r.is_match(&output) => {}
            Ok(_) => fail("output_matches", format!("the final output \"{output}\" does not match /{re}/"), last),
            Err(err) => fail("output_matches", format!("/{re}/ is not a regular expression: {err}"), None),
        }
    }
    for fact in &e.facts_kept {
        n += 1;
        if let Some(tr) =
            trace.transfers.iter().find(|tr| tr.facts.iter().any(|f| &f.id == fact && f.status == FactStatus::Lost))
        {
            fail(
                &format!("facts_kept.{fact}"),
                format!("{fact} was lost at {} → {} (step {})", tr.from, tr.to, tr.step),
                Some(tr.step),
            );
        } else if !t.facts.iter().any(|f| &f.id == fact) {
            fail(&format!("facts_kept.{fact}"), format!("{fact} is not a pinned fact of {}", t.name), None);
        }
    }
    for (fact, edge) in &e.fact_lost_at {
        n += 1;
        let lost: Vec<_> = trace
            .transfers
            .iter()
            .filter(|tr| tr.facts.iter().any(|f| &f.id == fact && f.status == FactStatus::Lost))
            .collect();
        if !lost.iter().any(|tr| &edge_key(&tr.from, &tr.to) == edge || &tr.edge == edge) {
            let reason = match lost.first() {
                Some(tr) => format!("{fact} was lost at {}, not at {edge}", edge_key(&tr.from, &tr.to)),
                None => format!("{fact} was never lost (expected at {edge})"),
            };
            fail(&format!("fact_lost_at.{fact}"), reason, lost.first().map(|tr| tr.step));
        }
    }
    if let Some(max) = e.max_transfers {
        n += 1;
        if trace.transfers.len() as u32 > max {
            let over = &trace.transfers[max as usize];
            fail(
                "max_transfers",
                format!(
                    "{} transfers, more than {max}; the one over is {} → {}",
                    trace.transfers.len(),
                    over.from,
                    over.to
                ),
                Some(over.step),
            );
        }
    }
    let acted = |a: &str| trace.steps.iter().find(|s| s.agent == a && s.kind != StepKind::Guard);
    for a in &e.visits {
        n += 1;
        if acted(a).is_none() {
            fail(&format!("visits.{a}"), format!("{a} never acted"), last);
        }
    }
    for a in &e.not_visits {
        n += 1;
        if let Some(s) = acted(a) {
            fail(&format!("not_visits.{a}"), format!("{a} acted at step {} ({})", s.index, s.detail), Some(s.index));
        }
    }
    if let Some(want) = &e.owner {
        n += 1;
        if &trace.outcome.owner != want {
            fail("owner", format!("the run ended owned by {}, not {want}", trace.outcome.owner), last);
        }
    }
    if let Some(max) = e.max_tokens {
        n += 1;
        let used = trace.usage.input_tokens + trace.usage.output_tokens;
        if used > max {
            // The step whose call went over the budget.
            let mut sum = 0;
            let over = trace.steps.iter().find(|s| {
                sum += s.usage.map(|u| u.input_tokens + u.output_tokens).unwrap_or(0);
                sum > max
            });
            fail("max_tokens", format!("{used} tokens, more than {max}"), over.map(|s| s.index));
        }
    }
    (n, out)
}

/// Runs `scenario` of `t`: on the mock scripts, or on each agent's configured provider when
/// `live`. Returns the trace and how many requests the providers retried.
pub async fn run_scenario(
    t: &Topology,
    scenario: &crate::topology::Scenario,
    live: bool,
) -> (Result<Trace, crate::error::ApiError>, u64) {
    use crate::engine::{RunOptions, run, run_mock};
    use crate::error::ApiError;
    let opts = RunOptions { scenario: Some(scenario.name.clone()), ..Default::default() };
    if !live {
        return (run_mock(t, opts).await.map_err(ApiError::from), 0);
    }
    match crate::providers::LiveModels::new(t, Some(scenario), Default::default()) {
        Ok(models) => {
            let opts = RunOptions { providers: models.labels.clone(), ..opts };
            let r = run(t, &models, opts).await.map_err(ApiError::from);
            (r, models.retries())
        }
        Err(e) => (Err(ApiError::from(e)), 0),
    }
}

/// Runs `scenario` of `t` (mock, or each agent's provider when `live`) and checks its
/// expectations: the one case runner the CLI and the hosts share.
pub async fn run_case(t: &Topology, scenario: &crate::topology::Scenario, live: bool, file: &str) -> CaseResult {
    let t0 = std::time::Instant::now();
    let result = run_scenario(t, scenario, live).await.0.map_err(|e| e.message);
    let (checked, failures, error) = match result {
        Ok(trace) => {
            let (n, f) = check(t, &scenario.expect, &trace);
            (n, f, None)
        }
        Err(e) => (0, vec![], Some(e)),
    };
    CaseResult {
        file: file.to_owned(),
        topology: t.name.clone(),
        scenario: scenario.name.clone(),
        checked,
        failures,
        error,
        duration_ms: t0.elapsed().as_millis() as u64,
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The JUnit XML report of `cases` (one testsuite per topology file).
pub fn junit(cases: &[CaseResult]) -> String {
    let mut files: Vec<&str> = vec![];
    for c in cases {
        if !files.contains(&c.file.as_str()) {
            files.push(&c.file);
        }
    }
    let total_fail = cases.iter().filter(|c| !c.failures.is_empty()).count();
    let total_err = cases.iter().filter(|c| c.error.is_some()).count();
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"baton test\" tests=\"{}\" failures=\"{total_fail}\" errors=\"{total_err}\">\n",
        cases.len()
    );
    for f in files {
        let mine: Vec<&CaseResult> = cases.iter().filter(|c| c.file == f).collect();
        let time: u64 = mine.iter().map(|c| c.duration_ms).sum();
        out.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{:.3}\">\n",
            esc(f),
            mine.len(),
            mine.iter().filter(|c| !c.failures.is_empty()).count(),
            mine.iter().filter(|c| c.error.is_some()).count(),
            time as f64 / 1000.0
        ));
        for c in mine {
            out.push_str(&format!(
                "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"",
                esc(&c.topology),
                esc(&c.scenario),
                c.duration_ms as f64 / 1000.0
            ));
            if c.passed() {
                out.push_str("/>\n");
                continue;
            }
            out.push_str(">\n");
            if let Some(e) = &c.error {
                out.push_str(&format!("      <error message=\"{}\"/>\n", esc(e)));
            }
            for fl in &c.failures {
                let at = fl.step.map(|s| format!(" (step {s})")).unwrap_or_default();
                out.push_str(&format!(
                    "      <failure type=\"{}\" message=\"{}{}\">{}: {}{}</failure>\n",
                    esc(&fl.expectation),
                    esc(&fl.reason),
                    esc(&at),
                    esc(&fl.expectation),
                    esc(&fl.reason),
                    esc(&at)
                ));
            }
            out.push_str("    </testcase>\n");
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}
