// How a run is named in a few characters. Run ids are UUIDv7: their first characters are the
// time they were made, so a fork made beside its parent shares them; the last ones are random.

/** The run's id in 8 characters that tell apart runs made in the same millisecond. */
export function shortRunId(id: string): string {
  const hex = id.replace(/-/g, "");
  return hex.length > 8 ? hex.slice(-8) : hex;
}
