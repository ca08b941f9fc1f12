/**
 * The decisions of a rolling re-image (issue 29 item 3): node order, canary phase, and when no
 * further batch may start (cancel, failed canary, maxFailures, deadline).
 */
import { describe, expect, it } from "vitest";
import { rollOrder, rollPhases, stopReason } from "../../src/provider/roll-plan";

const going = { cancelled: false, timedOut: false, failures: 0, maxFailures: 1, failedCanaries: [] };

describe("rollOrder", () => {
  it("keeps the given order, putting nodes that already failed with this image last", () => {
    const previous = {
      n1: { osimage: "b", deployed: false },
      n2: { osimage: "a", deployed: true },
      n4: { osimage: "a", deployed: false },
    };
    expect(rollOrder(["n1", "n2", "n3", "n4"], previous, "b")).toEqual(["n2", "n3", "n4", "n1"]);
    // For another image, an earlier failure says nothing.
    expect(rollOrder(["n1", "n2", "n3", "n4"], previous, "c")).toEqual(["n1", "n2", "n3", "n4"]);
  });
});

describe("rollPhases", () => {
  const twelve = Array.from({ length: 12 }, (_, i) => `r02n${String(i + 1).padStart(2, "0")}`);

  it("without a canary, cuts the nodes into batches of batchSize", () => {
    const phases = rollPhases(twelve, { batchSize: 4, canary: 0 });
    expect(phases.canary).toEqual([]);
    expect(phases.rest.map((batch) => batch.length)).toEqual([4, 4, 4]);
    expect(phases.rest[0]).toEqual(["r02n01", "r02n02", "r02n03", "r02n04"]);
  });

  it("puts the first canary nodes in a phase of their own, cut by batchSize too", () => {
    expect(rollPhases(twelve, { batchSize: 4, canary: 1 })).toEqual({
      canary: [["r02n01"]],
      rest: [twelve.slice(1, 5), twelve.slice(5, 9), twelve.slice(9, 12)],
    });
    expect(rollPhases(twelve, { batchSize: 4, canary: 6 }).canary).toEqual([
      twelve.slice(0, 4),
      twelve.slice(4, 6),
    ]);
  });

  it("a canary larger than the roll makes every node a canary", () => {
    expect(rollPhases(["a", "b"], { batchSize: 4, canary: 5 })).toEqual({ canary: [["a", "b"]], rest: [] });
  });
});

describe("stopReason", () => {
  it("lets the next batch start while nothing stops the roll", () => {
    expect(stopReason(going)).toBeUndefined();
    expect(stopReason({ ...going, failures: 1, maxFailures: 2 })).toBeUndefined();
  });

  it("stops after a cancel, before anything else", () => {
    expect(
      stopReason({ ...going, cancelled: true, failures: 5, failedCanaries: ["n1"], timedOut: true }),
    ).toMatch(/^the roll was cancelled/);
  });

  it("stops when a canary did not boot, whatever maxFailures allows", () => {
    expect(stopReason({ ...going, failures: 1, maxFailures: 10, failedCanaries: ["r02n01"] })).toBe(
      "the canary node(s) r02n01 did not boot the image",
    );
  });

  it("stops once maxFailures nodes have failed", () => {
    expect(stopReason({ ...going, failures: 2, maxFailures: 2 })).toBe(
      "2 node(s) failed, which reaches maxFailures (2)",
    );
    expect(stopReason({ ...going, failures: 3, maxFailures: 2 })).toMatch(/reaches maxFailures/);
  });

  it("stops at the deadline", () => {
    expect(stopReason({ ...going, timedOut: true })).toBe("the timeout was reached");
  });
});
