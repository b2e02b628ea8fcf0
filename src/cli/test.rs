//! `baton test FILE|DIR [--live] [--junit OUT]`: runs every scenario that carries `expect:`
//! (mock by default), prints a short pytest-like summary with each failure's reason and step,
//! exits 1 when an expectation fails, and writes JUnit XML for CI systems.

use super::Outcome;
use super::args::runtime;
use baton::error::{ApiError, ErrorCode};
use baton::testing::{CaseResult, junit, run_case};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// Topology files, or folders to search for them (YAML and JSON, three levels deep).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Call each agent's configured provider instead of the mock scripts.
    #[arg(long)]
    live: bool,
    /// Only this scenario.
    #[arg(long)]
    scenario: Option<String>,
    /// Write a JUnit XML report here.
    #[arg(long)]
    junit: Option<PathBuf>,
    /// Print the results as JSON.
    #[arg(long)]
    json: bool,
}

fn walk(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        let hidden = p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden || p.ends_with("node_modules") || p.ends_with("target") {
            continue;
        }
        if p.is_dir() && depth < 3 {
            walk(&p, depth + 1, out);
        } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml" || x == "json") {
            out.push(p);
        }
    }
}

pub fn run_cmd(a: Args) -> Outcome {
    let mut files = vec![];
    let mut named = vec![];
    for p in &a.paths {
        if p.is_dir() {
            walk(p, 0, &mut files);
        } else {
            files.push(p.clone());
            named.push(p.clone());
        }
    }
    let rt = runtime()?;
    let mut cases: Vec<CaseResult> = vec![];
    let mut skipped = 0;
    for f in &files {
        let t = match baton::config::load(f) {
            Ok(t) => t,
            // A named file must be a topology; a folder's other YAML/JSON files are not tests.
            Err(e) if named.contains(f) => return Err(e.into()),
            // A file that reads like a topology but does not load is a failure, not a skip.
            Err(e)
                if baton::config::read_regular(f, baton::config::MAX_TOPOLOGY_BYTES)
                    .is_ok_and(|s| s.contains("agents:") && s.contains("scenarios:")) =>
            {
                let e = ApiError::from(e);
                cases.push(CaseResult {
                    file: f.display().to_string(),
                    topology: String::new(),
                    scenario: "(file)".into(),
                    checked: 0,
                    failures: vec![],
                    error: Some(e.message),
                    duration_ms: 0,
                });
                continue;
            }
            Err(_) => {
                skipped += 1;
                continue;
            }
        };
        for s in t.scenarios.iter().filter(|s| !s.expect.is_empty()) {
            if a.scenario.as_ref().is_some_and(|want| want != &s.name) {
                continue;
            }
            cases.push(rt.block_on(run_case(&t, s, a.live, &f.display().to_string())));
        }
    }
    if let Some(out) = &a.junit {
        baton::config::write_atomic(out, junit(&cases).as_bytes())?;
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&cases).expect("serializes"));
    } else {
        for c in &cases {
            let word = if c.passed() {
                "PASSED"
            } else if c.error.is_some() {
                "ERROR"
            } else {
                "FAILED"
            };
            println!("{}::{} {word} ({} checks)", c.file, c.scenario, c.checked);
            if let Some(e) = &c.error {
                println!("    error: {e}");
            }
            for fl in &c.failures {
                let at = fl.step.map(|s| format!(" [step {s}]")).unwrap_or_default();
                println!("    {}: {}{at}", fl.expectation, fl.reason);
            }
        }
        let failed = cases.iter().filter(|c| !c.passed()).count();
        let ms: u64 = cases.iter().map(|c| c.duration_ms).sum();
        println!(
            "== {} passed, {failed} failed in {:.2} s{} ==",
            cases.len() - failed,
            ms as f64 / 1000.0,
            if skipped > 0 { format!(" ({skipped} files were not topologies)") } else { String::new() }
        );
    }
    if cases.is_empty() {
        return Err(ApiError::new(
            ErrorCode::ApiArgs,
            "no scenario carries expectations: add `expect:` to a scenario (status, output_contains, facts_kept, fact_lost_at…)",
        ));
    }
    Ok(if cases.iter().all(CaseResult::passed) { 0 } else { 1 })
}
