//! Settings: provider keys (into and out of the OS keyring), which providers answer, and the
//! catalog of choices the UI offers, with their labels, so no host keeps its own list.

use super::{Api, NoArgs, blocking};
use crate::error::{ApiError, ErrorCode};
use crate::export::ExportFormat;
use crate::import::TraceFormat;
use crate::providers::{ProviderStatus, keys};
use crate::topology::Provider;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct SetKeyArgs {
    pub provider: Provider,
    pub key: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct DeleteKeyArgs {
    pub provider: Provider,
}

/// One choice of a list: its value, what the UI calls it, and a line more.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
pub struct Choice<T> {
    pub value: T,
    pub label: String,
    pub detail: String,
}

/// Every list the UI offers.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
pub struct Catalog {
    /// Every provider, the mock first.
    pub providers: Vec<Choice<Provider>>,
    /// The providers that call a real model (the Settings table).
    pub real_providers: Vec<Provider>,
    /// Export formats; `detail` is the file extension.
    pub export_formats: Vec<Choice<ExportFormat>>,
    pub trace_formats: Vec<Choice<TraceFormat>>,
}

/// The catalog (also written into the generated TypeScript, so the UI has it before any call).
pub fn catalog() -> Catalog {
    use clap::ValueEnum;
    Catalog {
        providers: Provider::value_variants()
            .iter()
            .map(|p| Choice { value: *p, label: p.label().into(), detail: p.detail().into() })
            .collect(),
        real_providers: crate::providers::REAL.to_vec(),
        export_formats: ExportFormat::value_variants()
            .iter()
            .map(|f| Choice { value: *f, label: f.label().into(), detail: f.extension().into() })
            .collect(),
        trace_formats: TraceFormat::value_variants()
            .iter()
            .map(|f| Choice { value: *f, label: f.label().into(), detail: String::new() })
            .collect(),
    }
}

impl Api {
    pub async fn provider_status(self: &Arc<Self>, _: NoArgs) -> Result<Vec<ProviderStatus>, ApiError> {
        Ok(crate::providers::check_all().await)
    }

    pub async fn set_provider_key(self: &Arc<Self>, a: SetKeyArgs) -> Result<(), ApiError> {
        if a.key.trim().is_empty() {
            return Err(ApiError::new(ErrorCode::ProvidersKey, "the key is empty; paste the provider's API key"));
        }
        blocking(move || keys::store_key(a.provider, &a.key)).await
    }

    pub async fn delete_provider_key(self: &Arc<Self>, a: DeleteKeyArgs) -> Result<(), ApiError> {
        blocking(move || keys::delete_key(a.provider)).await
    }

    pub async fn catalog(self: &Arc<Self>, _: NoArgs) -> Result<Catalog, ApiError> {
        Ok(catalog())
    }
}
