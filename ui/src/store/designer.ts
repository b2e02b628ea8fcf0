// The designer's typed store: the document (topology, path), its undo history, the selection
// and the latest lint findings. Every edit goes through `commit`, which records one undo step
// (or merges into the previous one when both carry the same coalesce key, as typing does).
import { create } from "zustand";
import type { Finding, Topology } from "../model/types";
import { edgeId, normalizeTopology, removeAgents, removeEdges } from "../model/topology";
import { identityOnOpen } from "../model/identity";

export type Selection = { agents: string[]; edges: string[] };
export const EMPTY_SELECTION: Selection = { agents: [], edges: [] };

export type CommitOptions = {
  /** Edits with the same key in quick succession (or within one gesture) are one undo step. */
  coalesce?: string;
  /** Selection to apply along with the edit. */
  select?: Selection;
};

const HISTORY_LIMIT = 200;
/** Typing pauses longer than this start a new undo step. */
export const COALESCE_MS = 1200;

type Snapshot = { topology: Topology; selection: Selection };

export type DesignerState = {
  topology: Topology | null;
  path: string | null;
  /** The topology as last saved or opened; dirty when the current one is not this value. */
  saved: Topology | null;
  past: Snapshot[];
  future: Snapshot[];
  lastCommit: { key: string; at: number } | null;
  selection: Selection;
  findings: Finding[];
  /** Bumped whenever a new document is loaded (views reset, e.g. fit view). */
  docId: number;

  load(topology: Topology, path: string | null, findings?: Finding[], opts?: { dirty?: boolean }): void;
  close(): void;
  commit(recipe: (t: Topology) => Topology, opts?: CommitOptions): void;
  /** Replaces the current value without an undo step (used while a gesture's step is open). */
  replace(recipe: (t: Topology) => Topology): void;
  /** Opens one undo step for a gesture (e.g. a drag): edits with `coalesce: key` join it. */
  beginGesture(key: string): void;
  undo(): void;
  redo(): void;
  markSaved(path: string, topology?: Topology): void;
  setSelection(sel: Selection): void;
  selectAll(): void;
  deleteSelection(): void;
  setFindings(f: Finding[]): void;
};

const now = () => (typeof performance !== "undefined" ? performance.now() : Date.now());

function pruneSelection(t: Topology, sel: Selection): Selection {
  const agents = sel.agents.filter((id) => t.agents.some((a) => a.id === id));
  const edges = sel.edges.filter((id) => t.edges.some((e) => edgeId(e) === id));
  if (agents.length === sel.agents.length && edges.length === sel.edges.length) return sel;
  return { agents, edges };
}

export const useDesigner = create<DesignerState>()((set, get) => ({
  topology: null,
  path: null,
  saved: null,
  past: [],
  future: [],
  lastCommit: null,
  selection: EMPTY_SELECTION,
  findings: [],
  docId: 0,

  load(topology, path, findings = [], opts = {}) {
    const t = identityOnOpen(normalizeTopology(topology), path);
    set((s) => ({
      topology: t,
      path,
      saved: opts.dirty ? null : t,
      past: [],
      future: [],
      lastCommit: null,
      selection: EMPTY_SELECTION,
      findings,
      docId: s.docId + 1,
    }));
  },

  close() {
    set((s) => ({
      topology: null,
      path: null,
      saved: null,
      past: [],
      future: [],
      lastCommit: null,
      selection: EMPTY_SELECTION,
      findings: [],
      docId: s.docId + 1,
    }));
  },

  commit(recipe, opts = {}) {
    const { topology, past, lastCommit, selection } = get();
    if (!topology) return;
    const next = recipe(topology);
    if (next === topology && !opts.select) return;
    const at = now();
    const key = opts.coalesce;
    const merge =
      key !== undefined &&
      lastCommit !== null &&
      lastCommit.key === key &&
      (key.startsWith("gesture:") || at - lastCommit.at < COALESCE_MS);
    const nextSelection = pruneSelection(next, opts.select ?? selection);
    set({
      topology: next,
      past: merge ? past : [...past, { topology, selection }].slice(-HISTORY_LIMIT),
      future: [],
      lastCommit: key !== undefined ? { key, at } : null,
      selection: nextSelection,
    });
  },

  replace(recipe) {
    const { topology } = get();
    if (!topology) return;
    set({ topology: recipe(topology) });
  },

  beginGesture(key) {
    const { topology, past, selection } = get();
    if (!topology) return;
    set({
      past: [...past, { topology, selection }].slice(-HISTORY_LIMIT),
      future: [],
      lastCommit: { key, at: now() },
    });
  },

  undo() {
    const { topology, past, future, selection } = get();
    const prev = past[past.length - 1];
    if (!topology || !prev) return;
    set({
      topology: prev.topology,
      selection: pruneSelection(prev.topology, prev.selection),
      past: past.slice(0, -1),
      future: [{ topology, selection }, ...future],
      lastCommit: null,
    });
  },

  redo() {
    const { topology, past, future, selection } = get();
    const next = future[0];
    if (!topology || !next) return;
    set({
      topology: next.topology,
      selection: pruneSelection(next.topology, next.selection),
      past: [...past, { topology, selection }],
      future: future.slice(1),
      lastCommit: null,
    });
  },

  markSaved(path, topology) {
    const t = topology ?? get().topology;
    set({ path, saved: t, lastCommit: null });
  },

  setSelection(sel) {
    const { selection } = get();
    const same =
      sel.agents.length === selection.agents.length &&
      sel.edges.length === selection.edges.length &&
      sel.agents.every((a, i) => selection.agents[i] === a) &&
      sel.edges.every((e, i) => selection.edges[i] === e);
    if (!same) set({ selection: sel });
  },

  selectAll() {
    const { topology } = get();
    if (!topology) return;
    set({ selection: { agents: topology.agents.map((a) => a.id), edges: topology.edges.map(edgeId) } });
  },

  deleteSelection() {
    const { selection } = get();
    if (selection.agents.length === 0 && selection.edges.length === 0) return;
    get().commit((t) => removeAgents(removeEdges(t, selection.edges), selection.agents), {
      select: EMPTY_SELECTION,
    });
  },

  setFindings(findings) {
    set({ findings });
  },
}));

/** Whether the document differs from what was last opened or saved. */
export function selectDirty(s: Pick<DesignerState, "topology" | "saved">): boolean {
  return s.topology !== null && s.topology !== s.saved;
}

export function selectCanUndo(s: DesignerState): boolean {
  return s.past.length > 0;
}
export function selectCanRedo(s: DesignerState): boolean {
  return s.future.length > 0;
}
