/**
 * Noderange expansion (xcat-behavior.md §1.3) and the emulator's Perl-compatible output helpers
 * (§2.1, §2.4), as pure functions.
 */
import { describe, expect, it } from "vitest";
import { expandNoderange, splitNoderange } from "../../src/contract/noderange";
import { expandTemplate } from "../../src/contract/regex-values";
import { renderJson, xcoll } from "../../src/emulator/http/render";

const context = {
  isNode: (n: string) => ["n1", "n2", "n3", "node-01"].includes(n),
  groupMembers: (g: string) => (g === "compute" ? ["n2", "n3"] : undefined),
};

describe("noderange", () => {
  it.each([
    ["n1,n2", ["n1", "n2"]],
    ["n[1-3]", ["n1", "n2", "n3"]],
    ["c[01-03]", ["c01", "c02", "c03"]],
    ["n1-n3", ["n1", "n2", "n3"]],
    ["n1:n3", ["n1", "n2", "n3"]],
    ["n1+2", ["n1", "n2", "n3"]],
    ["compute", ["n2", "n3"]],
    ["compute,-n2", ["n3"]],
    ["compute@n[1-2]", ["n2"]],
    ["node-01", ["node-01"]],
    ["5", ["node5"]],
    ["n3,n1,n1", ["n1", "n3"]],
    ["ghost", ["ghost"]],
  ])("%s → %j", (range, expected) => {
    expect(expandNoderange(range, context)).toEqual(expected);
  });

  it("splits at top-level commas only", () => {
    expect(splitNoderange("n[1,3],g")).toEqual(["n[1,3]", "g"]);
  });
});

describe("output helpers", () => {
  it("pretty JSON matches Perl JSON indent(1) plus the CGI newline", () => {
    expect(renderJson({ a: { b: "c" }, l: ["x"], e: {} }, true)).toBe(
      '{\n   "a":{\n      "b":"c"\n   },\n   "l":[\n      "x"\n   ],\n   "e":{}\n}\n\n',
    );
    expect(renderJson(["a"], false)).toBe('["a"]\n');
  });

  it("xcoll merges equal values and drops scalars", () => {
    expect(xcoll({ n1: { p: "on" }, n2: { p: "on" }, n3: { p: "off" } })).toEqual({
      "n1,n2": { p: "on" },
      n3: { p: "off" },
    });
    expect(xcoll(["a"])).toEqual(["a"]);
    expect(xcoll({ info: "x" })).toEqual({ info: "x" });
  });

  it("group regex templates expand per node", () => {
    expect(expandTemplate("|\\D+(\\d+)|10.0.0.($1+10)|", "node5")).toBe("10.0.0.15");
    // Without brackets the replacement is literal (Table.pm transRegexAttrs; test/unit/regex-values.test.ts).
    expect(expandTemplate("|node(\\d+)|bmc($1)|", "node07")).toBe("bmc07");
    expect(expandTemplate("plain", "node1")).toBe("plain");
  });
});
