/**
 * The Deployment rolls in flight and their grace periods, for a shell that cuts off the xCAT
 * requests of the whole process on a cancel (the native provider's Cancel, src/native/server.ts).
 *
 * Why: after a cancel a roll keeps reading its batches' status for its grace period, so that a
 * node that boots the new image meanwhile is recorded as deployed and not re-imaged by the next
 * `up` (issue #36 item 8). Cutting the requests off at once made that read fail, and every node
 * of the batch was recorded as cancelled. So the cut-off waits until the rolls in flight have
 * ended, or until the longest grace period plus {@link LAST_READ_MS} has passed, whichever comes
 * first: a server that does not answer still does not hold the run.
 */

/** Time allowed for the read a roll makes when its grace period ends. */
export const LAST_READ_MS = 30_000;

/** The grace period (ms) of each roll in flight. */
const rolls = new Map<symbol, number>();
/** Those waiting for every roll to end. */
const waiting = new Set<() => void>();

/**
 * Runs a roll, known as in flight with `graceMs` until it ends.
 *
 * @example
 * const outcome = await asRollInFlight(60_000, () => deployWith(steps, plan, report));
 */
export async function asRollInFlight<T>(graceMs: number, roll: () => Promise<T>): Promise<T> {
  const key = Symbol("roll");
  rolls.set(key, graceMs);
  try {
    return await roll();
  } finally {
    rolls.delete(key);
    if (rolls.size === 0) for (const wake of [...waiting]) wake();
  }
}

/** How many rolls are in flight. */
export function rollsInFlight(): number {
  return rolls.size;
}

/**
 * Resolves once no roll is in flight, or after the longest grace period of those in flight now
 * plus {@link LAST_READ_MS}.
 *
 * @example
 * void rollsEnded().then(() => cancelProcessRequests(reason));
 */
export function rollsEnded(): Promise<void> {
  if (rolls.size === 0) return Promise.resolve();
  const longest = Math.max(...rolls.values());
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      waiting.delete(done);
      resolve();
    };
    const timer = setTimeout(done, longest + LAST_READ_MS);
    waiting.add(done);
  });
}
