//! Snapshot tests (insta) where a whole output is the point: what the CLI prints for lint and
//! for bad input, the error messages of the config reader, and the diagram exports. Each
//! snapshot under `tests/it/snapshots/` was read by a person when it was accepted; a change
//! shows up as a diff to review (`cargo insta review`), never as a silent rewrite.

use crate::common::{self, baton, stderr, stdout};
use baton::config::{self, Format};

/// Paths in outputs vary with the checkout; snapshots name files relative to the repository.
fn rel(text: &str) -> String {
    text.replace(&format!("{}/", common::root().display()), "")
}

#[test]
fn lint_text_for_every_example() {
    let mut out = String::new();
    for f in common::examples() {
        let path = f.strip_prefix(common::root()).unwrap().display().to_string();
        let o = baton(&["lint", &path]);
        out.push_str(&format!("$ baton lint {path}   (exit {})\n", o.status.code().unwrap()));
        out.push_str(&rel(&stdout(&o)));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn lint_json_of_a_topology_that_breaks_many_rules() {
    let yaml = "version: 1\nname: broken\nentry: a\nagents:\n  - {id: a, name: A, model: {provider: mock, name: m}}\n  - {id: b, name: B}\n  - {id: b, name: B2, model: {provider: mock, name: m}}\n  - {id: h, name: Human, kind: human}\n  - {id: lone, name: Lone, model: {provider: mock, name: m}}\nedges:\n  - {kind: handoff, from: a, to: b}\n  - {kind: handoff, from: b, to: a, acceptance: verify}\n  - {kind: delegation, from: a, to: h}\n  - {kind: handoff, from: h, to: a}\n  - {kind: handoff, from: a, to: ghost, policy: {last_n: 0}}\nguards: {max_turns: 0, on_revisit: escalate, escalate_to: lone}\nscenarios:\n  - name: s\n    input: hi\n    scripts: {a: [{calls: [{tool: transfer_to_nowhere}]}], nobody: [{say: hi}]}\n";
    let t = config::parse(yaml, Format::Yaml, "<t>").unwrap();
    insta::assert_snapshot!(serde_json::to_string_pretty(&baton::lint::lint(&t)).unwrap());
}

#[test]
fn config_errors_say_what_where_and_how_to_fix() {
    let cases: &[(&str, &str, Format)] = &[
        ("yaml syntax", "version: 1\nname: [unclosed\n", Format::Yaml),
        ("json syntax", "{\"version\": 1,, }", Format::Json),
        ("unknown field", "version: 1\nname: t\nentry: a\nagents: []\ncolour: red\n", Format::Yaml),
        (
            "wrong type deep inside",
            "version: 1\nname: t\nentry: a\nagents:\n  - {id: a, name: A, model: {provider: mock, name: m, temperature: hot}}\n",
            Format::Yaml,
        ),
        (
            "unknown provider",
            "version: 1\nname: t\nentry: a\nagents:\n  - {id: a, name: A, model: {provider: openia, name: m}}\n",
            Format::Yaml,
        ),
        (
            "bad policy",
            "version: 1\nname: t\nentry: a\nagents: [{id: a, name: A}, {id: b, name: B}]\nedges:\n  - {kind: handoff, from: a, to: b, policy: keep_everything}\n",
            Format::Yaml,
        ),
        ("newer version", "version: 2\nname: t\nentry: a\nagents: []\n", Format::Yaml),
    ];
    let mut out = String::new();
    for (what, text, format) in cases {
        let e = config::parse(text, *format, "topology.yaml").unwrap_err();
        out.push_str(&format!("## {what}\n{}: {e}\n\n", baton::error::Coded::code(&e)));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn cli_errors_name_the_thing_and_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db").display().to_string();
    let bad_trace = dir.path().join("bad.json");
    std::fs::write(&bad_trace, "{\"version\": 1}").unwrap();
    let unknown = dir.path().join("unknown.json");
    std::fs::write(&unknown, "{\"hello\": \"world\"}").unwrap();
    let runs: Vec<Vec<String>> = vec![
        vec!["run".into(), "missing.yaml".into()],
        vec!["runs".into(), "show".into(), "0000-no-such-run".into(), "--db".into(), db.clone()],
        vec!["trace".into(), "show".into(), bad_trace.display().to_string(), "--db".into(), db.clone()],
        vec!["trace".into(), "import".into(), unknown.display().to_string(), "--db".into(), db.clone()],
        vec!["export".into(), "examples/ticket-reopen.yaml".into(), "--to".into(), "pdf".into()],
        vec!["run".into(), "examples/ticket-reopen.yaml".into(), "--scenario".into(), "nope".into()],
    ];
    let mut out = String::new();
    for args in runs {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_baton"))
            .args(&refs)
            .current_dir(common::root())
            .output()
            .unwrap();
        let shown = refs.join(" ").replace(&dir.path().display().to_string(), "$TMP");
        let err = stderr(&o).replace(&dir.path().display().to_string(), "$TMP");
        out.push_str(&format!("$ baton {shown}   (exit {})\n{}\n", o.status.code().unwrap(), rel(&err).trim_end()));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn mermaid_and_dot_of_ticket_reopen() {
    let t = config::load(&common::example("ticket-reopen.yaml")).unwrap();
    insta::assert_snapshot!("mermaid", baton::export::to_mermaid(&t));
    insta::assert_snapshot!("dot", baton::export::to_dot(&t));
}
