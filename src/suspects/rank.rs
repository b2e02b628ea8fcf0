//! The ranking before any proof: at one transfer, each item that did not reach the receiver is
//! weighed by what the run itself shows, never by a domain vocabulary. What the receiver does
//! afterwards touches what the item speaks about (shared identifiers, numbers, names and rare
//! words, more when the receiver was never told them); the item's role (what the user stated, the
//! result of a check the receiver never repeats or cannot run); its qualifiers (negation,
//! condition, obligation, limit: grammar) when nothing that crossed keeps them; a claim handed
//! over about the same subject without them. Each suspect names its handoff error class.

use super::text::{Qualifier, Rarity, TermKind, qualifiers, terms};
use super::{ErrorClass, Evidence, EvidenceKind, Loss, Suspect, TransferSuspects};
use crate::context::{Item, ItemId, ItemKind};
use crate::topology::EdgeKind;
use crate::trace::{StepKind, Trace, Transfer};
use std::collections::{BTreeSet, HashMap, HashSet};

type Terms = std::collections::BTreeMap<String, TermKind>;

/// What the whole run's items say, read once for every transfer.
pub struct RunText<'a> {
    trace: &'a Trace,
    terms: HashMap<ItemId, Terms>,
    rarity: Rarity,
    /// The tool call of each call id (to name the tool a result came from).
    calls: HashMap<&'a str, &'a Item>,
}

impl<'a> RunText<'a> {
    pub fn new(trace: &'a Trace) -> RunText<'a> {
        let mut rarity = Rarity::default();
        let mut all = HashMap::new();
        let mut calls = HashMap::new();
        for it in trace.items.iter() {
            let t = terms(&it.searchable());
            rarity.add(&t);
            all.insert(it.id, t);
            if it.kind.is_call()
                && let Some(c) = it.call_id.as_deref()
            {
                calls.insert(c, it);
            }
        }
        RunText { trace, terms: all, rarity, calls }
    }

    fn terms(&self, id: ItemId) -> &Terms {
        static EMPTY: std::sync::LazyLock<Terms> = std::sync::LazyLock::new(Terms::new);
        self.terms.get(&id).unwrap_or(&EMPTY)
    }

    fn weight(&self, term: &str, kind: TermKind) -> f32 {
        kind.weight() * self.rarity.of(term)
    }

    /// The tool whose call this result answers.
    fn tool_of(&self, it: &Item) -> Option<&'a str> {
        self.calls.get(it.call_id.as_deref()?).and_then(|c| c.name.as_deref())
    }
}

/// What the receiver itself did and saw after the transfer, until it handed the conversation
/// on or its delegation returned: the items its own steps made, with the step of each.
struct Afterwards<'a> {
    items: Vec<(u32, &'a Item)>,
    /// Tools it called.
    tools: HashSet<&'a str>,
    /// Each term of those items where it first appears, so a sender's item is weighed against
    /// them in one lookup per term of its own (not a pass over everything the receiver did).
    first: HashMap<String, Met>,
}

/// Where a term first appears in what the receiver did afterwards.
struct Met {
    /// Its kind in that item (which weighs it).
    kind: TermKind,
    /// Index in `Afterwards::items`.
    ord: usize,
}

impl Afterwards<'_> {
    fn index(mut self, run: &RunText<'_>) -> Self {
        for (ord, (_, it)) in self.items.iter().enumerate() {
            for (term, kind) in run.terms(it.id) {
                if !self.first.contains_key(term) {
                    self.first.insert(term.clone(), Met { kind: *kind, ord });
                }
            }
        }
        self
    }
}

fn afterwards<'a>(trace: &'a Trace, tr: &Transfer) -> Afterwards<'a> {
    let depth = trace.steps.get(tr.step as usize).map(|s| s.depth).unwrap_or(0);
    let mut items = vec![];
    let mut tools = HashSet::new();
    for s in trace.steps.iter().skip(tr.step as usize + 1) {
        if s.depth < depth {
            break;
        }
        // It handed the conversation on (a handoff step names its receiver as its agent).
        if s.depth == depth
            && s.kind == StepKind::Handoff
            && s.transfer.and_then(|t| trace.transfers.get(t as usize)).is_some_and(|t| t.from == tr.to)
        {
            break;
        }
        if s.depth > depth || s.agent != tr.to {
            continue;
        }
        for it in s.output.iter().filter_map(|id| trace.item(*id)) {
            if it.kind == ItemKind::ToolCall
                && let Some(n) = it.name.as_deref()
            {
                tools.insert(n);
            }
            items.push((s.index, it));
        }
    }
    Afterwards { items, tools, first: HashMap::new() }
}

fn describe(it: &Item) -> String {
    match it.kind {
        ItemKind::ToolResult => "a tool result".into(),
        ItemKind::ToolCall | ItemKind::TransferCall => format!("a call of {}", it.name.as_deref().unwrap_or("a tool")),
        ItemKind::AssistantMessage => format!("{}'s answer", it.agent),
        ItemKind::TransferOutput => "a delegation's result".into(),
        k => k.as_str().into(),
    }
}

fn clip(s: &str, n: usize) -> String {
    let t: String = s.chars().take(n).collect();
    if t.len() < s.len() { format!("{t}…") } else { t }
}

/// What crossed to the receiver: its items' terms, and per qualifier the terms of the items that
/// carry it.
struct Crossed {
    terms: Terms,
    qualified: Vec<(BTreeSet<Qualifier>, Terms)>,
    /// Quantities in what the sender handed over and in the receiver's own instructions.
    quantities: Vec<(String, f64)>,
    /// What the sender handed over itself (fields, a summary, a task, the transfer call's
    /// arguments): the receiver's items not in the sender's context.
    handed: Terms,
}

fn crossed(run: &RunText<'_>, tr: &Transfer) -> Crossed {
    let sender: HashSet<ItemId> = tr.sender.iter().copied().collect();
    let mut all = Terms::new();
    let mut qualified = vec![];
    let mut handed = Terms::new();
    let mut quantities = vec![];
    for id in &tr.receiver {
        let Some(it) = run.trace.item(*id) else { continue };
        if (it.kind.is_own() && it.agent == tr.to) || !sender.contains(id) {
            quantities.extend(super::text::quantities(&it.searchable()));
        }
        // The receiver's own instructions and facts are not what crossed.
        if it.kind.is_own() && it.agent == tr.to {
            continue;
        }
        let t = run.terms(*id);
        all.extend(t.iter().map(|(k, v)| (k.clone(), *v)));
        let q = qualifiers(&it.searchable());
        if !q.is_empty() {
            qualified.push((q, t.clone()));
        }
        if !sender.contains(id) {
            handed.extend(t.iter().map(|(k, v)| (k.clone(), *v)));
        }
    }
    // The transfer call's arguments (a handoff's input, a delegation's task).
    if let Some(call) =
        tr.sender.iter().rev().filter_map(|id| run.trace.item(*id)).find(|i| i.kind == ItemKind::TransferCall)
    {
        handed.extend(run.terms(call.id).iter().map(|(k, v)| (k.clone(), *v)));
        quantities.extend(super::text::quantities(&call.searchable().replace(['"', ':'], " ")));
    }
    Crossed { terms: all, qualified, handed, quantities }
}

/// The parts of a score, in words.
struct Found {
    ev: Vec<Evidence>,
    class: Option<ErrorClass>,
}

impl Found {
    fn add(&mut self, kind: EvidenceKind, weight: f32, text: String) {
        self.ev.push(Evidence { kind, text, weight: (weight * 100.0).round() / 100.0 });
    }
}

struct Cx<'a, 'b> {
    run: &'b RunText<'a>,
    tr: &'b Transfer,
    crossed: &'b Crossed,
    after: &'b Afterwards<'a>,
    receiver_tools: HashSet<String>,
}

fn score_item(
    cx: &Cx<'_, '_>,
    it: &Item,
    loss: Loss,
    transformed_as: Option<&Item>,
    position: usize,
) -> Option<Suspect> {
    let tr = cx.tr;
    let t = cx.run.terms(it.id);
    let mut f = Found { ev: vec![], class: None };
    // 1. The receiver later acts on what the item speaks about.
    let mut novel: Vec<(f32, String, u32, String)> = vec![];
    let mut known = 0.0f32;
    // Its terms the receiver met afterwards, in the order it met them.
    let mut met: Vec<(&Met, &String)> = t.keys().filter_map(|k| cx.after.first.get(k).map(|m| (m, k))).collect();
    met.sort_by(|a, b| a.0.ord.cmp(&b.0.ord).then(a.1.cmp(b.1)));
    for (m, term) in met {
        let w = cx.run.weight(term, m.kind);
        if cx.crossed.terms.contains_key(term) {
            known += w;
        } else {
            let (step, later) = cx.after.items[m.ord];
            novel.push((w, term.clone(), step, describe(later)));
        }
    }
    novel.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.2.cmp(&b.2)));
    let novel_w: f32 = novel.iter().map(|n| n.0).sum();
    let pinned = novel.iter().any(|(_, term, _, _)| t.get(term).is_some_and(|k| *k != TermKind::Word));
    if (pinned && novel_w >= 1.0) || novel_w >= 2.0 {
        let text = it.searchable();
        let shown = novel
            .iter()
            .take(3)
            .map(|(_, t, s, d)| format!("{} (step {s}, {d})", super::text::surface(&text, t).unwrap_or(t)))
            .collect::<Vec<_>>()
            .join(", ");
        f.add(
            EvidenceKind::Reappears,
            (novel_w * 0.9).min(3.5),
            format!("{} meets again what it was not told: {shown}", tr.to),
        );
    }
    if known >= 1.0 {
        f.add(
            EvidenceKind::Touches,
            (known * 0.3).min(1.5),
            format!("{} later acts on the subject this item speaks about", tr.to),
        );
    }
    // 2. Qualifiers whose scope (the words they govern) did not cross, on a subject the
    // receiver's later work touches.
    let q = qualifiers(&it.searchable());
    // The subject the sender handed over, which the item also speaks about.
    let mut subject: Vec<&String> = cx.crossed.handed.keys().filter(|k| t.contains_key(*k)).collect();
    subject.sort_by(|a, b| {
        let w = |s: &String| t.get(s).map(|k| cx.run.weight(s, *k)).unwrap_or(0.0);
        w(b).total_cmp(&w(a)).then(a.cmp(b))
    });
    let on_subject = subject.iter().any(|s| t.get(*s).is_some_and(|k| *k != TermKind::Word)) || subject.len() >= 2;
    let relevant = known + novel_w >= 1.0 || on_subject;
    // What it says about that subject that did not cross: its identifiers, numbers and names
    // the receiver never got.
    let missing: Vec<(&String, f32)> = t
        .iter()
        .filter(|(k, kind)| **kind != TermKind::Word && !cx.crossed.terms.contains_key(*k))
        .map(|(k, kind)| (k, cx.run.weight(k, *kind)))
        .collect();
    if on_subject && !missing.is_empty() {
        let w: f32 = missing.iter().map(|(_, w)| w).sum();
        let text = it.searchable();
        let mut names: Vec<&(&String, f32)> = missing.iter().collect();
        names.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
        f.add(
            EvidenceKind::Subject,
            (0.4 * w).min(1.5),
            format!(
                "it says more about what {} handed over ({}) than crossed: {}",
                tr.from,
                subject
                    .iter()
                    .take(2)
                    .map(|s| super::text::surface(&text, s).unwrap_or(s))
                    .collect::<Vec<_>>()
                    .join(", "),
                names
                    .iter()
                    .take(3)
                    .map(|(s, _)| super::text::surface(&text, s).unwrap_or(s))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
    let mut lost_q: Vec<Qualifier> = vec![];
    let mut claim_sentences: Vec<String> = vec![];
    for super::text::Scope { qualifier: qq, scope, sentence } in super::text::scopes(&it.searchable()) {
        let total: f32 = scope.iter().map(|(s, k)| cx.run.weight(s, *k)).sum();
        let kept: f32 =
            scope.iter().filter(|(s, _)| cx.crossed.terms.contains_key(s)).map(|(s, k)| cx.run.weight(s, *k)).sum();
        let kept_with_it = cx
            .crossed
            .qualified
            .iter()
            .any(|(cq, ct)| cq.contains(&qq) && scope.iter().any(|(s, _)| ct.contains_key(s)));
        if total > 0.0 && kept / total < 0.5 && !kept_with_it && relevant {
            if !lost_q.contains(&qq) {
                lost_q.push(qq);
            }
            claim_sentences.extend(sentence);
        }
    }
    if let Some(r) = transformed_as {
        let rq = qualifiers(&r.searchable());
        let kept: Vec<Qualifier> = lost_q.iter().copied().filter(|x| rq.contains(x)).collect();
        if kept.len() == lost_q.len() && !lost_q.is_empty() {
            // The transformed form kept them.
            return None;
        }
    }
    if !lost_q.is_empty() {
        let words = lost_q.iter().map(|x| x.as_str()).collect::<Vec<_>>().join(", ");
        f.add(
            EvidenceKind::Constraint,
            1.5 + 0.5 * (lost_q.len() as f32 - 1.0).min(2.0),
            format!("states {words} that nothing {} received keeps", tr.to),
        );
        // 3. A claim handed over about the same subject, without that qualification.
        // The sender's hand-over speaks of what the qualified sentence speaks of.
        let claimed: Vec<&&String> = subject.iter().filter(|s| claim_sentences.contains(s)).collect();
        if !claimed.is_empty() {
            f.add(
                EvidenceKind::Claim,
                2.0,
                format!(
                    "{} handed over {} about the same subject without it",
                    tr.from,
                    claimed
                        .iter()
                        .take(3)
                        .map(|s| format!("'{}'", super::text::surface(&it.searchable(), s).unwrap_or(s)))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
            f.class = Some(ErrorClass::SignalCorruption);
        }
    }
    // 4. A quantity in the same unit as one the sender handed over or the receiver works to, with
    // another value: the item bounds or contradicts it.
    let mine = super::text::quantities(&it.searchable());
    let same = |a: f64, b: f64| (a - b).abs() <= f64::EPSILON * a.abs().max(1.0);
    if let Some((unit, v, w)) = mine.iter().find_map(|(u, v)| {
        cx.crossed
            .quantities
            .iter()
            .filter(|(cu, cv)| cu == u && !same(*cv, *v))
            // The item states the other value too: two quantities, not a contradiction.
            .find(|(cu, cv)| !mine.iter().any(|(mu, mv)| mu == cu && same(*mv, *cv)))
            .map(|(_, cv)| (u, v, cv))
    }) {
        let u = if unit == "$" || unit == "%" { String::new() } else { format!(" {unit}") };
        f.add(EvidenceKind::Constraint, 1.5, format!("it gives {v}{u} where what {} works to says {w}{u}", tr.to));
    }
    // 5. The item's role.
    match it.kind {
        ItemKind::UserMessage if it.agent == "user" || it.agent.is_empty() => {
            let stated = !q.is_empty() || t.values().any(|k| matches!(k, TermKind::Number | TermKind::Ident));
            f.add(
                EvidenceKind::UserStated,
                if stated { 1.6 } else { 1.0 },
                format!("the user said it, and {} no longer sees it", tr.to),
            );
        }
        ItemKind::ToolResult => {
            if let Some(tool) = cx.run.tool_of(it).filter(|tool| !cx.after.tools.contains(tool)) {
                if !cx.receiver_tools.contains(tool) {
                    f.add(
                        EvidenceKind::Unrepeatable,
                        1.2,
                        format!("the result of {tool}, which {} cannot run (it has no such tool)", tr.to),
                    );
                    f.class.get_or_insert(ErrorClass::CapabilityGap);
                } else {
                    f.add(
                        EvidenceKind::Unrepeatable,
                        0.8,
                        format!("the result of {tool}, which {} never runs again", tr.to),
                    );
                }
            }
        }
        ItemKind::PinnedFact => {
            f.add(EvidenceKind::Pinned, 1.0, format!("a fact pinned for {}, which {} does not hold", it.agent, tr.to));
        }
        _ => {}
    }
    if let Some(r) = transformed_as
        && f.ev.iter().any(|e| matches!(e.kind, EvidenceKind::Constraint | EvidenceKind::Reappears))
    {
        f.add(EvidenceKind::Transformed, 0.5, format!("crossed only as \"{}\"", clip(&r.searchable(), 80)));
        f.class.get_or_insert(ErrorClass::SignalCorruption);
    }
    // Only evidence that the item mattered makes a suspect: a role alone does not.
    if !f.ev.iter().any(|e| {
        matches!(
            e.kind,
            EvidenceKind::Reappears
                | EvidenceKind::Touches
                | EvidenceKind::Constraint
                | EvidenceKind::Pinned
                | EvidenceKind::Subject
        )
    }) && f.ev.iter().map(|e| e.weight).sum::<f32>() < 1.2
    {
        return None;
    }
    let mut score: f32 = f.ev.iter().map(|e| e.weight).sum();
    // What it says crossed in another form: its identifiers, numbers and names (else most of its
    // weighed words) are in what the receiver got.
    let salient: Vec<(&String, &TermKind)> = t.iter().filter(|(_, k)| **k != TermKind::Word).collect();
    let basis: Vec<(&String, &TermKind)> = if salient.is_empty() { t.iter().collect() } else { salient };
    let total: f32 = basis.iter().map(|(k, v)| cx.run.weight(k, **v)).sum();
    let covered: f32 =
        basis.iter().filter(|(k, _)| cx.crossed.terms.contains_key(*k)).map(|(k, v)| cx.run.weight(k, **v)).sum();
    if total > 0.0 && covered / total >= 0.8 && lost_q.is_empty() {
        score *= 0.4;
        f.add(EvidenceKind::Covered, 0.0, format!("{} received what it says in another form", tr.to));
    }
    if it.kind == ItemKind::Instructions {
        score *= 0.75;
    }
    if f.class.is_none() {
        f.class = Some(if novel_w >= 0.8 { ErrorClass::ReferentialDrift } else { ErrorClass::DataGap });
    }
    let score = (score * 100.0).round() / 100.0;
    Some(Suspect {
        item: it.id,
        agent: it.agent.clone(),
        kind: it.kind,
        text: clip(&it.searchable(), 240),
        loss,
        score,
        confidence: super::confidence(score),
        evidence: f.ev,
        class: f.class,
        position: position as u32,
        proof: None,
    })
}

/// What crossed at a transfer, what the receiver did afterwards, and the tools it has.
fn setting<'a>(run: &RunText<'a>, tr: &Transfer) -> (Crossed, Afterwards<'a>, HashSet<String>) {
    let after = afterwards(run.trace, tr).index(run);
    let tools = run
        .trace
        .definition
        .as_ref()
        .and_then(|t| t.agent(&tr.to))
        .map(|a| a.tools.iter().map(|t| t.name.clone()).collect())
        .unwrap_or_else(|| after.tools.iter().map(|t| t.to_string()).collect());
    (crossed(run, tr), after, tools)
}

/// The suspects of one transfer, best first (ties: the later item in the sender's context).
pub fn transfer_suspects_in(run: &RunText<'_>, index: u32) -> Option<TransferSuspects> {
    let trace = run.trace;
    let tr = trace.transfers.get(index as usize)?;
    let (crossed_in, after, receiver_tools) = setting(run, tr);
    let cx = Cx { run, tr, crossed: &crossed_in, after: &after, receiver_tools };
    let receiver: HashSet<ItemId> = tr.receiver.iter().copied().collect();
    let position: HashMap<ItemId, usize> = tr.sender.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let mut out = vec![];
    let mut seen = HashSet::new();
    let delegation = tr.kind == EdgeKind::Delegation;
    for r in tr.transformed.iter().filter_map(|id| trace.item(*id)) {
        for src in r.derived_from.iter().filter(|s| position.contains_key(s) && !receiver.contains(s)) {
            if let Some(it) = trace.item(*src)
                && seen.insert(it.id)
                && candidate(it, tr)
                && let Some(s) = score_item(&cx, it, Loss::Transformed, Some(r), position[src])
            {
                out.push(s);
            }
        }
    }
    for (pos, id) in tr.sender.iter().enumerate().filter(|(_, id)| !receiver.contains(id)) {
        let Some(it) = trace.item(*id) else { continue };
        if !seen.insert(it.id) || !candidate(it, tr) {
            continue;
        }
        let loss = if delegation { Loss::Withheld } else { Loss::Dropped };
        if let Some(s) = score_item(&cx, it, loss, None, pos) {
            out.push(s);
        }
    }
    if let Some(ret) = tr.back.as_ref().and_then(|b| return_transfer(trace, tr, b)) {
        let (crossed_back, after, receiver_tools) = setting(run, &ret);
        let cx = Cx { run, tr: &ret, crossed: &crossed_back, after: &after, receiver_tools };
        let back = tr.back.as_ref().expect("checked");
        for id in &back.left_behind {
            let Some(it) = trace.item(*id) else { continue };
            if !seen.insert(it.id) || !candidate(it, &ret) {
                continue;
            }
            let pos = back.worker.iter().position(|w| w == id).unwrap_or(0);
            if let Some(s) = score_item(&cx, it, Loss::LeftBehind, None, pos) {
                out.push(s);
            }
        }
    }
    out.sort_by(|a, b| b.score.total_cmp(&a.score).then(b.position.cmp(&a.position)));
    Some(TransferSuspects {
        transfer: index,
        step: tr.step,
        kind: tr.kind,
        from: tr.from.clone(),
        to: tr.to.clone(),
        suspects: out,
        more: 0,
        proof: None,
    })
}

/// A delegation's return seen as a transfer from the worker back to the caller: the worker's
/// history against what the caller holds at the return step.
pub(super) fn return_transfer(trace: &Trace, tr: &Transfer, back: &crate::trace::Back) -> Option<Transfer> {
    let step = trace.steps.get(back.step as usize)?;
    Some(Transfer {
        step: back.step,
        kind: EdgeKind::Delegation,
        from: tr.to.clone(),
        to: tr.from.clone(),
        edge: tr.edge.clone(),
        policy: "return".into(),
        sender: back.worker.clone(),
        receiver: step.context.clone(),
        carried: vec![],
        transformed: vec![],
        dropped: back.left_behind.clone(),
        added: vec![],
        facts: vec![],
        back: None,
    })
}

/// Items that can be a suspect: anything the sender saw but the transfer's own plumbing.
pub fn candidate(it: &Item, _tr: &Transfer) -> bool {
    !matches!(it.kind, ItemKind::TransferCall | ItemKind::TransferOutput)
}

/// Items a proof may put back: suspects, except the sender's instructions to itself, which
/// never cross by design (pin what they say as a fact instead).
pub fn restorable(it: &Item, tr: &Transfer) -> bool {
    candidate(it, tr) && !(it.kind == ItemKind::Instructions && it.agent == tr.from)
}
