/**
 * The cost model's processor sharing, in modelled time: requests in flight share the management
 * node's CPUs, each at most PER_REQUEST_CPUS, so concurrency saturates as on a real xCAT 2.19 with
 * 2 cores (xcat-behavior.md section 10: 1, 2, 4, 8, 16 concurrent single-node GETs took 0.48,
 * 0.67, 1.16, 2.1, 4.5 s). The scheduler runs on a clock this test steps by hand, so the figures
 * are the model's own and do not depend on how busy the machine running the test is (issue #40);
 * test/emulator/cost-model.test.ts checks that a running emulator waits for them.
 */
import { describe, expect, it } from "vitest";
import { CpuScheduler, PER_REQUEST_CPUS } from "../../src/emulator/cost/cpu-scheduler";
import { SteppedClock } from "../support/stepped-clock";

/** Starts `count` requests of `cpuSeconds` each at the clock's present; resolves to the seconds each finished at. */
function start(scheduler: CpuScheduler, clock: SteppedClock, count: number, cpuSeconds: number) {
  const finished: number[] = [];
  for (let i = 0; i < count; i += 1)
    void scheduler.run(cpuSeconds).then(() => finished.push(clock.now() / 1000));
  return finished;
}

/** A single-node GET costs 0.5 CPU-s (request-cost.ts; emulator-request-cost.test.ts). */
const GET_CPU_S = 0.5;

describe("the management node's CPUs, in modelled time", () => {
  it.each([
    [1, GET_CPU_S / PER_REQUEST_CPUS],
    [2, 0.5],
    [4, 1],
    [8, 2],
    [16, 4],
  ])("%i concurrent single-node GETs on 2 CPUs all finish at %f s", async (count, seconds) => {
    const clock = new SteppedClock();
    const scheduler = new CpuScheduler(2, clock);
    const finished = start(scheduler, clock, count, GET_CPU_S);
    await clock.advanceTo(seconds * 1000 - 1);
    expect(finished).toEqual([]);
    expect(scheduler.running).toBe(count);
    await clock.advanceTo(seconds * 1000 + 1);
    expect(finished).toHaveLength(count);
    for (const at of finished) expect(at).toBeCloseTo(seconds, 6);
    expect(scheduler.running).toBe(0);
    // Within ±30% of the real management node's wall time, as the calibration is held to.
    const measured = { 1: 0.48, 2: 0.67, 4: 1.16, 8: 2.1, 16: 4.5 }[count] ?? Number.NaN;
    expect(seconds).toBeGreaterThan(measured * 0.7);
    expect(seconds).toBeLessThan(measured * 1.3);
  });

  it("more CPUs serve more requests at once: 8 GETs on 4 CPUs take half the time", async () => {
    const clock = new SteppedClock();
    const finished = start(new CpuScheduler(4, clock), clock, 8, GET_CPU_S);
    await clock.advanceTo(10_000);
    expect(finished).toEqual(Array(8).fill(1));
  });

  it("a request that arrives later shares from then on, and the first speeds up when the other ends", async () => {
    const clock = new SteppedClock();
    const scheduler = new CpuScheduler(1, clock);
    // A: 1 CPU-s alone at 1 CPU for 0.5 s (0.5 left); then B (0.25 CPU-s) arrives and both run at
    // 0.5 CPU: B ends at 1.0 s, A has 0.25 left and ends alone at 1.25 s.
    const a = start(scheduler, clock, 1, 1);
    await clock.advanceTo(500);
    const b = start(scheduler, clock, 1, 0.25);
    await clock.advanceTo(10_000);
    expect(b[0]).toBeCloseTo(1.0, 6);
    expect(a[0]).toBeCloseTo(1.25, 6);
  });

  it("work of zero finishes at once, and the CPUs must be positive", async () => {
    const clock = new SteppedClock();
    const scheduler = new CpuScheduler(2, clock);
    await scheduler.run(0);
    expect(scheduler.running).toBe(0);
    expect(() => new CpuScheduler(0, clock)).toThrow(/cpus must be positive, not 0/);
  });
});
