// A recorded JSON body as a collapsible tree (objects and arrays fold; the first levels open), so
// a provider request with a long message list reads like DevTools' preview.
import type { JsonValue } from "../bindings/serde_json/JsonValue";

function Leaf({ value }: { value: JsonValue }) {
  if (value === null) return <span className="json-lit">null</span>;
  if (typeof value === "string") return <span className="json-str">{JSON.stringify(value)}</span>;
  if (typeof value === "number") return <span className="json-num">{String(value)}</span>;
  if (typeof value === "boolean") return <span className="json-lit">{String(value)}</span>;
  return null;
}

function Node({ name, value, depth, open }: { name?: string; value: JsonValue; depth: number; open: number }) {
  const key = name !== undefined ? <span className="json-key">{JSON.stringify(name)}: </span> : null;
  if (value === null || typeof value !== "object") {
    return (
      <div className="json-line">
        {key}
        <Leaf value={value} />
      </div>
    );
  }
  const entries: [string | undefined, JsonValue][] = Array.isArray(value)
    ? value.map((v) => [undefined, v as JsonValue])
    : Object.entries(value).filter((e): e is [string, JsonValue] => e[1] !== undefined);
  const [l, r] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) {
    return (
      <div className="json-line">
        {key}
        <span className="json-meta">
          {l}
          {r}
        </span>
      </div>
    );
  }
  return (
    <details open={depth < open} data-testid="json-node">
      <summary>
        {key}
        <span className="json-meta">
          {l} {Array.isArray(value) ? `${entries.length} ${entries.length === 1 ? "item" : "items"}` : `${entries.length} ${entries.length === 1 ? "key" : "keys"}`} {r}
        </span>
      </summary>
      <div className="json-children">
        {entries.map(([k, v], i) => (
          <Node key={k ?? i} name={k} value={v} depth={depth + 1} open={open} />
        ))}
      </div>
    </details>
  );
}

export function JsonView({ value, open = 2, testId }: { value: JsonValue; open?: number; testId?: string }) {
  return (
    <div className="json-tree" data-testid={testId}>
      <Node value={value} depth={0} open={open} />
    </div>
  );
}
