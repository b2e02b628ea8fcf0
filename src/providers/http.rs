//! HTTP for every real provider, with faults handled the way the official SDKs handle them:
//! `retry-after-ms` / `retry-after` (seconds or an HTTP date, up to a cap), otherwise exponential
//! backoff with jitter; retries on 408, 409, 429 and 5xx (Anthropic's 529 too) but not on other
//! 4xx or a quota-exhausted 429; connect and read timeouts; cancellation at any point.

use super::ModelError;
use futures::StreamExt;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// What every real provider needs to reach one model: where, with which key, which model and
/// sampling settings, and how to retry and cancel.
pub struct Endpoint {
    pub label: &'static str,
    pub base_url: String,
    /// Goes into a request header only.
    pub key: Option<String>,
    pub model: String,
    pub temperature: Option<f64>,
    pub top_p: Option<f64>,
    pub max_tokens: Option<u32>,
    pub stream: bool,
    pub policy: HttpPolicy,
    pub client: reqwest::Client,
    pub cancel: CancellationToken,
}

impl Endpoint {
    /// Writes the sampling settings that are set into `body`, under the provider's own names
    /// (temperature, top-p, max-tokens; `None` when the provider has no such field).
    pub fn sampling(&self, body: &mut serde_json::Map<String, serde_json::Value>, names: [Option<&str>; 3]) {
        let values = [
            self.temperature.map(serde_json::Value::from),
            self.top_p.map(serde_json::Value::from),
            self.max_tokens.map(serde_json::Value::from),
        ];
        for (name, value) in names.into_iter().zip(values) {
            if let (Some(n), Some(v)) = (name, value) {
                body.insert(n.to_owned(), v);
            }
        }
    }
}

/// Retry and timeout settings (the SDKs' defaults).
#[derive(Debug, Clone)]
pub struct HttpPolicy {
    pub max_retries: u32,
    pub initial_backoff: Duration,
    pub max_backoff: Duration,
    /// A server's `retry-after` longer than this is not honoured (backoff is used instead).
    pub max_retry_after: Duration,
    pub connect_timeout: Duration,
    /// No byte for this long ends the request.
    pub read_timeout: Duration,
    /// Retries made under this policy (shared by its clones), so a report can show them.
    pub retries: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl Default for HttpPolicy {
    fn default() -> Self {
        HttpPolicy {
            max_retries: 2,
            initial_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(60),
            connect_timeout: Duration::from_secs(10),
            read_timeout: Duration::from_secs(600),
            retries: Default::default(),
        }
    }
}

impl HttpPolicy {
    /// Settings from the environment: `BATON_HTTP_MAX_RETRIES`, `BATON_HTTP_READ_TIMEOUT_MS`,
    /// `BATON_HTTP_BACKOFF_MS` (tests and slow local models use them).
    pub fn from_env() -> HttpPolicy {
        let mut p = HttpPolicy::default();
        let num = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
        if let Some(n) = num("BATON_HTTP_MAX_RETRIES") {
            p.max_retries = n as u32;
        }
        if let Some(ms) = num("BATON_HTTP_READ_TIMEOUT_MS") {
            p.read_timeout = Duration::from_millis(ms);
        }
        if let Some(ms) = num("BATON_HTTP_BACKOFF_MS") {
            p.initial_backoff = Duration::from_millis(ms);
        }
        p
    }

    /// The SDKs' backoff: min(initial * 2^n, max), less up to 25% jitter.
    pub fn backoff(&self, retry: u32) -> Duration {
        let base = self.initial_backoff.saturating_mul(2u32.saturating_pow(retry)).min(self.max_backoff);
        base.mul_f64(1.0 - 0.25 * fastrand::f64())
    }

    /// How long the server asked us to wait, if it did and it is reasonable.
    pub fn retry_after(&self, headers: &reqwest::header::HeaderMap) -> Option<Duration> {
        let get = |k: &str| headers.get(k).and_then(|v| v.to_str().ok()).map(str::trim);
        // A server may send anything: NaN, inf, -5 or 1e300 are not waits (backoff is used).
        let secs = |s: f64| Duration::try_from_secs_f64(s).ok();
        let d = if let Some(ms) = get("retry-after-ms").and_then(|v| v.parse::<f64>().ok()) {
            secs(ms / 1000.0)
        } else if let Some(v) = get("retry-after") {
            match v.parse::<f64>() {
                Ok(s) => secs(s),
                Err(_) => httpdate::parse_http_date(v)
                    .ok()
                    .map(|t| t.duration_since(std::time::SystemTime::now()).unwrap_or(Duration::ZERO)),
            }
        } else {
            None
        };
        d.filter(|d| *d <= self.max_retry_after)
    }
}

/// Whether a failed status is worth retrying (and the server did not say otherwise).
pub fn retryable(status: u16, headers: &reqwest::header::HeaderMap, body: &str) -> bool {
    match headers.get("x-should-retry").and_then(|v| v.to_str().ok()) {
        Some("true") => return true,
        Some("false") => return false,
        _ => {}
    }
    if status == 429 && quota_exhausted(body) {
        return false;
    }
    matches!(status, 408 | 409 | 429 | 529) || status >= 500
}

/// A 429 that no wait will fix: the account is out of quota or credit.
fn quota_exhausted(body: &str) -> bool {
    let b = body.to_ascii_lowercase();
    b.contains("insufficient_quota")
        || b.contains("exceeded your current quota")
        || b.contains("credit balance is too low")
}

/// The provider's own error message from an error body, else the body itself (clipped).
pub fn error_message(body: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
    let msg = v
        .pointer("/error/message")
        .or_else(|| v.pointer("/message"))
        .or_else(|| v.pointer("/0/error/message"))
        .and_then(|m| m.as_str());
    let m: String = match msg {
        Some(m) => m.to_owned(),
        None => body.chars().take(300).collect(),
    };
    super::redact::redact(&m).into_owned()
}

/// A key travels in a header; a redirect to another host would carry it there (reqwest strips
/// only `Authorization`, not `x-api-key` or `x-goog-api-key`), so only same-origin redirects are
/// followed. Every client that sends a key uses this.
pub fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let same = attempt.previous().last().is_some_and(|prev| {
            prev.scheme() == attempt.url().scheme()
                && prev.host_str() == attempt.url().host_str()
                && prev.port_or_known_default() == attempt.url().port_or_known_default()
        });
        if !same {
            attempt.stop()
        } else if attempt.previous().len() > 5 {
            attempt.error("too many redirects")
        } else {
            attempt.follow()
        }
    })
}

/// A client with the policy's timeouts. Keys go into headers per request, never into URLs.
pub fn client(policy: &HttpPolicy) -> reqwest::Client {
    reqwest::Client::builder()
        .connect_timeout(policy.connect_timeout)
        .read_timeout(policy.read_timeout)
        .user_agent(concat!("baton/", env!("CARGO_PKG_VERSION")))
        .redirect(same_origin_redirects())
        .build()
        .expect("an HTTP client with static settings builds")
}

/// One logical request with retries. Returns the successful response (its body unread).
pub async fn send_with_retries(
    provider: &str,
    policy: &HttpPolicy,
    cancel: &CancellationToken,
    make: impl Fn() -> reqwest::RequestBuilder,
) -> Result<reqwest::Response, ModelError> {
    let mut retry = 0;
    loop {
        let sent = tokio::select! {
            r = make().send() => r,
            _ = cancel.cancelled() => return Err(ModelError::Cancelled),
        };
        let (wait, err) = match sent {
            Ok(resp) if resp.status().is_success() => return Ok(resp),
            Ok(resp) => {
                let status = resp.status().as_u16();
                let headers = resp.headers().clone();
                let body = tokio::select! {
                    b = resp.text() => b.unwrap_or_default(),
                    _ = cancel.cancelled() => return Err(ModelError::Cancelled),
                };
                let message = if (300..400).contains(&status) {
                    let to = headers.get("location").and_then(|v| v.to_str().ok()).unwrap_or("?");
                    format!(
                        "the server redirected to {to}, another host; Baton does not follow a redirect that would carry your key elsewhere — set the provider's base URL to the final address"
                    )
                } else {
                    error_message(&body)
                };
                let err = ModelError::Http { provider: provider.into(), status, message };
                if !retryable(status, &headers, &body) {
                    return Err(err);
                }
                (policy.retry_after(&headers).unwrap_or_else(|| policy.backoff(retry)), err)
            }
            Err(e) => {
                let what = if e.is_timeout() {
                    "timed out"
                } else if e.is_connect() {
                    "could not connect"
                } else {
                    "request failed"
                };
                // reqwest errors name the URL; ours carry no key in URLs.
                let err = ModelError::Transport { provider: provider.into(), message: format!("{what}: {e}") };
                (policy.backoff(retry), err)
            }
        };
        if retry >= policy.max_retries {
            return Err(err);
        }
        retry += 1;
        policy.retries.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = cancel.cancelled() => return Err(ModelError::Cancelled),
        }
    }
}

/// Reads a whole successful response body as JSON.
pub async fn json_body(
    provider: &str,
    resp: reqwest::Response,
    cancel: &CancellationToken,
) -> Result<serde_json::Value, ModelError> {
    let text = tokio::select! {
        t = resp.text() => t.map_err(|e| ModelError::Transport { provider: provider.into(), message: format!("reading the response failed: {e}") })?,
        _ = cancel.cancelled() => return Err(ModelError::Cancelled),
    };
    serde_json::from_str(&text).map_err(|e| ModelError::Protocol {
        provider: provider.into(),
        message: format!("the body is not JSON ({e}): {}", text.chars().take(200).collect::<String>()),
    })
}

/// The largest server-sent event Baton reads (a model's whole answer fits many times over).
pub const MAX_SSE_EVENT: usize = 2 << 20;

/// How long one streamed model call may take in all, whatever arrives meanwhile (a stream
/// that only sends keep-alives would otherwise never end). `BATON_HTTP_DEADLINE_MS` overrides.
pub fn call_deadline() -> Duration {
    std::env::var("BATON_HTTP_DEADLINE_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map(Duration::from_millis)
        .unwrap_or(Duration::from_secs(900))
}

/// Server-sent events of a successful streaming response, as (event name, data) pairs.
/// A stream that ends before `done` says so is an error; so is an event past
/// [`MAX_SSE_EVENT`] (refused as it arrives, not buffered) and a call past [`call_deadline`].
pub async fn sse_events(
    provider: &str,
    resp: reqwest::Response,
    cancel: &CancellationToken,
    mut on_event: impl FnMut(&str, &str) -> Result<bool, ModelError>,
) -> Result<(), ModelError> {
    use eventsource_stream::Eventsource;
    // Bytes since the last blank line (an event's end): past the cap, the stream is cut.
    let mut pending = 0usize;
    let mut last = 0u8;
    let bytes = resp.bytes_stream().map(move |chunk| {
        let chunk = chunk?;
        for &b in chunk.iter() {
            if b == b'\n' && last == b'\n' {
                pending = 0;
            } else if b != b'\r' {
                pending += 1;
            }
            if b != b'\r' {
                last = b;
            }
        }
        Ok::<_, reqwest::Error>((chunk, pending))
    });
    let too_big = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = too_big.clone();
    let bytes = bytes
        .take_while(move |r| {
            let over = matches!(r, Ok((_, p)) if *p > MAX_SSE_EVENT);
            if over {
                flag.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            futures::future::ready(!over)
        })
        .map(|r| r.map(|(c, _)| c));
    let mut stream = Box::pin(bytes.eventsource());
    let deadline = tokio::time::sleep(call_deadline());
    tokio::pin!(deadline);
    loop {
        let next = tokio::select! {
            n = stream.next() => n,
            _ = cancel.cancelled() => return Err(ModelError::Cancelled),
            _ = &mut deadline => {
                return Err(ModelError::Transport {
                    provider: provider.into(),
                    message: format!("timed out: the stream went on past {} s without finishing", call_deadline().as_secs()),
                });
            }
        };
        match next {
            None if too_big.load(std::sync::atomic::Ordering::Relaxed) => {
                return Err(ModelError::Protocol {
                    provider: provider.into(),
                    message: format!(
                        "a stream event is larger than {} MB; Baton stopped reading it",
                        MAX_SSE_EVENT >> 20
                    ),
                });
            }
            None => {
                return Err(ModelError::Protocol {
                    provider: provider.into(),
                    message: "the stream ended before the response was complete".into(),
                });
            }
            Some(Err(e)) => {
                return Err(ModelError::Transport {
                    provider: provider.into(),
                    message: format!("the stream broke: {e}"),
                });
            }
            Some(Ok(ev)) => {
                if on_event(&ev.event, &ev.data)? {
                    return Ok(());
                }
            }
        }
    }
}

/// Parses one SSE data payload as JSON.
pub fn sse_json(provider: &str, data: &str) -> Result<serde_json::Value, ModelError> {
    serde_json::from_str(data).map_err(|e| ModelError::Protocol {
        provider: provider.into(),
        message: format!("a stream event is not JSON ({e}): {}", data.chars().take(200).collect::<String>()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::{HeaderMap, HeaderValue};

    #[test]
    fn retry_after_forms() {
        let p = HttpPolicy::default();
        let mut h = HeaderMap::new();
        h.insert("retry-after-ms", HeaderValue::from_static("1500"));
        assert_eq!(p.retry_after(&h), Some(Duration::from_millis(1500)));
        let mut h = HeaderMap::new();
        h.insert("retry-after", HeaderValue::from_static("2"));
        assert_eq!(p.retry_after(&h), Some(Duration::from_secs(2)));
        let mut h = HeaderMap::new();
        let at = httpdate::fmt_http_date(std::time::SystemTime::now() + Duration::from_secs(30));
        h.insert("retry-after", HeaderValue::from_str(&at).unwrap());
        let d = p.retry_after(&h).unwrap();
        assert!(d > Duration::from_secs(25) && d <= Duration::from_secs(30), "{d:?}");
        let mut h = HeaderMap::new();
        h.insert("retry-after", HeaderValue::from_static("3600"));
        assert_eq!(p.retry_after(&h), None, "too long a wait is not honoured");
    }

    #[test]
    fn hostile_retry_after_values_are_not_waits() {
        let p = HttpPolicy::default();
        for (k, v) in [
            ("retry-after-ms", "NaN"),
            ("retry-after-ms", "-5"),
            ("retry-after-ms", "inf"),
            ("retry-after-ms", "1e300"),
            ("retry-after", "inf"),
            ("retry-after", "-1"),
            ("retry-after", "NaN"),
            ("retry-after", "soon"),
        ] {
            let mut h = HeaderMap::new();
            h.insert(k, HeaderValue::from_static(v));
            assert_eq!(p.retry_after(&h), None, "{k}: {v}");
        }
    }

    #[test]
    fn which_statuses_retry() {
        let h = HeaderMap::new();
        for s in [408, 409, 429, 500, 502, 503, 529] {
            assert!(retryable(s, &h, ""), "{s}");
        }
        for s in [400, 401, 403, 404, 422] {
            assert!(!retryable(s, &h, ""), "{s}");
        }
        assert!(!retryable(429, &h, r#"{"error":{"code":"insufficient_quota"}}"#));
        let mut no = HeaderMap::new();
        no.insert("x-should-retry", HeaderValue::from_static("false"));
        assert!(!retryable(500, &no, ""));
    }

    #[test]
    fn backoff_grows_with_jitter_and_a_cap() {
        let p = HttpPolicy::default();
        for r in 0..8 {
            let b = p.backoff(r);
            let base = Duration::from_millis(500).saturating_mul(1 << r).min(Duration::from_secs(8));
            assert!(b <= base && b >= base.mul_f64(0.75), "{r}: {b:?}");
        }
    }
}
