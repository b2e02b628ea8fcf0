# Measures `baton suspects` (issue #19): recall of the known lost item on the scenario suite in tests/data/suspects, false suspects on its controls, and (with --who-and-when) verdict accuracy on the Who&When benchmark. It measures; it never fails the build.
"""Evaluate Baton's suspects and verdict.

    target/pyenv/bin/python scripts/eval-suspects.py [--json] [--who-and-when [DIR]]

The suite's ground truth is the fenced JSON block in tests/data/suspects/README.md, written
from each scenario's design. Nothing in it is taken from Baton's output. Standard library only.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE = os.path.join(ROOT, "tests", "data", "suspects")
# The held-out suite, written by someone who never read the algorithm (issue #28).
UNSEEN = os.path.join(ROOT, "tests", "data", "suspects-unseen")
WHO_AND_WHEN = "/work/shared/realtraces/who-and-when"
# The figures quoted in issue #19 for the best published method (all-at-once, GPT-4o).
PUBLISHED = {"agent": 53.5, "step": 14.2}


def norm(s):
    return re.sub(r"\s+", " ", (s or "").lower()).strip()


def baton(binary, *args, timeout=120):
    p = subprocess.run([binary, *args], capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def load_truth(readme):
    text = open(readme, encoding="utf-8").read()
    m = re.search(r"<!-- truth -->\s*```json\s*(.*?)```", text, re.S) or re.search(r"```json\s*(\[.*?)```", text, re.S)
    if not m:
        sys.exit(f"{readme}: no ```json block of ground truth")
    return json.loads(m.group(1))


def items_of(trace):
    its = trace.get("items") or {}
    if isinstance(its, list):
        return {i["id"]: i for i in its}
    return its


def item_text(it):
    if not it:
        return ""
    return " ".join(x for x in (it.get("text"), it.get("name"), it.get("arguments")) if x)


def contains(items, ids, needle):
    n = norm(needle)
    return any(n in norm(item_text(items.get(i))) for i in ids)


def good_end(trace, good):
    out = (trace.get("outcome") or {}).get("final_output") or ""
    return (trace.get("outcome") or {}).get("status") == "completed" and norm(good) in norm(out)


# ---------------------------------------------------------------------------------------------
# The suite


def eval_scenario(binary, suite, t, tmp, counterfactual, prove=None):
    path = os.path.join(suite, t["file"])
    row = {"file": t["file"], "domain": t["domain"], "kind": t["kind"], "wording": t.get("wording"),
           "truth_transfer": t.get("transfer"), "problems": [], "has_expect": t.get("has_expect", False),
           "lost_kind": t.get("lost_kind") or t.get("item")}
    rc, out, _ = baton(binary, "lint", path, "--format", "json")
    try:
        findings = json.loads(out).get("findings", [])
    except ValueError:
        findings = [{"severity": "error", "message": "lint output unreadable"}]
    row["lint_errors"] = sum(1 for f in findings if f.get("severity") == "error")
    rc, out, err = baton(binary, "run", path, "--format", "json")
    if not out.strip():
        row["problems"].append(f"baton run gave no trace (exit {rc}): {err.strip()[:200]}")
        return row
    trace = json.loads(out)
    tpath = os.path.join(tmp, t["file"] + ".trace.json")
    open(tpath, "w").write(out)
    items = items_of(trace)
    row["outcome"] = trace["outcome"]["status"]
    args = ["suspects", tpath, "--format", "json"]
    if prove is not None:
        args += ["--prove", *prove]
    started = time.time()
    rc, out, err = baton(binary, *args, timeout=1800)
    row["suspects_seconds"] = round(time.time() - started, 3)
    try:
        report = json.loads(out)[0]
    except (ValueError, IndexError):
        row["problems"].append(f"baton suspects failed (exit {rc}): {err.strip()[:200]}")
        return row
    row["cost"] = report.get("cost")
    verdict = report["verdict"]
    row["verdict_bad"] = verdict.get("bad") is not None
    row["verdict_basis"] = verdict.get("basis")
    row["judged_by"] = (verdict.get("ending") or {}).get("by")
    row["verdict_transfer"] = verdict.get("transfer")
    row["verdict_text"] = verdict.get("text")
    transfers = trace.get("transfers", [])

    # Checks of the ground truth itself (the design), not of the algorithm.
    good = t.get("good_final")
    ended_well = good_end(trace, good) if good else None
    if t["kind"] == "control" and ended_well is False:
        row["problems"].append("control did not reach its good final answer")
    if t["kind"] == "lossy" and ended_well:
        row["problems"].append("lossy scenario reached the good final answer")
    if t["kind"] == "lossy":
        # The lost text is in some item of the run.
        if not any(norm(t["lost"]) in norm(item_text(i)) for i in items.values()):
            row["problems"].append("lost substring occurs in no item of the run")
        idx = t.get("transfer")
        if idx is not None:
            if idx >= len(transfers):
                row["problems"].append(f"the run has no transfer {idx}")
            else:
                tr = transfers[idx]
                if (tr["from"], tr["to"]) != (t["from"], t["to"]):
                    row["problems"].append(f"transfer {idx} is {tr['from']}->{tr['to']}")
                if not contains(items, tr["sender"], t["lost"]):
                    row["problems"].append("lost item not in the sender's context")
                if contains(items, tr["receiver"], t["lost"]):
                    row["problems"].append("lost item reaches the receiver")
                # Counterfactual: the same run forked at the handoff with policy full ends well.
                if counterfactual and tr["kind"] == "handoff":
                    rc, fout, ferr = baton(binary, "fork", tpath, "--at", str(tr["step"]), "--policy",
                                           f"{tr['edge']}=full", "--format", "json")
                    try:
                        row["counterfactual_ok"] = good_end(json.loads(fout), good)
                    except ValueError:
                        row["counterfactual_ok"] = None
                        row["problems"].append(f"fork failed: {ferr.strip()[:160]}")
                    if row["counterfactual_ok"] is False:
                        row["problems"].append("with policy full the run still does not end well")

    # The measures.
    by_index = {ts["transfer"]: ts for ts in report["transfers"]}
    row["medium_plus"] = {ts["transfer"]: sum(1 for s in ts["suspects"] if s["confidence"] in ("medium", "high"))
                          for ts in report["transfers"]}
    row["low"] = {ts["transfer"]: sum(1 for s in ts["suspects"] if s["confidence"] == "low") for ts in report["transfers"]}
    if t["kind"] == "lossy":
        idx = t.get("transfer")
        rank = None
        conf = None
        if idx is not None and idx in by_index:
            for k, s in enumerate(by_index[idx]["suspects"], 1):
                if norm(t["lost"]) in norm(item_text(items.get(s["item"])) or s["text"]):
                    rank, conf = k, s["confidence"]
                    break
        # Context: how many items did not reach the receiver there (the candidates), and how
        # many of them the algorithm lists as suspects.
        if idx is not None and idx < len(transfers):
            tr = transfers[idx]
            recv = set(tr["receiver"])
            cands = [i for i in tr["sender"] if i not in recv
                     and (items.get(i) or {}).get("kind") not in ("transfer_call", "transfer_output")]
            row["candidates"] = len(cands)
            row["suspects_listed"] = len(by_index.get(idx, {}).get("suspects", []))
        # With proofs: the best-ranked suspect there whose restoration changed the ending (or the
        # transfer's minimal set), and whether it is the lost item.
        if idx is not None and idx in by_index:
            ts = by_index[idx]
            proven = [s for s in ts["suspects"] if (s.get("proof") or {}).get("status") == "changes"]
            row["proven_first"] = bool(proven) and norm(t["lost"]) in norm(item_text(items.get(proven[0]["item"])) or proven[0]["text"])
            tp = ts.get("proof") or {}
            row["proven_in_minimal"] = any(norm(t["lost"]) in norm(item_text(items.get(i))) for i in tp.get("minimal") or [])
        row["rank"] = rank
        row["rank_confidence"] = conf
        row["top1"] = rank == 1
        row["top3"] = rank is not None and rank <= 3
        vs = verdict.get("suspect")
        row["verdict_right_transfer"] = idx is not None and verdict.get("transfer") == idx
        row["verdict_right_item"] = bool(vs) and norm(t["lost"]) in norm(item_text(items.get(vs)))
        # Medium/high suspects at the other transfers of a lossy run.
        row["other_medium_plus"] = sum(v for k, v in row["medium_plus"].items() if k != idx)
    else:
        row["false_suspects"] = sum(row["medium_plus"].values())
        row["verdict_clean"] = verdict.get("transfer") is None
    return row


def pct(n, d):
    return f"{100.0 * n / d:.0f}%" if d else "-"


def suite_totals(rows):
    lossy = [r for r in rows if r["kind"] == "lossy"]
    reach = [r for r in lossy if r.get("truth_transfer") is not None]
    ctl = [r for r in rows if r["kind"] == "control"]
    tot = {
        "scenarios": len(rows),
        "domains": len({r["domain"] for r in rows}),
        "lint_errors": sum(r.get("lint_errors", 0) for r in rows),
        "design_problems": sum(len(r["problems"]) for r in rows),
        "lossy": len(lossy),
        "lossy_at_a_listed_transfer": len(reach),
        "top1": sum(r.get("top1", False) for r in lossy),
        "top3": sum(r.get("top3", False) for r in lossy),
        # Expected top-1 hits of a uniform random pick among the items that did not cross.
        "chance_top1": round(sum(1.0 / r["candidates"] for r in lossy if r.get("candidates")), 2),
        "chance_top3": round(sum(min(1.0, 3.0 / r["candidates"]) for r in lossy if r.get("candidates")), 2),
        "bad_detected": sum(r.get("verdict_bad", False) for r in lossy),
        "with_oracle": sum(1 for r in lossy if r.get("has_expect")),
        "bad_detected_with_oracle": sum(r.get("verdict_bad", False) for r in lossy if r.get("has_expect")),
        "proven_first": sum(r.get("proven_first", False) for r in lossy),
        "proven_in_minimal": sum(r.get("proven_in_minimal", False) for r in lossy),
        "verdict_proven": sum(r.get("verdict_basis") == "proven" for r in lossy),
        "seconds": round(sum(r.get("suspects_seconds", 0) for r in rows), 2),
        "forks": sum((r.get("cost") or {}).get("forks", 0) for r in rows),
        "model_calls": sum((r.get("cost") or {}).get("model_calls", 0) for r in rows),
        "verdict_right_transfer": sum(r.get("verdict_right_transfer", False) for r in lossy),
        "verdict_right_item": sum(r.get("verdict_right_item", False) for r in lossy),
        "controls": len(ctl),
        "control_transfers": sum(len(r.get("medium_plus", {})) for r in ctl),
        "control_false_suspects": sum(r.get("false_suspects", 0) for r in ctl),
        "control_low_suspects": sum(1 for r in ctl for n in r.get("low", {}).values() for _ in range(n)),
        "controls_with_false_suspects": sum(1 for r in ctl if r.get("false_suspects", 0) > 0),
        "controls_verdict_clean": sum(r.get("verdict_clean", False) for r in ctl),
        "controls_flagged_bad": sum(r.get("verdict_bad", False) for r in ctl),
    }
    for w in ("listed", "unlisted"):
        sub = [r for r in lossy if r.get("wording") == w]
        tot[f"{w}_n"] = len(sub)
        tot[f"{w}_top1"] = sum(r.get("top1", False) for r in sub)
        tot[f"{w}_top3"] = sum(r.get("top3", False) for r in sub)
        tot[f"{w}_verdict_right_transfer"] = sum(r.get("verdict_right_transfer", False) for r in sub)
    return tot


def print_suite(rows, tot, name="tests/data/suspects"):
    print(f"Suite: {name} (ground truth: its README)\n")
    h = f"{'scenario':38} {'kind':7} {'word':8} {'T':>2} {'rank':>4} {'of':>5} {'conf':6} {'bad':4} {'verdict':9} {'med+':>4}  notes"
    print(h)
    print("-" * len(h))
    for r in rows:
        t = "-" if r.get("truth_transfer") is None else str(r["truth_transfer"])
        if r["kind"] == "lossy":
            rank = "-" if r.get("rank") is None else str(r["rank"])
            conf = r.get("rank_confidence") or "-"
            vt = r.get("verdict_transfer")
            v = ("T%s" % vt if vt is not None else "none") + ("✓" if r.get("verdict_right_transfer") else "✗")
            med = str(r.get("other_medium_plus", 0))
        else:
            rank, conf = "", ""
            vt = r.get("verdict_transfer")
            v = ("T%s" % vt if vt is not None else "none") + ("✓" if r.get("verdict_clean") else "✗")
            med = str(r.get("false_suspects", 0))
        of = f"{r['suspects_listed']}/{r['candidates']}" if r.get("candidates") is not None else ""
        bad = "yes" if r.get("verdict_bad") else "no"
        notes = "; ".join(r["problems"])
        if r.get("counterfactual_ok"):
            notes = ("cf ok" + ("; " + notes if notes else ""))
        print(f"{r['file'][:-5]:38} {r['kind']:7} {(r.get('wording') or ''):8} {t:>2} {rank:>4} {of:>5} {conf:6} {bad:4} {v:9} {med:>4}  {notes}")
    print()
    print("T: the transfer where the item is lost (0-based; '-': none, or not a listed transfer).")
    print("rank: the lost item's place among that transfer's suspects; of: suspects listed / items that did not cross there.")
    print("bad: the verdict calls the run bad.")
    print("verdict: the transfer it names, ✓ right / ✗ wrong (controls: ✓ when it names none).")
    print("med+: medium/high suspects (controls: at every transfer = false suspects; lossy: at the other transfers).")
    print("cf ok: forked at the lossy handoff with policy full, the run reaches its good final answer.\n")
    n = tot["lossy"]
    print(f"scenarios {tot['scenarios']} in {tot['domains']} domains; lint errors {tot['lint_errors']}; design-check problems {tot['design_problems']}")
    print(f"lossy {n} ({tot['lossy_at_a_listed_transfer']} lost at a transfer Baton lists):")
    print(f"  top-1 recall {tot['top1']}/{n} ({pct(tot['top1'], n)}), top-3 recall {tot['top3']}/{n} ({pct(tot['top3'], n)})"
          f"  [a uniform pick among the items that did not cross: {tot['chance_top1']} and {tot['chance_top3']} expected]")
    for w in ("listed", "unlisted"):
        k = tot[f"{w}_n"]
        print(f"    wording {w:8}: top-1 {tot[w + '_top1']}/{k}, top-3 {tot[w + '_top3']}/{k}, verdict right {tot[w + '_verdict_right_transfer']}/{k}")
    if tot["with_oracle"]:
        print(f"  bad ending recognised where expect: exists {tot['bad_detected_with_oracle']}/{tot['with_oracle']}")
    if tot["forks"]:
        print(f"  proof: the first proven suspect at the lossy transfer is the lost item {tot['proven_first']}/{n} ({pct(tot['proven_first'], n)});"
              f" the lost item is in that transfer's minimal set {tot['proven_in_minimal']}/{n}; verdict proven {tot['verdict_proven']}/{n}")
        print(f"  proof cost over the suite: {tot['forks']} forks, {tot['model_calls']} model calls, {tot['seconds']} s of `baton suspects`")
    print(f"  run judged bad {tot['bad_detected']}/{n}; verdict names the right transfer {tot['verdict_right_transfer']}/{n} ({pct(tot['verdict_right_transfer'], n)}), the right item {tot['verdict_right_item']}/{n}")
    c = tot["controls"]
    per = tot["control_false_suspects"] / tot["control_transfers"] if tot["control_transfers"] else 0.0
    print(f"controls {c}: false suspects (medium/high) {tot['control_false_suspects']} over {tot['control_transfers']} transfers ({per:.2f} per transfer), "
          f"in {tot['controls_with_false_suspects']} controls (low-confidence suspects: {tot['control_low_suspects']}); verdict names no transfer {tot['controls_verdict_clean']}/{c}; judged bad {tot['controls_flagged_bad']}/{c}")


# ---------------------------------------------------------------------------------------------
# Who&When


def agent_key(name):
    return re.sub(r"[\s_\-]+", "", (name or "").lower())


def eval_who_and_when(binary, root, tmp, budget):
    files = []
    for sub in ("Algorithm-Generated", "Hand-Crafted"):
        for f in sorted(glob.glob(os.path.join(root, sub, "*.json")), key=lambda p: (len(p), p)):
            files.append((sub, f))
    db = os.path.join(tmp, "who-and-when.db")
    rows = []
    start = time.time()
    for sub, f in files:
        if time.time() - start > budget:
            rows.append({"set": sub, "file": os.path.basename(f), "status": "skipped (time box)"})
            continue
        row = {"set": sub, "file": os.path.basename(f)}
        rows.append(row)
        src = json.load(open(f, encoding="utf-8"))
        row["mistake_agent"] = src.get("mistake_agent")
        try:
            row["mistake_step"] = int(str(src.get("mistake_step")).strip())
        except ValueError:
            row["mistake_step"] = None
        history = src.get("history") or []
        try:
            rc, out, err = baton(binary, "trace", "import", f, "--format", "json", "--db", db)
            traces = json.loads(out) if rc == 0 and out.strip() else None
        except (subprocess.TimeoutExpired, ValueError):
            traces, err = None, "timeout or unreadable output"
        if not traces:
            row["status"] = "import failed"
            row["error"] = (err or "").strip()[:200]
            continue
        trace = traces[0]
        tpath = os.path.join(tmp, f"ww-{sub}-{row['file']}")
        json.dump(traces, open(tpath, "w"))
        rc, out, err = baton(binary, "suspects", tpath, "--format", "json")
        try:
            report = json.loads(out)[0]
        except (ValueError, IndexError):
            row["status"] = "suspects failed"
            row["error"] = (err or "").strip()[:200]
            continue
        row["status"] = "ok"
        names = {a["id"]: a.get("name") or a["id"] for a in trace["definition"]["agents"]}
        steps = trace["steps"]
        calls = [s for s in steps if s["kind"] == "model_call"]
        # Mapping check: model call k is history[k + 1] (groupchat.rs), speaker by speaker.
        speakers = []
        for m in history[1:]:
            who = m.get("name") or m.get("role") or ""
            speakers.append(who.split(" (")[0].strip())
        row["mapping_sound"] = len(calls) == len(speakers) and all(
            agent_key(names.get(c["agent"], c["agent"])) == agent_key(sp) for c, sp in zip(calls, speakers))
        v = report["verdict"]
        row["bad"] = v.get("bad") is not None
        row["verdict_transfer"] = v.get("transfer")
        ts = {t["transfer"]: t for t in report["transfers"]}

        def predict(tr_index, suspect):
            tr = trace["transfers"][tr_index]
            sender = names.get(tr["from"], tr["from"])
            receiver = names.get(tr["to"], tr["to"])
            author = suspect.get("agent") if suspect else None
            author = names.get(author, author)
            first = next((k for k, c in enumerate(calls) if c["index"] > tr["step"] and c["agent"] == tr["to"]), None)
            return {"sender": sender, "receiver": receiver, "author": author,
                    "step": None if first is None else first + 1}

        p = None
        if v.get("transfer") is not None:
            sus = next((s for s in ts[v["transfer"]]["suspects"] if s["item"] == v.get("suspect")), None)
            p = predict(v["transfer"], sus)
        row["prediction"] = p
        # Not the verdict: the best-scoring suspect of the whole run, whatever the run's ending.
        best = None
        for t in report["transfers"]:
            for s in t["suspects"][:1]:
                if best is None or s["score"] > best[1]["score"]:
                    best = (t["transfer"], s)
        row["forced"] = predict(best[0], best[1]) if best else None
        row["suspects_total"] = sum(len(t["suspects"]) for t in report["transfers"])
        row["medium_plus_total"] = sum(1 for t in report["transfers"] for s in t["suspects"]
                                       if s["confidence"] in ("medium", "high"))
    return rows


def ww_score(rows, which):
    ok = [r for r in rows if r.get("status") == "ok"]
    out = {}
    for sub in ("Algorithm-Generated", "Hand-Crafted", "all"):
        rs = [r for r in ok if sub == "all" or r["set"] == sub]
        n = len(rs)
        pred = [r for r in rs if r.get(which)]
        m = lambda r, k: agent_key(r[which][k]) == agent_key(r["mistake_agent"]) if r[which][k] else False
        out[sub] = {
            "files": n,
            "with_prediction": len(pred),
            "agent_receiver": sum(m(r, "receiver") for r in pred),
            "agent_sender_or_author": sum(m(r, "sender") or m(r, "author") for r in pred),
            "agent_author": sum(m(r, "author") for r in pred),
            "step": sum(1 for r in pred if r["mapping_sound"] and r[which]["step"] == r["mistake_step"]),
        }
    return out


def print_ww(rows, verdict, forced):
    ok = [r for r in rows if r.get("status") == "ok"]
    failed = [r for r in rows if r.get("status") not in ("ok",) and not r.get("status", "").startswith("skipped")]
    skipped = [r for r in rows if r.get("status", "").startswith("skipped")]
    print("\nWho&When (mistake_agent / mistake_step; figures as % of all imported files)\n")
    print(f"files {len(rows)}: imported and analysed {len(ok)}, failed {len(failed)}, skipped by the time box {len(skipped)}")
    for r in failed[:5]:
        print(f"  failed: {r['set']}/{r['file']}: {r.get('status')}: {r.get('error', '')}")
    sound = sum(1 for r in ok if r["mapping_sound"])
    print(f"step mapping (model call k = history[k+1], speakers equal): sound in {sound}/{len(ok)} files")
    zero = sum(1 for r in ok if r.get("mistake_step") == 0)
    print(f"mistake_step 0 (history[0], which the importer reads as the run's input, not a turn): {zero} files; no transfer can point there")
    print(f"runs the verdict calls bad: {sum(1 for r in ok if r['bad'])}/{len(ok)}; "
          f"runs with any suspect: {sum(1 for r in ok if r['suspects_total'])}; with a medium/high suspect: {sum(1 for r in ok if r['medium_plus_total'])}")
    for title, sc in (("verdict", verdict), ("forced (top suspect of the run, not the verdict)", forced)):
        print(f"\n  {title}")
        print(f"  {'set':20} {'files':>5} {'pred':>5} {'agent=receiver':>15} {'sender|author':>14} {'author':>9} {'step':>9}")
        for sub, s in sc.items():
            n = s["files"]
            c = lambda k: f"{s[k]} ({pct(s[k], n)})"
            print(f"  {sub:20} {n:>5} {s['with_prediction']:>5} {c('agent_receiver'):>15} "
                  f"{c('agent_sender_or_author'):>14} {c('agent_author'):>9} {c('step'):>9}")
    # Context: the base rate of always naming each set's most frequent mistake_agent.
    base = 0
    for sub in ("Algorithm-Generated", "Hand-Crafted"):
        counts = {}
        for r in ok:
            if r["set"] == sub:
                counts[agent_key(r["mistake_agent"])] = counts.get(agent_key(r["mistake_agent"]), 0) + 1
        if counts:
            k, v = max(counts.items(), key=lambda kv: kv[1])
            base += v
            print(f"\n  base rate, {sub}: always naming '{k}' is right for {v}/{sum(counts.values())} ({pct(v, sum(counts.values()))})", end="")
    print(f"\n  base rate, both sets: {base}/{len(ok)} ({pct(base, len(ok))})")
    print(f"\n  published (issue #19, best method: all-at-once, GPT-4o): agent-level {PUBLISHED['agent']}%, step-level {PUBLISHED['step']}%")


def provenance(binary):
    """Which binary and which src/suspects.rs the figures come from."""
    def git(*args):
        p = subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True)
        return p.stdout.strip() if p.returncode == 0 else None
    dirty = subprocess.run(["git", "-C", ROOT, "diff", "--quiet", "HEAD", "--", "src/suspects"]).returncode != 0
    st = os.stat(binary)
    return {"baton": binary, "baton_built": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(st.st_mtime)),
            "head": git("rev-parse", "--short", "HEAD"), "suspects_rs_blob": git("rev-parse", "--short", "HEAD:src/suspects"),
            "suspects_rs_modified_in_worktree": dirty}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="machine output")
    ap.add_argument("--who-and-when", nargs="?", const=WHO_AND_WHEN, metavar="DIR",
                    help=f"also evaluate the verdict on Who&When (default {WHO_AND_WHEN})")
    ap.add_argument("--baton", default=os.path.join(ROOT, "target", "debug", "baton"))
    ap.add_argument("--no-counterfactual", action="store_true", help="skip the fork checks of the ground truth")
    ap.add_argument("--time-box", type=float, default=600, help="seconds for the Who&When part (default 600)")
    ap.add_argument("--suite", action="append", metavar="DIR",
                    help=f"a suite folder (default: {os.path.relpath(SUITE, ROOT)} and {os.path.relpath(UNSEEN, ROOT)})")
    ap.add_argument("--prove", nargs="*", metavar="ARG",
                    help="run `baton suspects --prove` with these extra arguments (none: the mock)")
    a = ap.parse_args()
    suites = a.suite or [SUITE, UNSEEN]
    result = {"provenance": provenance(a.baton), "suites": []}
    with tempfile.TemporaryDirectory(prefix="eval-suspects-") as tmp:
        for suite in suites:
            truth = load_truth(os.path.join(suite, "README.md"))
            rows = [eval_scenario(a.baton, suite, t, tmp, not a.no_counterfactual, a.prove) for t in truth]
            result["suites"].append({"suite": os.path.relpath(suite, ROOT), "scenarios": rows, "totals": suite_totals(rows)})
        if a.who_and_when:
            ww = eval_who_and_when(a.baton, a.who_and_when, tmp, a.time_box)
            result["who_and_when"] = {"files": ww, "verdict": ww_score(ww, "prediction"),
                                      "forced": ww_score(ww, "forced"), "published": PUBLISHED}
    if a.json:
        print(json.dumps(result, indent=1, ensure_ascii=False))
    else:
        pv = result["provenance"]
        print(f"baton {pv['baton']} (built {pv['baton_built']}); HEAD {pv['head']}, src/suspects/ {pv['suspects_rs_blob']}"
              + (" (modified in the work tree)" if pv["suspects_rs_modified_in_worktree"] else "") + "\n")
        for su in result["suites"]:
            print_suite(su["scenarios"], su["totals"], su["suite"])
        if a.who_and_when:
            w = result["who_and_when"]
            print_ww(w["files"], w["verdict"], w["forced"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
