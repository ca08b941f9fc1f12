/**
 * `pulumi-xcat import --grain set` (issue #38 item 5): nodes grouped into one NodeSet per rack
 * (node-sets.ts), each set's inventory CSV (inventory-csv.ts) read back by the NodeSet's own CSV
 * reader, and the programs both languages write for them. Secrets and inherited values stay out
 * of the CSV: a node holding a password stays a Node, and only a node's own values reach a row.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Pulumi YAML expressions are written as text here.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { csvField, inventoryCsv } from "../../src/cli/import/inventory-csv";
import { groupIntoSets } from "../../src/cli/import/node-sets";
import { type ImportedCluster, renderProgram } from "../../src/cli/import/render";
import { renderYamlProgram } from "../../src/cli/import/render-yaml";
import { asNodeSets, parseImportArgs } from "../../src/cli/import/run";
import { findRuns, type NodeEntry } from "../../src/cli/import/runs";
import { csvRows } from "../../src/provider/node-set-rows";

const yaml = createRequire(import.meta.url)("js-yaml") as { load(text: string): unknown };

const node = (name: string, groups: string[], attributes: Record<string, string>): NodeEntry => ({
  name,
  groups,
  attributes,
});
const never = () => false;

describe("grouping imported nodes into NodeSets", () => {
  it("puts nodes with the same groups and the same name prefix into one set, named by the group of just them", () => {
    const entries = [
      ...[1, 2, 3].map((n) => node(`r01n0${n}`, ["compute", "rack01", "all"], { mac: `m1${n}` })),
      ...[1, 2].map((n) => node(`r02n0${n}`, ["compute", "rack02", "all"], { mac: `m2${n}` })),
    ];
    const { sets, singles } = groupIntoSets(entries, never);
    expect(singles).toEqual([]);
    expect(sets.map((set) => [set.name, set.rows.map(([name]) => name)])).toEqual([
      ["rack01", ["r01n01", "r01n02", "r01n03"]],
      ["rack02", ["r02n01", "r02n02"]],
    ]);
  });

  it("splits racks by their name prefix when the groups are the same, and names them by it", () => {
    const entries = ["r01n01", "r01n02", "r02n01", "r02n02"].map((name) =>
      node(name, ["compute", "all"], {}),
    );
    const { sets } = groupIntoSets(entries, never);
    expect(sets.map((set) => set.name)).toEqual(["r01n", "r02n"]);
  });

  it("takes xCAT's rack attribute over the name, and names the set by it", () => {
    const entries = [
      node("cn-a", ["compute", "all"], { rack: "7", ip: "10.0.0.1" }),
      node("cn-b", ["compute", "all"], { rack: "7", ip: "10.0.0.2" }),
      node("gpu1", ["compute", "all"], { rack: "8" }),
      node("gpu2", ["compute", "all"], { rack: "8" }),
    ];
    const { sets } = groupIntoSets(entries, never);
    expect(sets.map((set) => [set.name, set.rows.map(([name]) => name), set.attributes])).toEqual([
      ["rack7", ["cn-a", "cn-b"], { rack: "7" }],
      ["rack8", ["gpu1", "gpu2"], { rack: "8" }],
    ]);
  });

  it("keeps a node of other groups, a node alone in its rack and a node the caller marks alone as Nodes", () => {
    const entries = [
      node("r01n01", ["compute", "rack01", "all"], {}),
      node("r01n02", ["compute", "rack01", "all"], {}),
      node("r01n03", ["compute", "rack1", "all"], {}),
      node("login01", ["login", "all"], {}),
      node("r01n04", ["compute", "rack01", "all"], { bmcpassword: "x" }),
    ];
    const { sets, singles } = groupIntoSets(entries, (entry) => "bmcpassword" in entry.attributes);
    expect(sets.map((set) => set.rows.map(([name]) => name))).toEqual([["r01n01", "r01n02"]]);
    expect(singles.map((entry) => entry.name)).toEqual(["r01n03", "login01", "r01n04"]);
  });

  it("puts what every node holds alike into attributes and the rest into columns, a missing value blank", () => {
    const entries = [
      node("n01", ["all"], { mgt: "ipmi", ip: "10.0.0.1", installnic: "eth0" }),
      node("n02", ["all"], { mgt: "ipmi", ip: "10.0.0.2" }),
    ];
    const [set] = groupIntoSets(entries, never).sets;
    expect(set?.attributes).toEqual({ mgt: "ipmi" });
    expect(set?.columns).toEqual(["installnic", "ip"]);
    expect(set && inventoryCsv(set)).toBe("node,installnic,ip\nn01,eth0,10.0.0.1\nn02,,10.0.0.2\n");
  });

  it("gives two sets of the same name distinct names", () => {
    const entries = ["a1", "a2", "a3", "a4"].map((name, i) =>
      node(name, i < 2 ? ["x", "all"] : ["y", "all"], { rack: "R 1" }),
    );
    const names = groupIntoSets(entries, never).sets.map((set) => set.name);
    expect(names).toEqual(["R-1", "R-1-2"]);
  });
});

describe("the inventory CSV", () => {
  it("quotes a field with a comma, a quote, a line end or a space at either end, doubling quotes", () => {
    expect(csvField("plain-10.0.0.1")).toBe("plain-10.0.0.1");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField(" padded ")).toBe('" padded "');
  });

  it("reads back through the NodeSet's own CSV reader as the same rows", () => {
    const rows = [
      ["r01n01", { mac: "52:54:00:01:00:01|52:54:00:01:01:01!r01n01-ib", usercomment: 'rack 1, "top"' }],
      ["r01n02", { mac: "52:54:00:01:00:02", usercomment: " spaced " }],
      ["r01n03", { usercomment: "line one\nline two" }],
    ] as const;
    const text = inventoryCsv({ columns: ["mac", "usercomment"], rows });
    const read = csvRows(text, {});
    expect(read.problems).toEqual([]);
    expect(read.rows).toEqual(Object.fromEntries(rows));
  });
});

/** A cluster of two racks and a node with a password of its own. */
function cluster(): ImportedCluster {
  const entries = [
    ...[1, 2, 3].map((n) =>
      node(`r01n0${n}`, ["compute", "rack01", "all"], {
        mac: `52:54:00:01:00:0${n}`,
        provmethod: "rocky9-netboot",
        ...(n === 2 ? { installnic: "eth1" } : {}),
      }),
    ),
    node("r01n04", ["compute", "rack01", "all"], {
      mac: "52:54:00:01:00:04",
      bmcpassword: "node-own-secret",
    }),
  ];
  const { runs, singles } = findRuns(entries);
  return {
    groups: [["compute", { mgt: "ipmi", ip: "|r(\\d+)n(\\d+)|10.0.($1+0).($2+0)|" }]],
    osimages: [["rocky9-netboot", { imagetype: "linux" }]],
    networks: [],
    policies: [],
    site: [],
    tableRows: [],
    runs,
    singles,
  };
}

describe("the programs an import with --grain set writes", () => {
  const sets = asNodeSets(cluster());

  it("takes --grain, set by default for yaml (xCAT or Confluent), node for typescript", () => {
    expect(parseImportArgs(["--out", "x", "--language", "yaml"], {})).toMatchObject({ grain: "set" });
    expect(parseImportArgs(["--out", "x"], {})).toMatchObject({ grain: "node" });
    expect(parseImportArgs(["--out", "x", "--grain", "set"], {})).toMatchObject({ grain: "set" });
    expect(
      parseImportArgs(["--out", "x", "--language", "yaml"], { XCAT_BACKEND: "confluent" }),
    ).toMatchObject({ grain: "set" });
    expect(parseImportArgs(["--out", "x", "--grain", "set", "--backend", "confluent"], {})).toMatchObject({
      grain: "set",
    });
    expect(() => parseImportArgs(["--out", "x", "--grain", "rack"], {})).toThrow(
      "--grain: 'rack' is not one of node, set",
    );
  });

  it("keeps the node with a password of its own a Node, its secret from config, out of every file", () => {
    expect(sets.nodeSets?.map((set) => set.rows.map(([name]) => name))).toEqual([
      ["r01n01", "r01n02", "r01n03"],
    ]);
    expect(sets.singles.map((entry) => entry.name)).toEqual(["r01n04"]);
    const rendered = renderYamlProgram(sets);
    const texts = [rendered.source, ...(rendered.files ?? []).map((file) => file.text)];
    for (const text of texts) expect(text).not.toContain("node-own-secret");
    expect(rendered.secrets).toEqual([{ key: "r01n04-bmcpassword", holds: "bmcpassword of r01n04" }]);
  });

  it("YAML: the set reads its CSV with fn::readFile, common values refer to the image, inherited values nowhere", () => {
    const rendered = renderYamlProgram(sets);
    const program = yaml.load(rendered.source) as {
      resources: Record<string, { type: string; properties: Record<string, unknown>; options: unknown }>;
    };
    expect(program.resources["r01n-nodes"]).toEqual({
      type: "xcat:index:NodeSet",
      properties: {
        groups: ["compute", "rack01", "all"],
        attributes: { provmethod: "${rocky9-netboot.name}" },
        csv: { "fn::readFile": "./inventory/r01n.csv" },
        adopt: "${adopt}",
      },
      options: { protect: true },
    });
    expect(rendered.files).toEqual([
      {
        path: "inventory/r01n.csv",
        text: "node,installnic,mac\nr01n01,,52:54:00:01:00:01\nr01n02,eth1,52:54:00:01:00:02\nr01n03,,52:54:00:01:00:03\n",
      },
    ]);
    // The group's regex ip is the group's: not in the CSV, not on the set.
    expect(rendered.files?.[0]?.text).not.toContain("10.0.");
  });

  it("TypeScript: the set reads its CSV with readFileSync", () => {
    const rendered = renderProgram(sets);
    expect(rendered.source).toContain('import { readFileSync } from "node:fs";');
    expect(rendered.source).toContain('csv: readFileSync("inventory/r01n.csv", "utf8")');
    expect(rendered.source).toMatch(/new xcat\.NodeSet\(\s*"r01n-nodes"/);
    expect(rendered.source).not.toContain("node-own-secret");
    expect(rendered.files?.map((file) => file.path)).toEqual(["inventory/r01n.csv"]);
  });
});
