//! `what_if`: every context policy at one handoff of a saved run, from the recording alone.

use super::Api;
use super::runs::TransferArgs;
use crate::error::ApiError;
use crate::trace::Trace;
use crate::whatif::{WhatIf, what_if};
use std::sync::Arc;

/// The pinned facts a run checks: its topology's (a native run's, or an imported run's overlay).
pub fn run_facts(trace: &Trace) -> Vec<crate::topology::PinnedFact> {
    trace.definition.as_ref().map(|t| t.facts.clone()).unwrap_or_default()
}

impl Api {
    pub async fn what_if(self: &Arc<Self>, a: TransferArgs) -> Result<WhatIf, ApiError> {
        let trace = self.load_trace(&a.run_id).await?;
        super::blocking(move || Ok(what_if(&trace, a.index, &run_facts(&trace))?)).await
    }
}
