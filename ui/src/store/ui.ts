// Transient UI state that is not part of the document: dialogs, toasts, panels, node sizes.
import { create } from "zustand";
import type { FileEntry } from "../platform/types";
import { loadRecent, pushRecent } from "../recent";

export type DialogKind = "open" | "trace" | "code" | "settings" | "export" | "saveAs" | "new" | "shortcuts" | "palette" | null;

export type Toast = { id: number; kind: "info" | "success" | "error"; title: string; detail?: string };

export type ConfirmRequest = {
  title: string;
  message: string;
  confirmLabel: string;
  /** A third choice ("Don't save"); absent for a plain yes/no. */
  alternateLabel?: string;
  resolve: (choice: "confirm" | "alternate" | "cancel") => void;
};

export type PendingConnection = { from: string; to: string; x: number; y: number };

export type BottomTab = "problems" | "run" | "runs" | "tests" | "matrix";

type UiState = {
  dialog: DialogKind;
  toasts: Toast[];
  confirm: ConfirmRequest | null;
  pendingConnection: PendingConnection | null;
  bottomTab: BottomTab;
  bottomOpen: boolean;
  /** Height of the open bottom panel, in pixels (the user drags its top edge). */
  bottomHeight: number;
  /** Rendered node sizes by agent id (auto-layout uses them). */
  nodeSizes: Record<string, { width: number; height: number }>;
  busy: string | null;
  recent: FileEntry[];
  /** Two runs whose transfers are compared (a modal). */
  compare: [string, string] | null;

  openDialog(d: DialogKind): void;
  notify(kind: Toast["kind"], title: string, detail?: string): void;
  dismiss(id: number): void;
  ask(req: Omit<ConfirmRequest, "resolve">): Promise<"confirm" | "alternate" | "cancel">;
  setPendingConnection(c: PendingConnection | null): void;
  setBottom(tab: BottomTab, open?: boolean): void;
  toggleBottom(): void;
  setBottomHeight(px: number): void;
  setNodeSizes(sizes: Record<string, { width: number; height: number }>): void;
  setBusy(label: string | null): void;
  setCompare(runs: [string, string] | null): void;
  addRecent(path: string): void;
};

let toastSeq = 0;

export const useUi = create<UiState>()((set, get) => ({
  dialog: null,
  toasts: [],
  confirm: null,
  pendingConnection: null,
  bottomTab: "problems",
  bottomOpen: true,
  bottomHeight: 264,
  nodeSizes: {},
  busy: null,
  recent: loadRecent(),
  compare: null,

  openDialog(dialog) {
    set({ dialog });
  },
  notify(kind, title, detail) {
    const id = ++toastSeq;
    set({ toasts: [...get().toasts, { id, kind, title, detail }].slice(-4) });
    setTimeout(() => get().dismiss(id), kind === "error" ? 8000 : 3500);
  },
  dismiss(id) {
    set({ toasts: get().toasts.filter((t) => t.id !== id) });
  },
  ask(req) {
    return new Promise((resolve) => {
      set({
        confirm: {
          ...req,
          resolve: (choice) => {
            set({ confirm: null });
            resolve(choice);
          },
        },
      });
    });
  },
  setPendingConnection(pendingConnection) {
    set({ pendingConnection });
  },
  setBottom(bottomTab, open = true) {
    set({ bottomTab, bottomOpen: open });
  },
  toggleBottom() {
    set({ bottomOpen: !get().bottomOpen });
  },
  setBottomHeight(px) {
    set({ bottomHeight: Math.round(Math.max(120, Math.min(px, window.innerHeight - 240))) });
  },
  setNodeSizes(sizes) {
    set({ nodeSizes: { ...get().nodeSizes, ...sizes } });
  },
  setBusy(busy) {
    set({ busy });
  },
  setCompare(compare) {
    set({ compare });
  },
  addRecent(path) {
    set({ recent: pushRecent(path) });
  },
}));
