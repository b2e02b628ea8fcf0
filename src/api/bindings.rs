//! The TypeScript bindings of every type that crosses to the UI, generated with ts-rs into
//! `ui/src/bindings/` (checked in; `tests/bindings.rs` fails when they are stale).

use ts_rs::{Config, TS};

/// Writes every binding (and the types they depend on) into `dir`.
pub fn export_all(dir: &std::path::Path) -> Result<(), ts_rs::ExportError> {
    let cfg = Config::new().with_out_dir(dir);
    crate::topology::Topology::export_all(&cfg)?;
    crate::api::OpenedTopology::export_all(&cfg)?;
    crate::api::ApiError::export_all(&cfg)?;
    crate::lint::Finding::export_all(&cfg)?;
    crate::context::Item::export_all(&cfg)?;
    crate::trace::Step::export_all(&cfg)?;
    crate::trace::Transfer::export_all(&cfg)?;
    crate::trace::Outcome::export_all(&cfg)?;
    Ok(())
}
