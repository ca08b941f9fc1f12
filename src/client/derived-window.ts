/**
 * How long what xCAT added to a created object is taken as known for the next objects of the
 * same shape (see `reportAfterCreate` in resources/objects.ts).
 *
 * Why it may grow with the server's pace: the window does not make outputs fresher than the
 * objects created before it. A hand edit of a group during a run leaves the outputs of every node
 * created before the edit just as stale as those answered from the window; the next refresh finds
 * both. What the window bounds is how long a run goes on answering from one read, and a slow
 * management node needs more time for the same run: a real xCAT 2.19 whose mkdef took 10-13 s
 * re-read every shape each minute, 46 of a 200-node `up`'s 252 requests (issue #25). So the window
 * is a minute, or the time of {@link REQUESTS_PER_WINDOW} requests on a slower server.
 */

/** The window on a server answering within 6 s: the changes of others show up after a minute. */
export const MIN_DERIVED_WINDOW_MS = 60_000;
/** Requests' worth of time the window spans on a slow server. */
export const REQUESTS_PER_WINDOW = 10;

/**
 * The window for a server whose requests take `requestMs` (undefined before any answer).
 *
 * @example
 * ```ts
 * derivedWindowMs(300); // 60_000
 * derivedWindowMs(12_000); // 120_000
 * ```
 */
export function derivedWindowMs(requestMs: number | undefined): number {
  return Math.max(MIN_DERIVED_WINDOW_MS, REQUESTS_PER_WINDOW * (requestMs ?? 0));
}
