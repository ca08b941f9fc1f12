/**
 * The management node's CPUs, shared by the requests in flight (processor sharing): each request
 * needs some CPU-seconds of work and runs at min(PER_REQUEST_CPUS, cpus / requests in flight)
 * CPUs until its work is done. So one request alone answers in work / 1.13 s, and 16 single-node
 * GETs at once take about 4.3 s on 2 CPUs, as on the real service (xcat-behavior.md section 10:
 * 0.48, 0.67, 1.16, 2.1, 4.5 s for 1, 2, 4, 8, 16).
 */
import { clearTimeout, setTimeout } from "node:timers";

/** How many CPUs one request can keep busy: the CGI and xcatd overlap a little. */
export const PER_REQUEST_CPUS = 1.13;

/**
 * The time the scheduler runs on. Real time by default; a unit test passes a clock it steps by
 * hand, so the sharing can be checked in modelled seconds without a test depending on how fast
 * the machine running it is (issue #40).
 */
export interface SchedulerClock {
  /** Milliseconds, as performance.now(). */
  now(): number;
  /** Calls `run` after `ms` milliseconds; the result is handed back to {@link cancel}. */
  after(ms: number, run: () => void): unknown;
  cancel(timer: unknown): void;
}

const REAL_TIME: SchedulerClock = {
  now: () => performance.now(),
  after(ms, run) {
    const timer = setTimeout(run, ms);
    // A pending request must not keep the process alive.
    timer.unref?.();
    return timer;
  },
  cancel: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

interface Job {
  /** CPU-seconds still to do. */
  remaining: number;
  readonly done: () => void;
}

export class CpuScheduler {
  readonly #cpus: number;
  readonly #clock: SchedulerClock;
  readonly #jobs = new Set<Job>();
  /** When the rates were last applied, in ms. */
  #since: number;
  #timer: unknown;

  constructor(cpus: number, clock: SchedulerClock = REAL_TIME) {
    if (!(cpus > 0)) throw new RangeError(`cpus must be positive, not ${cpus}`);
    this.#cpus = cpus;
    this.#clock = clock;
    this.#since = clock.now();
  }

  /** Requests being served now. */
  get running(): number {
    return this.#jobs.size;
  }

  /** Resolves when `cpuSeconds` of work has been done for this request. */
  run(cpuSeconds: number): Promise<void> {
    if (!(cpuSeconds > 0)) return Promise.resolve();
    return new Promise((resolve) => {
      this.#advance();
      this.#jobs.add({ remaining: cpuSeconds, done: resolve });
      this.#schedule();
    });
  }

  #rate(): number {
    return Math.min(PER_REQUEST_CPUS, this.#cpus / Math.max(1, this.#jobs.size));
  }

  /** Applies the work done since the last change of the set of jobs. */
  #advance(): void {
    const now = this.#clock.now();
    const done = ((now - this.#since) / 1000) * this.#rate();
    this.#since = now;
    for (const job of this.#jobs) job.remaining -= done;
  }

  #schedule(): void {
    if (this.#timer !== undefined) this.#clock.cancel(this.#timer);
    this.#timer = undefined;
    // Finish what is (within a microsecond) done, then wait for the next one.
    for (const job of this.#jobs) {
      if (job.remaining <= 1e-6) {
        this.#jobs.delete(job);
        job.done();
      }
    }
    if (this.#jobs.size === 0) return;
    const next = Math.min(...[...this.#jobs].map((job) => job.remaining));
    const ms = (next / this.#rate()) * 1000;
    this.#timer = this.#clock.after(Math.max(0, ms), () => {
      this.#timer = undefined;
      this.#advance();
      this.#schedule();
    });
  }
}
