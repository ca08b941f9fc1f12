/**
 * A clock for the cost model's CPU scheduler that moves only when a test says so, so figures
 * are checked in modelled time and do not depend on how busy the machine running the test is
 * (issue #40).
 */
import type { SchedulerClock } from "../../src/emulator/cost/cpu-scheduler";

/** Timers fire in due order, each at its own instant, when the test advances the clock. */
export class SteppedClock implements SchedulerClock {
  #now = 0;
  #timers = new Set<{ at: number; run: () => void }>();

  now(): number {
    return this.#now;
  }

  after(ms: number, run: () => void): unknown {
    const timer = { at: this.#now + ms, run };
    this.#timers.add(timer);
    return timer;
  }

  cancel(timer: unknown): void {
    this.#timers.delete(timer as { at: number; run: () => void });
  }

  /** Fires every timer due up to `ms`, letting the work each one finishes settle before the next. */
  async advanceTo(ms: number): Promise<void> {
    for (;;) {
      const next = [...this.#timers].filter((t) => t.at <= ms).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.#timers.delete(next);
      this.#now = next.at;
      next.run();
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.#now = ms;
  }
}
