//! Baton's integration tests, in one binary (one link instead of thirteen): one module per
//! area. `cargo test --test it <module>` runs one area, e.g. `cargo test --test it serve`.

mod common;

mod bindings;
mod cli;
mod collect;
mod concurrency;
mod config;
mod engine;
mod export_langgraph;
mod export_python;
mod fidelity;
mod fork;
mod frameworks;
mod guardrails;
mod import;
mod import_code;
mod import_fixtures;
mod lint;
mod logs;
mod matrix;
mod paging;
mod prove;
mod providers;
mod real_groupchat;
mod real_model;
mod real_traces;
mod robustness;
mod runs_home;
mod serve;
mod snapshots;
mod store;
mod suspects;
mod testing;
mod timing;
mod verify;
mod whatif;
