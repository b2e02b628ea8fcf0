//! Fuzzes the native trace loader (`trace show FILE`): any bytes must give a checked trace or a
//! clear error; a trace that loads must render without panicking or allocating without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(t) = baton::trace::Trace::from_json(text, "fuzz") {
        let _ = baton::trace::render_timeline(&t);
    }
});
