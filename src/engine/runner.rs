//! The run loop. One `Frame` is one `Runner.run` in SDK terms: the top-level run, or a nested
//! run behind a delegation. Items, steps and transfers of all frames go into one trace.

use super::{RunEvent, RunOptions, tools};
use crate::context::{
    History, Item, ItemId, ItemKind, ItemStore, NewItem, TransferCtx, apply_policy, diff_transfer, fact_status,
};
use crate::providers::{ModelError, ModelRequest, ModelSource, OutputItem, ToolKind, ToolSpec, Usage};
use crate::topology::{
    Acceptance, AgentKind, ContextPolicy, Edge, EdgeKind, Guardrail, GuardrailOn, OnRevisit, Scenario, Topology,
};
use crate::trace::{FactCheck, Outcome, OutcomeStatus, Step, StepKind, TRACE_VERSION, Timing, Trace, Transfer};
use futures::future::BoxFuture;
use std::collections::HashMap;

/// The SDK's output for the handoffs a response asked for beyond the first.
const MULTIPLE_HANDOFFS: &str = "Multiple handoffs detected, ignoring this one.";
/// The SDK's tool output when an agent-as-tool run fails.
const DELEGATION_FAILED: &str = "An error occurred while running the tool. Please try again.";

pub struct Runner<'t> {
    topo: &'t Topology,
    scenario: &'t Scenario,
    models: &'t dyn ModelSource,
    opts: RunOptions,
    store: ItemStore,
    steps: Vec<Step>,
    transfers: Vec<Transfer>,
    usage: Usage,
    turn: u32,
    calls: HashMap<String, u32>,
    tools: HashMap<String, Vec<ToolSpec>>,
    system: HashMap<String, String>,
    /// Who owns the conversation at the top level.
    root_owner: String,
    /// The run's start, which steps' timings count from.
    t0: std::time::Instant,
    /// Claims checked and rejected so far, per verified edge.
    verifications: HashMap<String, u32>,
    rejections: HashMap<String, u32>,
    /// How many times each (agent, tool, arguments) was called, for recorded tool results.
    tool_calls: HashMap<(String, String, String), usize>,
}

/// One `Runner.run`: the top-level run or a nested delegation.
struct Frame {
    owner: String,
    own: Vec<ItemId>,
    hist: History,
    turns: u32,
    depth: u32,
    handoffs: u32,
    owners: Vec<String>,
}

/// How a frame ended.
enum End {
    Completed(String),
    Stopped {
        guard: &'static str,
        reason: String,
    },
    /// A run-wide guard (model calls, delegation depth): ends the whole run, not just a frame.
    Halted {
        guard: &'static str,
        reason: String,
    },
    Escalated(String),
    Failed(String),
    Cancelled,
}

fn now() -> String {
    humantime::format_rfc3339_micros(std::time::SystemTime::now()).to_string()
}

impl<'t> Runner<'t> {
    pub fn new(topo: &'t Topology, scenario: &'t Scenario, models: &'t dyn ModelSource, opts: RunOptions) -> Self {
        let tools = topo.agents.iter().map(|a| (a.id.clone(), tools::tools_for(topo, &a.id))).collect();
        let system = topo.agents.iter().map(|a| (a.id.clone(), tools::system_prompt(topo, &a.id))).collect();
        Runner {
            topo,
            scenario,
            models,
            opts,
            store: ItemStore::default(),
            steps: vec![],
            transfers: vec![],
            usage: Usage::default(),
            turn: 0,
            calls: HashMap::new(),
            tools,
            system,
            root_owner: topo.entry.clone(),
            t0: std::time::Instant::now(),
            verifications: HashMap::new(),
            rejections: HashMap::new(),
            tool_calls: HashMap::new(),
        }
    }

    fn emit(&mut self, e: impl FnOnce() -> RunEvent) {
        if let Some(sink) = self.opts.sink.as_mut() {
            sink(&e());
        }
    }

    fn add(&mut self, kind: ItemKind, agent: &str, f: NewItem) -> ItemId {
        let item = Item::new(kind, agent, self.turn, f);
        let id = item.id;
        if self.store.try_get(id).is_none() {
            if self.opts.sink.is_some() {
                let copy = item.clone();
                self.emit(|| RunEvent::Item(copy));
            }
            self.store.add(item);
        }
        id
    }

    fn push_step(&mut self, mut s: Step) -> u32 {
        s.index = self.steps.len() as u32;
        if self.opts.sink.is_some() {
            let copy = s.clone();
            self.emit(|| RunEvent::Step(copy));
        }
        self.steps.push(s);
        self.steps.len() as u32 - 1
    }

    fn step(&self, kind: StepKind, agent: &str, depth: u32, context: Vec<ItemId>) -> Step {
        Step {
            index: 0,
            kind,
            agent: agent.to_owned(),
            owner: self.root_owner.clone(),
            depth,
            context,
            output: vec![],
            transfer: None,
            detail: String::new(),
            usage: None,
            exchange: None,
            timing: Some(Timing::from_micros(self.elapsed_us(), 0)),
        }
    }

    /// A fork's context edit, once, when the step it names comes next.
    fn apply_edit(&mut self, hist: &mut History) {
        let due = self.opts.edit.as_ref().is_some_and(|e| e.at as usize == self.steps.len());
        let Some(edit) = due.then(|| self.opts.edit.take()).flatten() else { return };
        hist.items.retain(|id| !edit.drop.contains(id));
        hist.input_len = hist.input_len.min(hist.items.len());
        self.put_back(hist, &edit);
        for fact in &edit.restore {
            let Some(f) = self.topo.facts.iter().find(|f| &f.id == fact).cloned() else { continue };
            let holder = f.holders.first().cloned().unwrap_or_default();
            let id = self.add(
                ItemKind::PinnedFact,
                &holder,
                NewItem { text: f.text.clone(), fact: Some(f.id.clone()), ..Default::default() },
            );
            hist.push(id);
        }
    }

    /// The agent's system prompt, with the pinned facts its context holds that it is not a
    /// holder of (a fork put them back): a model sees facts only in its system prompt.
    fn system_with_facts(&self, agent: &str, context: &[ItemId]) -> String {
        let mut s = self.system[agent].clone();
        let extra: Vec<&str> = context
            .iter()
            .map(|id| self.store.get(*id))
            .filter(|i| i.kind == ItemKind::PinnedFact && !s.contains(i.text.as_str()))
            .map(|i| i.text.as_str())
            .collect();
        if !extra.is_empty() {
            s.push_str(if s.contains("\n\nPinned facts:") { "" } else { "\n\nPinned facts:" });
            for f in extra {
                s.push_str("\n- ");
                s.push_str(f);
            }
        }
        s
    }

    /// A tool's answer: the recording's result of the same call when a fork replays one, else
    /// the tool's mock result.
    fn tool_result(&mut self, owner: &str, call: ItemId, name: &str) -> String {
        if let Some(rec) = self.opts.recorded_tools.clone() {
            let args = self.store.get(call).arguments.clone().unwrap_or_default();
            let key = (owner.to_owned(), name.to_owned(), args.clone());
            let nth = self.tool_calls.entry(key).or_default();
            *nth += 1;
            if let Some(r) = rec.result(owner, name, &args, *nth - 1) {
                return r.to_owned();
            }
        }
        self.topo
            .agent(owner)
            .and_then(|a| a.tools.iter().find(|t| t.name == name))
            .map(|t| t.mock_result.clone())
            .unwrap_or_default()
    }

    /// Puts a fork's restored items back into `hist`, each after the nearest item that stood
    /// before it in the sender's context and is still there (else at the start). One pass over
    /// the sender's order and one over the history.
    fn put_back(&mut self, hist: &mut History, edit: &super::ContextEdit) {
        use std::collections::{HashMap, HashSet};
        let present: HashSet<ItemId> = hist.items.iter().copied().collect();
        let wanted: HashMap<ItemId, &Item> =
            edit.put_back.iter().filter(|i| !present.contains(&i.id)).map(|i| (i.id, i)).collect();
        // Anchor → the restored items that follow it (None: the start), in the sender's order;
        // items missing from the order come last.
        let mut after: HashMap<Option<ItemId>, Vec<ItemId>> = HashMap::new();
        let mut anchor = None;
        let mut placed = HashSet::new();
        for id in &edit.order {
            if wanted.contains_key(id) && placed.insert(*id) {
                after.entry(anchor).or_default().push(*id);
            } else if present.contains(id) {
                anchor = Some(*id);
            }
        }
        let tail: Vec<ItemId> =
            edit.put_back.iter().map(|i| i.id).filter(|id| wanted.contains_key(id) && !placed.contains(id)).collect();
        for item in edit.put_back.iter().filter(|i| wanted.contains_key(&i.id)) {
            if self.store.try_get(item.id).is_none() {
                let item = item.clone();
                if self.opts.sink.is_some() {
                    let copy = item.clone();
                    self.emit(|| RunEvent::Item(copy));
                }
                self.store.add(item);
            }
        }
        let mut items = Vec::with_capacity(hist.items.len() + wanted.len());
        let mut input_len = hist.input_len;
        let head = after.remove(&None).unwrap_or_default();
        input_len += head.len();
        items.extend(head);
        for (i, id) in hist.items.iter().enumerate() {
            items.push(*id);
            if let Some(more) = after.remove(&Some(*id)) {
                if i < hist.input_len {
                    input_len += more.len();
                }
                items.extend(more);
            }
        }
        items.extend(tail);
        hist.items = items;
        hist.input_len = input_len.min(hist.items.len());
    }

    fn elapsed_us(&self) -> i64 {
        self.t0.elapsed().as_micros() as i64
    }

    /// The agent's own items (instructions, held facts) for a period of ownership.
    fn own_items(&mut self, agent_id: &str) -> Vec<ItemId> {
        let mut out = vec![];
        let instructions = self.topo.agent(agent_id).map(|a| a.instructions.trim_end().to_owned()).unwrap_or_default();
        if !instructions.is_empty() {
            out.push(self.add(ItemKind::Instructions, agent_id, NewItem { text: instructions, ..Default::default() }));
        }
        let held: Vec<(String, String)> = self
            .topo
            .facts
            .iter()
            .filter(|f| f.holders.iter().any(|h| h == agent_id))
            .map(|f| (f.id.clone(), f.text.clone()))
            .collect();
        for (id, text) in held {
            out.push(self.add(ItemKind::PinnedFact, agent_id, NewItem { text, fact: Some(id), ..Default::default() }));
        }
        out
    }

    fn name(&self, id: &str) -> String {
        self.topo.agent(id).map(|a| a.name.clone()).unwrap_or_else(|| id.to_owned())
    }

    pub async fn run(mut self) -> Trace {
        let started_at = now();
        let (topology, scenario) = (self.topo.name.clone(), self.scenario.name.clone());
        let sa = started_at.clone();
        self.emit(|| RunEvent::Started { topology, scenario, started_at: sa });
        let mut hist = History::default();
        for m in &self.scenario.history {
            let kind = if m.role == "assistant" { ItemKind::AssistantMessage } else { ItemKind::UserMessage };
            hist.push(self.add(kind, &m.role, NewItem { text: m.content.clone(), ..Default::default() }));
        }
        let input = self.scenario.input.clone();
        hist.push(self.add(ItemKind::UserMessage, "user", NewItem { text: input, ..Default::default() }));
        hist.input_len = hist.items.len();
        let entry = self.topo.entry.clone();
        let own = self.own_items(&entry);
        let frame = Frame { owner: entry.clone(), own, hist, turns: 0, depth: 0, handoffs: 0, owners: vec![entry] };
        let input_text = self.scenario.input.clone();
        let (frame, end) = match self.guardrails(&frame, GuardrailOn::Input, &input_text).await {
            Some(end) => (frame, end),
            None => self.run_frame(frame).await,
        };
        let end = match end {
            End::Completed(text) => {
                self.guardrails(&frame, GuardrailOn::Output, &text).await.unwrap_or(End::Completed(text))
            }
            other => other,
        };
        let owner = frame.owner;
        let outcome = match end {
            End::Completed(text) => Outcome {
                status: OutcomeStatus::Completed,
                reason: format!("{} gave the final answer", self.name(&owner)),
                owner,
                final_output: Some(text),
                guard: None,
            },
            End::Stopped { guard, reason } | End::Halted { guard, reason } => {
                Outcome { status: OutcomeStatus::Stopped, reason, owner, final_output: None, guard: Some(guard.into()) }
            }
            End::Escalated(reason) => {
                Outcome { status: OutcomeStatus::Escalated, reason, owner, final_output: None, guard: None }
            }
            End::Failed(reason) => {
                Outcome { status: OutcomeStatus::Failed, reason, owner, final_output: None, guard: None }
            }
            End::Cancelled => Outcome {
                status: OutcomeStatus::Cancelled,
                reason: "cancelled by the user".into(),
                owner,
                final_output: None,
                guard: None,
            },
        };
        let ended_at = now();
        let (o, u, e) = (outcome.clone(), self.usage, ended_at.clone());
        self.emit(|| RunEvent::Finished { outcome: o, usage: u, ended_at: e });
        Trace {
            version: TRACE_VERSION,
            run_id: self.opts.run_id.take(),
            topology: self.topo.name.clone(),
            scenario: self.scenario.name.clone(),
            definition: Some(self.topo.clone()),
            providers: std::mem::take(&mut self.opts.providers),
            started_at,
            ended_at,
            steps: self.steps,
            transfers: self.transfers,
            outcome,
            usage: self.usage,
            items: self.store,
            source: None,
            fork: None,
            mark: None,
        }
    }

    /// The run's input guardrails (the entry agent's and the run-wide ones, on the first turn
    /// only) or the final agent's output guardrails, as the Agents SDK runs them: each verdict
    /// is a step; the first tripwire ends the run. Pattern and schema checks answer at once, so
    /// a parallel input guardrail wins its race with the first model call, as in the SDK.
    async fn guardrails(&mut self, f: &Frame, on: GuardrailOn, text: &str) -> Option<End> {
        let mine: Vec<Guardrail> = self
            .topo
            .guardrails
            .iter()
            .filter(|g| g.on == on && g.agent.as_ref().is_none_or(|a| a == &f.owner))
            .cloned()
            .collect();
        // Blocking input guardrails first, as the SDK runs them.
        let mut ordered: Vec<&Guardrail> = mine.iter().filter(|g| !g.run_in_parallel).collect();
        ordered.extend(mine.iter().filter(|g| g.run_in_parallel));
        let word = if on == GuardrailOn::Input { "input" } else { "output" };
        for g in ordered {
            let v = match &g.check {
                crate::topology::GuardrailCheck::Agent { agent } => self.guardrail_agent(agent, text).await,
                _ => g.check(text),
            };
            let mut s = self.step(StepKind::Guardrail, &f.owner, f.depth, visible(f));
            s.detail =
                format!("{word} guardrail {}: {} — {}", g.name, if v.tripped { "tripped" } else { "passed" }, v.reason);
            self.push_step(s);
            if v.tripped {
                return Some(End::Stopped {
                    guard: if on == GuardrailOn::Input { "input_guardrail" } else { "output_guardrail" },
                    reason: format!("{word} guardrail {} tripped: {}", g.name, v.reason),
                });
            }
        }
        None
    }

    /// A guardrail agent's verdict: it gets the text as its input (a model call of its own, as
    /// the SDK's guardrail function runs it) and answers `{"tripwire_triggered", "reason"}`.
    async fn guardrail_agent(&mut self, agent_id: &str, text: &str) -> crate::topology::guardrail::Verdict {
        use crate::topology::guardrail::Verdict;
        let Some(agent) = self.topo.agent(agent_id) else {
            return Verdict { tripped: true, reason: format!("the guardrail agent {agent_id} does not exist") };
        };
        let n = {
            let c = self.calls.entry(agent_id.to_owned()).or_default();
            *c += 1;
            *c
        };
        let system = self.system.get(agent_id).cloned().unwrap_or_default();
        let answer = match self.models.model_for(agent) {
            Ok(m) => crate::providers::ask::ask(m, agent, &system, text, self.turn, n, &self.topo.facts).await,
            Err(e) => Err(e),
        };
        let answer = match answer {
            Ok(r) => r,
            Err(e) => {
                return Verdict { tripped: true, reason: format!("the guardrail agent {} failed: {e}", agent.name) };
            }
        };
        self.usage += answer.usage;
        let said = &answer.text;
        match answer.json::<serde_json::Value>() {
            Some(v) if v.get("tripwire_triggered").and_then(|t| t.as_bool()).is_some() => Verdict {
                tripped: v["tripwire_triggered"].as_bool().unwrap_or(false),
                reason: format!(
                    "{} says {}",
                    agent.name,
                    v.get("reason").and_then(|r| r.as_str()).unwrap_or(if v["tripwire_triggered"] == true {
                        "trip"
                    } else {
                        "pass"
                    })
                ),
            },
            _ => Verdict {
                tripped: true,
                reason: format!(
                    "{}'s answer is not {{tripwire_triggered, reason}} JSON: {}",
                    agent.name,
                    clip(said, 80)
                ),
            },
        }
    }

    fn guard_step(&mut self, f: &Frame, detail: String) {
        let mut s = self.step(StepKind::Guard, &f.owner, f.depth, visible(f));
        s.detail = detail;
        self.push_step(s);
    }

    fn run_frame(&mut self, mut f: Frame) -> BoxFuture<'_, (Frame, End)> {
        Box::pin(async move {
            loop {
                if self.opts.cancel.is_cancelled() {
                    return (f, End::Cancelled);
                }
                let max_turns = self.topo.guards.max_turns;
                if f.turns >= max_turns {
                    let reason = format!("Max turns ({max_turns}) exceeded");
                    self.guard_step(&f, format!("max_turns: {reason}"));
                    return (f, End::Stopped { guard: "max_turns", reason });
                }
                // Never below max_turns: a top-level run may always take the turns it is given.
                let max_calls = self.topo.guards.max_model_calls.max(self.topo.guards.max_turns);
                if self.turn >= max_calls {
                    let reason = format!(
                        "Max model calls ({max_calls}) for the whole run reached (delegations included); raise guards.max_model_calls if the run needs more"
                    );
                    self.guard_step(&f, format!("max_model_calls: {reason}"));
                    return (f, End::Halted { guard: "max_model_calls", reason });
                }
                f.turns += 1;
                self.turn += 1;
                let turn = self.turn;
                let n = {
                    let c = self.calls.entry(f.owner.clone()).or_default();
                    *c += 1;
                    *c
                };
                let Some(agent) = self.topo.agent(&f.owner) else {
                    let reason = format!("agent '{}' does not exist", f.owner);
                    return (f, End::Failed(reason));
                };
                self.apply_edit(&mut f.hist);
                let context = visible(&f);
                let call_start = self.elapsed_us();
                let result = match self.models.model_for(agent) {
                    Err(e) => Err(e),
                    Ok(model) => {
                        let req = ModelRequest {
                            agent,
                            system: self.system_with_facts(&f.owner, &context),
                            context: context.iter().map(|id| self.store.get(*id)).collect(),
                            tools: &self.tools[&f.owner],
                            turn,
                            call_number: n,
                            store: &self.store,
                            facts: &self.topo.facts,
                        };
                        let cancel = self.opts.cancel.clone();
                        tokio::select! {
                            r = model.respond(req) => r,
                            _ = cancel.cancelled() => Err(ModelError::Cancelled),
                        }
                    }
                };
                let resp = match result {
                    // Baton's own providers are redacted where they are made (`LiveModels`); a
                    // model a library user plugs in is redacted here.
                    Ok(r) => crate::providers::redact::response(r),
                    Err(ModelError::Cancelled) => return (f, End::Cancelled),
                    Err(e) => {
                        let reason =
                            crate::providers::redact::redact(&format!("{}'s model call failed: {e}", agent.name))
                                .into_owned();
                        self.guard_step(&f, format!("error: {reason}"));
                        return (f, End::Failed(reason));
                    }
                };
                let call_end = self.elapsed_us();
                self.usage += resp.usage;
                let new_start = f.hist.items.len();
                let owner = f.owner.clone();
                let mut output = vec![];
                let mut calls: Vec<(ItemId, String, String)> = vec![]; // (item, name, call_id)
                let mut last_message = None;
                let mut refs = resp.refs.into_iter();
                for o in resp.output {
                    let r = refs.next().unwrap_or_default();
                    let (provider_id, status) = (r.id, r.status);
                    let id = match o {
                        OutputItem::Reasoning(text) => self.add(
                            ItemKind::Reasoning,
                            &owner,
                            NewItem { text, provider_id, status, ..Default::default() },
                        ),
                        OutputItem::Message(text) => {
                            last_message = Some(text.clone());
                            self.add(
                                ItemKind::AssistantMessage,
                                &owner,
                                NewItem { text, provider_id, status, ..Default::default() },
                            )
                        }
                        OutputItem::Call { name, arguments, call_id } => {
                            let transfer =
                                self.tools[&owner].iter().any(|t| t.name == name && t.kind != ToolKind::Tool);
                            let kind = if transfer { ItemKind::TransferCall } else { ItemKind::ToolCall };
                            let id = self.add(
                                kind,
                                &owner,
                                NewItem {
                                    name: Some(name.clone()),
                                    arguments: Some(arguments),
                                    call_id: Some(call_id.clone()),
                                    provider_id,
                                    status,
                                    ..Default::default()
                                },
                            );
                            calls.push((id, name, call_id));
                            id
                        }
                    };
                    output.push(id);
                    f.hist.push(id);
                }
                let mut s = self.step(StepKind::ModelCall, &owner, f.depth, context);
                s.output = output;
                s.usage = Some(resp.usage);
                s.exchange = resp.exchange;
                s.timing = Some(Timing::from_micros(call_start, call_end - call_start));
                s.detail = format!("call {n} of {}", self.name(&owner));
                self.push_step(s);

                // Function tools (own tools and delegations) first, in call order.
                let mut handoffs: Vec<(ItemId, String, Edge)> = vec![];
                for (call, name, call_id) in &calls {
                    let Some(spec) = self.tools[&owner].iter().find(|t| &t.name == name).cloned() else {
                        let reason = format!("Tool {name} not found in agent {}", self.name(&owner));
                        self.guard_step(&f, format!("error: {reason}"));
                        return (f, End::Failed(reason));
                    };
                    match spec.kind {
                        ToolKind::Tool => {
                            let text = self.tool_result(&owner, *call, name);
                            let id = self.add(
                                ItemKind::ToolResult,
                                &owner,
                                NewItem { text: text.clone(), call_id: Some(call_id.clone()), ..Default::default() },
                            );
                            f.hist.push(id);
                            let mut s = self.step(StepKind::ToolCall, &owner, f.depth, visible(&f));
                            s.output = vec![id];
                            s.detail = format!("{name} → {}", clip(&text, 80));
                            self.push_step(s);
                        }
                        ToolKind::Delegation => {
                            let edge = self.topo.edge(spec.edge.as_deref().unwrap_or_default()).cloned();
                            let Some(edge) = edge else { continue };
                            match self.delegate(&mut f, *call, call_id, &edge).await {
                                Ok(()) => {}
                                Err(end) => return (f, end),
                            }
                        }
                        ToolKind::Handoff => {
                            if let Some(e) = self.topo.edge(spec.edge.as_deref().unwrap_or_default()) {
                                handoffs.push((*call, call_id.clone(), e.clone()));
                            }
                        }
                    }
                }
                if let Some((call, call_id, edge)) = handoffs.first().cloned() {
                    for (_, extra_id, _) in &handoffs[1..] {
                        let id = self.add(
                            ItemKind::TransferOutput,
                            &owner,
                            NewItem {
                                text: MULTIPLE_HANDOFFS.into(),
                                call_id: Some(extra_id.clone()),
                                ..Default::default()
                            },
                        );
                        f.hist.push(id);
                    }
                    if !self.breakpoint(&edge.id).await {
                        return (f, End::Cancelled);
                    }
                    match self.handoff(&mut f, call, &call_id, &edge, new_start) {
                        Ok(()) => continue,
                        Err(end) => return (f, end),
                    }
                }
                if !calls.is_empty() {
                    continue;
                }
                return match last_message {
                    Some(text) => {
                        let mut s = self.step(StepKind::Final, &owner, f.depth, visible(&f));
                        s.detail = clip(&text, 120);
                        self.push_step(s);
                        (f, End::Completed(text))
                    }
                    None => {
                        let reason = format!("{} returned neither a message nor a tool call", self.name(&owner));
                        self.guard_step(&f, format!("error: {reason}"));
                        (f, End::Failed(reason))
                    }
                };
            }
        })
    }

    /// Pauses before a transfer on a breakpoint edge; false when the run was cancelled.
    async fn breakpoint(&mut self, edge: &str) -> bool {
        if !self.opts.breakpoints.contains(edge) {
            return true;
        }
        let (step, edge_id) = (self.steps.len() as u32, edge.to_owned());
        self.emit(|| RunEvent::Paused { step, edge: edge_id });
        let gate = self.opts.gate.clone();
        let cancel = self.opts.cancel.clone();
        tokio::select! {
            _ = gate.wait() => true,
            _ = cancel.cancelled() => false,
        }
    }

    fn fact_checks(&self, sender: &[ItemId], after: &[ItemId]) -> Vec<FactCheck> {
        self.topo
            .facts
            .iter()
            .map(|fact| FactCheck { id: fact.id.clone(), status: fact_status(&self.store, fact, sender, after) })
            .collect()
    }

    fn record_transfer(&mut self, mut tr: Transfer, mut step: Step) {
        let d = diff_transfer(&self.store, &tr.sender, &tr.receiver);
        tr.carried = d.carried;
        tr.transformed = d.transformed;
        tr.dropped = d.dropped;
        tr.added = d.added;
        tr.step = self.steps.len() as u32;
        step.transfer = Some(self.transfers.len() as u32);
        if self.opts.sink.is_some() {
            let copy = tr.clone();
            self.emit(|| RunEvent::Transfer(copy));
        }
        self.transfers.push(tr);
        self.push_step(step);
    }

    /// A handoff: guards first, then the transfer output, the policy, the diff.
    fn handoff(
        &mut self,
        f: &mut Frame,
        call: ItemId,
        call_id: &str,
        edge: &Edge,
        new_start: usize,
    ) -> Result<(), End> {
        let from = f.owner.clone();
        let mut target = edge.to.clone();
        let mut policy = edge.policy.clone();
        let mut edge_id = edge.id.clone();
        if let Some(max) = self.topo.guards.max_handoffs.filter(|m| f.handoffs >= *m) {
            let reason = format!(
                "max_handoffs ({max}) reached: the handoff {} → {} was not made",
                self.name(&from),
                self.name(&target)
            );
            self.guard_step(f, format!("max_handoffs: {reason}"));
            return Err(End::Stopped { guard: "max_handoffs", reason });
        }
        let mut escalated = None;
        if f.owners.contains(&target) {
            let path = f.owners.iter().map(|o| self.name(o)).collect::<Vec<_>>().join(" → ");
            let what = format!(
                "{} tried to hand back to {}, which already owned the conversation ({path} → {})",
                self.name(&from),
                self.name(&target),
                self.name(&target)
            );
            match self.topo.guards.on_revisit {
                OnRevisit::Allow => {}
                OnRevisit::Stop => {
                    let reason = format!("handoff-history guard: {what}; stopped");
                    self.guard_step(f, format!("revisit: {reason}"));
                    return Err(End::Stopped { guard: "revisit", reason });
                }
                OnRevisit::Escalate => match self.topo.escalation_target().filter(|h| h.kind == AgentKind::Human) {
                    Some(h) => {
                        let reason = format!("handoff-history guard: {what}; escalated to {}", h.name);
                        self.guard_step(f, format!("revisit: {reason}"));
                        target = h.id.clone();
                        policy = ContextPolicy::Full;
                        edge_id = String::new();
                        escalated = Some(reason);
                    }
                    None => {
                        let reason = format!("handoff-history guard: {what}; no human agent to escalate to, stopped");
                        self.guard_step(f, format!("revisit: {reason}"));
                        return Err(End::Stopped { guard: "revisit", reason });
                    }
                },
            }
        }
        let target_name = self.name(&target);
        let out = self.add(
            ItemKind::TransferOutput,
            &from,
            NewItem {
                text: format!("{{\"assistant\": {}}}", serde_json::to_string(&target_name).expect("string")),
                call_id: Some(call_id.to_owned()),
                ..Default::default()
            },
        );
        f.hist.push(out);
        let sender: Vec<ItemId> = visible(f);
        let from_name = self.name(&from);
        let ctx = TransferCtx { sender_id: &from, sender_name: &from_name, call, turn: self.turn };
        let before = self.store.len();
        let mut hist = apply_policy(&mut self.store, &policy, &f.hist, new_start, &ctx);
        self.apply_edit(&mut hist);
        if self.opts.sink.is_some() {
            let made: Vec<Item> =
                self.store.iter().enumerate().filter(|(i, _)| *i >= before).map(|(_, it)| it.clone()).collect();
            for item in made {
                self.emit(|| RunEvent::Item(item));
            }
        }
        let own = self.own_items(&target);
        let receiver: Vec<ItemId> = own.iter().chain(hist.items.iter()).copied().collect();
        let facts = self.fact_checks(&sender, &receiver);
        if f.depth == 0 {
            self.root_owner = target.clone();
        }
        let tr = Transfer {
            step: 0,
            kind: EdgeKind::Handoff,
            from: from.clone(),
            to: target.clone(),
            edge: edge_id,
            policy: policy.label(),
            sender,
            receiver: receiver.clone(),
            carried: vec![],
            transformed: vec![],
            dropped: vec![],
            added: vec![],
            facts,
            back: None,
        };
        let mut step = self.step(StepKind::Handoff, &target, f.depth, receiver);
        step.detail = format!("{from_name} → {target_name}");
        self.record_transfer(tr, step);
        f.handoffs += 1;
        f.owner = target.clone();
        f.own = own;
        f.hist = hist;
        f.owners.push(target.clone());
        if let Some(reason) = escalated {
            return Err(End::Escalated(reason));
        }
        if self.topo.agent(&target).is_some_and(|a| a.kind == AgentKind::Human) {
            return Err(End::Escalated(format!("escalated to a human: {target_name}")));
        }
        Ok(())
    }

    /// A delegation: the target runs nested on the tool input only; its final output returns
    /// to the caller as the tool result. The caller keeps ownership and its whole context.
    async fn delegate(&mut self, f: &mut Frame, call: ItemId, call_id: &str, edge: &Edge) -> Result<(), End> {
        let caller = f.owner.clone();
        let target = edge.to.clone();
        let max_depth = self.topo.guards.max_depth;
        if f.depth + 1 > max_depth {
            let reason = format!(
                "Delegation depth ({max_depth}) exceeded: {} delegates to {} at depth {}; a delegation cycle recurses without end — remove it, or raise guards.max_depth",
                self.name(&caller),
                self.name(&target),
                f.depth + 1
            );
            self.guard_step(f, format!("max_depth: {reason}"));
            return Err(End::Halted { guard: "max_depth", reason });
        }
        let args = self.store.get(call).arguments.clone().unwrap_or_default();
        let input = serde_json::from_str::<serde_json::Value>(&args)
            .ok()
            .and_then(|v| v.get("input").and_then(|i| i.as_str()).map(str::to_owned))
            .unwrap_or(args);
        let input_item = self.add(
            ItemKind::UserMessage,
            &caller,
            NewItem { text: input, derived_from: vec![call], ..Default::default() },
        );
        let own = self.own_items(&target);
        let sender = visible(f);
        // A fork's edit at this delegation changes what the worker starts with.
        let mut start = History { items: vec![input_item], input_len: 1 };
        self.apply_edit(&mut start);
        let receiver: Vec<ItemId> = own.iter().copied().chain(start.items.iter().copied()).collect();
        // The caller keeps its context: a fact it holds stays with the conversation's owner.
        let after: Vec<ItemId> = sender.iter().chain(receiver.iter()).copied().collect();
        let facts = self.fact_checks(&sender, &after);
        let tr = Transfer {
            step: 0,
            kind: EdgeKind::Delegation,
            from: caller.clone(),
            to: target.clone(),
            edge: edge.id.clone(),
            policy: "tool_input".into(),
            sender,
            receiver: receiver.clone(),
            carried: vec![],
            transformed: vec![],
            dropped: vec![],
            added: vec![],
            facts,
            back: None,
        };
        let mut step = self.step(StepKind::Delegation, &target, f.depth + 1, receiver);
        step.detail = format!("{} asks {}", self.name(&caller), self.name(&target));
        let index = self.transfers.len();
        let task: Vec<ItemId> = start.items.clone();
        self.record_transfer(tr, step);
        let nested = Frame {
            owner: target.clone(),
            own,
            hist: start,
            turns: 0,
            depth: f.depth + 1,
            handoffs: 0,
            owners: vec![target.clone()],
        };
        let (nested, end) = self.run_frame(nested).await;
        let (text, derived, note) = match end {
            End::Cancelled => return Err(End::Cancelled),
            halted @ End::Halted { .. } => return Err(halted),
            End::Completed(text) if !text.is_empty() => {
                let last = nested.hist.items.iter().rev().copied().find(|id| {
                    let i = self.store.get(*id);
                    i.kind == ItemKind::AssistantMessage && i.text == text
                });
                (text, last.into_iter().collect(), String::new())
            }
            End::Completed(_) => (DELEGATION_FAILED.to_owned(), vec![], "returned an empty answer".to_owned()),
            End::Stopped { reason, .. } | End::Escalated(reason) | End::Failed(reason) => {
                (DELEGATION_FAILED.to_owned(), vec![], reason)
            }
        };
        // A verified delegation's result is a claim: its check comes back with it, in the tool's
        // output (as the SDK export's `custom_output_extractor` returns it), for the caller to read.
        let mut verified = None;
        let mut output_text = text.clone();
        if edge.acceptance == Acceptance::Verify && note.is_empty() {
            let (check, detail, rejected) = self.verify_claim(&caller, &target, edge, &text).await;
            output_text = format!("{text}\n\n{check}");
            verified = Some((detail, rejected));
        }
        let out = self.add(
            ItemKind::TransferOutput,
            &caller,
            NewItem {
                text: output_text,
                call_id: Some(call_id.to_owned()),
                derived_from: derived,
                ..Default::default()
            },
        );
        f.hist.push(out);
        let mut s = self.step(StepKind::DelegationReturn, &caller, f.depth, visible(f));
        s.output = vec![out];
        s.detail = if note.is_empty() {
            format!("{} returned: {}", self.name(&target), clip(&text, 80))
        } else {
            format!("{} failed ({note}); the tool returned an error", self.name(&target))
        };
        let mut stop = None;
        if let Some((detail, rejected)) = verified {
            s.detail = format!("{} · {detail}", s.detail);
            if rejected > self.topo.guards.max_rejections {
                let reason = format!(
                    "{} rejected {}'s claim {rejected} times (guards.max_rejections is {})",
                    self.name(&caller),
                    self.name(&target),
                    self.topo.guards.max_rejections
                );
                stop = Some(End::Stopped { guard: "verification", reason });
            }
        }
        let back_step = self.push_step(s);
        // What came back and what the worker kept: its history but its task and the answer.
        let kept: Vec<ItemId> = nested
            .hist
            .items
            .iter()
            .copied()
            .filter(|id| !task.contains(id) && !self.store.get(out).derived_from.contains(id))
            .collect();
        let back = crate::trace::Back {
            step: back_step,
            worker: nested.hist.items.clone(),
            returned: vec![out],
            left_behind: kept,
        };
        if self.opts.sink.is_some() {
            let copy = back.clone();
            self.emit(|| RunEvent::Returned { transfer: index as u32, back: copy });
        }
        self.transfers[index].back = Some(back);
        match stop {
            Some(end) => Err(end),
            None => Ok(()),
        }
    }

    /// A verified delegation's result is a claim: checked against the edge's criteria and the
    /// pinned facts the caller holds, with the scenario's scripted verdict. Returns the check in
    /// words, its one-line summary and how many times this edge's claims were rejected so far.
    async fn verify_claim(&mut self, caller: &str, worker: &str, edge: &Edge, claim: &str) -> (String, String, u32) {
        let n = {
            let c = self.verifications.entry(edge.id.clone()).or_default();
            *c += 1;
            *c
        };
        let held: Vec<String> = self
            .topo
            .facts
            .iter()
            .filter(|f| f.holders.iter().any(|h| h == caller))
            .map(|f| format!("{} (\"{}\")", f.id, f.text))
            .collect();
        let criteria = if edge.criteria.is_empty() { "none given".to_owned() } else { edge.criteria.join("; ") };
        let mut verdict = self.scenario.verdicts.get(&edge.id).and_then(|v| v.get(n as usize - 1)).cloned();
        let mut problem = None;
        // A check tool the edge names decides next (Baton answers tools with their mock results).
        if verdict.is_none()
            && let Some(tool) = &edge.check_tool
        {
            match self.topo.agent(caller).and_then(|a| a.tools.iter().find(|t| &t.name == tool)) {
                Some(t) => {
                    let r = t.mock_result.trim();
                    let accept = r.to_ascii_lowercase().starts_with("accept");
                    let reason = if accept {
                        r["accept".len()..].trim_start_matches(['e', 'd', ':', ' ', '-']).to_owned()
                    } else {
                        r.to_owned()
                    };
                    verdict = Some(crate::topology::MockVerdict { accept, reason: format!("{tool}: {reason}") });
                }
                None => problem = Some(format!("the check tool {tool} is not a tool of {}", self.name(caller))),
            }
        }
        // A live caller answers for itself: its model is asked for a structured verdict.
        let live = self
            .topo
            .agent(caller)
            .and_then(|a| a.model.as_ref())
            .is_some_and(|m| m.provider != crate::topology::Provider::Mock);
        if verdict.is_none() && live {
            match self.live_verdict(caller, worker, claim, &criteria, &held).await {
                Ok(v) => verdict = Some(v),
                Err(p) => problem = Some(p),
            }
        }
        let (word, reason) = match &verdict {
            Some(v) if v.accept => ("accepted", v.reason.clone()),
            Some(v) => ("rejected", v.reason.clone()),
            None => (
                "not verified",
                problem.unwrap_or_else(|| {
                    format!(
                        "no verdict for claim {n} of {} in scenario {} (add one under verdicts.{})",
                        edge.id, self.scenario.name, edge.id
                    )
                }),
            ),
        };
        if verdict.as_ref().is_some_and(|v| !v.accept) {
            *self.rejections.entry(edge.id.clone()).or_default() += 1;
        }
        let rejected = self.rejections.get(&edge.id).copied().unwrap_or(0);
        let text = format!(
            "Verification of {}'s claim against: {criteria}. Held facts: {}. Verdict: {word}{}",
            self.name(worker),
            if held.is_empty() { "none".to_owned() } else { held.join("; ") },
            if reason.is_empty() { String::new() } else { format!(" — {reason}") }
        );
        let detail = format!("claim {word}{}", if reason.is_empty() { String::new() } else { format!(": {reason}") });
        (text, detail, rejected)
    }

    /// The caller's own model asked for `{"accept": bool, "reason": "..."}` on a claim.
    async fn live_verdict(
        &mut self,
        caller: &str,
        worker: &str,
        claim: &str,
        criteria: &str,
        held: &[String],
    ) -> Result<crate::topology::MockVerdict, String> {
        let agent = self.topo.agent(caller).ok_or("the caller is not in the topology")?;
        let prompt = format!(
            "{} reports this as done: \"{claim}\"\nIt must meet: {criteria}.\nFacts you hold: {}.\nIs the claim true \
             as it stands? Answer with JSON only: {{\"accept\": true or false, \"reason\": \"...\"}}",
            self.name(worker),
            if held.is_empty() { "none".to_owned() } else { held.join("; ") }
        );
        let model = self.models.model_for(agent).map_err(|e| format!("no model for the check: {e}"))?;
        let system = "You check claims other agents make against criteria and the facts you hold.";
        let answer = crate::providers::ask::ask(model, agent, system, &prompt, self.turn, 0, &self.topo.facts)
            .await
            .map_err(|e| format!("the check's model call failed: {e}"))?;
        self.usage += answer.usage;
        answer
            .json::<crate::topology::MockVerdict>()
            .ok_or_else(|| format!("the model's verdict was not {{accept, reason}} JSON: {}", clip(&answer.text, 80)))
    }
}

fn visible(f: &Frame) -> Vec<ItemId> {
    let mut v = Vec::with_capacity(f.own.len() + f.hist.items.len());
    v.extend_from_slice(&f.own);
    v.extend_from_slice(&f.hist.items);
    v
}

fn clip(s: &str, n: usize) -> String {
    let one = s.replace('\n', " ");
    if one.chars().count() <= n { one } else { format!("{}…", one.chars().take(n).collect::<String>()) }
}
