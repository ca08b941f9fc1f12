import { describe, expect, it } from "vitest";
import { heldRows, nodeSetChanges, planNodeSetUpdate, removedRows } from "../../src/provider/node-set-plan";

const set = (
  rows: Record<string, Record<string, string>>,
  attributes: Record<string, string> = { provmethod: "img1" },
) => ({
  groups: ["rack1", "all"],
  attributes,
  rows,
});
const rack = (count: number, ip = (n: number) => `10.0.1.${n}`) =>
  Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`r01n${String(i + 1).padStart(2, "0")}`, { ip: ip(i + 1) }]),
  );

describe("planNodeSetUpdate", () => {
  it("merges a common change into one write for every node", () => {
    expect(planNodeSetUpdate(set(rack(20)), set(rack(20), { provmethod: "img2" }))).toEqual({
      added: [],
      removed: [],
      writes: [{ nodes: Object.keys(rack(20)), changes: { provmethod: "img2" } }],
    });
  });

  it("writes a changed cell to its node alone, and lists rows added and removed", () => {
    const next = rack(21, (n) => (n === 3 ? "10.0.9.9" : `10.0.1.${n}`));
    delete next.r01n05;
    expect(planNodeSetUpdate(set(rack(20)), set(next))).toEqual({
      added: ["r01n21"],
      removed: ["r01n05"],
      writes: [{ nodes: ["r01n03"], changes: { ip: "10.0.9.9" } }],
    });
  });

  it('clears a dropped column ("") on every node that had it, in one write', () => {
    const withMac = Object.fromEntries(Object.entries(rack(3)).map(([n, row]) => [n, { ...row, mac: "x" }]));
    const plan = planNodeSetUpdate(set(withMac), set(rack(3)));
    expect(plan.writes).toEqual([{ nodes: ["r01n01", "r01n02", "r01n03"], changes: { mac: "" } }]);
  });

  it("sees no change between equal sets", () => {
    expect(nodeSetChanges(set(rack(5)), set(rack(5)))).toBe(false);
    expect(nodeSetChanges(set(rack(5)), set(rack(5), { provmethod: "img1", arch: "x86_64" }))).toBe(true);
  });

  it("says there are changes exactly when the plan sends something (it stops at the first node, merging nothing)", () => {
    const withMac = Object.fromEntries(Object.entries(rack(3)).map(([n, row]) => [n, { ...row, mac: "x" }]));
    // A node's value held as its own after a refresh (rows.r01n02.provmethod) that the set's
    // common value now equals again: nothing to send for it.
    const refreshed = set({ ...rack(3), r01n02: { ip: "10.0.1.2", provmethod: "img1" } });
    const cases: Array<[ReturnType<typeof set>, ReturnType<typeof set>]> = [
      [set(rack(5)), set(rack(5))],
      [set(rack(5)), set(rack(6))],
      [set(rack(6)), set(rack(5))],
      [set({ ...rack(2), r01n09: {} }), set({ ...rack(2), r01n08: {} })],
      [set(rack(3)), set(rack(3, (n) => (n === 3 ? "10.0.9.9" : `10.0.1.${n}`)))],
      [set(withMac), set(rack(3))],
      [set(rack(3)), set(withMac)],
      [set(rack(3)), set(rack(3), { provmethod: "img2" })],
      [set(rack(3)), { ...set(rack(3)), groups: ["rack2", "all"] }],
      [refreshed, set(rack(3))],
      [set(rack(3)), refreshed],
    ];
    for (const [previous, next] of cases) {
      const plan = planNodeSetUpdate(previous, next);
      const sends = plan.added.length + plan.removed.length + plan.writes.length > 0;
      expect(nodeSetChanges(previous, next)).toBe(sends);
    }
  });

  it("lists the rows removed, in name order", () => {
    const next = rack(4);
    delete next.r01n02;
    expect(removedRows(set(rack(6)), set(next))).toEqual(["r01n02", "r01n05", "r01n06"]);
    expect(removedRows(set(rack(3)), set(rack(3)))).toEqual([]);
  });
});

describe("heldRows", () => {
  it("reports a hand edit as that node's value, a common value held otherwise as the node's own, and leaves out a missing node", () => {
    const recorded = set(rack(3));
    const reported = new Map([
      ["r01n01", { groups: "rack1,all", provmethod: "img1", ip: "10.0.1.1" }],
      ["r01n02", { groups: "rack1,all", provmethod: "hand", ip: "10.0.7.7" }],
    ]);
    expect(heldRows(recorded, reported)).toEqual({
      r01n01: { ip: "10.0.1.1" },
      r01n02: { ip: "10.0.7.7", provmethod: "hand" },
    });
    // Applying the program again over what is held writes that node only.
    expect(planNodeSetUpdate({ ...recorded, rows: heldRows(recorded, reported) }, recorded)).toEqual({
      added: ["r01n03"],
      removed: [],
      writes: [{ nodes: ["r01n02"], changes: { ip: "10.0.1.2", provmethod: "img1" } }],
    });
  });
});
