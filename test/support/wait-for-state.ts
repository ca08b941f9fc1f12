/**
 * Waiting in a test for a state to be reached: a request the emulator saw, a line a process
 * printed, a flag the code under test set. The condition is checked every `everyMs` with no
 * deadline of its own: a state that never comes fails the test at the test's own timeout
 * (vitest's, set generously per project), whose signal ends the wait. Deadlines on the wall
 * clock here failed tests that were not broken on a busy machine (issue #40).
 *
 * @example
 * it("cancels between batches", async ({ signal }) => {
 *   await waitForState(() => powers(h) === 1, "the first batch to be sent", { signal });
 * });
 */

export interface WaitForStateOptions {
  /** The test's signal (vitest's TestContext `signal`), aborted when the test times out. */
  readonly signal: AbortSignal;
  /**
   * What the state depends on, e.g. the `pulumi up` that prints the awaited line: once it has
   * ended without the state, the state can no longer come, and the wait fails at once, naming it.
   */
  readonly until?: { readonly ended: Promise<unknown>; readonly what: string };
  /** How often the condition is checked. */
  readonly everyMs?: number;
}

/** Resolves once `condition()` holds; `what` names the state in the failure. */
export async function waitForState(
  condition: () => boolean,
  what: string,
  options: WaitForStateOptions,
): Promise<void> {
  const { signal, until, everyMs = 20 } = options;
  let ended = false;
  until?.ended.then(
    () => {
      ended = true;
    },
    () => {
      ended = true;
    },
  );
  for (;;) {
    if (condition()) return;
    if (ended) throw new Error(`${until?.what} ended before ${what}`);
    if (signal.aborted) throw new Error(`the test ended (its timeout) while waiting for ${what}`);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, everyMs);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      }
      signal.addEventListener("abort", done, { once: true });
    });
  }
}
