/**
 * The rules of `pulumi-xcat import`, one by one: xCAT regex values, inheritance reduction,
 * pattern detection, and the code they turn into.
 */
import { describe, expect, it } from "vitest";
import { ownAttributes } from "../../src/cli/import/inheritance";
import { renderProgram } from "../../src/cli/import/render";
import { parseImportArgs } from "../../src/cli/import/run";
import { findRuns, variationOf } from "../../src/cli/import/runs";
import { expandXcatRegex, isXcatRegex } from "../../src/cli/import/xcat-regex";

describe("xCAT regex values (Table.pm transRegexAttrs)", () => {
  it("evaluates the arithmetic in parentheses for the node's captures", () => {
    expect(isXcatRegex("|\\D+(\\d+)|10.0.0.($1+0)|")).toBe(true);
    expect(expandXcatRegex("|\\D+(\\d+)|10.0.0.($1+0)|", "node007")).toBe("10.0.0.7");
    expect(expandXcatRegex("|r(\\d+)n(\\d+)|10.($1*2+1).0.($2-1)|", "r03n10")).toBe("10.7.0.9");
  });
  it("leaves the value as it is when the node's name does not match, as xCAT does", () => {
    expect(expandXcatRegex("|x(\\d+)|10.0.0.($1)|", "login")).toBe("|x(\\d+)|10.0.0.($1)|");
    expect(isXcatRegex("10.0.0.1")).toBe(false);
  });
});

describe("inheritance reduction", () => {
  const groups = new Map([
    ["compute", { mgt: "ipmi", ip: "|\\D+(\\d+)|10.0.0.($1+0)|", arch: "x86_64" }],
    ["gpu", { arch: "ppc64le" }],
  ]);
  it("drops what the first group setting an attribute gives, regex values expanded", () => {
    const own = ownAttributes(
      "n12",
      { groups: "compute,all", mgt: "ipmi", ip: "10.0.0.12", mac: "aa" },
      groups,
    );
    expect(own).toEqual({ mac: "aa" });
  });
  it("keeps a value the node overrides, and follows the order of groups", () => {
    expect(ownAttributes("n12", { groups: "compute", ip: "10.9.9.9" }, groups)).toEqual({ ip: "10.9.9.9" });
    expect(ownAttributes("g1", { groups: "gpu,compute", arch: "ppc64le" }, groups)).toEqual({});
    expect(ownAttributes("g1", { groups: "compute,gpu", arch: "ppc64le" }, groups)).toEqual({
      arch: "ppc64le",
    });
  });
});

describe("pattern detection", () => {
  const node = (name: string, attributes: Record<string, string>) => ({
    name,
    groups: ["compute"],
    attributes,
  });
  it("finds a run with stepping decimal values and hex MACs", () => {
    const nodes = [1, 2, 3, 4].map((n) =>
      node(`r01n0${n}`, { ip: `10.0.1.${n}`, mac: `52:54:00:01:00:0${n}` }),
    );
    const { runs, singles } = findRuns(nodes);
    expect(singles).toEqual([]);
    expect(runs).toEqual([
      {
        prefix: "r01n",
        suffix: "",
        width: 2,
        first: 1,
        last: 4,
        groups: ["compute"],
        attributes: {
          ip: { kind: "step", prefix: "10.0.1.", first: 1 },
          mac: { kind: "hex", prefix: "52:54:00:01:00:", first: 1 },
        },
      },
    ]);
  });
  it("lists values that follow no step, and leaves gaps, short runs and odd shapes as single nodes", () => {
    expect(variationOf(["a", "c", "b"])).toEqual({ kind: "listed", values: ["a", "c", "b"] });
    const nodes = [
      node("n01", { ip: "1.1.1.1" }),
      node("n02", { ip: "1.1.1.2" }),
      node("n04", { ip: "1.1.1.4" }),
      node("login", { ip: "1.1.1.9" }),
    ];
    const { runs, singles } = findRuns(nodes);
    expect(runs).toEqual([]);
    expect(singles.map((entry) => entry.name)).toEqual(["n01", "n02", "n04", "login"]);
  });
});

describe("code generation", () => {
  it("writes references, secrets, adopt and protect, never a password", () => {
    const { source, secrets } = renderProgram({
      groups: [["compute", { mgt: "ipmi", bmcpassword: "hunter2", provmethod: "img1" }]],
      osimages: [["img1", { imagetype: "linux" }]],
      networks: [],
      policies: [],
      site: [],
      tableRows: [],
      runs: [],
      singles: [
        { name: "vm1", groups: ["vms"], attributes: { vmhost: "host1" } },
        { name: "host1", groups: ["hosts"], attributes: { ip: "10.0.0.1" } },
      ],
    });
    expect(source).not.toContain("hunter2");
    expect(secrets).toEqual([{ key: "compute-bmcpassword", holds: "bmcpassword of compute" }]);
    expect(source).toContain('bmcpassword: config.requireSecret("compute-bmcpassword")');
    expect(source).toContain("provmethod: img1.name");
    expect(source.indexOf("const host1 =")).toBeLessThan(source.indexOf("vmhost: host1.name"));
    expect(source).toContain("const keep: pulumi.CustomResourceOptions = { protect: true };");
    expect(source.match(/, adopt \}, keep\);/g)?.length).toBe(4);
  });
});

describe("command line", () => {
  it("needs --out, maps connection flags onto XCAT_* settings and rejects unknown kinds", () => {
    expect(() => parseImportArgs([], {})).toThrow(/--out DIR is required/);
    expect(() => parseImportArgs(["--out", "x", "--kinds", "nodes,racks"], {})).toThrow(
      /unknown kind 'racks'/,
    );
    const args = parseImportArgs(["--out", "x", "--url", "https://mn", "--insecure", "--exclude", "r0*"], {});
    if (args === "help") throw new Error("unexpected help");
    expect(args.env).toMatchObject({ XCAT_URL: "https://mn", XCAT_INSECURE: "true" });
    expect(args.exclude[0]?.test("r01n01")).toBe(true);
    expect(args.exclude[0]?.test("login")).toBe(false);
  });
});
