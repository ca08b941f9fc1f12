/**
 * The provider's count of the engine's calls and its estimate of the engine's parallelism (issue
 * #25): merged requests go out as soon as every call the engine can make is waiting on them.
 */
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import {
  countedEngineCall,
  defaultEngineParallelism,
  engineCallers,
} from "../../src/provider/engine-callers";

describe("defaultEngineParallelism", () => {
  it("is PULUMI_PARALLEL when set, else 4 x GOMAXPROCS, else 4 x the CPUs (the CLI's default)", () => {
    expect(defaultEngineParallelism({ PULUMI_PARALLEL: "24" })).toBe(24);
    expect(defaultEngineParallelism({ GOMAXPROCS: "3" })).toBe(12);
    expect(defaultEngineParallelism({})).toBe(4 * availableParallelism());
    expect(defaultEngineParallelism({ PULUMI_PARALLEL: "zero", GOMAXPROCS: "-1" })).toBe(
      4 * availableParallelism(),
    );
  });
});

describe("engineCallers", () => {
  it("counts calls while they run and learns a limit above the default from what it has seen", async () => {
    const limit = defaultEngineParallelism();
    const releases: Array<() => void> = [];
    const calls = Array.from({ length: limit + 3 }, () =>
      countedEngineCall(() => new Promise<void>((resolve) => releases.push(resolve))),
    );
    expect(engineCallers.inProgress()).toBe(limit + 3);
    expect(engineCallers.limit()).toBe(limit + 3);
    for (const release of releases) release();
    await Promise.all(calls);
    expect(engineCallers.inProgress()).toBe(0);
    // A failed call is no longer under way either.
    await expect(countedEngineCall(() => Promise.reject(new Error("no")))).rejects.toThrow("no");
    expect(engineCallers.inProgress()).toBe(0);
  });
});
