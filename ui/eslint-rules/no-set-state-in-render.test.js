// The rule that keeps state from being set while rendering (run by `npm test`).
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import { describe, it } from "vitest";
import rule from "./no-set-state-in-render.js";

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
});

tester.run("no-set-state-in-render", rule, {
  valid: [
    // event handlers, effects and callbacks may set state
    "function A() { const [x, setX] = useState(0); return <button onClick={() => setX(x + 1)} />; }",
    "function A() { const [x, setX] = useState(0); useEffect(() => { fetchIt().then(setX); }, []); return x; }",
    "const A = () => { const [x, setX] = useState(0); function bump() { setX(x + 1); } return <i onClick={bump} />; };",
    "function useThing() { const [v, setV] = useState(null); const reset = useCallback(() => setV(null), []); return [v, reset]; }",
    // reading a store in render is not writing it
    "function A() { const t = useDesigner.getState().topology; return t; }",
    // a store written from a handler
    "function A() { return <i onClick={() => useUi.getState().openDialog(null)} />; }",
    // not a component or a hook: plain functions may do what they like
    "function helper() { const [a, setA] = useState(0); setA(1); useUi.setState({}); }",
    // another function's setter of the same name
    "function A() { const [x, setX] = useState(0); return x; } function B({ setX }) { return <i onClick={() => setX(1)} />; }",
  ],
  invalid: [
    {
      // the derived-state pattern
      code: "function A({ value }) { const [seen, setSeen] = useState(value); if (seen !== value) setSeen(value); return seen; }",
      errors: [{ messageId: "local" }],
    },
    {
      code: "const useStep = () => { const [last, setLast] = React.useState(null); const v = peek(); if (v && last !== v) setLast(v); return v ?? last; };",
      errors: [{ messageId: "local" }],
    },
    {
      code: "function A() { const [s, dispatch] = useReducer(reduce, 0); dispatch({ type: 'x' }); return s; }",
      errors: [{ messageId: "local" }],
    },
    {
      code: "function A({ run }) { if (run) useDebugger.getState().setCursor(0); return null; }",
      errors: [{ messageId: "store" }],
    },
    {
      code: "const A = memo(function A() { useRun.setState({ live: null }); return null; });",
      errors: [{ messageId: "store" }],
    },
  ],
});
