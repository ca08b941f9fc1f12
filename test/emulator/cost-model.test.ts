/**
 * The cost model in a running emulator: each request waits for the management node's time,
 * sharing its CPUs (xcat-behavior.md section 10). How long the model says requests take, alone
 * and concurrent, is checked in modelled time in test/unit/emulator-cpu-scheduler.test.ts; here
 * the emulator must wait at least that long, and the options must reach the model. Only lower
 * bounds on the test's clock: a busy machine can only make a request slower (issue #40).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { PER_REQUEST_CPUS } from "../../src/emulator/cost/cpu-scheduler";
import { call, createNode } from "./helpers";

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return (performance.now() - start) / 1000;
}

/** A single-node GET costs 0.5 CPU-s (request-cost.ts). */
const GET_CPU_S = 0.5;
/** Timers may fire a millisecond early; the bounds allow for it and nothing else. */
const AT_LEAST = 0.98;

const eightGets = (emulator: RunningEmulator) =>
  Promise.all(Array.from({ length: 8 }, () => call(emulator, "GET", "/nodes/n1")));

describe("the xcat cost model", () => {
  let xcat: RunningEmulator;
  let plain: RunningEmulator;
  beforeAll(async () => {
    xcat = await startEmulator({ costModel: "xcat" });
    plain = await startEmulator();
    for (const emulator of [xcat, plain]) await createNode(emulator, "n1", { groups: "all" });
  });
  afterAll(async () => {
    await xcat.close();
    await plain.close();
  });

  it("one GET waits what it takes a real management node alone (0.44 s modelled)", async () => {
    const wall = await timed(() => call(xcat, "GET", "/nodes/n1"));
    expect(wall).toBeGreaterThanOrEqual((GET_CPU_S / PER_REQUEST_CPUS) * AT_LEAST);
  });

  it("stats() report the management node's CPU-seconds charged, only with the model on", async () => {
    const before = xcat.stats().mnCpuSeconds ?? 0;
    await call(xcat, "GET", "/nodes/n1");
    // A single-node GET costs ~0.5 CPU-s (request-cost.ts).
    expect((xcat.stats().mnCpuSeconds ?? 0) - before).toBeGreaterThan(0.4);
    expect((xcat.stats().mnCpuSeconds ?? 0) - before).toBeLessThan(0.6);
    expect(plain.stats().mnCpuSeconds).toBeUndefined();
    // Without the model nothing is charged: the plain emulator's requests cost this machine only.
    await call(plain, "GET", "/nodes/n1");
    expect(plain.stats().mnCpuSeconds).toBeUndefined();
  });

  it("8 concurrent single GETs share 2 CPUs: at least 2 s, not the 0.44 s of one", async () => {
    const before = xcat.stats().mnCpuSeconds ?? 0;
    const wall = await timed(() => eightGets(xcat));
    // 8 × 0.5 CPU-s on 2 CPUs; were each request served on a CPU of its own, 0.44 s.
    expect((xcat.stats().mnCpuSeconds ?? 0) - before).toBeCloseTo(8 * GET_CPU_S, 1);
    expect(wall).toBeGreaterThanOrEqual(((8 * GET_CPU_S) / 2) * AT_LEAST);
  });

  it("mnCpus sets the CPUs: 8 GETs on 1 CPU at a quarter of the cost take at least 1 s", async () => {
    // 8 × 0.5 × 0.25 / 1 = 1 s; on the default 2 CPUs it would be 0.5 s.
    const one = await startEmulator({ costModel: "xcat", mnCpus: 1, costScale: 0.25 });
    try {
      await createNode(one, "n1", { groups: "all" });
      expect(await timed(() => eightGets(one))).toBeGreaterThanOrEqual(
        ((8 * GET_CPU_S * 0.25) / 1) * AT_LEAST,
      );
    } finally {
      await one.close();
    }
  });

  it("setCostModelWaits(false) answers at once and still charges: a later GET overtakes one waiting", async () => {
    expect(plain.setCostModelWaits).toBeUndefined();
    const before = xcat.stats();
    const order: string[] = [];
    // Modelled 0.44 s; the switch below does not cut a request already waiting.
    const waiting = call(xcat, "GET", "/nodes/n1").then(() => order.push("waited"));
    // Let the first reach the model before the switch goes off.
    while ((xcat.stats().mnCpuSeconds ?? 0) === before.mnCpuSeconds)
      await new Promise((r) => setTimeout(r, 5));
    xcat.setCostModelWaits?.(false);
    try {
      await call(xcat, "GET", "/nodes/n1").then(() => order.push("not waited"));
    } finally {
      xcat.setCostModelWaits?.(true);
    }
    await waiting;
    expect(order).toEqual(["not waited", "waited"]);
    const after = xcat.stats();
    expect(after.total - before.total).toBe(2);
    expect((after.mnCpuSeconds ?? 0) - (before.mnCpuSeconds ?? 0)).toBeCloseTo(2 * GET_CPU_S, 1);
    expect((after.mnCpuSecondsNotWaited ?? 0) - (before.mnCpuSecondsNotWaited ?? 0)).toBeCloseTo(
      GET_CPU_S,
      1,
    );
  });

  it("costScale scales every time, not the CPU-seconds reported", async () => {
    // Twice the cost: a lone GET waits at least 0.88 s, where unscaled it waits 0.44 s.
    const slow = await startEmulator({ costModel: "xcat", costScale: 2 });
    try {
      await createNode(slow, "n1", { groups: "all" });
      const before = slow.stats().mnCpuSeconds ?? 0;
      const wall = await timed(() => call(slow, "GET", "/nodes/n1"));
      expect(wall).toBeGreaterThanOrEqual(((2 * GET_CPU_S) / PER_REQUEST_CPUS) * AT_LEAST);
      expect((slow.stats().mnCpuSeconds ?? 0) - before).toBeCloseTo(GET_CPU_S, 1);
    } finally {
      await slow.close();
    }
  });
});
