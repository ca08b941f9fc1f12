/**
 * `pulumi-xcat import`: reads a live xCAT in a bounded number of requests (one ALLRESOURCES GET
 * per object kind, one for the site table) and writes a ready-to-run Pulumi project: TypeScript
 * on the dynamic resources, or (`--language yaml`) a Pulumi YAML program for the native provider.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { XcatClient } from "../../client";
import { ConfluentClient } from "../../client/confluent";
import {
  declaredAttributes,
  ownAttributes,
  splitGroups,
  XCATDEFAULTS,
} from "../../contract/node-inheritance";
import { tableSchema } from "../../contract/schema";
import {
  clientOptionsFor,
  confluentClientOptionsOf,
  type ProviderSettings,
  settingsFrom,
} from "../../provider/config";
import { readConfluentCluster } from "./confluent";
import {
  isDefaultGroupAttribute,
  isDefaultPolicy,
  isDefaultPostscripts,
  isDefaultSiteValue,
  XCATCONFIG_POSTSCRIPTS,
} from "./defaults";
import { splitDeployments } from "./deployments";
import {
  duplicateAddresses,
  type Finding,
  mistypedAddresses,
  mistypedInterfaces,
  undefinedGroups,
  validationFindings,
} from "./findings";
import { firstRunLines, type ImportConnection } from "./first-run";
import { groupIntoSets } from "./node-sets";
import {
  type ImportedCluster,
  type ProgramPart,
  type RenderedProgram,
  renderProgram,
  renderServersProgram,
  valueSource,
} from "./render";
import { BACKEND_CONFIG_LINES, expandRun, renderYamlProgram, renderYamlServersProgram } from "./render-yaml";
import { findRuns } from "./runs";
import { collidingNames } from "./server-scope";
import { serversReadme } from "./servers-readme";

const KINDS = ["nodes", "groups", "osimages", "networks", "policy", "site"] as const;

/** Kinds a `--noderange` import leaves out unless `--with` names them: they belong to the whole cluster. */
export const CLUSTER_WIDE = ["site", "policy", "networks"] as const;

export const HELP = `Usage: pulumi-xcat import --out DIR [options]

Reads a live xCAT and writes a Pulumi TypeScript project (Pulumi.yaml, package.json,
tsconfig.json, index.ts, README.md) whose first \`pulumi up\` adopts every object as it is.

Connection (like the provider; flags win over XCAT_* variables):
  --url URL               xcatws base URL (XCAT_URL)
  --username NAME         (XCAT_USERNAME)
  --password-file FILE    file holding the password (else XCAT_PASSWORD)
  --ca-cert FILE          CA certificate of the management node (XCAT_CA_CERT)
  --insecure              skip certificate verification (XCAT_INSECURE)
  --backend KIND          xcat (default) or confluent: read a Confluent server's nodes
                          and groups (--url its /confluent-api) for a program whose
                          Pulumi.yaml sets xcat:backend confluent (XCAT_BACKEND)

Several servers in one program (xCAT management nodes and Confluent servers mixed):
  give --url once per server. The connection flags after a --url are that server's
  own (its account, certificate, --backend); those before the first --url, and the
  XCAT_* variables, hold for every server. The program gets one explicit provider
  (yaml) or connection (typescript) per server, each resource through the one of the
  server it was read from, each server's account in config keys of its own
  (<name>-url, <name>-username, <name>-password as a secret); a resource name two
  servers share gets -<name> (the object keeps its name on its server).
  --name NAME             after a --url: that server's name in the program (default
                          mn1, mn2, ... for xCAT, confluent1, ... for Confluent;
                          mn and confluent when there is one of the kind)
  Example: --url https://mn1/xcatws --password-file mn1.pw
           --url https://mn2/xcatws --name hall2 --password-file mn2.pw
           --url https://cf/confluent-api --backend confluent --password-file cf.pw

Scope:
  --out DIR               where to write the project (required)
  --noderange RANGE       nodes to take (a noderange or groups; default all)
  --kinds LIST            comma list of ${KINDS.join(", ")} (default all)
  --with LIST             with --noderange, also take these cluster-wide kinds:
                          ${CLUSTER_WIDE.join(", ")} (left out by default)
  --tables LIST           also take every row of these tables as TableRow resources
  --exclude PATTERN       leave out objects whose name matches (glob with *, repeatable)
  --include-defaults      also take what still holds the value xcatconfig gives a fresh
                          management node (site settings, policy rows, postscripts rows)
  --language LANG         typescript (default: the dynamic resources) or yaml (a Pulumi
                          YAML program for the native provider pulumi-resource-xcat)
  --grain GRAIN           node: one Node resource per node; set: one NodeSet per rack,
                          each node's own values in inventory/<rack>.csv beside the
                          program (default: set for yaml, node for typescript; with
                          several servers each server's CSVs go to inventory/<name>/)
  --package-spec SPEC     how package.json (or, for yaml, the plugin install line) names
                          pulumi-xcat (default: this package's
                          directory, as file:, since pulumi-xcat is not published)
  --help                  this text
`;

interface ImportArgs {
  out: string;
  /** The connection of the first (or only) server: its flags over the XCAT_* variables. */
  env: NodeJS.ProcessEnv;
  /** Every server given, in the order given; one when no --url or one --url. */
  servers: ImportServer[];
  noderange?: string;
  kinds: Set<string>;
  with: Set<string>;
  tables: string[];
  exclude: RegExp[];
  includeDefaults: boolean;
  packageSpec: string;
  language: ImportLanguage;
  grain: ImportGrain;
}

/** How nodes are declared: a Node each, or a NodeSet per rack (node-sets.ts). */
export const IMPORT_GRAINS = ["node", "set"] as const;
export type ImportGrain = (typeof IMPORT_GRAINS)[number];

/** The languages `--language` takes. */
export const IMPORT_LANGUAGES = ["typescript", "yaml"] as const;
export type ImportLanguage = (typeof IMPORT_LANGUAGES)[number];

export function parseImportArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ImportArgs | "help" {
  // Connection flags before the first --url hold for every server; after a --url, for that one.
  const shared: NodeJS.ProcessEnv = {};
  const given: { env: NodeJS.ProcessEnv; name?: string }[] = [];
  const connectionOf = () => given[given.length - 1]?.env ?? shared;
  const parsed: Partial<ImportArgs> & { exclude: RegExp[] } = { exclude: [], tables: [] };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "--help":
      case "-h":
        return "help";
      case "--url":
        given.push({ env: { XCAT_URL: next() } });
        break;
      case "--name": {
        const server = given[given.length - 1];
        if (server === undefined)
          throw new Error("--name names the server of the --url before it: give --url first");
        server.name = serverName(next());
        break;
      }
      case "--username":
        connectionOf().XCAT_USERNAME = next();
        break;
      case "--password-file":
        connectionOf().XCAT_PASSWORD = readFileSync(next(), "utf8").trim();
        break;
      case "--ca-cert":
        connectionOf().XCAT_CA_CERT = next();
        break;
      case "--insecure":
        connectionOf().XCAT_INSECURE = "true";
        break;
      case "--backend": {
        const backend = next();
        if (backend !== "xcat" && backend !== "confluent")
          throw new Error(`--backend: '${backend}' is not one of xcat, confluent`);
        connectionOf().XCAT_BACKEND = backend;
        break;
      }
      case "--out":
        parsed.out = next();
        break;
      case "--noderange":
        parsed.noderange = next();
        break;
      case "--kinds":
        parsed.kinds = new Set(next().split(","));
        for (const kind of parsed.kinds) {
          if (!(KINDS as readonly string[]).includes(kind))
            throw new Error(`--kinds: unknown kind '${kind}'`);
        }
        break;
      case "--with":
        parsed.with = new Set(next().split(","));
        for (const kind of parsed.with) {
          if (!(CLUSTER_WIDE as readonly string[]).includes(kind))
            throw new Error(`--with: '${kind}' is not one of ${CLUSTER_WIDE.join(", ")}`);
        }
        break;
      case "--tables":
        parsed.tables = next()
          .split(",")
          .filter((t) => t !== "");
        break;
      case "--exclude": {
        const glob = next();
        parsed.exclude.push(
          new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`),
        );
        break;
      }
      case "--include-defaults":
        parsed.includeDefaults = true;
        break;
      case "--package-spec":
        parsed.packageSpec = next();
        break;
      case "--language": {
        const language = next();
        if (!(IMPORT_LANGUAGES as readonly string[]).includes(language))
          throw new Error(`--language: '${language}' is not one of ${IMPORT_LANGUAGES.join(", ")}`);
        parsed.language = language as ImportLanguage;
        break;
      }
      case "--grain": {
        const grain = next();
        if (!(IMPORT_GRAINS as readonly string[]).includes(grain))
          throw new Error(`--grain: '${grain}' is not one of ${IMPORT_GRAINS.join(", ")}`);
        parsed.grain = grain as ImportGrain;
        break;
      }
      default:
        throw new Error(`unknown option '${flag}' (see pulumi-xcat import --help)`);
    }
  }
  if (parsed.out === undefined) throw new Error("--out DIR is required (see pulumi-xcat import --help)");
  const servers = importServers(env, shared, given);
  const merged = (servers[0] as ImportServer).env;
  const language = parsed.language ?? "typescript";
  // YAML has no loops: a NodeSet per rack keeps the program short. TypeScript writes racks as loops.
  const grain = parsed.grain ?? (language === "yaml" ? "set" : "node");
  return {
    out: parsed.out,
    env: merged,
    servers,
    ...(parsed.noderange !== undefined ? { noderange: parsed.noderange } : {}),
    kinds: parsed.kinds ?? new Set(KINDS),
    with: parsed.with ?? new Set(),
    tables: parsed.tables ?? [],
    exclude: parsed.exclude,
    includeDefaults: parsed.includeDefaults ?? false,
    packageSpec: parsed.packageSpec ?? `file:${join(__dirname, "..", "..", "..")}`,
    language,
    grain,
  };
}

/** One server an import reads: its name in the program and its connection (flags over XCAT_* variables). */
export interface ImportServer {
  readonly name: string;
  readonly env: NodeJS.ProcessEnv;
}

/** A server name usable as it is in config keys, YAML keys and TypeScript identifiers. */
function serverName(name: string): string {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name))
    throw new Error(`--name: '${name}' must start with a letter and hold only letters and digits`);
  return name;
}

/**
 * The servers of the command line, each with its connection: the variables, then the flags before
 * the first --url, then its own. Unnamed servers are named by kind (mn, confluent), numbered when
 * there are several of the kind. No --url: the one server XCAT_URL names.
 */
function importServers(
  env: NodeJS.ProcessEnv,
  shared: NodeJS.ProcessEnv,
  given: readonly { env: NodeJS.ProcessEnv; name?: string }[],
): ImportServer[] {
  const list = given.length > 0 ? given : [{ env: {} }];
  const withEnv = list.map((server) => ({ ...server, env: { ...env, ...shared, ...server.env } }));
  const kindOf = (server: { env: NodeJS.ProcessEnv }) =>
    server.env.XCAT_BACKEND === "confluent" ? "confluent" : "mn";
  const counts = new Map<string, number>();
  for (const server of withEnv) counts.set(kindOf(server), (counts.get(kindOf(server)) ?? 0) + 1);
  const numbered = new Map<string, number>();
  const servers = withEnv.map((server) => {
    const kind = kindOf(server);
    const n = (numbered.get(kind) ?? 0) + 1;
    numbered.set(kind, n);
    return { name: server.name ?? ((counts.get(kind) ?? 0) > 1 ? `${kind}${n}` : kind), env: server.env };
  });
  const seen = new Map<string, string>();
  for (const server of servers) {
    const other = seen.get(server.name);
    if (other !== undefined)
      throw new Error(
        `--name: two servers are named '${server.name}' (${other} and ${server.env.XCAT_URL}); name them apart`,
      );
    seen.set(server.name, server.env.XCAT_URL ?? "");
  }
  const urls = servers.map((server) => server.env.XCAT_URL);
  const twice = urls.find((url, i) => url !== undefined && urls.indexOf(url) !== i);
  if (twice !== undefined) throw new Error(`--url ${twice} is given twice: each server once`);
  return servers;
}

const progress = (text: string) => process.stderr.write(`pulumi-xcat import: ${text}\n`);
const defaultProgress = progress;

export async function run(argv: readonly string[]): Promise<number> {
  const args = parseImportArgs(argv, process.env);
  if (args === "help") {
    process.stdout.write(HELP);
    return 0;
  }
  const started = Date.now();
  if (args.servers.length > 1) return runServers(args, started);
  const settings = settingsFrom(() => undefined, args.env);
  if (settings.connection?.backend === "confluent") return runConfluent(args, settings, started);
  const client = new XcatClient(clientOptionsFor(settings.connection, settings));
  try {
    const read = await readCluster(client, args);
    const { left, findings } = read;
    const cluster = inGrain(args, read.cluster);
    const program = args.language === "yaml" ? renderYamlProgram(cluster) : renderProgram(cluster);
    mkdirSync(args.out, { recursive: true });
    const connection = settings.connection;
    if (connection === undefined) throw new Error("no xCAT URL: give --url or XCAT_URL");
    const firstRun: ImportConnection = {
      url: connection.url,
      username: connection.username,
      caCert: connection.caCert,
      insecure: connection.insecure,
      token: connection.token !== undefined && connection.password === undefined,
    };
    writeProject(args, firstRun, program, cluster, left, findings);
    for (const item of left) progress(`left out: ${item}`);
    if (!args.includeDefaults)
      progress("  (run again with --include-defaults to take the unchanged defaults too)");
    if (findings.length > 0) {
      progress(`${findings.length} things worth a look (kept as they are; also in README.md):`);
      for (const finding of findings) progress(`  ${finding.text}`);
    }
    progress(`wrote ${args.out} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  } finally {
    await client.close();
  }
}

/** The import of a Confluent server (confluent.ts): nodes and groups, in the program's attribute names. */
async function runConfluent(args: ImportArgs, settings: ProviderSettings, started: number): Promise<number> {
  const connection = settings.connection;
  if (connection === undefined) throw new Error("no Confluent URL: give --url or XCAT_URL");
  const { cluster, left } = await readConfluentServer(
    args,
    settings,
    "Confluent takes a user and password: give --username and --password-file (or XCAT_PASSWORD)",
    progress,
  );
  const grained = inGrain(args, cluster);
  const program = args.language === "yaml" ? renderYamlProgram(grained) : renderProgram(grained);
  mkdirSync(args.out, { recursive: true });
  writeProject(args, confluentImportConnection(connection), program, grained, left, []);
  for (const item of left) progress(`left out: ${item}`);
  progress(`wrote ${args.out} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

/** Reads a Confluent server's nodes and groups for the import; `credentialsMissing` says what to give. */
async function readConfluentServer(
  args: ImportArgs,
  settings: ProviderSettings,
  credentialsMissing: string,
  say: (line: string) => void,
) {
  const connection = settings.connection;
  if (!connection?.username || !connection.password) throw new Error(credentialsMissing);
  const client = new ConfluentClient(
    confluentClientOptionsOf(connection, connection.username, connection.password, settings.urlAsGiven),
  );
  try {
    const excluded = (name: string) => args.exclude.some((pattern) => pattern.test(name));
    return await readConfluentCluster(
      client,
      { noderange: args.noderange, excluded, kinds: args.kinds },
      say,
    );
  } finally {
    await client.close();
  }
}

/** How the written program's first-run lines reach a Confluent server (no secret). */
function confluentImportConnection(
  connection: NonNullable<ProviderSettings["connection"]>,
): ImportConnection {
  return {
    url: connection.url,
    username: connection.username,
    caCert: connection.caCert,
    insecure: connection.insecure,
    backend: "confluent",
  };
}

/** What one server of several gave the import. */
interface ServerRead extends ReadResult {
  readonly server: ImportServer;
  readonly connection: ImportConnection;
}

/**
 * The import of several servers into one program (issue #36 item 3): each is read as an import
 * of it alone would read it (xCAT or Confluent, racks as NodeSets with --grain set for each),
 * then one program is written with one provider or connection per server (server-scope.ts).
 */
async function runServers(args: ImportArgs, started: number): Promise<number> {
  const reads: ServerRead[] = [];
  for (const server of args.servers) reads.push(await readServer(args, server));
  const colliding = collidingNames(reads.map((read) => read.cluster));
  const parts: ProgramPart[] = reads.map((read) => ({
    cluster: read.cluster,
    server: {
      name: read.server.name,
      backend: read.connection.backend ?? "xcat",
      colliding,
      account: {
        token: read.connection.token === true,
        caCert: read.connection.caCert !== undefined,
        insecure: read.connection.insecure === true,
      },
    },
  }));
  const program = args.language === "yaml" ? renderYamlServersProgram(parts) : renderServersProgram(parts);
  mkdirSync(args.out, { recursive: true });
  writeServersProject(args, program, reads);
  const way = args.language === "yaml" ? "provider" : "connection";
  for (const read of reads) {
    const files = (read.cluster.nodeSets ?? []).length;
    progress(
      `${read.server.name}: ${read.connection.url} (${read.connection.backend ?? "xcat"}), ${way} ${read.server.name}` +
        (files > 0 ? `, ${files} NodeSets with their CSVs in inventory/${read.server.name}/` : ""),
    );
    for (const item of read.left) progress(`  left out: ${item}`);
    for (const finding of read.findings) progress(`  worth a look: ${finding.text}`);
  }
  if (colliding.size > 0)
    progress(
      `names on more than one server, each given -<server> in its resource name: ${[...colliding].sort().join(", ")}`,
    );
  progress(`wrote ${args.out} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

/** One server of several, read as its import alone would read it. */
async function readServer(args: ImportArgs, server: ImportServer): Promise<ServerRead> {
  const say = (text: string) => progress(`${server.name}: ${text}`);
  const settings = settingsFrom(() => undefined, server.env);
  const connection = settings.connection;
  if (connection === undefined) throw new Error(`server ${server.name}: no URL`);
  if (connection.backend === "confluent") {
    const { cluster, left } = await readConfluentServer(
      args,
      settings,
      `server ${server.name} (${connection.url}): Confluent takes a user and password: give --username and --password-file after its --url`,
      say,
    );
    return {
      server,
      cluster: inGrain(args, cluster),
      left,
      findings: [],
      connection: confluentImportConnection(connection),
    };
  }
  const client = new XcatClient(clientOptionsFor(connection, settings));
  try {
    const read = await readCluster(client, args, say);
    return {
      ...read,
      server,
      cluster: inGrain(args, read.cluster),
      connection: {
        url: connection.url,
        username: connection.username,
        caCert: connection.caCert,
        insecure: connection.insecure,
        token: connection.token !== undefined && connection.password === undefined,
      },
    };
  } finally {
    await client.close();
  }
}

/** The cluster in the grain the import writes (`--grain`): as read, or its racks as NodeSets. */
function inGrain(args: Pick<ImportArgs, "grain">, cluster: ImportedCluster): ImportedCluster {
  return args.grain === "set" ? asNodeSets(cluster) : cluster;
}

/**
 * The cluster with its racks as NodeSets (node-sets.ts); the nodes that stay Nodes are found runs
 * in again. A node holding a value the program takes from stack config stays a Node.
 */
export function asNodeSets(cluster: ImportedCluster): ImportedCluster {
  const entries = [...cluster.runs.flatMap(expandRun), ...cluster.singles];
  const { sets, singles } = groupIntoSets(entries, (entry) =>
    Object.keys(entry.attributes).some((attribute) => valueSource(cluster, attribute) !== "written"),
  );
  const { runs, singles: rest } = findRuns(singles);
  return { ...cluster, nodeSets: sets, runs, singles: rest };
}

/** What an import read, what it left out (and how to include it), and what looks wrong. */
export interface ReadResult {
  readonly cluster: ImportedCluster;
  readonly left: string[];
  readonly findings: Finding[];
}

async function readCluster(
  client: XcatClient,
  args: ImportArgs,
  progress: (text: string) => void = defaultProgress,
): Promise<ReadResult> {
  const excluded = (name: string) => args.exclude.some((pattern) => pattern.test(name));
  const left: string[] = [];
  const wanted = (kind: string) => {
    if (!args.kinds.has(kind)) return false;
    if (args.noderange === undefined || !(CLUSTER_WIDE as readonly string[]).includes(kind)) return true;
    if (args.with.has(kind)) return true;
    left.push(`${kind}: --noderange imports part of the cluster; add --with ${kind} to take it too`);
    return false;
  };
  const take = async (kind: string, read: () => Promise<Map<string, Readonly<Record<string, string>>>>) => {
    if (!wanted(kind)) return new Map<string, Readonly<Record<string, string>>>();
    progress(`reading ${kind}…`);
    const all = await read();
    progress(`  ${all.size} ${kind}`);
    return all;
  };
  // Groups are read whole: what nodes inherit, and which group names are defined, needs all of them.
  progress("reading groups…");
  const groups = await client.groups.getMany("ALLRESOURCES");
  const nodes = await take("nodes", () => client.nodes.getMany(args.noderange ?? "ALLRESOURCES"));
  const osimages = await take("osimages", () => client.osimages.getMany("ALLRESOURCES"));
  const networks = await take("networks", () => client.networks.getMany("ALLRESOURCES"));
  const policies = await take("policy", () => client.policy.getMany("ALLRESOURCES"));
  let site: [string, string][] = [];
  // Asked once: a second call would say "left out: site" again under --noderange.
  const siteWanted = wanted("site");
  if (siteWanted) {
    progress("reading site…");
    site = Object.entries(await client.globalconf.get()).filter(
      ([key, value]) => value !== "" && !excluded(key),
    );
  }
  // One request for both; a keyed read of the xcatdefaults row would make xcatd drop the
  // connection (see client.tables.getRows).
  progress("reading the nodegroup and postscripts tables…");
  const { nodegroup = [], postscripts = [] } = await client.tables.getAllRows(["nodegroup", "postscripts"]);
  const tableRows: ImportedCluster["tableRows"][number][] = [];
  if (args.tables.length > 0) {
    progress(`reading tables ${args.tables.join(", ")}…`);
    const rows = await client.tables.getAllRows(args.tables);
    for (const [table, list] of Object.entries(rows)) {
      for (const row of list as Record<string, string>[]) tableRows.push(keyedRow(table, row));
    }
  }

  const xcatdefaults = postscripts.find((row) => row.node === XCATDEFAULTS) ?? {};
  if (!args.includeDefaults) {
    const before = site.length;
    site = site.filter(([key, value]) => !isDefaultSiteValue(key, value));
    if (before > site.length) {
      left.push(
        `${before - site.length} site settings that hold the value xcatconfig gives a fresh management node`,
      );
    }
    let defaults = 0;
    for (const [priority, attributes] of policies) {
      if (isDefaultPolicy(priority, attributes)) {
        policies.delete(priority);
        defaults += 1;
      }
    }
    if (defaults > 0) left.push(`${defaults} policy rows exactly as xcatconfig creates them`);
  }
  if (siteWanted || args.includeDefaults) {
    // The postscripts rows xcatconfig creates (xcatdefaults, service) are cluster-wide, like site.
    const tookTheTable = args.tables.includes("postscripts");
    for (const row of postscripts) {
      const key = row.node ?? "";
      if (!(key in XCATCONFIG_POSTSCRIPTS) || tookTheTable) continue;
      const { node: _key, ...columns } = row;
      if (args.includeDefaults || !isDefaultPostscripts(key, columns))
        tableRows.push(keyedRow("postscripts", row));
      else left.push(`the postscripts row '${key}' as xcatconfig creates it`);
    }
  }

  const groupAttributes = new Map(
    [...groups].map(([name, attributes]) => [name, declaredAttributes(attributes)]),
  );
  const sources = { groups: groupAttributes, defaults: xcatdefaults, images: osimages };
  const kept = [...nodes].filter(([name]) => !excluded(name));
  // A booted node's image goes to a Deployment of it rather than to the node (deployments.ts).
  const split = splitDeployments(
    kept.map(([name, attributes]) => ({
      name,
      groups: splitGroups(attributes.groups),
      attributes: ownAttributes(name, attributes, sources),
    })),
    new Map(kept.map(([name, attributes]) => [name, attributes.status])),
    new Set([...osimages.keys()].filter((name) => !excluded(name))),
  );
  const entries = split.entries;
  const { runs, singles } = findRuns(entries);
  const overridden = runs.reduce((sum, run) => sum + Object.keys(run.overrides).length, 0);
  progress(
    `${entries.length} nodes: ${runs.length} runs (${overridden} nodes with values of their own), ${singles.length} single nodes`,
  );

  // With a noderange, only the groups those nodes use and the images they or those groups name.
  const usedGroups = new Set(entries.flatMap((entry) => entry.groups));
  const scoped = args.noderange !== undefined;
  if (scoped) left.push("groups no imported node names, and OS images none of them or their groups uses");
  const named = (map: ReadonlyMap<string, Readonly<Record<string, string>>>) =>
    [...map]
      .filter(([name]) => !excluded(name))
      .map(([name, attributes]) => [name, declaredAttributes(attributes)] as const);
  const importedGroups = named(groupAttributes)
    .filter(([name]) => args.kinds.has("groups") && (!scoped || usedGroups.has(name)))
    .map(([name, attributes]) => [name, withoutGroupDefaults(attributes)] as const)
    .filter(([, attributes]) => Object.keys(attributes).length > 0);
  const usedImages = new Set(
    [
      ...entries.map((entry) => entry.attributes.provmethod),
      ...split.deployments.map((deployment) => deployment.osimage),
      ...importedGroups.map(([, a]) => a.provmethod),
    ].filter((image) => image !== undefined),
  );
  const cluster: ImportedCluster = {
    groups: importedGroups,
    osimages: named(osimages).filter(([name]) => !scoped || usedImages.has(name)),
    networks: named(networks),
    policies: named(policies),
    site,
    tableRows,
    runs,
    singles,
    deployments: split.deployments,
  };

  const defined = new Set([
    ...nodegroup.map((row) => row.groupname ?? ""),
    ...[...groups]
      .filter(
        ([, attributes]) => Object.keys(withoutGroupDefaults(declaredAttributes(attributes))).length > 0,
      )
      .map(([name]) => name),
  ]);
  const findings = [
    ...duplicateAddresses(new Map(kept)),
    ...undefinedGroups(new Map(entries.map((entry) => [entry.name, entry.groups])), defined),
    ...mistypedAddresses(new Map([...kept, ...cluster.groups, ...cluster.networks])),
    ...mistypedInterfaces(new Map([...kept, ...cluster.groups])),
    ...validationFindings(cluster),
    ...split.findings,
  ];
  return { cluster, left, findings };
}

function keyedRow(
  table: string,
  row: Readonly<Record<string, string>>,
): ImportedCluster["tableRows"][number] {
  const keyColumns = tableSchema(table)?.keys ?? [];
  const entries = Object.entries(row).filter(([, value]) => value !== "");
  return {
    table,
    keys: Object.fromEntries(entries.filter(([column]) => keyColumns.includes(column))),
    values: Object.fromEntries(entries.filter(([column]) => !keyColumns.includes(column))),
  };
}

function withoutGroupDefaults(attributes: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(attributes).filter(([attribute, value]) => !isDefaultGroupAttribute(attribute, value)),
  );
}

/** The @pulumi/pulumi range this package supports (its peerDependencies), for the generated package.json. */
function supportedPulumiRange(): string {
  const own = JSON.parse(readFileSync(join(__dirname, "..", "..", "..", "package.json"), "utf8")) as {
    peerDependencies?: Record<string, string>;
  };
  const range = own.peerDependencies?.["@pulumi/pulumi"];
  if (range === undefined) throw new Error("internal: package.json names no @pulumi/pulumi peer dependency");
  return range;
}

function writeProject(
  args: ImportArgs,
  connection: ImportConnection,
  program: RenderedProgram,
  cluster: ImportedCluster,
  left: readonly string[],
  findings: readonly Finding[],
): void {
  const file = (name: string, text: string) => {
    mkdirSync(dirname(join(args.out, name)), { recursive: true });
    writeFileSync(join(args.out, name), text);
  };
  for (const extra of program.files ?? []) file(extra.path, extra.text);
  if (args.language === "yaml") file("Pulumi.yaml", program.source);
  else writeTypeScriptProject(args, program, cluster.backend ?? "xcat", file);
  file("README.md", readme(args, connection, program, cluster, left, findings));
}

/** The project of several servers: no stack-wide connection, each server's in its own config keys. */
function writeServersProject(args: ImportArgs, program: RenderedProgram, reads: readonly ServerRead[]): void {
  const file = (name: string, text: string) => {
    mkdirSync(dirname(join(args.out, name)), { recursive: true });
    writeFileSync(join(args.out, name), text);
  };
  for (const extra of program.files ?? []) file(extra.path, extra.text);
  if (args.language === "yaml") file("Pulumi.yaml", program.source);
  else writeTypeScriptProject(args, program, "several", file);
  file(
    "README.md",
    serversReadme({
      out: args.out,
      language: args.language,
      packageSpec: args.packageSpec,
      includeDefaults: args.includeDefaults,
      secrets: program.secrets,
      servers: reads.map((read) => ({
        name: read.server.name,
        connection: read.connection,
        cluster: read.cluster,
        left: read.left,
        findings: read.findings,
      })),
    }),
  );
}

/** Pulumi.yaml, package.json, tsconfig.json and index.ts of the TypeScript project. */
function writeTypeScriptProject(
  args: ImportArgs,
  program: RenderedProgram,
  servers: "xcat" | "confluent" | "several",
  file: (name: string, text: string) => void,
): void {
  const confluent = servers === "confluent";
  file(
    "Pulumi.yaml",
    [
      "name: xcat-cluster",
      "runtime: nodejs",
      servers === "several"
        ? "description: xCAT and Confluent servers imported in one run by pulumi-xcat import"
        : `description: ${confluent ? "Confluent" : "xCAT"} cluster imported by pulumi-xcat import`,
      ...(confluent ? ["config:", ...BACKEND_CONFIG_LINES] : []),
      "",
    ].join("\n"),
  );
  file(
    "package.json",
    `${JSON.stringify(
      {
        name: "xcat-cluster",
        private: true,
        main: "index.ts",
        dependencies: { "@pulumi/pulumi": supportedPulumiRange(), "pulumi-xcat": args.packageSpec },
        devDependencies: { typescript: "^6.0.0" },
      },
      null,
      2,
    )}\n`,
  );
  file(
    "tsconfig.json",
    `${JSON.stringify(
      {
        compilerOptions: {
          strict: true,
          target: "es2023",
          module: "nodenext",
          moduleResolution: "nodenext",
          skipLibCheck: true,
        },
        files: ["index.ts"],
      },
      null,
      2,
    )}\n`,
  );
  file("index.ts", program.source);
}

function readme(
  args: ImportArgs,
  connection: ImportConnection,
  program: RenderedProgram,
  cluster: ImportedCluster,
  left: readonly string[],
  findings: readonly Finding[],
): string {
  const yaml = args.language === "yaml";
  const confluent = cluster.backend === "confluent";
  const sets = cluster.nodeSets ?? [];
  const inSets = sets.reduce((sum, set) => sum + set.rows.length, 0);
  const nodes =
    inSets + cluster.singles.length + cluster.runs.reduce((sum, run) => sum + run.last - run.first + 1, 0);
  return [
    `# ${confluent ? "Confluent" : "xCAT"} cluster, imported`,
    "",
    "Written by `pulumi-xcat import`. What it holds:",
    "",
    ...(confluent
      ? [
          `Read from the Confluent server at ${connection.url}: Pulumi.yaml sets \`xcat:backend: confluent\` for`,
          "every stack of this project, and the attributes carry the program's (xCAT's) names",
          "(the package's docs/confluent.md has the table). Confluent never returns a secret, so each",
          "one is asked for below; Confluent's backend compares a secret by whether it is set.",
          "",
        ]
      : []),
    sets.length > 0
      ? `- ${nodes} nodes: ${inSets} in ${sets.length} NodeSets (one per rack; values all its nodes share in the set, each node's own in inventory/<rack>.csv), ${nodes - inSets} as Nodes`
      : yaml
        ? `- ${nodes} nodes, each written out (YAML has no loops), in Pulumi.yaml for the native provider`
        : `- ${nodes} nodes (${cluster.runs.length} regular runs written as loops, ${cluster.singles.length} single nodes)`,
    `- ${cluster.groups.length} groups, ${cluster.osimages.length} OS images, ${cluster.networks.length} networks, ${cluster.policies.length} policy rows, ${cluster.site.length} site settings, ${cluster.tableRows.length} table rows`,
    "",
    "## Left out",
    "",
    ...(left.length > 0 ? left.map((item) => `- ${item}`) : ["- nothing"]),
    "",
    ...(confluent
      ? ["What is left out stays on the Confluent server as it is; the program does not manage it."]
      : [
          "Run the import again with `--include-defaults` to take the unchanged defaults too, and with",
          "`--with site,policy,networks` to take what a `--noderange` import leaves out.",
        ]),
    "",
    "## Worth a look",
    "",
    "The import keeps every value as the server holds it, so the first `pulumi up` changes nothing.",
    "These looked wrong; fix them in the program (and so on the server) if they are:",
    "",
    ...(findings.length > 0 ? findings.map((finding) => `- ${finding.text}`) : ["- nothing"]),
    "",
    "## Secrets",
    "",
    program.secrets.length === 0
      ? "The cluster holds no passwords the program manages."
      : "Passwords are never written into the program; the first-run lines below ask for each:\n",
    ...program.secrets.map(
      (secret) =>
        `- \`${secret.key}\`: ${secret.holds}${secret.plain ? " (not a password, but the server never shows it: plain config)" : ""}`,
    ),
    "",
    "## First run",
    "",
    ...firstRunLines(args.out, connection, program.secrets, args.language, args.packageSpec),
    "Every resource has `adopt: true`: the first `up` takes each object over as it is and changes nothing",
    "on the server. The flag can go after that first `up`.",
    "",
    "## Why `protect`",
    "",
    "Every resource is created with `protect: true` rather than `retainOnDelete`. These are production",
    "objects: with `retainOnDelete` a deleted line or a `pulumi destroy` would silently drop the object",
    "from the stack and leave it behind unmanaged; with `protect` the engine refuses and says why, until",
    "you remove `protect` for the objects you really mean to delete.",
    "",
  ].join("\n");
}
