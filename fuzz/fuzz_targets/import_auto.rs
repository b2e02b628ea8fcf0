//! Fuzzes the auto importer: any bytes must give runs or a clear error, never a panic.
#![no_main]

use baton::import::{SourceFormat, import_reader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = import_reader(data, "fuzz", data.len() as u64, Option::<SourceFormat>::None, None, None, &mut |trace, _topology| {
        // Every trace the importer makes must serialize (the store and exports need it).
        serde_json_check(&trace);
        Ok(())
    });
});

fn serde_json_check(trace: &baton::trace::Trace) {
    let _ = baton::trace::render_timeline(trace);
}
