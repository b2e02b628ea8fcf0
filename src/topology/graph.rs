//! The topology as a petgraph graph, for the questions lint, refactor and the UI ask of it:
//! reachability, cycles per edge kind, chains of handoffs.

use super::{EdgeKind, Topology};
use petgraph::algo::kosaraju_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::{Bfs, EdgeFiltered, EdgeRef};
use std::collections::HashMap;

/// Nodes carry agent ids; edges carry (edge id, kind). Edges to unknown agents are left out.
pub struct TopologyGraph {
    pub graph: DiGraph<String, (String, EdgeKind)>,
    pub index: HashMap<String, NodeIndex>,
}

impl TopologyGraph {
    pub fn build(t: &Topology) -> TopologyGraph {
        let mut graph = DiGraph::new();
        let mut index = HashMap::new();
        for a in &t.agents {
            index.entry(a.id.clone()).or_insert_with(|| graph.add_node(a.id.clone()));
        }
        for e in &t.edges {
            if let (Some(&f), Some(&to)) = (index.get(&e.from), index.get(&e.to)) {
                graph.add_edge(f, to, (e.id.clone(), e.kind));
            }
        }
        TopologyGraph { graph, index }
    }

    /// Agent ids reachable from `start` over edges of any kind, `start` included.
    pub fn reachable_from(&self, start: &str) -> Vec<String> {
        let Some(&s) = self.index.get(start) else {
            return vec![];
        };
        let mut bfs = Bfs::new(&self.graph, s);
        let mut out = vec![];
        while let Some(n) = bfs.next(&self.graph) {
            out.push(self.graph[n].clone());
        }
        out
    }

    /// Cycles among edges of one kind: each strongly connected group of agents (or a self-loop),
    /// with the ids of the edges inside it. Agents are listed in topology order.
    pub fn cycles(&self, kind: EdgeKind) -> Vec<(Vec<String>, Vec<String>)> {
        let filtered = EdgeFiltered::from_fn(&self.graph, |e| e.weight().1 == kind);
        let mut out = vec![];
        // Kosaraju's search is iterative: a 100,000-agent chain does not exhaust the stack.
        for scc in kosaraju_scc(&filtered) {
            let self_loop = scc.len() == 1 && self.graph.edges_connecting(scc[0], scc[0]).any(|e| e.weight().1 == kind);
            if scc.len() < 2 && !self_loop {
                continue;
            }
            let mut nodes = scc.clone();
            nodes.sort();
            let inside: std::collections::HashSet<NodeIndex> = nodes.iter().copied().collect();
            let agents = nodes.iter().map(|&n| self.graph[n].clone()).collect();
            let edges = nodes
                .iter()
                .flat_map(|&n| self.graph.edges(n))
                .filter(|e| e.weight().1 == kind && inside.contains(&e.target()))
                .map(|e| (e.id(), e.weight().0.clone()))
                .collect::<std::collections::BTreeMap<_, _>>()
                .into_values()
                .collect();
            out.push((agents, edges));
        }
        out.sort();
        out
    }

    /// The longest chain of handoffs from `start` that visits no agent twice: the edge ids in
    /// order. Used by the supervisor refactor when no chain is given. Exact on acyclic handoff
    /// graphs (a longest path in topological order); on cyclic ones, the longest chain an
    /// iterative search finds within a fixed budget (the exact answer is NP-hard).
    pub fn longest_handoff_chain(&self, start: &str) -> Vec<String> {
        let Some(&s) = self.index.get(start) else {
            return vec![];
        };
        let handoffs = EdgeFiltered::from_fn(&self.graph, |e| e.weight().1 == EdgeKind::Handoff);
        if let Ok(order) = petgraph::algo::toposort(&handoffs, None) {
            // best[n] = (length, next edge) of the longest chain starting at n.
            let mut best: HashMap<NodeIndex, (usize, Option<petgraph::graph::EdgeIndex>)> = HashMap::new();
            for &n in order.iter().rev() {
                let mut b = (0, None);
                for e in self.graph.edges(n).filter(|e| e.weight().1 == EdgeKind::Handoff) {
                    let len = 1 + best.get(&e.target()).map(|x| x.0).unwrap_or(0);
                    if len > b.0 {
                        b = (len, Some(e.id()));
                    }
                }
                best.insert(n, b);
            }
            let mut out = vec![];
            let mut cur = s;
            while let Some((_, Some(e))) = best.get(&cur) {
                out.push(self.graph[*e].0.clone());
                cur = self.graph.edge_endpoints(*e).expect("an edge of the graph").1;
            }
            return out;
        }
        // Cyclic: depth-first with an explicit stack and a budget of expansions.
        let mut budget = 200_000usize;
        let mut best: Vec<String> = vec![];
        let mut path: Vec<String> = vec![];
        let mut on_path: std::collections::HashSet<NodeIndex> = [s].into();
        let mut stack: Vec<(NodeIndex, Vec<(NodeIndex, String)>)> = vec![(s, self.next_handoffs(s))];
        while let Some((_, next)) = stack.last_mut() {
            budget = budget.saturating_sub(1);
            match next.pop().filter(|_| budget > 0) {
                Some((t, id)) if !on_path.contains(&t) => {
                    on_path.insert(t);
                    path.push(id);
                    if path.len() > best.len() {
                        best = path.clone();
                    }
                    let n = self.next_handoffs(t);
                    stack.push((t, n));
                }
                Some(_) => {}
                None => {
                    let (n, _) = stack.pop().expect("the stack is not empty");
                    if n != s {
                        on_path.remove(&n);
                        path.pop();
                    }
                }
            }
        }
        best
    }

    fn next_handoffs(&self, n: NodeIndex) -> Vec<(NodeIndex, String)> {
        let mut v: Vec<(NodeIndex, String)> = self
            .graph
            .edges(n)
            .filter(|e| e.weight().1 == EdgeKind::Handoff)
            .map(|e| (e.target(), e.weight().0.clone()))
            .collect();
        // Popped from the end: the first edge of the topology is tried first.
        v.reverse();
        v
    }
}
