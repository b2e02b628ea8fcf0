const isMac = typeof navigator !== "undefined" && /Mac/.test(navigator.platform);
/** The modifier as shown in hints: ⌘ on macOS, Ctrl+ elsewhere. */
export const MOD = isMac ? "⌘" : "Ctrl+";
