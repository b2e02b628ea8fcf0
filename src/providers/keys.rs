//! API keys and endpoints. Keys come from the environment or the OS keyring (service `baton`,
//! one entry per provider) and go only into request headers: never into a topology, a trace,
//! the store, an export or a log.

use crate::error::{ApiError, ErrorCode};
use crate::topology::Provider;

/// Environment variables holding a provider's key, in order of preference.
pub fn key_vars(p: Provider) -> &'static [&'static str] {
    match p {
        Provider::Openai | Provider::OpenaiResponses => &["OPENAI_API_KEY"],
        Provider::Anthropic => &["ANTHROPIC_API_KEY"],
        Provider::Gemini => &["GEMINI_API_KEY", "GOOGLE_API_KEY"],
        Provider::OpenaiCompatible => &["OPENAI_COMPATIBLE_API_KEY"],
        Provider::Mock => &[],
    }
}

/// The keyring entry a provider's key lives under (the Responses API shares OpenAI's).
fn keyring_user(p: Provider) -> &'static str {
    match p {
        Provider::OpenaiResponses => Provider::Openai.as_str(),
        other => other.as_str(),
    }
}

fn entry(p: Provider) -> Option<keyring::Entry> {
    keyring::Entry::new("baton", keyring_user(p)).ok()
}

/// Where a key was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySource {
    Env(&'static str),
    Keyring,
}

impl std::fmt::Display for KeySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeySource::Env(v) => write!(f, "${v}"),
            KeySource::Keyring => f.write_str("OS keyring"),
        }
    }
}

/// The provider's key and where it came from.
pub fn key(p: Provider) -> Option<(String, KeySource)> {
    for v in key_vars(p) {
        if let Some(k) = std::env::var(v).ok().filter(|k| !k.trim().is_empty()) {
            super::redact::remember(&k);
            return Some((k.trim().to_owned(), KeySource::Env(v)));
        }
    }
    if p == Provider::Mock || std::env::var_os("BATON_NO_KEYRING").is_some() {
        return None;
    }
    let k = entry(p)?.get_password().ok().filter(|k| !k.is_empty())?;
    super::redact::remember(&k);
    Some((k, KeySource::Keyring))
}

fn keyring_error(m: String) -> ApiError {
    ApiError::new(ErrorCode::ProvidersKeyring, m)
}

/// Stores a key in the OS keyring.
pub fn store_key(p: Provider, key: &str) -> Result<(), ApiError> {
    if p == Provider::Mock {
        return Err(ApiError::new(ErrorCode::ProvidersKey, "the mock provider needs no key"));
    }
    let e = entry(p).ok_or_else(|| {
        keyring_error("the OS keyring is not available; set the key in the environment instead".into())
    })?;
    e.set_password(key.trim()).map_err(|e| keyring_error(format!("the OS keyring refused the key: {e}")))
}

/// Removes a key from the OS keyring.
pub fn delete_key(p: Provider) -> Result<(), ApiError> {
    let e = entry(p).ok_or_else(|| keyring_error("the OS keyring is not available".into()))?;
    match e.delete_credential() {
        Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
        Err(e) => Err(keyring_error(format!("the OS keyring refused: {e}"))),
    }
}

/// The base URL for a provider: the agent's `base_url`, else the environment (as the official
/// SDKs read it), else the official endpoint.
pub fn base_url(p: Provider, agent_base: Option<&str>) -> Option<String> {
    if let Some(b) = agent_base.filter(|b| !b.is_empty()) {
        return Some(b.to_owned());
    }
    let env = |v: &str| std::env::var(v).ok().filter(|s| !s.is_empty());
    match p {
        Provider::Openai | Provider::OpenaiResponses => {
            Some(env("OPENAI_BASE_URL").unwrap_or_else(|| "https://api.openai.com/v1".into()))
        }
        Provider::Anthropic => Some(env("ANTHROPIC_BASE_URL").unwrap_or_else(|| "https://api.anthropic.com".into())),
        Provider::Gemini => {
            Some(env("GEMINI_BASE_URL").unwrap_or_else(|| "https://generativelanguage.googleapis.com".into()))
        }
        Provider::OpenaiCompatible => env("OPENAI_COMPATIBLE_BASE_URL"),
        Provider::Mock => None,
    }
}
