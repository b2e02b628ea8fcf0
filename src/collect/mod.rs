//! Baton as a local OTLP endpoint (`baton collect`): OTLP/HTTP `POST /v1/traces` in protobuf or
//! JSON, gzip or not, from the exporters the frameworks already use; runs and transfer diffs are
//! saved to the store as the traces complete. Locked down like `baton serve`: loopback by
//! default, `Host` checked, any browser `Origin` refused, sizes limited.

mod decode;
pub mod grpc;
pub mod live;
mod shared;

use crate::serve::Guard;
use crate::store::Store;
use crate::trace::Trace;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use decode::{Encoding, Refused};
pub use live::{Lane, Live, Saved, Taken};
use opentelemetry_proto::tonic::collector::trace::v1::{ExportTracePartialSuccess, ExportTraceServiceResponse};
use prost::Message;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// The OTLP/HTTP port (the exporters' default).
pub const DEFAULT_HTTP_PORT: u16 = 4318;
/// The OTLP/gRPC port.
pub const DEFAULT_GRPC_PORT: u16 = 4317;
/// The largest request body taken as sent (compressed or not).
pub const MAX_BODY: usize = 16 << 20;
/// The largest body after gzip decompression.
pub const MAX_INFLATED: usize = 64 << 20;

#[derive(Clone)]
struct Shared {
    live: Arc<Live>,
    guard: Arc<Guard>,
}

/// The receiver's routes; completed traces are saved by [`Live::complete`], which the caller runs
/// on a timer (and once more at shutdown).
pub fn router(live: Arc<Live>, guard: Guard) -> Router {
    Router::new()
        .route("/v1/traces", post(traces))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(Shared { live, guard: Arc::new(guard) })
}

/// What the receiver makes of one request body, without a server or store: the body inflated
/// and decoded as `POST /v1/traces` does (`content_type` as sent, gzip or not), its spans grouped
/// by trace, and each trace built as it would be saved, or why not. The request path of
/// `collect` the fuzz target drives; a refused body is `Err` with what the exporter would be told.
pub fn runs_of_request(body: &[u8], content_type: &str, gzip: bool) -> Result<Vec<Result<Trace, String>>, String> {
    let encoding = Encoding::from_content_type(content_type).map_err(|r| r.to_string())?;
    let inflated = decode::inflate(body, gzip, MAX_INFLATED).map_err(|r| r.to_string())?;
    let (spans, _, _) = decode::spans(&inflated, encoding).map_err(|r| r.to_string())?;
    let mut traces: std::collections::BTreeMap<String, Vec<crate::import::otlp::Span>> = Default::default();
    for s in spans {
        traces.entry(s.trace_id.clone()).or_default().push(s);
    }
    Ok(traces
        .iter()
        .map(|(id, spans)| {
            let root_seen = spans.iter().any(|s| s.parent.is_empty());
            live::build_spans(id, spans, root_seen, false, "fuzz")
        })
        .collect())
}

/// An OTLP/HTTP error answer: a plain message (exporters log it), the status the spec gives.
fn refuse(status: StatusCode, message: String) -> Response {
    (status, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], message).into_response()
}

async fn traces(State(s): State<Shared>, headers: HeaderMap, body: Bytes) -> Response {
    // No browser page may post traces here: OTLP exporters send no Origin.
    if let Err(e) = s.guard.check(&headers) {
        return refuse(StatusCode::FORBIDDEN, e.message);
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        return refuse(
            StatusCode::FORBIDDEN,
            format!("refused: a web page ({}) may not send traces to Baton", origin.to_str().unwrap_or("?")),
        );
    }
    let ct = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let encoding = match Encoding::from_content_type(ct) {
        Ok(e) => e,
        Err(r) => return refused(r),
    };
    let gzip = headers
        .get(header::CONTENT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("gzip"));
    let live = s.live.clone();
    // Decoding is CPU work: off the async workers.
    let decoded = tokio::task::spawn_blocking(move || {
        let inflated = decode::inflate(&body, gzip, MAX_INFLATED)?;
        let spans = decode::spans(&inflated, encoding)?;
        Ok::<_, Refused>((body, spans))
    })
    .await;
    let (body, (spans, rejected, why)) = match decoded {
        Ok(Ok(d)) => d,
        Ok(Err(r)) => return refused(r),
        Err(e) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, format!("decoding stopped: {e}")),
    };
    // The inbox keeps the body as it came (compressed when it was): replay inflates it again.
    let name = match (encoding, gzip) {
        (Encoding::Json, false) => "json",
        (Encoding::Json, true) => "json+gzip",
        (Encoding::Protobuf, false) => "protobuf",
        (Encoding::Protobuf, true) => "protobuf+gzip",
    };
    // Acknowledged only once kept: the body is committed to the inbox first.
    let taken = match live.take(name, &body, spans).await {
        Ok(t) => t,
        Err(e) => {
            let mut r = refuse(StatusCode::SERVICE_UNAVAILABLE, format!("the store cannot keep the spans now: {e}"));
            r.headers_mut().insert(header::RETRY_AFTER, "2".parse().expect("a header value"));
            return r;
        }
    };
    match taken {
        Taken::Yes => {}
        Taken::Full(held) => {
            let mut r = refuse(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("Baton holds {held} spans waiting for their traces to end; retry shortly"),
            );
            r.headers_mut().insert(header::RETRY_AFTER, "2".parse().expect("a header value"));
            return r;
        }
        Taken::TooLarge(why) => return refuse(StatusCode::PAYLOAD_TOO_LARGE, why),
    }
    live.stats.rejected.fetch_add(rejected as u64, Ordering::Relaxed);
    let answer = ExportTraceServiceResponse {
        partial_success: (rejected > 0)
            .then(|| ExportTracePartialSuccess { rejected_spans: rejected, error_message: why.unwrap_or_default() }),
    };
    match encoding {
        Encoding::Protobuf => {
            ([(header::CONTENT_TYPE, "application/x-protobuf")], answer.encode_to_vec()).into_response()
        }
        Encoding::Json => {
            let body = match &answer.partial_success {
                Some(p) => {
                    serde_json::json!({"partialSuccess": {"rejectedSpans": p.rejected_spans.to_string(), "errorMessage": p.error_message}})
                }
                None => serde_json::json!({}),
            };
            ([(header::CONTENT_TYPE, "application/json")], body.to_string()).into_response()
        }
    }
}

fn refused(r: Refused) -> Response {
    match r {
        Refused::Malformed(m) => refuse(StatusCode::BAD_REQUEST, m),
        Refused::TooLarge(_) => refuse(StatusCode::PAYLOAD_TOO_LARGE, r.to_string()),
        Refused::MediaType(m) => refuse(StatusCode::UNSUPPORTED_MEDIA_TYPE, m),
    }
}

/// Saves completed traces every `every` until `stop` resolves, then saves the rest; reports each
/// saved run (or why a trace was not saved) through `report`. Large traces are saved in a lane
/// of their own ([`Lane`]), so that an ordinary trace never waits behind one.
pub async fn keep_saving(
    live: Arc<Live>,
    store: Store,
    every: std::time::Duration,
    stop: impl std::future::Future<Output = ()>,
    report: impl FnMut(Result<Saved, String>) + Send,
) {
    let (stopped, on_stop) = tokio::sync::watch::channel(false);
    let report = std::sync::Mutex::new(report);
    let lane = |lane: Lane| {
        let (live, store, mut on_stop, report) = (live.clone(), store.clone(), on_stop.clone(), &report);
        async move {
            let mut tick = tokio::time::interval(every);
            let say = |saved: Vec<Result<Saved, String>>| {
                let mut report = report.lock().expect("no panic while held");
                saved.into_iter().for_each(|r| (*report)(r));
            };
            loop {
                tokio::select! {
                    _ = on_stop.changed() => break,
                    _ = tick.tick() => say(live.complete(&store, false, lane).await),
                }
            }
            say(live.complete(&store, true, lane).await);
        }
    };
    let stopper = async move {
        stop.await;
        let _ = stopped.send(true);
    };
    tokio::join!(stopper, lane(Lane::Ordinary), lane(Lane::Large));
}
