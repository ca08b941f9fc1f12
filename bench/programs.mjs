/**
 * The Pulumi programs the benchmark runs, written as plain JavaScript (no TypeScript step). The
 * xcat and floor programs declare N nodes plus a network, a group, an OS image and a site
 * attribute, with the same names, types and input shapes. "xcat" uses pulumi-xcat; "floor"
 * replaces it with a dynamic provider that does no I/O, so its cost is the engine's own. Every
 * node's `provmethod` comes from BENCH_IMAGE, so an `up` with another value is an image roll.
 */

/** Inputs shared by the programs, so the engine moves the same data for each. */
const SHAPE = `
const N = Number(process.env.BENCH_NODES ?? "10");
const IMAGE = process.env.BENCH_IMAGE ?? "rhels9.4-x86_64-netboot-compute";
const host = (i) => Math.floor(i / 250) + "." + ((i % 250) + 1);
const nodeArgs = (i) => ({
  groups: ["bench", "all"],
  attributes: { mgt: "ipmi", ip: "10.20." + host(i), bmc: "10.21." + host(i), arch: "x86_64", provmethod: IMAGE },
});
const nodeName = (i) => "bn" + String(i).padStart(5, "0");
`;

/** pulumi-xcat's resources. */
export const XCAT_PROGRAM = `"use strict";
const xcat = require("pulumi-xcat");
${SHAPE}
new xcat.Network("benchnet", { net: "10.20.0.0", mask: "255.255.0.0" });
new xcat.Group("bench", { attributes: { netboot: "xnba" } });
new xcat.Osimage("bench-image", { attributes: { imagetype: "linux", osvers: "rhels9.4", osarch: "x86_64" } });
new xcat.GlobalConfAttribute("benchsite", { value: "1" });
for (let i = 1; i <= N; i++) new xcat.Node(nodeName(i), nodeArgs(i));
`;

/** Only N pulumi-xcat nodes: a stack that manages a few nodes of a large cluster. */
export const XCAT_NODES_PROGRAM = `"use strict";
const xcat = require("pulumi-xcat");
${SHAPE}
for (let i = 1; i <= N; i++) new xcat.Node(nodeName(i), nodeArgs(i));
`;

/**
 * The floor: the same registrations through one no-op dynamic provider that moves the same data
 * as pulumi-xcat's: each resource carries a secret input (the engine encrypts it), its outputs add
 * the attribute map xCAT would report (\`allAttributes\`, what the emulator reports for these
 * nodes), and read returns inputs as well as outputs. Only the I/O and our code are missing.
 */
export const FLOOR_PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
${SHAPE}
const reportedOf = (inputs) => {
  const reported = { ...inputs.attributes };
  if (Array.isArray(inputs.groups)) {
    Object.assign(reported, {
      groups: inputs.groups.join(","),
      netboot: "xnba",
      postbootscripts: "otherpkgs",
      postscripts: "syslog,remoteshell,syncfiles",
    });
  }
  return reported;
};
const noop = {
  // Like pulumi-xcat's check, which returns the inputs with adopt made a boolean.
  async check(_olds, news) { return { inputs: { ...news, adopt: news.adopt === true } }; },
  async diff(_id, olds, news) {
    const strip = (o) => Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith("__") && k !== "allAttributes"));
    return { changes: JSON.stringify(strip(olds)) !== JSON.stringify(strip(news)) };
  },
  async create(inputs) {
    return { id: String(inputs.name), outs: { ...inputs, allAttributes: reportedOf(inputs) } };
  },
  async read(id, props) {
    const { allAttributes, ...inputs } = props;
    return { id, props, inputs };
  },
  async update(_id, _olds, news) { return { outs: { ...news, allAttributes: reportedOf(news) } }; },
  async delete() {},
};
const make = (type, name, props) =>
  new pulumi.dynamic.Resource(
    noop,
    name,
    // The keys pulumi-xcat's classes register when adopt and connection are not set (an unset
    // input is left out: Pulumi's SDK pays for every key, sent or not).
    { name, attributes: {}, secretAttributes: pulumi.secret({}), allAttributes: undefined, ...props },
    {},
    "xcat",
    type,
  );
make("Network", "benchnet", { net: "10.20.0.0", mask: "255.255.0.0" });
make("Group", "bench", { attributes: { netboot: "xnba" } });
make("Osimage", "bench-image", { attributes: { imagetype: "linux", osvers: "rhels9.4", osarch: "x86_64" } });
make("GlobalConfAttribute", "benchsite", { value: "1" });
for (let i = 1; i <= N; i++) make("Node", nodeName(i), nodeArgs(i));
`;

/**
 * The same cluster as XCAT_PROGRAM's nodes, as NodeSets of BENCH_SET_SIZE nodes (default 40, a
 * rack): the same node names, groups and values (ip and bmc per node in the rows, the rest common
 * to the set), plus the same four other resources; with pulumi-xcat's dynamic classes
 * ("pulumi-xcat") or the native provider's (`pulumi-xcat/native`, the same inputs).
 */
const nodeSetProgram = (module) => `"use strict";
const xcat = require("${module}");
${SHAPE}
const SET_SIZE = Number(process.env.BENCH_SET_SIZE ?? "40");
new xcat.Network("benchnet", { net: "10.20.0.0", mask: "255.255.0.0" });
new xcat.Group("bench", { attributes: { netboot: "xnba" } });
new xcat.Osimage("bench-image", { attributes: { imagetype: "linux", osvers: "rhels9.4", osarch: "x86_64" } });
new xcat.GlobalConfAttribute("benchsite", { value: "1" });
for (let first = 1, set = 1; first <= N; first += SET_SIZE, set++) {
  const rows = {};
  for (let i = first; i < Math.min(first + SET_SIZE, N + 1); i++) {
    const { ip, bmc } = nodeArgs(i).attributes;
    rows[nodeName(i)] = { ip, bmc };
  }
  const { ip: _ip, bmc: _bmc, ...common } = nodeArgs(first).attributes;
  new xcat.NodeSet("rack" + String(set).padStart(3, "0"), { groups: nodeArgs(first).groups, attributes: common, rows });
}
`;
export const XCAT_NODESET_PROGRAM = nodeSetProgram("pulumi-xcat");
export const XCAT_NODESET_NATIVE_PROGRAM = nodeSetProgram("pulumi-xcat/native");

/**
 * The nodeset cluster as a YAML program of the native provider (`xcat:index:NodeSet`, run by
 * pulumi-resource-xcat), each set's per-node values in a CSV file beside it, as `pulumi-xcat import
 * --language yaml` writes a cluster: the same node names, groups and values as
 * XCAT_NODESET_PROGRAM's, and the same four other resources. YAML reads no environment, so the
 * image is the stack's config value `benchImage` (the bench sets it before each step). Returns the
 * files of the program's folder, by relative path.
 */
export function nodeSetYamlFiles(nodes, setSize) {
  const host = (i) => `${Math.floor(i / 250)}.${(i % 250) + 1}`;
  const nodeName = (i) => `bn${String(i).padStart(5, "0")}`;
  // YAML's interpolation of the config value, not a template of ours.
  const image = "$" + "{benchImage}";
  const files = {};
  const yaml = [
    "name: bench-nodeset-yaml",
    "runtime: yaml",
    "config:",
    "  benchImage:",
    "    type: string",
    "resources:",
    "  benchnet:",
    "    type: xcat:index:Network",
    "    properties: { net: 10.20.0.0, mask: 255.255.0.0 }",
    "  bench:",
    "    type: xcat:index:Group",
    "    properties: { attributes: { netboot: xnba } }",
    "  bench-image:",
    "    type: xcat:index:Osimage",
    "    properties: { attributes: { imagetype: linux, osvers: rhels9.4, osarch: x86_64 } }",
    "  benchsite:",
    "    type: xcat:index:GlobalConfAttribute",
    '    properties: { value: "1" }',
  ];
  for (let first = 1, set = 1; first <= nodes; first += setSize, set++) {
    const rack = `rack${String(set).padStart(3, "0")}`;
    const csv = ["node,ip,bmc"];
    for (let i = first; i < Math.min(first + setSize, nodes + 1); i++)
      csv.push(`${nodeName(i)},10.20.${host(i)},10.21.${host(i)}`);
    files[`inventory/${rack}.csv`] = `${csv.join("\n")}\n`;
    yaml.push(
      `  ${rack}:`,
      "    type: xcat:index:NodeSet",
      "    properties:",
      "      groups: [bench, all]",
      `      attributes: { mgt: ipmi, arch: x86_64, provmethod: "${image}" }`,
      "      csv:",
      `        fn::readFile: ./inventory/${rack}.csv`,
    );
  }
  files["Pulumi.yaml"] = `${yaml.join("\n")}\n`;
  return files;
}
