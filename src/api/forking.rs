//! `fork_run`: a saved run forked at a step with the user's changes, re-run under the replay
//! provider and saved as a new run linked to its parent.

use super::Api;
use crate::error::ApiError;
use crate::fork::{ForkInfo, ForkSpec, fork};
use crate::trace::Outcome;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct ForkArgs {
    pub run_id: String,
    pub fork: ForkSpec,
}

/// The saved fork.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
pub struct ForkedRun {
    pub run_id: String,
    pub fork: ForkInfo,
    pub outcome: Outcome,
}

impl Api {
    pub async fn fork_run(self: &Arc<Self>, a: ForkArgs) -> Result<ForkedRun, ApiError> {
        let parent = self.load_trace(&a.run_id).await?;
        let trace = fork(&parent, &a.run_id, &a.fork, Default::default()).await?;
        let run_id = self.store().await?.save_trace(&trace).await?;
        Ok(ForkedRun { run_id, fork: trace.fork.clone().expect("a fork's trace"), outcome: trace.outcome })
    }
}
