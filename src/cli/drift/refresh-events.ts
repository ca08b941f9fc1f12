/**
 * The engine's event log of `pulumi refresh --preview-only` (`--event-log`, one JSON event a
 * line) → what each resource held before the refresh and what its provider read now.
 *
 * Why the events and not `pulumi refresh --preview-only --json`: in Pulumi 3.259 that JSON gives
 * a resource changed by hand the same `newState` as `oldState` (only `changeSummary` counts it),
 * so the value a hand edit left cannot be read from it; the `resOutputsEvent` of each resource
 * carries both (measured on the lab: r01n03's ip edited by hand reads `10.0.1.3` in both states
 * of the JSON, `10.0.1.3` → `10.0.9.3` in the event).
 */
import { eventLogEvents } from "../event-log";
import type { PreviewState, PreviewStep } from "../review/plan-summary";

/** What the engine's refresh preview says: the stack config it ran with, and one step per resource. */
export interface RefreshPreview {
  /** Stack config as the engine shows it (secrets read `[secret]`). */
  readonly config: Readonly<Record<string, unknown>>;
  /** One step per resource: `same`, `update` (changed outside Pulumi) or `delete` (gone). */
  readonly steps: readonly PreviewStep[];
  /** The engine's diagnostics of severity error, in order. */
  readonly errors: readonly string[];
  /** False when the engine's summary says the refresh did not succeed (or there was none). */
  readonly succeeded: boolean;
}

interface StepMetadata {
  readonly op?: string;
  readonly urn?: string;
  readonly type?: string;
  readonly old?: PreviewState | null;
  readonly new?: PreviewState | null;
}

/** Parses the event log's lines; a line that is not JSON (a torn last line) is skipped. */
export function parseRefreshEvents(text: string): RefreshPreview {
  let config: Record<string, unknown> = {};
  const steps: PreviewStep[] = [];
  const errors: string[] = [];
  let succeeded = false;
  for (const event of eventLogEvents(text)) {
    const prelude = event.preludeEvent as { config?: Record<string, unknown> } | undefined;
    if (prelude?.config) config = prelude.config;
    const outputs = event.resOutputsEvent as { metadata?: StepMetadata } | undefined;
    const metadata = outputs?.metadata;
    if (metadata?.urn !== undefined) {
      steps.push({
        op: metadata.op ?? "same",
        urn: metadata.urn,
        ...(metadata.type !== undefined ? { type: metadata.type } : {}),
        ...(metadata.old ? { oldState: metadata.old } : {}),
        ...(metadata.new ? { newState: metadata.new } : {}),
      });
    }
    const diagnostic = event.diagnosticEvent as { severity?: string; message?: string } | undefined;
    if (diagnostic?.severity === "error" && diagnostic.message) errors.push(diagnostic.message.trim());
    const summary = event.summaryEvent as { result?: string } | undefined;
    if (summary !== undefined) succeeded = summary.result === undefined || summary.result === "succeeded";
  }
  return { config, steps, errors, succeeded };
}
