/**
 * What a change puts back that was changed by hand on the management node (issue #37 item 2).
 *
 * A preview without a refresh compares the program with the state, so an object deleted or edited
 * by hand since the last `up` shows as unchanged, and a review of an unrelated change hides that
 * the apply leaves the drift in place, or, once the state is refreshed, silently puts it back.
 * `pulumi preview --refresh --json` reads every object first, in memory (the state is not written:
 * docs/approved-plans.md), and lists a `refresh` step per resource whose `oldState` is what the
 * state recorded; the steps that follow compare the program with what the server holds. So:
 *
 * - an update whose `oldState` (the server's values) differs at a path from the recorded state
 *   puts back a hand edit there: `bmc: 10.1.1.33 (changed by hand) → 10.1.1.3`;
 * - a create of a resource the state recorded re-creates an object deleted by hand.
 *
 * These resources are also the ones `review.sh up` refreshes (and only those) before applying the
 * plan, so that the apply does what the review showed: see {@link handEditTargets}.
 *
 * Pure; the preview JSON is that of plan-summary.ts.
 */
import type { PreviewState, PreviewStep } from "./plan-summary";

/** The state each resource had before the preview's refresh, by URN (empty without a refresh). */
export function recordedStates(preview: unknown): Map<string, PreviewState> {
  const recorded = new Map<string, PreviewState>();
  for (const step of (preview as { steps?: PreviewStep[] } | null)?.steps ?? []) {
    if (step.op === "refresh" && step.urn !== undefined && step.oldState !== undefined)
      recorded.set(step.urn, step.oldState);
  }
  return recorded;
}

/** How a step's change meets a hand edit: none, a re-creation, or the paths edited by hand. */
export type HandEdit =
  | { readonly kind: "none" }
  | { readonly kind: "deleted" }
  /** `recorded` holds, per input path, the value the state had before the object was edited. */
  | { readonly kind: "edited"; readonly recorded: ReadonlyMap<string, unknown> };

const NONE: HandEdit = { kind: "none" };

/**
 * What of `step` puts back a hand edit. `valueAt` reads an input path (`attributes.bmc`) as
 * plan-summary.ts does; `paths` are the paths the step changes.
 */
export function handEditOf(
  step: PreviewStep,
  recorded: ReadonlyMap<string, PreviewState>,
  paths: readonly string[],
  valueAt: (inputs: Record<string, unknown> | undefined, path: string) => unknown,
): HandEdit {
  const before = step.urn === undefined ? undefined : recorded.get(step.urn);
  if (before === undefined) return NONE;
  if (step.op === "create" || step.op === "create-replacement") return { kind: "deleted" };
  if (step.op !== "update" && step.op !== "replace") return NONE;
  const edited = new Map<string, unknown>();
  for (const path of paths) {
    const was = valueAt(before.inputs, path);
    const now = valueAt(step.oldState?.inputs, path);
    if (JSON.stringify(was) !== JSON.stringify(now)) edited.set(path, was);
  }
  return edited.size > 0 ? { kind: "edited", recorded: edited } : NONE;
}

/**
 * The URNs whose step puts back a hand edit: what `review.sh up` refreshes, with `pulumi refresh
 * --target`, before `pulumi up --plan`. A plan made after a refresh expects these objects as the
 * server holds them; the state still records them as they were, and without the refresh the apply
 * would see no change where the review showed one (an object deleted by hand stays recorded, so its
 * re-creation would not happen). Refreshing only these keeps an edit made after the review on any
 * other object out of the apply, as the review never showed it.
 */
export function handEditTargets(
  preview: unknown,
  changedPaths: (step: PreviewStep) => string[],
  valueAt: (inputs: Record<string, unknown> | undefined, path: string) => unknown,
): string[] {
  const recorded = recordedStates(preview);
  const targets = new Set<string>();
  for (const step of (preview as { steps?: PreviewStep[] } | null)?.steps ?? []) {
    if (step.urn === undefined || step.op === "refresh" || step.op === "same") continue;
    if (handEditOf(step, recorded, changedPaths(step), valueAt).kind !== "none") targets.add(step.urn);
  }
  return [...targets].sort();
}
