//! Baton's core: the topology model, config, lint, exports, the run engine, traces and the
//! host-agnostic command layer shared by the CLI and the desktop app. No Tauri in here.

pub mod api;
pub mod collect;
pub mod config;
pub mod context;
pub mod crash;
pub mod engine;
pub mod error;
pub mod export;
pub mod fork;
pub mod import;
pub mod import_code;
pub mod judge;
pub mod lint;
pub mod log;
pub mod matrix;
pub mod providers;
pub mod refactor;
pub mod serve;
pub mod store;
pub mod suspects;
pub mod testing;
pub mod topology;
pub mod trace;
pub mod whatif;
