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

interface Job {
  /** CPU-seconds still to do. */
  remaining: number;
  readonly done: () => void;
}

export class CpuScheduler {
  readonly #cpus: number;
  readonly #jobs = new Set<Job>();
  /** When the rates were last applied, in ms. */
  #since = performance.now();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(cpus: number) {
    if (!(cpus > 0)) throw new RangeError(`cpus must be positive, not ${cpus}`);
    this.#cpus = cpus;
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
    const now = performance.now();
    const done = ((now - this.#since) / 1000) * this.#rate();
    this.#since = now;
    for (const job of this.#jobs) job.remaining -= done;
  }

  #schedule(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
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
    this.#timer = setTimeout(
      () => {
        this.#advance();
        this.#schedule();
      },
      Math.max(0, ms),
    );
    this.#timer.unref?.();
  }
}
