/**
 * A NodeSet's reports in the state's compact form (node-set-reports.ts): what every node reports
 * alike once, per node what differs; expanded, each node's report exactly as xCAT gave it.
 */
import { describe, expect, it } from "vitest";
import { compactReports, expandReports, reportsOfOutputs } from "../../src/provider/node-set-reports";

const reported = new Map<string, Record<string, string>>([
  ["r01n01", { groups: "rack1,all", mgt: "ipmi", ip: "10.0.1.1", provmethod: "img-a", arch: "x86_64" }],
  ["r01n02", { groups: "rack1,all", mgt: "ipmi", ip: "10.0.1.2", provmethod: "img-b", arch: "x86_64" }],
  // Lacks arch (cleared by hand) and holds an attribute no other node holds.
  ["r01n03", { groups: "rack1,all", mgt: "ipmi", ip: "10.0.1.3", provmethod: "img-a", room: "r1" }],
]);
const nodes = ["r01n01", "r01n02", "r01n03"];

describe("compactReports", () => {
  it("keeps once what every node reports alike, and per node the rest", () => {
    expect(compactReports(nodes, reported)).toEqual({
      sharedAttributes: { groups: "rack1,all", mgt: "ipmi" },
      nodeAttributes: {
        r01n01: { arch: "x86_64", ip: "10.0.1.1", provmethod: "img-a" },
        r01n02: { arch: "x86_64", ip: "10.0.1.2", provmethod: "img-b" },
        r01n03: { ip: "10.0.1.3", provmethod: "img-a", room: "r1" },
      },
    });
  });

  it("expands back to each node's report exactly, never another node's value", () => {
    const { nodeAttributes, sharedAttributes } = compactReports(nodes, reported);
    const whole = expandReports(nodeAttributes, sharedAttributes);
    expect(whole).toEqual(Object.fromEntries(reported));
    expect(whole.r01n03).not.toHaveProperty("arch");
    expect(whole.r01n02?.provmethod).toBe("img-b");
  });

  it("leaves out nodes not reported, and has an entry for each reported node", () => {
    const { nodeAttributes, sharedAttributes } = compactReports(["r01n01", "r01n09", "r01n02"], reported);
    expect(Object.keys(nodeAttributes)).toEqual(["r01n01", "r01n02"]);
    expect(sharedAttributes).toEqual({ arch: "x86_64", groups: "rack1,all", mgt: "ipmi" });
  });

  it("gives a lone node everything as shared and an empty own entry; no nodes, nothing", () => {
    const one = compactReports(["r01n03"], reported);
    expect(one.nodeAttributes).toEqual({ r01n03: {} });
    expect(expandReports(one.nodeAttributes, one.sharedAttributes)).toEqual({
      r01n03: reported.get("r01n03"),
    });
    expect(compactReports([], reported)).toEqual({ sharedAttributes: {}, nodeAttributes: {} });
  });
});

describe("reading a state written before sharedAttributes (each node's report whole)", () => {
  it("expands it unchanged", () => {
    const written = Object.fromEntries(reported);
    expect(expandReports(written, undefined)).toEqual(written);
    expect(reportsOfOutputs({ noderange: "r01n[01-03]", nodeAttributes: written })).toEqual(written);
  });

  it("gives back what is not a map of nodes as it is, and no nodes for outputs without any", () => {
    expect(expandReports(undefined, { mgt: "ipmi" })).toBeUndefined();
    expect(reportsOfOutputs(undefined)).toEqual({});
    expect(reportsOfOutputs({ rows: {} })).toEqual({});
  });
});
