/**
 * The rules of `pulumi-xcat import`, one by one: xCAT regex values, inheritance reduction,
 * what a fresh management node holds, suspicious data, pattern detection with per-node
 * overrides, and the code they turn into.
 */
import { describe, expect, it } from "vitest";
import { inline, LINE_WIDTH, layout, statement } from "../../src/cli/import/code-format";
import { ownXcatAttributes, SECRET_PLACEHOLDER } from "../../src/cli/import/confluent";
import {
  isDefaultGroupAttribute,
  isDefaultPolicy,
  isDefaultPostscripts,
  isDefaultSiteValue,
} from "../../src/cli/import/defaults";
import {
  duplicateAddresses,
  looksLikeMistypedIpv4,
  macEntries,
  mistypedAddresses,
  mistypedInterfaces,
  undefinedGroups,
  validationFindings,
} from "../../src/cli/import/findings";
import { renderProgram } from "../../src/cli/import/render";
import { parseImportArgs } from "../../src/cli/import/run";
import { findRuns, variationOf } from "../../src/cli/import/runs";
import type { NodeAttributes } from "../../src/client/confluent";
import {
  xcatRegexOfExpression,
  xcatRegexToExpression,
} from "../../src/contract/confluent/xcat-attribute-map";
import { ownAttributes } from "../../src/contract/node-inheritance";
import { expandXcatRegex, isXcatRegex } from "../../src/contract/xcat-regex";

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
      { groups },
    );
    expect(own).toEqual({ mac: "aa" });
  });
  it("keeps a value the node overrides, and follows the order of groups", () => {
    expect(ownAttributes("n12", { groups: "compute", ip: "10.9.9.9" }, { groups })).toEqual({
      ip: "10.9.9.9",
    });
    expect(ownAttributes("g1", { groups: "gpu,compute", arch: "ppc64le" }, { groups })).toEqual({});
    expect(ownAttributes("g1", { groups: "compute,gpu", arch: "ppc64le" }, { groups })).toEqual({
      arch: "ppc64le",
    });
  });
});

describe("inheritance reduction: xCAT's default scripts, nodeset's values, a node's state (issue #36 item 5)", () => {
  // The stock xcatdefaults row (xcat-behavior.md 5.2); lsdef shows it in front of the node's
  // own or inherited scripts, `default,own` (DBobjUtils.pm ~3845-3885).
  const defaults = { postscripts: "syslog,remoteshell,syncfiles", postbootscripts: "otherpkgs" };
  const groups = new Map([["compute", { postscripts: "confignetwork,setupntp", mgt: "ipmi" }]]);
  const images = new Map([
    ["rocky9-compute", { osvers: "rocky9.4", osarch: "x86_64", profile: "compute", provmethod: "netboot" }],
  ]);
  const sources = { groups, defaults, images };

  it("drops the default scripts lsdef puts in front, and a group's scripts after them", () => {
    const reported = {
      groups: "compute,all",
      postscripts: "syslog,remoteshell,syncfiles,confignetwork,setupntp",
      postbootscripts: "otherpkgs",
      mgt: "ipmi",
    };
    expect(ownAttributes("n01", reported, sources)).toEqual({});
  });
  it("keeps only the node's own scripts, without the defaults in front", () => {
    const reported = { groups: "compute", postscripts: "syslog,remoteshell,syncfiles,custom", mgt: "ipmi" };
    expect(ownAttributes("n01", reported, sources)).toEqual({ postscripts: "custom" });
    // A node of no group with scripts: its own part only.
    expect(
      ownAttributes("n02", { groups: "other", postbootscripts: "otherpkgs,late" }, { groups, defaults }),
    ).toEqual({ postbootscripts: "late" });
  });
  it("keeps a value that merely starts like the defaults", () => {
    expect(
      ownAttributes("n01", { groups: "other", postscripts: "syslog,remoteshell" }, { groups, defaults }),
    ).toEqual({ postscripts: "syslog,remoteshell" });
  });
  it("drops os, arch and profile that nodeset took from the node's image, keeps the image and a value of its own", () => {
    const deployed = {
      groups: "compute",
      provmethod: "rocky9-compute",
      os: "rocky9.4",
      arch: "x86_64",
      profile: "compute",
      currstate: "netboot rocky9.4-x86_64-compute",
      status: "booted",
      statustime: "11-26-2026 17:00:00",
    };
    expect(ownAttributes("n01", deployed, sources)).toEqual({ provmethod: "rocky9-compute" });
    expect(ownAttributes("n01", { ...deployed, profile: "gpu" }, sources)).toEqual({
      provmethod: "rocky9-compute",
      profile: "gpu",
    });
    // Without the image read (--kinds without osimages) nothing is assumed.
    expect(ownAttributes("n01", deployed, { groups, defaults })).toEqual({
      provmethod: "rocky9-compute",
      os: "rocky9.4",
      arch: "x86_64",
      profile: "compute",
    });
  });
});

describe("a Confluent object's own values in the program's names (issue #36 item 9)", () => {
  // Shapes as a real 3.15.6 answers (real-confluent.md items 7, 8, 10).
  const reported = (entries: Record<string, unknown>): NodeAttributes =>
    new Map(
      Object.entries(entries).map(([name, value]) => [
        name,
        (Array.isArray(value) ? { value } : value) as NodeAttributes extends Map<string, infer A> ? A : never,
      ]),
    );
  it("keeps own values, leaves inherited ones and Confluent's bookkeeping to the server", () => {
    const left: string[] = [];
    const own = ownXcatAttributes(
      "node 'n1'",
      reported({
        groups: ["compute", "everything"],
        "hardwaremanagement.method": { inheritedfrom: "compute", value: "ipmi" },
        "hardwaremanagement.manager": { value: "10.1.0.1" },
        "console.logging": { value: "none" },
        "secret.hardwaremanagementpassword": { isset: true },
        "secret.hardwaremanagementuser": { inheritedfrom: "compute", isset: true },
        "net.ipv4_address": { expression: "10.0.{n1}", inheritedfrom: "compute", value: "10.0.1" },
        "id.index": { value: 3 },
        "deployment.profile": { value: "rocky-9.4-x86_64-default" },
        "custom.owner": { value: "alice" },
      }),
      left,
    );
    expect(own).toEqual({
      groups: ["compute"],
      attributes: { bmc: "10.1.0.1", consoleondemand: "yes", bmcpassword: SECRET_PLACEHOLDER },
    });
    expect(left).toEqual([
      "node 'n1': custom.owner (no attribute of the program maps to it; kept on the server as they are)",
    ]);
  });
  it("writes a group's expression as the xCAT regex that translates back to it, and says when none does", () => {
    const left: string[] = [];
    const own = ownXcatAttributes(
      "group 'g'",
      reported({
        "net.ipv4_address": { expression: "10.0.{n1}.{n2+100}" },
        "hardwaremanagement.manager": { expression: "{node}-bmc" },
      }),
      left,
    );
    expect(own.attributes).toEqual({ ip: "|^\\D*(\\d+)\\D+(\\d+)|10.0.($1+0).($2+100)|" });
    expect(left[0]).toContain("hardwaremanagement.manager holds the expression '{node}-bmc'");
  });
  it("translates expressions both ways exactly, or not at all", () => {
    for (const expression of ["10.0.{n1}.{n2}", "10.{n1*2+1}.0.{n2-1}", "n{n1:03d}-bmc", "{{x}}{n1}"]) {
      const regex = xcatRegexOfExpression(expression);
      expect(regex).toBeDefined();
      expect(xcatRegexToExpression(regex ?? "")).toEqual({ expression });
    }
    for (const expression of ["{n0}", "{node}", "{net.hostname}", "a$b{n1}", "plain"])
      expect(xcatRegexOfExpression(expression)).toBeUndefined();
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
        overrides: {},
      },
    ]);
  });

  it("keeps a rack with odd nodes as one run, their values as overrides (null: the node lacks one)", () => {
    const nodes = Array.from({ length: 12 }, (_, i) => {
      const n = i + 1;
      const attributes: Record<string, string> = { ip: `10.0.1.${n}`, installnic: "eth0" };
      if (n === 5) attributes.ip = "10.0.1.4"; // a duplicate
      if (n === 7) attributes.installnic = "eht0"; // a typo
      if (n === 9) delete attributes.installnic;
      if (n === 11) attributes.usercomment = "replaced board";
      return {
        ...node(`r01n${String(n).padStart(2, "0")}`, attributes),
        groups: n === 3 ? ["rack1"] : ["compute"],
      };
    });
    const { runs, singles } = findRuns(nodes);
    expect(singles).toEqual([]);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.attributes).toEqual({
      installnic: { kind: "constant", value: "eth0" },
      ip: { kind: "step", prefix: "10.0.1.", first: 1 },
    });
    expect(runs[0]?.groups).toEqual(["compute"]);
    expect(runs[0]?.overrides).toEqual({
      r01n03: { groups: ["rack1"], attributes: {} },
      r01n05: { attributes: { ip: "10.0.1.4" } },
      r01n07: { attributes: { installnic: "eht0" } },
      r01n09: { attributes: { installnic: null } },
      r01n11: { attributes: { usercomment: "replaced board" } },
    });
  });

  it("gives up a run when most of its nodes would need overrides", () => {
    const nodes = [1, 2, 3, 4].map((n) => node(`n0${n}`, { ip: `10.9.${n * 7}.${n * 3}`, os: `os${n % 3}` }));
    expect(findRuns(nodes).runs).toEqual([]);
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
    // Each resource adopts, inline or on a line of its own when the call is broken.
    expect(source.match(/(, adopt \}|^\s+adopt,$)/gm)?.length).toBe(4);
  });

  it("writes a run's odd nodes as one override map and keeps every line within 120 columns", () => {
    const long = Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [`usercomment${i}`, `a fairly long comment number ${i}`]),
    );
    const { source } = renderProgram({
      groups: [["compute", long]],
      osimages: [],
      networks: [],
      policies: [],
      site: [["domain", "hpc.example.org"]],
      tableRows: [],
      runs: [
        {
          prefix: "r01n",
          suffix: "",
          width: 2,
          first: 1,
          last: 12,
          groups: ["compute", "rack01", "all"],
          attributes: { ip: { kind: "step", prefix: "10.0.1.", first: 1 } },
          overrides: {
            r01n09: { attributes: { bmc: "10.1.1.O9" } },
            r01n03: { groups: ["compute", "rack1", "all"], attributes: { ip: null } },
          },
        },
      ],
      singles: [],
    });
    expect(source.split("\n").filter((text) => text.length > LINE_WIDTH)).toEqual([]);
    expect(source).toContain('r01n09: { attributes: { bmc: "10.1.1.O9" } },');
    expect(source).toContain('r01n03: { groups: ["compute","rack1","all"], attributes: { ip: null } },');
    expect(source).toContain('groups: odd[name]?.groups ?? ["compute","rack01","all"],');
    expect(source).toContain("adopt,\n");
    expect(source).toContain("withOverrides({ ip: step(run.ip, n - run.first) }, odd[name]?.attributes)");
    expect(source).toContain(
      'new xcat.GlobalConfAttribute("site-domain", { name: "domain", value: "hpc.example.org" }, keep);',
    );
  });
});

describe("layout of generated code", () => {
  it("keeps what fits on one line and breaks the rest one element per line", () => {
    const short = { call: "f", args: ['"a"', { object: [["adopt", "adopt"]] as [string, string][] }] };
    expect(inline(short)).toBe('f("a", { adopt })');
    expect(statement("", "", short)).toBe('f("a", { adopt });');
    const wide = { array: Array.from({ length: 20 }, (_, i) => `"value-${i}"`) };
    const text = layout(wide, "", 0, ";");
    expect(text.split("\n")).toHaveLength(22);
    expect(text.split("\n").every((line) => line.length <= LINE_WIDTH)).toBe(true);
  });
});

describe("what a fresh management node holds (xcatconfig initDB, by value)", () => {
  it("leaves out only site values xcatconfig writes, and keeps values it takes from the machine", () => {
    expect(isDefaultSiteValue("db2installloc", "/mntdb2")).toBe(true);
    expect(isDefaultSiteValue("consoleondemand", "no")).toBe(true);
    expect(isDefaultSiteValue("consoleondemand", "yes")).toBe(false);
    expect(isDefaultSiteValue("domain", "cluster.local")).toBe(false);
    expect(isDefaultSiteValue("timezone", "UTC")).toBe(false);
    expect(isDefaultSiteValue("master", "10.0.0.1")).toBe(false);
    expect(isDefaultSiteValue("nameservers", "10.0.0.1")).toBe(false);
    expect(isDefaultSiteValue("myownkey", "1")).toBe(false);
  });
  it("compares policy and postscripts rows whole; the MN's own name in policy 1.2 is the admin's", () => {
    expect(isDefaultPolicy("1", { name: "root", rule: "allow" })).toBe(true);
    expect(isDefaultPolicy("1", { name: "root", rule: "deny" })).toBe(false);
    expect(isDefaultPolicy("4.4", { commands: "getpostscript", rule: "allow", comments: "mine" })).toBe(
      false,
    );
    expect(isDefaultPolicy("1.2", { name: "xcatmn", rule: "trusted" })).toBe(false);
    expect(isDefaultPolicy("6", { name: "wsuser", rule: "allow" })).toBe(false);
    expect(
      isDefaultPostscripts("xcatdefaults", {
        postscripts: "syslog,remoteshell,syncfiles",
        postbootscripts: "otherpkgs",
      }),
    ).toBe(true);
    expect(isDefaultPostscripts("xcatdefaults", { postscripts: "syslog,remoteshell,syncfiles,ntp" })).toBe(
      false,
    );
  });
  it("takes grouptype=static as xCAT's own, anything else as the admin's", () => {
    expect(isDefaultGroupAttribute("grouptype", "static")).toBe(true);
    expect(isDefaultGroupAttribute("grouptype", "dynamic")).toBe(false);
    expect(isDefaultGroupAttribute("os", "static")).toBe(false);
  });
});

describe("suspicious data", () => {
  it("finds ip, bmc and MACs two nodes share, MACs case-blind and per | entry", () => {
    expect(macEntries("AA:BB:CC:00:00:01!n01-ib|aa:bb:cc:00:00:02")).toEqual([
      "aa:bb:cc:00:00:01",
      "aa:bb:cc:00:00:02",
    ]);
    const findings = duplicateAddresses(
      new Map([
        ["n01", { ip: "10.0.0.1", bmc: "10.1.0.1", mac: "aa:bb:cc:00:00:01" }],
        ["n02", { ip: "10.0.0.1", bmc: "10.1.0.2", mac: "52:54:00:00:00:09|AA:BB:CC:00:00:01" }],
        ["n03", { ip: "10.0.0.3", bmc: "10.1.0.2" }],
      ]),
    );
    expect(findings.map((finding) => finding.text)).toEqual([
      "duplicate ip 10.0.0.1: n01, n02",
      "duplicate bmc 10.1.0.2: n02, n03",
      "duplicate mac aa:bb:cc:00:00:01: n01, n02",
    ]);
  });
  it("names groups no definition holds that look like a typo of a defined one, not plain tags", () => {
    const findings = undefinedGroups(
      new Map([
        ["r02n03", ["compute", "rack1"]],
        ["r02n04", ["compute", "rack02", "all", "tagonly"]],
      ]),
      new Set(["compute", "rack01", "rack02"]),
    );
    expect(findings.map((finding) => finding.text)).toEqual([
      "group 'rack1' is named by r02n03 but defined nowhere (did you mean 'rack01'?)",
    ]);
  });
  it("takes 10.1.1.O9 and 10.0.0.256 for mistyped addresses, not host names or real addresses", () => {
    expect(looksLikeMistypedIpv4("10.1.1.O9")).toBe(true);
    expect(looksLikeMistypedIpv4("10.l.1.9")).toBe(true);
    expect(looksLikeMistypedIpv4("10.0.0.256")).toBe(true);
    expect(looksLikeMistypedIpv4("10.1.1.9")).toBe(false);
    expect(looksLikeMistypedIpv4("bmc.rack1.lab")).toBe(false);
    expect(looksLikeMistypedIpv4("lo.io.ol.il")).toBe(false);
    expect(mistypedAddresses(new Map([["n1", { bmc: "10.1.1.O9" }]]))[0]?.text).toBe(
      "n1: bmc=10.1.1.O9 looks like a mistyped IP address (10.1.1.O9)",
    );
  });
  it("takes eht0 for a misspelt interface name, not eth0, ens3, ib0 or mac", () => {
    const nodes = new Map([
      ["a", { installnic: "eht0" }],
      ["b", { installnic: "eth0", primarynic: "ens3" }],
      ["c", { installnic: "mac", primarynic: "ib0" }],
    ]);
    expect(mistypedInterfaces(nodes).map((finding) => finding.text)).toEqual([
      "a: installnic=eht0 does not look like an interface name (eth0?)",
    ]);
  });
  it("reports what the provider's own check would refuse at preview", () => {
    const findings = validationFindings({
      groups: [],
      osimages: [],
      networks: [],
      policies: [],
      site: [],
      tableRows: [],
      runs: [],
      singles: [{ name: "n1", groups: ["bad,group"], attributes: { nosuchattribute: "x" } }],
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((finding) => finding.kind === "invalid" && finding.text.startsWith("n1: "))).toBe(
      true,
    );
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
  it("takes --with only for the cluster-wide kinds a --noderange import leaves out", () => {
    const args = parseImportArgs(["--out", "x", "--noderange", "r01n[01-04]", "--with", "site,policy"], {});
    if (args === "help") throw new Error("unexpected help");
    expect([...args.with]).toEqual(["site", "policy"]);
    expect(() => parseImportArgs(["--out", "x", "--with", "nodes"], {})).toThrow(
      /--with: 'nodes' is not one of site, policy, networks/,
    );
  });
});
