//! The checked-in TypeScript bindings (`ui/src/bindings/`) must equal what ts-rs generates from
//! the Rust types. `BATON_UPDATE_BINDINGS=1 cargo test --test it bindings` rewrites them.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

/// Every `.ts` file under `dir`, by path relative to it.
fn read_dir(dir: &Path) -> BTreeMap<String, String> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(base, &p, out);
            } else if p.extension().is_some_and(|e| e == "ts") {
                let rel = p.strip_prefix(base).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

#[test]
fn typescript_bindings_are_current() {
    let checked_in = common::root().join("ui/src/bindings");
    let tmp = tempfile::tempdir().unwrap();
    baton::api::bindings::export_all(tmp.path()).unwrap();
    let generated = read_dir(tmp.path());
    for name in ["Topology.ts", "ContextPolicy.ts", "StepView.ts", "LiveEvent.ts", "serde_json/JsonValue.ts"] {
        assert!(generated.contains_key(name), "{name} was not generated");
    }
    if std::env::var_os("BATON_UPDATE_BINDINGS").is_some() {
        let _ = std::fs::remove_dir_all(&checked_in);
        for (name, text) in &generated {
            let p = checked_in.join(name);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
    }
    let checked = read_dir(&checked_in);
    let stale: Vec<&String> = generated
        .keys()
        .chain(checked.keys())
        .filter(|k| generated.get(*k) != checked.get(*k))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert!(
        stale.is_empty(),
        "ui/src/bindings is stale in {stale:?}: run `BATON_UPDATE_BINDINGS=1 cargo test --test it bindings`"
    );
}
