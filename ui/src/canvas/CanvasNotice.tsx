// Why the canvas refused an edit (a self-edge, a duplicate edge), shown by the pointer where it
// happened until it fades, the next click, or Esc.
import { Ban, X } from "lucide-react";
import { useEffect } from "react";
import "../styles/editor.css";
import { useEditor } from "../store/editor";

export function CanvasNotice() {
  const notice = useEditor((s) => s.notice);
  const clear = useEditor((s) => s.clearNotice);
  useEffect(() => {
    if (!notice) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && clear();
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [notice, clear]);
  if (!notice) return null;
  const left = Math.max(8, Math.min(notice.x + 12, window.innerWidth - 340));
  const top = Math.max(8, Math.min(notice.y + 12, window.innerHeight - 120));
  return (
    <div className="canvas-notice" style={{ left, top }} role="alert" data-testid="canvas-refusal" key={notice.id}>
      <Ban size={14} className="canvas-notice-icon" />
      <span className="canvas-notice-text">{notice.text}</span>
      <button className="icon-btn sm" aria-label="Dismiss" onClick={clear}>
        <X size={12} />
      </button>
    </div>
  );
}
