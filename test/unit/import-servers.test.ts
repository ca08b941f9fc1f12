/**
 * The import of several servers in one run (issue #36 item 3; the engine runs its programs in
 * test/e2e/import-servers.test.ts): the command line gives each --url its own account, names
 * servers and refuses what would mix them up; resource names two servers share get the server's
 * suffix and nothing else does; the YAML program parsed back has a provider per server and every
 * resource through its server's; the TypeScript program declares its loop helpers once.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Pulumi YAML expressions are written as text here.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { ImportedCluster, ProgramPart } from "../../src/cli/import/render";
import { renderServersProgram } from "../../src/cli/import/render";
import { renderYamlServersProgram } from "../../src/cli/import/render-yaml";
import { asNodeSets, parseImportArgs } from "../../src/cli/import/run";
import { findRuns } from "../../src/cli/import/runs";
import { collidingNames, type ServerScope, scopedResourceName } from "../../src/cli/import/server-scope";

const yaml = createRequire(import.meta.url)("js-yaml") as { load(text: string): unknown };

interface Program {
  config: Record<string, { type: string }>;
  resources: Record<
    string,
    { type: string; properties: Record<string, unknown>; options?: Record<string, unknown> }
  >;
}

/** A rack of `count` nodes named r01nNN, each with its own ip and mac, in compute and rack01. */
function rack(count: number, net: number): ImportedCluster["singles"] {
  return Array.from({ length: count }, (_, i) => ({
    name: `r01n${String(i + 1).padStart(2, "0")}`,
    groups: ["compute", "rack01", "all"],
    attributes: { ip: `10.${net}.1.${i + 1}`, mac: `52:54:00:0${net}:00:0${i + 1}` },
  }));
}

function cluster(nodes: ImportedCluster["singles"], extra: Partial<ImportedCluster> = {}): ImportedCluster {
  const { runs, singles } = findRuns(nodes);
  return {
    groups: [["compute", { mgt: "ipmi" }]],
    osimages: [],
    networks: [],
    policies: [],
    site: [],
    tableRows: [],
    runs,
    singles,
    ...extra,
  };
}

const account = { token: false, caCert: false, insecure: false };

function parts(
  clusters: Record<string, ImportedCluster>,
  backends: Record<string, "confluent"> = {},
): ProgramPart[] {
  const colliding = collidingNames(Object.values(clusters));
  return Object.entries(clusters).map(([name, c]) => ({
    cluster: c,
    server: { name, backend: backends[name] ?? "xcat", colliding, account } satisfies ServerScope,
  }));
}

describe("pulumi-xcat import with several --url", () => {
  it("gives each server the flags after its --url, the ones before the first to all, and names them by kind", () => {
    const args = parseImportArgs(
      [
        ...["--out", "x", "--username", "root", "--insecure"],
        ...["--url", "https://mn-a/xcatws"],
        ...["--url", "https://mn-b/xcatws", "--username", "admin-b", "--ca-cert", "/etc/b.pem"],
        ...["--url", "https://cf/confluent-api", "--backend", "confluent"],
      ],
      { XCAT_PASSWORD: "from-the-environment" },
    );
    if (args === "help") throw new Error("not help");
    expect(args.servers.map((server) => server.name)).toEqual(["mn1", "mn2", "confluent"]);
    expect(args.servers.map((server) => server.env.XCAT_USERNAME)).toEqual(["root", "admin-b", "root"]);
    expect(args.servers.map((server) => server.env.XCAT_CA_CERT)).toEqual([
      undefined,
      "/etc/b.pem",
      undefined,
    ]);
    expect(args.servers.map((server) => server.env.XCAT_BACKEND)).toEqual([
      undefined,
      undefined,
      "confluent",
    ]);
    expect(args.servers.every((server) => server.env.XCAT_INSECURE === "true")).toBe(true);
    expect(args.servers.every((server) => server.env.XCAT_PASSWORD === "from-the-environment")).toBe(true);
    // YAML's default grain stays set while one server is xCAT; Confluent's nodes then stay Nodes.
    const yamlArgs = parseImportArgs(
      [
        "--out",
        "x",
        "--language",
        "yaml",
        "--url",
        "https://a",
        "--url",
        "https://cf",
        "--backend",
        "confluent",
      ],
      {},
    );
    expect(yamlArgs).toMatchObject({ grain: "set" });
  });

  it("keeps one --url exactly as before: its flags wherever they stand, the default provider", () => {
    const before = parseImportArgs(["--username", "root", "--url", "https://mn/xcatws", "--out", "x"], {});
    const after = parseImportArgs(["--url", "https://mn/xcatws", "--username", "root", "--out", "x"], {});
    for (const args of [before, after]) {
      if (args === "help") throw new Error("not help");
      expect(args.servers).toHaveLength(1);
      expect(args.env).toMatchObject({ XCAT_URL: "https://mn/xcatws", XCAT_USERNAME: "root" });
    }
  });

  it("takes --name after a --url, and refuses a --name first, a name twice, a URL twice, a bad name", () => {
    const named = parseImportArgs(
      ["--out", "x", "--url", "https://a", "--name", "hall1", "--url", "https://b"],
      {},
    );
    if (named === "help") throw new Error("not help");
    expect(named.servers.map((server) => server.name)).toEqual(["hall1", "mn2"]);
    expect(() => parseImportArgs(["--out", "x", "--name", "a", "--url", "https://a"], {})).toThrow(
      "--name names the server of the --url before it: give --url first",
    );
    expect(() =>
      parseImportArgs(
        ["--out", "x", "--url", "https://a", "--name", "h", "--url", "https://b", "--name", "h"],
        {},
      ),
    ).toThrow("--name: two servers are named 'h' (https://a and https://b); name them apart");
    expect(() => parseImportArgs(["--out", "x", "--url", "https://a", "--url", "https://a"], {})).toThrow(
      "--url https://a is given twice: each server once",
    );
    expect(() => parseImportArgs(["--out", "x", "--url", "https://a", "--name", "1st hall"], {})).toThrow(
      "--name: '1st hall' must start with a letter and hold only letters and digits",
    );
  });

  it("suffixes only the names more than one server takes", () => {
    const a = cluster(rack(4, 1), { site: [["domain", "a.example.org"]] });
    const b = cluster([...rack(2, 2), { name: "login01", groups: ["all"], attributes: {} }]);
    const colliding = collidingNames([a, b]);
    expect([...colliding].sort()).toEqual(["compute", "r01n01", "r01n02"]);
    const scope: ServerScope = { name: "hall2", backend: "xcat", colliding, account };
    expect(scopedResourceName(scope, "r01n01")).toBe("r01n01-hall2");
    expect(scopedResourceName(scope, "login01")).toBe("login01");
    expect(scopedResourceName(undefined, "r01n01")).toBe("r01n01");
  });
});

describe("the program of several servers", () => {
  const secretNode = { name: "login01", groups: ["all"], attributes: { bmcpassword: "never-in-text" } };
  const mnA = asNodeSets(cluster(rack(4, 1)));
  const mnB = asNodeSets(cluster([...rack(2, 2), secretNode]));
  const cf = cluster([{ ...secretNode, attributes: { bmcpassword: "(set on Confluent, not shown)" } }], {
    backend: "confluent",
  });

  it("YAML: a provider per server from config keys of its own, every resource through its server's", () => {
    const rendered = renderYamlServersProgram(parts({ mnA, mnB, cf }, { cf: "confluent" }));
    const program = yaml.load(rendered.source) as Program;
    expect(program.resources.mnA).toEqual({
      type: "pulumi:providers:xcat",
      properties: {
        url: "${mnA-url}",
        username: "${mnA-username}",
        password: { "fn::secret": "${mnA-password}" },
      },
    });
    expect(program.resources.cf?.properties).toMatchObject({ backend: "confluent", url: "${cf-url}" });
    for (const key of ["mnA-url", "mnA-password", "mnB-login01-bmcpassword", "cf-login01-bmcpassword"])
      expect(program.config[key]).toEqual({ type: "string" });
    expect(program.config).not.toHaveProperty("xcat:backend");
    const through = Object.fromEntries(
      Object.entries(program.resources)
        .filter(([, resource]) => resource.type !== "pulumi:providers:xcat")
        .map(([key, resource]) => [key, resource.options?.provider]),
    );
    expect(through).toEqual({
      "compute-mnA": "${mnA}",
      "compute-nodes-mnA": "${mnA}",
      "compute-mnB": "${mnB}",
      "compute-nodes-mnB": "${mnB}",
      "login01-mnB": "${mnB}",
      "compute-cf": "${cf}",
      "login01-cf": "${cf}",
    });
    expect(program.resources["login01-mnB"]?.properties).toMatchObject({
      name: "login01",
      attributes: { bmcpassword: { "fn::secret": "${mnB-login01-bmcpassword}" } },
    });
    expect(program.resources["compute-nodes-mnB"]?.properties.csv).toEqual({
      "fn::readFile": "./inventory/mnB/compute.csv",
    });
    expect(rendered.files?.map((file) => file.path)).toEqual([
      "inventory/mnA/compute.csv",
      "inventory/mnB/compute.csv",
    ]);
    expect(rendered.source).not.toContain("never-in-text");
  });

  it("TypeScript: a connection per server, the loops' helpers declared once, each server's odd nodes apart", () => {
    // Two runs with an odd node each on two servers: a loop per server, one step and withOverrides.
    const odd = (net: number) =>
      cluster(
        rack(5, net).map((node, i) =>
          i === 2 ? { ...node, attributes: { ...node.attributes, note: "odd" } } : node,
        ),
      );
    const { source, secrets } = renderServersProgram(
      parts({ mnA: odd(1), mnB: odd(2), cf }, { cf: "confluent" }),
    );
    expect(source).toContain(
      'const mnA: xcat.ConnectionArgs = {\n  url: config.require("mnA-url"),\n  username: config.require("mnA-username"),\n  password: config.requireSecret("mnA-password"),\n};',
    );
    expect(source).toMatch(/const cf: xcat\.ConnectionArgs = \{[^}]*backend: "confluent",\n\};/);
    for (const once of [
      "type Step =",
      "const step =",
      "const stepHex =",
      "function withOverrides(",
      "type Overrides =",
    ])
      expect(source.split(once)).toHaveLength(2);
    expect(source).toContain("const oddMnA: Record<");
    expect(source).toContain("const oddMnB: Record<");
    expect(source).toContain("withOverrides(");
    expect(source).toContain("oddMnB[name]?.attributes");
    // Every node name of the runs is on both servers: each loop suffixes its resource names.
    expect(source).toContain('name + "-mnA",');
    expect(source).toContain('name + "-mnB",');
    const code = source
      .split("\n")
      .filter((line) => !line.startsWith("//"))
      .join("\n");
    expect(code.match(/connection: (mnA|mnB|cf)\b/g)?.length).toBe(code.match(/new xcat\.\w+\(/g)?.length);
    expect(secrets.map((secret) => secret.key)).toEqual(["cf-login01-bmcpassword"]);
    expect(source).not.toContain("never-in-text");
  });
});
