// Small, consistent form controls for the inspector.
import { useId, type ReactNode } from "react";
import { useDraft } from "./draft";

export function Section({ title, actions, children, testId }: { title: string; actions?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <section className="insp-section" data-testid={testId}>
      <header className="insp-section-header">
        <h3>{title}</h3>
        {actions && <div className="insp-section-actions">{actions}</div>}
      </header>
      <div className="insp-section-body">{children}</div>
    </section>
  );
}

export function Field({ label, hint, error, children, htmlFor, inline }: { label: string; hint?: ReactNode; error?: string | null; children: ReactNode; htmlFor?: string; inline?: boolean }) {
  return (
    <div className={`field${inline ? " field-inline" : ""}${error ? " has-error" : ""}`}>
      <label className="field-label" htmlFor={htmlFor}>
        {label}
      </label>
      <div className="field-control">{children}</div>
      {error ? <div className="field-error">{error}</div> : hint ? <div className="field-hint">{hint}</div> : null}
    </div>
  );
}

type TextProps = {
  label: string;
  value: string;
  onChange: (v: string) => void;
  placeholder?: string;
  hint?: ReactNode;
  testId?: string;
  mono?: boolean;
  disabled?: boolean;
};

export function TextField({ label, value, onChange, placeholder, hint, testId, mono, disabled }: TextProps) {
  const id = useId();
  return (
    <Field label={label} hint={hint} htmlFor={id}>
      <input
        id={id}
        className={`input${mono ? " mono" : ""}`}
        value={value}
        placeholder={placeholder}
        disabled={disabled}
        spellCheck={false}
        data-testid={testId}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}

export function TextAreaField({
  label,
  value,
  onChange,
  placeholder,
  hint,
  testId,
  rows = 6,
  mono = true,
  error,
}: TextProps & { rows?: number; error?: string | null }) {
  const id = useId();
  return (
    <Field label={label} hint={hint} htmlFor={id} error={error}>
      <textarea
        id={id}
        className={`textarea${mono ? " mono" : ""}`}
        value={value}
        rows={rows}
        placeholder={placeholder}
        spellCheck={!mono}
        data-testid={testId}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}

function parse(s: string): number | null | undefined {
  if (s.trim() === "") return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * A number input that keeps what is typed while it is not a number yet. `null` is "empty"
 * (e.g. "unlimited"); `integer` rejects fractions.
 */
export function NumberField({
  label,
  value,
  onChange,
  placeholder,
  hint,
  testId,
  min,
  max,
  step,
  integer,
  allowEmpty = true,
}: {
  label: string;
  value: number | null | undefined;
  onChange: (v: number | null) => void;
  placeholder?: string;
  hint?: ReactNode;
  testId?: string;
  min?: number;
  max?: number;
  step?: number;
  integer?: boolean;
  allowEmpty?: boolean;
}) {
  const id = useId();
  // Follows external changes (undo, another selection) unless the draft produced the value.
  const draft = useDraft<number | null>(value ?? null, (v) => (v === null ? "" : String(v)));
  const error = draft.error;

  function commit(s: string) {
    const n = parse(s);
    const fail = (error: string) => draft.typed(s, { error });
    if (n === undefined) return fail("Not a number");
    if (n === null && !allowEmpty) return fail("Required");
    if (n !== null) {
      if (integer && !Number.isInteger(n)) return fail("A whole number");
      if (min !== undefined && n < min) return fail(`At least ${min}`);
      if (max !== undefined && n > max) return fail(`At most ${max}`);
    }
    draft.typed(s, { value: n });
    onChange(n);
  }

  return (
    <Field label={label} hint={hint} htmlFor={id} error={error}>
      <input
        id={id}
        className="input mono"
        inputMode={integer ? "numeric" : "decimal"}
        value={draft.text}
        placeholder={placeholder}
        data-testid={testId}
        min={min}
        max={max}
        step={step}
        onChange={(e) => commit(e.target.value)}
      />
    </Field>
  );
}

export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  hint,
  testId,
}: {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (v: T) => void;
  hint?: ReactNode;
  testId?: string;
}) {
  const id = useId();
  return (
    <Field label={label} hint={hint} htmlFor={id}>
      <select id={id} className="select" value={value} data-testid={testId} onChange={(e) => onChange(e.target.value as T)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function Segmented<T extends string>({
  value,
  options,
  onChange,
  testId,
  label,
}: {
  value: T;
  options: readonly { value: T; label: ReactNode; title?: string }[];
  onChange: (v: T) => void;
  testId?: string;
  label: string;
}) {
  return (
    <div className="segmented" role="radiogroup" aria-label={label} data-testid={testId}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="radio"
          aria-checked={o.value === value}
          className={o.value === value ? "is-active" : ""}
          title={o.title}
          data-testid={testId ? `${testId}-${o.value}` : undefined}
          onClick={() => onChange(o.value)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
