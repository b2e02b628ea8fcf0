//! OTLP/gRPC (`TraceService/Export`, port 4317 by default), which several SDKs use unless told
//! otherwise: the same spans, limits and assembly as OTLP/HTTP, served by axum through tonic's
//! generated service. gzip is accepted; the `:authority` is checked like `Host`.

use super::{Live, MAX_INFLATED, decode};
use crate::serve::Guard;
use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{TraceService, TraceServiceServer};
use opentelemetry_proto::tonic::collector::trace::v1::{
    ExportTracePartialSuccess, ExportTraceServiceRequest, ExportTraceServiceResponse,
};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use tonic::codec::CompressionEncoding;
use tonic::{Request, Response, Status};

struct Receiver {
    live: Arc<Live>,
}

#[tonic::async_trait]
impl TraceService for Receiver {
    async fn export(
        &self,
        request: Request<ExportTraceServiceRequest>,
    ) -> Result<Response<ExportTraceServiceResponse>, Status> {
        let req = request.into_inner();
        let body = prost::Message::encode_to_vec(&req);
        let (spans, rejected, why) = decode::keep(decode::from_proto(req));
        // Acknowledged only once kept: the request is committed to the inbox first.
        let taken = self
            .live
            .take("protobuf", &body, spans)
            .await
            .map_err(|e| Status::unavailable(format!("cannot keep the spans now: {e}")))?;
        match taken {
            super::Taken::Yes => {}
            // OTLP/gRPC: UNAVAILABLE is the retryable "try later"; RESOURCE_EXHAUSTED is not
            // retried without a RetryInfo.
            super::Taken::Full(held) => {
                return Err(Status::unavailable(format!(
                    "Baton holds {held} spans waiting for their traces to end; retry shortly"
                )));
            }
            super::Taken::TooLarge(why) => return Err(Status::resource_exhausted(why)),
        }
        self.live.stats.rejected.fetch_add(rejected as u64, Ordering::Relaxed);
        Ok(Response::new(ExportTraceServiceResponse {
            partial_success: (rejected > 0).then(|| ExportTracePartialSuccess {
                rejected_spans: rejected,
                error_message: why.unwrap_or_default(),
            }),
        }))
    }
}

/// The OTLP/gRPC routes, for a listener of their own. gRPC carries the address in `:authority`
/// (the request URI's authority over HTTP/2): it is checked like `Host`, and a browser
/// `Origin` is refused, before tonic sees the call.
pub fn router(live: Arc<Live>, guard: Guard) -> axum::Router {
    let svc = TraceServiceServer::new(Receiver { live })
        .accept_compressed(CompressionEncoding::Gzip)
        .max_decoding_message_size(MAX_INFLATED);
    tonic::service::Routes::new(svc)
        .into_axum_router()
        .layer(axum::middleware::from_fn_with_state(Arc::new(guard), check_authority))
}

async fn check_authority(
    axum::extract::State(guard): axum::extract::State<Arc<Guard>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let mut headers = req.headers().clone();
    if let Some(a) = req.uri().authority().and_then(|a| a.as_str().parse().ok()) {
        headers.insert(axum::http::header::HOST, a);
    }
    let refused = match guard.check(&headers) {
        Err(e) => Some(e.message),
        Ok(()) => {
            headers.get(axum::http::header::ORIGIN).map(|_| "refused: a web page may not send traces to Baton".into())
        }
    };
    match refused {
        Some(m) => Status::permission_denied(m).into_http::<axum::body::Body>(),
        None => next.run(req).await,
    }
}
