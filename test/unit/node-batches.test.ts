import { describe, expect, it } from "vitest";
import { progressLine } from "../../src/provider/deploy";
import { batches, compactNoderange } from "../../src/provider/node-batches";

describe("compactNoderange", () => {
  it("writes runs of same-width numbered names as prefix[from-to], sorted", () => {
    expect(compactNoderange(["r01n01", "r01n02", "r01n03", "login", "r02n09", "r02n10"])).toBe(
      "login,r01n[01-03],r02n[09-10]",
    );
  });
  it("keeps gaps, single names, widths and bare numbers apart", () => {
    expect(compactNoderange(["n1", "n3", "n04", "n05", "7", "8"])).toBe("7,8,n1,n3,n[04-05]");
  });
  it("writes whole racks as one two-bracket range, which xCAT expands (NodeRange.pm:352-381)", () => {
    const names = ["r01n01", "r01n02", "r02n01", "r02n02"];
    expect(compactNoderange(names)).toBe("r[01-02]n[01-02]");
  });
  it("writes 1,000 nodes as one short range", () => {
    const names = Array.from({ length: 1000 }, (_, i) => `c${String(i + 1).padStart(4, "0")}`);
    expect(compactNoderange(names)).toBe("c[0001-1000]");
  });
});

describe("batches and progress", () => {
  it("cuts lists into batches of at most the size", () => {
    expect(batches([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
  it("counts statuses in order of first appearance", () => {
    expect(progressLine("r01[01-16]", ["installing", "booted", "installing", ""])).toBe(
      "r01[01-16]: installing 2, booted 1, unknown 1",
    );
  });
});
