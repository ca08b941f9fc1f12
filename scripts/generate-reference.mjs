#!/usr/bin/env node
// Writes docs/reference/<Kind>.md, one page per resource kind, from the native provider's schema
// (dist/native/schema.json, itself generated from the TypeScript classes at build), the specs'
// own replaceKeys (asked, one input at a time, which change replaces the resource) and excerpts
// of the lab programs the tests run (examples/lab, examples/lab-yaml, examples/lab-python), so
// every example on a page is code a test runs or compiles.
//
//   node scripts/generate-reference.mjs          # after `npm run build`
//
// test/unit/reference-docs.test.ts renders the pages in memory and fails when one on disk differs.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

/**
 * The id each kind's create returns, which `pulumi import <type> <name> <id>` takes (the specs'
 * create: attribute-object.ts idInput, table-row.ts tableRowId, deployment.ts and power-state.ts
 * the noderange).
 */
const IMPORT_IDS = {
  Node: "the node name",
  Group: "the group name",
  Osimage: "the image name",
  Network: "the network name",
  Policy: "the priority",
  GlobalConfAttribute: "the site attribute's name",
  TableRow: "`<table>:<key>=<value>[,…]`",
  VirtualMachine: "the VM node's name",
  Deployment: "the noderange",
  PowerState: "the noderange",
  NodeSet: "the noderange of its nodes at creation",
};

/**
 * Kinds that cannot be read from an id alone (their read needs the recorded rows), with what to
 * do instead: no `get`, no `pulumi import`.
 */
const NOT_IMPORTABLE = {
  NodeSet:
    "A NodeSet cannot be read from its id alone yet (no `NodeSet.get`, no `pulumi import`; issue #38): declare it with its rows, and `adopt: true` takes existing nodes over (the preview lists per node what changes).",
};

/**
 * Kinds the lab programs do not hold: their examples come from the e2e programs that run them
 * (test/e2e/node-set.test.ts runs both), in TypeScript and YAML only.
 */
const OWN_EXAMPLES = {
  NodeSet: {
    ts: "test/e2e/programs/node-set-ts/index.ts",
    yaml: "test/e2e/programs/node-set-yaml/Pulumi.yaml",
  },
};

/** Kinds test/e2e/native-import.test.ts imports with the engine's `pulumi import` (YAML). */
const IMPORT_TESTED = new Set(["Node", "Network", "GlobalConfAttribute", "TableRow"]);

/** The spec module and export of each kind (src/provider/resources). */
function specOf(kind) {
  const file = kind.replace(/[A-Z]/g, (c, i) => (i === 0 ? c.toLowerCase() : `-${c.toLowerCase()}`));
  const exportName = `${kind[0].toLowerCase()}${kind.slice(1)}Spec`;
  return require(resolve(repoRoot, "dist/provider/resources", `${file}.js`))[exportName];
}

/** Two different values of a schema property's type, the second smaller where size matters. */
function samplePair(property) {
  switch (property.type) {
    case "string":
      return ["a1", "b2"];
    case "integer":
    case "number":
      return [2, 1];
    case "boolean":
      return [true, false];
    case "array":
      return property.items?.type === "number" || property.items?.type === "integer"
        ? [[2], [1]]
        : [["a1"], ["b2"]];
    default:
      return [{ k: "a1" }, { k: "b2" }];
  }
}

/** The inputs whose change alone makes the kind's spec answer "replace". */
function replacingInputs(kind, inputs) {
  const spec = specOf(kind);
  const base = Object.fromEntries(Object.entries(inputs).map(([name, p]) => [name, samplePair(p)[0]]));
  return Object.keys(inputs).filter((name) => {
    const changed = { ...base, [name]: samplePair(inputs[name])[1] };
    return spec.replaceKeys(base, changed).includes(name);
  });
}

function typeText(schema, property) {
  if (property.$ref) return `\`${property.$ref.replace("#/types/xcat:index:", "")}\``;
  if (property.type === "array") return `list of ${typeText(schema, property.items ?? {})}`;
  if (property.type === "object" && property.additionalProperties)
    return `map of ${typeText(schema, property.additionalProperties)}`;
  if (property.oneOf) return property.oneOf.map((member) => typeText(schema, member)).join(" or ");
  if (property.enum) return property.enum.map((e) => `\`${JSON.stringify(e.value ?? e)}\``).join(" \\| ");
  return property.type ?? "any";
}

/** A default as the class's doc comment states it ("(default 60)", "`keep` (default)", "Default true."). */
function defaultOf(description = "") {
  const match =
    /\(default ([^;)]+)[;)]/.exec(description) ??
    /(`[^`]+`) \(default\)/.exec(description) ??
    /\bDefault ([^.]+)\./.exec(description) ??
    /\bdefaults to ([^.;]+)[.;]/.exec(description);
  return match?.[1]?.trim() ?? "";
}

function changeText(name, replacing) {
  if (name === "connection") return "replaces when it names another server";
  return replacing.has(name) ? "replaces" : "updates in place";
}

function cell(text) {
  return (text ?? "").replace(/\|/g, "\\|").replace(/\n+/g, " ").trim();
}

/** The statement starting at the first line matching `start`, through its closing bracket. */
function excerpt(file, start) {
  const lines = readFileSync(resolve(repoRoot, file), "utf8").split("\n");
  const first = lines.findIndex((line) => start.test(line));
  if (first < 0) return undefined;
  let depth = 0;
  let last = first;
  for (let i = first; i < lines.length; i++) {
    for (const c of lines[i]) {
      if (c === "(" || c === "{" || c === "[") depth++;
      if (c === ")" || c === "}" || c === "]") depth--;
    }
    last = i;
    if (depth <= 0) break;
  }
  return dedent(lines.slice(first, last + 1));
}

/** The first resource of a type in a YAML program: its key line and what is indented under it. */
function yamlExcerpt(file, kind) {
  const lines = readFileSync(resolve(repoRoot, file), "utf8").split("\n");
  const typeLine = lines.findIndex((line) => line.trim() === `type: xcat:index:${kind}`);
  if (typeLine < 1) return undefined;
  const first = typeLine - 1;
  const indent = lines[first].search(/\S/);
  let last = typeLine;
  for (let i = typeLine + 1; i < lines.length; i++) {
    if (lines[i].trim() !== "" && lines[i].search(/\S/) <= indent) break;
    if (lines[i].trim() !== "") last = i;
  }
  return [
    "resources:",
    ...dedent(lines.slice(first, last + 1))
      .split("\n")
      .map((l) => `  ${l}`),
  ].join("\n");
}

function dedent(lines) {
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.search(/\S/)));
  return lines.map((l) => l.slice(indent)).join("\n");
}

const EXAMPLE_SOURCES = [
  [
    "TypeScript",
    "ts",
    "examples/lab/index.ts",
    (kind) => excerpt("examples/lab/index.ts", new RegExp(`new xcat\\.${kind}\\(`)),
  ],
  [
    "YAML",
    "yaml",
    "examples/lab-yaml/Pulumi.yaml",
    (kind) => yamlExcerpt("examples/lab-yaml/Pulumi.yaml", kind),
  ],
  [
    "Python",
    "python",
    "examples/lab-python/__main__.py",
    (kind) => excerpt("examples/lab-python/__main__.py", new RegExp(`(^|[^.\\w])xcat\\.${kind}\\(`)),
  ],
];

function page(schema, kind) {
  const resource = schema.resources[`xcat:index:${kind}`];
  const required = new Set(resource.requiredInputs ?? []);
  const replacing = new Set(replacingInputs(kind, resource.inputProperties));
  const out = [
    `<!-- Generated by scripts/generate-reference.mjs from the native provider's schema; do not edit. -->`,
    `# ${kind}`,
    "",
    `TypeScript: \`new xcat.${kind}(name, args)\` from \`pulumi-xcat\`. YAML, Python and Go (native provider): type \`xcat:index:${kind}\`.`,
    "",
    resource.description,
    "",
    "## Inputs",
    "",
    "| Input | Type | Required | Default | Changing it | Description |",
    "|---|---|---|---|---|---|",
  ];
  for (const [name, property] of Object.entries(resource.inputProperties)) {
    const stated =
      property.default !== undefined
        ? `\`${JSON.stringify(property.default)}\``
        : defaultOf(property.description);
    // The native provider's NAME_DEFAULTS: an optional `name` is the resource's name.
    const dflt = stated || (name === "name" && !required.has(name) ? "the Pulumi resource name" : "");
    out.push(
      `| \`${name}\` | ${cell(typeText(schema, property))}${property.secret ? " (secret)" : ""} | ${required.has(name) ? "yes" : "no"} | ${dflt} | ${changeText(name, replacing)} | ${cell(property.description)} |`,
    );
  }
  out.push(
    "",
    'A `connection` (or, in YAML, Python and Go, a provider) naming another server moves the resource: a replacement ([confluent.md](../confluent.md), "Moving a resource within one stack").',
    "",
    "## Outputs",
    "",
    "All inputs, and:",
    "",
    "| Output | Type | Description |",
    "|---|---|---|",
  );
  for (const [name, property] of Object.entries(resource.properties)) {
    if (name in resource.inputProperties) continue;
    out.push(
      `| \`${name}\` | ${cell(typeText(schema, property))}${property.secret ? " (secret)" : ""} | ${cell(property.description)} |`,
    );
  }
  out.push(
    "",
    "## Import",
    "",
    `The id is ${IMPORT_IDS[kind]}.`,
    "",
    ...(NOT_IMPORTABLE[kind]
      ? [NOT_IMPORTABLE[kind]]
      : [
          `- YAML: \`pulumi import xcat:index:${kind} <resource name> <id>\`${IMPORT_TESTED.has(kind) ? " (test/e2e/native-import.test.ts imports this kind)" : " (the native provider's import; no test imports this kind yet)"}. Python and Go programs reach the same provider but are not run here ([support matrix](../support-matrix.md), note N1).`,
          `- TypeScript: the engine's \`pulumi import\` cannot import the dynamic class \`xcat.${kind}\`; \`pulumi import xcat:index:${kind} <resource name> <id>\` imports the object through the native provider's class and prints code for \`pulumi-xcat/native\`${kind === "Node" ? " (test/e2e/typescript-import.test.ts)" : " (the same path; test/e2e/typescript-import.test.ts imports Nodes)"} ([support matrix](../support-matrix.md), note N6). For the dynamic class, \`${kind}.get(name, id)\` reads the object without managing it${"adopt" in resource.inputProperties ? ", `adopt: true` takes it over" : ""}, and \`pulumi-xcat import\` writes a program for a whole cluster ([bring-a-cluster-under-code.md](../bring-a-cluster-under-code.md)).`,
        ]),
    "",
    "## Examples",
  );
  const own = OWN_EXAMPLES[kind];
  const sources = own
    ? [
        ["TypeScript", "ts", own.ts, (k) => excerpt(own.ts, new RegExp(`new xcat\\.${k}\\(`))],
        ["YAML", "yaml", own.yaml, (k) => yamlExcerpt(own.yaml, k)],
      ]
    : EXAMPLE_SOURCES;
  for (const [language, fence, file, extract] of sources) {
    const code = extract(kind);
    if (code === undefined) continue;
    out.push("", `${language}, from [${file}](../../${file}):`, "", `\`\`\`${fence}`, code, "```");
  }
  return `${out.join("\n")}\n`;
}

function index(schema, kinds) {
  const lines = [
    `<!-- Generated by scripts/generate-reference.mjs from the native provider's schema; do not edit. -->`,
    "# Reference",
    "",
    "One page per resource kind, generated from the native provider's schema (itself generated from",
    "the TypeScript classes), so TypeScript, YAML, Python and Go programs see the same inputs.",
    "Which kind works on which way in: [support-matrix.md](../support-matrix.md).",
    "",
    "| Kind | What it manages |",
    "|---|---|",
  ];
  for (const kind of kinds) {
    const first = schema.resources[`xcat:index:${kind}`].description.split(/(?<=\.)\s/)[0];
    lines.push(`| [${kind}](${kind}.md) | ${cell(first)} |`);
  }
  return `${lines.join("\n")}\n`;
}

/** Every page, as a map from its path under the repository to its text. */
export function referencePages() {
  const schema = JSON.parse(readFileSync(resolve(repoRoot, "dist/native/schema.json"), "utf8"));
  const kinds = Object.keys(schema.resources).map((token) => token.replace("xcat:index:", ""));
  const pages = new Map([["docs/reference/README.md", index(schema, kinds)]]);
  for (const kind of kinds) pages.set(`docs/reference/${kind}.md`, page(schema, kind));
  return pages;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(resolve(repoRoot, "docs/reference"), { recursive: true });
  for (const [path, text] of referencePages()) writeFileSync(resolve(repoRoot, path), text);
}
