//! The one printer: how every command shows traces, runs, findings and progress.

use super::args::OutFormat;
use baton::lint::Finding;
use baton::store::RunSummary;
use baton::trace::{Trace, render_timeline};
use std::io::IsTerminal;

pub fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).expect("Baton's types serialize")
}

/// A trace as a timeline, or as native JSON.
pub fn trace(t: &Trace, format: OutFormat) {
    match format {
        OutFormat::Text => {
            print!("{}", render_timeline(t));
            print!("{}", super::suspects::render_verdict(&baton::suspects::suspects(t)));
        }
        OutFormat::Json => println!("{}", json(t)),
    }
}

/// Notes an importer left about what the source does not record.
pub fn notes(t: &Trace) {
    let notes = t.source.as_ref().and_then(|s| s.get("notes")).and_then(|n| n.as_array());
    for n in notes.into_iter().flatten().filter_map(|n| n.as_str()) {
        println!("note: {n}");
    }
}

/// How the run's ending is judged, apart from how it ended: a person's mark first, then what
/// was judged when it was saved; `-` when nothing judges it.
fn judged(r: &RunSummary) -> &'static str {
    match (&r.mark, r.ending.as_ref().and_then(|e| e.judgement)) {
        (Some(m), _) => m.judgement.as_str(),
        (None, Some(j)) => j.as_str(),
        (None, None) => "-",
    }
}

pub fn runs(runs: &[RunSummary], store: &str, format: OutFormat) {
    match format {
        OutFormat::Json => println!("{}", serde_json::to_string(runs).expect("serializes")),
        OutFormat::Text => {
            if runs.is_empty() {
                println!("no runs in {store}");
            }
            for r in runs {
                println!(
                    "{}  {:<20} {:<16} {:<11} {:<8} {:>5} steps {:>3} transfers {:>2} lost  {}",
                    r.id,
                    r.topology,
                    r.scenario,
                    r.outcome.status.as_str(),
                    judged(r),
                    r.steps,
                    r.transfers,
                    r.lost_facts,
                    r.started_at
                );
            }
        }
    }
}

pub fn findings(file: &str, findings: &[Finding], format: OutFormat) {
    match format {
        OutFormat::Json => println!("{}", serde_json::json!({ "findings": findings })),
        OutFormat::Text => {
            if findings.is_empty() {
                println!("{file}: no findings");
            }
            for f in findings {
                let mut at = vec![];
                if !f.agents.is_empty() {
                    at.push(format!("agents: {}", f.agents.join(", ")));
                }
                if !f.edges.is_empty() {
                    at.push(format!("edges: {}", f.edges.join(", ")));
                }
                println!("{file}: {}[{}]: {}", f.severity.as_str(), f.code, f.message);
                if let Some(src) = &f.source {
                    at.push(format!("defined at {src}"));
                }
                if !at.is_empty() {
                    println!("    {}", at.join("; "));
                }
            }
        }
    }
}

/// A spinner on a terminal's stderr (nothing when piped).
pub fn spinner() -> Option<indicatif::ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_style(indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("valid template"));
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        bar
    })
}

/// A byte progress bar on a terminal's stderr.
pub fn bytes_bar(total: u64, what: &str) -> Option<indicatif::ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(total);
        let template = format!("{{spinner}} {what} {{bytes}}/{{total_bytes}} {{wide_bar}} {{eta}}");
        b.set_style(indicatif::ProgressStyle::with_template(&template).expect("valid template"));
        b
    })
}
