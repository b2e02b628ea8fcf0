//! `baton whatif RUN --transfer N`: every context policy at one handoff of a saved run (or a
//! trace file), from the recording alone: what the receiver would get and each fact's fate.

use super::Outcome;
use super::args::{DbArg, OutFormat, runtime};
use baton::whatif::{WhatIf, what_if};

#[derive(clap::Args)]
pub struct Args {
    /// A run id from `baton runs list`, or a trace file (its first run).
    run: String,
    /// The transfer, numbered from 0 as `baton trace show` lists them.
    #[arg(long)]
    transfer: u32,
    #[arg(long, value_enum, default_value_t)]
    format: OutFormat,
    #[command(flatten)]
    db: DbArg,
}

pub fn run(a: Args) -> Outcome {
    let api = a.db.api();
    let trace = &runtime()?.block_on(api.trace_of(&a.run))?;
    let w = what_if(trace, a.transfer, &baton::api::run_facts(trace))?;
    match a.format {
        OutFormat::Json => println!("{}", serde_json::to_string_pretty(&w).expect("serializes")),
        OutFormat::Text => print!("{}", render(&w, trace)),
    }
    Ok(0)
}

fn render(w: &WhatIf, trace: &baton::trace::Trace) -> String {
    let name = |id: &str| {
        trace.definition.as_ref().and_then(|t| t.agent(id)).map(|a| a.name.clone()).unwrap_or_else(|| id.to_owned())
    };
    let mut out = format!(
        "what-if at transfer {}: {} → {} (handoff)\nsender: {} items, ~{} tokens\n\n",
        w.transfer,
        name(&w.from),
        name(&w.to),
        w.sender.len(),
        w.sender_tokens
    );
    let facts: Vec<String> = w.rows.first().map(|r| r.facts.iter().map(|f| f.id.clone()).collect()).unwrap_or_default();
    let width = w.rows.iter().map(|r| r.policy.len()).max().unwrap_or(6).max(6) + 2;
    out.push_str(&format!("  {:width$}{:>6}{:>8}{:>9}{:>9}", "policy", "items", "tokens", "carried", "dropped"));
    for f in &facts {
        out.push_str(&format!("  {f}"));
    }
    out.push('\n');
    for r in &w.rows {
        let mark = if r.recorded { "*" } else { " " };
        out.push_str(&format!(
            "{mark} {:width$}{:>6}{:>8}{:>9}{:>9}",
            r.policy, r.items, r.tokens, r.carried, r.dropped
        ));
        for (f, id) in r.facts.iter().zip(&facts) {
            out.push_str(&format!("  {:<w$}", f.status.as_str(), w = id.len()));
        }
        out.push('\n');
    }
    out.push_str("\n* the policy the run used\n");
    for n in &w.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    out
}
