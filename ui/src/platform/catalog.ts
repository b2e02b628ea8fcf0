// The lists the UI offers, from the one generated source (`CATALOG` in bindings/commands.ts,
// written from the Rust core): providers, export formats and trace formats with their labels.
import { CATALOG } from "../bindings/commands";
import type { ExportFormat } from "../bindings/ExportFormat";
import type { Provider } from "../bindings/Provider";
import type { TraceFormat } from "../bindings/TraceFormat";

export type { ExportFormat, Provider, TraceFormat };

export const PROVIDERS: readonly Provider[] = CATALOG.providers.map((c) => c.value);
export const PROVIDER_LABELS = Object.fromEntries(CATALOG.providers.map((c) => [c.value, c.label])) as Record<Provider, string>;
export const PROVIDER_DETAILS = Object.fromEntries(CATALOG.providers.map((c) => [c.value, c.detail])) as Record<Provider, string>;
/** Providers that call a real model (the order of the Settings table). */
export const REAL_PROVIDERS: readonly Provider[] = CATALOG.real_providers;

export const EXPORT_FORMATS: readonly ExportFormat[] = CATALOG.export_formats.map((c) => c.value);
export const EXPORT_LABELS = Object.fromEntries(CATALOG.export_formats.map((c) => [c.value, c.label])) as Record<ExportFormat, string>;
export const EXPORT_EXTENSIONS = Object.fromEntries(CATALOG.export_formats.map((c) => [c.value, c.detail])) as Record<ExportFormat, string>;

/** Formats `import_trace` reads (`auto` sniffs the file). */
export const TRACE_FORMATS: readonly TraceFormat[] = CATALOG.trace_formats.map((c) => c.value);
export const TRACE_LABELS = Object.fromEntries(CATALOG.trace_formats.map((c) => [c.value, c.label])) as Record<TraceFormat, string>;
