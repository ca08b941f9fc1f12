/**
 * The emulator's cost model: makes each request take what it would take on a real xCAT
 * management node (request-cost.ts), sharing a fixed number of management-node CPUs
 * (cpu-scheduler.ts). Off by default, so tests and demos stay fast.
 */
import { CpuScheduler } from "./cpu-scheduler";
import { type RequestWork, requestCost } from "./request-cost";

/** Settings of the cost model (`startEmulator({ costModel: "xcat", mnCpus, costScale })`). */
export interface CostModelOptions {
  /** The management node's CPUs. Default 2, like the node the figures were measured on. */
  readonly mnCpus?: number | undefined;
  /** Multiplies every cost: 0.01 keeps the proportions at a hundredth of the time. Default 1. */
  readonly costScale?: number | undefined;
}

export interface CostModel {
  /** Resolves when the management node has done the request's work. */
  charge(work: RequestWork): Promise<void>;
  /** CPU-seconds charged so far (unscaled). */
  readonly cpuSeconds: number;
}

export function createCostModel(options: CostModelOptions = {}): CostModel {
  const scheduler = new CpuScheduler(options.mnCpus ?? 2);
  const scale = options.costScale ?? 1;
  let total = 0;
  return {
    charge(work) {
      const cost = requestCost(work);
      total += cost;
      return scheduler.run(cost * scale);
    },
    get cpuSeconds() {
      return total;
    },
  };
}
