/**
 * Request counters per route pattern.
 */
import type { EmulatorStats } from "./options";

export class StatsCounter {
  #total = 0;
  #faults = 0;
  readonly #byRoute = new Map<string, number>();

  count(routeKey: string): void {
    this.#total++;
    this.#byRoute.set(routeKey, (this.#byRoute.get(routeKey) ?? 0) + 1);
  }

  fault(): void {
    this.#faults++;
  }

  snapshot(): EmulatorStats {
    return { total: this.#total, byRoute: Object.fromEntries(this.#byRoute), faultsInjected: this.#faults };
  }
}
