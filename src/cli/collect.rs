//! `baton collect`: Baton as the local OTLP endpoint of a running system. Prints the endpoint and
//! the variables to set, then a line per saved run and a status line, until Ctrl-C (or SIGTERM),
//! when it saves every trace it holds and stops.

use super::Outcome;
use super::args::{DbArg, runtime};
use baton::api::{ApiError, ErrorCode};
use baton::collect::{DEFAULT_GRPC_PORT, DEFAULT_HTTP_PORT, Live, grpc, keep_saving, router};
use baton::serve::Guard;
use baton::store::Store;
use std::io::Write;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// OTLP/HTTP port (0 picks a free one).
    #[arg(long, default_value_t = DEFAULT_HTTP_PORT)]
    http_port: u16,
    /// OTLP/gRPC port (0 picks a free one).
    #[arg(long, default_value_t = DEFAULT_GRPC_PORT)]
    grpc_port: u16,
    /// Address to listen on. Anything but loopback lets other machines send traces: Baton warns.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// How long a trace must be quiet (after its root span arrived) before it is saved, in ms.
    #[arg(long, default_value_t = 2000)]
    quiet_ms: u64,
    /// At most this many spans held in memory (waiting for their traces, or kept to amend saved
    /// runs); past it senders get 503 / UNAVAILABLE and retry.
    #[arg(long, default_value_t = baton::collect::live::MAX_HELD_SPANS)]
    max_spans: usize,
    /// The same bound in megabytes of span content.
    #[arg(long, default_value_t = baton::collect::live::MAX_HELD_BYTES >> 20)]
    max_mb: usize,
    /// Several collectors share this store (a team's PostgreSQL behind a load balancer): the
    /// spans of one trace may reach any of them. Each request is committed to the store before it
    /// is acknowledged and nothing is held in memory; whichever instance finds a trace quiet
    /// rebuilds it from every instance's spans and saves it as one run.
    #[arg(long)]
    shared: bool,
    #[command(flatten)]
    db: DbArg,
}

fn bad(m: String) -> ApiError {
    ApiError::new(ErrorCode::ConfigRead, m)
}

pub fn run(a: Args) -> Outcome {
    let url = a.db.url();
    runtime()?.block_on(async move {
        let store = Store::open(&url).await.map_err(|e| ApiError::new(ErrorCode::StoreOpen, e.to_string()))?;
        let listener = tokio::net::TcpListener::bind((a.host, a.http_port))
            .await
            .map_err(|e| bad(format!("cannot listen on {}:{}: {e}; choose another --http-port", a.host, a.http_port)))?;
        let addr = listener.local_addr().map_err(|e| bad(e.to_string()))?;
        let grpc_listener = tokio::net::TcpListener::bind((a.host, a.grpc_port))
            .await
            .map_err(|e| bad(format!("cannot listen on {}:{}: {e}; choose another --grpc-port", a.host, a.grpc_port)))?;
        let grpc_addr = grpc_listener.local_addr().map_err(|e| bad(e.to_string()))?;
        if !addr.ip().is_loopback() {
            eprintln!(
                "warning: listening on {addr}: any machine that reaches it can send traces to Baton (loopback is the default)"
            );
        }
        let endpoint = format!("http://{addr}");
        let live = Live::new(Duration::from_millis(a.quiet_ms), format!("{endpoint}/v1/traces"))
            .with_limits(a.max_spans, a.max_mb.saturating_mul(1 << 20))
            .with_inbox(store.clone());
        let live = Arc::new(if a.shared { live.shared() } else { live });
        // What a collector that stopped (or was killed) had acknowledged but not saved.
        let replayed = live.replay().await.map_err(|e| ApiError::new(ErrorCode::StoreDb, e))?;
        if replayed > 0 {
            eprintln!("replaying {replayed} acknowledged request(s) a collector had not saved yet");
        }
        println!("Baton collecting OpenTelemetry traces on {endpoint}/v1/traces (OTLP/HTTP, protobuf or JSON), saving to {url}");
        println!("Baton collecting OTLP/gRPC on http://{grpc_addr}");
        println!("Set in the system you run:");
        println!("  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT={endpoint}/v1/traces");
        println!("  OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf");
        println!("or, for gRPC: OTEL_EXPORTER_OTLP_ENDPOINT=http://{grpc_addr} OTEL_EXPORTER_OTLP_PROTOCOL=grpc");
        if a.shared {
            println!("Sharing the store with other collectors: traces are assembled there, whichever instance gets their spans.");
            println!("Ctrl-C stops; traces still open are saved by the other instances (or by the next start).");
        } else {
            println!("Ctrl-C saves the traces still open and stops.");
        }
        let _ = std::io::stdout().flush();
        let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
        let serve = |listener: tokio::net::TcpListener, app: axum::Router| {
            let mut rx = stop_rx.clone();
            tokio::spawn(async move {
                axum::serve(listener, app)
                    .with_graceful_shutdown(async move {
                        let _ = rx.changed().await;
                    })
                    .await
            })
        };
        let http_server = serve(listener, router(live.clone(), Guard::for_addr(addr, &[])));
        let grpc_server = serve(grpc_listener, grpc::router(live.clone(), Guard::for_addr(grpc_addr, &[])));
        let stats = live.clone();
        let status = tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(5));
            tick.tick().await;
            loop {
                tick.tick().await;
                let s = &stats.stats;
                eprintln!(
                    "{} spans · {} runs · {} transfers · {} lost facts · {} spans waiting",
                    s.spans.load(Ordering::Relaxed),
                    s.runs.load(Ordering::Relaxed),
                    s.transfers.load(Ordering::Relaxed),
                    s.lost_facts.load(Ordering::Relaxed),
                    stats.waiting()
                );
            }
        });
        let stop = async move {
            let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = async { match term.as_mut() { Some(t) => { t.recv().await; } None => std::future::pending().await } } => {}
            }
            // Stop taking requests and let those in flight finish: everything acknowledged is
            // then saved below.
            let _ = stop_tx.send(true);
            let _ = http_server.await;
            let _ = grpc_server.await;
        };
        keep_saving(live.clone(), store, Duration::from_millis(250), stop, |r| {
            match &r {
                Ok(s) => tracing::info!(run = %s.run_id, running = s.running, amended = s.amended, transfers = s.transfers, "captured run"),
                Err(why) => tracing::warn!(why = %why, "trace not saved"),
            }
            match r {
                Ok(s) => println!(
                    "{} run {} ({}; {} transfer(s))",
                    match (s.running, s.amended) {
                        (true, _) => "capturing",
                        (false, true) => "amended",
                        (false, false) => "saved",
                    },
                    s.run_id,
                    s.agents.join(", "),
                    s.transfers
                ),
                Err(why) => eprintln!("not saved: {why}"),
            }
            let _ = std::io::stdout().flush();
        })
        .await;
        status.abort();
        println!("stopped: {} spans, {} runs", live.stats.spans.load(Ordering::Relaxed), live.stats.runs.load(Ordering::Relaxed));
        Ok(0)
    })
}
