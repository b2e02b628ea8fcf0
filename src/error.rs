//! The one error every host shows: a stable [`ErrorCode`] (an enum, exported to TypeScript) and a
//! message that says what went wrong, where, and how to fix it. A code's [`Category`] decides
//! the HTTP status `baton serve` answers with and the exit code of the CLI.

use serde::{Deserialize, Serialize};

/// What kind of failure a code is: the caller's input, a refusal, a missing thing, a busy
/// resource, a size limit, or Baton's own fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// The request, file or arguments are wrong; fixing them fixes the failure.
    BadInput,
    /// Refused on purpose (outside the allowed files, a foreign page, a missing token).
    Denied,
    /// The run, step or command does not exist.
    NotFound,
    /// Another process holds the resource (a locked store, a run still being written).
    Busy,
    /// Past a size or nesting limit.
    TooLarge,
    /// Baton's fault or the machine's: a bug, a broken store, an unavailable keyring.
    Internal,
}

impl Category {
    /// The HTTP status `baton serve` answers with.
    pub fn http_status(self) -> u16 {
        match self {
            Category::BadInput => 400,
            Category::Denied => 403,
            Category::NotFound => 404,
            Category::Busy => 409,
            Category::TooLarge => 413,
            Category::Internal => 500,
        }
    }

    /// The CLI's exit code (0 is success, 1 "ran and found problems").
    pub fn exit_code(self) -> i32 {
        match self {
            Category::BadInput | Category::Denied | Category::TooLarge => 2,
            Category::NotFound => 3,
            Category::Busy => 4,
            Category::Internal => 5,
        }
    }
}

/// Declares every error code once: the variant, its wire name, its category and what it means.
macro_rules! error_codes {
    ($( $(#[doc = $doc:literal])* $variant:ident = $wire:literal, $cat:ident; )*) => {
        /// Every stable error code. The wire form (`"store.locked"`) is what the UI and scripts see.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
        pub enum ErrorCode {
            $( $(#[doc = $doc])* #[serde(rename = $wire)] $variant, )*
        }

        impl ErrorCode {
            pub fn as_str(self) -> &'static str {
                match self { $(ErrorCode::$variant => $wire,)* }
            }

            pub fn category(self) -> Category {
                match self { $(ErrorCode::$variant => Category::$cat,)* }
            }
        }
    };
}

error_codes! {
    /// A command's arguments do not match its declaration.
    ApiArgs = "api.args", BadInput;
    /// No command of that name.
    ApiUnknownCommand = "api.unknown_command", NotFound;
    /// A result could not be serialized (a bug).
    ApiSerialize = "api.serialize", Internal;
    /// A background task of a command failed (a bug).
    ApiInternal = "api.internal", Internal;
    /// A request came from a foreign page, a foreign Host or without the launch token.
    ApiForbidden = "api.forbidden", Denied;
    /// A request body is past the server's size limit.
    ApiTooLarge = "api.too_large", TooLarge;
    /// A topology file could not be read.
    ConfigRead = "config.read", BadInput;
    /// A file could not be written.
    ConfigWrite = "config.write", BadInput;
    /// The text is not valid YAML or JSON.
    ConfigSyntax = "config.syntax", BadInput;
    /// A field has the wrong type or an unknown name.
    ConfigType = "config.type", BadInput;
    /// The format version is not one this Baton reads.
    ConfigVersion = "config.version", BadInput;
    /// The text nests deeper, or is bigger, than Baton accepts.
    ConfigTooLarge = "config.too_large", TooLarge;
    /// A topology could not be serialized (a bug).
    ConfigSerialize = "config.serialize", Internal;
    /// The topology's references do not resolve, or ids are empty or repeated.
    TopologyInvalid = "topology.invalid", BadInput;
    /// The path lies outside the files this host may touch.
    FilesDenied = "files.denied", Denied;
    /// The path is not a regular file Baton can read (a FIFO, a device, a directory).
    FilesNotRegular = "files.not_regular", BadInput;
    /// The export target cannot express part of the topology.
    ExportUnsupported = "export.unsupported", BadInput;
    /// The refactor names an edge that does not exist.
    RefactorUnknownEdge = "refactor.unknown_edge", BadInput;
    /// The refactor was given an edge that is not a handoff.
    RefactorNotHandoff = "refactor.not_handoff", BadInput;
    /// The refactor's edges do not form a chain.
    RefactorNotChain = "refactor.not_chain", BadInput;
    /// The topology has no handoff chain to refactor.
    RefactorNoChain = "refactor.no_chain", BadInput;
    /// The topology has no scenario of that name.
    RunUnknownScenario = "run.unknown_scenario", BadInput;
    /// The topology has no scenario at all.
    RunNoScenario = "run.no_scenario", BadInput;
    /// The run is not running in this session.
    RunNotLive = "run.not_live", NotFound;
    /// The store was written by a newer Baton.
    StoreNewerSchema = "store.newer_schema", BadInput;
    /// Another process holds the store.
    StoreLocked = "store.locked", Busy;
    /// The file is not a Baton store.
    StoreCorrupt = "store.corrupt", BadInput;
    /// The store could not be opened.
    StoreOpen = "store.open", BadInput;
    /// The store URL is not SQLite or PostgreSQL.
    StoreUrl = "store.url", BadInput;
    /// No run with that id.
    StoreNoRun = "store.no_run", NotFound;
    /// The run has no step with that number.
    StoreNoStep = "store.no_step", NotFound;
    /// The run is still being written.
    StoreRunActive = "store.run_active", Busy;
    /// The store's data is damaged.
    StoreDamaged = "store.damaged", Internal;
    /// The database failed.
    StoreDb = "store.db", Internal;
    /// The trace file could not be read.
    ImportRead = "import.read", BadInput;
    /// A record of the trace is not valid input of its format.
    ImportParse = "import.parse", BadInput;
    /// The trace's format could not be recognised.
    ImportUnknownFormat = "import.unknown_format", BadInput;
    /// A file mixes formats.
    ImportMixed = "import.mixed", BadInput;
    /// The file holds no run Baton can rebuild.
    ImportEmpty = "import.empty", BadInput;
    /// A record or a nesting is past the importer's limits.
    ImportTooLarge = "import.too_large", TooLarge;
    /// The same source file was imported before (`--again` imports it anyway).
    ImportDuplicate = "import.duplicate", Busy;
    /// The importer stopped unexpectedly (a bug).
    ImportFailed = "import.failed", Internal;
    /// A native trace file is not valid.
    TraceInvalid = "trace.invalid", BadInput;
    /// A provider's configuration is incomplete (no key, no base URL).
    ModelConfig = "model.config", BadInput;
    /// A mock script has no answer for a model call.
    ModelScript = "model.script", BadInput;
    /// A provider answered with an HTTP error.
    ModelHttp = "model.http", Internal;
    /// A provider could not be reached, or timed out.
    ModelTransport = "model.transport", Internal;
    /// A provider's answer was not what its API promises.
    ModelProtocol = "model.protocol", Internal;
    /// The model call was cancelled.
    ModelCancelled = "model.cancelled", Internal;
    /// A provider key is empty.
    ProvidersKey = "providers.key", BadInput;
    /// The OS keyring refused or is not available.
    ProvidersKeyring = "providers.keyring", Internal;
    /// Live capture cannot listen (the port is taken) or stopped.
    CaptureListen = "capture.listen", Busy;
    /// The code to import could not be read (a missing file, not a module).
    CodeRead = "code.read", BadInput;
    /// The Python interpreter could not be started, or printed nothing Baton understands.
    CodePython = "code.python", BadInput;
    /// The module could not be imported (a syntax error, an exception, a missing package).
    CodeModule = "code.module", BadInput;
    /// The module builds no agent.
    CodeNoAgents = "code.no_agents", BadInput;
    /// The entry agent is ambiguous or unknown.
    CodeEntry = "code.entry", BadInput;
    /// The module's code would run without an OS sandbox, and the user did not trust it.
    CodeSandbox = "code.sandbox", BadInput;
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of every command: `{code, message}` on the wire.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error, ts_rs::TS)]
#[error("{message}")]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
}

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError { code, message: message.into() }
    }

    pub fn category(&self) -> Category {
        self.code.category()
    }

    /// The same error with more said after its message.
    pub fn with_suffix(mut self, suffix: &str) -> ApiError {
        self.message.push_str(suffix);
        self
    }
}

/// An error that knows its stable code.
pub trait Coded: std::fmt::Display {
    fn code(&self) -> ErrorCode;
}

impl<E: Coded> From<E> for ApiError {
    fn from(e: E) -> Self {
        ApiError::new(e.code(), e.to_string())
    }
}
