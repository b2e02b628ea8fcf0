//! The supervisor refactor: a chain of handoffs becomes a supervisor that keeps ownership and
//! delegates to each former target, checking every "done" it must verify. The designer and
//! `baton refactor supervisor` call the same function; `changes` says what it did, for the
//! preview the designer shows before applying it.

mod changes;
pub use changes::{Change, ChangeArea, changes};

use crate::topology::{
    Acceptance, Agent, AgentKind, Edge, EdgeKind, MockAction, MockCall, MockRule, MockWhen, Topology, TopologyGraph,
};

#[derive(Debug, thiserror::Error)]
pub enum RefactorError {
    #[error("edge '{0}' does not exist; pass the ids of handoff edges (see `baton lint --format json`)")]
    UnknownEdge(String),
    #[error("edge '{0}' is a delegation; only a chain of handoffs can be refactored")]
    NotAHandoff(String),
    #[error("edges '{0}' and '{1}' do not form a chain: '{1}' must start where '{0}' ends")]
    NotAChain(String, String),
    #[error("there is no handoff chain from the entry agent '{0}' to refactor")]
    NoChain(String),
}

impl crate::error::Coded for RefactorError {
    fn code(&self) -> crate::error::ErrorCode {
        use crate::error::ErrorCode as C;
        match self {
            RefactorError::UnknownEdge(_) => C::RefactorUnknownEdge,
            RefactorError::NotAHandoff(_) => C::RefactorNotHandoff,
            RefactorError::NotAChain(..) => C::RefactorNotChain,
            RefactorError::NoChain(_) => C::RefactorNoChain,
        }
    }
}

/// A refactor's result: the new topology, the chain it rewrote, and what changed.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, ts_rs::TS)]
pub struct Refactored {
    pub topology: Topology,
    /// The new supervisor's id.
    pub supervisor: String,
    /// The handoff edges it replaced, in order (the selection's, or the longest chain from the entry).
    pub chain: Vec<String>,
    /// Whether the chain was given (the selected edges) or found (the longest from the entry).
    pub chosen: bool,
    pub changes: Vec<Change>,
}

/// [`supervisor_refactor`] with its chain and changes, for a preview.
pub fn supervisor_refactor_preview(t: &Topology, chain: Option<&[String]>) -> Result<Refactored, RefactorError> {
    let chosen = chain.is_some_and(|c| !c.is_empty());
    let used: Vec<String> = match chain {
        Some(c) if !c.is_empty() => c.to_vec(),
        _ => TopologyGraph::build(t).longest_handoff_chain(&t.entry),
    };
    let (topology, supervisor) = supervisor_refactor(t, Some(&used))?;
    let changes = changes(t, &topology);
    Ok(Refactored { topology, supervisor, chain: used, chosen, changes })
}

/// Rewrites the handoff chain `chain` (edge ids in order; the longest chain from the entry when
/// `None`) under a new supervisor. Returns the new topology and the supervisor's id.
pub fn supervisor_refactor(t: &Topology, chain: Option<&[String]>) -> Result<(Topology, String), RefactorError> {
    let chain: Vec<String> = match chain {
        Some(c) if !c.is_empty() => c.to_vec(),
        _ => TopologyGraph::build(t).longest_handoff_chain(&t.entry),
    };
    if chain.is_empty() {
        return Err(RefactorError::NoChain(t.entry.clone()));
    }
    let mut edges = vec![];
    for id in &chain {
        let e = t.edge(id).ok_or_else(|| RefactorError::UnknownEdge(id.clone()))?;
        if e.kind != EdgeKind::Handoff {
            return Err(RefactorError::NotAHandoff(id.clone()));
        }
        if let Some(prev) = edges.last().copied().filter(|p: &&Edge| p.to != e.from) {
            return Err(RefactorError::NotAChain(prev.id.clone(), e.id.clone()));
        }
        edges.push(e);
    }
    // Workers in order, each with the acceptance of the handoff that used to reach it.
    let mut workers: Vec<(String, Acceptance)> = vec![(edges[0].from.clone(), Acceptance::Trust)];
    workers.extend(edges.iter().map(|e| (e.to.clone(), e.acceptance)));
    let head = workers[0].0.clone();

    let mut out = t.clone();
    let sup_id = unique_id(t, "supervisor");
    let worker_names: Vec<String> =
        workers.iter().map(|(w, _)| t.agent(w).map(|a| a.name.clone()).unwrap_or(w.clone())).collect();
    let verify: Vec<&str> = workers
        .iter()
        .zip(&worker_names)
        .filter(|((_, acc), _)| *acc == Acceptance::Verify)
        .map(|(_, n)| n.as_str())
        .collect();
    let mut instructions = format!(
        "You own this conversation from start to finish and never hand it off. Delegate the work, \
         in order, to: {}. Each worker's \"done\" is a claim, not a fact: check it against the task \
         and the pinned facts you hold before you treat the task as closed.",
        worker_names.join(", ")
    );
    if !verify.is_empty() {
        instructions.push_str(&format!(" Verify the result of: {}.", verify.join(", ")));
    }
    out.agents.insert(
        0,
        Agent {
            id: sup_id.clone(),
            name: unique_name(t, "Supervisor"),
            kind: AgentKind::Supervisor,
            instructions,
            model: t.agent(&head).and_then(|a| a.model.clone()),
            tools: vec![],
            source: None,
        },
    );
    // Chain edges go; edges that reached the head now reach the supervisor, and the agents that
    // used them call the new transfer tool (their scripts too, below).
    let chain_ids: std::collections::HashSet<&String> = chain.iter().collect();
    out.edges.retain(|e| !chain_ids.contains(&e.id));
    let mut renamed: Vec<(String, String, String)> = vec![]; // (agent, old tool, edge index)
    for (i, e) in out.edges.iter_mut().enumerate().filter(|(_, e)| e.to == head && e.kind == EdgeKind::Handoff) {
        renamed.push((e.from.clone(), t.tool_name(e), i.to_string()));
        e.to = sup_id.clone();
        e.id.clear();
    }
    if out.entry == head {
        out.entry = sup_id.clone();
    }
    let mut new_edges = vec![];
    for (w, acc) in &workers {
        let mut e = Edge::new(EdgeKind::Delegation, &sup_id, w);
        e.acceptance = *acc;
        new_edges.push(e);
    }
    let shift = new_edges.len();
    out.edges.splice(0..0, new_edges);
    out.normalize();
    // (agent, old tool name, new tool name) of every retargeted edge.
    let renamed: Vec<(String, String, String)> = renamed
        .into_iter()
        .map(|(agent, old, i)| {
            let e = &out.edges[i.parse::<usize>().expect("an index") + shift];
            (agent, old, out.tool_name(e))
        })
        .filter(|(_, old, new)| old != new)
        .collect();
    // The supervisor holds every fact its workers held: it is the one that never leaves.
    for f in out.facts.iter_mut() {
        if f.holders.iter().any(|h| workers.iter().any(|(w, _)| w == h)) && !f.holders.contains(&sup_id) {
            f.holders.push(sup_id.clone());
        }
    }
    // Scripts: workers stop calling the removed transfer tools; the supervisor delegates in order.
    let removed: Vec<String> = edges.iter().map(|e| t.tool_name(e)).collect();
    let tools: Vec<String> = workers
        .iter()
        .map(|(w, _)| {
            let e = out.edges.iter().find(|e| e.from == sup_id && &e.to == w).expect("just added");
            out.tool_name(e)
        })
        .collect();
    let removed: std::collections::HashSet<String> = removed.into_iter().collect();
    for s in out.scenarios.iter_mut() {
        for (agent, rules) in s.scripts.iter_mut() {
            for r in rules.iter_mut() {
                for c in r.then.calls.iter_mut() {
                    if let Some((_, _, new)) = renamed.iter().find(|(a, old, _)| a == agent && *old == c.tool) {
                        c.tool = new.clone();
                    }
                }
                let before = r.then.calls.len();
                r.then.calls.retain(|c| !removed.contains(&c.tool));
                if r.then.calls.len() < before && r.then.calls.is_empty() && r.then.say.is_none() {
                    r.then.say = Some("Done.".into());
                }
            }
        }
        let mut rules: Vec<MockRule> = tools
            .iter()
            .enumerate()
            .map(|(i, tool)| MockRule {
                when: MockWhen { call: Some(i as u32 + 1), ..Default::default() },
                then: MockAction {
                    calls: vec![MockCall {
                        tool: tool.clone(),
                        args: serde_json::json!({ "input": s.input }),
                        id: None,
                    }],
                    ..Default::default()
                },
            })
            .collect();
        rules.push(MockRule {
            when: MockWhen::default(),
            then: MockAction {
                say: Some("Every worker reported; their claims were checked against the pinned facts.".into()),
                ..Default::default()
            },
        });
        s.scripts.insert(sup_id.clone(), rules);
        // Expectations follow the new structure: a loss at a removed edge cannot happen any more,
        // and the supervisor now owns what its workers used to end up owning.
        let gone: Vec<String> = edges.iter().map(|e| format!("{}->{}", e.from, e.to)).collect();
        s.expect.fact_lost_at.retain(|_, at| !gone.contains(at) && !chain_ids.contains(at));
        if s.expect.owner.as_ref().is_some_and(|o| workers.iter().any(|(w, _)| w == o)) {
            s.expect.owner = Some(sup_id.clone());
        }
    }
    if let Some(pos) = t.layout.get(&head) {
        let mut p = *pos;
        p.y -= 120.0;
        out.layout.insert(sup_id.clone(), p);
    }
    Ok((out, sup_id))
}

fn unique_id(t: &Topology, base: &str) -> String {
    let mut id = base.to_owned();
    let mut n = 2;
    while t.agent(&id).is_some() {
        id = format!("{base}_{n}");
        n += 1;
    }
    id
}

fn unique_name(t: &Topology, base: &str) -> String {
    let mut name = base.to_owned();
    let mut n = 2;
    while t.agents.iter().any(|a| a.name == name) {
        name = format!("{base} {n}");
        n += 1;
    }
    name
}
