//! `baton import-code`: the topology of agent code read with the real frameworks (openai-agents
//! and google-adk in the test venv; LangGraph and CrewAI in their own venvs), against what a person
//! reads in the modules (`tests/data/import_code/README.md`), the round trips export → import-code
//! for every example, ADK's own loading of the Agent Config export, and the errors of modules that
//! cannot be read.

use crate::common::*;
use baton::topology::{ContextPolicy, EdgeKind, Topology};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn import_code(path: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_baton"))
        .arg("import-code")
        .arg(path)
        .args(extra)
        .env("BATON_PYTHON", python())
        .output()
        .unwrap()
}

fn imported(path: &Path) -> Topology {
    let out = import_code(path, &[]);
    assert!(out.status.success(), "import-code {}: {}", path.display(), stderr(&out));
    baton::config::parse(&stdout(&out), baton::config::Format::Yaml, "import-code").unwrap()
}

fn data(name: &str) -> std::path::PathBuf {
    root().join("tests/data/import_code").join(name)
}

/// (kind, from name, to name, tool name, policy label) of every edge.
fn edges(t: &Topology) -> Vec<(String, String, String, String, String)> {
    let name = |id: &str| t.agent(id).unwrap().name.clone();
    t.edges
        .iter()
        .map(|e| (e.kind.as_str().to_owned(), name(&e.from), name(&e.to), t.tool_name(e), e.policy.label()))
        .collect()
}

fn e(kind: &str, from: &str, to: &str, tool: &str, policy: &str) -> (String, String, String, String, String) {
    (kind.into(), from.into(), to.into(), tool.into(), policy.into())
}

#[test]
fn an_agents_sdk_module_with_every_construct_reads_as_a_person_reads_it() {
    let t = imported(&data("openai_all.py"));
    assert_eq!(t.agent(&t.entry).unwrap().name, "Concierge");
    let mut names: Vec<&str> = t.agents.iter().map(|a| a.name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["Billing", "Concierge", "Escalation", "Legal", "Refunds", "Researcher", "Tech Support"]);
    let mut got = edges(&t);
    got.sort();
    let mut want = vec![
        e("delegation", "Concierge", "Researcher", "ask_researcher", "full"),
        e("handoff", "Concierge", "Billing", "transfer_to_billing", "full"),
        e("handoff", "Concierge", "Refunds", "escalate_refund", "remove_tools"),
        e("handoff", "Concierge", "Tech Support", "transfer_to_tech_support", "nest_summary"),
        e("handoff", "Concierge", "Legal", "transfer_to_legal", "custom(redact_history)"),
        // input_type with no input filter: the SDK passes the history too.
        e("handoff", "Concierge", "Escalation", "transfer_to_escalation", "full"),
    ];
    want.sort();
    assert_eq!(got, want);
    let concierge = t.agents.iter().find(|a| a.name == "Concierge").unwrap();
    let m = concierge.model.as_ref().unwrap();
    assert_eq!((m.name.as_str(), m.temperature, m.max_tokens), ("gpt-4o-mini", Some(0.2), Some(800)));
    let tools: Vec<&str> = concierge.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(tools, ["lookup_order", "web_search"]);
    let billing = t.agents.iter().find(|a| a.name == "Billing").unwrap();
    assert_eq!(billing.instructions, "dynamic: billing_instructions");
    let bm = billing.model.as_ref().unwrap();
    assert_eq!((bm.provider, bm.name.as_str()), (baton::topology::Provider::Anthropic, "claude-3-5-sonnet-20240620"));
    let refund = &billing.tools[0];
    assert_eq!(refund.name, "refund_invoice");
    assert_eq!(refund.description, "Refund part or all of an invoice.");
    assert_eq!(refund.parameters["required"], serde_json::json!(["invoice_id", "amount", "reason"]));
    // Every agent remembers its line; lint findings point there.
    let src = concierge.source.as_ref().unwrap();
    assert!(src.file.ends_with("openai_all.py") && src.line > 1, "{src:?}");
    let text = std::fs::read_to_string(data("openai_all.py")).unwrap();
    let line = text.lines().nth(src.line as usize - 1).unwrap();
    assert!(line.contains("Agent("), "line {} is where Concierge is built: {line}", src.line);
    let findings = baton::lint::lint(&t);
    let custom = findings.iter().find(|f| f.code.as_str() == "custom-filter").expect("lint flags the custom filter");
    assert_eq!(custom.source.as_ref().map(|s| s.line), Some(src.line));
}

#[test]
fn an_adk_module_reads_with_adk_transfer_rules() {
    let t = imported(&data("adk_all"));
    assert_eq!(t.entry, "coordinator");
    let got = edges(&t);
    for want in [
        e("handoff", "coordinator", "billing", "transfer_to_billing", "full"),
        e("handoff", "coordinator", "tech", "transfer_to_tech", "full"),
        e("handoff", "coordinator", "report_pipeline", "transfer_to_report_pipeline", "full"),
        e("handoff", "tech", "coordinator", "transfer_to_coordinator", "full"),
        e("handoff", "billing", "tech", "transfer_to_tech", "full"),
        e("handoff", "billing", "report_pipeline", "transfer_to_report_pipeline", "full"),
        e("delegation", "coordinator", "policy_expert", "policy_expert", "none"),
        e("delegation", "gather", "ticket_history", "ticket_history", "none"),
    ] {
        assert!(got.contains(&want), "{want:?} missing from {got:?}");
    }
    for absent in [("billing", "coordinator"), ("tech", "billing"), ("tech", "report_pipeline")] {
        assert!(
            !got.iter().any(|x| x.0 == "handoff" && x.1 == absent.0 && x.2 == absent.1),
            "{absent:?} is forbidden by a disallow flag: {got:?}"
        );
    }
    // Workflow agents' children run in order, not by transfers.
    assert!(!got.iter().any(|x| x.0 == "handoff" && (x.1 == "drafter" || x.1 == "order_history")), "{got:?}");
    let billing = t.agents.iter().find(|a| a.id == "billing").unwrap();
    let m = billing.model.as_ref().unwrap();
    assert_eq!((m.temperature, m.top_p, m.max_tokens), (Some(0.2), Some(0.9), Some(512)));
}

#[test]
fn the_ticket_story_as_agents_sdk_and_adk_code_matches_the_example() {
    let example = baton::config::load(&root().join("examples/ticket-reopen.yaml")).unwrap();
    for code in ["examples/code/ticket_agents.py", "examples/code/ticket_adk"] {
        let t = imported(&root().join(code));
        assert_eq!(t.agents.len(), example.agents.len(), "{code}");
        for a in &example.agents {
            let b = t.agents.iter().find(|x| x.name == a.name).unwrap_or_else(|| panic!("{code}: no {}", a.name));
            assert_eq!(b.instructions.trim_end(), a.instructions.trim_end(), "{code}: {}", a.name);
            let (ma, mb) = (a.model.as_ref().unwrap(), b.model.as_ref().unwrap());
            assert_eq!((ma.provider, &ma.name), (mb.provider, &mb.name), "{code}: {}", a.name);
            let tools = |x: &baton::topology::Agent| {
                x.tools
                    .iter()
                    .map(|t| {
                        let mut props: Vec<String> =
                            t.parameters["properties"].as_object().unwrap().keys().cloned().collect();
                        props.sort();
                        (t.name.clone(), t.description.lines().next().unwrap_or("").to_owned(), props)
                    })
                    .collect::<Vec<_>>()
            };
            assert_eq!(tools(b), tools(a), "{code}: tools of {}", a.name);
        }
        let kinds = |t: &Topology| {
            let name = |id: &str| t.agent(id).unwrap().name.clone();
            t.edges.iter().map(|e| (e.kind, name(&e.from), name(&e.to))).collect::<Vec<_>>()
        };
        assert_eq!(kinds(&t), kinds(&example), "{code}");
        assert_eq!(t.agent(&t.entry).unwrap().name, "Triage");
    }
}

/// Export each example to the Agents SDK, ADK Python and ADK YAML, and read it back: agents,
/// edges (kind, ends, tool name, and the policy where the target can express it) and tools
/// come back equal.
#[test]
fn every_example_round_trips_through_each_code_export() {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(root().join("examples")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("yaml") {
            continue;
        }
        let t = baton::config::load(&path).unwrap();
        let stem = path.file_stem().unwrap().to_str().unwrap().replace('-', "_");
        for format in ["openai-agents-py", "adk-py", "adk-yaml"] {
            let out_path = match format {
                "openai-agents-py" => dir.path().join(format!("{stem}_sdk.py")),
                "adk-py" => dir.path().join(format!("{stem}_adk.py")),
                _ => dir.path().join(format!("{stem}_yaml")),
            };
            let out = Command::new(env!("CARGO_BIN_EXE_baton"))
                .args(["export", path.to_str().unwrap(), "--to", format, "-o", out_path.to_str().unwrap()])
                .output()
                .unwrap();
            assert!(out.status.success(), "{format} {}: {}", path.display(), stderr(&out));
            let warned = stderr(&out);
            let back = imported(&if format == "adk-yaml" { out_path.join("root_agent.yaml") } else { out_path });
            let adk = format != "openai-agents-py";
            // ADK names agents with identifiers (the export says so when it renames).
            let adk_name = |n: &str| if adk { n.to_lowercase().replace(' ', "_") } else { n.to_owned() };
            let name = |t: &Topology, id: &str| t.agent(id).unwrap().name.clone();
            let reached: Vec<&baton::topology::Agent> = t
                .agents
                .iter()
                .filter(|a| {
                    format != "adk-yaml"
                        || !warned.contains(&format!("{}: no handoff from the entry reaches it", a.name))
                })
                .collect();
            let mut want_agents: Vec<String> = reached.iter().map(|a| adk_name(&a.name)).collect();
            let mut got_agents: Vec<String> =
                back.agents.iter().map(|a| if adk { a.name.to_lowercase() } else { a.name.clone() }).collect();
            want_agents.sort();
            got_agents.sort();
            assert_eq!(got_agents, want_agents, "{format} {stem}: agents");
            for a in &reached {
                let b = back.agents.iter().find(|b| adk_name(&b.name) == adk_name(&a.name)).unwrap();
                let tools = |x: &baton::topology::Agent| {
                    x.tools
                        .iter()
                        .map(|t| {
                            let mut props: Vec<String> = t.parameters["properties"]
                                .as_object()
                                .map(|p| p.keys().cloned().collect())
                                .unwrap_or_default();
                            props.sort();
                            (t.name.clone(), t.description.clone(), props)
                        })
                        .collect::<Vec<_>>()
                };
                assert_eq!(tools(b), tools(a), "{format} {stem}: tools of {}", a.name);
            }
            // Edges: what ADK cannot express is named in a warning and left out of the comparison.
            let mut want: Vec<(&str, String, String, String, String)> = t
                .edges
                .iter()
                .filter(|e| reached.iter().any(|a| a.id == e.to) || !adk)
                .map(|e| {
                    let policy = match (&e.policy, adk, e.kind) {
                        (_, _, EdgeKind::Delegation) => "full".to_owned(),
                        (ContextPolicy::Full | ContextPolicy::None, _, _) | (_, false, _) => e.policy.label(),
                        _ => {
                            assert!(warned.contains(&e.policy.label()), "{format} {stem}: no warning for {}", e.id);
                            "full".to_owned()
                        }
                    };
                    let tool = if adk && e.kind == EdgeKind::Delegation {
                        adk_name(&name(&t, &e.to))
                    } else if adk {
                        format!("transfer_to_{}", adk_name(&name(&t, &e.to)))
                    } else {
                        t.tool_name(e)
                    };
                    (e.kind.as_str(), adk_name(&name(&t, &e.from)), adk_name(&name(&t, &e.to)), tool, policy)
                })
                .collect();
            let mut got: Vec<(&str, String, String, String, String)> = back
                .edges
                .iter()
                .map(|e| {
                    let policy = if e.kind == EdgeKind::Delegation { "full".into() } else { e.policy.label() };
                    (
                        e.kind.as_str(),
                        adk_name(&name(&back, &e.from)),
                        adk_name(&name(&back, &e.to)),
                        if adk { back.tool_name(e).to_lowercase() } else { back.tool_name(e) },
                        policy,
                    )
                })
                .collect();
            if adk {
                // ADK lets an agent transfer to every peer once it may reach one; the warning says so.
                got.retain(|g| want.contains(g) || !warned.contains("transfer to all its peers or none"));
            }
            want.sort();
            got.sort();
            assert_eq!(got, want, "{format} {stem}: edges (warnings: {warned})");
        }
    }
}

/// ADK itself loads the Agent Config export: the tree, tools and include_contents it builds are
/// the topology's.
#[test]
fn adk_loads_the_agent_config_export() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("support_triage");
    let out = Command::new(env!("CARGO_BIN_EXE_baton"))
        .args(["export", "examples/support-triage.yaml", "--to", "adk-yaml", "-o", out_dir.to_str().unwrap()])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let loaded =
        Command::new(python()).arg(root().join("tests/fidelity/load_adk_config.py")).arg(&out_dir).output().unwrap();
    assert!(loaded.status.success(), "ADK could not load the export: {}", stderr(&loaded));
    let tree: Value = serde_json::from_slice(&loaded.stdout).unwrap();
    let t = baton::config::load(&root().join("examples/support-triage.yaml")).unwrap();
    // ADK keeps a name that is an identifier; the export renames the others (and says so).
    let ident = |n: &str| if n.contains(' ') { n.to_lowercase().replace(' ', "_") } else { n.to_owned() };
    assert_eq!(tree["root"], ident(&t.agent(&t.entry).unwrap().name));
    for a in &t.agents {
        let got = &tree["agents"][ident(&a.name)];
        assert!(got.is_object(), "ADK built no agent {}: {tree}", a.name);
        let functions: Vec<&str> =
            got["tools"].as_array().unwrap().iter().filter_map(|x| x["function"].as_str()).collect();
        let want: Vec<&str> = a.tools.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(functions, want, "tools of {}", a.name);
        let subs: Vec<String> =
            got["sub_agents"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_owned()).collect();
        for e in t.edges_from(&a.id).filter(|e| e.kind == EdgeKind::Handoff && e.to != t.entry) {
            let to = ident(&t.agent(&e.to).unwrap().name);
            let parent = tree["agents"]
                .as_object()
                .unwrap()
                .iter()
                .any(|(_, x)| x["sub_agents"].as_array().unwrap().iter().any(|s| *s == to));
            assert!(subs.contains(&to) || parent, "handoff {} has a place in ADK's tree", e.id);
        }
        let none = t.edges.iter().any(|e| e.to == a.id && e.policy == ContextPolicy::None);
        assert_eq!(got["include_contents"], if none { "none" } else { "default" }, "{}", a.name);
    }
}

/// Modules that cannot be read: a clear error (what, where, how to fix), exit 2, nothing written.
#[test]
fn modules_that_cannot_be_read_get_clear_errors_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    for (file, says) in [
        ("syntax_error.py", vec!["syntax error", "syntax_error.py:6"]),
        ("raises.py", vec!["ValueError: missing setting SUPPORT_QUEUE", "raises.py:9"]),
        ("missing_dep.py", vec!["nonexistent_pkg_baton", "-m pip install nonexistent_pkg_baton"]),
        ("no_agents.py", vec!["no agent"]),
        ("two_entries.py", vec!["Sales", "Support", "--entry"]),
    ] {
        let target = dir.path().join(format!("{file}.yaml"));
        let out = import_code(&data(file), &["-o", target.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{file}: {}", stderr(&out));
        let err = stderr(&out);
        for s in says {
            assert!(err.contains(s), "{file}: '{s}' not in: {err}");
        }
        assert!(!target.exists(), "{file}: nothing is written");
    }
    // With --entry the two candidates are no longer ambiguous.
    let out = import_code(&data("two_entries.py"), &["--entry", "Sales"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("entry: sales"), "{}", stdout(&out));
}

/// A tool description with quotes, backslashes and lines survives the ADK export as the
/// function's docstring (what ADK sends the model as the tool's description).
#[test]
fn tool_descriptions_with_quotes_survive_the_adk_export() {
    let mut t = baton::config::load(&root().join("examples/ticket-reopen.yaml")).unwrap();
    let description = "Merge a \"fix\" for C:\\checkout.\nSay \"done\"";
    t.agents.iter_mut().find(|a| a.id == "resolution").unwrap().tools[0].description = description.into();
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("quoted_adk.py");
    std::fs::write(&module, baton::export::to_adk_py(&t).unwrap()).unwrap();
    let back = imported(&module);
    let tool = &back.agents.iter().find(|a| a.name == "Resolution").unwrap().tools[0];
    assert_eq!(tool.description, description);
}

/// `import-code` with one framework's venv (`scripts/pyenv.sh NAME`), HOME in a temporary folder
/// (CrewAI writes its settings there at import).
fn import_with(venv: &str, path: &Path, extra: &[&str]) -> Output {
    let home = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_baton"))
        .arg("import-code")
        .arg(path)
        .arg("--python")
        .arg(framework_python(venv))
        .args(extra)
        .env("HOME", home.path())
        .output()
        .unwrap()
}

fn imported_with(venv: &str, path: &Path) -> (Topology, String) {
    let out = import_with(venv, path, &[]);
    assert!(out.status.success(), "import-code {}: {}", path.display(), stderr(&out));
    (baton::config::parse(&stdout(&out), baton::config::Format::Yaml, "import-code").unwrap(), stderr(&out))
}

fn sorted<T: Ord>(mut v: Vec<T>) -> Vec<T> {
    v.sort();
    v
}

/// (agent name, its tool names, provider, model name).
fn agent_summary(t: &Topology, name: &str) -> (Vec<String>, Option<(baton::topology::Provider, String)>) {
    let a = t.agents.iter().find(|a| a.name == name).unwrap_or_else(|| panic!("no agent {name}"));
    (a.tools.iter().map(|t| t.name.clone()).collect(), a.model.as_ref().map(|m| (m.provider, m.name.clone())))
}

/// A swarm: its agents' handoff tools are handoffs (the whole history, as LangGraph passes it), a
/// tool whose function runs another agent is a delegation, the default active agent is the entry.
#[test]
fn a_langgraph_swarm_reads_as_a_person_reads_it() {
    use baton::topology::Provider;
    let (t, err) = imported_with("langgraph", &data("graph_swarm.py"));
    assert_eq!(t.agent(&t.entry).unwrap().name, "triage");
    assert_eq!(sorted(t.agents.iter().map(|a| a.name.as_str()).collect()), ["billing", "researcher", "triage"]);
    assert_eq!(
        sorted(edges(&t)),
        [
            e("delegation", "billing", "researcher", "ask_researcher", "full"),
            e("handoff", "billing", "triage", "transfer_to_triage", "full"),
            e("handoff", "triage", "billing", "transfer_to_billing", "full"),
        ]
    );
    assert_eq!(
        agent_summary(&t, "triage"),
        (vec!["lookup_invoice".into()], Some((Provider::Openai, "gpt-4o-mini".into())))
    );
    assert_eq!(
        agent_summary(&t, "billing"),
        (vec!["issue_refund".into()], Some((Provider::Anthropic, "claude-sonnet-4-5".into())))
    );
    assert_eq!(agent_summary(&t, "researcher").0, ["search_docs"]);
    let triage = t.agents.iter().find(|a| a.name == "triage").unwrap();
    assert_eq!(triage.instructions, "You are triage. Look up invoices, then transfer billing problems to billing.");
    let handoff = t.edges.iter().find(|e| e.from == "triage").unwrap();
    assert_eq!(handoff.description, "Transfer billing problems to billing.");
    let src = triage.source.as_ref().unwrap();
    let text = std::fs::read_to_string(data("graph_swarm.py")).unwrap();
    let line = text.lines().nth(src.line as usize - 1).unwrap();
    assert!(line.contains("triage = create_agent("), "line {} is where triage is built: {line}", src.line);
    assert!(err.contains("3 agents, 3 edges (2 handoffs, 1 delegations), entry triage"), "{err}");
}

/// A supervisor: its handoff tools are delegations (control comes back), the output mode and what
/// the workers receive are in the notes.
#[test]
fn a_langgraph_supervisor_reads_as_delegations() {
    use baton::topology::{AgentKind, Provider};
    let (t, err) = imported_with("langgraph", &data("graph_supervisor.py"));
    assert_eq!(t.entry, "supervisor");
    let sup = t.agent("supervisor").unwrap();
    assert_eq!(sup.kind, AgentKind::Supervisor);
    assert_eq!(sup.instructions, "You are a team supervisor managing a research expert and a math expert.");
    let m = sup.model.as_ref().unwrap();
    assert_eq!((m.provider, m.name.as_str(), m.temperature), (Provider::Openai, "gpt-4o", Some(0.0)));
    assert_eq!(
        sorted(edges(&t)),
        [
            e("delegation", "supervisor", "math_expert", "transfer_to_math_expert", "full"),
            e("delegation", "supervisor", "research_expert", "transfer_to_research_expert", "full"),
        ]
    );
    assert_eq!(agent_summary(&t, "math_expert").0, ["add"]);
    assert_eq!(agent_summary(&t, "research_expert").0, ["web_search"]);
    assert!(err.contains("note: supervisor: langgraph-supervisor, output_mode full_history"), "{err}");
    assert!(err.contains("give a worker the whole conversation"), "{err}");
}

/// A sequential crew: handoffs along the task order, each carrying the previous task's output
/// (the `fields` policy); `allow_delegation` gives delegations to the other agents.
#[test]
fn a_sequential_crew_reads_as_handoffs_along_its_tasks() {
    use baton::topology::Provider;
    let (t, err) = imported_with("crewai", &data("crew_sequential.py"));
    assert_eq!(t.agent(&t.entry).unwrap().name, "Researcher");
    assert_eq!(
        sorted(edges(&t)),
        [
            e("delegation", "Writer", "Editor", "editor", "full"),
            e("delegation", "Writer", "Researcher", "researcher", "full"),
            e("handoff", "Researcher", "Writer", "transfer_to_writer", "fields(output)"),
            e("handoff", "Writer", "Editor", "transfer_to_editor", "fields(output)"),
        ]
    );
    assert_eq!(
        agent_summary(&t, "Researcher"),
        (vec!["search_docs".into()], Some((Provider::Openai, "gpt-4o-mini".into())))
    );
    let writer = t.agents.iter().find(|a| a.name == "Writer").unwrap();
    assert!(
        writer
            .instructions
            .starts_with("You are Writer. You write for developers.\nYour personal goal is: Write a short, clear post"),
        "{}",
        writer.instructions
    );
    assert!(
        writer.instructions.contains("- write: Write a post from the notes.\n  Expected output: Three paragraphs."),
        "{}",
        writer.instructions
    );
    assert!(err.contains("note: Writer: allow_delegation gives it CrewAI's Delegate work to coworker"), "{err}");
}

/// A hierarchical crew: CrewAI's manager (built from manager_llm) delegates to every agent.
#[test]
fn a_hierarchical_crew_reads_as_its_manager_delegating() {
    use baton::topology::{AgentKind, Provider};
    let (t, err) = imported_with("crewai", &data("crew_hierarchical.py"));
    let manager = t.agent(&t.entry).unwrap();
    assert_eq!((manager.name.as_str(), manager.kind), ("Crew Manager", AgentKind::Supervisor));
    let m = manager.model.as_ref().unwrap();
    assert_eq!((m.provider, m.name.as_str()), (Provider::Openai, "gpt-4o"));
    assert!(manager.instructions.contains("- tagline: Write a launch tagline for Baton."), "{}", manager.instructions);
    assert_eq!(
        sorted(edges(&t)),
        [
            e("delegation", "Crew Manager", "Researcher", "researcher", "full"),
            e("delegation", "Crew Manager", "Writer", "writer", "full"),
        ]
    );
    assert_eq!(agent_summary(&t, "Researcher").0, ["search_docs"]);
    assert!(err.contains("note: Crew Manager: runs every task of the hierarchical crew"), "{err}");
}

/// A module that builds a LangGraph graph but no agent gets the clear error, nothing written.
#[test]
fn a_module_with_no_langgraph_agent_gets_the_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("out.yaml");
    for extra in [vec![], vec!["--framework", "langgraph"]] {
        let mut args = extra.clone();
        args.extend(["-o", target.to_str().unwrap()]);
        let out = import_with("langgraph", &data("graph_no_agents.py"), &args);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("builds no agent at import time"), "{extra:?}: {}", stderr(&out));
        assert!(!target.exists());
    }
}

/// A module that tries, at import, every escape the probe of issue #30 found: connections to a
/// listener on the host's loopback by six routes, a DNS lookup, writes outside its folder and in
/// the home folder, a child holding standard output, a double-forked daemon, and a forged answer.
/// Each attempt's outcome is put in an agent's instructions, so the import shows what happened.
const HOSTILE: &str = r#"
import ctypes, json, os, socket, struct, subprocess, sys, time
from agents import Agent

PORT, OUTSIDE, MARKER, HOME = __PORT__, __OUTSIDE__, __MARKER__, __HOME__
seen = {}

def attempt(name, fn):
    try:
        fn()
        seen[name] = "reached"
    except BaseException as e:
        seen[name] = "blocked: " + type(e).__name__

def raw_socket():
    import _socket
    s = _socket.socket(); s.settimeout(2); s.connect(("127.0.0.1", PORT))

def super_connect():
    s = socket.socket(); s.settimeout(2); super(socket.socket, s).connect(("127.0.0.1", PORT))

def udp():
    import _socket
    u = _socket.socket(_socket.AF_INET, _socket.SOCK_DGRAM); u.sendto(b"leak", ("127.0.0.1", PORT + 1))

def child(code):
    r = subprocess.run([sys.executable, "-c", code], timeout=10)
    if r.returncode != 0:
        raise OSError("child failed")

CONNECT = "import _socket; s=_socket.socket(); s.settimeout(2); s.connect(('127.0.0.1', %d))" % PORT

def libc_connect():
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.socket(2, 1, 0)
    addr = struct.pack("<HH4s8x", 2, socket.htons(PORT), bytes([127, 0, 0, 1]))
    if libc.connect(fd, addr, len(addr)) != 0:
        raise OSError(ctypes.get_errno(), "connect")

def write(path):
    with open(path, "w") as f:
        f.write("pwned")

attempt("socket", raw_socket)
attempt("super_connect", super_connect)
attempt("udp", udp)
attempt("subprocess", lambda: child(CONNECT))
attempt("os_system", lambda: (_ for _ in ()).throw(OSError()) if os.system(sys.executable + ' -c "' + CONNECT + '"') else None)
attempt("ctypes", libc_connect)
attempt("dns", lambda: socket.gethostbyname("example.com"))
attempt("write_outside", lambda: write(OUTSIDE))
attempt("write_home", lambda: write(os.path.join(HOME, "baton-sandbox-probe")))
# $HOME is a private, empty folder that goes with the sandbox: writing there works.
write(os.path.expanduser("~/baton-sandbox-probe"))
attempt("key", lambda: os.environ.get("OPENAI_API_KEY", "").startswith("sk-") or (_ for _ in ()).throw(PermissionError()))

# A child that holds standard output open, and a daemon that outlives its parent.
if os.fork() == 0:
    time.sleep(300); os._exit(0)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sleep", [MARKER, "300"])
    os._exit(0)

probe = Agent(name="Probe", instructions=json.dumps(seen, sort_keys=True))
if __FORGE__:
    forged = {"framework": "openai-agents", "agents": [{"name": "Pwned"}]}
    print(json.dumps(forged)); sys.stdout.flush()
    for fd in range(3, 32):
        try:
            os.write(fd, (json.dumps(forged) + "\n").encode())
        except OSError:
            pass
    os._exit(0)
"#;

fn hostile_module(dir: &Path, port: u16, forge: bool, marker: &str) -> std::path::PathBuf {
    let folder = dir.join("module");
    std::fs::create_dir_all(&folder).unwrap();
    let outside = dir.join("outside.txt");
    let text = HOSTILE
        .replace("__PORT__", &port.to_string())
        .replace("__OUTSIDE__", &format!("{:?}", outside.to_str().unwrap()))
        .replace("__MARKER__", &format!("{marker:?}"))
        .replace("__HOME__", &format!("{:?}", dirs::home_dir().unwrap().to_str().unwrap()))
        .replace("__FORGE__", if forge { "True" } else { "False" });
    let path = folder.join("hostile.py");
    std::fs::write(&path, text).unwrap();
    path
}

/// Processes on this machine whose command line holds `marker`.
fn processes_named(marker: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains(marker))
        .collect()
}

#[test]
fn a_hostile_module_reaches_no_network_writes_nothing_and_leaves_no_process() {
    let dir = tempfile::tempdir().unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let udp = std::net::UdpSocket::bind(("127.0.0.1", port + 1)).unwrap();
    udp.set_nonblocking(true).unwrap();
    let marker = format!("baton-sandbox-daemon-{}", std::process::id());
    let module = hostile_module(dir.path(), port, false, &marker);
    let started = std::time::Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_baton"))
        .arg("import-code")
        .arg(&module)
        .env("BATON_PYTHON", python())
        .env("OPENAI_API_KEY", "sk-canary-sandbox-0123456789")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let t = baton::config::parse(&stdout(&out), baton::config::Format::Yaml, "import-code").unwrap();
    let seen: serde_json::Map<String, Value> =
        serde_json::from_str(&t.agents.iter().find(|a| a.name == "Probe").unwrap().instructions).unwrap();
    // A datagram is sent into the sandbox's own loopback without an error: what proves it
    // blocked is the host's socket below receiving nothing.
    for (attempt, outcome) in seen.iter().filter(|(a, _)| *a != "udp") {
        assert!(outcome.as_str().unwrap().starts_with("blocked"), "{attempt}: {outcome}");
    }
    assert_eq!(seen.len(), 10, "every attempt ran: {seen:?}");
    assert!(listener.accept().is_err(), "a connection reached the host's loopback");
    assert!(udp.recv(&mut [0; 16]).is_err(), "a datagram reached the host's loopback");
    assert!(!dir.path().join("outside.txt").exists());
    assert!(!dirs::home_dir().unwrap().join("baton-sandbox-probe").exists());
    // The child holding stdout did not keep Baton waiting for its 300 s, and the daemon is gone.
    assert!(started.elapsed() < std::time::Duration::from_secs(100), "{:?}", started.elapsed());
    assert_eq!(processes_named(&marker), Vec::<String>::new());
    assert!(stderr(&out).contains("ran in Baton's sandbox"), "{}", stderr(&out));
}

#[test]
fn a_forged_answer_is_not_taken_for_the_introspection() {
    let dir = tempfile::tempdir().unwrap();
    let module = hostile_module(dir.path(), 9, true, "baton-sandbox-forger");
    let out = import_code(&module, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(!stdout(&out).contains("Pwned"));
    assert!(stderr(&out).contains("gave no answer"), "{}", stderr(&out));
}

#[test]
fn without_a_sandbox_the_module_runs_only_when_trusted() {
    let module = data("two_entries.py");
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_baton"))
            .arg("import-code")
            .arg(&module)
            .args(["--entry", "Sales"])
            .args(extra)
            .env("BATON_PYTHON", python())
            .env("BATON_BWRAP", "/nonexistent/bwrap")
            .output()
            .unwrap()
    };
    let refused = run(&[]);
    assert_eq!(refused.status.code(), Some(2));
    let err = stderr(&refused);
    assert!(err.contains("sandbox cannot start") && err.contains("--trust-code"), "{err}");
    assert!(stdout(&refused).is_empty());
    let trusted = run(&["--trust-code"]);
    assert!(trusted.status.success(), "{}", stderr(&trusted));
    assert!(stderr(&trusted).contains("without an OS sandbox"), "{}", stderr(&trusted));
}

/// A framework missing from the interpreter is named by the distribution that installs it (what
/// a person reads on PyPI): `openai-agents` for `import agents`, `google-adk` for `google.adk`.
#[test]
fn a_missing_framework_is_named_by_the_package_that_installs_it() {
    let bare = Command::new("python3").args(["-c", "import agents"]).output().unwrap();
    assert!(!bare.status.success(), "the system python3 must lack the Agents SDK for this test");
    for (module, package) in [("openai_all.py", "pip install openai-agents"), ("adk_all", "pip install google-adk")] {
        let out = Command::new(env!("CARGO_BIN_EXE_baton"))
            .args(["import-code", data(module).to_str().unwrap(), "--python", "python3"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = stderr(&out);
        assert!(err.contains(package) && err.contains("in the window"), "{module}: {err}");
    }
}

/// Import from code's Python picker (issue #31 item 8), as the window uses it: the backend lists
/// the interpreters it found for a module (a virtual environment beside it first, python3 last);
/// the one picked reads the module, python3 (which lacks the Agents SDK) names the package and the
/// picker; an executable it did not find is refused, so a window never names what runs.
#[tokio::test]
async fn the_window_picks_among_the_interpreters_found_for_a_module() {
    use baton::api::{Api, FileAccess};
    use serde_json::json;
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(data("openai_all.py"), dir.path().join("app.py")).unwrap();
    // The project's venv: a launcher for the pinned venv that has the Agents SDK.
    let bin = dir.path().join(".venv/bin");
    std::fs::create_dir_all(&bin).unwrap();
    let launcher = bin.join("python");
    std::fs::write(&launcher, format!("#!/bin/sh\nexec '{}' \"$@\"\n", python().display())).unwrap();
    std::fs::set_permissions(&launcher, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let api = Api::new(FileAccess::Root(dir.path().to_path_buf()), dir.path().join("runs.db").display().to_string());

    let found = api.dispatch("code_interpreters", json!({"path": "app.py"})).await.unwrap();
    let found: Vec<(String, String)> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["path"].as_str().unwrap().to_owned(), i["found"].as_str().unwrap().to_owned()))
        .collect();
    let venv = std::fs::canonicalize(&launcher).unwrap().display().to_string();
    assert_eq!(found.first(), Some(&(venv.clone(), "a virtual environment beside the module".to_owned())), "{found:?}");
    assert_eq!(found.last(), Some(&("python3".to_owned(), "python3 on PATH".to_owned())), "{found:?}");

    let read = api.dispatch("import_code", json!({"path": "app.py", "python": venv})).await.unwrap();
    assert!(read["topology"]["agents"].as_array().is_some_and(|a| a.len() >= 2), "{read}");

    let e = api.dispatch("import_code", json!({"path": "app.py", "python": "python3"})).await.unwrap_err();
    assert_eq!(e.code.as_str(), "code.module");
    assert!(e.message.contains("pip install openai-agents") && e.message.contains("Python field"), "{}", e.message);

    let e = api.dispatch("import_code", json!({"path": "app.py", "python": "/bin/sh"})).await.unwrap_err();
    assert_eq!(e.code.as_str(), "code.python");
    assert!(e.message.contains("/bin/sh is not an interpreter Baton found for this module"), "{}", e.message);
}
