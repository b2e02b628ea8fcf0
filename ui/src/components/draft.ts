// A text draft of a typed value (number fields, the JSON Schema editor). What the user typed stands
// while the value is still the one it was typed against (a draft that is not a value yet) or the
// one it produced; any other value (undo, another selection) shows instead. Derived while
// rendering from the last edit: no state is set during render.
import { useState } from "react";

type Edit<V> = { text: string; error: string | null; base: V; sent: { value: V } | null };

export type Draft = {
  text: string;
  error: string | null;
};

export function useDraft<V>(
  value: V,
  format: (v: V) => string,
  same: (a: V, b: V) => boolean = Object.is,
): Draft & {
  /** The user typed `text`: the value it means (the caller hands it on), or why it is not one. */
  typed(text: string, result: { value: V } | { error: string }): void;
} {
  const [edit, setEdit] = useState<Edit<V> | null>(null);
  const live = edit && (same(edit.base, value) || (edit.sent !== null && same(edit.sent.value, value))) ? edit : null;
  return {
    text: live ? live.text : format(value),
    error: live ? live.error : null,
    typed: (text, result) =>
      setEdit({ text, error: "error" in result ? result.error : null, base: value, sent: "value" in result ? { value: result.value } : null }),
  };
}
