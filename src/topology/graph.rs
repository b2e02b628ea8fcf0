//! The topology as a petgraph graph, for the questions lint, refactor and the UI ask of it:
//! reachability, cycles per edge kind, chains of handoffs.

use super::{EdgeKind, Topology};
use petgraph::algo::tarjan_scc;
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
        for scc in tarjan_scc(&filtered) {
            let self_loop = scc.len() == 1 && self.graph.edges_connecting(scc[0], scc[0]).any(|e| e.weight().1 == kind);
            if scc.len() < 2 && !self_loop {
                continue;
            }
            let mut nodes = scc.clone();
            nodes.sort();
            let agents = nodes.iter().map(|&n| self.graph[n].clone()).collect();
            let edges = self
                .graph
                .edge_references()
                .filter(|e| e.weight().1 == kind && nodes.contains(&e.source()) && nodes.contains(&e.target()))
                .map(|e| e.weight().0.clone())
                .collect();
            out.push((agents, edges));
        }
        out.sort();
        out
    }

    /// The longest chain of handoffs from `start` that visits no agent twice: the edge ids in
    /// order. Used by the supervisor refactor when no chain is given.
    pub fn longest_handoff_chain(&self, start: &str) -> Vec<String> {
        let Some(&s) = self.index.get(start) else {
            return vec![];
        };
        let mut best = vec![];
        let mut path = vec![];
        let mut visited = vec![s];
        self.dfs_chain(s, &mut visited, &mut path, &mut best);
        best
    }

    fn dfs_chain(&self, n: NodeIndex, visited: &mut Vec<NodeIndex>, path: &mut Vec<String>, best: &mut Vec<String>) {
        if path.len() > best.len() {
            *best = path.clone();
        }
        for e in self.graph.edges(n) {
            if e.weight().1 != EdgeKind::Handoff || visited.contains(&e.target()) {
                continue;
            }
            visited.push(e.target());
            path.push(e.weight().0.clone());
            self.dfs_chain(e.target(), visited, path, best);
            path.pop();
            visited.pop();
        }
    }
}
