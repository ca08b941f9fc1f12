#!/usr/bin/env node
// Writes dist/native/schema.json, the Pulumi package schema of the native provider
// (pulumi-resource-xcat), from the TypeScript resource classes that TypeScript users program
// against: their Args interfaces give the inputs, their `declare readonly … : pulumi.Output<…>`
// fields the outputs, and their doc comments the descriptions. One source of truth: a field added
// to a class appears in the schema, in YAML programs and in the generated SDKs at the next build.
//
//   node scripts/generate-native-schema.mjs [out file]
//
// Runs at build time only (it needs the `typescript` dev dependency); the package ships the result.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outFile = resolve(process.argv[2] ?? resolve(repoRoot, "dist/native/schema.json"));
const classesDir = resolve(repoRoot, "src/provider/classes") + sep;
const { version } = JSON.parse(readFileSync(resolve(repoRoot, "package.json"), "utf8"));

// The kinds served and how the native provider shapes their inputs: from the compiled
// src/native/kinds.ts (the build runs tsc first), so schema and provider cannot disagree.
const {
  NATIVE_KINDS: KINDS,
  ATTRIBUTE_KINDS,
  NAME_DEFAULTS,
} = createRequire(import.meta.url)(resolve(repoRoot, "dist/native/kinds.js"));
// Every provider setting, from the compiled src/provider/config.ts: each is a config variable and
// an input of `pulumi:providers:xcat`, so a setting a message tells a user to set works for an
// explicit provider too.
const { PROVIDER_SETTINGS } = createRequire(import.meta.url)(resolve(repoRoot, "dist/provider/config.js"));
/** Interfaces that become named object types of the schema. */
const NAMED_TYPES = {
  ConnectionArgs: "xcat:index:Connection",
  DeploymentNodeState: "xcat:index:DeploymentNodeState",
};
/** Input or output properties held as secrets (the TypeScript classes' additionalSecretOutputs). */
const SECRET_PROPERTIES = new Set(["connection", "secretAttributes", "password", "token"]);

const program = ts.createProgram([resolve(repoRoot, "src/index.ts")], {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  skipLibCheck: true,
  noEmit: true,
});
const checker = program.getTypeChecker();
const index = program.getSourceFile(resolve(repoRoot, "src/index.ts"));
const exports = new Map(
  checker.getExportsOfModule(checker.getSymbolAtLocation(index)).map((s) => [s.name, s]),
);
const types = {};

function docOf(symbol) {
  // JSDoc's line breaks are wrapping; a blank line stays a paragraph break.
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  return text.replace(/([^\n])\n(?!\n)/g, "$1 ");
}

/** Drops what pulumi.Input adds (Promise, Output) and null/undefined from a union's members. */
function plainMembers(type) {
  const members = type.isUnion() ? type.types : [type];
  return members.filter(
    (member) =>
      !(member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)) &&
      !checker.getPropertyOfType(member, "then") &&
      !checker.getPropertyOfType(member, "apply"),
  );
}

function kindOf(type) {
  if (type.flags & ts.TypeFlags.StringLike) return "string";
  if (type.flags & ts.TypeFlags.NumberLike) return "number";
  if (type.flags & ts.TypeFlags.BooleanLike) return "boolean";
  if (checker.isArrayType(type)) return "array";
  return "object";
}

function schemaOf(type, where) {
  const members = plainMembers(type);
  const kinds = [...new Set(members.map(kindOf))];
  if (kinds.length === 0) throw new Error(`${where}: no schema type for ${checker.typeToString(type)}`);
  if (kinds.length > 1) {
    return {
      oneOf: kinds.map((kind) =>
        schemaOf(
          members.find((m) => kindOf(m) === kind),
          where,
        ),
      ),
    };
  }
  const [kind] = kinds;
  if (kind === "string") {
    const literals = members.filter((m) => m.isStringLiteral()).map((m) => m.value);
    return literals.length === members.length && literals.length > 0
      ? { type: "string", enumValues: literals }
      : { type: "string" };
  }
  if (kind === "number" || kind === "boolean") return { type: kind };
  const [single] = members;
  if (kind === "array") return { type: "array", items: schemaOf(checker.getTypeArguments(single)[0], where) };
  const name = single.aliasSymbol?.name ?? single.getSymbol()?.name;
  const named = NAMED_TYPES[name];
  if (named) {
    defineType(named, single);
    return { $ref: `#/types/${named}` };
  }
  const indexInfo = checker.getIndexInfoOfType(single, ts.IndexKind.String);
  if (indexInfo) return { type: "object", additionalProperties: schemaOf(indexInfo.type, where) };
  // An attribute interface (NodeAttributes, …): a map of strings whose keys xCAT defines.
  return { type: "object", additionalProperties: { type: "string" } };
}

function withEnumText(property) {
  // Pulumi's enums are named types; a set of allowed strings is told in the description instead.
  const { enumValues, ...rest } = property;
  if (!enumValues) return property;
  const allowed = `One of: ${enumValues.map((v) => `\`${v}\``).join(", ")}.`;
  return { ...rest, description: rest.description ? `${rest.description} ${allowed}` : allowed };
}

function propertyOf(symbol, type, where) {
  const property = { ...schemaOf(type, `${where}.${symbol.name}`) };
  const description = docOf(symbol);
  if (description) property.description = description;
  if (SECRET_PROPERTIES.has(symbol.name)) property.secret = true;
  if (property.oneOf) property.oneOf = property.oneOf.map(withEnumText);
  return withEnumText(property);
}

function propertiesOf(type, where) {
  const properties = {};
  const required = [];
  for (const symbol of checker.getPropertiesOfType(type)) {
    const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
    properties[symbol.name] = propertyOf(
      symbol,
      checker.getTypeOfSymbolAtLocation(symbol, declaration),
      where,
    );
    if (!(symbol.flags & ts.SymbolFlags.Optional)) required.push(symbol.name);
  }
  return { properties, required };
}

function defineType(token, type) {
  if (types[token]) return;
  types[token] = { type: "object" };
  const { properties, required } = propertiesOf(type, token);
  types[token] = {
    type: "object",
    description: docOf(type.aliasSymbol ?? type.getSymbol()),
    properties,
    ...(required.length > 0 ? { required } : {}),
  };
}

/** The `declare readonly x: pulumi.Output<T>` fields of a class and its bases in src/provider/classes. */
function declaredOutputs(classType, where) {
  const properties = {};
  for (const symbol of checker.getPropertiesOfType(classType)) {
    const declaration = symbol.valueDeclaration;
    if (!declaration || !ts.isPropertyDeclaration(declaration)) continue;
    if (!declaration.getSourceFile().fileName.startsWith(classesDir.split(sep).join("/"))) continue;
    const typeNode = declaration.type;
    if (!typeNode || !ts.isTypeReferenceNode(typeNode) || !typeNode.typeArguments?.[0]) continue;
    const type = checker.getTypeFromTypeNode(typeNode.typeArguments[0]);
    properties[symbol.name] = propertyOf(symbol, type, where);
  }
  return properties;
}

function resourceOf(kind) {
  const symbol = exports.get(kind);
  const classSymbol = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declaration = classSymbol.valueDeclaration;
  const ctor = declaration.members.find(ts.isConstructorDeclaration);
  const argsType = checker.getTypeAtLocation(ctor.parameters[1]);
  const token = `xcat:index:${kind}`;
  const inputs = propertiesOf(argsType, token);
  if (NAME_DEFAULTS.has(kind)) inputs.required = inputs.required.filter((name) => name !== "name");
  const outputs = declaredOutputs(checker.getDeclaredTypeOfSymbol(classSymbol), token);
  if (ATTRIBUTE_KINDS.has(kind)) {
    outputs.secretAttributes = {
      type: "object",
      additionalProperties: { type: "string" },
      secret: true,
      description:
        "The declared password attributes (any whose name looks like a password), kept as a secret.",
    };
  }
  // The state holds the inputs too (the provider returns them with the outputs).
  const properties = { ...inputs.properties, ...outputs };
  return {
    description: docOf(classSymbol),
    inputProperties: inputs.properties,
    ...(inputs.required.length > 0 ? { requiredInputs: inputs.required } : {}),
    properties,
    required: Object.keys(outputs).filter((name) => !["previousValue", "secretAttributes"].includes(name)),
  };
}

const resources = Object.fromEntries(KINDS.map((kind) => [`xcat:index:${kind}`, resourceOf(kind)]));

// Provider configuration: the connection's fields (as ConnectionArgs describes them) and the
// process-wide settings of src/provider/config.ts (PROVIDER_SETTINGS).
const connection = types["xcat:index:Connection"].properties;
const { token: _token, ...connectionConfig } = connection;
const config = { ...connectionConfig, token: connection.token };
for (const { key, schema } of PROVIDER_SETTINGS) {
  if (schema) config[key] = { ...schema, ...(schema.items ? { items: { ...schema.items } } : {}) };
  else if (!config[key])
    throw new Error(`provider setting '${key}' has neither a schema nor a Connection field`);
}
// Explicit providers serve one management node each: the URL is where the configuration starts.
config.url = { ...config.url, description: `${config.url.description ?? ""} Also XCAT_URL.`.trim() };

const schema = {
  name: "xcat",
  displayName: "xCAT",
  version,
  description:
    "Manage an xCAT cluster (nodes, groups, images, networks, deployments) through xCAT's REST API.",
  keywords: ["pulumi", "xcat", "hpc", "bare-metal", "kind/native"],
  license: "Apache-2.0",
  meta: { moduleFormat: "(.*)" },
  config: { variables: config },
  provider: { description: "The xCAT management node to manage.", inputProperties: config },
  types,
  resources,
  language: {
    python: { packageName: "pulumi_xcat", respectSchemaVersion: true },
    go: {
      importBasePath: "github.com/pulumi-xcat/pulumi-xcat/sdk/go/xcat",
      generateResourceContainerTypes: false,
    },
    // The Node.js SDK ships inside this package (sdk/nodejs, built into dist/native-sdk): the
    // code `pulumi import` writes for a TypeScript program imports it from there, not from an
    // npm package of its own.
    nodejs: { packageName: "pulumi-xcat/native" },
  },
};

mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, `${JSON.stringify(schema, null, 2)}\n`);
