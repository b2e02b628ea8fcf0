//! `baton test` on real files: the examples' own expectations pass (the stories they tell), a
//! suite with wrong expectations fails with each reason and step and exit 1, and the JUnit XML is
//! read back with an XML parser. Expectations are the examples' stories, read from their files.

use crate::common::{baton, example, root, stderr, stdout};

#[test]
fn the_examples_expectations_pass_and_junit_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("report.xml");
    let out = baton(&["test", root().join("examples").to_str().unwrap(), "--junit", xml.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("ticket-reopen.yaml::flagged-fix PASSED"), "{text}");
    assert!(text.contains("== 5 passed, 0 failed"), "{text}");
    let body = std::fs::read_to_string(&xml).unwrap();
    let doc = roxmltree::Document::parse(&body).unwrap();
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!((root.attribute("tests"), root.attribute("failures")), (Some("5"), Some("0")));
    let cases: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("testcase")).collect();
    assert_eq!(cases.len(), 5);
    assert!(
        cases.iter().any(
            |c| c.attribute("classname") == Some("ticket-supervisor") && c.attribute("name") == Some("flagged-fix")
        )
    );
}

#[test]
fn wrong_expectations_fail_with_their_reason_and_step() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(example("ticket-reopen.yaml")).unwrap();
    // The story's run, with expectations it does not meet: the fact kept, an escalation.
    let changed = text.replace(
        "      fact_lost_at: { resolved-meaning: resolution->verification }\n",
        "      facts_kept: [resolved-meaning]\n      max_transfers: 1\n",
    );
    let changed = changed.replace(
        "      status: completed\n      owner: verification\n",
        "      status: escalated\n      owner: verification\n",
    );
    assert_ne!(changed, text);
    let file = dir.path().join("wrong.yaml");
    std::fs::write(&file, changed).unwrap();
    let xml = dir.path().join("report.xml");
    let out = baton(&["test", file.to_str().unwrap(), "--junit", xml.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let s = stdout(&out);
    assert!(s.contains("::flagged-fix FAILED"), "{s}");
    assert!(s.contains("status: the run ended completed"), "{s}");
    assert!(
        s.contains(
            "facts_kept.resolved-meaning: resolved-meaning was lost at resolution → verification (step 5) [step 5]"
        ),
        "{s}"
    );
    assert!(
        s.contains("max_transfers: 2 transfers, more than 1; the one over is resolution → verification [step 5]"),
        "{s}"
    );
    let body = std::fs::read_to_string(&xml).unwrap();
    let doc = roxmltree::Document::parse(&body).unwrap();
    let failures: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("failure")).collect();
    assert_eq!(failures.len(), 3);
    assert!(failures.iter().any(|f| f.attribute("type") == Some("facts_kept.resolved-meaning")));
    assert_eq!(doc.root_element().attribute("failures"), Some("1"));
}

#[test]
fn nothing_to_test_and_bad_files_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.yaml");
    std::fs::write(&plain, "version: 1\nname: p\nentry: a\nagents: [{id: a, name: A}]\n").unwrap();
    let out = baton(&["test", plain.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no scenario carries expectations"), "{}", stderr(&out));
    let bad = dir.path().join("bad.yaml");
    std::fs::write(&bad, "version: 1\nname: [\n").unwrap();
    let out = baton(&["test", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad.yaml"), "{}", stderr(&out));
}

#[test]
fn lint_flags_an_expectation_that_names_what_the_topology_lacks() {
    let y = "version: 1\nname: t\nentry: a\nagents: [{id: a, name: A}]\nscenarios:\n  - name: s\n    input: hi\n    expect: { status: done, visits: [ghost], facts_kept: [nope], output_matches: \"(\" }\n";
    let t = baton::config::parse(y, baton::config::Format::Yaml, "<t>").unwrap();
    let f: Vec<String> =
        baton::lint::lint(&t).into_iter().filter(|f| f.code == "expect-unknown").map(|f| f.message).collect();
    assert_eq!(f.len(), 4, "{f:#?}");
    assert!(f.iter().any(|m| m.contains("status 'done'")));
    assert!(f.iter().any(|m| m.contains("agent 'ghost'")));
    assert!(f.iter().any(|m| m.contains("fact 'nope'")));
    assert!(f.iter().any(|m| m.contains("not a regular expression")));
}
