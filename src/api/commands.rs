//! The one list of commands. Each line names a command, its typed arguments and its typed
//! result; from it follow [`Api::dispatch_json`] (what `baton serve`'s `/api/<name>` route and the
//! desktop app's single Tauri command call), [`COMMAND_NAMES`], and the TypeScript command map
//! `ui/src/bindings/commands.ts` (written by [`crate::api::bindings`]). Adding a command means
//! one line here, its method on [`Api`], and its caller in the UI.

use super::capture::{CaptureArgs, CaptureStatus};
use super::code::{CodeInterpretersArgs, ImportCodeArgs, ImportedCode, Interpreter};
use super::designer::{
    ExportArgs, LintArgs, NewTopologyArgs, OpenedTopology, PathArgs, RefactorArgs, SaveArgs, WriteTextArgs,
};
use super::files::FileEntry;
use super::importing::{ImportArgs, UploadArgs};
use super::runs::{
    FactArgs, ListRunsArgs, RunEvents, RunEventsArgs, RunIdArgs, StartRunArgs, StartedRun, StepArgs, StepContextArgs,
    TransferArgs,
};
use super::settings::{Catalog, DeleteKeyArgs, SetKeyArgs};
use super::{Api, NoArgs};
use crate::error::{ApiError, ErrorCode};
use crate::lint::Finding;
use crate::providers::ProviderStatus;
use crate::store::{RunOverview, RunPage, RunQuery, RunSummary, StepView, TransferView};
use crate::topology::Topology;
use serde_json::Value;
use std::sync::Arc;
use ts_rs::TS;

/// One command as the TypeScript map shows it.
pub struct CommandSig {
    pub name: &'static str,
    pub doc: &'static str,
    pub args: String,
    pub result: String,
    /// TypeScript names and binding paths of the types it mentions.
    pub imports: Vec<(String, std::path::PathBuf)>,
}

fn imports_of<T: TS + 'static + ?Sized>(cfg: &ts_rs::Config, out: &mut Vec<(String, std::path::PathBuf)>) {
    struct Generics<'a>(&'a ts_rs::Config, &'a mut Vec<(String, std::path::PathBuf)>);
    impl ts_rs::TypeVisitor for Generics<'_> {
        fn visit<U: TS + 'static + ?Sized>(&mut self) {
            imports_of::<U>(self.0, self.1);
        }
    }
    if let Some(p) = T::output_path() {
        out.push((T::ident(cfg), p));
    }
    // `Vec<RunSummary>` names `RunSummary` through its type parameter.
    T::visit_generics(&mut Generics(cfg, out));
}

/// Exports a type's bindings, or those of the types it holds when it has none of its own
/// (`Vec<RunSummary>`).
fn export_type<T: TS + 'static + ?Sized>(cfg: &ts_rs::Config) -> Result<(), ts_rs::ExportError> {
    struct Each<'a>(&'a ts_rs::Config, Result<(), ts_rs::ExportError>);
    impl ts_rs::TypeVisitor for Each<'_> {
        fn visit<U: TS + 'static + ?Sized>(&mut self) {
            if self.1.is_ok() && U::output_path().is_some() {
                self.1 = U::export_all(self.0);
            }
        }
    }
    if T::output_path().is_some() {
        return T::export_all(cfg);
    }
    let mut each = Each(cfg, Ok(()));
    T::visit_dependencies(&mut each);
    T::visit_generics(&mut each);
    each.1
}

fn parse_args<T: serde::de::DeserializeOwned>(command: &str, args: Value) -> Result<T, ApiError> {
    let args = if args.is_null() { Value::Object(Default::default()) } else { args };
    serde_path_to_error::deserialize(args).map_err(|e| {
        let at = e.path().to_string();
        let at = if at == "." { String::new() } else { format!(" at `{at}`") };
        ApiError::new(ErrorCode::ApiArgs, format!("{command}: bad arguments{at}: {}", e.into_inner()))
    })
}

fn to_json<T: serde::Serialize>(v: T) -> Result<String, ApiError> {
    serde_json::to_string(&v).map_err(|e| ApiError::new(ErrorCode::ApiSerialize, e.to_string()))
}

impl Api {
    /// [`Api::dispatch_json`]'s result as a `Value` (for Rust callers that read it).
    pub async fn dispatch(self: &Arc<Self>, command: &str, args: Value) -> Result<Value, ApiError> {
        let json = self.dispatch_json(command, args).await?;
        serde_json::from_str(&json).map_err(|e| ApiError::new(ErrorCode::ApiSerialize, e.to_string()))
    }
}

/// One line in the log per command: its name, how long it took, its error code (never its
/// arguments or a message's text). A command name that is not one is logged as `unknown`.
fn log_command(command: &str, started: std::time::Instant, result: &Result<String, ApiError>) {
    let ms = started.elapsed().as_millis() as u64;
    let command = COMMAND_NAMES.iter().find(|c| **c == command).copied().unwrap_or("unknown");
    match result {
        Ok(_) => tracing::debug!(command, ms, "ok"),
        Err(e) => tracing::warn!(command, ms, code = e.code.as_str(), "failed"),
    }
}

fn unknown_command(other: &str) -> ApiError {
    ApiError::new(
        ErrorCode::ApiUnknownCommand,
        format!("unknown command '{other}'; the commands are: {}", COMMAND_NAMES.join(", ")),
    )
}

macro_rules! commands {
    ($( $(#[doc = $doc:literal])* $name:ident ( $args:ty ) -> $out:ty ; )*) => {
        /// Every command's name, in declaration order.
        pub const COMMAND_NAMES: &[&str] = &[$(stringify!($name)),*];

        impl Api {
            /// Runs a command by name with JSON arguments: the one entry point of every host. The
            /// result is JSON text serialized straight from its type (a run's overview of 100,000
            /// steps never becomes a `Value` tree).
            pub async fn dispatch_json(self: &Arc<Self>, command: &str, args: Value) -> Result<String, ApiError> {
                let started = std::time::Instant::now();
                let result = match command {
                    $(stringify!($name) => {
                        match parse_args::<$args>(command, args) {
                            Ok(a) => match self.$name(a).await {
                                Ok(out) => to_json(out),
                                Err(e) => Err(e),
                            },
                            Err(e) => Err(e),
                        }
                    })*
                    other => Err(unknown_command(other)),
                };
                log_command(command, started, &result);
                result
            }
        }

        /// Each command's signature in TypeScript.
        pub fn command_signatures(cfg: &ts_rs::Config) -> Vec<CommandSig> {
            vec![$({
                let mut imports = vec![];
                imports_of::<$args>(cfg, &mut imports);
                imports_of::<$out>(cfg, &mut imports);
                CommandSig {
                    name: stringify!($name),
                    doc: concat!($($doc),*),
                    args: <$args as TS>::name(cfg),
                    result: <$out as TS>::name(cfg),
                    imports,
                }
            }),*]
        }

        /// Writes the bindings of every argument and result type.
        pub fn export_command_types(cfg: &ts_rs::Config) -> Result<(), ts_rs::ExportError> {
            $(export_type::<$args>(cfg)?; export_type::<$out>(cfg)?;)*
            Ok(())
        }
    };
}

commands! {
    /// Topology files this host offers to open.
    list_files(NoArgs) -> Vec<FileEntry>;
    /// Reads a topology file and lints it.
    open_topology(PathArgs) -> OpenedTopology;
    /// An empty topology with one agent.
    new_topology(NewTopologyArgs) -> Topology;
    /// Saves a topology (YAML or JSON by the extension) and keeps the version in the store.
    save_topology(SaveArgs) -> ();
    /// Writes an export that is not a topology (code, diagrams).
    write_text(WriteTextArgs) -> ();
    /// Lint findings for a topology.
    lint_topology(LintArgs) -> Vec<Finding>;
    /// Renders a topology in an export format.
    export_topology(ExportArgs) -> String;
    /// Reads the agents of an Agents SDK or ADK module (or ADK Agent Config YAML) into a topology.
    import_code(ImportCodeArgs) -> ImportedCode;
    /// The Python interpreters `import_code` may use for a module (venvs found, `$BATON_PYTHON`, python3).
    code_interpreters(CodeInterpretersArgs) -> Vec<Interpreter>;
    /// Before any run: which pinned facts each edge's sender may have, and what the edge does with them.
    fact_flow(LintArgs) -> Vec<crate::lint::EdgeFlow>;
    /// The same topology across models: every combination on every scenario, its runs saved.
    run_matrix(super::MatrixArgs) -> crate::matrix::MatrixReport;
    /// Runs every scenario's `expect:` (mock) and checks it, as `baton test` does.
    test_topology(super::TestArgs) -> Vec<crate::testing::CaseResult>;
    /// Rewrites a handoff chain under a supervisor that delegates and keeps ownership.
    refactor_supervisor(RefactorArgs) -> crate::refactor::Refactored;
    /// Starts a run that is saved as it goes; answers with its id at once.
    start_run(StartRunArgs) -> StartedRun;
    /// A live run's events from `from` on (waits up to 20 s for new ones).
    run_events(RunEventsArgs) -> RunEvents;
    /// Cancels a live run (it ends with the reason "cancelled").
    cancel_run(RunIdArgs) -> ();
    /// Resumes a live run paused at a breakpoint.
    resume_run(RunIdArgs) -> ();
    /// Saved runs, newest first.
    list_runs(ListRunsArgs) -> Vec<RunSummary>;
    /// Every run in the store, filtered and paged (the Runs home), with the total.
    search_runs(RunQuery) -> RunPage;
    /// A saved run's steps and transfers, without items.
    run_overview(RunIdArgs) -> RunOverview;
    /// A run's summary and topology with the step and transfer briefs from given indexes on (a run being followed).
    run_tail(super::runs::RunTailArgs) -> crate::store::RunTail;
    /// One step of a saved run: context, output and transfer diff.
    step_view(StepArgs) -> StepView;
    /// One window of a step's context (a long context pages in as the list scrolls).
    step_context(StepContextArgs) -> crate::store::ContextPage;
    /// One transfer of a saved run.
    transfer_view(TransferArgs) -> TransferView;
    /// Forks a saved run at a step with changes, re-runs it under the replay provider and saves it.
    fork_run(super::ForkArgs) -> super::ForkedRun;
    /// What did not reach each transfer's receiver, ranked by evidence that it mattered, and the verdict.
    suspects(RunIdArgs) -> crate::suspects::SuspectReport;
    /// Starts proving a run's suspects by counterfactual replay (forks with what was lost put back).
    prove_start(super::ProveArgs) -> super::ProveJob;
    /// A proof's progress and, once done, the report with every proof (waits up to 20 s for news).
    prove_status(super::ProveStatusArgs) -> super::ProveState;
    /// Cancels a proof; what it did not reach is reported "not tested (cancelled)".
    prove_cancel(super::ProveStatusArgs) -> ();
    /// Marks a saved run good or bad (or clears the mark: judgement null), with why.
    mark_run(super::MarkArgs) -> Option<crate::trace::RunMark>;
    /// Every context policy at one handoff of a saved run: what the receiver would get (no model call).
    what_if(TransferArgs) -> crate::whatif::WhatIf;
    /// Steps of the transfers where a pinned fact was lost.
    fact_lost_steps(FactArgs) -> Vec<u32>;
    /// Deletes a saved run.
    delete_run(RunIdArgs) -> ();
    /// Imports a trace file into the store, all or nothing; the ids of the runs it saved.
    import_trace(ImportArgs) -> Vec<String>;
    /// Imports a trace's content (a file dropped on the window or picked in the browser).
    import_trace_upload(UploadArgs) -> Vec<String>;
    /// Each real provider: where its key comes from (never the key), its endpoint, whether it answers.
    provider_status(NoArgs) -> Vec<ProviderStatus>;
    /// Stores a provider key in the OS keyring.
    set_provider_key(SetKeyArgs) -> ();
    /// Removes a provider key from the OS keyring.
    delete_provider_key(DeleteKeyArgs) -> ();
    /// The file the app was started on (its command line), if any.
    initial_file(NoArgs) -> Option<String>;
    /// Version, commit, store, data and log folders, and how the host draws (Settings → About).
    about(NoArgs) -> super::about::About;
    /// The lists the UI offers (providers, export and trace formats) with their labels.
    catalog(NoArgs) -> Catalog;
    /// Starts live capture: an OTLP/HTTP endpoint on 127.0.0.1 whose traces become runs.
    capture_start(CaptureArgs) -> CaptureStatus;
    /// Stops live capture, saving the traces still open.
    capture_stop(NoArgs) -> CaptureStatus;
    /// Whether live capture runs, its endpoint and what arrived.
    capture_status(NoArgs) -> CaptureStatus;
}
