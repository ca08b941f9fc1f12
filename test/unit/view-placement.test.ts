/** Where `pulumi-xcat view` draws each node (src/cli/view/placement.ts; the rule in docs/view.md). */
import { describe, expect, it } from "vitest";
import { placeNodes, positionFromName } from "../../src/cli/view/placement";

describe("view placement", () => {
  it("uses xCAT's rack, unit and room first, in unit order, rooms apart", () => {
    const placement = placeNodes([
      { name: "cn-b", rack: "3", unit: "12" },
      { name: "cn-a", rack: "3", unit: "2" },
      { name: "cn-c", rack: "03", unit: "40", room: "east" },
    ]);
    expect(placement.columns.map((c) => [c.title, c.nodes.map((n) => [n.node, n.position])])).toEqual([
      [
        "rack 3",
        [
          ["cn-a", 2],
          ["cn-b", 12],
        ],
      ],
      ["room east, rack 3", [["cn-c", 40]]],
    ]);
    expect(placement.unplaced).toEqual([]);
  });

  it("puts nodes of a rack without a unit below the numbered units, and says so", () => {
    const [rack] = placeNodes([
      { name: "n2", rack: "1" },
      { name: "n1", rack: "1", unit: "5" },
      { name: "n0", rack: "1", unit: "top" },
    ]).columns;
    expect(rack?.nodes.map((n) => n.node)).toEqual(["n1", "n0", "n2"]);
    expect(rack?.notes).toContain("n0: unit 'top' is not a number; drawn below the numbered units");
    expect(rack?.notes).toContain("2 without a unit, drawn below the numbered units in name order");
  });

  it("lists a node whose rack is not a number with a sentence naming the value, and places nothing for it", () => {
    const placement = placeNodes([{ name: "r01n05", rack: "left row", unit: "5" }]);
    expect(placement.columns).toEqual([]);
    expect(placement.unplaced).toHaveLength(1);
    expect(placement.unplaced[0]?.node).toBe("r01n05");
    expect(placement.unplaced[0]?.reason).toMatch(/rack is 'left row' .*not a rack number/);
  });

  it("uses chassis and slotid when there is no rack", () => {
    const [chassis] = placeNodes([
      { name: "blade2", chassis: "cmm01", slotid: "2" },
      { name: "blade1", chassis: "cmm01", slotid: "1" },
    ]).columns;
    expect(chassis?.title).toBe("chassis cmm01");
    expect(chassis?.nodes).toEqual([
      { node: "blade1", position: 1 },
      { node: "blade2", position: 2 },
    ]);
  });

  it("reads rack and slot from the usual name patterns", () => {
    expect(positionFromName("r01n05")).toEqual({ rack: 1, slot: 5 });
    expect(positionFromName("rack2-node10")).toEqual({ rack: 2, slot: 10 });
    expect(positionFromName("cn-r3u07")).toEqual({ rack: 3, slot: 7 });
    expect(positionFromName("compute05")).toBeUndefined();
    expect(positionFromName("r01")).toBeUndefined();
  });

  it("draws a rack from names with a note, merged with nodes whose rack attribute names the same rack", () => {
    const [rack] = placeNodes([
      { name: "r01n02" },
      { name: "r01n01" },
      { name: "spare", rack: "1", unit: "40" },
    ]).columns;
    expect(rack?.title).toBe("rack 1");
    expect(rack?.nodes.map((n) => n.node)).toEqual(["r01n01", "r01n02", "spare"]);
    expect(rack?.notes[0]).toBe("2 of 3 nodes placed by their names (no rack attribute set)");
  });

  it("falls back to one row per first group, and lists a node with nothing to go by", () => {
    const placement = placeNodes([
      { name: "login1", groups: ["login", "all"] },
      { name: "gpu7", groups: ["gpu"] },
      { name: "mystery", groups: [] },
    ]);
    expect(placement.columns.map((c) => [c.title, c.rule, c.nodes.map((n) => n.node)])).toEqual([
      ["group gpu", "group", ["gpu7"]],
      ["group login", "group", ["login1"]],
    ]);
    expect(placement.unplaced).toEqual([
      {
        node: "mystery",
        reason: "it has no rack, no chassis, no rack and slot in its name (r01n05) and no group",
      },
    ]);
  });

  it("notes two nodes in one position instead of hiding one", () => {
    const [rack] = placeNodes([
      { name: "a", rack: "1", unit: "4" },
      { name: "b", rack: "1", unit: "4" },
    ]).columns;
    expect(rack?.nodes).toHaveLength(2);
    expect(rack?.notes).toContain("a and b share position 4");
  });

  it("orders racks, then chassis, then group rows", () => {
    const placement = placeNodes([
      { name: "x", groups: ["g"] },
      { name: "y", chassis: "c1", slotid: "1" },
      { name: "r10n01" },
      { name: "r02n01" },
    ]);
    expect(placement.columns.map((c) => c.title)).toEqual(["rack 2", "rack 10", "chassis c1", "group g"]);
  });
});
