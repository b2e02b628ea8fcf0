// A dialog takes focus when it opens, keeps Tab inside itself, and gives focus back on close
// (WAI-ARIA Authoring Practices, "Dialog (Modal)": focus moves into the dialog, Tab and
// Shift+Tab wrap within it, Escape closes, focus returns to the element that opened it).
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { Modal } from "./Modal";

function Host({ onClose }: { onClose: () => void }) {
  const [open, setOpen] = useState(false);
  const [ticks, setTicks] = useState(0);
  return (
    <>
      <button onClick={() => setOpen(true)}>open</button>
      {open && (
        <Modal
          title="Settings"
          onClose={() => {
            onClose();
            setOpen(false);
          }}
        >
          <input aria-label="name" />
          <button onClick={() => setTicks(ticks + 1)}>re-render {ticks}</button>
        </Modal>
      )}
    </>
  );
}

describe("Modal focus", () => {
  it("takes focus, keeps Tab inside across re-renders, and returns it on Escape", async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(<Host onClose={onClose} />);
    const opener = screen.getByText("open");
    await user.click(opener);
    expect(document.activeElement).toBe(screen.getByLabelText("name"));
    await user.tab();
    expect(document.activeElement?.textContent).toBe("re-render 0");
    // A parent re-render (a new onClose) must not hand focus back to the page behind.
    await user.keyboard("{Enter}");
    expect(document.activeElement?.textContent).toBe("re-render 1");
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText("Close"));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText("name"));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByLabelText("Close"));
    await user.keyboard("{Escape}");
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(opener);
  });

  it("focuses the dialog itself when it has no field", async () => {
    render(
      <Modal title="Empty" onClose={() => {}}>
        <p>Nothing to type here.</p>
      </Modal>,
    );
    expect(document.activeElement).toBe(screen.getByRole("dialog"));
  });
});
