//! The one error shape every host shows: a stable `code` and a message that says what, where
//! and how to fix it.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error, ts_rs::TS)]
#[error("{message}")]
pub struct ApiError {
    pub code: String,
    pub message: String,
}

impl ApiError {
    pub fn new(code: &str, message: impl Into<String>) -> ApiError {
        ApiError { code: code.into(), message: message.into() }
    }
}

impl From<crate::config::ConfigError> for ApiError {
    fn from(e: crate::config::ConfigError) -> Self {
        ApiError::new(e.code(), e.to_string())
    }
}

impl From<crate::refactor::RefactorError> for ApiError {
    fn from(e: crate::refactor::RefactorError) -> Self {
        ApiError::new(e.code(), e.to_string())
    }
}

impl From<crate::topology::ValidationError> for ApiError {
    fn from(e: crate::topology::ValidationError) -> Self {
        ApiError::new("topology.invalid", e.to_string())
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> Self {
        ApiError::new(e.code(), e.to_string())
    }
}

impl From<crate::engine::EngineError> for ApiError {
    fn from(e: crate::engine::EngineError) -> Self {
        ApiError::new(e.code(), e.to_string())
    }
}
