/**
 * Opt-in transient faults and latency. A fault strikes either before the request is handled
 * (nothing changed) or after it was applied with the response lost, as on a real network; the
 * seeded PRNG makes a run repeatable.
 */
import { createRandom } from "./random";

export type FaultKind = 503 | 408 | "drop";

export interface Fault {
  readonly kind: FaultKind;
  readonly when: "before" | "after";
}

export interface FaultOptions {
  readonly faultRate?: number;
  readonly latencyMs?: readonly [number, number];
  readonly seed: number;
  readonly failNext?: {
    readonly status: FaultKind;
    readonly times: number;
    readonly when?: "before" | "after";
  };
}

const KINDS: readonly FaultKind[] = [503, 408, "drop"];

export class FaultPlan {
  readonly #random: () => number;
  readonly #rate: number;
  readonly #latency: readonly [number, number] | undefined;
  #failNext: { status: FaultKind; times: number; when: "before" | "after" } | undefined;

  constructor(options: FaultOptions) {
    this.#random = createRandom(options.seed);
    this.#rate = Math.min(1, Math.max(0, options.faultRate ?? 0));
    this.#latency = options.latencyMs;
    if (options.failNext && options.failNext.times > 0) {
      this.#failNext = { ...options.failNext, when: options.failNext.when ?? "before" };
    }
  }

  /** Arms `times` faults for the next requests (tests). */
  failNext(status: FaultKind, times: number, when: "before" | "after" = "before"): void {
    this.#failNext = times > 0 ? { status, times, when } : undefined;
  }

  /** The fault for the next request, if any. */
  next(): Fault | undefined {
    if (this.#failNext) {
      const fault = { kind: this.#failNext.status, when: this.#failNext.when };
      this.#failNext.times--;
      if (this.#failNext.times <= 0) this.#failNext = undefined;
      return fault;
    }
    if (this.#rate <= 0 || this.#random() >= this.#rate) return undefined;
    const when = this.#random() < 0.5 ? "before" : "after";
    const kind = KINDS[Math.floor(this.#random() * KINDS.length)] ?? 503;
    return { kind, when };
  }

  /** Milliseconds to wait before handling the next request. */
  delay(): number {
    if (!this.#latency) return 0;
    const [min, max] = this.#latency;
    return Math.round(min + this.#random() * Math.max(0, max - min));
  }
}
