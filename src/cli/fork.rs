//! `baton fork RUN --at STEP [changes] [--then replay|mock|live] [--save]`: re-run a recorded
//! run from a step with a policy, model, instructions or context changed; calls answer from the
//! recording until the first whose request changed, then from the chosen provider.

use super::Outcome;
use super::args::{DbArg, OutFormat, runtime};
use baton::error::{ApiError, ErrorCode};
use baton::fork::{ForkSpec, Then, fork};

#[derive(clap::Args)]
pub struct Args {
    /// A run id from `baton runs list`, or a trace file (its first run).
    run: String,
    /// The step to fork at (numbered from 0, as `baton trace show` lists them).
    #[arg(long)]
    at: u32,
    /// EDGE=POLICY: a policy for an edge (full, remove_tools, nest_summary, none, last_n(N), fields(a,b)).
    #[arg(long = "policy", value_name = "EDGE=POLICY")]
    policies: Vec<String>,
    /// AGENT=PROVIDER:MODEL[@BASE_URL]: another model for an agent.
    #[arg(long = "model", value_name = "AGENT=PROVIDER:MODEL")]
    models: Vec<String>,
    /// AGENT=TEXT: new instructions for an agent.
    #[arg(long = "instructions", value_name = "AGENT=TEXT")]
    instructions: Vec<String>,
    /// An item id to take out of the context at the fork step.
    #[arg(long = "drop", value_name = "ITEM")]
    drop: Vec<String>,
    /// A pinned fact to put back into the context at the fork step.
    #[arg(long = "restore", value_name = "FACT")]
    restore: Vec<String>,
    /// An item id of the run to put back into the receiver's context at the fork step (what
    /// did not cross the transfer there; `baton suspects --format json` lists them).
    #[arg(long = "put-back", value_name = "ITEM")]
    put_back: Vec<String>,
    /// Who answers from the first divergence on.
    #[arg(long, value_enum, default_value_t)]
    then: Then,
    /// Save the fork as a run linked to its parent.
    #[arg(long)]
    save: bool,
    #[arg(long, value_enum, default_value_t)]
    format: OutFormat,
    #[command(flatten)]
    db: DbArg,
}

pub(super) fn pairs(flag: &str, v: &[String]) -> Result<std::collections::BTreeMap<String, String>, ApiError> {
    v.iter()
        .map(|p| {
            p.split_once('=').map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned())).ok_or_else(|| {
                ApiError::new(
                    ErrorCode::ApiArgs,
                    format!("--{flag} {p}: write KEY=VALUE (e.g. --{flag} resolution->verification=full)"),
                )
            })
        })
        .collect()
}

pub fn run(a: Args) -> Outcome {
    let api = a.db.api();
    let rt = runtime()?;
    let parent = &rt.block_on(api.trace_of(&a.run))?;
    let spec = ForkSpec {
        at: a.at,
        policies: pairs("policy", &a.policies)?,
        models: pairs("model", &a.models)?,
        instructions: pairs("instructions", &a.instructions)?,
        drop: a.drop,
        restore: a.restore,
        put_back: a.put_back,
        max_turns: None,
        then: a.then,
    };
    let parent_id = parent.run_id.clone().unwrap_or_default();
    let mut trace = rt.block_on(fork(parent, &parent_id, &spec, Default::default()))?;
    if a.save {
        let id = rt.block_on(async { api.store().await?.save_trace(&trace).await.map_err(ApiError::from) })?;
        trace.run_id = Some(id);
    }
    match a.format {
        OutFormat::Json => println!("{}", serde_json::to_string(&trace).expect("serializes")),
        OutFormat::Text => {
            print!("{}", baton::trace::render_timeline(&trace));
            let info = trace.fork.as_ref().expect("a fork");
            for c in &info.changes {
                println!("changed: {c}");
            }
            match &info.divergence {
                Some(d) => println!(
                    "diverged at call {} of {}{}: {}",
                    d.call,
                    d.agent,
                    d.recorded_step.map(|s| format!(" (recorded step {s})")).unwrap_or_default(),
                    d.reason
                ),
                None => println!("no divergence: every call answered from the recording"),
            }
            if let Some(id) = &trace.run_id {
                println!(
                    "saved as run {id} (forked from {} at step {})",
                    if parent_id.is_empty() { "a file" } else { &parent_id },
                    a.at
                );
            }
        }
    }
    // The same rule as `baton run`: a run that ended failed exits 1.
    Ok(if trace.outcome.status == baton::trace::OutcomeStatus::Failed { 1 } else { 0 })
}
