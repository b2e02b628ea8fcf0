//! Runs: the one run loop (validate, choose the models, record to the store as it goes, return
//! the trace), shared by `baton run` and the hosts' `start_run`; live runs' events and
//! controls; and the debugger's queries over saved runs.

use super::live::{LiveEvent, LiveRun, Translator};
use super::{Api, blocking};
use crate::engine::{EventSink, Gate, RunEvent, RunOptions};
use crate::error::{ApiError, ErrorCode};
use crate::providers::LiveModels;
use crate::store::{CommitHook, Recorder, RunOverview, RunSummary, StepView, TraceParts, TransferView};
use crate::topology::Topology;
use crate::trace::Trace;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

/// Arguments of `start_run`.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct StartRunArgs {
    pub topology: Topology,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub scenario: Option<String>,
    /// Edge ids to pause before.
    #[serde(default)]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub breakpoints: Vec<String>,
    /// Simulated latency of each mock model call.
    #[serde(default)]
    #[ts(as = "Option<u32>", optional = nullable)]
    pub mock_delay_ms: Option<u64>,
    /// Call each agent's configured provider instead of answering from the mock scripts.
    #[serde(default)]
    #[ts(as = "Option<bool>", optional)]
    pub real_providers: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
pub struct StartedRun {
    pub run_id: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct RunIdArgs {
    pub run_id: String,
}

/// Which end of a run to read: the step and transfer briefs from these indexes on.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct RunTailArgs {
    pub run_id: String,
    pub from_step: u32,
    pub from_transfer: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct RunEventsArgs {
    pub run_id: String,
    /// Index of the first event wanted (0 for all).
    #[serde(default)]
    #[ts(optional = nullable)]
    pub from: Option<u32>,
}

/// A batch of a live run's events.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
pub struct RunEvents {
    pub events: Vec<LiveEvent>,
    pub finished: bool,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct ListRunsArgs {
    /// Only runs of this topology (by name).
    #[serde(default)]
    #[ts(optional = nullable)]
    pub topology: Option<String>,
    /// Only runs of the topology with this identity (and, with `topology`, its runs saved before
    /// it had one, under that name).
    #[serde(default)]
    #[ts(optional = nullable)]
    pub topology_id: Option<String>,
    /// At most this many runs (all when absent).
    #[serde(default)]
    #[ts(optional = nullable)]
    pub limit: Option<u32>,
    /// Skip this many of the newest first.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub offset: Option<u32>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct StepArgs {
    pub run_id: String,
    pub step: u32,
    /// Only this window of the context (the debugger asks for `ItemWindow::FIRST`, then pages
    /// on with `step_context`); the whole context when absent.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub context: Option<crate::store::ItemWindow>,
}

/// A window of one step's context.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct StepContextArgs {
    pub run_id: String,
    pub step: u32,
    pub offset: u32,
    /// At most `ItemWindow::MAX` (2,000) items.
    pub limit: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct TransferArgs {
    pub run_id: String,
    pub index: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct FactArgs {
    pub run_id: String,
    pub fact: String,
}

/// Past this many runs held by a session, the finished ones are let go (their events are in
/// the store).
const MAX_ACTIVE_RUNS_KEPT: usize = 64;

/// Everything a run needs, whichever host starts it.
pub struct RunRequest {
    pub topology: Topology,
    pub scenario: Option<String>,
    pub breakpoints: Vec<String>,
    pub mock_delay: Option<std::time::Duration>,
    /// Call the configured providers instead of the mock scripts.
    pub real_providers: bool,
    /// Record the run in the store as it goes.
    pub save: bool,
    pub cancel: CancellationToken,
    /// Called after each batch the store commits (crash tests watch it).
    pub on_commit: Option<CommitHook>,
}

impl RunRequest {
    pub fn new(topology: Topology) -> RunRequest {
        RunRequest {
            topology,
            scenario: None,
            breakpoints: vec![],
            mock_delay: None,
            real_providers: false,
            save: false,
            cancel: CancellationToken::new(),
            on_commit: None,
        }
    }
}

/// A run checked and ready to go: its models chosen and, when saved, its recorder open.
pub struct PreparedRun {
    topology: Topology,
    models: Option<LiveModels>,
    opts: RunOptions,
    recorder: Option<Recorder>,
}

/// How a run ended: its trace always, and whether the store has all of it.
pub struct RunResult {
    pub trace: Trace,
    /// The saved run's id, or why the store could not keep it (the trace is still whole).
    pub saved: Option<Result<String, ApiError>>,
}

impl PreparedRun {
    pub fn run_id(&self) -> Option<&str> {
        self.opts.run_id.as_deref()
    }

    pub fn gate(&self) -> Arc<Gate> {
        self.opts.gate.clone()
    }

    /// Adds a receiver of the run's events (after the store's).
    pub fn tee(&mut self, mut extra: EventSink) {
        self.opts.sink = Some(match self.opts.sink.take() {
            Some(mut first) => Box::new(move |e: &RunEvent| {
                first(e);
                extra(e);
            }),
            None => extra,
        });
    }

    /// Runs to the end. A run that starts always ends with an outcome and a reason.
    pub async fn run(self) -> Result<RunResult, ApiError> {
        let PreparedRun { topology, models, opts, recorder } = self;
        let trace = match &models {
            Some(m) => crate::engine::run(&topology, m, opts).await,
            None => crate::engine::run_mock(&topology, opts).await,
        }?;
        let saved = match recorder {
            Some(rec) => {
                let id = rec.run_id.clone();
                Some(rec.finish_for(&trace).await.map(|_| id).map_err(ApiError::from))
            }
            None => None,
        };
        Ok(RunResult { trace, saved })
    }
}

impl Api {
    /// Checks a run request and opens what it needs; errors here mean the run never started.
    pub async fn prepare_run(&self, mut r: RunRequest) -> Result<PreparedRun, ApiError> {
        // Whatever host it came through, a topology gets its default edge ids first.
        r.topology.normalize();
        r.topology.validate()?;
        match &r.scenario {
            Some(s) if r.topology.scenario(Some(s)).is_none() => {
                let names: Vec<&str> = r.topology.scenarios.iter().map(|s| s.name.as_str()).collect();
                return Err(ApiError::new(
                    ErrorCode::RunUnknownScenario,
                    format!("the topology has no scenario named '{s}'; its scenarios: {}", names.join(", ")),
                ));
            }
            None if r.topology.scenarios.is_empty() => {
                return Err(ApiError::new(
                    ErrorCode::RunNoScenario,
                    "the topology has no scenario to run; add one (a name and an input) in the Run panel or under `scenarios:`",
                ));
            }
            _ => {}
        }
        let models = if r.real_providers {
            let scenario = r.topology.scenario(r.scenario.as_deref());
            Some(LiveModels::new(&r.topology, scenario, r.cancel.clone())?)
        } else {
            None
        };
        let providers: BTreeMap<String, String> = match &models {
            Some(m) => m.labels.clone(),
            None => r.topology.agents.iter().map(|a| (a.id.clone(), "mock".to_string())).collect(),
        };
        let mut opts = RunOptions {
            scenario: r.scenario.clone(),
            breakpoints: r.breakpoints.iter().cloned().collect(),
            mock_delay: r.mock_delay,
            providers: providers.clone(),
            cancel: r.cancel.clone(),
            ..Default::default()
        };
        let mut recorder = None;
        if r.save {
            let store = self.store().await?;
            let id = crate::store::new_run_id();
            let (sink, rec) = store.record(&r.topology, id.clone(), &providers, None, r.on_commit).await?;
            opts.run_id = Some(id);
            opts.sink = Some(sink);
            recorder = Some(rec);
        }
        Ok(PreparedRun { topology: r.topology, models, opts, recorder })
    }

    pub fn live(&self, run_id: &str) -> Result<Arc<LiveRun>, ApiError> {
        self.runs.lock().expect("runs lock").get(run_id).cloned().ok_or_else(|| {
            ApiError::new(ErrorCode::RunNotLive, format!("run '{run_id}' is not running in this session"))
        })
    }

    /// Starts a run that is saved to the store as it goes; returns its id at once. Its events
    /// are read with `run_events`.
    pub async fn start_run(self: &Arc<Self>, a: StartRunArgs) -> Result<StartedRun, ApiError> {
        let mut req = RunRequest::new(a.topology);
        req.scenario = a.scenario;
        req.breakpoints = a.breakpoints;
        req.mock_delay = a.mock_delay_ms.map(std::time::Duration::from_millis);
        req.real_providers = a.real_providers;
        req.save = true;
        let cancel = req.cancel.clone();
        let mut prepared = self.prepare_run(req).await?;
        let run_id = prepared.run_id().expect("saved runs have an id").to_owned();
        let live = Arc::new(LiveRun::new(&run_id, cancel, prepared.gate()));
        {
            // A long session (the app, `baton serve`) keeps the events of its recent runs for
            // late readers, not of every run it ever started.
            let mut runs = self.runs.lock().expect("runs lock");
            if runs.len() >= MAX_ACTIVE_RUNS_KEPT {
                runs.retain(|_, r| !r.finished());
            }
            runs.insert(run_id.clone(), live.clone());
        }
        let mut tr = Translator::new(&run_id);
        // The Finished event goes out after the store has everything, so a UI that reacts to
        // it by reading the store finds the whole run.
        let held: Arc<Mutex<Option<LiveEvent>>> = Arc::new(Mutex::new(None));
        let (held2, live2) = (held.clone(), live.clone());
        prepared.tee(Box::new(move |e: &RunEvent| {
            if let Some(le) = tr.translate(e) {
                if matches!(le, LiveEvent::Finished { .. }) {
                    *held2.lock().expect("held lock") = Some(le);
                } else {
                    live2.push(le);
                }
            }
        }));
        tokio::spawn(async move {
            use futures::FutureExt;
            // A bug in the engine must not leave the run "running" for ever: a panic ends it too.
            let result = std::panic::AssertUnwindSafe(prepared.run()).catch_unwind().await.unwrap_or_else(|p| {
                let what =
                    p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned());
                Err(ApiError::new(
                    ErrorCode::ApiInternal,
                    format!("the run stopped on an internal error ({}); please report it", what.unwrap_or_default()),
                ))
            });
            match result {
                Ok(result) => {
                    if let Some(Err(e)) = result.saved {
                        live.push(LiveEvent::StoreError { message: e.message });
                    }
                }
                Err(e) => {
                    // The engine refused after all (prepare_run checks first, so this is rare):
                    // the run still ends, with the reason.
                    live.push(LiveEvent::StoreError { message: e.message.clone() });
                    let outcome = crate::trace::Outcome {
                        status: crate::trace::OutcomeStatus::Failed,
                        reason: e.message,
                        owner: String::new(),
                        final_output: None,
                        guard: None,
                    };
                    let ended_at = humantime::format_rfc3339_micros(std::time::SystemTime::now()).to_string();
                    held.lock().expect("held lock").get_or_insert(LiveEvent::Finished {
                        outcome,
                        usage: Default::default(),
                        ended_at,
                    });
                }
            }
            if let Some(f) = held.lock().expect("held lock").take() {
                live.push(f);
            }
        });
        Ok(StartedRun { run_id })
    }

    pub async fn run_events(self: &Arc<Self>, a: RunEventsArgs) -> Result<RunEvents, ApiError> {
        let live = self.live(&a.run_id)?;
        let wait = live.events_since(a.from.unwrap_or(0) as usize);
        let (events, finished) = match tokio::time::timeout(std::time::Duration::from_secs(20), wait).await {
            Ok(r) => r,
            Err(_) => (vec![], live.finished()),
        };
        Ok(RunEvents { events, finished })
    }

    pub async fn cancel_run(self: &Arc<Self>, a: RunIdArgs) -> Result<(), ApiError> {
        self.live(&a.run_id)?.cancel.cancel();
        Ok(())
    }

    pub async fn resume_run(self: &Arc<Self>, a: RunIdArgs) -> Result<(), ApiError> {
        let live = self.live(&a.run_id)?;
        if live.gate.is_paused() {
            live.gate.resume();
            live.push(LiveEvent::Resumed);
        }
        Ok(())
    }

    pub async fn list_runs(self: &Arc<Self>, a: ListRunsArgs) -> Result<Vec<RunSummary>, ApiError> {
        let store = self.store().await?;
        let (limit, offset) = (a.limit.unwrap_or(u32::MAX), a.offset.unwrap_or(0));
        Ok(match &a.topology_id {
            Some(id) => store.list_runs_of(id, a.topology.as_deref().unwrap_or(""), limit, offset).await?,
            None => store.list_runs_page(a.topology.as_deref(), limit, offset).await?,
        })
    }

    pub async fn search_runs(self: &Arc<Self>, q: crate::store::RunQuery) -> Result<crate::store::RunPage, ApiError> {
        Ok(self.store().await?.search_runs(&q).await?)
    }

    pub async fn run_overview(self: &Arc<Self>, a: RunIdArgs) -> Result<RunOverview, ApiError> {
        Ok(self.store().await?.run_overview(&a.run_id).await?)
    }

    pub async fn run_tail(self: &Arc<Self>, a: RunTailArgs) -> Result<crate::store::RunTail, ApiError> {
        Ok(self.store().await?.run_tail(&a.run_id, a.from_step, a.from_transfer).await?)
    }

    pub async fn step_view(self: &Arc<Self>, a: StepArgs) -> Result<StepView, ApiError> {
        if let Some(w) = a.context {
            check_window(w)?;
        }
        Ok(self.store().await?.step_view_window(&a.run_id, a.step, a.context).await?)
    }

    pub async fn step_context(self: &Arc<Self>, a: StepContextArgs) -> Result<crate::store::ContextPage, ApiError> {
        let w = crate::store::ItemWindow { offset: a.offset, limit: a.limit };
        check_window(w)?;
        Ok(self.store().await?.step_context(&a.run_id, a.step, w).await?)
    }

    pub async fn transfer_view(self: &Arc<Self>, a: TransferArgs) -> Result<TransferView, ApiError> {
        Ok(self.store().await?.transfer_view(&a.run_id, a.index).await?)
    }

    pub async fn fact_lost_steps(self: &Arc<Self>, a: FactArgs) -> Result<Vec<u32>, ApiError> {
        Ok(self.store().await?.fact_lost_steps(&a.run_id, &a.fact).await?)
    }

    pub async fn delete_run(self: &Arc<Self>, a: RunIdArgs) -> Result<(), ApiError> {
        Ok(self.store().await?.delete_run(&a.run_id).await?)
    }

    /// A saved run's whole trace (`baton runs show`, `trace show`, `trace export`).
    pub async fn load_trace(&self, run_id: &str) -> Result<Trace, ApiError> {
        Ok(self.store().await?.load_trace(run_id).await?)
    }

    /// A run id from the store, or a file of native traces (what `trace show` accepts: one
    /// trace, or the array `trace import --format json` writes).
    /// The run with this id, or a trace file's first run (what `whatif`, `fork` and `diff` take).
    pub async fn trace_of(&self, run_or_file: &str) -> Result<Trace, ApiError> {
        self.traces_of(run_or_file)
            .await?
            .into_iter()
            .next()
            .ok_or_else(|| ApiError::new(crate::error::ErrorCode::StoreNoRun, format!("{run_or_file}: no run in it")))
    }

    pub async fn traces_of(&self, run_or_file: &str) -> Result<Vec<Trace>, ApiError> {
        self.traces_with(run_or_file, TraceParts::WHOLE).await
    }

    /// The same, a stored run read with only `parts` (a file is read whole: it is one document).
    pub async fn traces_with(&self, run_or_file: &str, parts: TraceParts) -> Result<Vec<Trace>, ApiError> {
        let path = std::path::PathBuf::from(run_or_file);
        if path.is_file() {
            let path = self.files.resolve(run_or_file)?;
            return blocking(move || crate::trace::Trace::all_from_file(&path)).await;
        }
        Ok(vec![self.store().await?.load_trace_parts(run_or_file, parts).await?])
    }
}

/// A context window asks for 1 to `ItemWindow::MAX` items.
fn check_window(w: crate::store::ItemWindow) -> Result<(), ApiError> {
    let max = crate::store::ItemWindow::MAX;
    if w.limit == 0 || w.limit > max {
        return Err(ApiError::new(
            crate::error::ErrorCode::ApiArgs,
            format!("a context window's limit is {}: ask for 1 to {max} items at a time", w.limit),
        ));
    }
    Ok(())
}
