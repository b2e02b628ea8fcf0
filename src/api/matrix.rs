//! `run_matrix`: the model matrix from the app, its runs saved so each cell opens its run.

use super::Api;
use crate::error::ApiError;
use crate::matrix::{MatrixReport, MatrixSpec, Price, run_matrix};
use crate::topology::Topology;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// An agent and the models it tries.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Vary {
    pub agent: String,
    /// `PROVIDER:MODEL[@URL]` each.
    pub models: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct MatrixArgs {
    pub topology: Topology,
    pub vary: Vec<Vary>,
    /// Scenario names (all when empty).
    #[serde(default)]
    #[ts(optional)]
    pub scenarios: Option<Vec<String>>,
    #[serde(default)]
    #[ts(optional)]
    pub repeat: Option<u32>,
    /// Agents that are not varied answer from the mock scripts.
    #[serde(default)]
    #[ts(optional)]
    pub mock_rest: Option<bool>,
    /// `PROVIDER:MODEL` → price per million tokens.
    #[serde(default)]
    #[ts(optional)]
    pub prices: Option<BTreeMap<String, Price>>,
}

impl Api {
    pub async fn run_matrix(self: &Arc<Self>, a: MatrixArgs) -> Result<MatrixReport, ApiError> {
        let mut t = a.topology;
        t.normalize();
        let vary: Vec<(String, Vec<String>)> = a.vary.into_iter().map(|v| (v.agent, v.models)).collect();
        if a.mock_rest.unwrap_or(false) {
            crate::matrix::mock_the_rest(&mut t, &vary);
        }
        let spec = MatrixSpec {
            vary,
            scenarios: a.scenarios.unwrap_or_default(),
            repeat: a.repeat.unwrap_or(1),
            concurrency: 4,
            rate_per_provider: None,
            prices: a.prices.unwrap_or_default(),
            store: Some(self.store().await?.clone()),
        };
        run_matrix(&t, &spec, Arc::new(|_, _| {})).await
    }
}
