//! `baton providers check`: which providers have a key, where it comes from, and whether
//! their endpoint answers (and accepts the key).

use super::keys;
use crate::topology::Provider;
use serde::{Deserialize, Serialize};
use std::time::Duration;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct ProviderStatus {
    pub provider: String,
    /// Where the key comes from (`$OPENAI_API_KEY`, `OS keyring`), or none.
    pub key: Option<String>,
    pub base_url: Option<String>,
    /// Whether the endpoint answered and accepted the key.
    pub reachable: bool,
    /// What happened, in words.
    pub detail: String,
}

pub const REAL: [Provider; 5] =
    [Provider::Openai, Provider::OpenaiResponses, Provider::Anthropic, Provider::Gemini, Provider::OpenaiCompatible];

/// Checks every real provider (in parallel, 5 s each).
pub async fn check_all() -> Vec<ProviderStatus> {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .redirect(super::http::same_origin_redirects())
        .build()
        .expect("static client settings");
    futures::future::join_all(REAL.iter().map(|p| check(&client, *p))).await
}

async fn check(client: &reqwest::Client, p: Provider) -> ProviderStatus {
    let key = keys::key(p);
    let base = keys::base_url(p, None);
    let mut st = ProviderStatus {
        provider: p.as_str().into(),
        key: key.as_ref().map(|(_, s)| s.to_string()),
        base_url: base.clone(),
        reachable: false,
        detail: String::new(),
    };
    let Some(base) = base else {
        st.detail = "no base URL: set OPENAI_COMPATIBLE_BASE_URL or an agent's base_url".into();
        return st;
    };
    if key.is_none() && p != Provider::OpenaiCompatible {
        st.detail = format!(
            "not configured: export {} or `baton providers set-key {}`",
            keys::key_vars(p).join(" or "),
            p.as_str()
        );
        return st;
    }
    let b = base.trim_end_matches('/');
    let k = key.map(|(k, _)| k).unwrap_or_default();
    let req = match p {
        Provider::Anthropic => client
            .get(format!("{b}/v1/models"))
            .header("x-api-key", &k)
            .header("anthropic-version", super::anthropic::API_VERSION),
        Provider::Gemini => client.get(format!("{b}/v1beta/models")).header("x-goog-api-key", &k),
        _ if k.is_empty() => client.get(format!("{b}/models")),
        _ => client.get(format!("{b}/models")).bearer_auth(&k),
    };
    match req.send().await {
        Ok(r) if r.status().is_success() => {
            st.reachable = true;
            st.detail = format!("reachable (HTTP {})", r.status().as_u16());
        }
        Ok(r) => {
            let status = r.status().as_u16();
            let body = r.text().await.unwrap_or_default();
            st.detail = format!("answered HTTP {status}: {}", super::http::error_message(&body));
        }
        Err(e) => st.detail = format!("unreachable: {e}"),
    }
    st
}
