/** A node card's size before React Flow has measured it. */
export const DEFAULT_NODE_SIZE = { width: 232, height: 100 };
