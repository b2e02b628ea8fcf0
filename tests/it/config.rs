//! Config format: round trips (property test), clear errors for bad input, and the checked-in
//! JSON Schema.

use crate::common;

use baton::config::{self, ConfigError, Format};
use baton::error::Coded;
use baton::topology::*;
use proptest::prelude::*;
use std::collections::BTreeMap;

fn text() -> impl Strategy<Value = String> {
    // Printable text plus the characters that stress YAML: quotes, colons, hashes, newlines.
    prop::string::string_regex("[a-zA-Z0-9 '\"#:,\\-\\n{}\\[\\]é→]{0,24}").unwrap()
}

fn policy() -> impl Strategy<Value = ContextPolicy> {
    prop_oneof![
        Just(ContextPolicy::Full),
        Just(ContextPolicy::RemoveTools),
        Just(ContextPolicy::NestSummary),
        Just(ContextPolicy::None),
        (0usize..50).prop_map(ContextPolicy::LastN),
        prop::collection::vec(("[a-z]{1,8}", prop_oneof!["string", "integer", "boolean"], text()), 0..3).prop_map(
            |f| ContextPolicy::Fields(
                f.into_iter()
                    .map(|(name, ty, description)| FieldSpec { name, ty: ty.to_string(), description })
                    .collect()
            )
        ),
    ]
}

fn topology() -> impl Strategy<Value = Topology> {
    let agents = prop::collection::vec(
        (
            text(),
            text(),
            prop_oneof![Just(AgentKind::Agent), Just(AgentKind::Supervisor), Just(AgentKind::Human)],
            prop::option::of((
                prop_oneof![
                    Just(Provider::Openai),
                    Just(Provider::Anthropic),
                    Just(Provider::Gemini),
                    Just(Provider::Mock)
                ],
                "[a-z0-9\\-]{1,12}",
                prop::option::of(0.0f64..2.0),
            )),
            prop::collection::vec(("[a-z_]{1,10}", text(), text()), 0..2),
        ),
        1..5,
    );
    (
        agents,
        prop::collection::vec(
            (0usize..5, 0usize..5, any::<bool>(), policy(), any::<bool>(), prop::option::of("[a-z_]{1,10}")),
            0..6,
        ),
        text(),
        prop::option::of(1u32..20),
        1u32..30,
        prop::collection::vec((text(), text()), 0..2),
    )
        .prop_map(|(agents, edges, name, max_handoffs, max_turns, scen)| {
            let agents: Vec<Agent> = agents
                .into_iter()
                .enumerate()
                .map(|(i, (n, instr, kind, model, tools))| Agent {
                    id: format!("a{i}"),
                    name: n,
                    kind,
                    instructions: instr,
                    model: model.map(|(provider, name, temperature)| ModelRef {
                        provider,
                        name,
                        base_url: None,
                        temperature,
                        top_p: None,
                        max_tokens: None,
                        stream: temperature.is_some(),
                        tool_choice: temperature.map(|_| "auto".into()),
                    }),
                    tools: tools
                        .into_iter()
                        .map(|(name, description, mock_result)| Tool {
                            name,
                            description,
                            parameters: empty_object_schema(),
                            mock_result,
                        })
                        .collect(),
                    source: None,
                })
                .collect();
            let n = agents.len();
            let edges = edges
                .into_iter()
                .map(|(f, to, h, policy, verify, tool)| {
                    let mut e = Edge::new(
                        if h { EdgeKind::Handoff } else { EdgeKind::Delegation },
                        &format!("a{}", f % n),
                        &format!("a{}", to % n),
                    );
                    e.policy = policy;
                    e.tool = tool;
                    if verify {
                        e.acceptance = Acceptance::Verify;
                    }
                    e
                })
                .collect();
            let scenarios = scen
                .into_iter()
                .enumerate()
                .map(|(i, (input, say))| {
                    let mut scripts = BTreeMap::new();
                    scripts.insert(
                        "a0".to_string(),
                        vec![MockRule {
                            when: MockWhen { contains: Some(say.clone()), call: Some(2), ..Default::default() },
                            then: MockAction {
                                say: Some(say),
                                calls: vec![MockCall {
                                    tool: "t".into(),
                                    args: serde_json::json!({"x": [1, "two"]}),
                                    id: Some("c1".into()),
                                }],
                                reasoning: None,
                            },
                        }],
                    );
                    Scenario { name: format!("s{i}"), input, scripts, ..Default::default() }
                })
                .collect();
            let mut t = Topology {
                version: 1,
                name,
                id: None,
                description: String::new(),
                entry: "a0".into(),
                agents,
                edges,
                facts: vec![PinnedFact { id: "f".into(), text: "a fact: 'quoted'".into(), holders: vec!["a0".into()] }],
                guards: Guards {
                    max_turns,
                    max_handoffs,
                    on_revisit: OnRevisit::Stop,
                    escalate_to: None,
                    ..Guards::default()
                },
                scenarios,
                guardrails: vec![],
                layout: BTreeMap::from([("a0".to_string(), Position { x: 1.5, y: -20.25 })]),
            };
            t.normalize();
            t
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn yaml_and_json_round_trip(t in topology()) {
        for format in [Format::Yaml, Format::Json] {
            let text = config::to_string(&t, format).unwrap();
            let back = config::parse(&text, format, "<test>").unwrap();
            prop_assert_eq!(&back, &t, "format {:?}:\n{}", format, text);
        }
    }

    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,200}") {
        let _ = config::parse(&s, Format::Yaml, "<fuzz>");
        let _ = config::parse(&s, Format::Json, "<fuzz>");
    }
}

#[test]
fn examples_round_trip_through_files() {
    let dir = tempfile::tempdir().unwrap();
    for ex in common::examples() {
        let t = config::load(&ex).unwrap();
        t.validate().unwrap();
        for ext in ["yaml", "json"] {
            let p = dir.path().join(format!("out.{ext}"));
            config::save(&t, &p).unwrap();
            assert_eq!(config::load(&p).unwrap(), t, "{} via {ext}", ex.display());
        }
    }
}

#[test]
fn yaml_syntax_error_has_file_line_and_column() {
    let text = "version: 1\nname: x\nentry: a\nagents:\n  - id: a\n    name: [unclosed\n";
    let e = config::parse(text, Format::Yaml, "t.yaml").unwrap_err();
    match &e {
        ConfigError::Parse { path, line, column, .. } => {
            assert_eq!(path, "t.yaml");
            assert!(*line >= 6, "line {line}");
            assert!(*column > 0);
        }
        other => panic!("expected a parse error, got {other:?}"),
    }
    assert!(e.to_string().starts_with("t.yaml:"), "{e}");
    assert_eq!(e.code().as_str(), "config.syntax");
}

#[test]
fn json_syntax_error_has_line_and_column() {
    let text = "{\n  \"version\": 1,\n  \"name\": \"x\",\n  \"entry\": \"a\"\n  \"agents\": []\n}";
    let e = config::parse(text, Format::Json, "t.json").unwrap_err();
    let ConfigError::Parse { line, column, field, .. } = &e else { panic!("{e:?}") };
    assert_eq!((*line, field.as_str()), (5, ""));
    assert!(*column > 0);
}

#[test]
fn wrong_type_names_the_field_path() {
    let text = "version: 1\nname: x\nentry: a\nagents:\n  - id: a\n    name: A\n    model: { provider: openai, name: gpt, temperature: hot }\n";
    let e = config::parse(text, Format::Yaml, "t.yaml").unwrap_err();
    let ConfigError::Parse { field, line, message, .. } = &e else { panic!("{e:?}") };
    assert_eq!(field, "agents[0].model.temperature");
    assert_eq!(*line, 7);
    assert!(message.contains("agents[0].model.temperature"), "{message}");
    assert_eq!(e.code().as_str(), "config.type");
}

#[test]
fn unknown_field_and_bad_policy_are_explained() {
    let text = "version: 1\nname: x\nentry: a\nagents: [{id: a, name: A, instructoins: hi}]\n";
    let e = config::parse(text, Format::Yaml, "t.yaml").unwrap_err().to_string();
    assert!(e.contains("instructoins") && e.contains("agents[0]"), "{e}");
    let text = "version: 1\nname: x\nentry: a\nagents: [{id: a, name: A}]\nedges: [{kind: handoff, from: a, to: a, policy: fll}]\n";
    let e = config::parse(text, Format::Yaml, "t.yaml").unwrap_err().to_string();
    assert!(e.contains("unknown policy 'fll'") && e.contains("remove_tools"), "{e}");
}

#[test]
fn every_unknown_agent_is_listed() {
    let text = "version: 1\nname: x\nentry: a\nagents: [{id: a, name: A}]\nedges:\n  - {kind: handoff, from: a, to: ghost}\n  - {kind: delegation, from: phantom, to: a}\n";
    let t = config::parse(text, Format::Yaml, "t.yaml").unwrap();
    let e = t.validate().unwrap_err();
    assert_eq!(e.problems.len(), 2, "{e}");
    let msg = e.to_string();
    assert!(msg.contains("'ghost'") && msg.contains("'phantom'"), "{msg}");
}

#[test]
fn newer_version_is_refused_clearly() {
    let text = "version: 2\nname: x\nentry: a\nagents: [{id: a, name: A, future_field: 1}]\n";
    let e = config::parse(text, Format::Yaml, "t.yaml").unwrap_err();
    assert!(matches!(e, ConfigError::Version { found: 2, .. }), "{e:?}");
    assert!(e.to_string().contains("version 2"));
}

#[test]
fn missing_file_is_a_read_error() {
    let e = config::load(std::path::Path::new("/nonexistent/t.yaml")).unwrap_err();
    assert_eq!(e.code().as_str(), "config.read");
    assert!(e.to_string().contains("/nonexistent/t.yaml"));
}

#[test]
fn checked_in_schema_matches_the_types() {
    let checked_in = std::fs::read_to_string(common::root().join("schema/topology.schema.json")).unwrap();
    assert_eq!(
        checked_in,
        config::topology_schema(),
        "schema/topology.schema.json is stale: run `cargo run -- schema > schema/topology.schema.json`"
    );
}

#[test]
fn failed_save_leaves_the_old_file_intact() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("t.yaml");
    std::fs::write(&p, "original").unwrap();
    let t = config::load(&common::example("support-triage.yaml")).unwrap();
    // A directory where the file's parent should be makes the write fail.
    let bad = dir.path().join("missing-dir").join("t.yaml");
    assert!(config::save(&t, &bad).is_err());
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "original");
    config::save(&t, &p).unwrap();
    assert_eq!(config::load(&p).unwrap(), t);
    // No temporary files are left beside it.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}
