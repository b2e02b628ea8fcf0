//! The CLI as a user runs it: exit codes, JSON shapes, exports and the refactor.

use crate::common;

use common::*;

#[test]
fn lint_exit_codes_and_json_shape() {
    let ok = baton(&["lint", example("handoff-loop.yaml").to_str().unwrap(), "--format", "json"]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    let v: serde_json::Value = serde_json::from_str(&stdout(&ok)).unwrap();
    let f = v["findings"].as_array().unwrap();
    let cycle = f.iter().find(|f| f["code"] == "handoff-cycle").expect("cycle reported");
    for key in ["code", "severity", "message", "agents", "edges"] {
        assert!(cycle.get(key).is_some(), "missing {key}");
    }
    assert_eq!(cycle["agents"], serde_json::json!(["billing", "technical"]));

    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.yaml");
    std::fs::write(
        &bad,
        "version: 1\nname: t\nentry: a\nagents: [{id: a, name: A}]\nedges: [{kind: delegation, from: a, to: a}]\n",
    )
    .unwrap();
    let errs = baton(&["lint", bad.to_str().unwrap()]);
    assert_eq!(errs.status.code(), Some(1));
    assert!(stdout(&errs).contains("delegation-cycle"));

    std::fs::write(&bad, "version: 1\nname: [\n").unwrap();
    let unparsable = baton(&["lint", bad.to_str().unwrap()]);
    assert_eq!(unparsable.status.code(), Some(2));
    assert!(stderr(&unparsable).contains("bad.yaml:"), "{}", stderr(&unparsable));
    let missing = baton(&["lint", "/no/such/file.yaml"]);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn validate_lists_unknown_agents() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("t.json");
    std::fs::write(&f, r#"{"version":1,"name":"t","entry":"a","agents":[{"id":"a","name":"A"}],"edges":[{"kind":"handoff","from":"a","to":"x"},{"kind":"handoff","from":"y","to":"a"}]}"#).unwrap();
    let o = baton(&["validate", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("'x'") && e.contains("'y'"), "{e}");
    let ok = baton(&["validate", example("ticket-reopen.yaml").to_str().unwrap()]);
    assert!(ok.status.success());
    assert!(stdout(&ok).contains("3 agents, 2 edges"));
}

#[test]
fn exports_draw_the_two_edge_kinds_differently() {
    let sup = example("ticket-supervisor.yaml");
    let reopen = example("ticket-reopen.yaml");
    let m = stdout(&baton(&["export", reopen.to_str().unwrap(), "--to", "mermaid"]));
    assert!(m.contains("n_triage ==>|\"handoff · full\"| n_resolution"), "{m}");
    let m = stdout(&baton(&["export", sup.to_str().unwrap(), "--to", "mermaid"]));
    assert!(m.contains("n_supervisor -.->|\"delegates\"| n_triage"), "{m}");
    let d = stdout(&baton(&["export", reopen.to_str().unwrap(), "--to", "dot"]));
    assert!(d.contains("\"triage\" -> \"resolution\" [label=\"handoff · full\", style=bold"), "{d}");
    let d = stdout(&baton(&["export", sup.to_str().unwrap(), "--to", "dot"]));
    assert!(d.contains("style=dashed, arrowhead=empty"), "{d}");
    let bad = baton(&["export", sup.to_str().unwrap(), "--to", "pdf"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("openai-agents-py"));
    // -o writes the file; JSON export parses back to the same topology.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.json");
    assert!(baton(&["export", sup.to_str().unwrap(), "--to", "json", "-o", out.to_str().unwrap()]).status.success());
    assert_eq!(baton::config::load(&out).unwrap(), baton::config::load(&sup).unwrap());
}

#[test]
fn refactor_supervisor_writes_a_topology_without_the_handoff_chain() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sup.yaml");
    let o = baton(&[
        "refactor",
        "supervisor",
        example("ticket-reopen.yaml").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let t = baton::config::load(&out).unwrap();
    t.validate().unwrap();
    assert_eq!(t.entry, "supervisor");
    assert!(t.edges.iter().all(|e| e.kind == baton::topology::EdgeKind::Delegation && e.from == "supervisor"));
    let to: Vec<&str> = t.edges.iter().map(|e| e.to.as_str()).collect();
    assert_eq!(to, ["triage", "resolution", "verification"]);
    let verify: Vec<&str> =
        t.edges.iter().filter(|e| e.acceptance == baton::topology::Acceptance::Verify).map(|e| e.to.as_str()).collect();
    assert_eq!(verify, ["verification"], "acceptance kept on the supervisor's check");
    assert!(t.fact("resolved-meaning").unwrap().holders.contains(&"supervisor".to_string()));
    let lint = baton(&["lint", out.to_str().unwrap(), "--format", "json"]);
    assert_eq!(lint.status.code(), Some(0));
    assert!(!stdout(&lint).contains("verify-handoff"));
    let bad = baton(&["refactor", "supervisor", example("ticket-reopen.yaml").to_str().unwrap(), "--edge", "nope"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("'nope'"));
}

#[test]
fn schema_command_prints_the_checked_in_schema() {
    let o = baton(&["schema"]);
    let checked = std::fs::read_to_string(root().join("schema/topology.schema.json")).unwrap();
    assert_eq!(stdout(&o), checked);
}

/// `baton --version` names the release and the commit it was built from (as git names it).
#[test]
fn version_names_the_release_and_the_commit() {
    let o = baton(&["--version"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.starts_with(&format!("baton {} (commit ", env!("CARGO_PKG_VERSION"))), "{text}");
    let git = std::process::Command::new("git").args(["rev-parse", "--short=12", "HEAD"]).current_dir(root()).output();
    if let Some(g) = git.ok().filter(|g| g.status.success()) {
        assert!(text.contains(String::from_utf8_lossy(&g.stdout).trim()), "{text}");
    }
}

/// A crash writes a report to the log folder and says where; the report names the version and
/// the subcommand, never the command's other arguments or a key from the environment.
#[test]
fn a_crash_writes_a_report_without_arguments_or_keys() {
    let dir = tempfile::tempdir().unwrap();
    let key = "sk-canary-crash-0123456789abcdef";
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_baton"))
        .args(["run", "/private/customer-42/topology.yaml", "--live"])
        .env("BATON_LOG_DIR", dir.path())
        .env("BATON_CRASH_TEST", "1")
        .env("OPENAI_API_KEY", key)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(101));
    let reports: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert!(stderr(&o).contains(&reports[0].display().to_string()), "{}", stderr(&o));
    let report = std::fs::read_to_string(&reports[0]).unwrap();
    assert!(report.starts_with(&format!("baton {} (commit ", env!("CARGO_PKG_VERSION"))), "{report}");
    assert!(report.contains("command: baton run\n") && report.contains("backtrace:"), "{report}");
    assert!(!report.contains("customer-42") && !report.contains(key), "{report}");

    // Old reports give way: 25 earlier ones, one more crash, the newest twenty remain.
    for i in 0..25 {
        let p = dir.path().join(format!("crash-baton-old-{i:02}.txt"));
        std::fs::write(&p, "old").unwrap();
        let t = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000 + i);
        std::fs::File::options().write(true).open(&p).unwrap().set_modified(t).unwrap();
    }
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_baton"))
        .arg("lint")
        .env("BATON_LOG_DIR", dir.path())
        .env("BATON_CRASH_TEST", "1")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(101));
    let mut left: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    left.sort();
    assert_eq!(left.len(), 20, "{left:?}");
    assert!(
        left.iter().filter(|n| n.starts_with("crash-baton-old-")).all(|n| n.as_str() >= "crash-baton-old-07"),
        "{left:?}"
    );
    assert!(left.iter().any(|n| n.starts_with("crash-baton-2")), "the new report stays: {left:?}");
}

/// Output piped into a reader that stopped (`baton … | head`) ends quietly, not as a crash.
#[test]
fn a_closed_output_pipe_is_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_baton"))
        .arg("schema")
        .env("BATON_LOG_DIR", dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert!(matches!(o.status.code(), Some(0 | 141)), "{:?}: {}", o.status, stderr(&o));
    assert!(!stderr(&o).contains("crashed"), "{}", stderr(&o));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "no crash report");
}
