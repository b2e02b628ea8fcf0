//! Fuzzes `baton collect`'s request path: any body, sent as any encoding an OTLP/HTTP exporter
//! uses (protobuf or JSON, gzip or not: the first byte picks), is refused with a message or gives
//! traces each built as it would be saved or refused with a reason; never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, body)) = data.split_first() else { return };
    let content_type = if mode & 1 == 0 { "application/x-protobuf" } else { "application/json" };
    let gzip = mode & 2 != 0;
    if let Ok(traces) = baton::collect::runs_of_request(body, content_type, gzip) {
        // Every trace built must render (the debugger and exports need it).
        for t in traces.into_iter().flatten() {
            let _ = baton::trace::render_timeline(&t);
        }
    }
});
