/**
 * A NodeSet's reports in the state's compact form (node-set-reports.ts): what every node reports
 * alike once, per node what neither that nor its row says; expanded, each node's report exactly
 * as xCAT gave it.
 */
import { describe, expect, it } from "vitest";
import {
  compactReports,
  expandReports,
  NOT_REPORTED,
  reportsOfOutputs,
} from "../../src/provider/node-set-reports";

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

describe("against the rows the outputs hold", () => {
  const rows = {
    r01n01: { ip: "10.0.1.1" },
    r01n02: { ip: "10.0.1.2", provmethod: "img-b" },
    // The row says arch, the node does not report it (xCAT did not keep it).
    r01n03: { ip: "10.0.1.3", arch: "x86_64" },
  };

  it("leaves out of a node's entry what its row says, and marks a row value not reported", () => {
    expect(compactReports(nodes, reported, rows).nodeAttributes).toEqual({
      r01n01: { arch: "x86_64", provmethod: "img-a" },
      r01n02: { arch: "x86_64" },
      r01n03: { arch: NOT_REPORTED, provmethod: "img-a", room: "r1" },
    });
  });

  it("expands back to each node's report exactly: the marker takes the row's value away", () => {
    const { nodeAttributes, sharedAttributes } = compactReports(nodes, reported, rows);
    const whole = expandReports(nodeAttributes, sharedAttributes, rows);
    expect(whole).toEqual(Object.fromEntries(reported));
    expect(whole.r01n03).not.toHaveProperty("arch");
    expect(reportsOfOutputs({ rows, nodeAttributes, sharedAttributes })).toEqual(whole);
  });

  it("keeps a value xCAT reports otherwise than the row holds it (lsdef's postscripts)", () => {
    const scripts = new Map([
      ["n1", { groups: "all", postscripts: "syslog,remoteshell,mine", ip: "10.0.0.1" }],
      ["n2", { groups: "all", postscripts: "syslog,remoteshell,mine", ip: "10.0.0.2" }],
    ]);
    const own = { n1: { ip: "10.0.0.1", postscripts: "mine" }, n2: { ip: "10.0.0.2", postscripts: "mine" } };
    const compact = compactReports(["n1", "n2"], scripts, own);
    expect(compact.nodeAttributes).toEqual({ n1: {}, n2: {} });
    expect(compact.sharedAttributes.postscripts).toBe("syslog,remoteshell,mine");
    expect(expandReports(compact.nodeAttributes, compact.sharedAttributes, own)).toEqual(
      Object.fromEntries(scripts),
    );
  });

  it("takes a row's empty value (a refresh's common value the node does not hold) as nothing", () => {
    const held = new Map([["n1", { groups: "all", ip: "10.0.0.1" }]]);
    const heldRows = { n1: { ip: "10.0.0.1", provmethod: "" } };
    const compact = compactReports(["n1"], held, heldRows);
    expect(expandReports(compact.nodeAttributes, compact.sharedAttributes, heldRows)).toEqual({
      n1: { groups: "all", ip: "10.0.0.1" },
    });
  });

  // The earlier writes recorded a row value only for a node that reported it (an up records
  // the rows it wrote and read back, a refresh the rows as read): rows as those writes left them.
  const { arch: _notReported, ...r01n03 } = rows.r01n03;
  const writtenRows = { ...rows, r01n03 };

  it("reads the form written with sharedAttributes before the rows were left out the same", () => {
    const { nodeAttributes, sharedAttributes } = compactReports(nodes, reported);
    expect(expandReports(nodeAttributes, sharedAttributes, writtenRows)).toEqual(
      Object.fromEntries(reported),
    );
  });

  it("reads a state written whole the same, with rows", () => {
    const written = Object.fromEntries(reported);
    expect(reportsOfOutputs({ rows: writtenRows, nodeAttributes: written })).toEqual(written);
  });

  it("would show, in those earlier forms only, a row value the node did not report", () => {
    // The one case the earlier forms cannot tell apart; their writes never recorded it (above).
    const written = Object.fromEntries(reported);
    expect(reportsOfOutputs({ rows, nodeAttributes: written }).r01n03?.arch).toBe("x86_64");
  });
});
