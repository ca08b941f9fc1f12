/**
 * How the benchmark shows a step that was modelled, not waited (--not-waited): the emulator
 * charged and counted its requests but answered them at once, so its wall time is that of a
 * server answering at once, not the management node's. Its requests and management-node
 * CPU-seconds are shown; its wall time never is, nor anything computed from it.
 */

/** The table's wall cell of a step's result. */
export const wallCell = (result) => (result.notWaited ? "not waited" : (result.wallMs / 1000).toFixed(1));

/** The bench: line's seconds field of a step's result (`not-waited`, or s with one decimal; NaN when not run). */
export function secondsField(result) {
  if (result === undefined) return "NaN";
  return result.notWaited ? "not-waited" : (result.wallMs / 1000).toFixed(1);
}

/**
 * A bar's result: a bar on wall time (`onWall`) says nothing for a step not waited, so it is
 * n/a there; a bar on requests holds either way (marked "(not waited)" in its measured text).
 */
export function barResult({ onWall, notWaited, applies, from, met }) {
  if (onWall && notWaited) return "n/a (not waited)";
  if (!applies) return `n/a below ${from} nodes`;
  return met ? "met" : "MISSED";
}

/** The line under the table for a step not waited: what the charged CPU means in time. */
export function notWaitedNote(step, variant, result, mnCpus) {
  const s = result.mnCpuS / mnCpus;
  return (
    `${step} ${variant}: modelled, not waited (--not-waited): ${result.requests} requests charged ${result.mnCpuS.toFixed(0)} CPU-s ` +
    `of the management node, at least ${s.toFixed(0)} s (${(s / 60).toFixed(1)} min) on its ${mnCpus} CPUs; ` +
    `the engine and provider ran ${(result.wallMs / 1000).toFixed(1)} s against a server answering at once.`
  );
}
