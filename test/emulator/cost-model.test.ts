/**
 * The cost model in a running emulator: requests take the management node's time and share its
 * CPUs, so concurrency saturates as on a real xCAT 2.19 with 2 cores (xcat-behavior.md
 * section 10: 1, 2, 4, 8, 16 concurrent single-node GETs took 0.48, 0.67, 1.16, 2.1, 4.5 s).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { call, createNode } from "./helpers";

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return (performance.now() - start) / 1000;
}

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

  it("one GET takes about what it takes a real management node (0.36-0.47 s)", async () => {
    const wall = await timed(() => call(xcat, "GET", "/nodes/n1"));
    expect(wall).toBeGreaterThan(0.36 * 0.7);
    expect(wall).toBeLessThan(0.47 * 1.3);
    expect(await timed(() => call(plain, "GET", "/nodes/n1"))).toBeLessThan(0.2);
  });

  it("stats() report the management node's CPU-seconds charged, only with the model on", async () => {
    const before = xcat.stats().mnCpuSeconds ?? 0;
    await call(xcat, "GET", "/nodes/n1");
    // A single-node GET costs ~0.5 CPU-s (request-cost.ts).
    expect((xcat.stats().mnCpuSeconds ?? 0) - before).toBeGreaterThan(0.4);
    expect((xcat.stats().mnCpuSeconds ?? 0) - before).toBeLessThan(0.6);
    expect(plain.stats().mnCpuSeconds).toBeUndefined();
  });

  it("8 concurrent single GETs share 2 CPUs: about 2.1 s, not 0.4", async () => {
    const wall = await timed(() =>
      Promise.all(Array.from({ length: 8 }, () => call(xcat, "GET", "/nodes/n1"))),
    );
    expect(wall).toBeGreaterThan(2.1 * 0.7);
    expect(wall).toBeLessThan(2.1 * 1.3);
  });

  it("mnCpus sets the CPUs, and costScale scales every time", async () => {
    const fast = await startEmulator({ costModel: "xcat", mnCpus: 4, costScale: 0.2 });
    try {
      await createNode(fast, "n1", { groups: "all" });
      // 8 GETs on 4 CPUs at a tenth of the cost: about 8 × 0.5 / 4 / 10 = 0.1 s of management-node
      // time (plus this machine's own HTTP time), against 2.1 s on 2 CPUs at full cost.
      const wall = await timed(() =>
        Promise.all(Array.from({ length: 8 }, () => call(fast, "GET", "/nodes/n1"))),
      );
      expect(wall).toBeGreaterThan(0.1 * 0.7);
      expect(wall).toBeLessThan(0.6);
    } finally {
      await fast.close();
    }
  });
});
