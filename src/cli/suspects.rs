//! `baton suspects RUN|FILE [--transfer N]`: at each transfer, what did not reach the receiver,
//! ranked by evidence that it mattered, and the run's verdict.

use super::Outcome;
use super::args::{DbArg, OutFormat, runtime};
use baton::error::{ApiError, ErrorCode};
use baton::suspects::{SuspectReport, TransferSuspects, suspects};

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
    #[arg(long, value_enum, default_value_t)]
    format: OutFormat,
    #[command(flatten)]
    db: DbArg,
}

pub fn run(a: Args) -> Outcome {
    let api = a.db.api();
    let traces = runtime()?.block_on(api.traces_of(&a.run))?;
    let mut reports = vec![];
    for t in &traces {
        let mut r = suspects(t);
        if let Some(n) = a.transfer {
            if n as usize >= t.transfers.len() {
                return Err(ApiError::new(
                    ErrorCode::ApiArgs,
                    format!("--transfer {n}: the run has {} transfers (numbered from 0)", t.transfers.len()),
                ));
            }
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
        for e in &s.evidence {
            out.push_str(&format!("       - {}\n", e.text));
        }
    }
    out
}

/// The verdict line(s), as `baton run` and `baton trace show` print them.
pub fn render_verdict(r: &SuspectReport) -> String {
    if r.verdict.bad.is_none() {
        return String::new();
    }
    let mut out = format!("verdict: {}\n", r.verdict.text);
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
    out
}
