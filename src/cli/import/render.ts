/**
 * Code generation: the index.ts of the imported project, written as a person would: groups
 * carry shared values, runs of nodes are loops over a data table with the odd nodes' values as
 * an explicit override map, references name the imported objects, passwords come from stack
 * secrets, every resource is adopted and protected, and no line is longer than 120 columns.
 */
import { type Code, statement } from "./code-format";
import { deploymentName, deploymentRange, type ImportedDeployment } from "./deployments";
import type { FirstRunSecret } from "./first-run";
import { inventoryCsv, inventoryPath } from "./inventory-csv";
import { type ImportedNodeSet, nodeSetResourceName } from "./node-sets";
import { expandRunNames, type NodeEntry, type Run, runName, type Variation } from "./runs";
import { connectionConfigKey, type ServerScope, scopedConfigKey, scopedResourceName } from "./server-scope";

export interface ImportedCluster {
  readonly groups: ReadonlyArray<readonly [string, Readonly<Record<string, string>>]>;
  readonly osimages: ReadonlyArray<readonly [string, Readonly<Record<string, string>>]>;
  readonly networks: ReadonlyArray<readonly [string, Readonly<Record<string, string>>]>;
  readonly policies: ReadonlyArray<readonly [string, Readonly<Record<string, string>>]>;
  readonly site: ReadonlyArray<readonly [string, string]>;
  readonly tableRows: ReadonlyArray<{
    readonly table: string;
    readonly keys: Readonly<Record<string, string>>;
    readonly values: Readonly<Record<string, string>>;
  }>;
  readonly runs: readonly Run[];
  readonly singles: readonly NodeEntry[];
  /** The server the program is for (default xcat); a Confluent program says so in its project config. */
  readonly backend?: "xcat" | "confluent";
  /**
   * Attributes whose values the server never shows (Confluent's `secret.*`, bmcusername among
   * them): the program takes them from stack config, as a secret when the name is a password's.
   */
  readonly askedAttributes?: readonly string[];
  /** The images booted nodes run, each over its nodes (deployments.ts): provmethod is theirs. */
  readonly deployments?: readonly ImportedDeployment[];
  /** With `--grain set`: racks as NodeSets (node-sets.ts); `runs` and `singles` hold the other nodes. */
  readonly nodeSets?: readonly ImportedNodeSet[];
}

export { nodeSetResourceName };

/** The inventory files of the cluster's NodeSets, path relative to the program's folder. */
export function inventoryFiles(cluster: ImportedCluster, server?: ServerScope): ProgramFile[] {
  return (cluster.nodeSets ?? []).map((set) => ({
    path: inventoryPath(set, server?.name),
    text: inventoryCsv(set),
  }));
}

/** A part of the program: a cluster and the server it was read from (absent: the import of one server). */
export interface ProgramPart {
  readonly cluster: ImportedCluster;
  readonly server?: ServerScope;
}

/** How the program gets an attribute's value: written, from a config secret, or from plain config. */
export function valueSource(cluster: ImportedCluster, attribute: string): "written" | "secret" | "config" {
  if (isPasswordAttribute(attribute)) return "secret";
  return (cluster.askedAttributes ?? []).includes(attribute) ? "config" : "written";
}

/** The generated program and the secrets it asks for (config key, what it holds). */
export interface RenderedProgram {
  readonly source: string;
  readonly secrets: ReadonlyArray<FirstRunSecret>;
  /** Files written beside the program (the NodeSets' inventory CSVs). */
  readonly files?: ReadonlyArray<ProgramFile>;
}

/** A file beside the program: its path relative to the program's folder, and its text. */
export interface ProgramFile {
  readonly path: string;
  readonly text: string;
}

const q = (text: string) => JSON.stringify(text);

/** A TypeScript identifier for an xCAT name: `rhels8-compute` → `rhels8Compute`. */
export function identifier(name: string, taken: Set<string>): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((word) => word !== "");
  let id =
    words.map((word, i) => (i === 0 ? word : word[0]?.toUpperCase() + word.slice(1))).join("") || "object";
  if (/^\d/.test(id)) id = `_${id}`;
  let unique = id;
  for (let n = 2; taken.has(unique); n++) unique = `${id}${n}`;
  taken.add(unique);
  return unique;
}

export function isPasswordAttribute(name: string): boolean {
  return /password|passwd/i.test(name);
}

export function renderProgram(cluster: ImportedCluster): RenderedProgram {
  return renderServersProgram([{ cluster }]);
}

/** What the parts of one program share: identifiers taken, helpers written, secrets asked for. */
interface TypeScriptProgram {
  readonly taken: Set<string>;
  readonly secrets: FirstRunSecret[];
  /** Helpers of the runs' loops already written (step, stepHex, withOverrides). */
  readonly helpers: Set<string>;
  readonly line: (text?: string) => void;
}

/**
 * The index.ts of one server's cluster, or of several servers' (one `connection` each, every
 * resource with the connection of the server it was read from: issue #36 item 3).
 */
export function renderServersProgram(parts: readonly ProgramPart[]): RenderedProgram {
  const taken = new Set([
    "pulumi",
    "xcat",
    "config",
    "keep",
    "adopt",
    "step",
    "stepHex",
    "run",
    "n",
    "name",
    "odd",
    "withOverrides",
    "readFileSync",
  ]);
  const out: string[] = [];
  const program: TypeScriptProgram = {
    taken,
    secrets: [],
    helpers: new Set(),
    line: (text = "") => out.push(text),
  };
  const { line } = program;
  if (parts.some((part) => (part.cluster.nodeSets ?? []).length > 0))
    line('import { readFileSync } from "node:fs";');
  line('import * as pulumi from "@pulumi/pulumi";');
  line('import * as xcat from "pulumi-xcat";');
  line();
  line("const config = new pulumi.Config();");
  line("// Imported objects are protected: `pulumi destroy` or deleting a line fails until you remove");
  line("// `protect` (see README.md). `adopt: true` takes each object over as it is; it can go after");
  line("// the first `up`.");
  line("const keep: pulumi.CustomResourceOptions = { protect: true };");
  line("const adopt = true;");
  // The servers' connections take their names first, so a resource named like a server is the one renamed.
  const connections = parts.map((part) => (part.server ? identifier(part.server.name, taken) : undefined));
  parts.forEach((part, index) => {
    renderPart(program, part.cluster, part.server, connections[index]);
  });
  return {
    source: `${out.join("\n")}\n`,
    secrets: program.secrets,
    files: parts.flatMap((part) => inventoryFiles(part.cluster, part.server)),
  };
}

/** The TypeScript connection of a server: its account from config keys of its own. */
function connectionCode(server: ServerScope): Code {
  const key = (field: Parameters<typeof connectionConfigKey>[1]) => q(connectionConfigKey(server, field));
  return {
    object: [
      ["url", `config.require(${key("url")})`],
      ...(server.account.token
        ? [["token", `config.requireSecret(${key("token")})`] as const]
        : [
            ["username", `config.require(${key("username")})`] as const,
            ["password", `config.requireSecret(${key("password")})`] as const,
          ]),
      ...(server.account.caCert ? [["caCert", `config.require(${key("caCert")})`] as const] : []),
      ...(server.account.insecure
        ? [["insecure", `config.requireBoolean(${key("insecure")})`] as const]
        : []),
      ...(server.backend === "confluent" ? [["backend", q("confluent")] as const] : []),
    ],
  };
}

/** One server's cluster (or the only one), appended to the program. */
function renderPart(
  program: TypeScriptProgram,
  cluster: ImportedCluster,
  server: ServerScope | undefined,
  connection: string | undefined,
): void {
  const { taken, secrets, line } = program;
  const images = new Map<string, string>();
  const hosts = new Map<string, string>();
  const vmHosts = new Set(
    cluster.singles.map((node) => node.attributes.vmhost).filter((h) => h !== undefined),
  );

  if (server !== undefined && connection !== undefined) {
    line();
    line(
      `// ---- ${server.name}: the ${server.backend === "confluent" ? "Confluent server" : "xCAT management node"} ` +
        `whose objects follow, each through \`connection: ${connection}\``,
    );
    line(
      `// (its account in the config keys ${connectionConfigKey(server, "url")}, ...; README.md, "First run").`,
    );
    line(statement("", `const ${connection}: xcat.ConnectionArgs = `, connectionCode(server)));
  }
  const withConnection = (entries: ReadonlyArray<readonly [string, Code]>): Code => ({
    object: connection === undefined ? entries : [...entries, ["connection", connection] as const],
  });

  const value = (objectName: string, attribute: string, text: string): string => {
    const source = valueSource(cluster, attribute);
    if (source !== "written") {
      const key = scopedConfigKey(server, `${objectName}-${attribute}`.replace(/[^A-Za-z0-9-]/g, "-"));
      if (!secrets.some((secret) => secret.key === key))
        secrets.push({
          key,
          holds: `${attribute} of ${objectName}${server === undefined ? "" : ` on ${server.name}`}`,
          ...(source === "config" ? { plain: true } : {}),
        });
      return source === "secret" ? `config.requireSecret(${q(key)})` : `config.require(${q(key)})`;
    }
    if (attribute === "provmethod" && images.has(text)) return `${images.get(text)}.name`;
    if (attribute === "vmhost" && hosts.has(text)) return `${hosts.get(text)}.name`;
    return q(text);
  };
  const attributeMap = (objectName: string, attributes: Readonly<Record<string, string>>): Code => ({
    object: Object.entries(attributes).map(([name, text]) => [prop(name), value(objectName, name, text)]),
  });
  /**
   * A resource statement. `objectName`: the object's name on its server, for the kinds whose
   * resource name is their object's unless `name` says otherwise; given as `name` when a clash
   * across servers suffixed the resource name.
   */
  const resource = (
    head: string,
    type: string,
    base: string,
    entries: ReadonlyArray<readonly [string, Code]>,
    objectName?: string,
  ) => {
    const name = scopedResourceName(server, base);
    const named = objectName !== undefined && name !== base ? [["name", q(objectName)] as const] : [];
    line(
      statement("", head, {
        call: `new xcat.${type}`,
        args: [q(name), withConnection([...named, ...entries]), "keep"],
      }),
    );
  };

  const sets = cluster.nodeSets ?? [];
  if (cluster.site.length > 0) {
    line();
    line("// Site settings (the site table) that differ from a fresh management node.");
    for (const [key, text] of cluster.site) {
      resource("", "GlobalConfAttribute", `site-${key}`, [
        ["name", q(key)],
        ["value", value("site", key, text)],
      ]);
    }
  }
  if (cluster.networks.length > 0) {
    line();
    line("// Networks.");
    for (const [name, attributes] of cluster.networks) {
      const { net = "", mask = "", ...rest } = attributes;
      resource(
        "",
        "Network",
        name,
        [
          ["net", q(net)],
          ["mask", q(mask)],
          ...(Object.keys(rest).length > 0 ? [["attributes", attributeMap(name, rest)] as const] : []),
          ["adopt", "adopt"],
        ],
        name,
      );
    }
  }
  if (cluster.osimages.length > 0) {
    line();
    line("// OS images; nodes and groups refer to them by `image.name`.");
    for (const [name, attributes] of cluster.osimages) {
      const id = identifier(name, taken);
      images.set(name, id);
      resource(
        `const ${id} = `,
        "Osimage",
        name,
        [
          ["attributes", attributeMap(name, attributes)],
          ["adopt", "adopt"],
        ],
        name,
      );
    }
  }
  if (cluster.policies.length > 0) {
    line();
    line("// Policy rows (who may run what) that differ from a fresh management node.");
    for (const [priority, attributes] of cluster.policies) {
      resource("", "Policy", `policy-${priority}`, [
        ["priority", q(priority)],
        ["attributes", attributeMap(`policy-${priority}`, attributes)],
        ["adopt", "adopt"],
      ]);
    }
  }
  if (cluster.groups.length > 0) {
    line();
    line("// Groups: values their member nodes inherit, in the order of each node's `groups`.");
    for (const [name, attributes] of cluster.groups) {
      resource(
        "",
        "Group",
        name,
        [
          ["attributes", attributeMap(name, attributes)],
          ["adopt", "adopt"],
        ],
        name,
      );
    }
  }
  if (cluster.tableRows.length > 0) {
    line();
    line("// Table rows.");
    for (const row of cluster.tableRows) {
      const map = (record: Readonly<Record<string, string>>): Code => ({
        object: Object.entries(record).map(([column, text]) => [prop(column), q(text)]),
      });
      resource("", "TableRow", `${row.table}-${Object.values(row.keys).join("-")}`, [
        ["table", q(row.table)],
        ["keys", map(row.keys)],
        ["values", map(row.values)],
        ["adopt", "adopt"],
      ]);
    }
  }

  if (sets.length > 0) {
    line();
    line("// Racks as NodeSets: what every node of a rack holds in `attributes`, each node's own values in");
    line(`// its row of ${inventoryPath({ name: "<rack>" }, server?.name)} (header node,<attribute>,...).`);
    for (const set of sets) {
      resource("", "NodeSet", nodeSetResourceName(set), [
        ["groups", stringArray(set.groups)],
        ...(Object.keys(set.attributes).length > 0
          ? [["attributes", attributeMap(set.name, set.attributes)] as const]
          : []),
        ["csv", `readFileSync(${q(inventoryPath(set, server?.name))}, "utf8")`],
        ["adopt", "adopt"],
      ]);
    }
  }

  renderRuns(cluster.runs, program, value, server, connection);

  if (cluster.singles.length > 0) {
    line();
    line("// Nodes that follow no pattern, one by one (VM hosts before their guests).");
    const ordered = [...cluster.singles].sort(
      (a, b) => Number(a.attributes.vmhost !== undefined) - Number(b.attributes.vmhost !== undefined),
    );
    for (const node of ordered) {
      const entries = [
        ["groups", stringArray(node.groups)],
        ["attributes", attributeMap(node.name, node.attributes)],
        ["adopt", "adopt"],
      ] as const;
      if (vmHosts.has(node.name)) {
        const id = identifier(node.name, taken);
        hosts.set(node.name, id);
        resource(`const ${id} = `, "Node", node.name, entries, node.name);
      } else {
        resource("", "Node", node.name, entries, node.name);
      }
    }
  }
  if ((cluster.deployments ?? []).length > 0) {
    line();
    line("// The image each node booted (nodeset wrote the node's provmethod): `adopt` takes over the nodes");
    line("// that run it as deployed, without touching them. A new osimage here deploys it onto them.");
    for (const deployment of cluster.deployments ?? []) {
      const image = images.get(deployment.osimage);
      resource("", "Deployment", deploymentName(deployment.osimage), [
        ["nodes", q(deploymentRange(deployment))],
        ["osimage", image ? `${image}.name` : q(deployment.osimage)],
        ["adopt", "adopt"],
      ]);
    }
  }
}

function prop(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : q(name);
}

/** A short list of names (groups), written as JSON writes it, as earlier imports did. */
function stringArray(values: readonly string[]): Code {
  return JSON.stringify(values);
}

/**
 * Runs of the same shape share one loop; each run is one row of its table. Nodes that differ from
 * their run get their own values from one `odd` map, keyed by node name.
 */
function renderRuns(
  runs: readonly Run[],
  program: TypeScriptProgram,
  value: (objectName: string, attribute: string, text: string) => string,
  server: ServerScope | undefined,
  connection: string | undefined,
): void {
  const { line, taken, helpers } = program;
  /** True the first time a helper is asked for: helpers are written once per program. */
  const once = (helper: string) => {
    if (helpers.has(helper)) return false;
    helpers.add(helper);
    return true;
  };
  const shapes = new Map<string, Run[]>();
  for (const run of runs) {
    const constants = Object.entries(run.attributes).map(([name, v]) => [
      name,
      v.kind,
      v.kind === "constant" ? v.value : "",
    ]);
    // Runs differing only in their groups (rack01, rack02, …) share a loop; groups become a column.
    const key = JSON.stringify([run.suffix, run.width, constants]);
    shapes.set(key, [...(shapes.get(key) ?? []), run]);
  }
  if (shapes.size === 0) return;
  const kinds = new Set(runs.flatMap((run) => Object.values(run.attributes).map((v) => v.kind)));
  const odd = runs.flatMap((run) => Object.entries(run.overrides));
  line();
  line("// Regular runs of nodes: names and values step together with the node number.");
  if (once("Step")) line("type Step = readonly [prefix: string, first: number];");
  if (kinds.has("step") && once("step"))
    line("const step = ([prefix, first]: Step, i: number) => prefix + String(first + i);");
  if (kinds.has("hex") && once("stepHex")) {
    line("const stepHex = ([prefix, first]: Step, i: number) =>");
    line('  prefix + (first + i).toString(16).padStart(2, "0");');
  }
  const oddGroups = odd.some(([, override]) => override.groups !== undefined);
  // One map of odd nodes per server: two servers may both have an odd r01n07.
  const oddMap = server === undefined ? "odd" : identifier(`odd-${server.name}`, taken);
  if (odd.length > 0) {
    line();
    line("// Nodes that differ from their run: their own values (null: the node has none of the run's).");
    line(
      statement("", `const ${oddMap}: Record<string, { groups?: string[]; attributes: Overrides }> = `, {
        object: odd.map(([name, override]) => [
          prop(name),
          {
            object: [
              ...(override.groups !== undefined ? [["groups", stringArray(override.groups)] as const] : []),
              [
                "attributes",
                {
                  object: Object.entries(override.attributes).map(([attribute, text]) => [
                    prop(attribute),
                    text === null ? "null" : value(name, attribute, text),
                  ]),
                },
              ] as const,
            ],
          },
        ]),
      }),
    );
    if (once("withOverrides")) {
      line("type Overrides = Record<string, pulumi.Input<string> | null>;");
      line("function withOverrides(values: Record<string, pulumi.Input<string>>, own: Overrides = {}) {");
      line("  const merged: Record<string, pulumi.Input<string>> = { ...values };");
      line("  for (const [attribute, value] of Object.entries(own)) {");
      line("    if (value === null) delete merged[attribute];");
      line("    else merged[attribute] = value;");
      line("  }");
      line("  return merged;");
      line("}");
    }
  }
  for (const group of shapes.values()) {
    const sample = group[0] as Run;
    const id = identifier(`${sample.groups[0] ?? "node"}-runs`, taken);
    const varying = Object.entries(sample.attributes).filter(([, v]) => v.kind !== "constant");
    const sameGroups = group.every((run) => JSON.stringify(run.groups) === JSON.stringify(sample.groups));
    const type = [
      "prefix: string",
      "first: number",
      "last: number",
      ...(sameGroups ? [] : ["groups: string[]"]),
      ...varying.map(([name, v]) => `${prop(name)}: ${v.kind === "listed" ? "string[]" : "Step"}`),
    ];
    line();
    const ranges = group.map((run) => `${runName(run, run.first)}..${runName(run, run.last)}`);
    line(
      `// ${ranges.length > 4 ? `${ranges[0]} … ${ranges[ranges.length - 1]} (${ranges.length} runs)` : ranges.join(", ")}`,
    );
    line(
      statement("", `const ${id}: { ${type.join("; ")} }[] = `, {
        array: group.map((run) => ({
          object: [
            ["prefix", q(run.prefix)],
            ["first", String(run.first)],
            ["last", String(run.last)],
            ...(sameGroups ? [] : [["groups", stringArray(run.groups)] as const]),
            ...varying.map(([name]) => [prop(name), cell(run.attributes[name] as Variation)] as const),
          ],
        })),
      }),
    );
    const indent = "    ";
    line(`for (const run of ${id}) {`);
    line("  for (let n = run.first; n <= run.last; n++) {");
    line(
      `${indent}const name = run.prefix + String(n).padStart(${sample.width}, "0")${sample.suffix ? ` + ${q(sample.suffix)}` : ""};`,
    );
    const attributes: Code = {
      object: Object.entries(sample.attributes).map(([attr, v]) => {
        const access = /^[A-Za-z_$][\w$]*$/.test(attr) ? `run.${attr}` : `run[${q(attr)}]`;
        if (v.kind === "constant") return [prop(attr), value(id, attr, v.value)];
        if (v.kind === "listed") return [prop(attr), `${access}[n - run.first] as string`];
        return [prop(attr), `${v.kind === "hex" ? "stepHex" : "step"}(${access}, n - run.first)`];
      }),
    };
    const groups = sameGroups ? JSON.stringify(sample.groups) : "run.groups";
    // A node name another server's part also takes: every node of this loop gets the server's
    // suffix in its resource name (the node keeps its name on the server).
    const suffixed =
      server !== undefined &&
      group.some((run) => expandRunNames(run).some((name) => scopedResourceName(server, name) !== name));
    line(
      statement(indent, "", {
        call: "new xcat.Node",
        args: [
          suffixed ? `name + ${q(`-${server.name}`)}` : "name",
          {
            object: [
              ...(suffixed ? [["name", "name"] as const] : []),
              ["groups", odd.length > 0 && oddGroups ? `${oddMap}[name]?.groups ?? ${groups}` : groups],
              [
                "attributes",
                odd.length > 0
                  ? { call: "withOverrides", args: [attributes, `${oddMap}[name]?.attributes`] }
                  : attributes,
              ],
              ["adopt", "adopt"],
              ...(connection !== undefined ? [["connection", connection] as const] : []),
            ],
          },
          "keep",
        ],
      }),
    );
    line("  }");
    line("}");
  }
}

function cell(variation: Variation): Code {
  if (variation.kind === "listed") return { array: variation.values.map(q) };
  if (variation.kind === "constant") return q(variation.value);
  return `[${q(variation.prefix)}, ${variation.first}]`;
}
