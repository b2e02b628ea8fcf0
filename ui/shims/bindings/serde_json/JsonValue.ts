// Stand-in for ts-rs's serde_json/JsonValue.ts, which tests/bindings.rs does not write yet (it
// only copies top-level files). Found through tsconfig "rootDirs"; the generated file wins once it exists.
export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null;
