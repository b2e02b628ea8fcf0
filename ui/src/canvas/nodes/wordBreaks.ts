// Where an agent's name may wrap: after `_`, `-`, `.` and `/`, and between a lower-case letter
// and a capital (camelCase). Names like `information_retrieval_agent` are one word to a browser,
// so a narrow node (far out on a long chain) cut them to four letters instead of two lines.

/** The name in pieces, a line break allowed between each two. */
export function wordBreaks(name: string): string[] {
  return name.split(/(?<=[_\-./])(?=.)|(?<=[a-z])(?=[A-Z])/);
}
