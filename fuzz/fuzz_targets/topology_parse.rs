//! Fuzzes the topology reader and everything a loaded topology meets next (validate, lint,
//! the exports): any text must give a topology or a clear error, never a panic or a hang.
#![no_main]

use baton::config::{Format, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for format in [Format::Yaml, Format::Json] {
        if let Ok(t) = parse(text, format, "fuzz") {
            let _ = t.validate();
            let _ = baton::lint::lint(&t);
            let _ = baton::export::to_mermaid(&t);
            let _ = baton::export::to_dot(&t);
        }
    }
});
