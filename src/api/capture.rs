//! Live capture in a session (the app's Capture switch, and `baton serve`): one OTLP/HTTP
//! receiver on loopback that saves captured runs into this session's store, started and stopped
//! by commands, with the counts the UI's badge shows.

use super::Api;
use crate::collect::{DEFAULT_HTTP_PORT, Live, keep_saving, router};
use crate::error::{ApiError, ErrorCode};
use crate::serve::Guard;
use serde::{Deserialize, Serialize};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Debug, Clone, Default, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct CaptureArgs {
    /// Port on 127.0.0.1 (default 4318, the OTLP/HTTP port; 0 picks a free one).
    #[serde(default)]
    #[ts(optional)]
    pub port: Option<u16>,
}

/// Whether capture is on, where to send traces, and what arrived.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct CaptureStatus {
    pub on: bool,
    /// The traces endpoint to set as `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`.
    pub endpoint: Option<String>,
    #[ts(type = "number")]
    pub spans: u64,
    #[ts(type = "number")]
    pub runs: u64,
    #[ts(type = "number")]
    pub transfers: u64,
    #[ts(type = "number")]
    pub lost_facts: u64,
    /// Spans held until their traces end.
    pub waiting: u32,
    /// The run saved last.
    pub last_run: Option<String>,
    /// Why the latest traces that were not saved were refused (newest last, at most 20): the
    /// window says what the command line would.
    #[serde(default)]
    pub refused: Vec<String>,
}

/// How many refusals the status keeps.
const REFUSALS_KEPT: usize = 20;

pub(crate) struct Capture {
    endpoint: String,
    live: Arc<Live>,
    stop: tokio::sync::watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
    last_run: Arc<Mutex<Option<String>>>,
    refused: Arc<Mutex<Vec<String>>>,
}

impl Capture {
    fn status(&self) -> CaptureStatus {
        let s = &self.live.stats;
        CaptureStatus {
            on: true,
            endpoint: Some(self.endpoint.clone()),
            spans: s.spans.load(Ordering::Relaxed),
            runs: s.runs.load(Ordering::Relaxed),
            transfers: s.transfers.load(Ordering::Relaxed),
            lost_facts: s.lost_facts.load(Ordering::Relaxed),
            waiting: self.live.waiting() as u32,
            last_run: self.last_run.lock().expect("no panic while held").clone(),
            refused: self.refused.lock().expect("no panic while held").clone(),
        }
    }
}

impl Api {
    /// Starts capture (or answers how it runs, if it runs).
    pub async fn capture_start(self: &Arc<Self>, a: CaptureArgs) -> Result<CaptureStatus, ApiError> {
        let mut cap = self.capture.lock().await;
        if let Some(c) = cap.as_ref() {
            return Ok(c.status());
        }
        let store = self.store().await?.clone();
        let port = a.port.unwrap_or(DEFAULT_HTTP_PORT);
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.map_err(|e| {
            ApiError::new(
                ErrorCode::CaptureListen,
                format!("cannot listen on 127.0.0.1:{port}: {e}; another collector may be running there (stop it, or pick another port)"),
            )
        })?;
        let addr = listener.local_addr().map_err(|e| ApiError::new(ErrorCode::CaptureListen, e.to_string()))?;
        let endpoint = format!("http://{addr}/v1/traces");
        let live = Arc::new(Live::new(Duration::from_secs(2), endpoint.clone()).with_inbox(store.clone()));
        live.replay().await.map_err(|e| ApiError::new(ErrorCode::StoreDb, e))?;
        let (stop, rx) = tokio::sync::watch::channel(false);
        let last_run = Arc::new(Mutex::new(None));
        let app = router(live.clone(), Guard::for_addr(addr, &[]));
        let mut server_rx = rx.clone();
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async move {
                    let _ = server_rx.changed().await;
                })
                .await;
        });
        let refused = Arc::new(Mutex::new(Vec::new()));
        let (saver_live, last, refusals) = (live.clone(), last_run.clone(), refused.clone());
        let mut stop_rx = rx;
        let task = tokio::spawn(async move {
            let stopped = async move {
                let _ = stop_rx.changed().await;
                let _ = server.await;
            };
            keep_saving(saver_live, store, Duration::from_millis(250), stopped, |r| match r {
                Ok(s) => *last.lock().expect("no panic while held") = Some(s.run_id),
                Err(e) => {
                    let mut r = refusals.lock().expect("no panic while held");
                    r.push(e);
                    let over = r.len().saturating_sub(REFUSALS_KEPT);
                    r.drain(..over);
                }
            })
            .await;
        });
        let c = Capture { endpoint, live, stop, task, last_run, refused };
        let status = c.status();
        *cap = Some(c);
        Ok(status)
    }

    /// Stops capture; the traces still open are saved first.
    pub async fn capture_stop(self: &Arc<Self>, _: super::NoArgs) -> Result<CaptureStatus, ApiError> {
        let Some(c) = self.capture.lock().await.take() else { return Ok(CaptureStatus::default()) };
        let _ = c.stop.send(true);
        let mut status = c.status();
        let _ = c.task.await;
        status.on = false;
        status.runs = c.live.stats.runs.load(Ordering::Relaxed);
        status.last_run = c.last_run.lock().expect("no panic while held").clone();
        Ok(status)
    }

    /// Whether capture runs, and what arrived.
    pub async fn capture_status(self: &Arc<Self>, _: super::NoArgs) -> Result<CaptureStatus, ApiError> {
        Ok(self.capture.lock().await.as_ref().map(Capture::status).unwrap_or_default())
    }
}
