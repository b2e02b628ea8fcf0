//! `test_topology`: every scenario of a topology that carries `expect:`, run (mock) and
//! checked, as `baton test` does it; the app's Tests panel shows the results.

use super::Api;
use crate::error::ApiError;
use crate::testing::{CaseResult, run_case};
use crate::topology::Topology;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct TestArgs {
    pub topology: Topology,
    /// Only this scenario.
    #[serde(default)]
    #[ts(optional)]
    pub scenario: Option<String>,
}

impl Api {
    pub async fn test_topology(self: &Arc<Self>, mut a: TestArgs) -> Result<Vec<CaseResult>, ApiError> {
        a.topology.normalize();
        let mut out = vec![];
        for s in a.topology.scenarios.iter().filter(|s| !s.expect.is_empty()) {
            if a.scenario.as_ref().is_some_and(|w| w != &s.name) {
                continue;
            }
            out.push(run_case(&a.topology, s, false, "").await);
        }
        Ok(out)
    }
}
