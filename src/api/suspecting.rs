//! `suspects`: a saved run's suspects at every transfer and its verdict.

use super::Api;
use super::runs::RunIdArgs;
use crate::error::ApiError;
use crate::suspects::{SuspectReport, suspects};
use std::sync::Arc;

impl Api {
    pub async fn suspects(self: &Arc<Self>, a: RunIdArgs) -> Result<SuspectReport, ApiError> {
        let trace = self.load_trace(&a.run_id).await?;
        super::blocking(move || Ok(suspects(&trace))).await
    }
}
