/**
 * The benchmark's command line (bench/options.mjs) and how it marks a step that was modelled, not
 * waited (bench/not-waited.mjs): scripts/bench.mjs runs the steps `steps` names and switches the
 * emulators' cost model to charge-only for those `notWaited` names (the switch itself:
 * emulator-cost-model-waits.test.ts). Running the bench is what `npm run bench` is for.
 */
import { describe, expect, it } from "vitest";
import { barResult, notWaitedNote, secondsField, wallCell } from "../../bench/not-waited.mjs";
import { parseArgs } from "../../bench/options.mjs";

describe("bench options: --steps", () => {
  it("runs every step by default, roll@dflt only with a numeric --parallel", () => {
    expect(parseArgs([]).steps).toEqual(["up", "preview", "refresh", "roll", "destroy"]);
    expect(parseArgs(["--parallel", "100"]).steps).toEqual([
      "up",
      "preview",
      "refresh",
      "roll",
      "roll@dflt",
      "destroy",
    ]);
  });

  it("runs the steps named, in the life cycle's order whatever order they were given in", () => {
    expect(parseArgs(["--steps", "destroy,up,roll"]).steps).toEqual(["up", "roll", "destroy"]);
    expect(parseArgs(["--steps", "up"]).steps).toEqual(["up"]);
  });

  it("refuses a step list the life cycle cannot run", () => {
    expect(() => parseArgs(["--steps", "roll,destroy"])).toThrow(/--steps must include up/);
    expect(() => parseArgs(["--steps", "up,teardown"])).toThrow(/--steps: unknown step teardown/);
    expect(() => parseArgs(["--steps", "up,roll,up"])).toThrow(/--steps: up is named twice/);
    expect(() => parseArgs(["--steps", ""])).toThrow(/--steps needs at least one step/);
    expect(() => parseArgs(["--steps"])).toThrow(/--steps needs a value/);
    expect(() => parseArgs(["--steps", "up,roll@dflt,roll"])).toThrow(/needs a numeric --parallel/);
    expect(() => parseArgs(["--parallel", "8", "--steps", "up,roll@dflt"])).toThrow(/roll@dflt needs roll/);
    expect(() => parseArgs(["--rounds", "2", "--steps", "up,roll"])).toThrow(/include destroy with --rounds/);
    expect(parseArgs(["--rounds", "2", "--steps", "up,destroy"]).steps).toEqual(["up", "destroy"]);
  });
});

describe("bench options: --not-waited", () => {
  it("waits for every step by default", () => {
    expect(parseArgs([]).notWaited).toEqual([]);
  });

  it("takes a list of the steps run, in life-cycle order", () => {
    const options = parseArgs(["--steps", "up,roll,destroy", "--not-waited", "destroy,up"]);
    expect(options.notWaited).toEqual(["up", "destroy"]);
    expect(options.steps).toEqual(["up", "roll", "destroy"]);
    expect(parseArgs(["--not-waited", "up,roll,destroy"]).notWaited).toEqual(["up", "roll", "destroy"]);
  });

  it("keeps --up-not-waited as --not-waited up, alone or with it", () => {
    expect(parseArgs(["--up-not-waited"]).notWaited).toEqual(["up"]);
    expect(parseArgs(["--up-not-waited", "--not-waited", "destroy"]).notWaited).toEqual(["up", "destroy"]);
    expect(parseArgs(["--not-waited", "up", "--up-not-waited"]).notWaited).toEqual(["up"]);
  });

  it("refuses a step this run does not run, and an unknown one", () => {
    expect(() => parseArgs(["--steps", "up,destroy", "--not-waited", "roll"])).toThrow(
      "--not-waited names roll, which this run does not run (steps: up, destroy)",
    );
    expect(() => parseArgs(["--not-waited", "roll@dflt"])).toThrow(
      /names roll@dflt, which this run does not run/,
    );
    expect(() => parseArgs(["--not-waited", "create"])).toThrow(/--not-waited: unknown step create/);
  });

  it("needs the cost model: without it nothing waits, and a real management node cannot skip its work", () => {
    expect(() => parseArgs(["--cost-model", "none", "--not-waited", "destroy"])).toThrow(
      /--not-waited needs the cost model/,
    );
    expect(() => parseArgs(["--cost-model", "none", "--up-not-waited"])).toThrow(
      /--up-not-waited needs the cost model/,
    );
    const real = ["--url", "https://127.0.0.1/xcatws", "--access-log", "/dev/null", "--not-waited", "up"];
    const account = { XCAT_E2E_USERNAME: "u", XCAT_E2E_PASSWORD: "p" };
    expect(() => parseArgs(real, account)).toThrow(/--not-waited needs the cost model/);
    expect(parseArgs(real.slice(0, 4), account).costModel).toBe("real");
  });
});

describe("how a step not waited is shown", () => {
  const waited = { wallMs: 61_234, requests: 1_330, mnCpuS: 510.4, notWaited: false };
  const notWaited = { ...waited, notWaited: true };

  it("gives no wall figure: the table's cell and the bench: line say not waited", () => {
    expect(wallCell(waited)).toBe("61.2");
    expect(wallCell(notWaited)).toBe("not waited");
    expect(secondsField(waited)).toBe("61.2");
    expect(secondsField(notWaited)).toBe("not-waited");
    expect(secondsField(undefined)).toBe("NaN");
  });

  it("makes a bar on wall time n/a, and leaves a bar on requests standing", () => {
    expect(barResult({ onWall: true, notWaited: true, applies: true, met: true })).toBe("n/a (not waited)");
    expect(barResult({ onWall: true, notWaited: true, applies: true, met: false })).toBe("n/a (not waited)");
    expect(barResult({ onWall: true, notWaited: false, applies: true, met: false })).toBe("MISSED");
    expect(barResult({ onWall: false, notWaited: true, applies: true, met: false })).toBe("MISSED");
    expect(barResult({ onWall: false, notWaited: true, applies: true, met: true })).toBe("met");
    expect(barResult({ onWall: false, notWaited: false, applies: false, from: 1000, met: true })).toBe(
      "n/a below 1000 nodes",
    );
  });

  it("says what the charged CPU means in time, and what the wall it measured was", () => {
    expect(notWaitedNote("destroy", "batched", { ...notWaited, mnCpuS: 4_500 }, 2)).toBe(
      "destroy batched: modelled, not waited (--not-waited): 1330 requests charged 4500 CPU-s of the management node, " +
        "at least 2250 s (37.5 min) on its 2 CPUs; the engine and provider ran 61.2 s against a server answering at once.",
    );
  });
});
