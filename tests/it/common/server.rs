//! A loopback HTTP server for provider tests: it records every request (path, headers, body)
//! and answers from a script of exact provider responses, faults included.

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, Request, StatusCode};
use axum::response::Response;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One scripted answer.
#[derive(Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// Server-sent events: the body is sent as `text/event-stream`.
    pub sse: bool,
    /// Wait before answering.
    pub delay: Duration,
    /// Send only this many bytes of the body, then drop the connection.
    pub cut_after: Option<usize>,
    /// After the body, keep the stream open and send an SSE keep-alive comment every 50 ms.
    pub keep_alive: bool,
}

impl Reply {
    pub fn json(body: serde_json::Value) -> Reply {
        Reply {
            status: 200,
            headers: vec![],
            body: body.to_string(),
            sse: false,
            delay: Duration::ZERO,
            cut_after: None,
            keep_alive: false,
        }
    }
    pub fn status(status: u16, body: &str) -> Reply {
        Reply {
            status,
            headers: vec![],
            body: body.into(),
            sse: false,
            delay: Duration::ZERO,
            cut_after: None,
            keep_alive: false,
        }
    }
    /// An SSE body from (event name, data) pairs; an empty name sends data only.
    pub fn sse(events: &[(&str, String)]) -> Reply {
        let mut body = String::new();
        for (name, data) in events {
            if !name.is_empty() {
                body.push_str(&format!("event: {name}\n"));
            }
            body.push_str(&format!("data: {data}\n\n"));
        }
        Reply {
            status: 200,
            headers: vec![],
            body,
            sse: true,
            delay: Duration::ZERO,
            cut_after: None,
            keep_alive: false,
        }
    }
    pub fn header(mut self, k: &str, v: &str) -> Reply {
        self.headers.push((k.into(), v.into()));
        self
    }
    pub fn delay(mut self, d: Duration) -> Reply {
        self.delay = d;
        self
    }
    /// Never ends: keep-alive comments after the body, as a stuck server sends them.
    pub fn keep_alive(mut self) -> Reply {
        self.keep_alive = true;
        self
    }

    pub fn cut(mut self, n: usize) -> Reply {
        self.cut_after = Some(n);
        self
    }
}

#[derive(Clone, Debug)]
pub struct Recorded {
    pub path: String,
    pub headers: HeaderMap,
    pub body: serde_json::Value,
}

#[derive(Default)]
struct Inner {
    replies: VecDeque<Reply>,
    /// The answer once the script is used up (else a 500).
    otherwise: Option<Reply>,
    requests: Vec<Recorded>,
}

#[derive(Clone)]
pub struct MockServer {
    pub base: String,
    inner: Arc<Mutex<Inner>>,
}

async fn handle(State(inner): State<Arc<Mutex<Inner>>>, req: Request<Body>) -> Response {
    let path = req.uri().to_string();
    let headers = req.headers().clone();
    let bytes = axum::body::to_bytes(req.into_body(), usize::MAX).await.unwrap_or_default();
    let body = serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null);
    let reply = {
        let mut g = inner.lock().unwrap();
        g.requests.push(Recorded { path, headers, body });
        g.replies.pop_front().or_else(|| g.otherwise.clone())
    };
    let Some(r) = reply else {
        return Response::builder()
            .status(500)
            .body(Body::from("{\"error\":{\"message\":\"no scripted reply left\"}}"))
            .unwrap();
    };
    if !r.delay.is_zero() {
        tokio::time::sleep(r.delay).await;
    }
    let mut b = Response::builder().status(StatusCode::from_u16(r.status).unwrap());
    b = b.header("content-type", if r.sse { "text/event-stream" } else { "application/json" });
    for (k, v) in &r.headers {
        b = b.header(k, v);
    }
    if r.keep_alive {
        let head = axum::body::Bytes::from(r.body.clone());
        let stream = futures::stream::unfold(Some(head), |first| async move {
            match first {
                Some(h) => Some((Ok::<_, std::io::Error>(h), None)),
                None => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    Some((Ok(axum::body::Bytes::from_static(b": keep-alive\n\n")), None))
                }
            }
        });
        return b.body(Body::from_stream(stream)).unwrap();
    }
    match r.cut_after {
        None => b.body(Body::from(r.body)).unwrap(),
        Some(n) => {
            // Send the first n bytes, then fail the stream so the connection drops mid-way.
            let head = r.body.as_bytes()[..n.min(r.body.len())].to_vec();
            // The head goes out (with the headers) before the connection fails.
            let stream = futures::stream::unfold(0u8, move |state| {
                let head = head.clone();
                async move {
                    match state {
                        0 => Some((Ok::<_, std::io::Error>(axum::body::Bytes::from(head)), 1)),
                        1 => {
                            tokio::time::sleep(Duration::from_millis(100)).await;
                            Some((Err(std::io::Error::other("cut")), 2))
                        }
                        _ => None,
                    }
                }
            });
            b.body(Body::from_stream(stream)).unwrap()
        }
    }
}

impl MockServer {
    /// Starts a server on 127.0.0.1 in the current tokio runtime.
    pub async fn start() -> MockServer {
        let inner = Arc::new(Mutex::new(Inner::default()));
        let app = axum::Router::new().fallback(handle).with_state(inner.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        MockServer { base: format!("http://{addr}"), inner }
    }

    pub fn push(&self, r: Reply) -> &Self {
        self.inner.lock().unwrap().replies.push_back(r);
        self
    }

    /// The answer to every request once the scripted ones are used up.
    pub fn otherwise(&self, r: Reply) -> &Self {
        self.inner.lock().unwrap().otherwise = Some(r);
        self
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.inner.lock().unwrap().requests.clone()
    }
}
