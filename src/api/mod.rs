//! The host-agnostic command layer: every operation the CLI, the desktop app and the browser
//! test server offer, with errors as `{code, message}`. Hosts only translate arguments: the app's
//! Tauri commands and `baton serve`'s HTTP routes both end in [`Api::dispatch`] or the typed
//! methods beside it.

pub mod bindings;
mod error;
mod files;
mod live;

pub use error::ApiError;
pub use files::{FileAccess, FileEntry};
pub use live::{LiveEvent, LiveRun};

use crate::config::{self, Format};
use crate::engine::{EventSink, RunEvent, RunOptions};
use crate::export::{self, ExportFormat};
use crate::lint::{self, Finding};
use crate::refactor;
use crate::store::Store;
use crate::topology::Topology;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// A topology as opened from a file, with its lint findings.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
pub struct OpenedTopology {
    pub path: String,
    pub topology: Topology,
    pub findings: Vec<Finding>,
}

/// Reads a topology file and lints it.
pub fn open_topology(path: &Path) -> Result<OpenedTopology, ApiError> {
    let topology = config::load(path)?;
    let findings = lint::lint(&topology);
    Ok(OpenedTopology { path: path.display().to_string(), topology, findings })
}

/// Parses topology text (YAML or JSON).
pub fn parse_topology(text: &str, json: bool) -> Result<Topology, ApiError> {
    Ok(config::parse(text, if json { Format::Json } else { Format::Yaml }, "<input>")?)
}

/// Saves a topology where the user chose; the format follows the extension.
pub fn save_topology(t: &Topology, path: &Path) -> Result<(), ApiError> {
    Ok(config::save(t, path)?)
}

/// Lint findings for a topology.
pub fn lint_topology(t: &Topology) -> Vec<Finding> {
    lint::lint(t)
}

/// Renders an export.
pub fn export_topology(t: &Topology, format: &str) -> Result<String, ApiError> {
    let f = ExportFormat::parse(format).ok_or_else(|| {
        ApiError::new(
            "export.format",
            format!(
                "unknown export format '{format}'; choose one of: {}",
                ExportFormat::ALL.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
            ),
        )
    })?;
    Ok(export::export(t, f)?)
}

/// Applies the supervisor refactor to a handoff chain (edge ids; the longest from the entry
/// when empty).
pub fn refactor_supervisor(t: &Topology, chain: &[String]) -> Result<Topology, ApiError> {
    let chain = (!chain.is_empty()).then_some(chain);
    Ok(refactor::supervisor_refactor(t, chain)?.0)
}

/// Arguments of `start_run`.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
pub struct StartRunArgs {
    pub topology: Topology,
    #[serde(default)]
    pub scenario: Option<String>,
    /// Edge ids to pause before.
    #[serde(default)]
    pub breakpoints: Vec<String>,
    /// Simulated latency of each mock model call.
    #[serde(default)]
    #[ts(type = "number | null")]
    pub mock_delay_ms: Option<u64>,
    /// Use each agent's configured provider instead of the mock scripts.
    #[serde(default)]
    pub live: bool,
}

/// A live event callback (the app forwards events to the webview with it).
pub type LiveSink = Box<dyn Fn(&LiveEvent) + Send + Sync>;

/// One host's session: which files it may touch, its store, its live runs.
pub struct Api {
    files: FileAccess,
    store_url: String,
    store: tokio::sync::OnceCell<Store>,
    runs: Mutex<HashMap<String, Arc<LiveRun>>>,
}

fn arg<T: serde::de::DeserializeOwned>(args: &Value, key: &str) -> Result<T, ApiError> {
    let v = args.get(key).cloned().unwrap_or(Value::Null);
    serde_json::from_value(v).map_err(|e| ApiError::new("api.args", format!("argument `{key}`: {e}")))
}

fn provider_arg(args: &Value) -> Result<crate::topology::Provider, ApiError> {
    let name: String = arg(args, "provider")?;
    serde_json::from_value(Value::String(name.clone())).map_err(|_| {
        ApiError::new(
            "providers.unknown",
            format!("unknown provider '{name}'; use openai, openai-responses, anthropic, gemini or openai-compatible"),
        )
    })
}

fn to_value<T: Serialize>(v: T) -> Result<Value, ApiError> {
    serde_json::to_value(v).map_err(|e| ApiError::new("api.serialize", e.to_string()))
}

impl Api {
    pub fn new(files: FileAccess, store_url: String) -> Arc<Api> {
        Arc::new(Api { files, store_url, store: tokio::sync::OnceCell::new(), runs: Mutex::new(HashMap::new()) })
    }

    pub fn files(&self) -> &FileAccess {
        &self.files
    }

    /// The store, opened on first use.
    pub async fn store(&self) -> Result<&Store, ApiError> {
        self.store.get_or_try_init(|| Store::open(&self.store_url)).await.map_err(ApiError::from)
    }

    pub fn live(&self, run_id: &str) -> Result<Arc<LiveRun>, ApiError> {
        self.runs
            .lock()
            .expect("runs lock")
            .get(run_id)
            .cloned()
            .ok_or_else(|| ApiError::new("run.not_live", format!("run '{run_id}' is not running in this session")))
    }

    /// Starts a run that is saved to the store as it goes; returns its id at once.
    pub async fn start_run(self: &Arc<Self>, a: StartRunArgs, on_event: Option<LiveSink>) -> Result<String, ApiError> {
        a.topology.validate()?;
        if let Some(s) = &a.scenario {
            if a.topology.scenario(Some(s)).is_none() {
                return Err(ApiError::new("run.unknown_scenario", format!("the topology has no scenario named '{s}'")));
            }
        } else if a.topology.scenarios.is_empty() {
            return Err(ApiError::new("run.no_scenario", "the topology has no scenario to run; add one with an input"));
        }
        let store = self.store().await?.clone();
        let run_id = crate::store::new_run_id();
        let cancel = tokio_util::sync::CancellationToken::new();
        let live_models = if a.live {
            let scenario = a.topology.scenario(a.scenario.as_deref());
            Some(
                crate::providers::LiveModels::new(&a.topology, scenario, cancel.clone())
                    .map_err(|e| ApiError::new(e.code(), e.to_string()))?,
            )
        } else {
            None
        };
        let providers: std::collections::BTreeMap<String, String> = match &live_models {
            Some(m) => m.labels.clone(),
            None => a.topology.agents.iter().map(|ag| (ag.id.clone(), "mock".to_string())).collect(),
        };
        let (mut record, recorder) = store.record(&a.topology, run_id.clone(), &providers, None, None).await?;
        let opts = RunOptions {
            scenario: a.scenario.clone(),
            run_id: Some(run_id.clone()),
            breakpoints: a.breakpoints.iter().cloned().collect(),
            mock_delay: a.mock_delay_ms.map(std::time::Duration::from_millis),
            providers,
            cancel,
            ..Default::default()
        };
        let live = Arc::new(LiveRun::new(&run_id, opts.cancel.clone(), opts.gate.clone()));
        self.runs.lock().expect("runs lock").insert(run_id.clone(), live.clone());
        let on_event: Option<Arc<LiveSink>> = on_event.map(Arc::new);
        let mut tr = live::Translator::new(&run_id);
        let (live2, on2) = (live.clone(), on_event.clone());
        // The Finished event goes out after the store has everything, so a UI that reacts to it
        // by reading the store finds the whole run.
        let held: Arc<Mutex<Option<LiveEvent>>> = Arc::new(Mutex::new(None));
        let held2 = held.clone();
        let sink: EventSink = Box::new(move |e: &RunEvent| {
            record(e);
            if let Some(le) = tr.translate(e) {
                if matches!(le, LiveEvent::Finished { .. }) {
                    *held2.lock().expect("held lock") = Some(le);
                    return;
                }
                if let Some(cb) = &on2 {
                    cb(&le);
                }
                live2.push(le);
            }
        });
        let mut opts = opts;
        opts.sink = Some(sink);
        let topology = a.topology;
        tokio::spawn(async move {
            let result = match &live_models {
                Some(models) => crate::engine::run(&topology, models, opts).await,
                None => crate::engine::run_mock(&topology, opts).await,
            };
            let stored = recorder.finish().await;
            let emit = |le: LiveEvent| {
                if let Some(cb) = &on_event {
                    cb(&le);
                }
                live.push(le);
            };
            if let Err(e) = stored {
                emit(LiveEvent::StoreError { message: e.to_string() });
            }
            if let Err(e) = result {
                emit(LiveEvent::StoreError { message: e.to_string() });
            }
            let finished = held.lock().expect("held lock").take();
            if let Some(f) = finished {
                emit(f);
            }
        });
        Ok(run_id)
    }

    /// Imports a trace file into the store (all or nothing); returns the new run ids.
    pub async fn import_trace(&self, path: &Path, from: &str) -> Result<Vec<String>, ApiError> {
        let from = crate::import::SourceFormat::parse(from).ok_or_else(|| {
            ApiError::new("import.format", format!("unknown format '{from}'; choose auto, openai-agents, otlp or adk"))
        })?;
        let store = self.store().await?.clone();
        let path = path.to_path_buf();
        let (tx, mut rx) = tokio::sync::mpsc::channel::<crate::trace::Trace>(4);
        let reader = tokio::task::spawn_blocking(move || {
            crate::import::import_file(&path, from, None, None, &mut |trace, _| {
                tx.blocking_send(trace).map_err(|_| crate::import::ImportError::Read {
                    file: path.display().to_string(),
                    source: std::io::Error::other("the store writer stopped"),
                })
            })
        });
        let mut saved = vec![];
        let mut failure: Option<ApiError> = None;
        while let Some(trace) = rx.recv().await {
            match store.save_trace(&trace).await {
                Ok(id) => saved.push(id),
                Err(e) => {
                    failure = Some(e.into());
                    break;
                }
            }
        }
        drop(rx);
        let result = reader.await.map_err(|e| ApiError::new("import.failed", e.to_string()))?;
        if let (None, Err(e)) = (&failure, result) {
            failure = Some(ApiError::new(e.code(), e.to_string()));
        }
        if let Some(e) = failure {
            for id in &saved {
                let _ = store.delete_run(id).await;
            }
            return Err(ApiError::new(&e.code, format!("{}; nothing was imported", e.message)));
        }
        Ok(saved)
    }

    /// Every command by name, with JSON arguments: the one entry point of `baton serve`.
    pub async fn dispatch(self: &Arc<Self>, cmd: &str, args: Value) -> Result<Value, ApiError> {
        match cmd {
            "list_files" => to_value(self.files.list()?),
            "open_topology" => {
                let path = self.files.resolve(&arg::<String>(&args, "path")?)?;
                let mut opened = open_topology(&path)?;
                opened.path = self.files.display(&path);
                to_value(opened)
            }
            "new_topology" => to_value(Topology::new(&arg::<String>(&args, "name")?)),
            "save_topology" => {
                let t: Topology = arg(&args, "topology")?;
                let path = self.files.resolve_for_write(&arg::<String>(&args, "path")?)?;
                save_topology(&t, &path)?;
                // Every saved version is kept in the store too (best effort: a store problem
                // must not stop the user from saving a file).
                if let Ok(store) = self.store().await {
                    let _ = store.save_topology(&t).await;
                }
                Ok(Value::Null)
            }
            "write_text" => {
                let path = self.files.resolve_for_write(&arg::<String>(&args, "path")?)?;
                config::write_atomic(&path, arg::<String>(&args, "text")?.as_bytes())?;
                Ok(Value::Null)
            }
            "lint_topology" => to_value(lint_topology(&arg(&args, "topology")?)),
            "export_topology" => to_value(export_topology(&arg(&args, "topology")?, &arg::<String>(&args, "format")?)?),
            "refactor_supervisor" => {
                let chain: Option<Vec<String>> = arg(&args, "chain")?;
                to_value(refactor_supervisor(&arg(&args, "topology")?, &chain.unwrap_or_default())?)
            }
            "start_run" => {
                let a: StartRunArgs =
                    serde_json::from_value(args).map_err(|e| ApiError::new("api.args", format!("start_run: {e}")))?;
                Ok(json!({ "run_id": self.start_run(a, None).await? }))
            }
            "run_events" => {
                let live = self.live(&arg::<String>(&args, "run_id")?)?;
                let from: Option<usize> = arg(&args, "from")?;
                let wait = live.events_since(from.unwrap_or(0));
                let (events, finished) = match tokio::time::timeout(std::time::Duration::from_secs(20), wait).await {
                    Ok(r) => r,
                    Err(_) => (vec![], live.finished()),
                };
                Ok(json!({ "events": events, "finished": finished }))
            }
            "cancel_run" => {
                self.live(&arg::<String>(&args, "run_id")?)?.cancel.cancel();
                Ok(Value::Null)
            }
            "resume_run" => {
                let live = self.live(&arg::<String>(&args, "run_id")?)?;
                if live.gate.is_paused() {
                    live.gate.resume();
                    live.push(LiveEvent::Resumed);
                }
                Ok(Value::Null)
            }
            "list_runs" => {
                let topology: Option<String> = arg(&args, "topology")?;
                to_value(self.store().await?.list_runs(topology.as_deref()).await?)
            }
            "run_overview" => to_value(self.store().await?.run_overview(&arg::<String>(&args, "run_id")?).await?),
            "step_view" => {
                let (run, step) = (arg::<String>(&args, "run_id")?, arg::<u32>(&args, "step")?);
                to_value(self.store().await?.step_view(&run, step).await?)
            }
            "transfer_view" => {
                let (run, index) = (arg::<String>(&args, "run_id")?, arg::<u32>(&args, "index")?);
                to_value(self.store().await?.transfer_view(&run, index).await?)
            }
            "fact_lost_steps" => {
                let (run, fact) = (arg::<String>(&args, "run_id")?, arg::<String>(&args, "fact")?);
                to_value(self.store().await?.fact_lost_steps(&run, &fact).await?)
            }
            "delete_run" => {
                self.store().await?.delete_run(&arg::<String>(&args, "run_id")?).await?;
                Ok(Value::Null)
            }
            "provider_status" => to_value(crate::providers::check_all().await),
            "set_provider_key" => {
                let p = provider_arg(&args)?;
                let key: String = arg(&args, "key")?;
                if key.trim().is_empty() {
                    return Err(ApiError::new("providers.key", "the key is empty"));
                }
                crate::providers::keys::store_key(p, &key).map_err(|m| ApiError::new("providers.keyring", m))?;
                Ok(Value::Null)
            }
            "delete_provider_key" => {
                crate::providers::keys::delete_key(provider_arg(&args)?)
                    .map_err(|m| ApiError::new("providers.keyring", m))?;
                Ok(Value::Null)
            }
            "import_trace" => {
                let path = self.files.resolve(&arg::<String>(&args, "path")?)?;
                let from: Option<String> = arg(&args, "from")?;
                to_value(self.import_trace(&path, from.as_deref().unwrap_or("auto")).await?)
            }
            other => Err(ApiError::new("api.unknown_command", format!("unknown command '{other}'"))),
        }
    }
}
