//! `baton diff RUN_A RUN_B`: two runs (ids or trace files) lined up by transfer identity, with
//! the first divergent transfer named.

use super::Outcome;
use super::args::{DbArg, OutFormat, runtime};

#[derive(clap::Args)]
pub struct Args {
    /// A run id or trace file (its first run).
    a: String,
    /// Another run id or trace file.
    b: String,
    #[arg(long, value_enum, default_value_t)]
    format: OutFormat,
    #[command(flatten)]
    db: DbArg,
}

pub fn run(x: Args) -> Outcome {
    let api = x.db.api();
    let rt = runtime()?;
    let (a, b) = (rt.block_on(api.trace_of(&x.a))?, rt.block_on(api.trace_of(&x.b))?);
    let d = baton::trace::diff_runs(&a, &b);
    if x.format == OutFormat::Json {
        println!("{}", serde_json::to_string_pretty(&d).expect("serializes"));
        return Ok(0);
    }
    println!("A: {} · {}\nB: {} · {}\n", a.topology, d.outcome_a, b.topology, d.outcome_b);
    for (i, r) in d.rows.iter().enumerate() {
        let at = |n: Option<u32>| n.map(|n| format!("#{n}")).unwrap_or_else(|| "—".into());
        let mark = if Some(i as u32) == d.first_divergence { ">>" } else { "  " };
        let what = if r.differences.is_empty() { "same".to_owned() } else { r.differences.join("; ") };
        println!("{mark} {} → {} ({}) A {:>3}  B {:>3}  {what}", r.from, r.to, r.occurrence, at(r.a), at(r.b));
    }
    match d.first_divergence.map(|i| &d.rows[i as usize]) {
        Some(r) => println!(
            "\nfirst divergence: {} → {} (occurrence {}): {}",
            r.from,
            r.to,
            r.occurrence,
            r.differences.join("; ")
        ),
        None => println!("\nno divergent transfer"),
    }
    Ok(0)
}
