//! `baton trace import`: reads a trace file of another framework as it streams, saves every
//! run it holds to the store (all or nothing), and prints the runs.

use super::Failure;
use super::store_cmds::{DbArg, runtime};
use super::topology_cmds::OutFormat;
use baton::import::{ImportError, SourceFormat, import_file};
use baton::trace::{Trace, render_timeline};
use std::io::IsTerminal;
use std::path::PathBuf;

pub fn import(
    file: PathBuf,
    from: &str,
    format: OutFormat,
    facts: Option<PathBuf>,
    quiet: bool,
    db: DbArg,
) -> Result<i32, Failure> {
    let from = SourceFormat::parse(from)
        .ok_or_else(|| Failure::input(format!("unknown format '{from}'; choose auto, openai-agents, otlp or adk")))?;
    let overlay = facts.map(|f| baton::config::load(&f)).transpose().map_err(Failure::input)?;
    runtime()?.block_on(async move {
        let store = db.open().await?;
        let (tx, mut rx) = tokio::sync::mpsc::channel::<Trace>(4);
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = indicatif::ProgressBar::new(std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0));
            b.set_style(
                indicatif::ProgressStyle::with_template("{spinner} importing {bytes}/{total_bytes} {wide_bar} {eta}")
                    .expect("valid template"),
            );
            b
        });
        let bar2 = bar.clone();
        let path = file.clone();
        let reader = tokio::task::spawn_blocking(move || {
            let mut progress = |done: u64, _total: u64| {
                if let Some(b) = &bar2 {
                    b.set_position(done);
                }
            };
            import_file(&path, from, overlay.as_ref(), Some(&mut progress), &mut |trace, _topology| {
                tx.blocking_send(trace).map_err(|_| ImportError::Read {
                    file: path.display().to_string(),
                    source: std::io::Error::other("the store writer stopped"),
                })
            })
        });
        let mut saved: Vec<String> = vec![];
        let mut printed = 0usize;
        let mut store_error = None;
        while let Some(mut trace) = rx.recv().await {
            match store.save_trace(&trace).await {
                Ok(id) => {
                    trace.run_id = Some(id.clone());
                    saved.push(id);
                }
                Err(e) => {
                    store_error = Some(e);
                    break;
                }
            }
            if !quiet {
                match format {
                    OutFormat::Text => print!("{}", render_timeline(&trace)),
                    OutFormat::Json => {
                        print!(
                            "{}{}",
                            if printed == 0 { "[" } else { "," },
                            serde_json::to_string(&trace).expect("serializes")
                        )
                    }
                }
            }
            let notes = trace.source.as_ref().and_then(|s| s.get("notes")).and_then(|n| n.as_array());
            if let Some(notes) = notes.filter(|_| !quiet && format == OutFormat::Text) {
                for n in notes.iter().filter_map(|n| n.as_str()) {
                    println!("note: {n}");
                }
            }
            printed += 1;
        }
        drop(rx);
        let result = reader.await.map_err(|e| Failure::input(format!("the importer stopped: {e}")))?;
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        let failure = match (store_error, result) {
            (Some(e), _) => Some(e.to_string()),
            (None, Err(e)) => Some(e.to_string()),
            (None, Ok(summary)) => {
                if !quiet && format == OutFormat::Json {
                    println!("]");
                }
                eprintln!(
                    "imported {} run(s) from {} ({}, {} records, {} bytes) into {}",
                    summary.runs,
                    file.display(),
                    summary.format.map(SourceFormat::name).unwrap_or("?"),
                    summary.records,
                    summary.bytes,
                    store.url()
                );
                None
            }
        };
        if let Some(message) = failure {
            // All or nothing: the runs saved before the error are removed again.
            for id in &saved {
                let _ = store.delete_run(id).await;
            }
            return Err(Failure::input(format!("{message}\nnothing was imported")));
        }
        Ok(0)
    })
}
