//! Proof by counterfactual replay: at a transfer, put back what did not cross (all of it first,
//! then the smallest set whose restoration still changes the ending, found by Zeller's ddmin, and
//! each suspect alone), fork the run there, answer every call from the recording until the first
//! one whose input changed, and let the mock (exact, free), the run's own providers or a chosen
//! model answer the rest. Sampled providers run each test `samples` times beside as many forks
//! with nothing put back, so a flip is counted only on what those baseline forks hold steady.

use super::{ProofCost as Cost, SuspectReport, TransferSuspects, restorable, verdict};
use crate::context::{ItemId, ItemKind};
use crate::error::{ApiError, ErrorCode};
use crate::fork::{ForkSpec, Then, fork};
use crate::trace::{StepKind, Trace, Transfer};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use tokio_util::sync::CancellationToken;

mod ending_key;
use ending_key::{Key, Stable};

/// What a proof found for one suspect (or one transfer's whole loss).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum ProofStatus {
    /// Restoring it changed the ending in `flips` of `samples` forks (`baseline` of as many
    /// forks with nothing restored changed it too).
    Changes { flips: u32, samples: u32, baseline: u32 },
    /// Restoring it changed nothing in `samples` forks.
    NoEffect { samples: u32 },
    /// Not tested, and why.
    NotTested { why: String },
}

impl ProofStatus {
    pub fn changes(&self) -> bool {
        matches!(self, ProofStatus::Changes { .. })
    }

    /// "changes the ending (3/3)", "has no effect (0/1)", "was not tested (why)".
    pub fn words(&self) -> String {
        match self {
            ProofStatus::Changes { flips, samples, .. } => format!("changes the ending ({flips}/{samples})"),
            ProofStatus::NoEffect { samples } => format!("has no effect (0/{samples})"),
            ProofStatus::NotTested { why } => format!("was not tested ({why})"),
        }
    }
}

/// One suspect's proof.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Proof {
    #[serde(flatten)]
    pub status: ProofStatus,
    /// What changed, in one line (empty when nothing did).
    pub changed: String,
    /// Items that had to be restored with it (a minimal set of more than one).
    #[ts(as = "Vec<String>")]
    pub with: Vec<ItemId>,
    /// The step the fork starts at and the items it puts back: `baton fork RUN --at STEP --put-back ID…`.
    pub at: u32,
    #[ts(as = "Vec<String>")]
    pub put_back: Vec<ItemId>,
    /// The saved fork (with `--save`).
    pub fork_run: Option<String>,
}

/// One transfer's proof: restoring everything it lost, then the minimal set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct TransferProof {
    #[serde(flatten)]
    pub status: ProofStatus,
    /// Restoring everything that did not cross.
    pub all: ProofStatus,
    /// The smallest set whose restoration changes the ending (empty when none does).
    #[ts(as = "Vec<String>")]
    pub minimal: Vec<ItemId>,
    pub changed: String,
    pub at: u32,
    pub fork_run: Option<String>,
}

/// What the proofs cost.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct ProofCost {
    pub forks: u32,
    pub model_calls: u32,
    #[ts(type = "number")]
    pub tokens: u64,
    #[ts(type = "number")]
    pub ms: u64,
    /// Who answered after the restored point: `mock`, `live` or the models given.
    pub answered_by: String,
    /// How endings were compared.
    pub compared: String,
}

/// Progress, as each fork finishes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct ProveProgress {
    pub transfer: u32,
    pub forks: u32,
    pub model_calls: u32,
    pub message: String,
}

/// Receives progress as each fork finishes.
pub type ProgressSink = Box<dyn Fn(&ProveProgress) + Send + Sync>;

/// How to prove.
pub struct ProveOptions {
    /// Only this transfer.
    pub transfer: Option<u32>,
    /// AGENT (or `*` for every agent) → `PROVIDER:MODEL[@URL]`: who answers after the restored point.
    pub models: BTreeMap<String, String>,
    /// The run's own providers answer after the restored point.
    pub live: bool,
    /// Forks per test with a sampled provider (the mock needs one).
    pub samples: u32,
    /// At most this many model calls in all (the mock's included).
    pub budget_calls: Option<u32>,
    /// Suspects per transfer tested alone besides the minimal set (None: every one).
    pub each: Option<usize>,
    pub cancel: CancellationToken,
    pub progress: Option<ProgressSink>,
}

impl Default for ProveOptions {
    fn default() -> Self {
        ProveOptions {
            transfer: None,
            models: BTreeMap::new(),
            live: false,
            samples: 3,
            budget_calls: None,
            each: None,
            cancel: CancellationToken::new(),
            progress: None,
        }
    }
}

/// A proof's result: the report with every proof filled in, and the forks that changed the
/// ending (to save beside the parent), each with the suspect it proves (None: the transfer's
/// minimal set).
pub struct Proved {
    pub report: SuspectReport,
    pub forks: Vec<(u32, Option<ItemId>, Trace)>,
}

/// Who answers after the restored point.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Mock,
    Sampled,
}

/// One test's outcome.
struct Outcome {
    status: ProofStatus,
    changed: String,
    fork: Option<Trace>,
}

/// A restorable unit: a tool call and its result go back together (a result without its call
/// breaks every provider's wire format); the suspect it stands for is the result.
#[derive(Clone)]
struct Unit {
    main: ItemId,
    ids: Vec<ItemId>,
}

struct Prover<'a> {
    trace: &'a Trace,
    parent: &'a str,
    opts: &'a ProveOptions,
    mode: Mode,
    samples: u32,
    reference: Key,
    cost: Cost,
    started: std::time::Instant,
    /// Why nothing can be tested (set once, for every transfer).
    blocked: Option<String>,
}

/// Runs the proofs and returns the report with them, its verdict recomputed.
pub async fn prove(
    trace: &Trace,
    parent: &str,
    mut report: SuspectReport,
    opts: &ProveOptions,
) -> Result<Proved, ApiError> {
    if trace.definition.is_none() {
        return Err(crate::fork::ForkError::NoTopology.into());
    }
    if opts.samples == 0 {
        return Err(ApiError::new(
            ErrorCode::ApiArgs,
            "--samples 0: a proof needs at least one fork per test; use 1 or more",
        ));
    }
    let mut p = Prover::new(trace, parent, opts);
    let mut forks = vec![];
    let ending = report.verdict.ending.clone();
    for t in report.transfers.iter_mut() {
        if opts.transfer.is_some_and(|n| n != t.transfer) {
            continue;
        }
        // Up to the bad ending (every transfer when the ending is not known to be bad).
        if ending.is_bad() && ending.at.is_some_and(|at| t.step >= at) {
            continue;
        }
        if opts.cancel.is_cancelled() {
            break;
        }
        if let Err(e) = p.prove_transfer(t, &mut forks).await {
            // A model that failed, a fork that could not run: this transfer is not tested, and says why.
            let at = Prover::fork_step(&trace.transfers[t.transfer as usize]);
            for s in t.suspects.iter_mut().filter(|s| s.proof.as_ref().is_none_or(|p| !p.status.changes())) {
                s.proof = Some(untested(&e.message, at));
            }
            t.proof = Some(TransferProof {
                status: ProofStatus::NotTested { why: e.message.clone() },
                all: ProofStatus::NotTested { why: e.message },
                minimal: vec![],
                changed: String::new(),
                at,
                fork_run: None,
            });
        }
    }
    p.cost.ms = p.started.elapsed().as_millis() as u64;
    report.cost = Some(p.cost);
    report.verdict = verdict(&report.transfers, ending);
    Ok(Proved { report, forks })
}

impl<'a> Prover<'a> {
    fn new(trace: &'a Trace, parent: &'a str, opts: &'a ProveOptions) -> Prover<'a> {
        let sampled = opts.live || !opts.models.is_empty();
        let mode = if sampled { Mode::Sampled } else { Mode::Mock };
        let blocked = match mode {
            Mode::Mock if trace.source.is_some() => Some(
                "an imported or captured run has no mock scripts to answer after the restored point: pass \
                 --model AGENT=PROVIDER:MODEL (or '*=PROVIDER:MODEL' for every agent) or --live"
                    .into(),
            ),
            _ => None,
        };
        let answered_by = match (mode, opts.models.is_empty()) {
            (Mode::Mock, _) => "mock".to_owned(),
            (Mode::Sampled, true) => "live (the run's own providers)".to_owned(),
            (Mode::Sampled, false) => {
                opts.models.iter().map(|(a, m)| format!("{a}={m}")).collect::<Vec<_>>().join(", ")
            }
        };
        let oracle = super::ending::expect_failures(trace).is_some();
        let compared = match (oracle, mode) {
            (true, _) => "by the scenario's expect: (passes or fails)",
            (false, Mode::Mock) => "by outcome, owner, tool actions and the final answer",
            (false, Mode::Sampled) => {
                "by outcome, owner, tool actions and the final answer's names, on what forks with nothing restored hold steady"
            }
        };
        Prover {
            trace,
            parent,
            opts,
            mode,
            samples: if mode == Mode::Mock { 1 } else { opts.samples },
            reference: Key::of(trace, 0),
            cost: Cost { answered_by, compared: compared.into(), ..Default::default() },
            started: std::time::Instant::now(),
            blocked,
        }
    }

    /// The step a fork of this transfer starts at: the transfer itself (the receiver's history
    /// is edited right after the policy, or the worker's task before it starts).
    fn fork_step(tr: &Transfer) -> u32 {
        tr.step
    }

    /// The units of what did not cross, in the sender's order.
    fn units(&self, tr: &Transfer) -> Vec<Unit> {
        let receiver: BTreeSet<ItemId> = tr.receiver.iter().copied().collect();
        let missing: Vec<&crate::context::Item> = tr
            .sender
            .iter()
            .filter(|id| !receiver.contains(id))
            .filter_map(|id| self.trace.item(*id))
            .filter(|it| restorable(it, tr))
            .collect();
        let calls: HashMap<&str, ItemId> = missing
            .iter()
            .filter(|i| i.kind == ItemKind::ToolCall)
            .filter_map(|i| Some((i.call_id.as_deref()?, i.id)))
            .collect();
        let answered: BTreeSet<&str> =
            missing.iter().filter(|i| i.kind == ItemKind::ToolResult).filter_map(|i| i.call_id.as_deref()).collect();
        let mut out = vec![];
        for it in &missing {
            match it.kind {
                ItemKind::ToolCall if it.call_id.as_deref().is_some_and(|c| answered.contains(c)) => continue,
                ItemKind::ToolResult => {
                    let mut ids: Vec<ItemId> =
                        it.call_id.as_deref().and_then(|c| calls.get(c)).copied().into_iter().collect();
                    ids.push(it.id);
                    out.push(Unit { main: it.id, ids });
                }
                _ => out.push(Unit { main: it.id, ids: vec![it.id] }),
            }
        }
        out
    }

    fn progress(&self, transfer: u32, message: String) {
        if let Some(f) = &self.opts.progress {
            f(&ProveProgress { transfer, forks: self.cost.forks, model_calls: self.cost.model_calls, message });
        }
    }

    /// Why a test cannot run now (budget, cancel), if it cannot.
    fn refused(&self, tr: &Transfer) -> Option<String> {
        if let Some(b) = &self.blocked {
            return Some(b.clone());
        }
        if self.opts.cancel.is_cancelled() {
            return Some("cancelled".into());
        }
        if let Some(budget) = self.opts.budget_calls {
            let after =
                self.trace.steps.iter().filter(|s| s.index >= tr.step && s.kind == StepKind::ModelCall).count().max(1)
                    as u32;
            let need = after * self.samples * if self.mode == Mode::Sampled { 2 } else { 1 };
            if self.cost.model_calls + need > budget {
                return Some(format!(
                    "the budget of {budget} model calls is spent or would not cover this test (~{need} calls; {} used)",
                    self.cost.model_calls
                ));
            }
        }
        None
    }

    async fn prove_transfer(
        &mut self,
        t: &mut TransferSuspects,
        forks: &mut Vec<(u32, Option<ItemId>, Trace)>,
    ) -> Result<(), ApiError> {
        let tr = &self.trace.transfers[t.transfer as usize];
        let at = Self::fork_step(tr);
        let units = self.units(tr);
        let not_tested = |why: String| TransferProof {
            status: ProofStatus::NotTested { why: why.clone() },
            all: ProofStatus::NotTested { why },
            minimal: vec![],
            changed: String::new(),
            at,
            fork_run: None,
        };
        if units.is_empty() {
            t.proof = Some(not_tested("nothing that could be put back was lost here".into()));
            return Ok(());
        }
        if let Some(why) = self.refused(tr) {
            for s in t.suspects.iter_mut() {
                s.proof = Some(untested(&why, at));
            }
            t.proof = Some(not_tested(why));
            return Ok(());
        }
        self.progress(t.transfer, format!("transfer {}: restoring all {} lost item(s)", t.transfer, units.len()));
        let stable = self.baseline(tr, at).await?;
        let all_ids: Vec<ItemId> = units.iter().flat_map(|u| u.ids.clone()).collect();
        let all = self.test(tr, at, &all_ids, &stable).await?;
        let mut cache: HashMap<Vec<ItemId>, bool> = HashMap::new();
        cache.insert(key(&units.iter().map(|u| u.main).collect::<Vec<_>>()), all.status.changes());
        let (status, minimal, changed, fork_tr) = if all.status.changes() {
            let min = self.ddmin(tr, at, &units, &stable, &mut cache).await?;
            let ids: Vec<ItemId> = min.iter().flat_map(|u| u.ids.clone()).collect();
            let o = if min.len() == units.len() {
                Outcome { status: all.status.clone(), changed: all.changed.clone(), fork: all.fork.clone() }
            } else {
                self.test(tr, at, &ids, &stable).await?
            };
            (o.status, min.iter().map(|u| u.main).collect::<Vec<_>>(), o.changed, o.fork)
        } else {
            (all.status.clone(), vec![], String::new(), None)
        };
        if let Some(f) = fork_tr.filter(|_| status.changes()) {
            forks.push((t.transfer, None, f));
        }
        // Each suspect: the minimal set's members share its result; the others are tested alone.
        let each = self.opts.each.unwrap_or(usize::MAX);
        let back_units = self.back_units(tr);
        for (rank, s) in t.suspects.iter_mut().enumerate() {
            if s.loss == super::Loss::LeftBehind {
                let (proof, fork) = self.prove_left_behind(tr, s.item, &back_units).await?;
                if let Some(f) = fork {
                    forks.push((t.transfer, Some(s.item), f));
                }
                s.proof = Some(proof);
                continue;
            }
            let Some(unit) = units.iter().find(|u| u.main == s.item || u.ids.contains(&s.item)) else {
                s.proof = Some(untested("its kind is never put back (the sender's own instructions)", at));
                continue;
            };
            if minimal.contains(&unit.main) {
                s.proof = Some(Proof {
                    status: status.clone(),
                    changed: changed.clone(),
                    with: minimal.iter().copied().filter(|m| *m != unit.main).collect(),
                    at,
                    put_back: minimal_ids(&units, &minimal),
                    fork_run: None,
                });
                continue;
            }
            if !all.status.changes() {
                s.proof = Some(Proof {
                    status: ProofStatus::NoEffect { samples: self.samples },
                    changed: String::new(),
                    with: vec![],
                    at,
                    put_back: unit.ids.clone(),
                    fork_run: None,
                });
                continue;
            }
            if rank >= each {
                s.proof = Some(untested("not among the suspects tested alone", at));
                continue;
            }
            if let Some(why) = self.refused(tr) {
                s.proof = Some(untested(&why, at));
                continue;
            }
            let o = self.test(tr, at, &unit.ids, &stable).await?;
            if let Some(f) = o.fork.filter(|_| o.status.changes()) {
                forks.push((t.transfer, Some(s.item), f));
            }
            s.proof = Some(Proof {
                status: o.status,
                changed: o.changed,
                with: vec![],
                at,
                put_back: unit.ids.clone(),
                fork_run: None,
            });
        }
        // What the proof found that the ranking did not list: the proof is its evidence.
        for id in &minimal {
            if t.suspects.iter().any(|s| s.item == *id) {
                continue;
            }
            let Some(it) = self.trace.item(*id) else { continue };
            let loss = if tr.kind == crate::topology::EdgeKind::Delegation {
                super::Loss::Withheld
            } else {
                super::Loss::Dropped
            };
            t.suspects.push(super::Suspect {
                item: *id,
                agent: it.agent.clone(),
                kind: it.kind,
                text: it.searchable().chars().take(240).collect(),
                loss,
                score: 0.0,
                confidence: super::Confidence::Low,
                evidence: vec![super::Evidence {
                    kind: super::EvidenceKind::Proven,
                    text: "the ranking saw no evidence in the run, but restoring it changes the ending".into(),
                    weight: 0.0,
                }],
                class: Some(super::ErrorClass::DataGap),
                position: tr.sender.iter().position(|s| s == id).unwrap_or(0) as u32,
                proof: Some(Proof {
                    status: status.clone(),
                    changed: changed.clone(),
                    with: minimal.iter().copied().filter(|m| m != id).collect(),
                    at,
                    put_back: minimal_ids(&units, &minimal),
                    fork_run: None,
                }),
            });
        }
        // Proven suspects first, each group in the ranking's order.
        t.suspects.sort_by_key(|s| !s.proof.as_ref().is_some_and(|p| p.status.changes()));
        t.proof = Some(TransferProof { status, all: all.status, minimal, changed, at, fork_run: None });
        Ok(())
    }

    /// What a delegation's worker left behind, as units, and the step of the caller's next
    /// model call (where a fork puts them back, after what it holds).
    fn back_units(&self, tr: &Transfer) -> Option<(u32, Vec<Unit>)> {
        let back = tr.back.as_ref()?;
        let ret = super::rank::return_transfer(self.trace, tr, back)?;
        let next = self
            .trace
            .steps
            .iter()
            .skip(back.step as usize + 1)
            .find(|s| s.kind == StepKind::ModelCall && s.agent == tr.from)?
            .index;
        Some((next, self.units(&ret)))
    }

    /// Puts one left-behind item back into the caller's context at its next model call.
    async fn prove_left_behind(
        &mut self,
        tr: &Transfer,
        item: ItemId,
        back: &Option<(u32, Vec<Unit>)>,
    ) -> Result<(Proof, Option<Trace>), ApiError> {
        let Some((at, units)) = back else {
            return Ok((untested("the caller never called its model after the delegation returned", tr.step), None));
        };
        let Some(unit) = units.iter().find(|u| u.main == item || u.ids.contains(&item)) else {
            return Ok((untested("its kind is never put back", *at), None));
        };
        if let Some(why) = self.refused(tr) {
            return Ok((untested(&why, *at), None));
        }
        let stable = self.baseline(tr, *at).await?;
        let o = self.test(tr, *at, &unit.ids, &stable).await?;
        let fork = o.fork.filter(|_| o.status.changes());
        let proof = Proof {
            status: o.status,
            changed: o.changed,
            with: vec![],
            at: *at,
            put_back: unit.ids.clone(),
            fork_run: None,
        };
        Ok((proof, fork))
    }

    /// Zeller's ddmin over the units: the smallest set (1-minimal) whose restoration alone
    /// still changes the ending.
    async fn ddmin(
        &mut self,
        tr: &Transfer,
        at: u32,
        units: &[Unit],
        stable: &Stable,
        cache: &mut HashMap<Vec<ItemId>, bool>,
    ) -> Result<Vec<Unit>, ApiError> {
        let mut c: Vec<Unit> = units.to_vec();
        let mut n = 2usize;
        while c.len() >= 2 {
            if self.refused(tr).is_some() {
                break;
            }
            let chunks = split(&c, n);
            let mut reduced = false;
            for (i, chunk) in chunks.iter().enumerate() {
                if self.fails(tr, at, chunk, stable, cache).await? {
                    c = chunk.clone();
                    n = 2;
                    reduced = true;
                    break;
                }
                if n > 2 || chunks.len() > 2 {
                    let rest: Vec<Unit> =
                        chunks.iter().enumerate().filter(|(j, _)| *j != i).flat_map(|(_, k)| k.clone()).collect();
                    if self.fails(tr, at, &rest, stable, cache).await? {
                        c = rest;
                        n = (n - 1).max(2);
                        reduced = true;
                        break;
                    }
                }
            }
            if !reduced {
                if n >= c.len() {
                    break;
                }
                n = (n * 2).min(c.len());
            }
        }
        Ok(c)
    }

    /// Whether restoring `set` changes the ending (cached by the set).
    async fn fails(
        &mut self,
        tr: &Transfer,
        at: u32,
        set: &[Unit],
        stable: &Stable,
        cache: &mut HashMap<Vec<ItemId>, bool>,
    ) -> Result<bool, ApiError> {
        let k = key(&set.iter().map(|u| u.main).collect::<Vec<_>>());
        if let Some(v) = cache.get(&k) {
            return Ok(*v);
        }
        let ids: Vec<ItemId> = set.iter().flat_map(|u| u.ids.clone()).collect();
        let v = self.test(tr, at, &ids, stable).await?.status.changes();
        cache.insert(k, v);
        Ok(v)
    }

    /// The fork's spec: the step, the items put back, and who answers.
    fn spec(&self, tr: &Transfer, at: u32, put_back: &[ItemId]) -> ForkSpec {
        let topo = self.trace.definition.as_ref().expect("checked");
        let mut models = BTreeMap::new();
        for (agent, m) in &self.opts.models {
            if agent == "*" {
                for a in &topo.agents {
                    models.entry(a.id.clone()).or_insert_with(|| m.clone());
                }
            } else {
                models.insert(agent.clone(), m.clone());
            }
        }
        if self.mode == Mode::Sampled && !models.contains_key(&tr.to) {
            // The receiver answers afresh in every fork, restored or not: a fair baseline.
            if let Some(m) = topo.agent(&tr.to).and_then(|a| a.model.as_ref()) {
                let url = m.base_url.as_deref().map(|u| format!("@{u}")).unwrap_or_default();
                models.insert(tr.to.clone(), format!("{}:{}{url}", m.provider.as_str(), m.name));
            }
        }
        ForkSpec {
            at,
            models,
            put_back: put_back.iter().map(|i| i.to_string()).collect(),
            then: if self.mode == Mode::Mock { Then::Mock } else { Then::Live },
            ..Default::default()
        }
    }

    /// One fork, its cost counted.
    async fn fork_once(&mut self, tr: &Transfer, at: u32, put_back: &[ItemId]) -> Result<Trace, ApiError> {
        let spec = self.spec(tr, at, put_back);
        let opts = crate::engine::RunOptions { cancel: self.opts.cancel.clone(), ..Default::default() };
        let f = fork(self.trace, self.parent, &spec, opts).await?;
        self.cost.forks += 1;
        let (calls, tokens) = fresh_calls(&f);
        self.cost.model_calls += calls;
        self.cost.tokens += tokens;
        // A model that did not answer (unreachable, refused, a missing mock rule) says nothing
        // about the restoration: the fork's ending would be the failure.
        let divergent = f.fork.as_ref().and_then(|i| i.divergence.as_ref()).is_some();
        if divergent
            && f.outcome.status == crate::trace::OutcomeStatus::Failed
            && self.trace.outcome.status != f.outcome.status
        {
            let failed = f.steps.iter().rev().find(|s| s.kind == StepKind::Guard && s.detail.starts_with("error:"));
            if let Some(s) =
                failed.filter(|s| s.detail.contains("model call failed") || s.detail.contains("mock script"))
            {
                return Err(ApiError::new(
                    ErrorCode::ModelTransport,
                    format!(
                        "the model that answers after the restored point failed: {}",
                        s.detail.trim_start_matches("error: ")
                    ),
                ));
            }
        }
        Ok(f)
    }

    /// What forks with nothing put back hold steady (the mock: everything).
    async fn baseline(&mut self, tr: &Transfer, at: u32) -> Result<Stable, ApiError> {
        if self.mode == Mode::Mock {
            return Ok(Stable::for_reference(&self.reference));
        }
        let mut keys = vec![];
        let mut failed = None;
        for _ in 0..self.samples {
            match self.fork_once(tr, at, &[]).await {
                Ok(f) => keys.push(Key::of(&f, at)),
                Err(e) => failed = Some(e),
            }
        }
        // A sampled model may fail a sample (an answer the provider cannot read); only when every
        // sample failed is there nothing to compare with.
        match failed.filter(|_| keys.is_empty()) {
            Some(e) => Err(e),
            None => Ok(Stable::from(&self.reference.after(at, self.trace), &keys)),
        }
    }

    /// Restores `ids` in `samples` forks and compares each ending with the recording's.
    async fn test(&mut self, tr: &Transfer, at: u32, ids: &[ItemId], stable: &Stable) -> Result<Outcome, ApiError> {
        let reference = self.reference.after(at, self.trace);
        if stable.is_empty() {
            return Ok(Outcome {
                status: ProofStatus::NotTested {
                    why: "the ending varies between forks even with nothing restored: raise --samples or use a deterministic model".into(),
                },
                changed: String::new(),
                fork: None,
            });
        }
        let mut flips = 0;
        let mut changed = String::new();
        let mut first = None;
        let mut answered: u32 = 0;
        let mut failed = None;
        for _ in 0..self.samples {
            let f = match self.fork_once(tr, at, ids).await {
                Ok(f) => f,
                Err(e) => {
                    failed = Some(e);
                    continue;
                }
            };
            answered += 1;
            let k = Key::of(&f, at);
            if let Some(words) = reference.differs(&k, stable) {
                flips += 1;
                if changed.is_empty() {
                    changed = words;
                    first = Some(f);
                }
            }
        }
        // Failed samples (a model answer the provider could not read) are not counted; when none
        // answered, the test says why.
        if let Some(e) = failed.filter(|_| answered == 0) {
            return Err(e);
        }
        self.progress(tr_index(self.trace, tr), format!("{} item(s) put back: {flips}/{answered} changed", ids.len()));
        let needed = answered.div_ceil(2).max(stable.baseline_flips + 1);
        let status = if flips >= needed {
            ProofStatus::Changes { flips, samples: answered, baseline: stable.baseline_flips }
        } else {
            ProofStatus::NoEffect { samples: answered }
        };
        if !status.changes() {
            changed.clear();
            first = None;
        }
        Ok(Outcome { status, changed, fork: first })
    }
}

fn tr_index(trace: &Trace, tr: &Transfer) -> u32 {
    trace.transfers.iter().position(|t| t.step == tr.step).unwrap_or(0) as u32
}

fn untested(why: &str, at: u32) -> Proof {
    Proof {
        status: ProofStatus::NotTested { why: why.into() },
        changed: String::new(),
        with: vec![],
        at,
        put_back: vec![],
        fork_run: None,
    }
}

fn minimal_ids(units: &[Unit], minimal: &[ItemId]) -> Vec<ItemId> {
    units.iter().filter(|u| minimal.contains(&u.main)).flat_map(|u| u.ids.clone()).collect()
}

fn key(ids: &[ItemId]) -> Vec<ItemId> {
    let mut k = ids.to_vec();
    k.sort();
    k
}

/// `c` in `n` nearly equal chunks, in order.
fn split(c: &[Unit], n: usize) -> Vec<Vec<Unit>> {
    let n = n.min(c.len()).max(1);
    let mut out = vec![];
    let mut start = 0;
    for i in 0..n {
        let end = start + (c.len() - start) / (n - i);
        out.push(c[start..end].to_vec());
        start = end;
    }
    out
}

/// Model calls a fork made after it left the recording, and their tokens.
fn fresh_calls(f: &Trace) -> (u32, u64) {
    let Some(d) = f.fork.as_ref().and_then(|i| i.divergence.as_ref()) else { return (0, 0) };
    let mut n = 0u32;
    let mut from = None;
    for s in f.steps.iter().filter(|s| s.kind == StepKind::ModelCall) {
        if s.agent == d.agent {
            n += 1;
            if n == d.call {
                from = Some(s.index);
                break;
            }
        }
    }
    let Some(from) = from else { return (0, 0) };
    f.steps
        .iter()
        .filter(|s| s.kind == StepKind::ModelCall && s.index >= from)
        .fold((0, 0), |(c, t), s| (c + 1, t + s.usage.map(|u| u.input_tokens + u.output_tokens).unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(n: usize) -> Vec<Unit> {
        (0..n).map(|i| Unit { main: ItemId([i as u8; 16]), ids: vec![ItemId([i as u8; 16])] }).collect()
    }

    #[test]
    fn chunks_cover_the_set_in_order() {
        let c = units(7);
        let parts = split(&c, 3);
        assert_eq!(parts.iter().map(|p| p.len()).collect::<Vec<_>>(), vec![2, 2, 3]);
        let flat: Vec<ItemId> = parts.iter().flatten().map(|u| u.main).collect();
        assert_eq!(flat, c.iter().map(|u| u.main).collect::<Vec<_>>());
    }
}
