//! Turns a recorded run into a native trace and a topology. Items are matched across agents
//! by normalized content (the same message seen twice is one item), then by similarity for
//! transformed copies (summaries, ADK's "For context:" rewriting), so every transfer gets the
//! diff a native run would: carried, transformed, dropped, added.

use super::recorded::{Ev, Held, MsgRec, RecordedRun, Role};
use crate::context::{IdMap, Item, ItemId, ItemKind, ItemStore, NewItem, diff_transfer, fact_status, normalize};
use crate::providers::Usage;
use crate::topology::{
    Agent, AgentKind, Edge, EdgeKind, Guards, ModelRef, PinnedFact, Provider, Scenario, Topology, snake_case,
};
use crate::trace::{FactCheck, Outcome, OutcomeStatus, Step, StepKind, TRACE_VERSION, Timing, Trace, Transfer};
use std::collections::{BTreeMap, HashMap, HashSet};

/// An item's content, borrowed from the recorded message it comes from.
#[derive(Default, Clone, Copy)]
struct Content<'a> {
    text: &'a str,
    name: Option<&'a str>,
    arguments: Option<&'a str>,
    call_id: Option<&'a str>,
}

/// A receiver item counts as transformed from a sender item when it holds at least this share
/// of the sender item's words.
const CONTAINMENT: f64 = 0.8;

struct Builder<'f> {
    /// The recorded time of the event being rebuilt, for the call step it makes.
    time: Option<super::recorded::CallTime>,
    /// The earliest recorded time: steps' timings count from it.
    origin_ns: i64,
    store: ItemStore,
    by_key: IdMap<[u8; 16], ItemId>,
    /// Items by their exact content (kind, text, call fields), before normalization.
    exact: IdMap<[u8; 16], ItemId>,
    ctx: HashMap<String, Vec<ItemId>>,
    own: HashMap<String, Vec<ItemId>>,
    steps: Vec<Step>,
    transfers: Vec<Transfer>,
    /// Transfers waiting for the receiver's first recorded input: (transfer index, receiver).
    pending: Vec<(usize, String)>,
    /// Transfers to an agent that passed the turn on before any model call of its own (an ADK
    /// workflow agent starting its sub-agent): (transfer index, the agent it passed to). What
    /// that agent received is what it passed on.
    relays: Vec<(usize, String)>,
    /// Each recorded response's context and output, by the id the provider gave it.
    responses: HashMap<String, Vec<ItemId>>,
    noted_held: bool,
    agents: Vec<String>,
    models: HashMap<String, String>,
    edges: Vec<(EdgeKind, String, String)>,
    turn: u32,
    owner: String,
    depth: u32,
    usage: Usage,
    facts: &'f [PinnedFact],
    call_names: HashMap<String, String>,
    final_output: Option<String>,
    error: Option<String>,
    input: Vec<ItemId>,
    notes: Vec<String>,
    /// Each agent's latest answer without tool calls (its final output, if nothing follows).
    last_text: HashMap<String, String>,
    /// Delegations that returned and wait for the caller's next recorded input, which shows
    /// what came back: (transfer index, the caller).
    returning: Vec<(usize, String)>,
    /// The tools the source shows handing the turn on.
    transfer_tools: Vec<String>,
}

fn words(s: &str) -> HashSet<String> {
    normalize(s).split(' ').filter(|w| !w.is_empty()).map(str::to_owned).collect()
}

impl Builder<'_> {
    fn see_agent(&mut self, a: &str) {
        if !self.agents.iter().any(|x| x == a) {
            self.agents.push(a.to_owned());
        }
    }

    fn add(&mut self, item: Item) -> ItemId {
        let key = item.content_key();
        if let Some(id) = self.by_key.get(&key) {
            return *id;
        }
        let id = self.store.add(item);
        self.by_key.insert(key, id);
        id
    }

    /// An item for this content: the one already seen (by exact content, then by normalized
    /// content), else a new one. Histories repeat at every model call, so most lookups hit the
    /// exact map, from borrowed fields, without building (or copying) anything.
    fn intern(&mut self, kind: ItemKind, agent: &str, turn: u32, c: Content<'_>, derived_from: Vec<ItemId>) -> ItemId {
        // A fast 128-bit hash: this key only finds repeats within one import, it is never stored.
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        for part in [
            kind.as_str(),
            c.text,
            c.name.unwrap_or("\u{0}"),
            c.arguments.unwrap_or("\u{0}"),
            c.call_id.unwrap_or("\u{0}"),
        ] {
            h.update(&(part.len() as u64).to_le_bytes());
            h.update(part.as_bytes());
        }
        let exact: [u8; 16] = h.digest128().to_le_bytes();
        if let Some(id) = self.exact.get(&exact) {
            return *id;
        }
        let f = NewItem {
            text: c.text.to_owned(),
            name: c.name.map(str::to_owned),
            arguments: c.arguments.map(str::to_owned),
            call_id: c.call_id.map(str::to_owned),
            fact: None,
            derived_from,
            provider_id: None,
            status: None,
        };
        let id = self.add(Item::new(kind, agent, turn, f));
        self.exact.insert(exact, id);
        id
    }

    /// The items of one recorded message (a message may carry text and several calls).
    fn items_of(&mut self, m: &MsgRec, creator: &str) -> Vec<ItemId> {
        let turn = self.turn;
        let mut out = vec![];
        let agent = m.author.as_deref().unwrap_or(creator);
        let text = |t| Content { text: t, ..Default::default() };
        match m.role {
            Role::System => {
                if !m.text.is_empty() {
                    out.push(self.intern(ItemKind::Instructions, agent, turn, text(&m.text), vec![]));
                }
            }
            Role::User => {
                let who = m.author.as_deref().unwrap_or("user");
                // A quote made from other messages is linked to them as it is built.
                let derived_from: Vec<ItemId> =
                    m.quotes.iter().flat_map(|q| self.items_of(q, q.author.as_deref().unwrap_or(creator))).collect();
                out.push(self.intern(ItemKind::UserMessage, who, turn, text(&m.text), derived_from));
            }
            Role::Assistant => {
                for r in &m.reasoning {
                    out.push(self.intern(ItemKind::Reasoning, agent, turn, text(r), vec![]));
                }
                if !m.text.is_empty() {
                    out.push(self.intern(ItemKind::AssistantMessage, agent, turn, text(&m.text), vec![]));
                }
                for c in &m.calls {
                    if !self.call_names.contains_key(&c.id) {
                        self.call_names.insert(c.id.clone(), c.name.clone());
                    }
                    let kind = if self.is_transfer_tool(&c.name) { ItemKind::TransferCall } else { ItemKind::ToolCall };
                    let content =
                        Content { text: "", name: Some(&c.name), arguments: Some(&c.arguments), call_id: Some(&c.id) };
                    out.push(self.intern(kind, agent, turn, content, vec![]));
                }
            }
            Role::Tool => {
                let transfer = m
                    .call_id
                    .as_ref()
                    .and_then(|c| self.call_names.get(c))
                    .is_some_and(|name| self.is_transfer_tool(name));
                let kind = if transfer { ItemKind::TransferOutput } else { ItemKind::ToolResult };
                let content = Content { text: &m.text, call_id: m.call_id.as_deref(), ..Default::default() };
                out.push(self.intern(kind, agent, turn, content, vec![]));
            }
        }
        out
    }

    fn is_transfer_tool(&self, name: &str) -> bool {
        name.starts_with("transfer_to_") || self.transfer_tools.iter().any(|t| t == name)
    }

    /// The agent's own items: the pinned facts it holds (from an overlay topology).
    fn own_items(&mut self, agent: &str) -> Vec<ItemId> {
        if let Some(v) = self.own.get(agent) {
            return v.clone();
        }
        let held: Vec<PinnedFact> = self
            .facts
            .iter()
            .filter(|f| f.holders.iter().any(|h| h == agent || *h == snake_case(agent)))
            .cloned()
            .collect();
        let ids: Vec<ItemId> = held
            .into_iter()
            .map(|f| {
                self.store.add(Item::new(
                    ItemKind::PinnedFact,
                    agent,
                    self.turn,
                    NewItem { text: f.text.clone(), fact: Some(f.id.clone()), ..Default::default() },
                ))
            })
            .collect();
        self.own.insert(agent.to_owned(), ids.clone());
        ids
    }

    fn step(
        &mut self,
        kind: StepKind,
        agent: &str,
        context: Vec<ItemId>,
        output: Vec<ItemId>,
        detail: String,
    ) -> usize {
        self.steps.push(Step {
            index: self.steps.len() as u32,
            kind,
            agent: agent.to_owned(),
            owner: self.owner.clone(),
            depth: self.depth,
            context,
            output,
            transfer: None,
            detail,
            usage: None,
            exchange: None,
            // The recorded time belongs to the model or tool call the event made.
            timing: if matches!(kind, StepKind::ModelCall | StepKind::ToolCall) {
                self.time.take().map(|t| Timing::from_nanos(self.origin_ns, t.start_ns, t.end_ns))
            } else {
                None
            },
        });
        self.steps.len() - 1
    }

    /// Links receiver items that are not the sender's to the sender items they were made from.
    fn link_transformed(&mut self, sender: &[ItemId], receiver: &[ItemId]) -> Vec<ItemId> {
        let sender_set: HashSet<ItemId> = sender.iter().copied().collect();
        // The sender's words are needed only when some receiver item is not the sender's.
        let mut sender_words: Option<Vec<(ItemId, HashSet<String>)>> = None;
        let mut out = vec![];
        for &r in receiver {
            if sender_set.contains(&r) {
                out.push(r);
                continue;
            }
            let item = self.store.get(r).clone();
            if !item.derived_from.is_empty() || item.kind.is_own() {
                out.push(r);
                continue;
            }
            let rw = words(&item.searchable());
            let store = &self.store;
            let sender_words = sender_words.get_or_insert_with(|| {
                sender
                    .iter()
                    .map(|id| (*id, words(&store.get(*id).searchable())))
                    .filter(|(_, w)| w.len() >= 2)
                    .collect()
            });
            let sources: Vec<ItemId> = sender_words
                .iter()
                .filter(|(_, w)| {
                    let shared = w.iter().filter(|x| rw.contains(*x)).count();
                    shared as f64 / w.len() as f64 >= CONTAINMENT
                })
                .map(|(id, _)| *id)
                .collect();
            if sources.is_empty() {
                out.push(r);
            } else {
                // A derived copy: same content, with lineage (a new identity).
                let derived = Item::new(
                    item.kind,
                    &item.agent,
                    item.turn,
                    NewItem {
                        text: item.text.clone(),
                        name: item.name.clone(),
                        arguments: item.arguments.clone(),
                        call_id: item.call_id.clone(),
                        fact: None,
                        derived_from: sources,
                        provider_id: item.provider_id.clone(),
                        status: item.status.clone(),
                    },
                );
                out.push(self.store.add(derived));
            }
        }
        out
    }

    fn transfer(&mut self, kind: EdgeKind, from: &str, to: &str, policy: Option<&str>) {
        self.see_agent(from);
        self.see_agent(to);
        if !self.edges.iter().any(|(k, f, t)| *k == kind && f == from && t == to) {
            self.edges.push((kind, from.to_owned(), to.to_owned()));
        }
        let idx = self.transfers.len();
        let mut sender = self.own_items(from);
        if let Some(pos) = self.pending.iter().position(|(_, t)| t == from) {
            // The sender never called its model since it was handed the turn: it holds what it
            // was handed, and passes it on.
            let (relayed, _) = self.pending.remove(pos);
            sender.extend(self.transfers[relayed].sender.clone());
            self.relays.push((relayed, to.to_owned()));
        } else {
            sender.extend(self.ctx.get(from).cloned().unwrap_or_else(|| self.input.clone()));
        }
        for (_, target) in self.relays.iter_mut().filter(|(_, t)| t == from) {
            *target = to.to_owned();
        }
        self.transfers.push(Transfer {
            step: self.steps.len() as u32,
            kind,
            from: from.to_owned(),
            to: to.to_owned(),
            edge: String::new(),
            policy: policy.unwrap_or("recorded").into(),
            sender,
            receiver: vec![],
            carried: vec![],
            transformed: vec![],
            dropped: vec![],
            added: vec![],
            facts: vec![],
            back: None,
        });
        // The receiver's answer is what it says from here on, not what it said last time.
        self.last_text.remove(to);
        if kind == EdgeKind::Delegation {
            self.depth += 1;
        } else if self.depth == 0 {
            self.owner = to.to_owned();
        }
        let s = self.step(
            if kind == EdgeKind::Handoff { StepKind::Handoff } else { StepKind::Delegation },
            to,
            vec![],
            vec![],
            format!("{from} → {to}"),
        );
        self.steps[s].transfer = Some(idx as u32);
        self.pending.push((idx, to.to_owned()));
    }

    /// Fills a transfer's receiver side (its first recorded input) and computes the diff.
    fn finish_transfer(&mut self, idx: usize, input: Vec<ItemId>) {
        let to = self.transfers[idx].to.clone();
        let mut receiver = self.own_items(&to);
        let sender = self.transfers[idx].sender.clone();
        receiver.extend(self.link_transformed(&sender, &input));
        let t = &mut self.transfers[idx];
        t.receiver = receiver.clone();
        let d = diff_transfer(&self.store, &t.sender, &receiver);
        t.carried = d.carried;
        t.transformed = d.transformed;
        t.dropped = d.dropped;
        t.added = d.added;
        // A delegation leaves the caller its context: facts stay with the owner.
        let after: Vec<ItemId> = if t.kind == EdgeKind::Delegation {
            t.sender.iter().chain(receiver.iter()).copied().collect()
        } else {
            receiver.clone()
        };
        let sender = t.sender.clone();
        t.facts = self
            .facts
            .iter()
            .map(|f| FactCheck { id: f.id.clone(), status: fact_status(&self.store, f, &sender, &after) })
            .collect();
        let step = t.step as usize;
        self.steps[step].context = receiver;
        // Transfers relayed to this receiver got the same input.
        while let Some(pos) = self.relays.iter().position(|(r, t)| *t == to && *r != idx) {
            let (relayed, _) = self.relays.remove(pos);
            self.finish_transfer(relayed, input.clone());
        }
    }

    fn model(
        &mut self,
        agent: &str,
        input: Option<&Vec<MsgRec>>,
        output: &[MsgRec],
        usage: Option<Usage>,
        model: Option<&String>,
        held: &Held,
    ) {
        self.see_agent(agent);
        if let Some(m) = model {
            self.models.entry(agent.to_owned()).or_insert_with(|| m.clone());
        }
        self.turn += 1;
        let own = self.own_items(agent);
        let input_items: Option<Vec<ItemId>> = input.map(|msgs| {
            let mut v = vec![];
            let mut system = vec![];
            for m in msgs {
                if m.role == Role::System {
                    system.extend(self.items_of(m, agent));
                } else {
                    v.extend(self.items_of(m, agent));
                }
            }
            // The instructions are the system messages this call received: a prompt that changed
            // (a template filled from state, a dynamic prompt) replaces the one before, so no step
            // shows instructions its model never saw. A call recorded without any keeps the last.
            if !system.is_empty() {
                let entry = self.own.entry(agent.to_owned()).or_default();
                let store = &self.store;
                entry.retain(|id| store.get(*id).kind != ItemKind::Instructions);
                for (at, id) in system.into_iter().enumerate() {
                    entry.insert(at, id);
                }
            }
            v
        });
        // An input that continues a conversation the provider keeps holds only the new items:
        // the model saw the earlier ones too (the response it continues, with that call's own
        // context). When that response is not in the source, what came before is unknown.
        let mut unknown_before = false;
        let input_items = match (input_items, &held.continues) {
            (Some(items), Some(prev)) => match self.responses.get(prev) {
                Some(before) => Some(before.iter().chain(items.iter()).copied().collect()),
                None => {
                    unknown_before = true;
                    let note = format!(
                        "some model calls continue a conversation the provider keeps (such as {prev}) that is not in \
                         this source: their context shows only the new items, and nothing is counted as dropped"
                    );
                    if !self.notes.iter().any(|n| n.starts_with("some model calls continue a conversation")) {
                        self.notes.push(note);
                    }
                    Some(items)
                }
            },
            (items, _) => items,
        };
        if held.continues.is_some() && !unknown_before && !self.noted_held {
            self.noted_held = true;
            self.notes.push(
                "model calls that continue a conversation the provider keeps (previous_response_id, a server-side \
                 conversation) recorded only their new items: their context is the earlier response's context and \
                 output plus those items"
                    .into(),
            );
        }
        if let Some(items) = &input_items {
            self.settle_return(agent, items);
        }
        // The first recorded input after a transfer is what the receiver got.
        if let Some(pos) = self.pending.iter().position(|(_, to)| to == agent) {
            let (idx, _) = self.pending.remove(pos);
            match &input_items {
                Some(items) => {
                    self.finish_transfer(idx, items.clone());
                    if unknown_before {
                        // The provider held what the receiver saw before these items.
                        self.transfers[idx].dropped.clear();
                    }
                }
                None => self.notes.push(format!(
                    "{agent}'s model input after the transfer was not recorded: the diff shows no receiver side"
                )),
            }
        }
        let own = self.own.get(agent).cloned().unwrap_or(own);
        let history = match &input_items {
            Some(items) => items.clone(),
            None => self.ctx.get(agent).cloned().unwrap_or_else(|| self.input.clone()),
        };
        let mut out_ids = vec![];
        for m in output {
            out_ids.extend(self.items_of(m, agent));
        }
        let last_text = output.iter().rev().find(|m| m.role == Role::Assistant && !m.text.is_empty());
        match last_text {
            Some(m) if m.calls.is_empty() => {
                self.last_text.insert(agent.to_owned(), m.text.clone());
                if self.depth == 0 {
                    self.final_output = Some(m.text.clone());
                }
            }
            _ => {
                self.last_text.remove(agent);
            }
        }
        let context: Vec<ItemId> = own.iter().chain(history.iter()).copied().collect();
        let s = self.step(StepKind::ModelCall, agent, context, out_ids.clone(), format!("model call of {agent}"));
        if let Some(u) = usage {
            self.usage += u;
            self.steps[s].usage = Some(u);
        }
        let mut ctx = history;
        ctx.extend(out_ids);
        if let Some(id) = &held.response_id {
            self.responses.insert(id.clone(), ctx.clone());
        }
        self.ctx.insert(agent.to_owned(), ctx);
    }

    /// A delegation from `to` to `from` returned at `step`: the worker's history is what it had;
    /// what came back shows in the caller's next recorded input.
    fn returned(&mut self, from: &str, to: &str, step: u32) {
        let Some(idx) = self
            .transfers
            .iter()
            .rposition(|t| t.kind == EdgeKind::Delegation && t.from == to && t.to == from && t.back.is_none())
        else {
            return;
        };
        let worker = self.ctx.get(from).cloned().unwrap_or_default();
        // What the caller gave: the receiver's items and what they were made from.
        let receiver = &self.transfers[idx].receiver;
        let task: std::collections::HashSet<ItemId> = receiver
            .iter()
            .copied()
            .chain(receiver.iter().flat_map(|id| self.store.get(*id).derived_from.clone()))
            .collect();
        let left_behind = worker.iter().copied().filter(|id| !task.contains(id)).collect();
        self.transfers[idx].back = Some(crate::trace::Back { step, worker, returned: vec![], left_behind });
        self.returning.push((idx, to.to_owned()));
    }

    /// The caller's first input after a delegation returned: what of the worker's history it
    /// holds (the same item, or one that contains its words) came back; the rest stayed behind.
    fn settle_return(&mut self, agent: &str, input: &[ItemId]) {
        while let Some(pos) = self.returning.iter().position(|(_, caller)| caller == agent) {
            let (idx, _) = self.returning.remove(pos);
            let before: std::collections::HashSet<ItemId> = self.transfers[idx].sender.iter().copied().collect();
            let new: Vec<ItemId> = input.iter().copied().filter(|id| !before.contains(id)).collect();
            let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
            let texts: Vec<String> = new.iter().map(|id| flat(&self.store.get(*id).searchable())).collect();
            let Some(back) = self.transfers[idx].back.as_mut() else { continue };
            let store = &self.store;
            // Came back: the same item, or its words whole inside an item the caller got (a
            // framework that wraps the worker's answer in its own message).
            back.left_behind.retain(|id| {
                if new.contains(id) {
                    return false;
                }
                let w = flat(&store.get(*id).searchable());
                w.is_empty() || !texts.iter().any(|t| t.contains(w.as_str()))
            });
            back.returned = new;
        }
    }

    fn unanswered_call(&self, agent: &str, name: &str) -> Option<String> {
        let ctx = self.ctx.get(agent)?;
        let items: Vec<&Item> = ctx.iter().map(|i| self.store.get(*i)).collect();
        items
            .iter()
            .rev()
            .filter(|i| i.kind.is_call() && i.name.as_deref() == Some(name))
            .filter_map(|i| i.call_id.clone())
            .find(|id| !items.iter().any(|o| o.kind.is_call_output() && o.call_id.as_deref() == Some(id)))
    }

    fn tool(&mut self, agent: &str, name: &str, call_id: Option<&String>, arguments: &str, output: Option<&String>) {
        self.see_agent(agent);
        // Sources without call ids (SDK function spans): the agent's latest unanswered call of
        // this tool is the one that ran.
        let call_id = call_id
            .cloned()
            .or_else(|| self.unanswered_call(agent, name))
            .unwrap_or_else(|| format!("call_{}_{}", self.turn, self.steps.len()));
        self.call_names.insert(call_id.clone(), name.to_owned());
        let mut ctx = self.ctx.get(agent).cloned().unwrap_or_default();
        let call = self.items_of(
            &MsgRec {
                role: Role::Assistant,
                text: String::new(),
                calls: vec![super::recorded::CallRec {
                    id: call_id.clone(),
                    name: name.to_owned(),
                    arguments: arguments.to_owned(),
                }],
                call_id: None,
                author: None,
                ..Default::default()
            },
            agent,
        );
        for c in call {
            if !ctx.contains(&c) {
                ctx.push(c);
            }
        }
        let mut out = vec![];
        if let Some(o) = output {
            let r = self.items_of(
                &MsgRec {
                    role: Role::Tool,
                    text: o.clone(),
                    calls: vec![],
                    call_id: Some(call_id),
                    author: None,
                    ..Default::default()
                },
                agent,
            );
            for id in &r {
                if !ctx.contains(id) {
                    ctx.push(*id);
                }
            }
            out = r;
        }
        let own = self.own_items(agent);
        let context: Vec<ItemId> = own.iter().chain(ctx.iter()).copied().collect();
        let detail = format!(
            "{name} → {}",
            output.map(|o| o.chars().take(80).collect::<String>()).unwrap_or_else(|| "(no output recorded)".into())
        );
        self.step(StepKind::ToolCall, agent, context, out, detail);
        self.ctx.insert(agent.to_owned(), ctx);
    }
}

/// The topology id of an agent named `name`.
fn id_of(run: &RecordedRun, name: &str) -> String {
    run.agent_ids.get(name).cloned().unwrap_or_else(|| snake_case(name))
}

/// Builds the trace (and the topology actually used) of one recorded run. Pinned facts come
/// from `overlay` (a topology whose agents are matched by name or id), if given.
pub fn reconstruct(run: &RecordedRun, format: &str, file: &str, overlay: Option<&Topology>) -> (Trace, Topology) {
    let mut facts: Vec<PinnedFact> = overlay
        .map(|t| {
            t.facts
                .iter()
                .map(|f| {
                    let holders = f
                        .holders
                        .iter()
                        .map(|h| t.agent(h).map(|a| a.name.clone()).unwrap_or_else(|| h.clone()))
                        .collect();
                    PinnedFact { id: f.id.clone(), text: f.text.clone(), holders }
                })
                .collect()
        })
        .unwrap_or_default();
    if overlay.is_none() {
        // Facts a Baton export carried: holders are agent ids; match them to names.
        facts = run
            .facts
            .iter()
            .map(|f| {
                let holders = f
                    .holders
                    .iter()
                    .map(|h| {
                        run.agent_ids
                            .iter()
                            .find(|(_, id)| *id == h)
                            .map(|(n, _)| n.clone())
                            .unwrap_or_else(|| h.clone())
                    })
                    .collect();
                PinnedFact { id: f.id.clone(), text: f.text.clone(), holders }
            })
            .collect();
    }
    // Timings count from the run's start, or from its first timed call when that is earlier.
    let first_call = run.events.iter().filter_map(|e| match e {
        Ev::Model { time, .. } | Ev::Tool { time, .. } => time.map(|t| t.start_ns),
        _ => None,
    });
    let started = super::recorded::rfc3339_nanos(&run.started_at).map(|n| n as i64);
    let origin_ns = first_call.chain(started).min().unwrap_or(0);
    let mut b = Builder {
        time: None,
        origin_ns,
        store: ItemStore::default(),
        by_key: IdMap::default(),
        exact: IdMap::default(),
        ctx: HashMap::new(),
        own: HashMap::new(),
        steps: vec![],
        transfers: vec![],
        pending: vec![],
        relays: vec![],
        responses: HashMap::new(),
        noted_held: false,
        agents: vec![],
        models: HashMap::new(),
        edges: vec![],
        turn: 0,
        owner: String::new(),
        depth: 0,
        usage: Usage::default(),
        facts: &facts,
        call_names: HashMap::new(),
        final_output: None,
        error: None,
        input: vec![],
        notes: run.notes.clone(),
        last_text: HashMap::new(),
        returning: vec![],
        transfer_tools: run.transfer_tools.clone(),
    };
    for a in &run.agents {
        b.see_agent(a);
    }
    let mut input_text = String::new();
    for e in &run.events {
        match e {
            Ev::Input(msgs) => {
                for m in msgs {
                    if input_text.is_empty() && m.role == Role::User {
                        input_text = m.text.clone();
                    }
                    let ids = b.items_of(m, "user");
                    b.input.extend(ids);
                }
            }
            Ev::Model { agent, input, output, usage, model, held, time } => {
                if b.owner.is_empty() {
                    b.owner = agent.clone();
                }
                b.time = *time;
                b.model(agent, input.as_ref(), output, *usage, model.as_ref(), held);
            }
            Ev::Tool { agent, name, call_id, arguments, output, time } => {
                if b.owner.is_empty() {
                    b.owner = agent.clone();
                }
                b.time = *time;
                b.tool(agent, name, call_id.as_ref(), arguments, output.as_ref())
            }
            Ev::Transfer { kind, from, to, policy } => {
                if b.owner.is_empty() {
                    b.owner = from.clone();
                }
                b.transfer(*kind, from, to, policy.as_deref())
            }
            Ev::Return { from, to } => {
                if let Some(text) = b.last_text.get(from).cloned() {
                    let ctx = b.ctx.get(from).cloned().unwrap_or_default();
                    b.step(StepKind::Final, from, ctx, vec![], text.chars().take(120).collect());
                }
                b.depth = b.depth.saturating_sub(1);
                let ctx = b.ctx.get(to).cloned().unwrap_or_default();
                let step = b.step(StepKind::DelegationReturn, to, ctx, vec![], format!("{from} returned to {to}"));
                b.returned(from, to, step as u32);
            }
            Ev::Error { agent, message } => {
                b.error = Some(format!("{agent}: {message}"));
            }
            Ev::Context { agent, messages } => {
                b.see_agent(agent);
                let mut ids = vec![];
                for m in messages {
                    ids.extend(b.items_of(m, agent));
                }
                // A receiver that holds what it was sent but never called its model (a worker
                // that never answered): this is the receiver side of its transfer.
                if let Some(pos) = b.pending.iter().position(|(_, to)| to == agent) {
                    let (idx, _) = b.pending.remove(pos);
                    b.finish_transfer(idx, ids.clone());
                }
                b.ctx.insert(agent.clone(), ids);
            }
        }
    }
    let unresolved: Vec<String> = b
        .pending
        .iter()
        .chain(b.relays.iter())
        .map(|(i, _)| format!("{} → {}", b.transfers[*i].from, b.transfers[*i].to))
        .collect();
    if !unresolved.is_empty() {
        b.notes.push(format!(
            "the source recorded no message content for the receiver of {}: those transfers show the sender's side only",
            unresolved.join(", ")
        ));
    }
    let owner = if b.owner.is_empty() { b.agents.first().cloned().unwrap_or_default() } else { b.owner.clone() };
    let (status, reason) = match (&b.error, &run.end) {
        (Some(e), _) => (OutcomeStatus::Failed, format!("the recorded run failed: {e}")),
        (None, Some(end)) => (OutcomeStatus::Completed, end.clone()),
        (None, None) => (OutcomeStatus::Completed, format!("imported from {format}")),
    };
    if let Some(answer) = &run.final_output {
        b.final_output = answer.clone();
    }
    if let Some(text) = b.final_output.clone() {
        b.step(
            StepKind::Final,
            &owner,
            b.ctx.get(&owner).cloned().unwrap_or_default(),
            vec![],
            text.chars().take(120).collect(),
        );
    }
    let topology = topology_of(run, &b, overlay, &input_text);
    let mut source = serde_json::json!({"format": format, "file": file, "trace_id": run.id, "notes": b.notes});
    if !run.labels.is_empty() {
        source["labels"] = serde_json::Value::Object(run.labels.clone());
    }
    let trace = Trace {
        version: TRACE_VERSION,
        run_id: None,
        topology: topology.name.clone(),
        scenario: "imported".into(),
        providers: b
            .agents
            .iter()
            .map(|a| (id_of(run, a), b.models.get(a).cloned().unwrap_or_else(|| "recorded".into())))
            .collect(),
        definition: Some(topology.clone()),
        started_at: run.started_at.clone(),
        ended_at: run.ended_at.clone(),
        steps: b
            .steps
            .into_iter()
            .map(|mut s| {
                s.agent = id_of(run, &s.agent);
                s.owner = id_of(run, &s.owner);
                s
            })
            .collect(),
        transfers: b
            .transfers
            .into_iter()
            .map(|mut t| {
                t.edge = format!("{}->{}", id_of(run, &t.from), id_of(run, &t.to));
                t.from = id_of(run, &t.from);
                t.to = id_of(run, &t.to);
                t
            })
            .collect(),
        outcome: Outcome { status, reason, owner: id_of(run, &owner), final_output: b.final_output, guard: None },
        usage: b.usage,
        items: b.store,
        source: Some(source),
        fork: None,
        mark: None,
    };
    (trace, topology)
}

fn provider_guess(model: &str) -> Provider {
    let m = model.to_ascii_lowercase();
    if m.contains("claude") {
        Provider::Anthropic
    } else if m.contains("gemini") {
        Provider::Gemini
    } else if m.starts_with("gpt") || m.starts_with("o1") || m.starts_with("o3") || m.starts_with("o4") {
        Provider::Openai
    } else {
        Provider::OpenaiCompatible
    }
}

fn topology_of(run: &RecordedRun, b: &Builder<'_>, overlay: Option<&Topology>, input: &str) -> Topology {
    // Without the framework's own name for it (an app name, a workflow name), a run is called
    // after the agent it began with: people recognise that, not a trace id.
    let name = match (run.name.is_empty(), b.agents.first()) {
        (false, _) => run.name.clone(),
        (true, Some(first)) => format!("{first} (imported)"),
        (true, None) => format!("imported {}", run.id),
    };
    let agents: Vec<Agent> = b
        .agents
        .iter()
        .map(|a| {
            let from_overlay = overlay.and_then(|t| t.agents.iter().find(|x| x.name == *a || x.id == *a));
            Agent {
                id: id_of(run, a),
                name: a.clone(),
                kind: from_overlay.map(|x| x.kind).unwrap_or(AgentKind::Agent),
                instructions: b
                    .own
                    .get(a)
                    .and_then(|ids| ids.iter().map(|i| b.store.get(*i)).find(|i| i.kind == ItemKind::Instructions))
                    .map(|i| i.text.clone())
                    .unwrap_or_default(),
                model: b
                    .models
                    .get(a)
                    .map(|m| ModelRef { name: m.clone(), ..ModelRef::with_provider(provider_guess(m)) }),
                tools: vec![],
                source: None,
            }
        })
        .collect();
    let edges: Vec<Edge> = b.edges.iter().map(|(k, f, t)| Edge::new(*k, &id_of(run, f), &id_of(run, t))).collect();
    let facts: Vec<PinnedFact> = b
        .facts
        .iter()
        .map(|f| PinnedFact {
            id: f.id.clone(),
            text: f.text.clone(),
            holders: f.holders.iter().map(|h| id_of(run, h)).collect(),
        })
        .collect();
    let mut t = Topology {
        version: crate::topology::FORMAT_VERSION,
        name,
        // The topology an imported run shows was not drawn by anyone: no identity to keep.
        id: None,
        description: format!("Reconstructed from an imported trace ({}).", run.id),
        entry: agents.first().map(|a| a.id.clone()).unwrap_or_default(),
        agents,
        edges,
        facts,
        guards: Guards::default(),
        scenarios: vec![Scenario {
            name: "imported".into(),
            description: String::new(),
            history: vec![],
            input: input.to_owned(),
            scripts: BTreeMap::new(),
            verdicts: Default::default(),
            expect: Default::default(),
        }],
        guardrails: vec![],
        layout: BTreeMap::new(),
    };
    t.normalize();
    t
}
