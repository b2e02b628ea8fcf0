//! Mermaid and Graphviz drawings. Handoffs are thick solid arrows labelled with their context
//! policy; delegations are dashed arrows with a hollow head labelled "delegates".

use crate::topology::{Acceptance, AgentKind, Edge, EdgeKind, Topology};

fn model_line(t: &Topology, id: &str) -> String {
    match t.agent(id).and_then(|a| a.model.as_ref()) {
        Some(m) => format!("{} · {}", m.provider.as_str(), m.name),
        None => String::new(),
    }
}

fn edge_label(e: &Edge) -> String {
    let mut l = match e.kind {
        EdgeKind::Handoff => format!("handoff · {}", e.policy.label()),
        EdgeKind::Delegation => "delegates".to_owned(),
    };
    if e.acceptance == Acceptance::Verify {
        l.push_str(" · verify");
    }
    l
}

/// A Mermaid node id for an agent id, one-to-one: ASCII letters and digits stay, `_` doubles,
/// anything else becomes `_<hex>_` (so `ärzte` and `örzte` stay two nodes).
fn mermaid_id(id: &str) -> String {
    let mut s = String::from("n_");
    for c in id.chars() {
        match c {
            c if c.is_ascii_alphanumeric() => s.push(c),
            '_' => s.push_str("__"),
            c => s.push_str(&format!("_{:x}_", c as u32)),
        }
    }
    s
}

fn mermaid_text(s: &str) -> String {
    s.replace('"', "#quot;").replace('<', "#lt;").replace('>', "#gt;")
}

/// A Mermaid flowchart: `==>` for handoffs, `-.->` for delegations.
pub fn to_mermaid(t: &Topology) -> String {
    let mut out = format!("---\ntitle: {}\n---\nflowchart LR\n", mermaid_text(&t.name));
    for a in &t.agents {
        let model = model_line(t, &a.id);
        let mut label = mermaid_text(&a.name);
        if a.kind != AgentKind::Agent {
            label = format!(
                "{label}<br/><i>{}</i>",
                match a.kind {
                    AgentKind::Supervisor => "supervisor",
                    AgentKind::Human => "human",
                    AgentKind::Agent => "",
                }
            );
        }
        if !model.is_empty() {
            label = format!("{label}<br/><small>{}</small>", mermaid_text(&model));
        }
        let (open, close) = match a.kind {
            AgentKind::Agent => ("[\"", "\"]"),
            AgentKind::Supervisor => ("[[\"", "\"]]"),
            AgentKind::Human => ("([\"", "\"])"),
        };
        out.push_str(&format!("  {}{open}{label}{close}\n", mermaid_id(&a.id)));
    }
    for e in &t.edges {
        let arrow = match e.kind {
            EdgeKind::Handoff => "==>",
            EdgeKind::Delegation => "-.->",
        };
        out.push_str(&format!(
            "  {} {arrow}|\"{}\"| {}\n",
            mermaid_id(&e.from),
            mermaid_text(&edge_label(e)),
            mermaid_id(&e.to)
        ));
    }
    if t.agent(&t.entry).is_some() {
        out.push_str(&format!("  start((start)) --> {}\n", mermaid_id(&t.entry)));
    }
    out
}

fn dot_str(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n"))
}

/// A Graphviz digraph: bold solid edges for handoffs, dashed edges with an empty arrowhead
/// for delegations.
pub fn to_dot(t: &Topology) -> String {
    let mut out = format!(
        "digraph {} {{\n  rankdir=LR;\n  node [shape=box, style=\"rounded\", fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n",
        dot_str(&t.name)
    );
    for a in &t.agents {
        let model = model_line(t, &a.id);
        let label = if model.is_empty() { a.name.clone() } else { format!("{}\n{model}", a.name) };
        let shape = match a.kind {
            AgentKind::Agent => "",
            AgentKind::Supervisor => ", shape=box3d",
            AgentKind::Human => ", shape=ellipse",
        };
        let entry = if a.id == t.entry { ", penwidth=2" } else { "" };
        out.push_str(&format!("  {} [label={}{shape}{entry}];\n", dot_str(&a.id), dot_str(&label)));
    }
    for e in &t.edges {
        let style = match e.kind {
            EdgeKind::Handoff => "style=bold, arrowhead=normal",
            EdgeKind::Delegation => "style=dashed, arrowhead=empty",
        };
        out.push_str(&format!(
            "  {} -> {} [label={}, {style}];\n",
            dot_str(&e.from),
            dot_str(&e.to),
            dot_str(&edge_label(e))
        ));
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn mermaid_ids_are_one_to_one() {
        let ids = ["ärzte", "örzte", "a_b", "a-b", "a__b", "ab"];
        let mut seen = std::collections::HashSet::new();
        for id in ids {
            assert!(seen.insert(super::mermaid_id(id)), "{id} collides");
        }
    }
}
