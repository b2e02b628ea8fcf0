// No state is set while a component renders: not its own (`const [x, setX] = useState()` and then
// `setX(...)` in the body, the "derived state" pattern `if (x !== prev) setPrev(x)`), and not a
// store's (`useStore.setState(...)`, `useStore.getState().action(...)`). Event handlers, effects
// and callbacks (any nested function) may. React's own `react-hooks/set-state-in-render` only
// catches the unconditional case.

const isComponentOrHook = (name) => typeof name === "string" && (/^[A-Z]/.test(name) || /^use[A-Z0-9]/.test(name));

function functionName(fn) {
  if (fn.id?.name) return fn.id.name;
  const p = fn.parent;
  if (p?.type === "VariableDeclarator" && p.id.type === "Identifier") return p.id.name;
  // memo(function X() {}), forwardRef((props) => ...) assigned to a name
  if (p?.type === "CallExpression") {
    const d = p.parent;
    if (d?.type === "VariableDeclarator" && d.id.type === "Identifier") return d.id.name;
  }
  return null;
}

const isFunction = (n) => n.type === "FunctionDeclaration" || n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression";

const isStateHook = (callee) =>
  (callee.type === "Identifier" && (callee.name === "useState" || callee.name === "useReducer")) ||
  (callee.type === "MemberExpression" && !callee.computed && (callee.property.name === "useState" || callee.property.name === "useReducer"));

/** `X.setState(...)` or `X.getState().anything(...)`. */
function isStoreWrite(callee) {
  if (callee.type !== "MemberExpression" || callee.computed) return false;
  if (callee.property.name === "setState") return true;
  const obj = callee.object;
  return (
    obj.type === "CallExpression" &&
    obj.callee.type === "MemberExpression" &&
    !obj.callee.computed &&
    obj.callee.property.name === "getState"
  );
}

/** @type {import("eslint").Rule.RuleModule} */
export default {
  meta: {
    type: "problem",
    docs: { description: "disallow setting component or store state while rendering" },
    messages: {
      local: "`{{name}}` sets state while {{component}} renders: derive the value instead, or set it in an event handler or effect.",
      store: "A store is written while {{component}} renders: do it in an event handler or effect.",
    },
    schema: [],
  },
  create(context) {
    /** Setter names per component function. */
    const setters = new WeakMap();
    const enclosingFunction = (node) => {
      const ancestors = context.sourceCode.getAncestors(node);
      for (let i = ancestors.length - 1; i >= 0; i--) if (isFunction(ancestors[i])) return ancestors[i];
      return null;
    };
    return {
      VariableDeclarator(node) {
        if (node.id.type !== "ArrayPattern" || node.init?.type !== "CallExpression" || !isStateHook(node.init.callee)) return;
        const setter = node.id.elements[1];
        const fn = enclosingFunction(node);
        if (!fn || setter?.type !== "Identifier") return;
        if (!setters.has(fn)) setters.set(fn, new Set());
        setters.get(fn).add(setter.name);
      },
      CallExpression(node) {
        const fn = enclosingFunction(node);
        if (!fn) return;
        const component = functionName(fn);
        if (!isComponentOrHook(component)) return;
        const { callee } = node;
        if (callee.type === "Identifier" && setters.get(fn)?.has(callee.name)) {
          context.report({ node, messageId: "local", data: { name: callee.name, component } });
        } else if (isStoreWrite(callee)) {
          context.report({ node, messageId: "store", data: { component } });
        }
      },
    };
  },
};
