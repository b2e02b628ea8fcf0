//! CrewAI crews as Baton edges. A crew has no handoff or agent-tool objects to read: its edges
//! follow from the process. A sequential crew runs its tasks in order, each by its agent, so
//! ownership moves along the task order (handoffs); a hierarchical crew's manager runs every task
//! and calls the agents through its delegation tools (delegations), and so does an agent with
//! `allow_delegation` in a sequential crew.

use super::model::{CodeAgent, CodeCrew, CodeHandoff, CodeModel, CodeTask, CodeTool};
use crate::topology::{ContextPolicy, EdgeKind, FieldSpec, default_tool_name};

/// What crosses a sequential crew's handoff.
///
/// CrewAI gives the next task's agent only the previous task's final answer (`TaskOutput.raw`),
/// appended to its own task prompt as "This is the context you're working with"; nothing of the
/// previous agent's conversation (its prompt, tool calls, thoughts) crosses. Of Baton's policies,
/// `{fields: [output]}` is the one that carries exactly one message holding one value the sender
/// hands over and drops the history: `last_n` would keep the transfer call and its output rather
/// than the answer, `nest_summary` a summary of the whole transcript (tool calls included), and
/// `none` nothing the sender wrote.
fn task_output_policy() -> ContextPolicy {
    ContextPolicy::Fields(vec![FieldSpec {
        name: "output".into(),
        ty: "string".into(),
        description: "The final answer of the task just done: CrewAI passes its text to the next task as its context."
            .into(),
    }])
}

/// The crew's edges added to its agents (handoffs and agent tools), its entry, and notes on what
/// the edges leave out.
pub fn with_crew_edges(m: &CodeModel) -> (CodeModel, Vec<String>) {
    let mut m = m.clone();
    let Some(crew) = m.crew.clone() else {
        return (m, vec![]);
    };
    let mut notes = vec![];
    if crew.process == "hierarchical" {
        hierarchical(&mut m, &crew, &mut notes);
    } else {
        sequential(&mut m, &crew, &mut notes);
    }
    if crew.tasks.iter().any(|t| t.is_async) {
        notes.push("some tasks run asynchronously (async_execution); Baton runs them one after another".into());
    }
    (m, notes)
}

fn agent_mut<'a>(m: &'a mut CodeModel, name: &str) -> Option<&'a mut CodeAgent> {
    m.agents.iter_mut().find(|a| a.name == name)
}

fn sequential(m: &mut CodeModel, crew: &CodeCrew, notes: &mut Vec<String>) {
    m.root_agent = crew.tasks.iter().find_map(|t| t.agent.clone()).or(m.root_agent.take());
    for (i, pair) in crew.tasks.windows(2).enumerate() {
        let (prev, next) = (&pair[0], &pair[1]);
        let (Some(from), Some(to)) = (&prev.agent, &next.agent) else { continue };
        context_note(prev, next, i + 1, notes);
        if from == to {
            continue;
        }
        let policy = match &next.context {
            Some(c) if c.is_empty() => ContextPolicy::None,
            _ => task_output_policy(),
        };
        let description = format!("Task '{}' is done; '{}' is {to}'s.", prev.name, next.name);
        if let Some(a) = agent_mut(m, from)
            && !a.handoffs.iter().any(|h| h.agent == *to)
        {
            a.handoffs.push(handoff(to, description, policy));
        }
    }
    let delegating: Vec<String> = m
        .agents
        .iter()
        .filter(|a| a.allow_delegation && crew.agents.contains(&a.name))
        .map(|a| a.name.clone())
        .collect();
    for from in delegating {
        let coworkers: Vec<String> = crew.agents.iter().filter(|c| **c != from).cloned().collect();
        add_delegations(m, &from, &coworkers);
        notes.push(format!(
            "{from}: allow_delegation gives it CrewAI's Delegate work to coworker and Ask question to coworker tools, \
             which name the coworker in their arguments; Baton draws one delegation per coworker"
        ));
    }
}

/// Says what a task reads that the handoff into it does not carry.
fn context_note(prev: &CodeTask, next: &CodeTask, index: usize, notes: &mut Vec<String>) {
    match &next.context {
        None if index > 1 => notes.push(format!(
            "task '{}' gets the outputs of every earlier task (CrewAI's default context); the handoff into it \
             carries only the output of '{}'",
            next.name, prev.name
        )),
        Some(c) if !c.is_empty() && *c != [prev.name.clone()] => notes.push(format!(
            "task '{}' reads the outputs of {}; the handoff into it carries only the output of '{}'",
            next.name,
            c.iter().map(|t| format!("'{t}'")).collect::<Vec<_>>().join(", "),
            prev.name
        )),
        _ => {}
    }
}

fn hierarchical(m: &mut CodeModel, crew: &CodeCrew, notes: &mut Vec<String>) {
    let Some(manager) = crew.manager.clone() else { return };
    m.root_agent = Some(manager.clone());
    // CrewAI's `_update_manager_tools`: a task with an agent lets the manager call that agent
    // only; a task without one, every agent of the crew.
    let mut workers: Vec<String> = vec![];
    for t in &crew.tasks {
        let these = match &t.agent {
            Some(a) if *a != manager => vec![a.clone()],
            _ => crew.agents.clone(),
        };
        for w in these {
            if !workers.contains(&w) && w != manager {
                workers.push(w);
            }
        }
    }
    add_delegations(m, &manager, &workers);
    notes.push(format!(
        "{manager}: runs every task of the hierarchical crew (they are in its instructions) and calls the agents \
         through CrewAI's Delegate work to coworker and Ask question to coworker tools, which name the coworker in \
         their arguments; Baton draws one delegation per coworker"
    ));
    let ignored: Vec<&str> = m
        .agents
        .iter()
        .filter(|a| a.allow_delegation && a.name != manager && crew.agents.contains(&a.name))
        .map(|a| a.name.as_str())
        .collect();
    if !ignored.is_empty() {
        notes.push(format!(
            "{}: allow_delegation does nothing in a hierarchical crew (only the manager gets delegation tools)",
            ignored.join(", ")
        ));
    }
}

fn add_delegations(m: &mut CodeModel, from: &str, to: &[String]) {
    let Some(a) = agent_mut(m, from) else { return };
    for w in to {
        if a.tools.iter().any(|t| matches!(t, CodeTool::Agent { agent, .. } if agent == w)) {
            continue;
        }
        a.tools.push(CodeTool::Agent {
            name: default_tool_name(EdgeKind::Delegation, w),
            description: Some(format!("Delegate work to {w}, or ask {w} a question (CrewAI's delegation tools).")),
            agent: w.clone(),
        });
    }
}

fn handoff(to: &str, description: String, policy: ContextPolicy) -> CodeHandoff {
    CodeHandoff {
        agent: to.to_owned(),
        tool_name: None,
        default_tool_name: true,
        tool_description: Some(description),
        input_filter: None,
        input_type: None,
        policy: Some(policy),
    }
}
