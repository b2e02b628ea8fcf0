//! The checked-in TypeScript bindings (`ui/src/bindings/`) must equal what ts-rs generates from
//! the Rust types. `BATON_UPDATE_BINDINGS=1 cargo test --test bindings` rewrites them.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

fn read_dir(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|e| e == "ts") {
                out.insert(
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read_to_string(&p).unwrap(),
                );
            }
        }
    }
    out
}

#[test]
fn typescript_bindings_are_current() {
    let checked_in = common::root().join("ui/src/bindings");
    let tmp = tempfile::tempdir().unwrap();
    baton::api::bindings::export_all(tmp.path()).unwrap();
    let generated = read_dir(tmp.path());
    assert!(generated.contains_key("Topology.ts") && generated.contains_key("ContextPolicy.ts"));
    if std::env::var_os("BATON_UPDATE_BINDINGS").is_some() {
        let _ = std::fs::remove_dir_all(&checked_in);
        std::fs::create_dir_all(&checked_in).unwrap();
        for (name, text) in &generated {
            std::fs::write(checked_in.join(name), text).unwrap();
        }
    }
    assert_eq!(
        read_dir(&checked_in),
        generated,
        "ui/src/bindings is stale: run `BATON_UPDATE_BINDINGS=1 cargo test --test bindings`"
    );
}
