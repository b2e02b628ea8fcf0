//! `baton matrix FILE --vary AGENT=P:M,P:M …`: the same topology across models; each cell's
//! outcomes, expectations, facts lost, tokens, cost (from `--prices`), latency and retries.

use super::Outcome;
use super::args::runtime;
use baton::error::{ApiError, ErrorCode};
use baton::matrix::{MatrixSpec, Price, html, run_matrix};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Clone, Copy, clap::ValueEnum, Default, PartialEq, Eq)]
pub enum MatrixFormat {
    #[default]
    Text,
    Json,
    /// A self-contained page with the table and a latency chart.
    Html,
}

#[derive(clap::Args)]
pub struct Args {
    file: PathBuf,
    /// AGENT=PROVIDER:MODEL[@URL],PROVIDER:MODEL…: the models an agent tries (repeatable).
    #[arg(long = "vary", value_name = "AGENT=MODELS", required = true)]
    vary: Vec<String>,
    /// Only these scenarios (all by default).
    #[arg(long = "scenario")]
    scenarios: Vec<String>,
    /// Runs per cell.
    #[arg(long, default_value_t = 1)]
    repeat: u32,
    /// Agents that are not varied answer from the scenario's mock scripts.
    #[arg(long)]
    mock_rest: bool,
    /// Runs at once.
    #[arg(long, default_value_t = 4)]
    concurrency: usize,
    /// At most this many runs start per second per provider.
    #[arg(long)]
    rate: Option<f64>,
    /// A YAML or JSON price table: `PROVIDER:MODEL: {input_per_mtok, output_per_mtok}`.
    #[arg(long)]
    prices: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t)]
    format: MatrixFormat,
    /// Write the report here (default: standard output).
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> Outcome {
    if a.repeat == 0 {
        return Err(ApiError::new(ErrorCode::ApiArgs, "--repeat 0: each cell needs at least one run; use 1 or more"));
    }
    if let Some(r) = a.rate.filter(|r| !(r.is_finite() && *r > 0.0)) {
        return Err(ApiError::new(
            ErrorCode::ApiArgs,
            format!("--rate {r}: write how many runs may start per second per provider, a number above 0"),
        ));
    }
    let mut t = baton::config::load(&a.file)?;
    let mut vary = vec![];
    for v in &a.vary {
        let (agent, models) = v.split_once('=').ok_or_else(|| {
            ApiError::new(ErrorCode::ApiArgs, format!("--vary {v}: write AGENT=PROVIDER:MODEL,PROVIDER:MODEL"))
        })?;
        vary.push((
            agent.trim().to_owned(),
            models.split(',').map(|m| m.trim().to_owned()).filter(|m| !m.is_empty()).collect(),
        ));
    }
    if a.mock_rest {
        baton::matrix::mock_the_rest(&mut t, &vary);
    }
    let prices = match &a.prices {
        None => Default::default(),
        Some(p) => {
            // A price table is small: a device, a FIFO or a file past 1 MB is refused unread.
            let text = baton::config::read_regular(p, 1 << 20).map_err(|e| {
                ApiError::new(ErrorCode::ConfigRead, format!("{}: cannot read the price table: {e}", p.display()))
            })?;
            let table = serde_norway::from_str::<std::collections::BTreeMap<String, Price>>(&text).map_err(|e| {
                ApiError::new(
                    ErrorCode::ConfigType,
                    format!(
                        "{}: not a price table (PROVIDER:MODEL: {{input_per_mtok, output_per_mtok}}): {e}",
                        p.display()
                    ),
                )
            })?;
            if let Some((model, _)) = table.iter().find(|(_, x)| {
                !(x.input_per_mtok.is_finite() && x.output_per_mtok.is_finite())
                    || x.input_per_mtok < 0.0
                    || x.output_per_mtok < 0.0
            }) {
                return Err(ApiError::new(
                    ErrorCode::ConfigType,
                    format!("{}: the price of {model} is not a finite, non-negative number", p.display()),
                ));
            }
            table
        }
    };
    let spec = MatrixSpec {
        vary,
        scenarios: a.scenarios,
        repeat: a.repeat,
        concurrency: a.concurrency,
        rate_per_provider: a.rate,
        prices,
        store: None,
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(0);
        b.set_style(
            indicatif::ProgressStyle::with_template("{spinner} matrix {pos}/{len} runs {wide_bar} {eta}")
                .expect("valid"),
        );
        b
    });
    let b2 = bar.clone();
    let progress = Arc::new(move |done: usize, total: usize| {
        if let Some(b) = &b2 {
            b.set_length(total as u64);
            b.set_position(done as u64);
        }
    });
    let report = runtime()?.block_on(run_matrix(&t, &spec, progress))?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let text = match a.format {
        MatrixFormat::Json => serde_json::to_string_pretty(&report).expect("serializes"),
        MatrixFormat::Html => html(&report),
        MatrixFormat::Text => {
            let mut out = format!("{}: {} cells\n", report.topology, report.cells.len());
            for c in &report.cells {
                let models = c.models.iter().map(|(a, m)| format!("{a}={m}")).collect::<Vec<_>>().join(" ");
                out.push_str(&format!(
                    "{models} · {}: {}/{} completed, expectations {}/{}, facts lost {}, {} tokens, {}, p50 {} ms, p95 {} ms, {} retries\n",
                    c.scenario,
                    c.completed,
                    c.runs.len(),
                    c.expectations_passed,
                    c.expectations,
                    c.facts_lost,
                    c.tokens,
                    c.cost_text(),
                    c.p50_ms,
                    c.p95_ms,
                    c.retries
                ));
                // A cell's runs usually fail alike: its first error says why.
                if let Some(r) = c.runs.iter().find(|r| r.status == "error") {
                    out.push_str(&format!("    error: {}\n", r.reason.replace('\n', "; ")));
                }
                for (what, runs, why) in failed_expectations(c) {
                    out.push_str(&format!("    failed {what} in {runs}/{} run(s): {why}\n", c.runs.len()));
                }
            }
            out
        }
    };
    super::args::write_out(a.output.as_deref(), &text)?;
    Ok(0)
}

/// Each expectation that failed in some of the cell's runs: how many runs, and the first reason.
fn failed_expectations(c: &baton::matrix::Cell) -> Vec<(String, usize, String)> {
    let mut out: Vec<(String, usize, String)> = vec![];
    for f in c.runs.iter().flat_map(|r| &r.failures) {
        match out.iter_mut().find(|(what, _, _)| *what == f.expectation) {
            Some(slot) => slot.1 += 1,
            None => out.push((f.expectation.clone(), 1, f.reason.replace('\n', "; "))),
        }
    }
    out
}
