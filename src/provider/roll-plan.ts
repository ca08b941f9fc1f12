/**
 * The decisions of a rolling re-image, without I/O: in which order the nodes go, how they are cut
 * into batches (a canary phase first), and whether the next batch may start (a cancel, a failed
 * canary, the failure budget or the deadline stop it). deploy.ts carries them out.
 */
import { batches } from "./node-batches";

/** What a roll needs to know of a node's previous deployment. */
export interface PreviousNodeState {
  readonly osimage: string;
  readonly deployed: boolean;
}

/**
 * The order in which `targets` are re-imaged with `osimage`: nodes not yet tried with it first,
 * then those that already failed with it (a broken node stays broken on a re-run, so it goes
 * last rather than be the next canary and stop the roll again). Otherwise the given order.
 *
 * @example
 * rollOrder(["n1", "n2", "n3"], { n1: { osimage: "img", deployed: false } }, "img"); // ["n2", "n3", "n1"]
 */
export function rollOrder(
  targets: readonly string[],
  previous: Readonly<Record<string, PreviousNodeState | undefined>>,
  osimage: string,
): string[] {
  const failedBefore = (node: string) => {
    const state = previous[node];
    return state !== undefined && state.osimage === osimage && !state.deployed;
  };
  return [...targets.filter((node) => !failedBefore(node)), ...targets.filter(failedBefore)];
}

/** The batches of a roll in two phases: the canary nodes, and the rest once every canary booted. */
export interface RollPhases {
  readonly canary: string[][];
  readonly rest: string[][];
}

/**
 * The first `canary` nodes as the canary phase, the others after; each phase cut into batches
 * of at most `batchSize` (one nodeset, rsetboot and rpower request each).
 *
 * @example
 * rollPhases(["a", "b", "c", "d", "e"], { batchSize: 2, canary: 1 }); // { canary: [["a"]], rest: [["b", "c"], ["d", "e"]] }
 */
export function rollPhases(
  nodes: readonly string[],
  policy: { readonly batchSize: number; readonly canary: number },
): RollPhases {
  const canary = nodes.slice(0, policy.canary);
  return {
    canary: batches(canary, policy.batchSize),
    rest: batches(nodes.slice(canary.length), policy.batchSize),
  };
}

/** What a roll knows when a batch is about to start. */
export interface RollProgress {
  /** The engine asked to cancel (Ctrl-C, SIGTERM to the CLI, its Cancel request). */
  readonly cancelled: boolean;
  /** The deadline (timeoutMinutes) has passed. */
  readonly timedOut: boolean;
  /** Nodes of this roll that failed or timed out so far. */
  readonly failures: number;
  readonly maxFailures: number;
  /** Canary nodes that did not boot, once the canary phase is over; empty before and when all booted. */
  readonly failedCanaries: readonly string[];
}

/**
 * Why no further batch may start, or `undefined` when the next one may. A cancel comes first,
 * as it is the admin's word; a batch already started is always sent in full, since stopping
 * between nodeset and rpower would leave nodes set to install but not rebooted (after a cancel
 * its boot is watched for the grace period only, deploy.ts).
 *
 * @example
 * stopReason({ cancelled: false, timedOut: false, failures: 2, maxFailures: 2, failedCanaries: [] });
 * // "2 node(s) failed, which reaches maxFailures (2)"
 */
export function stopReason(progress: RollProgress): string | undefined {
  if (progress.cancelled)
    return "the roll was cancelled (Ctrl-C or SIGTERM to pulumi, or the engine's cancel)";
  if (progress.failedCanaries.length > 0) {
    return `the canary node(s) ${progress.failedCanaries.join(", ")} did not boot the image`;
  }
  if (progress.failures >= progress.maxFailures) {
    return `${progress.failures} node(s) failed, which reaches maxFailures (${progress.maxFailures})`;
  }
  if (progress.timedOut) return "the timeout was reached";
  return undefined;
}
