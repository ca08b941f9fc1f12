/**
 * The imported cluster as a Pulumi YAML program for the native provider (pulumi-resource-xcat):
 * the Pulumi.yaml that `pulumi-xcat import --language yaml` writes. YAML has no loops, so every
 * node of a run is written out with its own values (those of the run at its number, with its
 * overrides); everything else is as in the TypeScript program (render.ts): every resource adopts
 * its object and is protected, OS images and VM hosts are referred to by `${key.name}`, and
 * passwords come from stack config, made secret with `fn::secret`, never from the program text.
 *
 * Pulumi YAML (pulumi-yaml v1.25.0): a resource's key is its logical name and the name in
 * `${key.property}` expressions, which allow letters, digits, `_` and `-` (no dots, which xCAT
 * names may hold), so every resource sets its xCAT name explicitly and gets a key made of those
 * characters. `${` in a string starts an expression; `$${` is a literal `${`.
 */

import { deploymentName, deploymentRange } from "./deployments";
import type { FirstRunSecret } from "./first-run";
import { inventoryPath } from "./inventory-csv";
import type { ImportedCluster, ProgramPart, RenderedProgram } from "./render";
import { inventoryFiles, nodeSetResourceName, valueSource } from "./render";
import { type NodeEntry, type Run, runName, valueAt } from "./runs";
import { connectionConfigKey, type ServerScope, scopedConfigKey, scopedResourceName } from "./server-scope";

/**
 * The `config:` entry of Pulumi.yaml that sets `xcat:backend` for every stack of the project (a
 * project-level config value), for a program read from a Confluent server.
 */
export const BACKEND_CONFIG_LINES = ["  xcat:backend:", "    value: confluent"] as const;

/** A YAML scalar: JSON's double-quoted strings are YAML's, and `${` is escaped for Pulumi YAML. */
const scalar = (text: string) => JSON.stringify(text.replaceAll("${", () => "$${"));

/** Words YAML reads as something other than text (booleans, null) when not quoted. */
const YAML_WORDS = /^(true|false|yes|no|on|off|y|n|null|~)$/i;

/**
 * A scalar in flow style: plain when YAML reads it back as the same text (names, paths, dotted
 * words; nothing that starts with a digit, which could read as a number, nor a flow indicator),
 * quoted otherwise.
 */
const flowScalar = (text: string) =>
  /^[A-Za-z_./][A-Za-z0-9_./-]*$/.test(text) && !YAML_WORDS.test(text) ? text : scalar(text);

/** A key as written before `:`, quoted unless plainly safe. */
const yamlKey = (key: string) => (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? key : JSON.stringify(key));

/** Unique resource keys usable in `${key.name}`. */
class Keys {
  readonly #taken = new Set<string>();
  take(name: string, prefix: string): string {
    let key = name.replace(/[^A-Za-z0-9_-]+/g, "-");
    if (!/^[A-Za-z_]/.test(key)) key = `${prefix}-${key}`;
    let unique = key;
    for (let n = 2; this.#taken.has(unique); n++) unique = `${key}-${n}`;
    this.#taken.add(unique);
    return unique;
  }
}

/** A value: a scalar, a `${...}` reference, `fn::secret` of a config value, or `fn::readFile` of a file. */
type Value =
  | { readonly text: string }
  | { readonly reference: string }
  | { readonly secretConfig: string }
  | { readonly readFile: string };

/** A resource as written: its key, type, properties in order, and the nodes it depends on. */
interface YamlResource {
  readonly key: string;
  readonly type: string;
  /** The key of the explicit provider of the server it was read from (several servers in one import). */
  readonly provider?: string;
  readonly properties: ReadonlyArray<
    readonly [string, Value | readonly string[] | ReadonlyMap<string, Value>]
  >;
}

function valueLines(value: Value, indent: string): string[] {
  if ("text" in value) return [` ${scalar(value.text)}`];
  if ("reference" in value) return [` \${${value.reference}}`];
  if ("readFile" in value) return ["", `${indent}fn::readFile: ${scalar(value.readFile)}`];
  return ["", `${indent}fn::secret: \${${value.secretConfig}}`];
}

/** The longest line the program should have (as the TypeScript program's, code-format.ts). */
const LINE_WIDTH = 120;

/**
 * A value in YAML's flow style (JSON's, which YAML reads), or undefined for a secret, which stays
 * in block style where a reader sees `fn::secret` on its own line. A reference is quoted: `{` is
 * a flow indicator, and Pulumi YAML reads `"${x}"` as it reads `${x}`.
 */
function flowValue(value: Value): string | undefined {
  if ("text" in value) return flowScalar(value.text);
  if ("reference" in value) return JSON.stringify(`\${${value.reference}}`);
  if ("readFile" in value) return `{ "fn::readFile": ${flowScalar(value.readFile)} }`;
  return undefined;
}

type Property = Value | readonly string[] | ReadonlyMap<string, Value>;

/** A property in flow style, or undefined when it holds a secret. */
function flowProperty(value: Property): string | undefined {
  if (Array.isArray(value)) return `[${(value as readonly string[]).map(flowScalar).join(", ")}]`;
  if (value instanceof Map) {
    const entries = [...(value as ReadonlyMap<string, Value>)].map(([key, entry]) => {
      const flow = flowValue(entry);
      return flow === undefined ? undefined : `${yamlKey(key)}: ${flow}`;
    });
    if (entries.some((entry) => entry === undefined)) return undefined;
    return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
  }
  return flowValue(value as Value);
}

/** `head` followed by `flow` when that fits on one line. */
const fits = (head: string, flow: string | undefined): flow is string =>
  flow !== undefined && head.length + 1 + flow.length <= LINE_WIDTH;

/**
 * A resource's lines: each part on one line in flow style where it fits in {@link LINE_WIDTH}
 * columns (the properties whole, else each property), in block style otherwise, so a rack of
 * resources stays short to read.
 */
function resourceLines(resource: YamlResource): string[] {
  const lines = [`  ${resource.key}:`, `    type: ${resource.type}`];
  const flows = resource.properties.map(([name, value]) => [name, value, flowProperty(value)] as const);
  const whole = flows.every(([, , flow]) => flow !== undefined)
    ? `{ ${flows.map(([name, , flow]) => `${name}: ${flow}`).join(", ")} }`
    : undefined;
  if (fits("    properties:", whole)) lines.push(`    properties: ${whole}`);
  else {
    lines.push("    properties:");
    for (const [name, value, flow] of flows) {
      if (fits(`      ${name}:`, flow)) {
        lines.push(`      ${name}: ${flow}`);
      } else if (value instanceof Map) {
        lines.push(`      ${name}:`);
        for (const [key, entry] of value as ReadonlyMap<string, Value>) {
          const [first = "", ...rest] = valueLines(entry, "          ");
          lines.push(`        ${yamlKey(key)}:${first}`, ...rest);
        }
      } else {
        const [first = "", ...rest] = valueLines(value as Value, "        ");
        lines.push(`      ${name}:${first}`, ...rest);
      }
    }
  }
  lines.push(
    resource.provider === undefined
      ? "    options: { protect: true }"
      : `    options: { protect: true, provider: "\${${resource.provider}}" }`,
  );
  return lines;
}

/** The nodes of a run, one by one: the run's values at each number, with the node's overrides. */
export function expandRun(run: Run): NodeEntry[] {
  const nodes: NodeEntry[] = [];
  for (let n = run.first; n <= run.last; n++) {
    const name = runName(run, n);
    const attributes: Record<string, string> = {};
    for (const [attribute, variation] of Object.entries(run.attributes))
      attributes[attribute] = valueAt(variation, n - run.first);
    const override = run.overrides[name];
    for (const [attribute, own] of Object.entries(override?.attributes ?? {})) {
      if (own === null) delete attributes[attribute];
      else attributes[attribute] = own;
    }
    nodes.push({ name, groups: override?.groups ?? run.groups, attributes });
  }
  return nodes;
}

/**
 * The Pulumi.yaml of the imported cluster (project name, `runtime: yaml`, the config keys of its
 * secrets, the resources) and the secrets it asks for.
 *
 * @example
 * const { source, secrets } = renderYamlProgram(cluster); // written as Pulumi.yaml
 */
export function renderYamlProgram(cluster: ImportedCluster): RenderedProgram {
  return renderYamlServersProgram([{ cluster }]);
}

/** A config key the program declares: its name and type. */
interface ConfigKey {
  readonly key: string;
  readonly type: "string" | "boolean";
}

/**
 * The Pulumi.yaml of one server's cluster, or of several servers' in one import (issue #36 item
 * 3): a `pulumi:providers:xcat` per server, its account from config keys of its own (the password
 * or token as `fn::secret`), and every resource with `options.provider` of the server it was read
 * from.
 */
export function renderYamlServersProgram(parts: readonly ProgramPart[]): RenderedProgram {
  const keys = new Keys();
  const secrets: FirstRunSecret[] = [];
  const config: ConfigKey[] = [];
  const providers: string[] = [];
  // Providers take their keys first: a node may have the server's name too (it gets a -2).
  const providerKeys = parts.map((part) =>
    part.server ? keys.take(part.server.name, "provider") : undefined,
  );
  const resources: YamlResource[] = [];
  parts.forEach((part, index) => {
    const provider = providerKeys[index];
    if (part.server !== undefined && provider !== undefined) {
      const { lines, keys: connectionKeys } = providerLines(part.server, provider);
      providers.push(...lines);
      config.push(...connectionKeys);
    }
    resources.push(...partResources(part.cluster, part.server, provider, keys, secrets));
  });
  for (const secret of secrets) config.push({ key: secret.key, type: "string" });

  const only = parts.length === 1 ? parts[0]?.cluster : undefined;
  const confluent = only?.backend === "confluent";
  const lines = [
    ...(only === undefined
      ? [
          "# Several servers imported in one run by `pulumi-xcat import --language yaml`, for the native provider,",
          "# whose plugin is the package installed beside this file: a `pulumi:providers:xcat` per server, and every",
          "# resource through the provider of the server it was read from. Objects are protected (see README.md);",
          "# `adopt` can go after the first `up`.",
        ]
      : [
          `# ${confluent ? "A Confluent" : "An xCAT"} cluster imported by \`pulumi-xcat import --language yaml\`, for the native provider, whose plugin is`,
          "# the package installed beside this file. Objects are protected (see README.md); `adopt` can go after the first `up`.",
        ]),
    "name: xcat-cluster",
    "runtime: yaml",
    only === undefined
      ? "description: xCAT and Confluent servers imported in one run by pulumi-xcat import"
      : `description: ${confluent ? "Confluent" : "xCAT"} cluster imported by pulumi-xcat import`,
    "plugins:",
    "  providers:",
    "    - name: xcat",
    "      path: node_modules/pulumi-xcat/plugin",
  ];
  if (config.length > 0 || confluent) lines.push("config:");
  // Project config, so every stack of this program talks to the kind of server it was read from.
  if (confluent) lines.push(...BACKEND_CONFIG_LINES);
  for (const entry of config) lines.push(`  ${yamlKey(entry.key)}:`, `    type: ${entry.type}`);
  lines.push("variables: { adopt: true }");
  lines.push(resources.length > 0 || providers.length > 0 ? "resources:" : "resources: {}");
  lines.push(...providers);
  for (const resource of resources) lines.push(...resourceLines(resource));
  return {
    source: `${lines.join("\n")}\n`,
    secrets,
    files: parts.flatMap((part) => inventoryFiles(part.cluster, part.server)),
  };
}

/** A server's explicit provider: its account from config keys of its own, the secret ones as secrets. */
function providerLines(server: ServerScope, key: string): { lines: string[]; keys: ConfigKey[] } {
  const keys: ConfigKey[] = [];
  const lines = [`  ${key}:`, "    type: pulumi:providers:xcat", "    properties:"];
  if (server.backend === "confluent") lines.push("      backend: confluent");
  const field = (
    name: Parameters<typeof connectionConfigKey>[1],
    secret: boolean,
    type: ConfigKey["type"],
  ) => {
    const configKey = connectionConfigKey(server, name);
    keys.push({ key: configKey, type });
    if (secret) lines.push(`      ${name}:`, `        fn::secret: \${${configKey}}`);
    else lines.push(`      ${name}: \${${configKey}}`);
  };
  field("url", false, "string");
  if (server.account.token) field("token", true, "string");
  else {
    field("username", false, "string");
    field("password", true, "string");
  }
  if (server.account.caCert) field("caCert", false, "string");
  if (server.account.insecure) field("insecure", false, "boolean");
  return { lines, keys };
}

/** The resources of one server's cluster (or the only one), through `provider` when given. */
function partResources(
  cluster: ImportedCluster,
  server: ServerScope | undefined,
  provider: string | undefined,
  keys: Keys,
  secrets: FirstRunSecret[],
): YamlResource[] {
  const images = new Map<string, string>();
  const hosts = new Map<string, string>();
  const resources: YamlResource[] = [];
  const take = (name: string, prefix: string) => keys.take(scopedResourceName(server, name), prefix);
  const push = (resource: YamlResource) =>
    resources.push(provider === undefined ? resource : { ...resource, provider });

  const value = (objectName: string, attribute: string, text: string): Value => {
    const source = valueSource(cluster, attribute);
    if (source !== "written") {
      const key = scopedConfigKey(server, `${objectName}-${attribute}`.replace(/[^A-Za-z0-9-]/g, "-"));
      if (!secrets.some((secret) => secret.key === key))
        secrets.push({
          key,
          holds: `${attribute} of ${objectName}${server === undefined ? "" : ` on ${server.name}`}`,
          ...(source === "config" ? { plain: true } : {}),
        });
      return source === "secret" ? { secretConfig: key } : { reference: key };
    }
    const image = attribute === "provmethod" ? images.get(text) : undefined;
    if (image) return { reference: `${image}.name` };
    const host = attribute === "vmhost" ? hosts.get(text) : undefined;
    if (host) return { reference: `${host}.name` };
    return { text };
  };
  const attributeMap = (objectName: string, attributes: Readonly<Record<string, string>>) =>
    new Map(Object.entries(attributes).map(([name, text]) => [name, value(objectName, name, text)]));
  const plain = (record: Readonly<Record<string, string>>) =>
    new Map(Object.entries(record).map(([name, text]) => [name, { text } as Value]));
  const adopt = ["adopt", { reference: "adopt" }] as const;

  for (const [key, text] of cluster.site) {
    push({
      key: take(`site-${key}`, "site"),
      type: "xcat:index:GlobalConfAttribute",
      properties: [
        ["name", { text: key }],
        ["value", value("site", key, text)],
      ],
    });
  }
  for (const [name, attributes] of cluster.networks) {
    const { net = "", mask = "", ...rest } = attributes;
    push({
      key: take(name, "network"),
      type: "xcat:index:Network",
      properties: [
        ["name", { text: name }],
        ["net", { text: net }],
        ["mask", { text: mask }],
        ...(Object.keys(rest).length > 0 ? [["attributes", attributeMap(name, rest)] as const] : []),
        adopt,
      ],
    });
  }
  for (const [name, attributes] of cluster.osimages) {
    const key = take(name, "image");
    images.set(name, key);
    push({
      key,
      type: "xcat:index:Osimage",
      properties: [["name", { text: name }], ["attributes", attributeMap(name, attributes)], adopt],
    });
  }
  for (const [priority, attributes] of cluster.policies) {
    push({
      key: take(`policy-${priority}`, "policy"),
      type: "xcat:index:Policy",
      properties: [
        ["priority", { text: priority }],
        ["attributes", attributeMap(`policy-${priority}`, attributes)],
        adopt,
      ],
    });
  }
  for (const [name, attributes] of cluster.groups) {
    push({
      key: take(name, "group"),
      type: "xcat:index:Group",
      properties: [["name", { text: name }], ["attributes", attributeMap(name, attributes)], adopt],
    });
  }
  for (const row of cluster.tableRows) {
    push({
      key: take(`${row.table}-${Object.values(row.keys).join("-")}`, "row"),
      type: "xcat:index:TableRow",
      properties: [
        ["table", { text: row.table }],
        ["keys", plain(row.keys)],
        ["values", plain(row.values)],
        adopt,
      ],
    });
  }
  // Racks as NodeSets: common values in attributes, each node's own in its row of the CSV file.
  for (const set of cluster.nodeSets ?? []) {
    push({
      key: take(nodeSetResourceName(set), "set"),
      type: "xcat:index:NodeSet",
      properties: [
        ["groups", set.groups],
        ...(Object.keys(set.attributes).length > 0
          ? [["attributes", attributeMap(set.name, set.attributes)] as const]
          : []),
        ["csv", { readFile: `./${inventoryPath(set, server?.name)}` }],
        adopt,
      ],
    });
  }
  // VM hosts before their guests, so a guest's vmhost can refer to its host's resource.
  const nodes = [...cluster.runs.flatMap(expandRun), ...cluster.singles].sort(
    (a, b) => Number(a.attributes.vmhost !== undefined) - Number(b.attributes.vmhost !== undefined),
  );
  const vmHosts = new Set(nodes.map((node) => node.attributes.vmhost).filter((host) => host !== undefined));
  for (const node of nodes) {
    const key = take(node.name, "node");
    if (vmHosts.has(node.name)) hosts.set(node.name, key);
    push({
      key,
      type: "xcat:index:Node",
      properties: [
        ["name", { text: node.name }],
        ["groups", node.groups],
        ["attributes", attributeMap(node.name, node.attributes)],
        adopt,
      ],
    });
  }
  // The image each node booted: adopt takes over the nodes that run it without touching them.
  for (const deployment of cluster.deployments ?? []) {
    const image = images.get(deployment.osimage);
    push({
      key: take(deploymentName(deployment.osimage), "deployment"),
      type: "xcat:index:Deployment",
      properties: [
        ["nodes", { text: deploymentRange(deployment) }],
        ["osimage", image ? { reference: `${image}.name` } : { text: deployment.osimage }],
        adopt,
      ],
    });
  }

  return resources;
}
