/**
 * What a request costs the server the client talks to, measured as the run goes: the wall time
 * of answered requests, smoothed. Merged requests hold calls for at most about this long (see
 * coalescer.ts): waiting longer than a request takes can never save time.
 *
 * Why measured and not a constant: the same request takes 3 ms on the plain emulator, 0.3-0.5 s
 * on an idle 2-core xCAT management node and several seconds on a busy one (xcat-behavior.md
 * section 10), and it changes during a run as the node gets busier.
 */

/** Weight of the newest sample: a few requests are enough to follow a change of load. */
const SMOOTHING = 0.3;

export class RequestLatency {
  #ms: number | undefined;

  /** Records one answered request that took `ms` milliseconds. */
  record(ms: number): void {
    if (!(ms >= 0) || !Number.isFinite(ms)) return;
    this.#ms = this.#ms === undefined ? ms : this.#ms + SMOOTHING * (ms - this.#ms);
  }

  /**
   * The smoothed wall time of a request, in ms; `undefined` before the first answer.
   *
   * @example
   * ```ts
   * const latency = new RequestLatency();
   * latency.record(300);
   * latency.ms; // 300
   * ```
   */
  get ms(): number | undefined {
    return this.#ms;
  }
}
