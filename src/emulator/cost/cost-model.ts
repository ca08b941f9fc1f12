/**
 * The emulator's cost model: makes each request take what it would take on a real xCAT
 * management node (request-cost.ts), sharing a fixed number of management-node CPUs
 * (cpu-scheduler.ts). Off by default, so tests and demos stay fast.
 */
import { CpuScheduler, type SchedulerClock } from "./cpu-scheduler";
import { type RequestWork, requestCost } from "./request-cost";

/** Settings of the cost model (`startEmulator({ costModel: "xcat", mnCpus, costScale })`). */
export interface CostModelOptions {
  /** The management node's CPUs. Default 2, like the node the figures were measured on. */
  readonly mnCpus?: number | undefined;
  /** Multiplies every cost: 0.01 keeps the proportions at a hundredth of the time. Default 1. */
  readonly costScale?: number | undefined;
  /** The time the management node's CPUs run on (real time by default; a test steps its own). */
  readonly clock?: SchedulerClock | undefined;
}

export interface CostModel {
  /** Resolves when the management node has done the request's work (at once while not waiting). */
  charge(work: RequestWork): Promise<void>;
  /** CPU-seconds charged so far (unscaled), waited for or not. */
  readonly cpuSeconds: number;
  /** Of {@link cpuSeconds}, those charged while {@link waits} was false. */
  readonly cpuSecondsNotWaited: number;
  /**
   * Whether a request waits for the management node's time (default true). False charges the
   * request's CPU-seconds and answers at once: for a benchmark whose step of no interest (the
   * 10,000 creates of a first `up`, ~40 minutes of a 2-CPU management node) would otherwise hold
   * up the steps it measures. Requests already waiting finish as modelled; a request charged
   * while not waiting never occupies the CPUs, so the steps after it see an idle management node.
   */
  waits: boolean;
}

export function createCostModel(options: CostModelOptions = {}): CostModel {
  const scheduler = new CpuScheduler(options.mnCpus ?? 2, options.clock);
  const scale = options.costScale ?? 1;
  let total = 0;
  let notWaited = 0;
  let waits = true;
  return {
    charge(work) {
      const cost = requestCost(work);
      total += cost;
      if (!waits) {
        notWaited += cost;
        return Promise.resolve();
      }
      return scheduler.run(cost * scale);
    },
    get cpuSeconds() {
      return total;
    },
    get cpuSecondsNotWaited() {
      return notWaited;
    },
    get waits() {
      return waits;
    },
    set waits(on: boolean) {
      waits = on;
    },
  };
}
