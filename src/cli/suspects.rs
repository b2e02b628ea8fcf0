//! `baton suspects RUN|FILE [--transfer N] [--prove …]`: at each transfer, what did not reach the
//! receiver, ranked by evidence that it mattered, each with its proof by counterfactual replay
//! when asked, and the run's verdict (proven or suspected).

use super::Outcome;
use super::args::{DbArg, OutFormat, runtime};
use baton::error::{ApiError, ErrorCode};
use baton::store::TraceParts;
use baton::suspects::{ProofStatus, SuspectReport, TransferSuspects};

#[derive(clap::Args)]
pub struct Args {
    /// A run id from `baton runs list`, or a trace file (each of its runs).
    run: String,
    /// Only this transfer (numbered from 0).
    #[arg(long)]
    transfer: Option<u32>,
    /// Suspects shown per transfer (text), and shown to the judge.
    #[arg(long, default_value_t = 3)]
    top: usize,
    /// PROVIDER:MODEL[@URL]: a model that re-ranks each transfer's suspects; its view is shown
    /// beside the deterministic ranking and never replaces it.
    #[arg(long)]
    judge: Option<String>,
    /// Prove each suspect: fork at the transfer with what was lost put back and see whether the
    /// ending changes (the mock answers after the restored point unless --live or --model).
    #[arg(long)]
    prove: bool,
    /// With --prove: the run's own providers answer after the restored point.
    #[arg(long, requires = "prove")]
    live: bool,
    /// With --prove: AGENT=PROVIDER:MODEL[@URL] answers for that agent ('*' for every agent).
    #[arg(long = "model", value_name = "AGENT=PROVIDER:MODEL", requires = "prove")]
    models: Vec<String>,
    /// With --prove and a sampled model: forks per test.
    #[arg(long, default_value_t = 3, requires = "prove")]
    samples: u32,
    /// With --prove: at most this many model calls in all.
    #[arg(long = "budget-calls", requires = "prove")]
    budget_calls: Option<u32>,
    /// With --prove: save the forks that changed the ending, linked to the run.
    #[arg(long, requires = "prove")]
    save: bool,
    #[arg(long, value_enum, default_value_t)]
    format: OutFormat,
    #[command(flatten)]
    db: DbArg,
}

pub fn run(a: Args) -> Outcome {
    let api = a.db.api();
    // A proof replays forks from the steps' contexts; the ranking and a judge need only a few.
    let parts = if a.prove { TraceParts::WHOLE } else { TraceParts::REPORT };
    let traces = runtime()?.block_on(api.traces_with(&a.run, parts))?;
    let mut reports = vec![];
    for t in &traces {
        if let Some(n) = a.transfer
            && n as usize >= t.transfers.len()
        {
            // A missing index is not found (exit 3), as `whatif --transfer` says it.
            return Err(ApiError::new(
                ErrorCode::StoreNoStep,
                format!("--transfer {n}: the run has {} transfers (numbered from 0)", t.transfers.len()),
            ));
        }
        // A judge, when given, also judges the ending (after the scenario's expect: and a mark).
        let says = match &a.judge {
            Some(spec) => runtime()?.block_on(baton::judge::judge_ending(&baton::fork::model_ref(spec)?, t))?,
            None => None,
        };
        let mut r = if a.prove {
            let opts = baton::suspects::ProveOptions {
                transfer: a.transfer,
                models: super::fork::pairs("model", &a.models)?,
                live: a.live,
                samples: a.samples,
                budget_calls: a.budget_calls,
                ..Default::default()
            };
            runtime()?.block_on(baton::api::prove_trace(&api, t, &opts, a.save, says.as_ref()))?
        } else {
            baton::suspects::report(t, says.as_ref())
        };
        if let Some(n) = a.transfer {
            r.transfers.retain(|x| x.transfer == n);
        }
        reports.push(r);
    }
    let judged = match &a.judge {
        None => None,
        Some(spec) => {
            let model = baton::fork::model_ref(spec)?;
            let rt = runtime()?;
            let mut views = vec![];
            for r in &reports {
                let mut mine = vec![];
                for t in r.transfers.iter().filter(|t| !t.suspects.is_empty()) {
                    mine.push(rt.block_on(baton::judge::judge(&model, t, a.top))?);
                }
                views.push(mine);
            }
            Some(views)
        }
    };
    match (a.format, &judged) {
        (OutFormat::Json, None) => println!("{}", serde_json::to_string_pretty(&reports).expect("serializes")),
        (OutFormat::Json, Some(views)) => {
            let both: Vec<_> =
                reports.iter().zip(views).map(|(r, v)| serde_json::json!({ "report": r, "judge": v })).collect();
            println!("{}", serde_json::to_string_pretty(&both).expect("serializes"));
        }
        (OutFormat::Text, _) => {
            for (i, r) in reports.iter().enumerate() {
                let views = judged.as_ref().map(|v| v[i].as_slice()).unwrap_or(&[]);
                print!("{}", render(r, a.top, views, a.judge.as_deref().unwrap_or_default()));
            }
        }
    }
    Ok(0)
}

pub fn render_transfer(t: &TransferSuspects, top: usize) -> String {
    let mut out = format!("transfer {} · {} → {} ({:?}, step {})\n", t.transfer, t.from, t.to, t.kind, t.step)
        .replace("(Handoff", "(handoff")
        .replace("(Delegation", "(delegation");
    if t.suspects.is_empty() {
        out.push_str("  no suspect: nothing that did not cross carries evidence that it mattered\n");
    }
    for (i, s) in t.suspects.iter().take(top).enumerate() {
        out.push_str(&format!(
            "  {}. [{} · {:.1}] {} of {} ({:?}): {}\n",
            i + 1,
            s.confidence.as_str(),
            s.score,
            s.kind.as_str(),
            s.agent,
            s.loss,
            s.text
        ));
        if let Some(c) = s.class {
            out.push_str(&format!("       class: {}\n", c.as_str()));
        }
        for e in &s.evidence {
            out.push_str(&format!("       - {}\n", e.text));
        }
        if let Some(p) = &s.proof {
            out.push_str(&format!("       proof: restoring it {}", p.status.words()));
            if !p.changed.is_empty() {
                out.push_str(&format!(": {}", p.changed));
            }
            if !p.with.is_empty() {
                out.push_str(&format!(" (together with {} more item(s))", p.with.len()));
            }
            if let Some(f) = &p.fork_run {
                out.push_str(&format!(" — fork saved as run {f}"));
            }
            out.push('\n');
        }
    }
    if let Some(p) = &t.proof {
        match &p.status {
            ProofStatus::NotTested { why } => out.push_str(&format!("  proof: not tested ({why})\n")),
            st => out.push_str(&format!(
                "  proof: restoring everything lost here {}; {}\n",
                p.all.words(),
                if st.changes() {
                    format!("the smallest set that does: {} item(s)", p.minimal.len())
                } else {
                    "no restoration changes the ending".into()
                }
            )),
        }
    }
    out
}

/// The verdict line(s), as `baton run` and `baton trace show` print them.
fn judged_by(b: baton::suspects::JudgedBy) -> &'static str {
    use baton::suspects::JudgedBy as J;
    match b {
        J::Expect => "the scenario's expect:",
        J::Mark => "a person's mark",
        J::Judge => "the judge",
        J::Signal => "the run's structure",
        J::Nobody => "nothing",
    }
}

pub fn render_verdict(r: &SuspectReport) -> String {
    if r.verdict.bad.is_none() {
        return String::new();
    }
    let mut out = format!("verdict: {}\n", r.verdict.text);
    out.push_str(&format!("  - ending judged by {}: {}\n", judged_by(r.verdict.ending.by), r.verdict.ending.reason));
    for c in r.verdict.chain.iter().skip(1) {
        out.push_str(&format!("  - {c}\n"));
    }
    out
}

fn render(r: &SuspectReport, top: usize, judged: &[baton::judge::JudgeView], judge: &str) -> String {
    let mut out = String::new();
    for t in &r.transfers {
        out.push_str(&render_transfer(t, top));
        if let Some(v) = judged.iter().find(|v| v.transfer == t.transfer) {
            match &v.problem {
                None => out.push_str(&format!(
                    "  judge ({judge}) ranks: {}\n",
                    v.order.iter().map(|k| (k + 1).to_string()).collect::<Vec<_>>().join(", ")
                )),
                Some(p) => out
                    .push_str(&format!("  judge ({judge}): answer not used ({p}): {}\n", v.answer.replace('\n', " "))),
            }
        }
    }
    out.push_str(&render_verdict(r));
    if let Some(c) = &r.cost {
        out.push_str(&format!(
            "proof cost: {} fork(s), {} model call(s), {} token(s), {:.1} s; answered by {}; endings compared {}\n",
            c.forks,
            c.model_calls,
            c.tokens,
            c.ms as f64 / 1000.0,
            c.answered_by,
            c.compared
        ));
    }
    out
}
