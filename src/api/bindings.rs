//! The TypeScript bindings of every type that crosses to the UI, generated with ts-rs into
//! `ui/src/bindings/` (checked in; `tests/bindings.rs` fails when they are stale).

use ts_rs::{Config, TS};

/// Writes every binding (and the types they depend on) into `dir`.
pub fn export_all(dir: &std::path::Path) -> Result<(), ts_rs::ExportError> {
    let cfg = Config::new().with_out_dir(dir);
    // ts-rs does not follow into the shadow type of serde_json::Value on its own.
    <serde_json::Value as TS>::export(&cfg)?;
    crate::topology::Topology::export_all(&cfg)?;
    crate::api::OpenedTopology::export_all(&cfg)?;
    crate::api::ApiError::export_all(&cfg)?;
    crate::lint::Finding::export_all(&cfg)?;
    crate::context::Item::export_all(&cfg)?;
    crate::trace::Step::export_all(&cfg)?;
    crate::trace::Transfer::export_all(&cfg)?;
    crate::trace::Outcome::export_all(&cfg)?;
    crate::store::RunSummary::export_all(&cfg)?;
    crate::store::RunOverview::export_all(&cfg)?;
    crate::store::StepView::export_all(&cfg)?;
    crate::store::TransferView::export_all(&cfg)?;
    crate::api::LiveEvent::export_all(&cfg)?;
    crate::api::StartRunArgs::export_all(&cfg)?;
    crate::api::FileEntry::export_all(&cfg)?;
    crate::providers::ProviderStatus::export_all(&cfg)?;
    Ok(())
}
