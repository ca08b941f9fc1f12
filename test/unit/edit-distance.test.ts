import { describe, expect, it } from "vitest";
import { editDistance } from "../../src/provider/edit-distance";
import { attributeMapProblems } from "../../src/provider/validation";

describe("editDistance", () => {
  it("counts insertions, deletions and substitutions", () => {
    expect(editDistance("bmc", "bmc", 3)).toBe(0);
    expect(editDistance("bmc", "bmcs", 3)).toBe(1);
    expect(editDistance("groups", "group", 3)).toBe(1);
    expect(editDistance("mtm", "mac", 3)).toBe(2);
  });

  it("counts two adjacent letters swapped as one edit", () => {
    expect(editDistance("bcm", "bmc", 3)).toBe(1);
    expect(editDistance("pi", "ip", 3)).toBe(1);
    expect(editDistance("postscirpts", "postscripts", 3)).toBe(1);
    // A swap and a substitution elsewhere: two edits.
    expect(editDistance("bcmx", "bmcs", 3)).toBe(2);
  });

  it("stops at the limit", () => {
    expect(editDistance("a", "abcdef", 3)).toBe(3);
    expect(editDistance("abc", "xyz", 2)).toBe(2);
  });
});

describe("the did-you-mean hint of a misspelt attribute", () => {
  it("names the attribute two swapped letters away (bcm: bmc, not mtm)", () => {
    expect(attributeMapProblems({ bcm: "10.1.0.1" }, "attributes", "node")).toEqual([
      "attributes: 'bcm' is not a node attribute in xCAT's schema (did you mean 'bmc'?)",
    ]);
  });
});
