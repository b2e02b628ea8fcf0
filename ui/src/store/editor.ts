// Canvas view state of the editor that is not part of the document: whether the minimap shows
// (remembered across sessions), and the refusal notice the canvas shows by the pointer when an
// edit is refused (a self-edge, a duplicate edge), so a refusal never passes in silence; the
// message typed in the Run tab's message box (kept while the tab is switched).
import { create } from "zustand";

const MINIMAP_KEY = "baton.minimap";

function loadMinimap(): boolean {
  try {
    return localStorage.getItem(MINIMAP_KEY) !== "off";
  } catch {
    return true;
  }
}

export type CanvasNotice = { id: number; text: string; x: number; y: number };

type EditorState = {
  minimap: boolean;
  notice: CanvasNotice | null;
  runMessage: string;
  setRunMessage(text: string): void;
  setMinimap(on: boolean): void;
  toggleMinimap(): void;
  /** Shows why an edit was refused, by (x, y) in window coordinates; it fades after a while. */
  refuse(text: string, at?: { x: number; y: number }): void;
  clearNotice(): void;
};

let seq = 0;
/** How long a refusal stays (it also goes on the next click). */
export const NOTICE_MS = 6000;

export const useEditor = create<EditorState>()((set, get) => ({
  minimap: loadMinimap(),
  notice: null,
  runMessage: "",
  setRunMessage(runMessage) {
    set({ runMessage });
  },
  setMinimap(minimap) {
    try {
      localStorage.setItem(MINIMAP_KEY, minimap ? "on" : "off");
    } catch {
      /* private mode: not remembered, still applied */
    }
    set({ minimap });
  },
  toggleMinimap() {
    get().setMinimap(!get().minimap);
  },
  refuse(text, at) {
    const id = ++seq;
    const x = at?.x ?? (typeof window !== "undefined" ? window.innerWidth / 2 : 400);
    const y = at?.y ?? (typeof window !== "undefined" ? window.innerHeight / 3 : 200);
    set({ notice: { id, text, x, y } });
    setTimeout(() => {
      if (get().notice?.id === id) set({ notice: null });
    }, NOTICE_MS);
  },
  clearNotice() {
    set({ notice: null });
  },
}));
