/**
 * `pulumi-xcat import`: reads a live xCAT in a bounded number of requests (one ALLRESOURCES GET
 * per object kind, one for the site table) and writes a ready-to-run Pulumi TypeScript project.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { XcatClient } from "../../client";
import { tableSchema } from "../../contract/schema";
import { clientOptionsFor, settingsFrom } from "../../provider/config";
import { XCATCONFIG_POLICIES, XCATCONFIG_SITE_KEYS } from "./defaults";
import { declaredAttributes, ownAttributes, splitGroups, XCATDEFAULTS } from "./inheritance";
import { type ImportedCluster, renderProgram } from "./render";
import { findRuns } from "./runs";

const KINDS = ["nodes", "groups", "osimages", "networks", "policy", "site"] as const;

export const HELP = `Usage: pulumi-xcat import --out DIR [options]

Reads a live xCAT and writes a Pulumi TypeScript project (Pulumi.yaml, package.json,
tsconfig.json, index.ts, README.md) whose first \`pulumi up\` adopts every object as it is.

Connection (like the provider; flags win over XCAT_* variables):
  --url URL               xcatws base URL (XCAT_URL)
  --username NAME         (XCAT_USERNAME)
  --password-file FILE    file holding the password (else XCAT_PASSWORD)
  --ca-cert FILE          CA certificate of the management node (XCAT_CA_CERT)
  --insecure              skip certificate verification (XCAT_INSECURE)

Scope:
  --out DIR               where to write the project (required)
  --noderange RANGE       nodes to take (a noderange or groups; default all)
  --kinds LIST            comma list of ${KINDS.join(", ")} (default all)
  --tables LIST           also take every row of these tables as TableRow resources
  --exclude PATTERN       leave out objects whose name matches (glob with *, repeatable)
  --include-defaults      also take what xcatconfig creates (site keys, policy 1..4.9)
  --package-spec SPEC     how package.json names pulumi-xcat (default: this package's
                          directory, as file:, since pulumi-xcat is not published)
  --help                  this text
`;

interface ImportArgs {
  out: string;
  env: NodeJS.ProcessEnv;
  noderange?: string;
  kinds: Set<string>;
  tables: string[];
  exclude: RegExp[];
  includeDefaults: boolean;
  packageSpec: string;
}

export function parseImportArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ImportArgs | "help" {
  const merged: NodeJS.ProcessEnv = { ...env };
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
        merged.XCAT_URL = next();
        break;
      case "--username":
        merged.XCAT_USERNAME = next();
        break;
      case "--password-file":
        merged.XCAT_PASSWORD = readFileSync(next(), "utf8").trim();
        break;
      case "--ca-cert":
        merged.XCAT_CA_CERT = next();
        break;
      case "--insecure":
        merged.XCAT_INSECURE = "true";
        break;
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
      default:
        throw new Error(`unknown option '${flag}' (see pulumi-xcat import --help)`);
    }
  }
  if (parsed.out === undefined) throw new Error("--out DIR is required (see pulumi-xcat import --help)");
  return {
    out: parsed.out,
    env: merged,
    ...(parsed.noderange !== undefined ? { noderange: parsed.noderange } : {}),
    kinds: parsed.kinds ?? new Set(KINDS),
    tables: parsed.tables ?? [],
    exclude: parsed.exclude,
    includeDefaults: parsed.includeDefaults ?? false,
    packageSpec: parsed.packageSpec ?? `file:${join(__dirname, "..", "..", "..")}`,
  };
}

const progress = (text: string) => process.stderr.write(`pulumi-xcat import: ${text}\n`);

export async function run(argv: readonly string[]): Promise<number> {
  const args = parseImportArgs(argv, process.env);
  if (args === "help") {
    process.stdout.write(HELP);
    return 0;
  }
  const started = Date.now();
  const settings = settingsFrom(() => undefined, args.env);
  const client = new XcatClient(clientOptionsFor(settings.connection, settings));
  try {
    const { cluster, left } = await readCluster(client, args);
    const program = renderProgram(cluster);
    mkdirSync(args.out, { recursive: true });
    writeProject(args, program, cluster, left);
    progress(`wrote ${args.out} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  } finally {
    await client.close();
  }
}

async function readCluster(
  client: XcatClient,
  args: ImportArgs,
): Promise<{ cluster: ImportedCluster; left: string[] }> {
  const excluded = (name: string) => args.exclude.some((pattern) => pattern.test(name));
  const left: string[] = [];
  const take = async (kind: string, read: () => Promise<Map<string, Readonly<Record<string, string>>>>) => {
    if (!args.kinds.has(kind)) return new Map<string, Readonly<Record<string, string>>>();
    progress(`reading ${kind}…`);
    const all = await read();
    progress(`  ${all.size} ${kind}`);
    return all;
  };
  const groups = await take("groups", () => client.groups.getMany("ALLRESOURCES"));
  const nodes = await take("nodes", () => client.nodes.getMany(args.noderange ?? "ALLRESOURCES"));
  const osimages = await take("osimages", () => client.osimages.getMany("ALLRESOURCES"));
  const networks = await take("networks", () => client.networks.getMany("ALLRESOURCES"));
  const policies = await take("policy", () => client.policy.getMany("ALLRESOURCES"));
  let site: [string, string][] = [];
  if (args.kinds.has("site")) {
    progress("reading site…");
    site = Object.entries(await client.globalconf.get()).filter(
      ([key, value]) => value !== "" && !excluded(key),
    );
  }
  const tableRows: ImportedCluster["tableRows"][number][] = [];
  if (args.tables.length > 0) {
    progress(`reading tables ${args.tables.join(", ")}…`);
    const rows = await client.tables.getAllRows(args.tables);
    for (const [table, list] of Object.entries(rows)) {
      for (const row of list as Record<string, string>[]) {
        const keyColumns = tableSchema(table)?.keys ?? [];
        const entries = Object.entries(row).filter(([, value]) => value !== "");
        tableRows.push({
          table,
          keys: Object.fromEntries(entries.filter(([column]) => keyColumns.includes(column))),
          values: Object.fromEntries(entries.filter(([column]) => !keyColumns.includes(column))),
        });
      }
    }
  }
  if (!args.includeDefaults) {
    const before = site.length;
    site = site.filter(([key]) => !XCATCONFIG_SITE_KEYS.has(key));
    left.push(`${before - site.length} site keys xcatconfig sets (${[...XCATCONFIG_SITE_KEYS].join(", ")})`);
    for (const priority of XCATCONFIG_POLICIES) policies.delete(priority);
    left.push(`the policy rows xcatconfig creates (${[...XCATCONFIG_POLICIES].join(", ")})`);
    left.push("the xcatdefaults postscripts row xCAT applies to every node");
  }
  const groupAttributes = new Map(
    [...groups].map(([name, attributes]) => [name, declaredAttributes(attributes)]),
  );
  if (args.kinds.has("nodes")) {
    // What lsdef shows a node from the xcatdefaults row counts as inherited, not as its own.
    progress("reading the xcatdefaults postscripts…");
    const [defaults = {}] = await client.tables.getRows("postscripts", { node: XCATDEFAULTS });
    const row = defaults as Record<string, string | undefined>;
    groupAttributes.set(XCATDEFAULTS, {
      ...(row.postscripts ? { postscripts: row.postscripts } : {}),
      ...(row.postbootscripts ? { postbootscripts: row.postbootscripts } : {}),
    });
  }
  const entries = [...nodes]
    .filter(([name]) => !excluded(name))
    .map(([name, attributes]) => ({
      name,
      groups: splitGroups(attributes.groups),
      attributes: ownAttributes(name, attributes, groupAttributes),
    }));
  const { runs, singles } = findRuns(entries);
  progress(`${entries.length} nodes: ${runs.length} runs, ${singles.length} single nodes`);
  const named = (map: Map<string, Readonly<Record<string, string>>>) =>
    [...map]
      .filter(([name]) => !excluded(name))
      .map(([name, attributes]) => [name, declaredAttributes(attributes)] as const);
  return {
    cluster: {
      groups: named(groupAttributes).filter(
        ([name, attributes]) => name !== XCATDEFAULTS && Object.keys(attributes).length > 0,
      ),
      osimages: named(osimages),
      networks: named(networks),
      policies: named(policies),
      site,
      tableRows,
      runs,
      singles,
    },
    left,
  };
}

function writeProject(
  args: ImportArgs,
  program: ReturnType<typeof renderProgram>,
  cluster: ImportedCluster,
  left: readonly string[],
): void {
  const file = (name: string, text: string) => writeFileSync(join(args.out, name), text);
  file(
    "Pulumi.yaml",
    "name: xcat-cluster\nruntime: nodejs\ndescription: xCAT cluster imported by pulumi-xcat import\n",
  );
  file(
    "package.json",
    `${JSON.stringify(
      {
        name: "xcat-cluster",
        private: true,
        main: "index.ts",
        dependencies: { "@pulumi/pulumi": "^3.0.0", "pulumi-xcat": args.packageSpec },
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
  const nodes = cluster.singles.length + cluster.runs.reduce((sum, run) => sum + run.last - run.first + 1, 0);
  const readme = [
    "# xCAT cluster, imported",
    "",
    "Written by `pulumi-xcat import`. What it holds:",
    "",
    `- ${nodes} nodes (${cluster.runs.length} regular runs written as loops, ${cluster.singles.length} single nodes)`,
    `- ${cluster.groups.length} groups, ${cluster.osimages.length} OS images, ${cluster.networks.length} networks, ${cluster.policies.length} policy rows, ${cluster.site.length} site settings, ${cluster.tableRows.length} table rows`,
    "",
    "## Left out",
    "",
    ...(left.length > 0 ? left.map((item) => `- ${item}`) : ["- nothing"]),
    "",
    "Run the import again with `--include-defaults` to take them too.",
    "",
    "## Secrets",
    "",
    program.secrets.length === 0
      ? "The cluster holds no passwords the program manages."
      : "Passwords are never written into the program. Before the first `pulumi up`, set each one:\n",
    ...program.secrets.map((secret) => `    pulumi config set --secret ${secret.key}   # ${secret.holds}`),
    "",
    "## First run",
    "",
    "    npm install && pulumi stack init && pulumi config set xcat:url <url> && pulumi up",
    "",
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
  file("README.md", readme);
}
