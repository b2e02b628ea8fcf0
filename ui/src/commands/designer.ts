// Everything the menus, shortcuts and panels can do, in one place. Commands read the stores at
// call time, so the returned object is stable and cheap to pass around.
import { useReactFlow } from "@xyflow/react";
import { useMemo } from "react";
import { DEFAULT_NODE_SIZE, autoLayout, withLayout } from "../model/layout";
import {
  addAgent as addAgentOp,
  edgeId,
  normalizeTopology,
  orderChain,
  setPositions,
} from "../model/topology";
import type { AgentKind, Finding, Position, Topology } from "../model/types";
import type { ImportCodeArgs } from "../bindings/ImportCodeArgs";
import { EXPORT_EXTENSIONS, EXPORT_LABELS, type ExportFormat, type Platform } from "../platform/types";
import { fileName } from "../recent";
import { useDebugger } from "../store/debugger";
import { selectDirty, useDesigner } from "../store/designer";
import { useUi } from "../store/ui";
import { usePlatform } from "./platform";
import { openTopologyOrTrace } from "./open-file";
import { usePrompt, type PathProblem } from "../store/prompt";
import { asFlowPadding, fitPadding, nodesBounds } from "../model/fit";
import { checkExportPath, checkTopologyPath } from "../model/refusals";
import { useEditor } from "../store/editor";
import { useRefactorPreview } from "../store/refactor";
import { describeError } from "./messages";
import { withIdentity } from "../model/identity";

export type Commands = ReturnType<typeof makeCommands>;

/** The backend's message as the window says it, with its code. */
function describe(e: unknown): string {
  const { code, message } = describeError(e);
  return code ? `${message} (${code})` : message;
}

type FlowApi = Pick<ReturnType<typeof useReactFlow>, "fitView" | "screenToFlowPosition">;

export function makeCommands(platform: Platform, flow: FlowApi) {
  const doc = () => useDesigner.getState();
  const ui = () => useUi.getState();

  const fail = (what: string, e: unknown) => {
    ui().notify("error", what, describe(e));
  };

  /** Padding that keeps the nodes clear of the toolbar, the controls and the minimap. */
  function fitOptions(): { padding: ReturnType<typeof asFlowPadding>; maxZoom: number } {
    const t = doc().topology;
    const el = document.querySelector(".canvas .react-flow");
    const view = el ? { width: el.clientWidth, height: el.clientHeight } : { width: 900, height: 500 };
    const sizes = ui().nodeSizes;
    const ids = t?.agents.map((a) => a.id) ?? [];
    const bounds = nodesBounds(
      ids.map((id) => t?.layout?.[id] ?? { x: 0, y: 0 }),
      ids.map((id) => sizes[id]),
      DEFAULT_NODE_SIZE,
    );
    return { padding: asFlowPadding(fitPadding(bounds, view, useEditor.getState().minimap)), maxZoom: 1.1 };
  }

  const fitSoon = (opts: Parameters<FlowApi["fitView"]>[0] = {}) => {
    requestAnimationFrame(() => {
      void flow.fitView({ ...fitOptions(), duration: 250, ...opts });
    });
  };

  /**
   * A path to write: the native dialog where there is one (then `check`ed: a refused path is not
   * written), else Baton's prompt, which runs `check` and `submit` and stays open with the typed
   * path and the error when either fails. Resolves with the path written (or chosen), or null.
   */
  async function chooseSavePath(
    defaultPath: string,
    ext: string,
    title: string,
    opts: { check?: (p: string) => PathProblem; submit?: (p: string) => Promise<string | null> } = {},
  ): Promise<string | null> {
    if (platform.dialogs) {
      let path: string | null;
      try {
        // The shell runs the dialog (and allows the chosen path); it takes a file name, not a path.
        path = await platform.dialogs.choose_save_path({ default_name: fileName(defaultPath), extensions: [ext] });
      } catch (e) {
        fail("Could not show the save dialog", e);
        return null;
      }
      if (!path) return null;
      const check = opts.check?.(path);
      if (check && !check.ok) {
        ui().notify("error", `Not saved: ${fileName(path)}`, check.fixed ? `${check.reason} Save it as ${fileName(check.fixed)}.` : check.reason);
        return null;
      }
      if (opts.submit) {
        const failed = await opts.submit(path);
        if (failed !== null) {
          ui().notify("error", `Could not write ${fileName(path)}`, failed);
          return null;
        }
      }
      return path;
    }
    return usePrompt.getState().ask({
      title,
      message:
        platform.kind === "http"
          ? "Path relative to the folder Baton serves. The extension picks the format."
          : "Path of the file to write. The extension picks the format.",
      defaultPath,
      confirmLabel: "Save",
      ...opts,
    });
  }

  /** Writes the document to `path`; resolves with the error to show, or null once saved. */
  async function writeTopology(path: string): Promise<string | null> {
    const before = doc().topology;
    if (!before) return "There is no topology to save.";
    const t = withIdentity(before, path, doc().path);
    ui().setBusy("Saving…");
    try {
      await platform.save_topology({ topology: t, path });
      // The identity written to the file is the document's from now on.
      if (t !== before && doc().topology === before) useDesigner.setState({ topology: t });
      doc().markSaved(path, t);
      ui().addRecent(path);
      ui().notify("success", `Saved ${fileName(path)}`);
      return null;
    } catch (e) {
      return describe(e);
    } finally {
      ui().setBusy(null);
    }
  }

  async function saveTo(path: string): Promise<boolean> {
    const failed = await writeTopology(path);
    if (failed !== null) ui().notify("error", `Could not save ${fileName(path)}`, failed);
    return failed === null;
  }

  async function saveAs(): Promise<boolean> {
    const t = doc().topology;
    if (!t) return false;
    const current = doc().path;
    const suggested = current ?? `${t.name || "topology"}.yaml`;
    const path = await chooseSavePath(suggested, "yaml", "Save topology as", {
      check: (p) => checkTopologyPath(p),
      submit: writeTopology,
    });
    return path !== null;
  }

  async function save(): Promise<boolean> {
    const path = doc().path;
    return path ? saveTo(path) : saveAs();
  }

  /** True when it is fine to replace the document (saved, discarded, or clean). */
  async function guardUnsaved(action: string): Promise<boolean> {
    const s = doc();
    if (!selectDirty(s)) return true;
    const name = s.path ? fileName(s.path) : "Untitled";
    const choice = await ui().ask({
      title: `Save changes to ${name}?`,
      message: `Your changes will be lost if you ${action} without saving.`,
      confirmLabel: "Save",
      alternateLabel: "Don't save",
    });
    if (choice === "cancel") return false;
    if (choice === "alternate") return true;
    return save();
  }

  /** Opens a topology in the designer (no unsaved-changes guard); throws the backend's error. */
  async function loadTopology(path: string): Promise<void> {
    ui().setBusy("Opening…");
    try {
      const opened = await platform.open_topology({ path });
      const t = await withLayout(normalizeTopology(opened.topology));
      doc().load(t, opened.path || path, opened.findings);
      ui().addRecent(opened.path || path);
      ui().openDialog(null);
    } finally {
      ui().setBusy(null);
    }
  }

  async function openPath(path: string, opts: { skipGuard?: boolean } = {}): Promise<boolean> {
    if (!opts.skipGuard && !(await guardUnsaved("open another file"))) return false;
    try {
      await loadTopology(path);
      return true;
    } catch (e) {
      fail(`Could not open ${fileName(path)}`, e);
      return false;
    }
  }

  async function browseNative(): Promise<boolean> {
    if (!platform.dialogs) return false;
    if (!(await guardUnsaved("open another file"))) return false;
    let path: string | null;
    try {
      path = await platform.dialogs.choose_open_path({ extensions: ["yaml", "yml", "json"], label: "Topology" });
    } catch (e) {
      fail("Could not show the file dialog", e);
      return false;
    }
    return path ? openPath(path, { skipGuard: true }) : false;
  }

  /**
   * Opens a file of unknown kind (the app's command line): a topology, or else a trace to import
   * (`importTrace` opens its first run in the debugger). Failures are shown; false then.
   */
  async function openTopologyOrTraceFile(path: string, importTrace: (path: string) => Promise<unknown>): Promise<boolean> {
    try {
      await openTopologyOrTrace(path, { openTopology: loadTopology, importTrace: async (p) => void (await importTrace(p)) });
      return true;
    } catch (e) {
      fail(`Could not open ${fileName(path)}`, e);
      return false;
    }
  }

  /**
   * Opens the debugged run's topology in the designer as a new, unsaved document (an imported
   * trace's topology is rebuilt from the trace): edit it, save it, run it; its runs are listed.
   */
  async function editRunTopology(): Promise<boolean> {
    const t = useDebugger.getState().topology;
    if (!t) return false;
    if (!(await guardUnsaved("open the run's topology"))) return false;
    try {
      const findings = await platform.lint_topology({ topology: t }).catch(() => []);
      doc().load(normalizeTopology(structuredClone(t)), null, findings, { dirty: true });
      useDebugger.getState().exit();
      ui().setBottom("runs");
      fitSoon({ duration: 0 });
      return true;
    } catch (e) {
      fail("Could not open the run's topology", e);
      return false;
    }
  }

  async function newTopology(name = "untitled"): Promise<boolean> {
    if (!(await guardUnsaved("create a new topology"))) return false;
    try {
      const t = await withLayout(normalizeTopology(await platform.new_topology({ name })));
      doc().load(t, null, []);
      ui().openDialog(null);
      return true;
    } catch (e) {
      fail("Could not create a topology", e);
      return false;
    }
  }

  /**
   * File → Import from code: the agents of an Agents SDK or ADK module (or ADK Agent Config YAML)
   * open as an unsaved topology. Throws the backend's `{code, message}` (the dialog shows it and
   * keeps what was typed); resolves with the notes on what the topology does not carry.
   */
  async function importCodeOrThrow(path: string, opts: { framework?: string; entry?: string; trustCode?: boolean; python?: string } = {}): Promise<string[] | null> {
    if (!(await guardUnsaved("import another topology"))) return null;
    ui().setBusy("Reading the code…");
    try {
      const args: ImportCodeArgs = { path };
      if (opts.framework) args.framework = opts.framework;
      if (opts.entry) args.entry = opts.entry;
      if (opts.trustCode) args.trust_code = true;
      if (opts.python) args.python = opts.python;
      const imported = await platform.import_code(args);
      const t = await withLayout(normalizeTopology(imported.topology));
      doc().load(t, null, imported.findings);
      ui().openDialog(null);
      const n = t.agents.length;
      ui().notify("success", `Imported ${n} agent${n === 1 ? "" : "s"} from ${fileName(path)}`, imported.notes.length ? imported.notes.join(" · ") : undefined);
      fitSoon();
      return imported.notes;
    } finally {
      ui().setBusy(null);
    }
  }

  /** The native file dialog for a module or Agent Config YAML (Tauri), else null. */
  async function chooseCodePath(): Promise<string | null> {
    if (!platform.dialogs) return null;
    try {
      return await platform.dialogs.choose_open_path({ extensions: ["py", "yaml", "yml"], label: "Agent code" });
    } catch (e) {
      fail("Could not show the file dialog", e);
      return null;
    }
  }

  async function layout(): Promise<void> {
    const t = doc().topology;
    if (!t) return;
    try {
      const positions = await autoLayout(t, ui().nodeSizes);
      doc().commit((cur) => setPositions(cur, positions));
      fitSoon();
    } catch (e) {
      fail("Auto-layout failed", e);
    }
  }

  function viewportCenter(): Position {
    const el = document.querySelector(".react-flow");
    const r = el?.getBoundingClientRect();
    const screen = r ? { x: r.left + r.width / 2, y: r.top + r.height / 2 } : { x: 400, y: 300 };
    const p = flow.screenToFlowPosition(screen);
    return { x: p.x - DEFAULT_NODE_SIZE.width / 2, y: p.y - DEFAULT_NODE_SIZE.height / 2 };
  }

  /** The nearest place around `p` where a new card overlaps no agent (searching rings outwards). */
  function freeSpotNear(p: Position): Position {
    const t = doc().topology;
    const sizes = ui().nodeSizes;
    const rects = Object.entries(t?.layout ?? {}).map(([id, q]) => ({
      x: q.x,
      y: q.y,
      w: sizes[id]?.width ?? DEFAULT_NODE_SIZE.width,
      h: sizes[id]?.height ?? DEFAULT_NODE_SIZE.height,
    }));
    const { width: w, height: h } = DEFAULT_NODE_SIZE;
    const gap = 36;
    const free = (c: Position) =>
      rects.every((r) => c.x + w + gap <= r.x || r.x + r.w + gap <= c.x || c.y + h + gap <= r.y || r.y + r.h + gap <= c.y);
    const stepX = w / 2;
    const stepY = h / 2 + gap;
    for (let ring = 0; ring < 12; ring++) {
      const candidates: Position[] = [];
      for (let dx = -ring; dx <= ring; dx++) {
        for (let dy = -ring; dy <= ring; dy++) {
          if (Math.max(Math.abs(dx), Math.abs(dy)) === ring) candidates.push({ x: p.x + dx * stepX, y: p.y + dy * stepY });
        }
      }
      candidates.sort((a, b) => Math.hypot(a.x - p.x, a.y - p.y) - Math.hypot(b.x - p.x, b.y - p.y));
      const hit = candidates.find(free);
      if (hit) return hit;
    }
    return p;
  }

  function addAgent(kind: AgentKind = "agent", at?: Position): string | null {
    if (!doc().topology) return null;
    const position = at ?? freeSpotNear(viewportCenter());
    let newId: string | null = null;
    doc().commit((t) => {
      const [next, id] = addAgentOp(t, { kind, position: { x: Math.round(position.x), y: Math.round(position.y) } });
      newId = id;
      return next;
    });
    if (newId) doc().setSelection({ agents: [newId], edges: [] });
    return newId;
  }

  /**
   * The supervisor refactor of `edges` (the selected handoffs when absent; the longest chain from
   * the entry when nothing is selected), shown as a preview of its scope, changes and resulting
   * findings; applied in one undo step only when the user confirms.
   */
  async function refactorSupervisor(edges?: string[]): Promise<boolean> {
    const t = doc().topology;
    if (!t) return false;
    const selected = edges ?? doc().selection.edges;
    let chain: string[] = [];
    if (selected.length > 0) {
      const ordered = orderChain(t, selected);
      if (!ordered) {
        ui().notify(
          "error",
          "Not a handoff chain",
          "Select handoff edges that form one chain (each edge starts where the previous one ends), or select nothing to use the longest chain from the entry.",
        );
        return false;
      }
      chain = ordered;
    }
    ui().setBusy("Refactoring…");
    let done: Awaited<ReturnType<Platform["refactor_supervisor"]>>;
    let findings: Finding[];
    try {
      done = await platform.refactor_supervisor({ topology: t, chain });
      findings = await platform.lint_topology({ topology: done.topology });
    } catch (e) {
      fail("Supervisor refactor failed", e);
      return false;
    } finally {
      ui().setBusy(null);
    }
    const result = normalizeTopology(done.topology);
    const apply = await useRefactorPreview.getState().ask({ before: t, after: result, chain: done.chain, chosen: done.chosen, changes: done.changes, findings });
    if (!apply) return false;
    try {
      const before = new Set(t.agents.map((a) => a.id));
      const added = result.agents.filter((a) => !before.has(a.id)).map((a) => a.id);
      // The structure changed (a new supervisor owns the chain): lay everything out again, in the
      // same undo step, rather than squeeze the supervisor in wherever the backend put it.
      const laid = added.length > 0 ? setPositions(result, await autoLayout(result, ui().nodeSizes)) : await withLayout(result, ui().nodeSizes);
      doc().commit(() => laid, { select: { agents: added, edges: [] } });
      ui().notify("success", "Refactored to a supervisor", `${done.changes.length} changes; undo restores the handoffs.`);
      fitSoon();
      return true;
    } catch (e) {
      fail("Supervisor refactor failed", e);
      return false;
    }
  }

  function focusFinding(f: Finding) {
    const t = doc().topology;
    if (!t) return;
    const edges = f.edges.filter((id) => t.edges.some((e) => edgeId(e) === id));
    const agents = f.agents.filter((id) => t.agents.some((a) => a.id === id));
    doc().setSelection({ agents: edges.length ? [] : agents, edges });
    const focus = new Set(agents);
    for (const id of edges) {
      const e = t.edges.find((x) => edgeId(x) === id);
      if (e) {
        focus.add(e.from);
        focus.add(e.to);
      }
    }
    if (focus.size) {
      void flow.fitView({ nodes: [...focus].map((id) => ({ id })), padding: 0.45, maxZoom: 1.2, duration: 300 });
    }
  }

  /** The export of `t` (the open document by default). */
  async function exportText(format: ExportFormat, t: Topology | null = doc().topology): Promise<string> {
    if (!t) return "";
    return platform.export_topology({ topology: t, format });
  }

  async function saveExport(format: ExportFormat, text: string): Promise<boolean> {
    const t = doc().topology;
    if (!t) return false;
    const ext = EXPORT_EXTENSIONS[format];
    const base = doc().path ? fileName(doc().path as string).replace(/\.(ya?ml|json)$/i, "") : t.name || "topology";
    const write = async (path: string): Promise<string | null> => {
      try {
        if (format === "yaml" || format === "json") await platform.save_topology({ topology: t, path });
        else await platform.write_text({ path, text });
        ui().notify("success", `Exported ${fileName(path)}`);
        return null;
      } catch (e) {
        return describe(e);
      }
    };
    const path = await chooseSavePath(`${base}.${ext}`, ext, `Export ${EXPORT_LABELS[format]}`, {
      check: (p) => checkExportPath(p, format, ext),
      submit: write,
    });
    return path !== null;
  }

  return {
    platform,
    save,
    saveAs,
    saveTo,
    guardUnsaved,
    openPath,
    loadTopology,
    openTopologyOrTraceFile,
    browseNative,
    showOpenTrace: () => ui().openDialog("trace"),
    showImportCode: () => ui().openDialog("code"),
    importCodeOrThrow,
    chooseCodePath,
    showSettings: () => ui().openDialog("settings"),
    newTopology,
    editRunTopology,
    showOpen: () => ui().openDialog("open"),
    showExport: () => doc().topology && ui().openDialog("export"),
    layout,
    fitView: () => fitSoon({ duration: 250 }),
    fitOptions,
    addAgent,
    refactorSupervisor,
    focusFinding,
    exportText,
    saveExport,
    undo: () => doc().undo(),
    redo: () => doc().redo(),
    selectAll: () => doc().selectAll(),
    clearSelection: () => {
      ui().setPendingConnection(null);
      doc().setSelection({ agents: [], edges: [] });
    },
    deleteSelection: () => doc().deleteSelection(),
  };
}

export function useCommands(): Commands {
  const platform = usePlatform();
  const flow = useReactFlow();
  const { fitView, screenToFlowPosition } = flow;
  return useMemo(() => makeCommands(platform, { fitView, screenToFlowPosition }), [platform, fitView, screenToFlowPosition]);
}
